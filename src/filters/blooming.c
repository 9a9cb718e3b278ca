/* filters/blooming.c: "blooming", charge from saturated photodiodes
 * spilling along the image columns (docs/camera_pipeline.md, "Blooming").
 *
 * A photodiode holds at most its full-well capacity; the charge a brighter
 * pixel collects beyond it overflows into its neighbours along the column
 * (the direction a CCD's vertical register, or a CMOS column's potential
 * barriers, lets it pass), filling each in turn until the excess is
 * absorbed, which draws the vertical streak above and below a bright light
 * (G. C. Holst and T. S. Lomheim, CMOS/CCD Sensors and Camera Systems,
 * 2nd ed., SPIE 2011, "blooming"; J. R. Janesick, Scientific Charge-Coupled
 * Devices, SPIE 2001, on full well and blooming). An anti-blooming drain
 * (lateral overflow drain) removes a fraction of the excess before it
 * spreads: datasheets quote blooming suppression as a factor, the drain
 * fraction is 1 - 1 / factor.
 *
 * The filter works in radiance, before "image_sensor" (which clips at the
 * full well and so loses the excess): it converts each value to charge as
 * "image_sensor" does, q = eta R L t_exp, moves the excess, and converts
 * back, so "image_sensor" then collects the bloomed charge. Give it the
 * same exposure_time, responsivity, qe and full_well as "image_sensor"
 * (the defaults are the same, and the exposure follows the same rule: the
 * chain's exposure if one is set, else exposure_time if given, else the
 * camera's rendered exposure, else 0.01 s).
 *
 * Per column (and, on rgb_f32, per channel: each channel as a plane of
 * photodiodes; on raw_f32 the mosaic's physical column, each pixel with the
 * eta of its filter colour), from the top row down:
 *   e_y = (1 - drain) max(0, q_y - full_well),  q_y = min(q_y, full_well);
 *   a share (1 - up) of each e_y is carried down the column, the rest up;
 *   going down (then up), each pixel takes min(full_well - q_y, carried),
 *   and what passes the last row leaves the image.
 * Total charge is kept (less the drain and what leaves the image ends), so
 * an isolated pixel with charge k x full_well over a background q_b spills
 * (k - 1) full_well / 2 to each side (up = 0.5), filling
 * (k - 1) full_well / (2 (full_well - q_b)) pixels above and below. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"

typedef struct bloom_params {
  double exposure_time; /* s, used while the chain has no exposure */
  double responsivity;  /* photons per pixel per (radiance unit x s) */
  double qe[3];         /* quantum efficiency per channel */
  double full_well;     /* e- */
  double drain;         /* fraction of the excess removed by the anti-blooming drain, [0, 1] */
  double up;            /* fraction of the excess that spreads up the column, [0, 1] */
  int time_given;
} bloom_params;

