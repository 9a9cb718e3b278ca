/* filters/tone.c: the last ISP stages: tone curve, quantisation, grayscale,
 * down-sampling.
 *
 * "tone" rgb_f32 / gray_f32 in SIGNAL units -> the same, each value v
 *   clamped to [0, 1] (full scale) and mapped through a camera response
 *   function (CRF) f with f(0) = 0, f(1) = 1. {"curve": ... ["srgb"]}:
 *   "gamma"   {"gamma": g > 0 [2.2]}: f(v) = v^(1/g).
 *   "srgb"    the IEC 61966-2-1:1999 encoding: 12.92 v for v <= 0.0031308,
 *             else 1.055 v^(1/2.4) - 0.055.
 *   "sigmoid" {"slope": a > 0 [1.5], "midpoint": m > 0 [0.18]}: a logistic
 *             curve in log exposure, s(v) = 1 / (1 + exp(-a (ln v - ln m)))
 *             = v^a / (v^a + m^a), the S-shaped characteristic curve of
 *             film and many cameras (Hurter & Driffield 1890; the
 *             Naka-Rushton form), normalised so f(0) = 0, f(1) = 1:
 *             f(v) = s(v) / s(1) = (1 + m^a) v^a / (v^a + m^a).
 *   "table"   {"table": [y_0 .. y_{n-1}], n >= 2, finite, non-decreasing}: a
 *             tabulated CRF, y_i = f(i / (n - 1)), interpolated linearly;
 *             e.g. a curve of the DoRF database (M. D. Grossberg, S. K.
 *             Nayar, "Modeling the space of camera response functions",
 *             IEEE TPAMI 26(10):1272-1282, 2004: 201 measured CRFs, 1024
 *             samples each). A decreasing step is SENSIM_EINVAL ("CRF
 *             table is not monotonic" with its index).
 * "quantize"        rgb_f32 -> rgba8 (alpha 255), {"bits": 8 [8]};
 * "quantize16"      rgb_f32 -> rgb16, {"bits": 16 [16]};
 * "quantize_gray"   gray_f32 -> gray8, {"bits": 8 [8]};
 * "quantize_gray16" gray_f32 -> gray16, {"bits": 16 [16]}:
 *   q = floor(clamp(v, 0, 1) (2^bits - 1) + 0.5), round half up; NaN -> 0.
 *   The values are taken as they are (no transfer curve: put "tone" first).
 *   A filter's output payload is fixed, hence one filter per output.
 * "grayscale" rgb_f32 -> gray_f32, the unit kept: Y = 0.2126 R + 0.7152 G +
 *   0.0722 B (ITU-R BT.709-6), luminance when applied to linear values
 *   (before "tone"); after a tone curve it is luma of encoded values.
 * "downsample" rgb_f32 / gray_f32 -> the same, {"factor": integer >= 2 [2]}:
 *   each output pixel is the mean of a factor x factor block (area
 *   averaging, a box pre-filter); the output is floor(W / factor) x
 *   floor(H / factor), the last W mod factor columns and H mod factor rows
 *   dropped. The depth, label and normal planes are freed and set to NULL
 *   (depth and labels cannot be averaged meaningfully). The frame's
 *   `binning` is multiplied by the factor, so a calibration describes the
 *   pixels delivered (pixel u's centre is the camera's k u + (k - 1) / 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"

static const sensim_payload kRgbOrGray[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_NONE};

static sensim_status rgb_or_gray_init(void *user, sensim_payload in) {
  (void)user;
  if (in == SENSIM_PAYLOAD_RGB_F32 || in == SENSIM_PAYLOAD_GRAY_F32) return SENSIM_OK;
  return sensim__fail(SENSIM_ETYPE, "takes rgb_f32 or gray_f32, not %s", sensim_payload_name(in));
}

static size_t channels(const sensim_frame *f) { return f->type == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1; }

/* ---- tone ---- */

