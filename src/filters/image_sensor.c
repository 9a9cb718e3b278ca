/* filters/image_sensor.c: "image_sensor", scene radiance to collected charge.
 *
 * Takes rgb_f32 or raw_f32 in RADIANCE and gives the same payload in
 * ELECTRONS: the mean charge each photodiode collects in one exposure,
 *
 *   mu_e[c] = min(full_well, eta[c] * R * L[c] * t_exp)          (e-)
 *
 * the linear camera model of EMVA Standard 1288 (Release 3.1, 2016, and
 * Release 4.0 Linear, 2021, Section 2: mu_e = eta mu_p), where the mean
 * photon count per pixel mu_p = R L t_exp lumps the camera equation
 * (pixel area, aperture, optics transmittance and photon energy; EMVA 1288
 * Section 2, mu_p = A E t_exp lambda / (h c)) into one radiometric
 * responsivity R.
 *
 * Parameters (JSON object, all optional):
 *   "exposure_time"  s, > 0 [the camera's exposure_time when it rendered
 *                    one (frame.exposure_time > 0), else 0.01]. Used only
 *                    while the chain has no exposure yet (see below).
 *   "gain"           analog gain, > 0 [1]. Same rule as exposure_time.
 *   "responsivity"   R, photons per pixel per (radiance unit x s), > 0
 *                    [3e6]. With the default eta and 10 ms, radiance 0.1,
 *                    0.25 and 0.5 (the demo scenes' range) give 1500, 3750
 *                    and 7500 e-: mid-scale of the default 10000 e- well.
 *   "qe"             quantum efficiency eta per channel, [r, g, b] or one
 *                    number, each in (0, 1] [0.5]. Equal by default so the
 *                    raw image has no colour cast; set a sensor's EMVA 1288
 *                    datasheet values to get its cast (white balance then
 *                    removes it).
 *   "full_well"      saturation capacity, e-, > 0 [10000].
 *
 * Exposure: the chain's shared exposure (filter.h) decides t_exp and the
 * gain. If no filter has set one yet, this filter sets it from its own
 * parameters; it then uses the exposure in effect for this frame (which an
 * auto-exposure filter may have changed) and records it in
 * frame.exposure_time and frame.gain.
 *
 * Gain: analog gain amplifies the read-out voltage, not the charge, so it is
 * not applied here: the frame stays in electrons and "adc" multiplies its
 * system gain by frame.gain (EMVA 1288 Section 2: the system gain K
 * depends on the gain setting). This keeps shot noise Poisson in the
 * collected electrons at any gain.
 *
 * Saturation: the photodiode's charge saturates at the full well, so the
 * mean charge is clipped to [0, full_well] here (negative radiance, e.g.
 * after additive noise, collects no charge; NaN collects none). Shot noise
 * can carry a pixel whose mean is just below the well over it:
 * "noise_emva1288" clips its drawn charge at its own full_well again
 * (before read noise), and "adc" clips at full well before digitising.
 * Give all three the same full_well.
 *
 * raw_f32 input (a "cfa" placed first, the physical order) uses the eta of
 * each pixel's filter colour from frame.cfa; a raw_f32 frame without a CFA
 * layout is accepted only when eta is the same for all channels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/chain.h"

typedef struct sensor_params {
  double exposure_time; /* s, default exposure when the chain has none */
  double gain;          /* analog gain, default when the chain has none */
  double responsivity;  /* photons per pixel per (radiance unit x s) */
  double qe[3];         /* quantum efficiency of the R, G, B channels, (0, 1] */
  double full_well;     /* saturation capacity, e- */
  int time_given;       /* exposure_time was set explicitly */
} sensor_params;

static sensim_status sensor_create(const cJSON *params, void **user) {
  static const char *const known[] = {"exposure_time", "gain", "responsivity", "qe", "full_well", NULL};
  sensor_params p = {0.01, 1.0, 3e6, {0.5, 0.5, 0.5}, 10000.0, 0};
  p.time_given = params && cJSON_GetObjectItemCaseSensitive(params, "exposure_time") != NULL;
  sensim_status rc = sensim__param_only(params, "image_sensor", known);
  if (!rc) rc = sensim__param_number(params, "exposure_time", &p.exposure_time);
  if (!rc) rc = sensim__param_number(params, "gain", &p.gain);
  if (!rc) rc = sensim__param_number(params, "responsivity", &p.responsivity);
  if (!rc) rc = sensim__param_number_or_vec3(params, "qe", p.qe);
  if (!rc) rc = sensim__param_number(params, "full_well", &p.full_well);
  if (rc) return rc;
  if (!(p.exposure_time > 0))
    return sensim__fail(SENSIM_EINVAL, "image_sensor: exposure_time %g s must be > 0", p.exposure_time);
  if (!(p.gain > 0)) return sensim__fail(SENSIM_EINVAL, "image_sensor: gain %g must be > 0", p.gain);
  if (!(p.responsivity > 0))
    return sensim__fail(SENSIM_EINVAL, "image_sensor: responsivity %g must be > 0", p.responsivity);
  for (int c = 0; c < 3; c++)
    if (!(p.qe[c] > 0 && p.qe[c] <= 1))
      return sensim__fail(SENSIM_EINVAL, "image_sensor: qe[%d] = %g must be in (0, 1]", c, p.qe[c]);
  if (!(p.full_well > 0))
    return sensim__fail(SENSIM_EINVAL, "image_sensor: full_well %g e- must be > 0", p.full_well);
  sensor_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

/* Mean charge from radiance: NaN and negative radiance collect nothing,
 * the well saturates at full_well. */
static float collect(float radiance, double scale, double full_well) {
  double e = (double)radiance * scale;
  if (!(e > 0)) return 0.0f;
  return (float)(e < full_well ? e : full_well);
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* collect() along a mosaic row whose even pixels take scale s0 and odd
 * ones s1, four at a time: the same double product, the comparisons as
 * blends (NaN and e <= 0 give 0, as in collect). Returns how many pixels
 * it did. */
__attribute__((target("avx2"))) static uint32_t collect_row_avx2(float *row, uint32_t w, double s0, double s1,
                                                                 double full_well) {
  const __m256d sc = _mm256_set_pd(s1, s0, s1, s0), fw = _mm256_set1_pd(full_well), zero = _mm256_setzero_pd();
  uint32_t x = 0;
  for (; x + 4 <= w; x += 4) {
    __m256d e = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(row + x)), sc);
    __m256d r = _mm256_blendv_pd(fw, e, _mm256_cmp_pd(e, fw, _CMP_LT_OQ));
    r = _mm256_blendv_pd(zero, r, _mm256_cmp_pd(e, zero, _CMP_GT_OQ));
    _mm_storeu_ps(row + x, _mm256_cvtpd_ps(r));
  }
  return x;
}
#endif

