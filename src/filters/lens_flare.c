/* filters/lens_flare.c: "lens_flare", ghost images of bright light from
 * reflections between lens surfaces (docs/camera_pipeline.md, "Lens
 * flare").
 *
 * In a rotationally symmetric lens, light reflected back and forth once
 * between two of its surfaces forms a ghost: an out-of-focus image of the
 * aperture, which for each light lies on the line through the image centre
 * and the light's image, at a distance from the centre proportional
 * (paraxially) to the light's (M. B. Hullin, E. Eisemann, H.-P. Seidel and
 * S. Lee, "Physically-based real-time lens flare rendering", ACM
 * Transactions on Graphics 30(4), SIGGRAPH 2011, sec. 3; the image-space
 * form is the "pseudo lens flare" of games). Each ghost k is described by
 * its scale t_k (a light imaged at offset d from the principal point puts
 * the ghost's centre at t_k d; negative: on the opposite side), its blur
 * radius r_k (the aperture's image, a uniform disc), its gain a_k (the
 * product of the two surfaces' reflectances: about (4 %)^2 = 1.6e-3 for
 * uncoated glass, (0.5 %)^2 = 2.5e-5 for a good coating) and its tint
 * (coatings reflect colours unequally). The model is linear in the light:
 *
 *   out = L + sum_k a_k tint_k (D_{r_k} * S_{t_k}[max(0, L - threshold)])
 *
 * with S_t the image scaled by t about the principal point (each pixel's
 * light moved, bilinearly, to its ghost position: energy kept) and D_r the
 * normalised disc. threshold 0 is the physical model (every light makes
 * ghosts, too faint to see but for bright ones); a threshold keeps only
 * the light above it. Ghost light that falls outside the frame leaves it.
 * The light the reflections take from the direct image (a_k of it) is not
 * subtracted: it is inside the lens's transmittance, already lumped into
 * the image sensor's responsivity. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "filters/conv.h"

#define MAX_GHOSTS 16

typedef struct ghost {
  double scale;  /* t: ghost centre = principal point + t (light's image - principal point) */
  double radius; /* px, blur disc radius */
  double gain;   /* share of the light, [0, 1] */
  double tint[3];
  sensim_conv conv; /* its disc's transform for the last frame size */
} ghost;

typedef struct flare {
  double threshold; /* radiance below which light makes no ghost */
  double cx, cy;    /* principal point, px; NAN: the image centre */
  int n;
  ghost g[MAX_GHOSTS];
} flare;

static void flare_destroy(void *user) {
  flare *f = user;
  if (!f) return;
  for (int k = 0; k < f->n; k++) sensim__conv_free(&f->g[k].conv);
  free(f);
}

static sensim_status parse_ghost(const cJSON *o, int k, ghost *g) {
  static const char *const known[] = {"scale", "radius_px", "gain", "tint", NULL};
  char what[32];
  snprintf(what, sizeof what, "lens_flare ghost %d", k);
  if (!cJSON_IsObject(o))
    return sensim__fail(SENSIM_EINVAL, "lens_flare: ghosts[%d] must be an object {scale, radius_px, gain, tint}", k);
  g->scale = NAN, g->radius = NAN, g->gain = NAN;
  g->tint[0] = g->tint[1] = g->tint[2] = 1;
  sensim_status rc = sensim__param_only(o, what, known);
  if (!rc) rc = sensim__param_number(o, "scale", &g->scale);
  if (!rc) rc = sensim__param_number(o, "radius_px", &g->radius);
  if (!rc) rc = sensim__param_number(o, "gain", &g->gain);
  if (!rc) rc = sensim__param_vec3(o, "tint", g->tint);
  if (rc) {
    sensim_error_prefix("lens_flare: ghosts[%d]", k);
    return rc;
  }
  if (!(fabs(g->scale) > 0 && fabs(g->scale) <= 4))
    return sensim__fail(SENSIM_EINVAL, "lens_flare: ghosts[%d].scale %g must be given, nonzero and in [-4, 4]", k,
                        g->scale);
  if (!(g->radius >= 0.5 && g->radius <= 256))
    return sensim__fail(SENSIM_EINVAL, "lens_flare: ghosts[%d].radius_px %g must be given and in [0.5, 256]", k,
                        g->radius);
  if (!(g->gain >= 0 && g->gain <= 1))
    return sensim__fail(SENSIM_EINVAL, "lens_flare: ghosts[%d].gain %g must be given and in [0, 1]", k, g->gain);
  for (int c = 0; c < 3; c++)
    if (!(g->tint[c] >= 0 && g->tint[c] <= 1))
      return sensim__fail(SENSIM_EINVAL, "lens_flare: ghosts[%d].tint[%d] %g must be in [0, 1]", k, c, g->tint[c]);
  return SENSIM_OK;
}

