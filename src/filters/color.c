/* filters/color.c: colour stages of the ISP on rgb_f32 frames, any unit (the
 * numbers in parameters are in the frame's unit at that point of the chain).
 *
 * "white_balance" rgb_f32 -> rgb_f32, per-channel gains:
 *   {"mode": "fixed", "gains": [r, g, b] [1, 1, 1]}: the given gains (>= 0).
 *   {"mode": "gray_world"} (the default): R and B scaled so their means equal
 *     G's mean, G unchanged: G. Buchsbaum, "A spatial processor model for
 *     object colour perception", J. Franklin Inst. 310(1):1-26, 1980 (the
 *     scene's average reflectance is assumed achromatic).
 *   {"mode": "reference", "reference_mean": [r, g, b] (> 0, required)}: the
 *     gains ref_c / mean_c that map this frame's channel means to those of a
 *     set of reference images (e.g. real camera frames; give them in the
 *     frame's unit: linearise sRGB-encoded PNG values first, or place the
 *     filter after "tone").
 *   A channel whose frame mean is not > 0 keeps gain 1 (nothing to scale).
 * "ccm" rgb_f32 -> rgb_f32: out = M in, {"matrix": [9 numbers, row-major]
 *   [identity]}, the 3 x 3 colour correction matrix of a camera pipeline
 *   (camera RGB to an output RGB, e.g. Ramanath et al., "Color image
 *   processing pipeline", IEEE Signal Processing Magazine 22(1), 2005).
 * "match_stats" rgb_f32 -> rgb_f32: brightness/contrast matching, the affine
 *   map out = (in - mean) * ref_std / std + ref_mean that gives the frame the
 *   mean and standard deviation (population, over all pixels) of reference
 *   images (Reinhard et al., "Color transfer between images", IEEE CG&A
 *   21(5), 2001, do the same per channel in another colour space).
 *   {"per_channel": true, "reference_mean": [r, g, b], "reference_std":
 *    [r, g, b]}: one map per channel;
 *   {"per_channel": false, "reference_mean": Y, "reference_std": Y}: one map
 *    of the Rec. 709 luminance Y = 0.2126 R + 0.7152 G + 0.0722 B (ITU-R
 *    BT.709-6), the same gain and offset on all three channels (colour
 *    differences scale with the contrast, hues are not shifted apart); as
 *    the weights sum to 1, Y gets exactly the reference mean and standard
 *    deviation.
 *   Both references are required; std >= 0. A flat channel (std 0) is only
 *   shifted to the reference mean. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"

static const double kLuma709[3] = {0.2126, 0.7152, 0.0722};

static sensim_status param_string(const cJSON *params, const char *filter, const char *key, const char **v) {
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, key) : NULL;
  if (!it) return SENSIM_OK;
  if (!cJSON_IsString(it)) return sensim__fail(SENSIM_EINVAL, "%s: parameter '%s' must be a string", filter, key);
  *v = it->valuestring;
  return SENSIM_OK;
}

static int has(const cJSON *params, const char *key) {
  return params && cJSON_GetObjectItemCaseSensitive(params, key) != NULL;
}

/* Per-channel means (and population standard deviations if sd != NULL),
 * accumulated in double. */
/* Channel sums over a fixed partition: pixel i adds to partial sum i mod 4
 * of its channel, and the partial sums are added in a fixed order. Four
 * independent chains instead of one latency-bound chain per channel; the
 * partition depends on nothing but i, so the sums are the same bits on any
 * machine and for any thread count. */
__attribute__((always_inline)) static inline void channel_sums_body(const float *rgb, size_t n, double s[3]) {
  double p[4][3] = {{0}};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int l = 0; l < 4; l++)
      for (int c = 0; c < 3; c++) p[l][c] += rgb[3 * (i + (size_t)l) + (size_t)c];
  for (; i < n; i++)
    for (int c = 0; c < 3; c++) p[i % 4][c] += rgb[3 * i + (size_t)c];
  for (int c = 0; c < 3; c++) s[c] = (p[0][c] + p[1][c]) + (p[2][c] + p[3][c]);
}
static void channel_sums_plain(const float *rgb, size_t n, double s[3]) { channel_sums_body(rgb, n, s); }
#if defined(SENSIM_HAVE_AVX2_PATHS)
__attribute__((target("avx2"))) static void channel_sums_avx2(const float *rgb, size_t n, double s[3]) {
  channel_sums_body(rgb, n, s);
}
#endif