typedef enum tone_curve { TONE_GAMMA, TONE_SRGB, TONE_SIGMOID, TONE_TABLE } tone_curve;

typedef struct tone_params {
  tone_curve curve;
  double gamma, slope, midpoint;
  size_t n;        /* table entries */
  double table[];  /* f(i / (n - 1)) */
} tone_params;

static const char *const kToneKeys[][4] = {
    [TONE_GAMMA] = {"gamma", NULL},
    [TONE_SRGB] = {NULL},
    [TONE_SIGMOID] = {"slope", "midpoint", NULL},
    [TONE_TABLE] = {"table", NULL},
};

/* The sRGB curve without pow: above the linear segment's end (0.0031308 >
 * 2^-9), a float v lies in segment s = (bits of v >> 15) - (118 << 8) of
 * 2^8 equal segments per octave [2^e, 2^(e+1)), e = -9 .. -1. Each entry
 * holds the curve's Taylor polynomial of degree 2 at the segment's start
 * x0, evaluated at t = v - x0. Its error, at most h^3 max|f'''| / 6 over
 * a segment of width h = 2^(e-8), is under 3e-10 relative at every e
 * (largest at the low end), so the result is the formula's value rounded
 * to float (6e-8) up to that: within 1e-7 of the double formula, which a
 * test checks over a dense sweep of [0, 1]. The linear segment, v = 1 and
 * the clamps are computed as before. */
#define SRGB_SEG_BITS 8u
#define SRGB_ENTRIES (9u * (1u << SRGB_SEG_BITS))
#define SRGB_EXP0 118u /* biased exponent of 2^-9 */

static float float_of_bits(uint32_t b) {
  float x;
  memcpy(&x, &b, sizeof x);
  return x;
}

/* 3 doubles per entry: f(x0), f'(x0), f''(x0) / 2 of f(x) = 1.055 x^(1/2.4) - 0.055. */
static void srgb_table(double *t) {
  for (uint32_t s = 0; s < SRGB_ENTRIES; s++) {
    double x0 = float_of_bits((SRGB_EXP0 << 23) + (s << (23 - SRGB_SEG_BITS)));
    double p = pow(x0, 1.0 / 2.4);
    t[3 * s] = 1.055 * p - 0.055;
    t[3 * s + 1] = 1.055 / 2.4 * p / x0;
    t[3 * s + 2] = 0.5 * 1.055 / 2.4 * (1.0 / 2.4 - 1.0) * p / (x0 * x0);
  }
}

/* tone_eval's srgb case from the table: the same value at 0 and 1, the
 * same linear segment, the polynomial in between. */
static inline float srgb_fast(const double *t, float v) {
  if (!(v > 0)) return 0.0f; /* also NaN */
  if (v >= 1) return (float)(1.055 * pow(1.0, 1.0 / 2.4) - 0.055);
  double dv = v;
  if (dv <= 0.0031308) return (float)(12.92 * dv);
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  uint32_t s = (b >> (23 - SRGB_SEG_BITS)) - (SRGB_EXP0 << SRGB_SEG_BITS);
  double tt = dv - (double)float_of_bits(b & ~((1u << (23 - SRGB_SEG_BITS)) - 1u));
  const double *e = t + 3 * s;
  return (float)(e[0] + tt * (e[1] + tt * e[2]));
}

