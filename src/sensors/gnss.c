/* sensors/gnss.c: the GNSS receiver before its error filters: its
 * parameters, its kinds, and the nominal mode's generator (the satellites
 * mode's is sensors/gnss_satellites.c).
 *
 * Reports the position of the antenna (the sensor origin): its ENU position
 * (world X east, Y north, Z up at the world's origin), WGS84
 * latitude/longitude/height through core/geodesy.c, its ENU velocity, speed
 * over ground and course, the configured satellite count and nominal DOPs.
 * Receiver errors are filters (filters/gnss_*.c), so the reported covariance
 * is zero here.
 *
 * Collection window: with window w > 0 the fix is the time average of the
 * antenna's position and velocity over [t - w, t], the trapezoidal rule over
 * the carrier's keyframes inside the window plus the interpolated states at
 * both ends (as sensors/imu.c averages its readings). Keyframe tracks
 * interpolate position linearly between keyframes (scene/track.c), so the
 * rule is the exact mean of the interpolated track; against a smooth true
 * track p(t) its error is the trapezoid rule's, -h^2 p''/12 for keyframe
 * spacing h (e.g. Press et al., "Numerical Recipes", 3rd ed., eq. 4.2.4). */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/gnss.h"
#include "sensors/gnss_sat.h"
#include "sensors/traced.h"
#include "sensors/window.h"

static const double kRadToDeg = 180.0 / M_PI;

void sensim_gnss_params_init(sensim_gnss_params *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->satellites = 10;
  p->hdop = 0.9;
  p->vdop = 1.5;
  p->mode = SENSIM_GNSS_NOMINAL;
  p->ephemeris = NULL;
  p->utc_start = 0.0;
  p->leap_seconds = -1;
  p->max_ephemeris_age = 0.0;
  p->elevation_mask = 5.0 * M_PI / 180.0;
  p->visibility = 1;
  p->multipath = 1;
  p->ionosphere = 1;
  p->troposphere = 1;
  p->correct_ionosphere = 0;
  p->correct_troposphere = 0;
  for (int i = 0; i < 4; i++) p->iono_alpha[i] = p->iono_beta[i] = NAN;
  p->humidity = 0.5;
  p->range_sigma = 0.5;
  p->range_rate_sigma = 0.05;
  p->reported_sigma = -1.0;
}

static double gnss_default_window(const void *impl, double rate) {
  (void)impl;
  (void)rate;
  return 0.0; /* a fix is instantaneous */
}

void sensim_gnss_fill_speed_course(sensim_gnss_fix *fix) {
  double e = fix->vel_enu[0], n = fix->vel_enu[1];
  fix->speed = hypot(e, n);
  if (!(fix->speed >= SENSIM_GNSS_COURSE_MIN_SPEED)) {
    fix->course = fix->speed == fix->speed ? 0.0 : NAN;
    return;
  }
  /* Course over ground: the azimuth of the horizontal velocity, clockwise
   * from north, hence atan2(east, north) (not the mathematical angle). */
  double c = atan2(e, n) * kRadToDeg;
  if (c < 0.0) c += 360.0;
  if (c >= 360.0) c -= 360.0; /* -tiny + 360 rounds to 360 */
  fix->course = c;
}

void sensim__gnss_antenna(const sensim_capture_ctx *ctx, double t, sensim_vec3 *pos, sensim_vec3 *vel) {
  sensim_body_state st;
  sensim__ctx_carrier_state(ctx, t, &st);
  /* Antenna point of a rigid carrier: p = x + R r, v_p = v + omega x (R r),
   * all in the world frame (e.g. Craig, "Introduction to Robotics", 3rd
   * ed., ch. 5). A world-fixed sensor's carrier state is zero at identity. */
  sensim_vec3 lever = q_rotate(st.pose.rot, ctx->mount.pos);
  *pos = v3_add(st.pose.pos, lever);
  *vel = v3_add(st.lin_vel, v3_cross(st.ang_vel, lever));
}