static sensim_status bloom_create(const cJSON *params, void **user) {
  static const char *const known[] = {"exposure_time", "responsivity", "qe", "full_well", "drain", "up", NULL};
  bloom_params p = {0.01, 3e6, {0.5, 0.5, 0.5}, 10000.0, 0.0, 0.5, 0};
  p.time_given = params && cJSON_GetObjectItemCaseSensitive(params, "exposure_time") != NULL;
  sensim_status rc = sensim__param_only(params, "blooming", known);
  if (!rc) rc = sensim__param_number(params, "exposure_time", &p.exposure_time);
  if (!rc) rc = sensim__param_number(params, "responsivity", &p.responsivity);
  if (!rc) rc = sensim__param_number_or_vec3(params, "qe", p.qe);
  if (!rc) rc = sensim__param_number(params, "full_well", &p.full_well);
  if (!rc) rc = sensim__param_number(params, "drain", &p.drain);
  if (!rc) rc = sensim__param_number(params, "up", &p.up);
  if (rc) return rc;
  if (!(p.exposure_time > 0))
    return sensim__fail(SENSIM_EINVAL, "blooming: exposure_time %g s must be > 0", p.exposure_time);
  if (!(p.responsivity > 0))
    return sensim__fail(SENSIM_EINVAL, "blooming: responsivity %g must be > 0", p.responsivity);
  for (int c = 0; c < 3; c++)
    if (!(p.qe[c] > 0 && p.qe[c] <= 1))
      return sensim__fail(SENSIM_EINVAL, "blooming: qe[%d] = %g must be in (0, 1]", c, p.qe[c]);
  if (!(p.full_well > 0)) return sensim__fail(SENSIM_EINVAL, "blooming: full_well %g e- must be > 0", p.full_well);
  if (!(p.drain >= 0 && p.drain <= 1))
    return sensim__fail(SENSIM_EINVAL, "blooming: drain %g must be in [0, 1] (1 - 1 / suppression factor)", p.drain);
  if (!(p.up >= 0 && p.up <= 1)) return sensim__fail(SENSIM_EINVAL, "blooming: up %g must be in [0, 1]", p.up);
  bloom_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

/* One column of n values v[y * stride], pixel y converting radiance to
 * charge by scale[y & 1] (a mosaic column alternates two colours; an rgb
 * plane passes the same scale twice). q and e are scratch of n doubles.
 * Writes back only the values whose charge changed, so a column without
 * saturation stays bit for bit (negative or NaN radiance included). */
static void bloom_column(float *v, size_t n, size_t stride, const double scale[2], const bloom_params *p, double *q,
                         double *e) {
  const double fw = p->full_well;
  int any = 0;
  for (size_t y = 0; y < n; y++) {
    double c = (double)v[y * stride] * scale[y & 1];
    q[y] = c > 0 ? c : 0;
    e[y] = q[y] > fw ? (q[y] - fw) * (1 - p->drain) : 0;
    any |= e[y] > 0;
  }
  if (!any) return;
  double *q0 = e + n; /* the charge before spilling, to see what changed */
  for (size_t y = 0; y < n; y++) {
    q0[y] = q[y];
    if (q[y] > fw) q[y] = fw;
  }
  double carry = 0;
  for (size_t y = 0; y < n; y++) {
    carry += e[y] * (1 - p->up);
    if (carry > 0 && q[y] < fw) {
      double take = fmin(fw - q[y], carry);
      q[y] += take;
      carry -= take;
    }
  }
  carry = 0;
  for (size_t y = n; y-- > 0;) {
    carry += e[y] * p->up;
    if (carry > 0 && q[y] < fw) {
      double take = fmin(fw - q[y], carry);
      q[y] += take;
      carry -= take;
    }
  }
  for (size_t y = 0; y < n; y++)
    if (q[y] != q0[y]) v[y * stride] = (float)(q[y] / scale[y & 1]);
}

static sensim_status bloom_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  const bloom_params *p = user;
  if (f->unit != SENSIM_UNIT_RADIANCE)
    return sensim__fail(SENSIM_ETYPE, "blooming takes radiance (place it before image_sensor), but the frame is in %s",
                        sensim_image_unit_name(f->unit));
  if (f->type != SENSIM_PAYLOAD_RGB_F32 && f->type != SENSIM_PAYLOAD_RAW_F32)
    return sensim__fail(SENSIM_ETYPE, "blooming takes rgb_f32 or raw_f32, not %s", sensim_payload_name(f->type));
  const int raw = f->type == SENSIM_PAYLOAD_RAW_F32;
  if (raw && (unsigned)f->cfa > (unsigned)SENSIM_CFA_GBRG)
    return sensim__fail(SENSIM_EINVAL, "blooming: frame has an invalid CFA layout %d", (int)f->cfa);
  if (raw && f->cfa == SENSIM_CFA_NONE && !(p->qe[0] == p->qe[1] && p->qe[1] == p->qe[2]))
    return sensim__fail(SENSIM_ETYPE, "blooming: raw_f32 frame has no CFA layout, so per-channel qe cannot be applied");
  sensim_exposure ex;
  int valid = 0;
  sensim_filter_exposure_get(ctx, &ex, &valid);
  const double t = valid ? ex.time : !p->time_given && f->exposure_time > 0 ? f->exposure_time : p->exposure_time;
  if (!(t > 0 && isfinite(t)))
    return sensim__fail(SENSIM_EINVAL, "blooming: exposure in effect (%g s) must be positive", t);
  const size_t W = f->width, H = f->height;
  double *scratch = malloc(3 * H * sizeof *scratch);
  if (!scratch) return sensim__fail(SENSIM_ENOMEM, "blooming: out of memory for a %zu-row column", H);
  float *v = f->data;
  if (raw) {
    const int *cell = sensim__cfa_cell(f->cfa);
    for (size_t x = 0; x < W; x++) {
      /* Rows of even and odd index have the colours cell[(x & 1) + 0] and cell[(x & 1) + 2]. */
      const double scale[2] = {p->responsivity * t * p->qe[cell[x & 1]], p->responsivity * t * p->qe[cell[(x & 1) + 2]]};
      bloom_column(v + x, H, W, scale, p, scratch, scratch + H);
    }
  } else {
    for (int c = 0; c < 3; c++) {
      const double s = p->responsivity * t * p->qe[c], scale[2] = {s, s};
      for (size_t x = 0; x < W; x++) bloom_column(v + 3 * x + c, H, 3 * W, scale, p, scratch, scratch + H);
    }
  }
  free(scratch);
  return SENSIM_OK;
}

static const sensim_payload kBloomTakes[] = {SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RAW_F32, SENSIM_PAYLOAD_NONE};

const sensim_builtin_filter sensim__filter_blooming = {
    .def = {.name = "blooming",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .apply = bloom_apply,
            .destroy = free},
    .create = bloom_create,
    .accepts = kBloomTakes};
