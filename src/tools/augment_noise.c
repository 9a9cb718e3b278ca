/* tools/augment_noise.c: noise added to an existing image (augment.h).
 *
 *   x' = x + sqrt(s1^2 max(x, 0) + s2^2) n,   n ~ N(0, 1)
 *
 * the heteroscedastic Poisson-Gaussian approximation of A. Foi, M.
 * Trimeche, V. Katkovnik, K. Egiazarian, "Practical Poissonian-Gaussian
 * noise modeling and fitting for single-image raw-data", IEEE TIP 17(10),
 * 2008 (a = s1^2, b = s2^2), the model of the "noise_intensity" filter and
 * of the noise calibration, so that s1 and s2 fitted on a camera's frames
 * (`sensim noise-calib`) can be put on other images. s1 = 0 is white
 * Gaussian noise. The input's own noise stays: variances add.
 *
 * Draws: one sensim_rng stream per row, keyed (seed, sensor word
 * 0x41554730 "AUG0", frame word = image index, element = row), normals in
 * Box-Muller pairs, so the noise of an image depends only on the seed, its
 * index and its size, never on the order images are processed in. */
#include <math.h>
#include <stdlib.h>
#include "tools/tools_internal.h"

#define NOISE_STREAM 0x41554730u

sensim_status sensim_augment_noise(sensim_image *img, double s1, double s2, uint64_t seed, uint32_t index) {
  if (!img || !img->data) return sensim_error_set(SENSIM_EINVAL, "sensim_augment_noise: NULL image");
  if (!(s1 >= 0 && isfinite(s1)) || !(s2 >= 0 && isfinite(s2)))
    return sensim_error_set(SENSIM_EINVAL, "noise: s1 = %g and s2 = %g must be finite and >= 0", s1, s2);
  if (img->channels < 1 || img->width == 0 || img->height == 0)
    return sensim_error_set(SENSIM_EINVAL, "noise: empty image (%u x %u x %d)", img->width, img->height, img->channels);
  size_t row = (size_t)img->width * (size_t)img->channels;
  size_t nv = row * img->height;
  for (size_t i = 0; i < nv; i++)
    if (!isfinite(img->data[i]))
      return sensim_error_set(SENSIM_EINVAL, "noise: value %zu is %g", i, (double)img->data[i]);
  double a = s1 * s1, b = s2 * s2;
  for (uint32_t y = 0; y < img->height; y++) {
    sensim_rng r;
    sensim_rng_init(&r, seed, NOISE_STREAM, index, y);
    float *p = img->data + (size_t)y * row;
    for (size_t i = 0; i < row; i += 2) {
      double n0, n1;
      sensim_rng_normal2(&r, &n0, &n1);
      double x0 = p[i];
      p[i] = (float)(x0 + sqrt(a * (x0 > 0 ? x0 : 0) + b) * n0);
      if (i + 1 < row) {
        double x1 = p[i + 1];
        p[i + 1] = (float)(x1 + sqrt(a * (x1 > 0 ? x1 : 0) + b) * n1);
      }
    }
  }
  return SENSIM_OK;
}
