/* filters/glare.c: "glare", optical bloom: light scattered around bright
 * sources, a glare point-spread function convolved with the linear
 * radiance (docs/camera_pipeline.md, "Glare").
 *
 * The PSF is the photopic one of G. Spencer, P. Shirley, K. Zimmerman and
 * D. P. Greenberg, "Physically-based glare effects for digital images",
 * SIGGRAPH 1995 (eq. 6-9), with theta the angle from the source in
 * degrees:
 *
 *   f0 = 2.61e6 exp(-(theta / 0.02)^2)     the focused core
 *   f1 = 20.91 / (theta + 0.02)^3          scattering, near
 *   f2 = 72.37 / (theta + 0.02)^2          scattering, far
 *   P  = 0.384 f0 + 0.478 f1 + 0.138 f2    (photopic; per square degree)
 *
 * (their lenticular halo f3, which only mesopic and scotopic vision
 * weight, is left out). It describes the human eye; a camera lens
 * scatters less, so `strength` s mixes it in: out = (1 - s) L + s (K * L),
 * K the PSF averaged over each pixel's square of side deg_per_px,
 * truncated to a disc of radius_px and normalised to sum 1, so the image's
 * total radiance is kept wherever the kernel stays inside the frame (light
 * scattered past the frame's edge leaves it, as it leaves a sensor).
 *
 * The convolution is linear, by FFT, per channel (filters/conv.c); K's
 * transform is kept between frames of the same size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "filters/conv.h"

typedef struct glare {
  double deg_per_px; /* angular size of a pixel, deg */
  int radius;        /* kernel support, px */
  double strength;   /* share of the light the PSF redistributes, [0, 1] */
  sensim_conv conv;   /* the kernel's transform for the last frame size */
} glare;

static double spencer_photopic(double theta) {
  double a = theta + 0.02;
  return 0.384 * 2.61e6 * exp(-(theta / 0.02) * (theta / 0.02)) + 0.478 * 20.91 / (a * a * a) +
         0.138 * 72.37 / (a * a);
}

static sensim_status glare_create(const cJSON *params, void **user) {
  static const char *const known[] = {"deg_per_px", "radius_px", "strength", NULL};
  double dpp = 0, radius = 64, strength = 1;
  sensim_status rc = sensim__param_only(params, "glare", known);
  if (!rc) rc = sensim__param_number(params, "deg_per_px", &dpp);
  if (!rc) rc = sensim__param_number(params, "radius_px", &radius);
  if (!rc) rc = sensim__param_number(params, "strength", &strength);
  if (rc) return rc;
  if (!(dpp > 0 && dpp <= 10))
    return sensim__fail(SENSIM_EINVAL,
                        "glare: deg_per_px %g must be in (0, 10] (the camera's angle per pixel, e.g. "
                        "hfov_deg / width)",
                        dpp);
  if (!(radius >= 1 && radius <= 1024 && radius == (int)radius))
    return sensim__fail(SENSIM_EINVAL, "glare: radius_px %g must be an integer in [1, 1024]", radius);
  if (!(strength >= 0 && strength <= 1))
    return sensim__fail(SENSIM_EINVAL, "glare: strength %g must be in [0, 1]", strength);
  glare *g = calloc(1, sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  g->deg_per_px = dpp;
  g->radius = (int)radius;
  g->strength = strength;
  *user = g;
  return SENSIM_OK;
}

static void glare_destroy(void *user) {
  glare *g = user;
  if (!g) return;
  sensim__conv_free(&g->conv);
  free(g);
}

/* The PSF averaged over the pixel at offset (i, j): n x n sub-samples, more
 * near the source where P is steep. */
static double pixel_psf(double dpp, int i, int j) {
  int n = (abs(i) <= 2 && abs(j) <= 2) ? 64 : (abs(i) <= 8 && abs(j) <= 8) ? 8 : 2;
  double s = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      double x = i - 0.5 + (a + 0.5) / n, y = j - 0.5 + (b + 0.5) / n;
      s += spencer_photopic(dpp * sqrt(x * x + y * y));
    }
  return s / ((double)n * n);
}

/* Fill out[(2R + 1)^2] with the normalised kernel, row-major from (-R, -R). */
static void kernel(const glare *g, double *out) {
  const int R = g->radius, w = 2 * R + 1;
  double sum = 0;
  for (int j = -R; j <= R; j++)
    for (int i = -R; i <= R; i++) {
      double k = i * i + j * j <= R * R ? pixel_psf(g->deg_per_px, i, j) : 0;
      out[(size_t)(j + R) * w + (i + R)] = k;
      sum += k;
    }
  for (size_t k = 0; k < (size_t)w * w; k++) out[k] /= sum;
}

sensim_status sensim__glare_kernel(const cJSON *params, int *radius, double **k) {
  void *u = NULL;
  sensim_status rc = glare_create(params, &u);
  if (rc) return rc;
  glare *g = u;
  const size_t w = 2 * (size_t)g->radius + 1;
  *k = malloc(w * w * sizeof **k);
  if (!*k) {
    glare_destroy(g);
    return sensim__fail(SENSIM_ENOMEM, "out of memory");
  }
  kernel(g, *k);
  *radius = g->radius;
  glare_destroy(g);
  return SENSIM_OK;
}

static void make_kernel(void *arg, double *k) { kernel(arg, k); }

static sensim_status glare_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  glare *g = user;
  if (f->type != SENSIM_PAYLOAD_RGB_F32)
    return sensim__fail(SENSIM_ETYPE, "glare takes rgb_f32, not %s", sensim_payload_name(f->type));
  if (f->unit != SENSIM_UNIT_RADIANCE)
    return sensim__fail(SENSIM_ETYPE, "glare takes radiance (light in the optics, before image_sensor), not %s",
                        sensim_image_unit_name(f->unit));
  if (g->strength == 0) return SENSIM_OK;
  const size_t W = f->width, H = f->height;
  sensim_status st = sensim__conv_setup(&g->conv, W, H, g->radius, 1, make_kernel, g);
  if (st) return st;
  double *out = malloc(W * H * sizeof *out);
  if (!out) return sensim__fail(SENSIM_ENOMEM, "glare: out of memory for a %zux%zu plane", W, H);
  float *v = f->data;
  const double s = g->strength;
  for (int c = 0; c < 3 && !st; c++) {
    st = sensim__conv_plane(&g->conv, v + c, 3, out);
    for (size_t i = 0; i < W * H && !st; i++) {
      float *p = &v[3 * i + c];
      if (isfinite(*p)) *p = (float)((1 - s) * *p + s * out[i]);
    }
  }
  free(out);
  return st;
}

const sensim_builtin_filter sensim__filter_glare = {
    {"glare", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL, glare_apply, glare_destroy}, glare_create, NULL};