/* Rows [y0, y1) of a mosaic: collect() with each pixel's colour's scale. */
typedef struct mosaic_job {
  float *v;
  uint32_t width;
  const int *cell;
  double full_well, scale[3];
} mosaic_job;

static void mosaic_rows(void *arg, size_t y0, size_t y1) {
  const mosaic_job *j = arg;
  for (uint32_t y = (uint32_t)y0; y < y1; y++) {
    float *row = j->v + (size_t)y * j->width;
    double s0 = j->scale[j->cell[2u * (y & 1u)]], s1 = j->scale[j->cell[1u + 2u * (y & 1u)]];
    uint32_t x = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
    if (sensim__cpu_has_avx2()) x = collect_row_avx2(row, j->width, s0, s1, j->full_well);
#endif
    for (; x < j->width; x++) row[x] = collect(row[x], (x & 1u) ? s1 : s0, j->full_well);
  }
}

static sensim_status sensor_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  const sensor_params *p = user;
  if (f->unit != SENSIM_UNIT_RADIANCE)
    return sensim__fail(SENSIM_ETYPE, "image_sensor takes radiance, but the frame is in %s", sensim_image_unit_name(f->unit));
  if (f->type != SENSIM_PAYLOAD_RGB_F32 && f->type != SENSIM_PAYLOAD_RAW_F32)
    return sensim__fail(SENSIM_ETYPE, "image_sensor takes rgb_f32 or raw_f32, not %s", sensim_payload_name(f->type));
  int raw = f->type == SENSIM_PAYLOAD_RAW_F32;
  if (raw && (unsigned)f->cfa > (unsigned)SENSIM_CFA_GBRG)
    return sensim__fail(SENSIM_EINVAL, "image_sensor: frame has an invalid CFA layout %d", (int)f->cfa);
  if (raw && f->cfa == SENSIM_CFA_NONE && !(p->qe[0] == p->qe[1] && p->qe[1] == p->qe[2]))
    return sensim__fail(SENSIM_ETYPE,
                        "image_sensor: raw_f32 frame has no CFA layout, so per-channel qe cannot be applied");
  sensim_exposure e;
  int valid = 0;
  sensim_filter_exposure_get(ctx, &e, &valid);
  if (!valid) {
    /* Without an explicit exposure_time, the exposure the camera rendered
     * (its motion blur) is the one the sensor integrates. */
    e.time = !p->time_given && f->exposure_time > 0 ? f->exposure_time : p->exposure_time;
    e.gain = p->gain;
    sensim_filter_exposure_set(ctx, e);
  }
  if (!(e.time > 0 && isfinite(e.time) && e.gain > 0 && isfinite(e.gain)))
    return sensim__fail(SENSIM_EINVAL, "image_sensor: exposure in effect (%g s, gain %g) must be positive",
                        e.time, e.gain);
  double scale[3];
  for (int c = 0; c < 3; c++) scale[c] = p->responsivity * e.time * p->qe[c];
  float *v = f->data;
  if (raw) {
    mosaic_job job = {.v = v, .width = f->width, .cell = sensim__cfa_cell(f->cfa), .full_well = p->full_well,
                      .scale = {scale[0], scale[1], scale[2]}};
    sensim__filter_bands(f->height, 8, mosaic_rows, &job); /* rows in bands on the world's workers */
  } else {
    for (size_t i = 0; i < f->count; i++)
      for (int c = 0; c < 3; c++) v[3 * i + c] = collect(v[3 * i + c], scale[c], p->full_well);
  }
  f->unit = SENSIM_UNIT_ELECTRONS;
  f->exposure_time = e.time;
  f->gain = e.gain;
  return SENSIM_OK;
}

static const sensim_payload kSensorTakes[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RAW_F32, SENSIM_PAYLOAD_NONE};

const sensim_builtin_filter sensim__filter_image_sensor = {
    .def = {.name = "image_sensor",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = NULL,
            .apply = sensor_apply,
            .destroy = free},
    .create = sensor_create,
    .accepts = kSensorTakes,
};