static sensim_status tone_table(const cJSON *params, tone_params **out) {
  const cJSON *t = params ? cJSON_GetObjectItemCaseSensitive(params, "table") : NULL;
  if (!t) return sensim__fail(SENSIM_EINVAL, "tone: curve 'table' needs a 'table' of output values");
  if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) < 2)
    return sensim__fail(SENSIM_EINVAL, "tone: 'table' must be an array of at least 2 numbers");
  size_t n = (size_t)cJSON_GetArraySize(t);
  tone_params *p = malloc(sizeof *p + n * sizeof p->table[0]);
  if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  size_t i = 0;
  for (const cJSON *e = t->child; e; e = e->next, i++) {
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
      free(p);
      return sensim__fail(SENSIM_EINVAL, "tone: table[%zu] must be a finite number", i);
    }
    p->table[i] = e->valuedouble;
    if (i > 0 && p->table[i] < p->table[i - 1]) {
      double a = p->table[i - 1], b = p->table[i];
      free(p);
      return sensim__fail(SENSIM_EINVAL, "tone: CRF table is not monotonic: table[%zu] = %g < table[%zu] = %g", i, b,
                          i - 1, a);
    }
  }
  p->n = n;
  *out = p;
  return SENSIM_OK;
}

static sensim_status tone_create(const cJSON *params, void **user) {
  static const char *const known[] = {"curve", "gamma", "slope", "midpoint", "table", NULL};
  sensim_status rc = sensim__param_only(params, "tone", known);
  if (rc) return rc;
  tone_curve curve = TONE_SRGB;
  const cJSON *c = params ? cJSON_GetObjectItemCaseSensitive(params, "curve") : NULL;
  if (c) {
    static const char *const names[] = {[TONE_GAMMA] = "gamma", [TONE_SRGB] = "srgb", [TONE_SIGMOID] = "sigmoid",
                                        [TONE_TABLE] = "table", NULL};
    if (!cJSON_IsString(c)) return sensim__fail(SENSIM_EINVAL, "tone: parameter 'curve' must be a string");
    int found = -1;
    for (int i = 0; i < 4; i++)
      if (strcmp(c->valuestring, names[i]) == 0) found = i;
    char hint[96];
    if (found < 0)
      return sensim__fail(SENSIM_EINVAL, "tone: unknown curve '%s'%s (gamma, srgb, sigmoid, table)", c->valuestring,
                          sensim__did_you_mean(hint, sizeof hint, c->valuestring, names));
    curve = (tone_curve)found;
  }
  /* Each curve's own keys only ("curve" plus kToneKeys[curve]). */
  for (const cJSON *it = params ? params->child : NULL; it; it = it->next) {
    int ok = strcmp(it->string, "curve") == 0;
    for (const char *const *k = kToneKeys[curve]; *k && !ok; k++) ok = strcmp(*k, it->string) == 0;
    if (!ok) return sensim__fail(SENSIM_EINVAL, "tone: parameter '%s' does not belong to this curve", it->string);
  }
  tone_params *p = NULL;
  if (curve == TONE_TABLE) {
    rc = tone_table(params, &p);
    if (rc) return rc;
  } else if (curve == TONE_SRGB) {
    p = malloc(sizeof *p + 3 * SRGB_ENTRIES * sizeof p->table[0]);
    if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory");
    p->n = SRGB_ENTRIES;
    srgb_table(p->table);
  } else {
    p = malloc(sizeof *p);
    if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory");
    p->n = 0;
  }
  p->curve = curve;
  p->gamma = 2.2;
  p->slope = 1.5;
  p->midpoint = 0.18;
  rc = sensim__param_number(params, "gamma", &p->gamma);
  if (!rc) rc = sensim__param_number(params, "slope", &p->slope);
  if (!rc) rc = sensim__param_number(params, "midpoint", &p->midpoint);
  if (!rc && !(p->gamma > 0)) rc = sensim__fail(SENSIM_EINVAL, "gamma %g must be > 0", p->gamma);
  if (!rc && !(p->slope > 0)) rc = sensim__fail(SENSIM_EINVAL, "slope %g must be > 0", p->slope);
  if (!rc && !(p->midpoint > 0)) rc = sensim__fail(SENSIM_EINVAL, "midpoint %g must be > 0", p->midpoint);
  if (rc) {
    free(p);
    sensim__error_context("tone");
    return rc;
  }
  *user = p;
  return SENSIM_OK;
}