/* The sums run over STAT_PARTS fixed chunks of the pixels, banded over the
 * world's workers (filters/bands.h) and added in chunk order: the chunks
 * depend on n alone, so the bits do not depend on the thread count. */
#define STAT_PARTS 16

typedef struct sums_job {
  const float *rgb;
  size_t n;
  double part[STAT_PARTS][3];
} sums_job;

static void sums_chunks(void *arg, size_t lo, size_t hi) {
  sums_job *j = arg;
  for (size_t c = lo; c < hi; c++) {
    const size_t i0 = j->n * c / STAT_PARTS, i1 = j->n * (c + 1) / STAT_PARTS;
#if defined(SENSIM_HAVE_AVX2_PATHS)
    if (sensim__cpu_has_avx2())
      channel_sums_avx2(j->rgb + 3 * i0, i1 - i0, j->part[c]);
    else
#endif
      channel_sums_plain(j->rgb + 3 * i0, i1 - i0, j->part[c]);
  }
}

static void channel_stats(const float *rgb, size_t n, double mean[3], double sd[3]) {
  sums_job job;
  job.rgb = rgb, job.n = n;
  sensim__filter_bands(STAT_PARTS, 1, sums_chunks, &job);
  double s[3] = {0, 0, 0};
  for (int c = 0; c < STAT_PARTS; c++)
    for (int k = 0; k < 3; k++) s[k] += job.part[c][k];
  for (int c = 0; c < 3; c++) mean[c] = n ? s[c] / (double)n : 0.0;
  if (!sd) return;
  double q[3] = {0, 0, 0};
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < 3; c++) {
      double d = rgb[3 * i + c] - mean[c];
      q[c] += d * d;
    }
  for (int c = 0; c < 3; c++) sd[c] = n ? sqrt(q[c] / (double)n) : 0.0;
}

/* ---- white_balance ---- */

typedef enum wb_mode { WB_FIXED, WB_GRAY_WORLD, WB_REFERENCE } wb_mode;

typedef struct wb_params {
  wb_mode mode;
  double gains[3];
  double ref[3];
} wb_params;

static sensim_status wb_create(const cJSON *params, void **user) {
  static const char *const known[] = {"mode", "gains", "reference_mean", NULL};
  wb_params p = {WB_GRAY_WORLD, {1, 1, 1}, {0, 0, 0}};
  const char *mode = "gray_world";
  sensim_status rc = sensim__param_only(params, "white_balance", known);
  if (!rc) rc = param_string(params, "white_balance", "mode", &mode);
  if (rc) return rc;
  if (strcmp(mode, "fixed") == 0)
    p.mode = WB_FIXED;
  else if (strcmp(mode, "gray_world") == 0)
    p.mode = WB_GRAY_WORLD;
  else if (strcmp(mode, "reference") == 0)
    p.mode = WB_REFERENCE;
  else {
    static const char *const modes[] = {"fixed", "gray_world", "reference", NULL};
    char hint[96];
    return sensim__fail(SENSIM_EINVAL, "white_balance: unknown mode '%s'%s (fixed, gray_world, reference)", mode,
                        sensim__did_you_mean(hint, sizeof hint, mode, modes));
  }
  if (has(params, "gains") && p.mode != WB_FIXED)
    return sensim__fail(SENSIM_EINVAL, "white_balance: 'gains' is only for mode 'fixed'");
  if (has(params, "reference_mean") && p.mode != WB_REFERENCE)
    return sensim__fail(SENSIM_EINVAL, "white_balance: 'reference_mean' is only for mode 'reference'");
  rc = sensim__param_vec3(params, "gains", p.gains);
  if (!rc) rc = sensim__param_vec3(params, "reference_mean", p.ref);
  if (rc) {
    sensim__error_context("white_balance");
    return rc;
  }
  for (int c = 0; c < 3; c++) {
    if (!(p.gains[c] >= 0))
      return sensim__fail(SENSIM_EINVAL, "white_balance: gains[%d] = %g must be >= 0", c, p.gains[c]);
    if (p.mode == WB_REFERENCE && !(p.ref[c] > 0))
      return sensim__fail(SENSIM_EINVAL, "white_balance: mode 'reference' needs reference_mean[%d] > 0, got %g", c,
                          p.ref[c]);
  }
  wb_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

/* rgb *= g for pixels [lo, hi); plain and AVX2 copies as ccm's below. */
__attribute__((always_inline)) static inline void wb_body(const double g[3], float *rgb, size_t lo, size_t hi) {
  const double g0 = g[0], g1 = g[1], g2 = g[2];
  for (size_t i = lo; i < hi; i++) {
    float *px = rgb + 3 * i;
    px[0] = (float)(g0 * px[0]);
    px[1] = (float)(g1 * px[1]);
    px[2] = (float)(g2 * px[2]);
  }
}
static void wb_plain(const double g[3], float *rgb, size_t lo, size_t hi) { wb_body(g, rgb, lo, hi); }
#if defined(SENSIM_HAVE_AVX2_PATHS)
__attribute__((target("avx2"))) static void wb_avx2(const double g[3], float *rgb, size_t lo, size_t hi) {
  wb_body(g, rgb, lo, hi);
}
#endif

typedef struct wb_job {
  double g[3];
  float *rgb;
} wb_job;

static void wb_pixels(void *arg, size_t lo, size_t hi) {
  const wb_job *j = arg;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) {
    wb_avx2(j->g, j->rgb, lo, hi);
    return;
  }
#endif
  wb_plain(j->g, j->rgb, lo, hi);
}

