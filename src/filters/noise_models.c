/* filters/noise_models.c: image-sensor noise models, each its own filter.
 * (The additive white Gaussian model is "image_noise", image_filters.c.)
 *
 * "noise_intensity": rgb_f32, raw_f32 or gray_f32 in any unit -> the same.
 *   Intensity-dependent Gaussian noise, the heteroscedastic Poissonian-
 *   Gaussian approximation of Foi, Trimeche, Katkovnik & Egiazarian,
 *   "Practical Poissonian-Gaussian noise modeling and fitting for
 *   single-image raw-data", IEEE Trans. Image Process. 17(10), 2008
 *   (their sigma^2(y) = a y + b with a = s1^2, b = s2^2):
 *     I' = I + sqrt(s1^2 max(I, 0) + s2^2) n,   n ~ N(0, 1) per value.
 *   Parameters: "s1" [0.01] and "s2" [3.1e-4], >= 0, in the frame's unit
 *   (s1 in sqrt(unit), s2 in unit). The defaults are, in SIGNAL units
 *   (after "adc", 0..1 full scale), the temporal noise of the
 *   "noise_emva1288" and "adc" defaults at unity gain: s1^2 = 1/full_well
 *   (shot noise), s2^2 = (K^2 (read_noise^2 + dark_current t_exp) + 1/12)
 *   / (2^bits - 1)^2 at t_exp = 10 ms (temporal dark and quantization
 *   noise); 0.7% of full scale at mid-grey. For other
 *   units set both. Values are not clipped.
 *
 * "noise_emva1288": rgb_f32, raw_f32 or gray_f32 in ELECTRONS -> the same,
 *   still in ELECTRONS. The linear camera model of EMVA Standard 1288
 *   (Release 3.1, 2016, Section 2; Release 4.0 Linear, 2021, Section 2) with
 *   the spatial nonuniformities of its Section 4 (Release 3.1) as fixed
 *   patterns. For each value (one photodiode: a pixel of a mosaic, or one
 *   channel of an rgb pixel), with mu_e the frame's mean charge:
 *     mu   = mu_e max(0, 1 + prnu a) + dark_current t_exp   (e-)
 *     n    = Poisson(mu)                  shot noise and dark shot noise
 *     n    = min(n, full_well)            the well saturates
 *     out  = n + dsnu b + read_noise w    offset pattern and read noise
 *   a, b ~ N(0, 1) fixed per photodiode (below), w ~ N(0, 1) per frame;
 *   t_exp is frame.exposure_time (set by "image_sensor"; 0 when unset, so no
 *   dark charge). So mean and variance of out are (EMVA 1288 eqs. for mu_y
 *   and sigma_y^2 before the system gain): mu_e + mu_d and
 *   mu_e + mu_d + read_noise^2 (temporal); the pattern adds spatial variance
 *   (prnu mu_e)^2 + dsnu^2. Quantization noise (1/12 LSB^2) is not added
 *   here: it comes from the rounding in "adc".
 *   Parameters, all optional:
 *     "read_noise"   sigma_d, temporal dark noise, e- rms, >= 0 [3]
 *     "dark_current" mean dark charge rate, e-/s, >= 0 [10]
 *     "prnu"         photo-response nonuniformity, relative std, in [0, 1) [0.01]
 *     "dsnu"         dark-signal (offset) nonuniformity, e- rms, >= 0 [1]
 *     "full_well"    saturation capacity, e-, in (0, 1e9] [10000]; same as
 *                    "image_sensor"'s
 *     "shot_noise"   1: draw the Poisson counts; 0: n = mu (to study the
 *                    other terms alone) [1]
 *   The defaults are representative of a current global-shutter CMOS
 *   machine-vision sensor, not any one datasheet.
 *
 *   Random numbers by position: value (pixel p, channel c) takes Philox
 *   block 3 p + c of ctx->rng's stream, c being the rgb channel, the CFA
 *   colour of a mosaic pixel (frame.cfa), or 0 (emva_x_c below). So the
 *   noise of a value depends on its position alone (any banding or thread
 *   count), and "cfa" before this filter gives the same bits as "cfa"
 *   after it (filters/chain.c moves it forward). Poisson draws are exact
 *   at every mean (no Gaussian approximation): mu < 10 by inversion, mu >=
 *   10 by PTRS, W. Hoermann, "The transformed rejection method for
 *   generating Poisson random variables", Insurance: Mathematics and
 *   Economics 12(1), 1993, 39-45 (filters/poisson_ctr.c); the read noise is
 *   Box-Muller from the block's other two words (filters/emva_kernel.c).
 *   A mean above full_well + 40 sqrt(full_well) + 40 saturates without a
 *   draw: the count would fall below the well with probability far under
 *   1e-15.
 *
 *   Fixed patterns: a and b of the value at (x, y, c) are the Box-Muller
 *   pair of block 3 x + c of the stream keyed sensim_rng_init(seed,
 *   sensor_id, 0xFFFFFFFF, 0x52880000 + y), c as above. The frame word is
 *   the constant 0xFFFFFFFF, not the frame index, so every frame of a
 *   sensor sees the same pattern; the world seed and the sensor id change
 *   it. Keying by row keeps a photodiode's pattern independent of the image
 *   width. Chain streams use elements 0x80000000 + slot (+ r 2^16 for
 *   PTRS's retries), so these do not collide with them; images are limited
 *   to 65536 rows. The pattern is
 *   computed on the first frame and kept while seed, sensor, size and CFA
 *   layout stay the same. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/rng_counter.h"
#include "filters/chain.h"
#include "filters/bands.h"
#include "filters/emva_kernel.h"

static const sensim_payload kFloatImages[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RAW_F32,
                                              SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_NONE};

/* Number of float values per pixel of a float image payload; 0 otherwise. */
static int channels_of(sensim_payload t) {
  switch (t) {
    case SENSIM_PAYLOAD_RGB_F32: return 3;
    case SENSIM_PAYLOAD_RAW_F32:
    case SENSIM_PAYLOAD_GRAY_F32: return 1;
    default: return 0;
  }
}

