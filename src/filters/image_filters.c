/* filters/image_filters.c: camera-frame conversions and additive noise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"

/* ---- srgb8 ---- */

typedef struct srgb_params {
  double exposure;
} srgb_params;

/* IEC 61966-2-1:1999 sRGB transfer function (linear -> encoded). */
static double srgb_encode(double x) {
  if (!(x > 0.0)) return 0.0;
  if (x >= 1.0) return 1.0;
  return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1.0 / 2.4) - 0.055;
}

static sensim_status srgb_create(const cJSON *params, void **user) {
  static const char *const known[] = {"exposure", NULL};
  srgb_params p = {1.0};
  sensim_status rc = sensim__param_only(params, "srgb8", known);
  if (!rc) rc = sensim__param_number(params, "exposure", &p.exposure);
  if (rc) return rc;
  if (!(p.exposure > 0)) return sensim__fail(SENSIM_EINVAL, "srgb8: exposure %g must be > 0", p.exposure);
  srgb_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

static sensim_status srgb_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const srgb_params *p = user;
  /* A 4096-entry table over [0, 1] would band dark tones; the exact curve
   * costs one pow per channel, which is small next to tracing the pixel. */
  float *rgb = f->data;
  f->data = NULL;
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_RGBA8, f->width, f->height);
  if (rc) {
    f->data = rgb;
    return rc;
  }
  uint8_t *o = f->data;
  for (size_t i = 0; i < f->count; i++) {
    for (int c = 0; c < 3; c++) o[4 * i + c] = (uint8_t)lrint(255.0 * srgb_encode(p->exposure * rgb[3 * i + c]));
    o[4 * i + 3] = 255;
  }
  sensim__frame_buffer_free(rgb);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_srgb8 = {
    {"srgb8", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGBA8, NULL, srgb_apply, free}, srgb_create, NULL};

/* ---- depth and labels: promote a camera plane to the primary payload ---- */

static sensim_status no_params(const cJSON *params, void **user, const char *name) {
  static const char *const none[] = {NULL};
  *user = NULL;
  return sensim__param_only(params, name, none);
}
static sensim_status depth_create(const cJSON *params, void **user) { return no_params(params, user, "depth"); }
static sensim_status labels_create(const cJSON *params, void **user) { return no_params(params, user, "labels"); }

static sensim_status promote(sensim_frame *f, void **plane, sensim_payload type) {
  if (!*plane) return sensim__fail(SENSIM_ETYPE, "the frame carries no %s plane", sensim_payload_name(type));
  sensim__frame_buffer_free(f->data);
  f->data = *plane;
  *plane = NULL;
  f->type = type;
  return SENSIM_OK;
}

static sensim_status depth_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  return promote(f, (void **)&f->depth, SENSIM_PAYLOAD_DEPTH_F32);
}
static sensim_status labels_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  return promote(f, (void **)&f->labels, SENSIM_PAYLOAD_LABELS);
}

const sensim_builtin_filter sensim__filter_depth = {
    {"depth", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_DEPTH_F32, NULL, depth_apply, NULL}, depth_create, NULL};
const sensim_builtin_filter sensim__filter_labels = {
    {"labels", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_LABELS, NULL, labels_apply, NULL}, labels_create, NULL};

/* ---- normals: the normal plane as an image ---- */

static sensim_status normals_create(const cJSON *params, void **user) { return no_params(params, user, "normals"); }

/* The usual normal-map encoding, (n + 1) / 2 per component, so the image
 * can be quantised and written; pixels that saw nothing are 0. */
static sensim_status normals_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  if (!f->normals) return sensim__fail(SENSIM_ETYPE, "the frame carries no normal plane");
  float *n = f->normals;
  for (size_t i = 0; i < f->count; i++) {
    int hit = n[3 * i] != 0.0f || n[3 * i + 1] != 0.0f || n[3 * i + 2] != 0.0f;
    for (int c = 0; c < 3; c++) n[3 * i + c] = hit ? 0.5f * (n[3 * i + c] + 1.0f) : 0.0f;
  }
  sensim__frame_buffer_free(f->data);
  f->data = n;
  f->normals = NULL;
  f->unit = SENSIM_UNIT_SIGNAL;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_normals = {
    {"normals", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL, normals_apply, NULL}, normals_create, NULL};

/* ---- image_noise: additive white Gaussian noise ---- */

static sensim_status noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"sigma", NULL};
  double sigma = 0.01;
  sensim_status rc = sensim__param_only(params, "image_noise", known);
  if (!rc) rc = sensim__param_number(params, "sigma", &sigma);
  if (rc) return rc;
  if (!(sigma >= 0)) return sensim__fail(SENSIM_EINVAL, "image_noise: sigma %g must be >= 0", sigma);
  double *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = sigma;
  *user = u;
  return SENSIM_OK;
}

#define NOISE_CHUNK 256 /* normal pairs per batch */

static sensim_status noise_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  double sigma = *(const double *)user;
  float *rgb = f->data;
  /* Value i takes normal i of sensim_rng_normal2f_n over the filter's
   * fresh stream (pairs from consecutive words, vectorised), so it depends
   * on its position alone. */
  float n01[2 * NOISE_CHUNK];
  size_t n = 3 * f->count;
  for (size_t i0 = 0; i0 < n; i0 += 2 * NOISE_CHUNK) {
    size_t m = n - i0 < 2 * NOISE_CHUNK ? n - i0 : 2 * NOISE_CHUNK;
    sensim_rng_normal2f_n(&ctx->rng, n01, (m + 1) / 2);
    for (size_t i = 0; i < m; i++) rgb[i0 + i] += (float)(sigma * (double)n01[i]);
  }
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_image_noise = {
    {"image_noise", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL, noise_apply, free}, noise_create, NULL};
