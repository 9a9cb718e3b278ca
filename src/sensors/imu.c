/* sensors/imu.c: the ideal strapdown IMU.
 *
 * At the mount point p = x + r (r = R_body * mount.pos, world frame) of a
 * rigid body the acceleration is a_p = a + alpha x r + omega x (omega x r)
 * (rigid-body kinematics, e.g. Craig, "Introduction to Robotics", 3rd ed.,
 * ch. 6; Titterton & Weston, "Strapdown Inertial Navigation Technology",
 * 2nd ed., ch. 3).
 * The accelerometer measures specific force f = a_p - g with g = (0, 0,
 * -gravity) in the world, and the gyroscope the angular rate omega; both are
 * resolved in the sensor frame: f_s = R_sensor^T f, w_s = R_sensor^T omega,
 * R_sensor = R_body * R_mount. With earth_rotation the world is the ENU
 * frame at the origin's latitude turning with the Earth (imu.h): the gyro
 * adds Omega_enu and the accelerometer 2 Omega_enu x v_p. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/imu.h"
#include "sensors/window.h"

/* WGS84's angular velocity of the Earth, rad/s (NIMA TR8350.2, 3rd ed.,
 * table 3.1). */
static const double earth_rate = 7.292115e-5;

static double imu_default_window(const void *impl, double rate) {
  (void)impl;
  /* One whole sample period, as a decimating IMU averages its internal
   * high-rate samples over it. */
  return (isfinite(rate) && rate > 0.0) ? 1.0 / rate : 0.0;
}

typedef struct imu_reading {
  sensim_vec3 accel, gyro; /* sensor frame, m/s^2 and rad/s */
} imu_reading;

/* What a reading needs besides the body's state. */
typedef struct imu_env {
  double gravity;    /* m/s^2 */
  int rotating;      /* the world turns with the Earth */
  sensim_vec3 earth; /* the Earth's rate in the world (ENU) frame, rad/s */
} imu_env;

static imu_reading imu_read(const sensim_capture_ctx *ctx, const sensim_body_state *st, const imu_env *env) {
  const sensim_pose *mount = &ctx->mount;
  sensim_vec3 w = st->ang_vel, alpha = st->ang_acc;
  sensim_vec3 r = q_rotate(st->pose.rot, mount->pos);
  sensim_vec3 a_p =
      v3_add(st->lin_acc, v3_add(v3_cross(alpha, r), v3_cross(w, v3_cross(w, r))));
  sensim_vec3 rate = w;
  if (env->rotating) {
    /* Only then: adding a zero vector would turn -0 readings into +0. */
    sensim_vec3 v_p = v3_add(st->lin_vel, v3_cross(w, r));
    a_p = v3_add(a_p, v3_scale(v3_cross(env->earth, v_p), 2.0));
    rate = v3_add(w, env->earth);
  }
  sensim_vec3 f = v3_sub(a_p, v3(0.0, 0.0, -env->gravity));
  sensim_quat rs = q_mul(st->pose.rot, mount->rot);
  imu_reading out;
  out.accel = q_rotate_inv(rs, f);
  out.gyro = q_rotate_inv(rs, rate);
  return out;
}

/* imu_read as a window reading: accel then gyro. */
static void imu_reading_of(const sensim_capture_ctx *ctx, const sensim_body_state *st, const void *user,
                           double *out) {
  imu_reading r = imu_read(ctx, st, user);
  out[0] = r.accel.x, out[1] = r.accel.y, out[2] = r.accel.z;
  out[3] = r.gyro.x, out[4] = r.gyro.y, out[5] = r.gyro.z;
}

static sensim_status imu_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  /* The sample is the time average over the window of the sensor-frame
   * readings: a real IMU integrates (decimates) the readings it has already
   * rotated into its own frame, so the average is taken after the
   * rotation, not on world-frame quantities. */
  const sensim_imu_params *ip = ctx.impl;
  imu_env env = {ctx.snap->params.gravity, ip->earth_rotation, v3(0.0, 0.0, 0.0)};
  if (env.rotating) {
    double lat = ctx.snap->params.origin_lat * (M_PI / 180.0);
    env.earth = v3(0.0, earth_rate * cos(lat), earth_rate * sin(lat));
  }
  double m[6];
  sensim__window_mean(&ctx, ctx.t_capture, imu_reading_of, &env, 6, m);

  sensim_status rc = sensim_frame_alloc(frame, SENSIM_PAYLOAD_IMU, 1, 1);
  if (rc != SENSIM_OK) return rc;
  sensim_imu_sample *out = (sensim_imu_sample *)frame->data;
  for (int i = 0; i < 3; i++) {
    out->accel[i] = m[i];
    out->gyro[i] = m[3 + i];
    out->accel_var[i] = out->gyro_var[i] = 0.0; /* the truth: noise filters add theirs */
  }
  return SENSIM_OK;
}

static const sensim_sensor_kind imu_kind = {
    .name = "imu",
    .raw_type = SENSIM_PAYLOAD_IMU,
    .needs_geometry = 0,
    .default_window = imu_default_window,
    .generate = imu_generate,
    .destroy = free,
};

void sensim_imu_params_init(sensim_imu_params *p) {
  if (p) memset(p, 0, sizeof *p);
}

sensim_status sensim_imu_create(sensim_world *world, const sensim_sensor_params *sp,
                                const sensim_imu_params *ip, sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "imu: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "imu: sensor params are NULL");
  if (!ip) return sensim__fail(SENSIM_EINVAL, "imu: imu params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "imu: out is NULL");
  if (ip->earth_rotation != 0 && ip->earth_rotation != 1)
    return sensim__fail(SENSIM_EINVAL, "imu: earth_rotation = %d must be 0 or 1", ip->earth_rotation);
  /* A window longer than the period would make consecutive samples share
   * input, which a decimating IMU's filter does not do, and "imu_noise"
   * draws independent white noise per sample on the window's length. */
  if (isfinite(sp->rate) && sp->rate > 0.0 && sp->window > 1.0 / sp->rate)
    return sensim__fail(SENSIM_EINVAL, "imu: window %g s longer than the period 1/rate = %g s",
                        sp->window, 1.0 / sp->rate);
  sensim_imu_params *impl = malloc(sizeof *impl);
  if (!impl) return sensim__fail(SENSIM_ENOMEM, "imu: out of memory");
  *impl = *ip;
  return sensim__sensor_create(world, sp, &imu_kind, impl, out);
}
