/* filters/cfa.c: the colour filter array and the analog-to-digital
 * converter: "cfa", "adc" and "raw16".
 *
 * "cfa": rgb_f32 -> raw_f32, unit kept. Each pixel keeps the one channel
 *   its colour filter passes (a Bayer mosaic: B. E. Bayer, "Color imaging
 *   array", US patent 3,971,065, 1976). Parameter "pattern": "RGGB",
 *   "BGGR", "GRBG" or "GBRG" ["RGGB"], the 2 x 2 cell read left to right,
 *   top to bottom from pixel (0, 0) (frame.h); sets frame.cfa.
 *   Order: the filters sit on the photodiodes, so "cfa" before
 *   "image_sensor" and the noise filters is the physical order (each
 *   photodiode collects, and is noisy in, its own colour only, and its
 *   quantum efficiency is that colour's). Both orders are accepted so they
 *   can be compared: after "image_sensor" + noise on rgb_f32 the mosaic
 *   takes one of three independently noisy channels, which has the same
 *   per-pixel statistics but draws three times the random numbers.
 *
 * "adc": rgb_f32, raw_f32 or gray_f32 in ELECTRONS -> the same payload in
 *   SIGNAL. EMVA Standard 1288 (Release 3.1, 2016, Section 2; Release 4.0
 *   Linear, 2021, Section 2) linear model of the read-out and digitisation:
 *     e'   = min(e, full_well)                               (e-)
 *     DN   = clamp(round(K g e' + black_level), 0, 2^bits - 1)
 *     SIGNAL = (DN - black_level) / (2^bits - 1 - black_level)
 *   with K the system gain in DN/e- at unity analog gain and g the analog
 *   gain "image_sensor" recorded in frame.gain (1 when the frame has none:
 *   the system gain of EMVA 1288 is K g for gain setting g). Rounding to an
 *   integer adds the quantization noise of variance 1/12 DN^2 (EMVA 1288
 *   Section 2, sigma_q^2 = 1/12 DN^2), the only place the chain adds it.
 *   SIGNAL subtracts the black level so that 0 is black and 1 full scale
 *   (frame.h); with the default black level 0 it is DN / (2^bits - 1).
 *   Dark noise around a nonzero black level gives small negative SIGNAL
 *   values, kept so that averages stay unbiased.
 *   Parameters:
 *     "bits"         ADC resolution, an integer in [8, 16] [12]
 *     "full_well"    saturation capacity, e-, > 0 [10000] (as "image_sensor")
 *     "system_gain"  K, DN/e-, > 0 [(2^bits - 1) / full_well: the full well
 *                    spans the range at unity gain]
 *     "black_level"  DN added before rounding, in [0, 2^bits - 2] [0]
 *
 * "raw16": raw_f32 -> raw16, the RAW output: the digital numbers DN of the
 *   mosaic as 16-bit integers (black level included, not scaled to 16
 *   bits), frame.cfa kept. It is a terminal output (for writing files;
 *   "demosaic" takes raw_f32 SIGNAL). Same parameters as "adc". From
 *   ELECTRONS it digitises exactly as "adc" does (so "cfa, ..., raw16"
 *   needs no "adc"); from SIGNAL (after "adc") it recovers
 *   DN = round(SIGNAL (2^bits - 1 - black_level) + black_level), exact
 *   when "bits" and "black_level" are those of the "adc" before it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"

/* ---- cfa ---- */