static double tone_eval(const tone_params *p, double v) {
  if (!(v > 0)) return 0.0; /* also NaN */
  if (v > 1) v = 1;
  switch (p->curve) {
    case TONE_GAMMA: return pow(v, 1.0 / p->gamma);
    case TONE_SRGB: return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
    case TONE_SIGMOID: {
      double va = pow(v, p->slope), ma = pow(p->midpoint, p->slope);
      return (1.0 + ma) * va / (va + ma);
    }
    case TONE_TABLE: {
      double x = v * (double)(p->n - 1);
      size_t i = (size_t)x;
      if (i >= p->n - 1) return p->table[p->n - 1];
      double t = x - (double)i;
      return p->table[i] + t * (p->table[i + 1] - p->table[i]);
    }
  }
  return v;
}

typedef struct tone_job {
  const tone_params *p;
  float *d;
} tone_job;

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* srgb_fast on eight values at a time: the same double operations on
 * gathered table entries, the same special cases by blends. Returns how
 * many values it did (n - n % 8). */
__attribute__((target("avx2"))) static size_t srgb_avx2(const double *t, float *d, size_t n) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  const __m256 at_one = _mm256_set1_ps((float)(1.055 * pow(1.0, 1.0 / 2.4) - 0.055));
  const __m256i base = _mm256_set1_epi32((int)(SRGB_EXP0 << SRGB_SEG_BITS)), top = _mm256_set1_epi32((int)SRGB_ENTRIES - 1);
  const __m256i low_mask = _mm256_set1_epi32((int)~((1u << (23 - SRGB_SEG_BITS)) - 1u));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(d + i);
    __m256i b = _mm256_castps_si256(v);
    __m256i s = _mm256_sub_epi32(_mm256_srli_epi32(b, 23 - SRGB_SEG_BITS), base);
    s = _mm256_max_epi32(_mm256_min_epi32(s, top), _mm256_setzero_si256()); /* other lanes: any valid entry */
    __m256i s3 = _mm256_add_epi32(s, _mm256_add_epi32(s, s));
    __m256 x0f = _mm256_castsi256_ps(_mm256_and_si256(b, low_mask));
    __m128 half[2];
    for (int h = 0; h < 2; h++) {
      __m128i idx = h ? _mm256_extracti128_si256(s3, 1) : _mm256_castsi256_si128(s3);
      __m256d dv = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v));
      __m256d x0 = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(x0f, 1) : _mm256_castps256_ps128(x0f));
      __m256d e0 = _mm256_i32gather_pd(t, idx, 8), e1 = _mm256_i32gather_pd(t + 1, idx, 8);
      __m256d e2 = _mm256_i32gather_pd(t + 2, idx, 8);
      __m256d tt = _mm256_sub_pd(dv, x0);
      __m256d poly = _mm256_add_pd(e0, _mm256_mul_pd(tt, _mm256_add_pd(e1, _mm256_mul_pd(tt, e2))));
      __m256d lin = _mm256_mul_pd(_mm256_set1_pd(12.92), dv);
      __m256d is_lin = _mm256_cmp_pd(dv, _mm256_set1_pd(0.0031308), _CMP_LE_OQ);
      half[h] = _mm256_cvtpd_ps(_mm256_blendv_pd(poly, lin, is_lin));
    }
    __m256 r = _mm256_set_m128(half[1], half[0]);
    r = _mm256_blendv_ps(r, at_one, _mm256_cmp_ps(v, one, _CMP_GE_OQ));
    r = _mm256_blendv_ps(zero, r, _mm256_cmp_ps(v, zero, _CMP_GT_OQ)); /* NaN and v <= 0: 0 */
    _mm256_storeu_ps(d + i, r);
  }
  return i;
}
#endif