static sensim_status wb_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const wb_params *p = user;
  float *rgb = f->data;
  double g[3] = {p->gains[0], p->gains[1], p->gains[2]};
  if (p->mode != WB_FIXED) {
    double mean[3];
    channel_stats(rgb, f->count, mean, NULL);
    for (int c = 0; c < 3; c++) {
      double want = p->mode == WB_REFERENCE ? p->ref[c] : mean[1];
      g[c] = mean[c] > 0 ? want / mean[c] : 1.0;
    }
    if (p->mode == WB_GRAY_WORLD) g[1] = 1.0;
  }
  wb_job job = {{g[0], g[1], g[2]}, rgb};
  sensim__filter_bands(f->count, 4096, wb_pixels, &job); /* pixels in bands on the world's workers */
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_white_balance = {
    .def = {.name = "white_balance",
            .in = SENSIM_PAYLOAD_RGB_F32,
            .out = SENSIM_PAYLOAD_RGB_F32,
            .init = NULL,
            .apply = wb_apply,
            .destroy = free},
    .create = wb_create,
    .accepts = NULL};

/* ---- ccm ---- */

static sensim_status ccm_create(const cJSON *params, void **user) {
  static const char *const known[] = {"matrix", NULL};
  double m[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  sensim_status rc = sensim__param_only(params, "ccm", known);
  if (rc) return rc;
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, "matrix") : NULL;
  if (it) {
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 9)
      return sensim__fail(SENSIM_EINVAL, "ccm: parameter 'matrix' must be an array of 9 numbers (3 x 3, row-major)%s",
                          cJSON_IsArray(it) ? "" : ", not an array");
    for (int i = 0; i < 9; i++) {
      const cJSON *e = cJSON_GetArrayItem(it, i);
      if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
        return sensim__fail(SENSIM_EINVAL, "ccm: matrix[%d] must be a finite number", i);
      m[i] = e->valuedouble;
    }
  }
  double *u = malloc(sizeof m);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  memcpy(u, m, sizeof m);
  *user = u;
  return SENSIM_OK;
}

/* out = M in for pixels [lo, hi). One body compiled plain and for AVX2
 * (the compiler vectorises the AVX2 copy across pixels); the same double
 * operations in the same order, so the same bits. */
__attribute__((always_inline)) static inline void ccm_body(const double *m, float *rgb, size_t lo, size_t hi) {
  const double m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8];
  for (size_t i = lo; i < hi; i++) {
    float *px = rgb + 3 * i;
    double a = px[0], b = px[1], c = px[2];
    px[0] = (float)(m0 * a + m1 * b + m2 * c);
    px[1] = (float)(m3 * a + m4 * b + m5 * c);
    px[2] = (float)(m6 * a + m7 * b + m8 * c);
  }
}
static void ccm_plain(const double *m, float *rgb, size_t lo, size_t hi) { ccm_body(m, rgb, lo, hi); }
#if defined(SENSIM_HAVE_AVX2_PATHS)
__attribute__((target("avx2"))) static void ccm_avx2(const double *m, float *rgb, size_t lo, size_t hi) {
  ccm_body(m, rgb, lo, hi);
}
#endif

typedef struct ccm_job {
  const double *m;
  float *rgb;
} ccm_job;

static void ccm_pixels(void *arg, size_t lo, size_t hi) {
  const ccm_job *j = arg;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) {
    ccm_avx2(j->m, j->rgb, lo, hi);
    return;
  }
