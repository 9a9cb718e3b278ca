/* sensors/magnetometer.c: the ideal three-axis magnetometer.
 *
 * Field models (include/sensim/magnetometer.h):
 *
 * DIPOLE. The degree-1 part of the IGRF spherical-harmonic expansion of the
 * main field's potential (Alken et al. 2021, "International Geomagnetic
 * Reference Field: the thirteenth generation", Earth Planets Space 73:49,
 * eq. 1; W. H. Campbell, "Introduction to Geomagnetic Fields", 2nd ed.,
 * Cambridge 2003, sec. 2.3):
 *   V = a (a/r)^2 [g10 cos(theta) + (g11 cos(phi) + h11 sin(phi)) sin(theta)]
 * (theta geocentric colatitude, phi longitude, r geocentric distance, a the
 * reference radius), B = -grad V. Its gradient is that of a centred dipole;
 * with g = (g11, h11, g10) read as an ECEF vector and u = r_vec / r,
 *   B = (a/r)^3 [3 (g . u) u - g]
 * whose radial component 2 (a/r)^3 (g . u) and colatitude / longitude
 * components are exactly -dV/dr, -(1/r) dV/dtheta and -(1/(r sin theta))
 * dV/dphi (expand g . u = g10 cos theta + (g11 cos phi + h11 sin phi) sin
 * theta). Evaluating it in ECEF and rotating into the world's ENU frame
 * avoids the geocentric-to-geodetic rotation of the local X, Y, Z
 * components (it is implied by the ENU basis at the origin). The sensor's
 * ECEF position is the origin's (WGS84, core/geodesy.c) plus its ENU
 * position rotated into ECEF.
 *
 * CONSTANT. field_enu in the world frame, everywhere.
 *
 * The reading is b_s = R_sensor^T b_world, R_sensor = R_body R_mount. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/geodesy.h"
#include "sensim/magnetometer.h"
#include "sensors/window.h"

void sensim_magnetometer_params_init(sensim_magnetometer_params *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->model = SENSIM_MAG_DIPOLE;
  /* IGRF-13 main-field coefficients at 2020.0, nT (Alken et al. 2021, Table 2). */
  p->g10 = -29404.8;
  p->g11 = -1450.9;
  p->h11 = 4652.5;
  p->ref_radius = 6371200.0;
  p->field_enu[0] = 0.0;
  p->field_enu[1] = 2e-5;
  p->field_enu[2] = -4.5e-5;
}

/* ENU basis at the origin as ECEF unit vectors, and the origin in ECEF. */
typedef struct enu_frame {
  sensim_vec3 e, n, u, o;
} enu_frame;

static enu_frame enu_at(const double origin[3]) {
  double lat = origin[0] * M_PI / 180.0, lon = origin[1] * M_PI / 180.0;
  double sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon);
  enu_frame f;
  f.e = v3(-so, co, 0.0);
  f.n = v3(-sl * co, -sl * so, cl);
  f.u = v3(cl * co, cl * so, sl);
  double o[3];
  sensim_geodetic_to_ecef(origin[0], origin[1], origin[2], o);
  f.o = v3(o[0], o[1], o[2]);
  return f;
}

/* Dipole field in ECEF at ECEF point p, T. */
static sensim_vec3 dipole_ecef(const sensim_magnetometer_params *mp, sensim_vec3 p) {
  double r = v3_norm(p);
  sensim_vec3 u = v3_scale(p, 1.0 / r);
  sensim_vec3 g = v3(mp->g11, mp->h11, mp->g10);
  double k = mp->ref_radius / r;
  double s = k * k * k * 1e-9; /* nT -> T */
  return v3_scale(v3_sub(v3_scale(u, 3.0 * v3_dot(g, u)), g), s);
}

static sensim_vec3 world_field(const sensim_magnetometer_params *mp, const enu_frame *f,
                               sensim_vec3 enu) {
  if (mp->model == SENSIM_MAG_CONSTANT) return v3(mp->field_enu[0], mp->field_enu[1], mp->field_enu[2]);
  sensim_vec3 p = v3_add(f->o, v3_add(v3_add(v3_scale(f->e, enu.x), v3_scale(f->n, enu.y)),
                                      v3_scale(f->u, enu.z)));
  sensim_vec3 b = dipole_ecef(mp, p);
  return v3(v3_dot(b, f->e), v3_dot(b, f->n), v3_dot(b, f->u));
}

static sensim_status check_params(const sensim_magnetometer_params *mp) {
  if (!mp) return sensim__fail(SENSIM_EINVAL, "magnetometer: params are NULL");
  /* Every number finite, whichever model reads it (the header promises
   * SENSIM_EINVAL for non-finite numbers; a NaN is never deliberate). */
  for (int i = 0; i < 3; i++)
    if (!isfinite(mp->field_enu[i]))
      return sensim__fail(SENSIM_EINVAL, "magnetometer: field_enu[%d] = %g must be finite", i,
                          mp->field_enu[i]);
  if (!isfinite(mp->g10) || !isfinite(mp->g11) || !isfinite(mp->h11))
    return sensim__fail(SENSIM_EINVAL, "magnetometer: Gauss coefficients (%g, %g, %g) nT must be "
                        "finite", mp->g10, mp->g11, mp->h11);
  if (!isfinite(mp->ref_radius))
    return sensim__fail(SENSIM_EINVAL, "magnetometer: ref_radius = %g m must be finite", mp->ref_radius);
  if (mp->model == SENSIM_MAG_CONSTANT) return SENSIM_OK;
  if (mp->model != SENSIM_MAG_DIPOLE)
    return sensim__fail(SENSIM_EINVAL, "magnetometer: unknown model %d (CONSTANT 0, DIPOLE 1)",
                        (int)mp->model);
  if (mp->g10 == 0.0 && mp->g11 == 0.0 && mp->h11 == 0.0)
    return sensim__fail(SENSIM_EINVAL, "magnetometer: dipole with g10 = g11 = h11 = 0 has no field");
  if (!isfinite(mp->ref_radius) || mp->ref_radius <= 0.0)
    return sensim__fail(SENSIM_EINVAL, "magnetometer: ref_radius = %g m must be finite and > 0",
                        mp->ref_radius);
  return SENSIM_OK;
}