static void tone_values(void *arg, size_t lo, size_t hi) {
  const tone_job *j = arg;
  float *d = j->d;
  if (j->p->curve == TONE_SRGB) {
    size_t i = lo;
#if defined(SENSIM_HAVE_AVX2_PATHS)
    if (sensim__cpu_has_avx2()) i += srgb_avx2(j->p->table, d + lo, hi - lo);
#endif
    for (; i < hi; i++) d[i] = srgb_fast(j->p->table, d[i]);
  } else
    for (size_t i = lo; i < hi; i++) d[i] = (float)tone_eval(j->p, d[i]);
}

static sensim_status tone_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const tone_params *p = user;
  if (f->unit != SENSIM_UNIT_SIGNAL)
    return sensim__fail(SENSIM_ETYPE, "tone needs a frame in SIGNAL units (0 black, 1 full scale; put \"adc\" before it)");
  float *d = f->data;
  size_t n = f->count * channels(f);
  tone_job job = {p, d};
  sensim__filter_bands(n, 4096, tone_values, &job); /* values in bands on the world's workers */
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_tone = {
    .def = {.name = "tone",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = rgb_or_gray_init,
            .apply = tone_apply,
            .destroy = free},
    .create = tone_create,
    .accepts = kRgbOrGray};

/* ---- quantize, quantize16, quantize_gray, quantize_gray16 ---- */

/* `sibling` is the filter of the same input with the other bit depth. */
static sensim_status quantize_params(const cJSON *params, const char *name, const char *sibling, int bits,
                                     void **user) {
  static const char *const known[] = {"bits", NULL};
  double b = bits;
  sensim_status rc = sensim__param_only(params, name, known);
  if (!rc) rc = sensim__param_number(params, "bits", &b);
  if (rc) return rc;
  if (b != bits) {
    if (b == 8 || b == 16)
      return sensim__fail(SENSIM_EINVAL, "%s: bits %g needs the filter '%s' (a filter's output payload is fixed)",
                          name, b, sibling);
    return sensim__fail(SENSIM_EINVAL, "%s: bits %g is not supported (only %d)", name, b, bits);
  }
  *user = NULL;
  return SENSIM_OK;
}

static sensim_status q8_create(const cJSON *params, void **user) {
  return quantize_params(params, "quantize", "quantize16", 8, user);
}
static sensim_status q16_create(const cJSON *params, void **user) {
  return quantize_params(params, "quantize16", "quantize", 16, user);
}
static sensim_status qg8_create(const cJSON *params, void **user) {
  return quantize_params(params, "quantize_gray", "quantize_gray16", 8, user);
}
static sensim_status qg16_create(const cJSON *params, void **user) {
  return quantize_params(params, "quantize_gray16", "quantize_gray", 16, user);
}

static uint16_t quant(float v, double maxcode) {
  if (!(v > 0)) return 0;
  if (v >= 1) return (uint16_t)maxcode;
  return (uint16_t)floor((double)v * maxcode + 0.5);
}

/* quant(v, 255) of rgb values into rgba8, alpha 255. For v in (0, 1),
 * v 255 + 0.5 is positive, so truncation is floor; one body compiled
 * twice (the AVX2 copy vectorises), the same arithmetic either way. */
__attribute__((always_inline)) static inline void rgba8_body(const float *in, uint8_t *o, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) {
      float v = in[3 * i + c];
      double q = (double)v * 255.0 + 0.5;
      int k = v > 0 ? (v >= 1 ? 255 : (int)q) : 0;
      o[4 * i + c] = (uint8_t)k;
    }
    o[4 * i + 3] = 255;
  }
}
static void rgba8_plain(const float *in, uint8_t *o, size_t n) { rgba8_body(in, o, n); }
#if defined(SENSIM_HAVE_AVX2_PATHS)
/* rgba8_body eight values at a time (the compiler does not if-convert it):
 * codes of 8 consecutive values, then per pixel its three codes and 255. */