#endif
  ccm_plain(j->m, j->rgb, lo, hi);
}

static sensim_status ccm_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  ccm_job job = {user, f->data};
  sensim__filter_bands(f->count, 4096, ccm_pixels, &job); /* pixels in bands on the world's workers */
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_ccm = {
    .def = {.name = "ccm",
            .in = SENSIM_PAYLOAD_RGB_F32,
            .out = SENSIM_PAYLOAD_RGB_F32,
            .init = NULL,
            .apply = ccm_apply,
            .destroy = free},
    .create = ccm_create,
    .accepts = NULL};

/* ---- match_stats ---- */

typedef struct match_params {
  int per_channel;
  double mean[3], sd[3]; /* luminance mode: element 0 */
} match_params;

/* A number, or (per channel) an array of 3 numbers. */
static sensim_status match_ref(const cJSON *params, const char *key, int per_channel, double v[3]) {
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, key) : NULL;
  if (!it)
    return sensim__fail(SENSIM_EINVAL, "match_stats: parameter '%s' is required", key);
  if (per_channel) {
    sensim_status rc = sensim__param_vec3(params, key, v);
    if (rc) sensim__error_context("match_stats (per_channel)");
    return rc;
  }
  if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
    return sensim__fail(SENSIM_EINVAL,
                        "match_stats: with per_channel false, '%s' must be one finite number (luminance)", key);
  v[0] = it->valuedouble;
  return SENSIM_OK;
}

static sensim_status match_create(const cJSON *params, void **user) {
  static const char *const known[] = {"per_channel", "reference_mean", "reference_std", NULL};
  match_params p = {1, {0, 0, 0}, {0, 0, 0}};
  sensim_status rc = sensim__param_only(params, "match_stats", known);
  if (rc) return rc;
  const cJSON *pc = params ? cJSON_GetObjectItemCaseSensitive(params, "per_channel") : NULL;
  if (pc) {
    if (!cJSON_IsBool(pc)) return sensim__fail(SENSIM_EINVAL, "match_stats: parameter 'per_channel' must be true or false");
    p.per_channel = cJSON_IsTrue(pc);
  }
  rc = match_ref(params, "reference_mean", p.per_channel, p.mean);
  if (!rc) rc = match_ref(params, "reference_std", p.per_channel, p.sd);
  if (rc) return rc;
  for (int c = 0; c < (p.per_channel ? 3 : 1); c++)
    if (!(p.sd[c] >= 0)) return sensim__fail(SENSIM_EINVAL, "match_stats: reference_std %g must be >= 0", p.sd[c]);
  match_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

/* Affine map x -> a x + b giving a statistic of (mean, sd) the reference. */
static void match_map(double mean, double sd, double ref_mean, double ref_sd, double *a, double *b) {
  *a = sd > 0 ? ref_sd / sd : 1.0;
  *b = ref_mean - *a * mean;
}

static sensim_status match_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const match_params *p = user;
  float *rgb = f->data;
  size_t n = f->count;
  double a[3], b[3];
  if (p->per_channel) {
    double mean[3], sd[3];
    channel_stats(rgb, n, mean, sd);
    for (int c = 0; c < 3; c++) match_map(mean[c], sd[c], p->mean[c], p->sd[c], &a[c], &b[c]);
  } else {
    double s = 0.0, q = 0.0;
    for (size_t i = 0; i < n; i++)
      s += kLuma709[0] * rgb[3 * i] + kLuma709[1] * rgb[3 * i + 1] + kLuma709[2] * rgb[3 * i + 2];
    double mean = n ? s / (double)n : 0.0;
    for (size_t i = 0; i < n; i++) {
      double d = kLuma709[0] * rgb[3 * i] + kLuma709[1] * rgb[3 * i + 1] + kLuma709[2] * rgb[3 * i + 2] - mean;
      q += d * d;
    }
    match_map(mean, n ? sqrt(q / (double)n) : 0.0, p->mean[0], p->sd[0], &a[0], &b[0]);
    a[1] = a[2] = a[0];
    b[1] = b[2] = b[0];
  }
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < 3; c++) rgb[3 * i + c] = (float)(a[c] * rgb[3 * i + c] + b[c]);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_match_stats = {
    .def = {.name = "match_stats",
            .in = SENSIM_PAYLOAD_RGB_F32,
            .out = SENSIM_PAYLOAD_RGB_F32,
            .init = NULL,
            .apply = match_apply,
            .destroy = free},
    .create = match_create,
    .accepts = NULL};