static sensim_status flare_create(const cJSON *params, void **user) {
  static const char *const known[] = {"ghosts", "threshold", "cx", "cy", NULL};
  sensim_status rc = sensim__param_only(params, "lens_flare", known);
  if (rc) return rc;
  flare *f = calloc(1, sizeof *f);
  if (!f) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  f->cx = f->cy = NAN;
  rc = sensim__param_number(params, "threshold", &f->threshold);
  if (!rc) rc = sensim__param_number(params, "cx", &f->cx);
  if (!rc) rc = sensim__param_number(params, "cy", &f->cy);
  if (!rc && !(f->threshold >= 0))
    rc = sensim__fail(SENSIM_EINVAL, "lens_flare: threshold %g must be >= 0", f->threshold);
  if (!rc && params && cJSON_HasObjectItem(params, "cx") != cJSON_HasObjectItem(params, "cy"))
    rc = sensim__fail(SENSIM_EINVAL, "lens_flare: give cx and cy together (without them: the image centre)");
  const cJSON *gs = params ? cJSON_GetObjectItemCaseSensitive(params, "ghosts") : NULL;
  if (!rc && (!cJSON_IsArray(gs) || cJSON_GetArraySize(gs) < 1 || cJSON_GetArraySize(gs) > MAX_GHOSTS))
    rc = sensim__fail(SENSIM_EINVAL,
                      "lens_flare: 'ghosts' must be an array of 1 to %d objects {scale, radius_px, gain, tint}",
                      MAX_GHOSTS);
  if (!rc)
    for (const cJSON *o = gs->child; o && !rc; o = o->next, f->n++) rc = parse_ghost(o, f->n, &f->g[f->n]);
  if (rc) {
    flare_destroy(f);
    return rc;
  }
  *user = f;
  return SENSIM_OK;
}

/* The disc of radius r: each pixel's coverage by 8 x 8 sub-samples,
 * normalised to sum 1. */
static void disc_kernel(void *arg, double *k) {
  const double r = *(const double *)arg;
  const int R = (int)ceil(r), w = 2 * R + 1;
  double sum = 0;
  for (int j = -R; j <= R; j++)
    for (int i = -R; i <= R; i++) {
      int in = 0;
      for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++) {
          double x = i - 0.5 + (a + 0.5) / 8, y = j - 0.5 + (b + 0.5) / 8;
          in += x * x + y * y <= r * r;
        }
      k[(size_t)(j + R) * w + (i + R)] = in;
      sum += in;
    }
  for (int i = 0; i < w * w; i++) k[i] /= sum;
}

static sensim_status flare_apply(void *user, sensim_frame *fr, sensim_filter_ctx *ctx) {
  (void)ctx;
  flare *f = user;
  if (fr->type != SENSIM_PAYLOAD_RGB_F32)
    return sensim__fail(SENSIM_ETYPE, "lens_flare takes rgb_f32, not %s", sensim_payload_name(fr->type));
  if (fr->unit != SENSIM_UNIT_RADIANCE)
    return sensim__fail(SENSIM_ETYPE, "lens_flare takes radiance (light in the optics, before image_sensor), not %s",
                        sensim_image_unit_name(fr->unit));
  const size_t W = fr->width, H = fr->height, n = W * H;
  const double cx = isnan(f->cx) ? 0.5 * (W - 1.0) : f->cx, cy = isnan(f->cy) ? 0.5 * (H - 1.0) : f->cy;
  float *v = fr->data;
  /* Source light of every channel, the splatted ghost plane, its blur, and
   * the sum of the ghosts (added at the end: ghosts make no ghosts). */
  float *src = malloc(3 * n * sizeof *src), *spl = malloc(n * sizeof *spl);
  double *blur = malloc(n * sizeof *blur), *sum = calloc(3 * n, sizeof *sum);
  sensim_status st = SENSIM_OK;
  if (!src || !spl || !blur || !sum) {
    st = sensim__fail(SENSIM_ENOMEM, "lens_flare: out of memory for a %zux%zu image", W, H);
    goto done;
  }
  for (size_t i = 0; i < 3 * n; i++) {
    double e = (double)v[i] - f->threshold;
    src[i] = e > 0 ? (float)e : 0.0f; /* NaN makes no ghost */
  }
  for (int k = 0; k < f->n && !st; k++) {
    ghost *g = &f->g[k];
    if (g->gain == 0) continue;
    const int R = (int)ceil(g->radius);
    if ((st = sensim__conv_setup(&g->conv, W, H, R, 1, disc_kernel, &g->radius))) break;
    for (int c = 0; c < 3 && !st; c++) {
      if (g->tint[c] == 0) continue;
      memset(spl, 0, n * sizeof *spl);
      for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
          const float e = src[3 * (y * W + x) + c];
          if (e == 0) continue;
          /* Bilinear splat at the ghost position: weights sum to 1 and
           * their centroid is the position. */
          const double gx = cx + g->scale * (x - cx), gy = cy + g->scale * (y - cy);
          const double fx = floor(gx), fy = floor(gy), ax = gx - fx, ay = gy - fy;
          for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
              const double px = fx + dx, py = fy + dy, w = (dx ? ax : 1 - ax) * (dy ? ay : 1 - ay);
              if (w > 0 && px >= 0 && py >= 0 && px < W && py < H) spl[(size_t)py * W + (size_t)px] += (float)(w * e);
            }
        }
      if ((st = sensim__conv_plane(&g->conv, spl, 1, blur))) break;
      const double a = g->gain * g->tint[c];
      for (size_t i = 0; i < n; i++) sum[3 * i + c] += a * blur[i];
    }
  }
  if (!st)
    for (size_t i = 0; i < 3 * n; i++)
      if (isfinite(v[i])) v[i] = (float)(v[i] + sum[i]);
done:
  free(src);
  free(spl);
  free(blur);
  free(sum);
  return st;
}

const sensim_builtin_filter sensim__filter_lens_flare = {
    {"lens_flare", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL, flare_apply, flare_destroy}, flare_create, NULL};