/* The antenna as a window reading: position then velocity. */
static void antenna_reading(const sensim_capture_ctx *ctx, const sensim_body_state *st, const void *user,
                            double *out) {
  (void)user;
  sensim_vec3 lever = q_rotate(st->pose.rot, ctx->mount.pos);
  sensim_vec3 p = v3_add(st->pose.pos, lever), v = v3_add(st->lin_vel, v3_cross(st->ang_vel, lever));
  out[0] = p.x, out[1] = p.y, out[2] = p.z;
  out[3] = v.x, out[4] = v.y, out[5] = v.z;
}

static sensim_status gnss_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  const sensim_gnss_params *gp = &((const sensim__gnss_cfg *)ctx.impl)->p;
  const sensim_snapshot *snap = ctx.snap;
  double a[6];
  sensim__window_mean(&ctx, ctx.t_capture, antenna_reading, NULL, 6, a);

  sensim_status st = sensim_frame_alloc(frame, SENSIM_PAYLOAD_GNSS, 1, 1);
  if (st != SENSIM_OK) return st;
  sensim_gnss_fix *fix = (sensim_gnss_fix *)frame->data;
  memset(fix, 0, sizeof *fix);
  fix->origin[0] = snap->params.origin_lat;
  fix->origin[1] = snap->params.origin_lon;
  fix->origin[2] = snap->params.origin_height;
  for (int i = 0; i < 3; i++) {
    fix->enu[i] = a[i];
    fix->vel_enu[i] = a[3 + i];
  }
  sensim_enu_to_geodetic(fix->origin, fix->enu, &fix->lat, &fix->lon, &fix->height);
  sensim_gnss_fill_speed_course(fix);
  fix->satellites = gp->satellites;
  fix->hdop = gp->hdop;
  fix->vdop = gp->vdop;
  fix->pdop = hypot(gp->hdop, gp->vdop);
  fix->fix_type = 1;
  return SENSIM_OK;
}

static const sensim_sensor_kind gnss_kind = {
    .name = "gnss",
    .raw_type = SENSIM_PAYLOAD_GNSS,
    .needs_geometry = 0,
    .default_window = gnss_default_window,
    .generate = gnss_generate,
    .destroy = sensim__gnss_cfg_free,
};

/* The satellites mode without ray tracing: open sky everywhere. */
static const sensim_sensor_kind gnss_sky_kind = {
    .name = "gnss",
    .raw_type = SENSIM_PAYLOAD_GNSS,
    .needs_geometry = 0,
    .default_window = gnss_default_window,
    .generate = sensim__gnss_sat_generate,
    .destroy = sensim__gnss_cfg_free,
};

/* The satellites mode with visibility: binds the kernel's structures. */
static const sensim_sensor_kind gnss_traced_kind = {
    .name = "gnss",
    .raw_type = SENSIM_PAYLOAD_GNSS,
    .needs_geometry = 1,
    .default_window = gnss_default_window,
    .generate = sensim__gnss_sat_generate,
    .destroy = sensim__gnss_cfg_free,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
};

sensim_status sensim_gnss_create(sensim_world *world, const sensim_sensor_params *sp,
                                 const sensim_gnss_params *gp, sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "gnss: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "gnss: sensor params are NULL");
  if (!gp) return sensim__fail(SENSIM_EINVAL, "gnss: receiver params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "gnss: out is NULL");
  sensim__gnss_cfg *cfg = NULL;
  sensim_status st = sensim__gnss_cfg_make(sp, gp, &cfg);
  if (st != SENSIM_OK) return st;
  const sensim_sensor_kind *kind = gp->mode == SENSIM_GNSS_NOMINAL ? &gnss_kind
                                   : gp->visibility                ? &gnss_traced_kind
                                                                   : &gnss_sky_kind;
  return sensim__sensor_create(world, sp, kind, cfg, out);
}

sensim_status sensim_gnss_params_get(const sensim_sensor *s, sensim_gnss_params *out) {
  if (!s || !out) return sensim__fail(SENSIM_EINVAL, "sensim_gnss_params_get: NULL argument");
  const sensim_sensor_kind *k = sensim__sensor_kind(s);
  if (k != &gnss_kind && k != &gnss_sky_kind && k != &gnss_traced_kind)
    return sensim__fail(SENSIM_EINVAL, "sensor '%s' is not a GNSS receiver", sensim_sensor_name(s));
  *out = ((const sensim__gnss_cfg *)sensim__sensor_impl(s))->p;
  return SENSIM_OK;
}