__attribute__((target("avx2"))) static void rgba8_avx2(const float *in, uint8_t *o, size_t n) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  const __m256d k255 = _mm256_set1_pd(255.0), half = _mm256_set1_pd(0.5);
  size_t i = 0;
  uint8_t codes[24];
  for (; i + 8 <= n; i += 8) { /* 8 pixels = 24 values, three vectors */
    for (int q = 0; q < 3; q++) {
      __m256 v = _mm256_loadu_ps(in + 3 * i + 8 * q);
      __m128i k0 = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)), k255), half));
      __m128i k1 = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)), k255), half));
      __m256i k = _mm256_set_m128i(k1, k0);
      k = _mm256_blendv_epi8(k, _mm256_set1_epi32(255), _mm256_castps_si256(_mm256_cmp_ps(v, one, _CMP_GE_OQ)));
      k = _mm256_and_si256(k, _mm256_castps_si256(_mm256_cmp_ps(v, zero, _CMP_GT_OQ))); /* NaN, v <= 0: 0 */
      int32_t kk[8];
      _mm256_storeu_si256((__m256i *)kk, k);
      for (int l = 0; l < 8; l++) codes[8 * q + l] = (uint8_t)kk[l];
    }
    for (int p = 0; p < 8; p++) {
      o[4 * (i + (size_t)p)] = codes[3 * p];
      o[4 * (i + (size_t)p) + 1] = codes[3 * p + 1];
      o[4 * (i + (size_t)p) + 2] = codes[3 * p + 2];
      o[4 * (i + (size_t)p) + 3] = 255;
    }
  }
  rgba8_body(in + 3 * i, o + 4 * i, n - i);
}
#endif

typedef struct rgba8_job {
  const float *in;
  uint8_t *out;
} rgba8_job;

static void rgba8_pixels(void *arg, size_t lo, size_t hi) {
  const rgba8_job *j = arg;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) {
    rgba8_avx2(j->in + 3 * lo, j->out + 4 * lo, hi - lo);
    return;
  }
#endif
  rgba8_plain(j->in + 3 * lo, j->out + 4 * lo, hi - lo);
}

/* Replace float data (nch values per pixel) by integers of `type`. */
static sensim_status quantize_to(sensim_frame *f, sensim_payload type, int nch) {
  float *in = f->data;
  f->data = NULL;
  sensim_status rc = sensim__frame_alloc_unset(f, type, f->width, f->height);
  if (rc) {
    f->data = in;
    return rc;
  }
  size_t n = f->count;
  if (type == SENSIM_PAYLOAD_RGBA8) {
    rgba8_job job = {in, f->data};
    sensim__filter_bands(n, 4096, rgba8_pixels, &job); /* pixels in bands on the world's workers */
  } else if (type == SENSIM_PAYLOAD_GRAY8) {
    uint8_t *o = f->data;
    for (size_t i = 0; i < n; i++) o[i] = (uint8_t)quant(in[i], 255.0);
  } else {
    uint16_t *o = f->data;
    for (size_t i = 0; i < n * (size_t)nch; i++) o[i] = quant(in[i], 65535.0);
  }
  sensim__frame_buffer_free(in);
  return SENSIM_OK;
}

static sensim_status q8_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  return quantize_to(f, SENSIM_PAYLOAD_RGBA8, 3);
}
static sensim_status q16_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  return quantize_to(f, SENSIM_PAYLOAD_RGB16, 3);
}
static sensim_status qg8_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  return quantize_to(f, SENSIM_PAYLOAD_GRAY8, 1);
}
static sensim_status qg16_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  return quantize_to(f, SENSIM_PAYLOAD_GRAY16, 1);
}

#define QUANTIZE_FILTER(sym, nm, from, to, cr, ap)                                                              \
  const sensim_builtin_filter sym = {                                                                           \
      .def = {.name = nm, .in = from, .out = to, .init = NULL, .apply = ap, .destroy = NULL}, .create = cr, \
      .accepts = NULL}