static sensim_status cfa_create(const cJSON *params, void **user) {
  static const char *const known[] = {"pattern", NULL};
  static const char *const names[] = {"RGGB", "BGGR", "GRBG", "GBRG", NULL};
  static const sensim_cfa values[] = {SENSIM_CFA_RGGB, SENSIM_CFA_BGGR, SENSIM_CFA_GRBG, SENSIM_CFA_GBRG};
  sensim_status rc = sensim__param_only(params, "cfa", known);
  if (rc) return rc;
  sensim_cfa cfa = SENSIM_CFA_RGGB;
  const cJSON *it = params ? cJSON_GetObjectItemCaseSensitive(params, "pattern") : NULL;
  if (it) {
    if (!cJSON_IsString(it))
      return sensim__fail(SENSIM_EINVAL, "cfa: parameter 'pattern' must be a string (RGGB, BGGR, GRBG, GBRG)");
    cfa = SENSIM_CFA_NONE;
    for (int i = 0; i < 4; i++)
      if (strcmp(it->valuestring, names[i]) == 0) cfa = values[i];
    char hint[96];
    if (cfa == SENSIM_CFA_NONE)
      return sensim__fail(SENSIM_EINVAL, "cfa: unknown pattern '%s'%s (RGGB, BGGR, GRBG or GBRG)", it->valuestring,
                          sensim__did_you_mean(hint, sizeof hint, it->valuestring, names));
  }
  sensim_cfa *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = cfa;
  *user = u;
  return SENSIM_OK;
}

typedef struct cfa_job {
  const float *rgb;
  float *raw;
  const int *cell;
  uint32_t width;
} cfa_job;

/* Rows [lo, hi) of the mosaic: each pixel keeps its cell's channel. */
static void cfa_rows(void *arg, size_t lo, size_t hi) {
  const cfa_job *j = arg;
  const uint32_t W = j->width;
  for (size_t y = lo; y < hi; y++) {
    const int *row = j->cell + 2 * (y & 1u);
    for (uint32_t x = 0; x < W; x++) {
      const size_t i = y * W + x;
      j->raw[i] = j->rgb[3 * i + (size_t)row[x & 1u]];
    }
  }
}

static sensim_status cfa_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  sensim_cfa cfa = *(const sensim_cfa *)user;
  if (f->type != SENSIM_PAYLOAD_RGB_F32)
    return sensim__fail(SENSIM_ETYPE, "cfa takes rgb_f32, not %s", sensim_payload_name(f->type));
  float *rgb = f->data;
  f->data = NULL;
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_RAW_F32, f->width, f->height);
  if (rc) {
    f->data = rgb;
    f->type = SENSIM_PAYLOAD_RGB_F32;
    return rc;
  }
  cfa_job job = {rgb, f->data, sensim__cfa_cell(cfa), f->width};
  sensim__filter_bands(f->height, 8, cfa_rows, &job); /* rows in bands on the world's workers */
  sensim__frame_buffer_free(rgb);
  f->cfa = cfa;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_cfa = {
    .def = {.name = "cfa",
            .in = SENSIM_PAYLOAD_RGB_F32,
            .out = SENSIM_PAYLOAD_RAW_F32,
            .init = NULL,
            .apply = cfa_apply,
            .destroy = free},
    .create = cfa_create,
    .accepts = NULL,
};

/* ---- adc and raw16 ---- */

typedef struct adc_params {
  int bits;
  double full_well;   /* e- */
  double system_gain; /* K, DN/e- at unity analog gain */
  double black_level; /* DN */
  double max_dn;      /* 2^bits - 1 */
} adc_params;

static sensim_status adc_create_named(const cJSON *params, void **user, const char *name) {
  static const char *const known[] = {"bits", "full_well", "system_gain", "black_level", NULL};
  double bits = 12.0, full_well = 10000.0, k = 0.0, black = 0.0;
  sensim_status rc = sensim__param_only(params, name, known);
  if (!rc) rc = sensim__param_number(params, "bits", &bits);
  if (!rc) rc = sensim__param_number(params, "full_well", &full_well);
  if (!rc) rc = sensim__param_number(params, "system_gain", &k);
  if (!rc) rc = sensim__param_number(params, "black_level", &black);
  if (rc) return rc;
  if (!(bits >= 8 && bits <= 16 && bits == floor(bits)))
    return sensim__fail(SENSIM_EINVAL, "%s: bits %g must be an integer in [8, 16]", name, bits);
  if (!(full_well > 0)) return sensim__fail(SENSIM_EINVAL, "%s: full_well %g e- must be > 0", name, full_well);
  double max_dn = ldexp(1.0, (int)bits) - 1.0;
  const cJSON *kk = params ? cJSON_GetObjectItemCaseSensitive(params, "system_gain") : NULL;
  if (!kk) k = max_dn / full_well;
  if (!(k > 0)) return sensim__fail(SENSIM_EINVAL, "%s: system_gain %g DN/e- must be > 0", name, k);
  if (!(black >= 0 && black <= max_dn - 1))
    return sensim__fail(SENSIM_EINVAL, "%s: black_level %g DN must be in [0, %g]", name, black, max_dn - 1);
  adc_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = (adc_params){(int)bits, full_well, k, black, max_dn};
  *user = u;
  return SENSIM_OK;
}

