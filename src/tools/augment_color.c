/* tools/augment_color.c: white balance and brightness/contrast matched to
 * a calibration set (augment.h).
 *
 * White balance: gray-world gains of the calibration set, g_c = m_G / m_c
 * from its per-channel means m (G. Buchsbaum, "A spatial processor model
 * for object colour perception", J. Franklin Inst. 310(1):1-26, 1980: the
 * average of a scene is achromatic), the gains a camera's gray-world
 * balance computes on those frames; applied to other images they give them
 * that balance (green kept, so brightness is not changed).
 *
 * Brightness and contrast: the affine map per channel
 * out = (in - m) s_ref / s + m_ref, which gives a set of mean m and
 * population standard deviation s exactly the reference's m_ref and s_ref
 * (E. Reinhard, M. Ashikhmin, B. Gooch, P. Shirley, "Color transfer between
 * images", IEEE CG&A 21(5):34-41, 2001, per channel; the "match_stats"
 * filter applies the same map frame by frame). Mean and deviation of an
 * affine map a x + b are a m + b and |a| s, hence exactness up to
 * rounding. */
#include <math.h>
#include <stdlib.h>
#include "tools/tools_internal.h"

static sensim_status check_values(const sensim_image *img, const char *what) {
  if (!img || !img->data) return sensim_error_set(SENSIM_EINVAL, "%s: NULL image", what);
  if (img->channels != 1 && img->channels != 3)
    return sensim_error_set(SENSIM_EINVAL, "%s: image has %d channels (1 or 3)", what, img->channels);
  if (img->width == 0 || img->height == 0) return sensim_error_set(SENSIM_EINVAL, "%s: empty image", what);
  size_t nv = (size_t)img->width * img->height * (size_t)img->channels;
  for (size_t i = 0; i < nv; i++)
    if (!isfinite(img->data[i])) return sensim_error_set(SENSIM_EINVAL, "%s: value %zu is %g", what, i, (double)img->data[i]);
  return SENSIM_OK;
}

sensim_status sensim_gray_world_gains(const double mean[3], double gains[3]) {
  if (!mean || !gains) return sensim_error_set(SENSIM_EINVAL, "sensim_gray_world_gains: NULL argument");
  for (int c = 0; c < 3; c++)
    if (!(mean[c] > 0 && isfinite(mean[c])))
      return sensim_error_set(SENSIM_EINVAL,
                          "white balance: calibration mean of channel %d is %g; gray-world gains need means > 0", c,
                          mean[c]);
  double g[3] = {mean[1] / mean[0], 1.0, mean[1] / mean[2]};
  for (int c = 0; c < 3; c++) gains[c] = g[c];
  return SENSIM_OK;
}

sensim_status sensim_augment_gains(sensim_image *img, const double gains[3]) {
  if (!gains) return sensim_error_set(SENSIM_EINVAL, "white balance: NULL gains");
  sensim_status st = check_values(img, "white balance");
  if (st) return st;
  if (img->channels != 3)
    return sensim_error_set(SENSIM_EINVAL, "white balance: needs a colour image, not a grey one");
  for (int c = 0; c < 3; c++)
    if (!(gains[c] >= 0 && isfinite(gains[c])))
      return sensim_error_set(SENSIM_EINVAL, "white balance: gain %d = %g must be finite and >= 0", c, gains[c]);
  size_t n = (size_t)img->width * img->height;
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < 3; c++) img->data[3 * i + c] = (float)(gains[c] * img->data[3 * i + c]);
  return SENSIM_OK;
}

sensim_status sensim_augment_match_stats(sensim_image *img, const double *mean, const double *std,
                                         const double *ref_mean, const double *ref_std) {
  if (!mean || !std || !ref_mean || !ref_std)
    return sensim_error_set(SENSIM_EINVAL, "brightness: NULL statistics");
  sensim_status st = check_values(img, "brightness");
  if (st) return st;
  int nc = img->channels;
  double gain[3], off[3];
  for (int c = 0; c < nc; c++) {
    if (!isfinite(mean[c]) || !isfinite(ref_mean[c]) || !(std[c] >= 0 && isfinite(std[c])) ||
        !(ref_std[c] >= 0 && isfinite(ref_std[c])))
      return sensim_error_set(SENSIM_EINVAL,
                          "brightness: channel %d statistics mean %g, std %g -> reference mean %g, std %g must be "
                          "finite with std >= 0",
                          c, mean[c], std[c], ref_mean[c], ref_std[c]);
    gain[c] = std[c] > 0 ? ref_std[c] / std[c] : 1.0;
    off[c] = ref_mean[c];
  }
  size_t n = (size_t)img->width * img->height;
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < nc; c++) {
      float *p = &img->data[i * (size_t)nc + (size_t)c];
      *p = (float)(((double)*p - mean[c]) * gain[c] + off[c]);
    }
  return SENSIM_OK;
}

sensim_status sensim_image_moments(const sensim_image *img, double *mean, double *std) {
  if (!mean || !std) return sensim_error_set(SENSIM_EINVAL, "sensim_image_moments: NULL output");
  sensim_status st = check_values(img, "image moments");
  if (st) return st;
  int nc = img->channels;
  size_t n = (size_t)img->width * img->height;
  /* Two passes: the sum of squared deviations from the mean loses nothing
   * to cancellation (Chan, Golub & LeVeque, The American Statistician
   * 37(3), 1983). */
  for (int c = 0; c < nc; c++) {
    double s = 0, q = 0;
    for (size_t i = 0; i < n; i++) s += img->data[i * (size_t)nc + (size_t)c];
    double m = s / (double)n;
    for (size_t i = 0; i < n; i++) {
      double d = img->data[i * (size_t)nc + (size_t)c] - m;
      q += d * d;
    }
    mean[c] = m;
    std[c] = sqrt(q / (double)n);
  }
  return SENSIM_OK;
}