sensim_status sensim_magnetometer_field(const sensim_magnetometer_params *mp,
                                        const double origin[3], double lat, double lon,
                                        double height, double field_enu[3]) {
  sensim_status st = check_params(mp);
  if (st != SENSIM_OK) return st;
  if (!origin || !field_enu) return sensim__fail(SENSIM_EINVAL, "magnetometer_field: NULL argument");
  const double in[6] = {origin[0], origin[1], origin[2], lat, lon, height};
  for (int i = 0; i < 6; i++)
    if (!isfinite(in[i])) return sensim__fail(SENSIM_EINVAL, "magnetometer_field: input %d is not finite", i);
  if (fabs(lat) > 90.0 || fabs(origin[0]) > 90.0)
    return sensim__fail(SENSIM_EINVAL, "magnetometer_field: latitude %g / origin latitude %g "
                        "outside [-90, 90] deg", lat, origin[0]);
  enu_frame f = enu_at(origin);
  double enu[3];
  sensim_geodetic_to_enu(origin, lat, lon, height, enu);
  sensim_vec3 b = world_field(mp, &f, v3(enu[0], enu[1], enu[2]));
  field_enu[0] = b.x;
  field_enu[1] = b.y;
  field_enu[2] = b.z;
  return SENSIM_OK;
}

/* ---- the sensor kind ---- */

typedef struct mag_impl {
  sensim_magnetometer_params p;
} mag_impl;

static double mag_default_window(const void *impl, double rate) {
  (void)impl;
  (void)rate;
  return 0.0;
}

static sensim_vec3 mag_read(const sensim_capture_ctx *ctx, const sensim_body_state *st,
                            const mag_impl *m, const enu_frame *f) {
  const sensim_pose *mount = &ctx->mount;
  sensim_vec3 pos = v3_add(st->pose.pos, q_rotate(st->pose.rot, mount->pos));
  sensim_quat rs = q_mul(st->pose.rot, mount->rot);
  return q_rotate_inv(rs, world_field(&m->p, f, pos));
}

typedef struct mag_ctx {
  const mag_impl *m;
  const enu_frame *f;
} mag_ctx;

/* mag_read as a window reading. */
static void mag_reading(const sensim_capture_ctx *ctx, const sensim_body_state *st, const void *user,
                        double *out) {
  const mag_ctx *c = user;
  sensim_vec3 b = mag_read(ctx, st, c->m, c->f);
  out[0] = b.x, out[1] = b.y, out[2] = b.z;
}

static sensim_status mag_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  const sensim_snapshot *snap = ctx.snap;
  const mag_impl *m = ctx.impl;
  const double origin[3] = {snap->params.origin_lat, snap->params.origin_lon,
                            snap->params.origin_height};
  enu_frame f = enu_at(origin);
  /* Time average of the sensor-frame reading over the window, as the IMU. */
  mag_ctx c = {m, &f};
  double mean[3];
  sensim__window_mean(&ctx, ctx.t_capture, mag_reading, &c, 3, mean);
  sensim_status rc = sensim_frame_alloc(frame, SENSIM_PAYLOAD_MAG, 1, 1);
  if (rc != SENSIM_OK) return rc;
  sensim_mag_sample *out = frame->data;
  for (int i = 0; i < 3; i++) {
    out->field[i] = mean[i];
    out->field_var[i] = 0.0; /* the truth: noise filters add theirs */
  }
  return SENSIM_OK;
}

static void mag_destroy(void *impl) { free(impl); }

static const sensim_sensor_kind mag_kind = {
    .name = "magnetometer",
    .raw_type = SENSIM_PAYLOAD_MAG,
    .needs_geometry = 0,
    .default_window = mag_default_window,
    .generate = mag_generate,
    .destroy = mag_destroy,
};

sensim_status sensim_magnetometer_create(sensim_world *world, const sensim_sensor_params *sp,
                                         const sensim_magnetometer_params *mp,
                                         sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "magnetometer: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "magnetometer: sensor params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "magnetometer: out is NULL");
  sensim_status st = check_params(mp);
  if (st != SENSIM_OK) return st;
  if (fabs(world->params.origin_lat) > 90.0)
    return sensim__fail(SENSIM_EINVAL, "magnetometer: world origin latitude %g outside [-90, 90]",
                        world->params.origin_lat);
  /* A window longer than the period would overlap consecutive samples,
   * which no decimating sensor does. */
  if (isfinite(sp->rate) && sp->rate > 0.0 && sp->window > 1.0 / sp->rate)
    return sensim__fail(SENSIM_EINVAL, "magnetometer: window %g s longer than the period 1/rate = "
                        "%g s", sp->window, 1.0 / sp->rate);
  mag_impl *m = malloc(sizeof *m);
  if (!m) return sensim__fail(SENSIM_ENOMEM, "magnetometer: out of memory");
  m->p = *mp;
  return sensim__sensor_create(world, sp, &mag_kind, m, out);
}