static sensim_status adc_create(const cJSON *params, void **user) { return adc_create_named(params, user, "adc"); }
static sensim_status raw16_create(const cJSON *params, void **user) {
  return adc_create_named(params, user, "raw16");
}

/* Analog gain of the frame: frame.gain, or 1 when no "image_sensor" set it. */
static sensim_status frame_gain(const sensim_frame *f, const char *name, double *g) {
  if (f->gain == 0) {
    *g = 1.0;
    return SENSIM_OK;
  }
  if (!(f->gain > 0 && isfinite(f->gain)))
    return sensim__fail(SENSIM_EINVAL, "%s: frame gain %g must be positive", name, f->gain);
  *g = f->gain;
  return SENSIM_OK;
}

/* Digital number of a charge e (e-), EMVA 1288 linear model (file comment).
 * NaN reads as black. */
static double digitise(const adc_params *p, double gain, double e) {
  if (e > p->full_well) e = p->full_well;
  double dn = floor(p->system_gain * gain * e + p->black_level + 0.5);
  if (!(dn > 0)) return 0.0;
  return dn < p->max_dn ? dn : p->max_dn;
}

/* SIGNAL of each of n charges in place. One body, compiled twice: the
 * AVX2 copy has floor and min/max as instructions and runs eight values
 * at a time; both do the same IEEE operations, so the bits agree. */
__attribute__((always_inline)) static inline void adc_body(const adc_params *p, double g, float *v, size_t n) {
  const double span = p->max_dn - p->black_level, scale = p->system_gain * g, fw = p->full_well;
  const double bl = p->black_level, max_dn = p->max_dn;
  for (size_t i = 0; i < n; i++) {
    double e = v[i];
    e = e > fw ? fw : e;
    double dn = floor(scale * e + bl + 0.5);
    dn = dn > 0 ? dn : 0.0; /* NaN reads as black */
    dn = dn < max_dn ? dn : max_dn;
    v[i] = (float)((dn - bl) / span);
  }
}
static void adc_values(const adc_params *p, double g, float *v, size_t n) { adc_body(p, g, v, n); }
#if defined(SENSIM_HAVE_AVX2_PATHS)
/* adc_body four values at a time (the compiler does not if-convert its
 * comparisons): the same operations, the selections as blends, NaN
 * handled as the comparisons of the plain code handle it. */
__attribute__((target("avx2"))) static void adc_values_avx2(const adc_params *p, double g, float *v, size_t n) {
  const __m256d span = _mm256_set1_pd(p->max_dn - p->black_level), scale = _mm256_set1_pd(p->system_gain * g);
  const __m256d fw = _mm256_set1_pd(p->full_well), bl = _mm256_set1_pd(p->black_level);
  const __m256d max_dn = _mm256_set1_pd(p->max_dn), half = _mm256_set1_pd(0.5), zero = _mm256_setzero_pd();
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m256d e = _mm256_cvtps_pd(_mm_loadu_ps(v + i));
    e = _mm256_blendv_pd(e, fw, _mm256_cmp_pd(e, fw, _CMP_GT_OQ));
    __m256d dn = _mm256_floor_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(scale, e), bl), half));
    dn = _mm256_blendv_pd(zero, dn, _mm256_cmp_pd(dn, zero, _CMP_GT_OQ));
    dn = _mm256_blendv_pd(max_dn, dn, _mm256_cmp_pd(dn, max_dn, _CMP_LT_OQ));
    _mm_storeu_ps(v + i, _mm256_cvtpd_ps(_mm256_div_pd(_mm256_sub_pd(dn, bl), span)));
  }
  adc_body(p, g, v + i, n - i);
}
#endif