/* ---- noise_intensity ---- */

typedef struct intensity_params {
  double s1, s2;
} intensity_params;

static sensim_status intensity_create(const cJSON *params, void **user) {
  static const char *const known[] = {"s1", "s2", NULL};
  intensity_params p = {0.01, 3.1e-4};
  sensim_status rc = sensim__param_only(params, "noise_intensity", known);
  if (!rc) rc = sensim__param_number(params, "s1", &p.s1);
  if (!rc) rc = sensim__param_number(params, "s2", &p.s2);
  if (rc) return rc;
  if (!(p.s1 >= 0)) return sensim__fail(SENSIM_EINVAL, "noise_intensity: s1 %g must be >= 0", p.s1);
  if (!(p.s2 >= 0)) return sensim__fail(SENSIM_EINVAL, "noise_intensity: s2 %g must be >= 0", p.s2);
  intensity_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

#define INTENSITY_CHUNK 256 /* normal pairs per batch */

static sensim_status intensity_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  const intensity_params *p = user;
  int ch = channels_of(f->type);
  if (!ch)
    return sensim__fail(SENSIM_ETYPE, "noise_intensity takes rgb_f32, raw_f32 or gray_f32, not %s",
                        sensim_payload_name(f->type));
  double a = p->s1 * p->s1, b = p->s2 * p->s2;
  float *v = f->data;
  /* Value i takes normal i of sensim_rng_normal2f_n over the filter's
   * fresh stream (pairs from consecutive words, vectorised). */
  float n01[2 * INTENSITY_CHUNK];
  size_t n = (size_t)ch * f->count;
  for (size_t i0 = 0; i0 < n; i0 += 2 * INTENSITY_CHUNK) {
    size_t m = n - i0 < 2 * INTENSITY_CHUNK ? n - i0 : 2 * INTENSITY_CHUNK;
    sensim_rng_normal2f_n(&ctx->rng, n01, (m + 1) / 2);
    for (size_t i = 0; i < m; i++) {
      float x = v[i0 + i];
      double I = x > 0.0f ? (double)x : 0.0;
      v[i0 + i] = (float)(x + sqrt(a * I + b) * (double)n01[i]);
    }
  }
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_noise_intensity = {
    .def = {.name = "noise_intensity",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = NULL,
            .apply = intensity_apply,
            .destroy = free},
    .create = intensity_create,
    .accepts = kFloatImages,
};

/* ---- noise_emva1288 ---- */

#define FPN_FRAME 0xFFFFFFFFull    /* frame word of the fixed-pattern streams */
#define FPN_ELEMENT 0x52880000u    /* + row: element word of the fixed-pattern streams */
#define FPN_MAX_ROWS 0x10000u

typedef struct emva_filter {
  double read_noise, dark_current, prnu, dsnu, full_well;
  int shot_noise;
  /* Fixed pattern of the last frame size: a (PRNU) and b (DSNU) of each
   * value, interleaved; valid for (seed, sensor, width, height, ch). */
  float *fpn;
  uint64_t fpn_seed;
  uint32_t fpn_sensor, fpn_w, fpn_h;
  int fpn_ch, fpn_cfa; /* fpn_cfa: the frame's CFA layout, -1 for none */
} emva_filter;

static void emva_destroy(void *user) {
  emva_filter *u = user;
  if (!u) return;
  free(u->fpn);
  free(u);
}

static sensim_status emva_create(const cJSON *params, void **user) {
  static const char *const known[] = {"read_noise", "dark_current", "prnu", "dsnu", "full_well", "shot_noise", NULL};
  emva_filter p = {.read_noise = 3.0, .dark_current = 10.0, .prnu = 0.01, .dsnu = 1.0, .full_well = 10000.0};
  double shot = 1.0;
  sensim_status rc = sensim__param_only(params, "noise_emva1288", known);
  if (!rc) rc = sensim__param_number(params, "read_noise", &p.read_noise);
  if (!rc) rc = sensim__param_number(params, "dark_current", &p.dark_current);
  if (!rc) rc = sensim__param_number(params, "prnu", &p.prnu);
  if (!rc) rc = sensim__param_number(params, "dsnu", &p.dsnu);
  if (!rc) rc = sensim__param_number(params, "full_well", &p.full_well);
  if (!rc) rc = sensim__param_number(params, "shot_noise", &shot);
  if (rc) return rc;
  if (!(p.read_noise >= 0))
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: read_noise %g e- must be >= 0", p.read_noise);
  if (!(p.dark_current >= 0))
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: dark_current %g e-/s must be >= 0", p.dark_current);
  if (!(p.prnu >= 0 && p.prnu < 1))
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: prnu %g must be in [0, 1)", p.prnu);
  if (!(p.dsnu >= 0)) return sensim__fail(SENSIM_EINVAL, "noise_emva1288: dsnu %g e- must be >= 0", p.dsnu);
  /* Counts stay exact integers in the float output up to 2^24 e-; wells
   * beyond 1e9 e- do not exist. */
  if (!(p.full_well > 0 && p.full_well <= 1e9))
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: full_well %g e- must be in (0, 1e9]", p.full_well);
  if (!(shot == 0 || shot == 1))
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: shot_noise %g must be 0 or 1", shot);
  p.shot_noise = shot == 1;
  emva_filter *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

/* Block of a value's numbers: its rgb value index (pixel p, channel c)
 * -> 3 p + c, where c is the value's channel in an rgb frame, the colour of
 * its filter in a mosaic with a CFA layout, and 0 otherwise. So a mosaic
 * value draws exactly what the same channel of the rgb pixel drew, and
 * "cfa" placed first gives the same bits as "cfa" placed after this filter
 * (filters/chain.c relies on it). `x_c` is x 3 + c within the row. */
static inline uint32_t emva_x_c(const int *cell, int ch, uint32_t y, size_t i) {
  if (ch == 3) return (uint32_t)i;
  uint32_t x = (uint32_t)i;
  return 3u * x + (cell ? (uint32_t)cell[(x & 1u) + 2u * (y & 1u)] : 0u);
}

/* Rows [y0, y1) of a fixed pattern. */
typedef struct pattern_job {
  const sensim_filter_ctx *ctx;
  const int *cell;
  int ch;
  size_t per_row;
  float *fpn;
} pattern_job;

static void pattern_rows(void *arg, size_t y0, size_t y1) {
  const pattern_job *j = arg;
  uint32_t blocks[SENSIM_EMVA_CHUNK], w[4 * SENSIM_EMVA_CHUNK];
  for (uint32_t y = (uint32_t)y0; y < y1; y++) {
    sensim_rng r;
    sensim_rng_init(&r, j->ctx->seed, j->ctx->sensor_id, FPN_FRAME, FPN_ELEMENT + y);
    float *pa = j->fpn + 2 * j->per_row * y, *pb = pa + j->per_row;
    for (size_t i0 = 0; i0 < j->per_row; i0 += SENSIM_EMVA_CHUNK) {
      size_t n = j->per_row - i0 < SENSIM_EMVA_CHUNK ? j->per_row - i0 : SENSIM_EMVA_CHUNK;
      for (size_t i = 0; i < n; i++) blocks[i] = emva_x_c(j->cell, j->ch, y, i0 + i);
      sensim__philox_at(&r, blocks, n, w, SENSIM_EMVA_CHUNK);
      for (size_t i = 0; i < n; i++)
        sensim__normal_pair_fast(w[i], w[SENSIM_EMVA_CHUNK + i], &pa[i0 + i], &pb[i0 + i]);
    }
  }
}

/* Make sure u->fpn holds this frame's fixed pattern (see the file comment
 * for the keying): per row, the a (PRNU) plane of the row's values, then
 * their b (DSNU) plane. */
static sensim_status emva_pattern(emva_filter *u, const sensim_frame *f, const sensim_filter_ctx *ctx, int ch,
                                  const int *cell) {
  int cfa = cell ? (int)f->cfa : -1;
  if (u->fpn && u->fpn_seed == ctx->seed && u->fpn_sensor == ctx->sensor_id && u->fpn_w == f->width &&
      u->fpn_h == f->height && u->fpn_ch == ch && u->fpn_cfa == cfa)
    return SENSIM_OK;
  size_t per_row = (size_t)f->width * (size_t)ch;
  size_t nvals = per_row * f->height;
  float *fpn = malloc((nvals > 0 ? nvals : 1) * 2 * sizeof *fpn);
  if (!fpn) return sensim__fail(SENSIM_ENOMEM, "noise_emva1288: out of memory for the fixed pattern");
  pattern_job job = {.ctx = ctx, .cell = cell, .ch = ch, .per_row = per_row, .fpn = fpn};
  sensim__filter_bands(f->height, 1, pattern_rows, &job);
  free(u->fpn);
  u->fpn = fpn;
  u->fpn_seed = ctx->seed;
  u->fpn_sensor = ctx->sensor_id;
  u->fpn_w = f->width;
  u->fpn_h = f->height;
  u->fpn_ch = ch;
  u->fpn_cfa = cfa;
  return SENSIM_OK;
}

/* One frame's work, split into rows. */
typedef struct emva_run {
  sensim_emva_kernel k;
  const float *fpn;   /* u->fpn, or NULL without a pattern */
  float *v;           /* the frame's values */
  uint32_t width;
  int ch;             /* values per pixel */
  const int *cell;    /* raw_f32 with a CFA layout: colour per 2 x 2 position; else NULL */
} emva_run;

static void emva_rows(void *arg, size_t y0, size_t y1) {
  const emva_run *r = arg;
  const size_t per_row = (size_t)r->width * (size_t)r->ch;
  uint32_t blocks[SENSIM_EMVA_CHUNK];
  for (uint32_t y = (uint32_t)y0; y < y1; y++) {
    float *row = r->v + per_row * y;
    const float *pa = r->fpn ? r->fpn + 2 * per_row * y : NULL, *pb = pa ? pa + per_row : NULL;
    const uint32_t base = 3u * r->width * y; /* fits: emva_apply checks 3 count < 2^32 */
    for (size_t i0 = 0; i0 < per_row; i0 += SENSIM_EMVA_CHUNK) {
      size_t n = per_row - i0 < SENSIM_EMVA_CHUNK ? per_row - i0 : SENSIM_EMVA_CHUNK;
      for (size_t i = 0; i < n; i++) blocks[i] = base + emva_x_c(r->cell, r->ch, y, i0 + i);
      sensim__emva_values(&r->k, blocks, n, pa ? pa + i0 : NULL, pb ? pb + i0 : NULL, row + i0);
    }
  }
}

static sensim_status emva_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  emva_filter *u = user;
  int ch = channels_of(f->type);
  if (!ch)
    return sensim__fail(SENSIM_ETYPE, "noise_emva1288 takes rgb_f32, raw_f32 or gray_f32, not %s",
                        sensim_payload_name(f->type));
  if (f->unit != SENSIM_UNIT_ELECTRONS)
    return sensim__fail(SENSIM_ETYPE,
                        "noise_emva1288 takes electrons, but the frame is in %s (place \"image_sensor\" before it)",
                        sensim_image_unit_name(f->unit));
  if (f->height > FPN_MAX_ROWS)
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: %u rows exceed the %u the fixed pattern is keyed for",
                        f->height, FPN_MAX_ROWS);
  if (f->count > 0x55555555u)
    return sensim__fail(SENSIM_EINVAL, "noise_emva1288: %zu pixels exceed the 2^32 / 3 its streams address",
                        (size_t)f->count);
  const int *cell = NULL;
  if (f->type == SENSIM_PAYLOAD_RAW_F32 && f->cfa != SENSIM_CFA_NONE) {
    if ((unsigned)f->cfa > (unsigned)SENSIM_CFA_GBRG)
      return sensim__fail(SENSIM_EINVAL, "noise_emva1288: frame has an invalid CFA layout %d", (int)f->cfa);
    cell = sensim__cfa_cell(f->cfa);
  }
  double t_exp = f->exposure_time > 0 && isfinite(f->exposure_time) ? f->exposure_time : 0.0;
  if (u->prnu > 0 || u->dsnu > 0) {
    sensim_status rc = emva_pattern(u, f, ctx, ch, cell);
    if (rc) return rc;
  }
  emva_run r = {.k = {.stream = &ctx->rng, .prnu = u->prnu, .dsnu = u->dsnu, .read_noise = u->read_noise,
                      .full_well = u->full_well, .mu_d = u->dark_current * t_exp,
                      /* Beyond this mean the drawn count exceeds the well
                       * with certainty (the well is over 40 standard
                       * deviations below the mean). */
                      .sure_sat = u->full_well + 40.0 * sqrt(u->full_well) + 40.0, .shot_noise = u->shot_noise},
                .fpn = u->prnu > 0 || u->dsnu > 0 ? u->fpn : NULL, .v = f->data, .width = f->width, .ch = ch,
                .cell = cell};
  sensim__filter_bands(f->height, 1, emva_rows, &r); /* rows in bands on the world's workers */
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_noise_emva1288 = {
    .def = {.name = "noise_emva1288",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .init = NULL,
            .apply = emva_apply,
            .destroy = emva_destroy},
    .create = emva_create,
    .accepts = kFloatImages,
};
