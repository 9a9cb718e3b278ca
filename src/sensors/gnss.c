/* sensors/gnss.c: the GNSS receiver before its error filters.
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
#include "sensors/window.h"

static const double kRadToDeg = 180.0 / M_PI;

void sensim_gnss_params_init(sensim_gnss_params *p) {
  if (!p) return;
  p->satellites = 10;
  p->hdop = 0.9;
  p->vdop = 1.5;
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

typedef struct antenna {
  sensim_vec3 pos, vel; /* world frame, m and m/s */
} antenna;

/* Antenna point of a rigid carrier: p = x + R r, v_p = v + omega x (R r),
 * all in the world frame (e.g. Craig, "Introduction to Robotics", 3rd ed.,
 * ch. 5). A world-fixed sensor's carrier state is zero at identity. */
static antenna antenna_of(const sensim_capture_ctx *ctx, const sensim_body_state *st) {
  sensim_vec3 lever = q_rotate(st->pose.rot, ctx->mount.pos);
  antenna a;
  a.pos = v3_add(st->pose.pos, lever);
  a.vel = v3_add(st->lin_vel, v3_cross(st->ang_vel, lever));
  return a;
}

/* antenna_of as a window reading: position then velocity. */
static void antenna_reading(const sensim_capture_ctx *ctx, const sensim_body_state *st, const void *user,
                            double *out) {
  (void)user;
  antenna a = antenna_of(ctx, st);
  out[0] = a.pos.x, out[1] = a.pos.y, out[2] = a.pos.z;
  out[3] = a.vel.x, out[4] = a.vel.y, out[5] = a.vel.z;
}

static sensim_status gnss_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  const sensim_gnss_params *gp = ctx.impl;
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
    .destroy = free,
};

static sensim_status check_gnss_params(const sensim_gnss_params *gp) {
  if (gp->satellites < 0 || gp->satellites > 99)
    return sensim__fail(SENSIM_EINVAL, "gnss: satellites = %d must be in [0, 99]", gp->satellites);
  if (!(gp->hdop >= 0.0 && gp->hdop < 1000.0))
    return sensim__fail(SENSIM_EINVAL, "gnss: hdop = %g must be in [0, 1000)", gp->hdop);
  if (!(gp->vdop >= 0.0 && gp->vdop < 1000.0))
    return sensim__fail(SENSIM_EINVAL, "gnss: vdop = %g must be in [0, 1000)", gp->vdop);
  return SENSIM_OK;
}

sensim_status sensim_gnss_create(sensim_world *world, const sensim_sensor_params *sp,
                                 const sensim_gnss_params *gp, sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "gnss: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "gnss: sensor params are NULL");
  if (!gp) return sensim__fail(SENSIM_EINVAL, "gnss: receiver params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "gnss: out is NULL");
  sensim_status st = check_gnss_params(gp);
  if (st != SENSIM_OK) return st;
  /* One solution per epoch (gnss.h); the relative slack forgives the
   * rounding of window = 1 / rate computed by the caller. */
  if (sp->rate > 0.0 && isfinite(sp->window) && sp->window > (1.0 + 1e-12) / sp->rate)
    return sensim__fail(SENSIM_EINVAL,
                        "gnss: window = %g s is longer than the update period 1 / rate = %g s",
                        sp->window, 1.0 / sp->rate);
  sensim_gnss_params *impl = malloc(sizeof *impl);
  if (!impl) return sensim__fail(SENSIM_ENOMEM, "gnss: out of memory");
  *impl = *gp;
  return sensim__sensor_create(world, sp, &gnss_kind, impl, out);
}