typedef struct adc_job {
  const adc_params *p;
  double g;
  float *v;
} adc_job;

static void adc_range(void *arg, size_t lo, size_t hi) {
  const adc_job *j = arg;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) {
    adc_values_avx2(j->p, j->g, j->v + lo, hi - lo);
    return;
  }
#endif
  adc_values(j->p, j->g, j->v + lo, hi - lo);
}

static int channels_of(sensim_payload t) {
  switch (t) {
    case SENSIM_PAYLOAD_RGB_F32: return 3;
    case SENSIM_PAYLOAD_RAW_F32:
    case SENSIM_PAYLOAD_GRAY_F32: return 1;
    default: return 0;
  }
}

static sensim_status adc_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const adc_params *p = user;
  int ch = channels_of(f->type);
  if (!ch)
    return sensim__fail(SENSIM_ETYPE, "adc takes rgb_f32, raw_f32 or gray_f32, not %s", sensim_payload_name(f->type));
  if (f->unit != SENSIM_UNIT_ELECTRONS)
    return sensim__fail(SENSIM_ETYPE, "adc takes electrons, but the frame is in %s (place \"image_sensor\" before it)",
                        sensim_image_unit_name(f->unit));
  double g = 1.0;
  sensim_status rc = frame_gain(f, "adc", &g);
  if (rc) return rc;
  adc_job job = {p, g, f->data};
  sensim__filter_bands((size_t)ch * f->count, 4096, adc_range, &job); /* values in bands on the world's workers */
  f->unit = SENSIM_UNIT_SIGNAL;
  return SENSIM_OK;
}

static const sensim_payload kAdcTakes[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RAW_F32, SENSIM_PAYLOAD_GRAY_F32,
                                           SENSIM_PAYLOAD_NONE};

const sensim_builtin_filter sensim__filter_adc = {
    .def = {.name = "adc",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = NULL,
            .apply = adc_apply,
            .destroy = free},
    .create = adc_create,
    .accepts = kAdcTakes,
};

static sensim_status raw16_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const adc_params *p = user;
  if (f->type != SENSIM_PAYLOAD_RAW_F32)
    return sensim__fail(SENSIM_ETYPE, "raw16 takes raw_f32, not %s", sensim_payload_name(f->type));
  int from_signal = f->unit == SENSIM_UNIT_SIGNAL;
  if (!from_signal && f->unit != SENSIM_UNIT_ELECTRONS)
    return sensim__fail(SENSIM_ETYPE, "raw16 takes electrons or signal, but the frame is in %s", sensim_image_unit_name(f->unit));
  double g = 1.0;
  if (!from_signal) {
    sensim_status rc = frame_gain(f, "raw16", &g);
    if (rc) return rc;
  }
  float *in = f->data;
  f->data = NULL;
  sensim_status rc = sensim__frame_alloc_unset(f, SENSIM_PAYLOAD_RAW16, f->width, f->height);
  if (rc) {
    f->data = in;
    f->type = SENSIM_PAYLOAD_RAW_F32;
    return rc;
  }
  uint16_t *out = f->data;
  double span = p->max_dn - p->black_level;
  for (size_t i = 0; i < f->count; i++) {
    double dn;
    if (from_signal) {
      dn = floor((double)in[i] * span + p->black_level + 0.5);
      if (!(dn > 0)) dn = 0.0;
      if (dn > p->max_dn) dn = p->max_dn;
    } else {
      dn = digitise(p, g, in[i]);
    }
    out[i] = (uint16_t)dn;
  }
  sensim__frame_buffer_free(in);
  f->unit = SENSIM_UNIT_SIGNAL;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_raw16 = {
    .def = {.name = "raw16",
            .in = SENSIM_PAYLOAD_RAW_F32,
            .out = SENSIM_PAYLOAD_RAW16,
            .init = NULL,
            .apply = raw16_apply,
            .destroy = free},
    .create = raw16_create,
    .accepts = NULL,
};