QUANTIZE_FILTER(sensim__filter_quantize, "quantize", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGBA8, q8_create,
                q8_apply);
QUANTIZE_FILTER(sensim__filter_quantize16, "quantize16", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB16, q16_create,
                q16_apply);
QUANTIZE_FILTER(sensim__filter_quantize_gray, "quantize_gray", SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_GRAY8,
                qg8_create, qg8_apply);
QUANTIZE_FILTER(sensim__filter_quantize_gray16, "quantize_gray16", SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_GRAY16,
                qg16_create, qg16_apply);

/* ---- grayscale ---- */

static sensim_status gray_create(const cJSON *params, void **user) {
  static const char *const none[] = {NULL};
  *user = NULL;
  return sensim__param_only(params, "grayscale", none);
}

static sensim_status gray_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  float *rgb = f->data;
  f->data = NULL;
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_GRAY_F32, f->width, f->height);
  if (rc) {
    f->data = rgb;
    return rc;
  }
  float *y = f->data;
  for (size_t i = 0; i < f->count; i++)
    y[i] = (float)(0.2126 * rgb[3 * i] + 0.7152 * rgb[3 * i + 1] + 0.0722 * rgb[3 * i + 2]);
  sensim__frame_buffer_free(rgb);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_grayscale = {
    .def = {.name = "grayscale",
            .in = SENSIM_PAYLOAD_RGB_F32,
            .out = SENSIM_PAYLOAD_GRAY_F32,
            .init = NULL,
            .apply = gray_apply,
            .destroy = NULL},
    .create = gray_create,
    .accepts = NULL};

/* ---- downsample ---- */

static sensim_status down_create(const cJSON *params, void **user) {
  static const char *const known[] = {"factor", NULL};
  double k = 2;
  sensim_status rc = sensim__param_only(params, "downsample", known);
  if (!rc) rc = sensim__param_number(params, "factor", &k);
  if (rc) return rc;
  if (!(k >= 2 && k <= 65536 && k == floor(k)))
    return sensim__fail(SENSIM_EINVAL, "downsample: factor %g must be a whole number >= 2", k);
  uint32_t *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = (uint32_t)k;
  *user = u;
  return SENSIM_OK;
}

static sensim_status down_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  uint32_t k = *(const uint32_t *)user;
  uint32_t ow = f->width / k, oh = f->height / k;
  if (ow == 0 || oh == 0)
    return sensim__fail(SENSIM_EINVAL, "downsample: a %u x %u image is smaller than the factor %u", f->width,
                        f->height, k);
  size_t nch = channels(f), W = f->width;
  float *in = f->data;
  f->data = NULL;
  sensim_status rc = sensim__frame_alloc_unset(f, f->type, ow, oh);
  if (rc) {
    f->data = in;
    return rc;
  }
  float *out = f->data;
  double inv = 1.0 / ((double)k * (double)k);
  for (size_t oy = 0; oy < oh; oy++)
    for (size_t ox = 0; ox < ow; ox++)
      for (size_t c = 0; c < nch; c++) {
        double s = 0.0;
        for (size_t y = oy * k; y < (oy + 1) * k; y++)
          for (size_t x = ox * k; x < (ox + 1) * k; x++) s += in[(y * W + x) * nch + c];
        out[(oy * ow + ox) * nch + c] = (float)(s * inv);
      }
  sensim__frame_buffer_free(in);
  sensim__frame_drop_planes(f);
  /* Blocks of blocks are blocks: k2 x k2 means of k1 x k1 means are the
   * (k1 k2)-block means, aligned the same (the remainders dropped). */
  const uint64_t b = (uint64_t)(f->binning > 1 ? f->binning : 1) * k;
  f->binning = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_downsample = {
    .def = {.name = "downsample",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = rgb_or_gray_init,
            .apply = down_apply,
            .destroy = free},
    .create = down_create,
    .accepts = kRgbOrGray};
