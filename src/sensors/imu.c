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
 * R_sensor = R_body * R_mount. The Earth's rotation (7.29e-5 rad/s) is not
 * modelled: the world frame is treated as inertial. */
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensim/imu.h"
#include "sensors/sensor_internal.h"

static double imu_default_window(const void *impl, double rate) {
  (void)impl;
  /* One whole sample period, as a decimating IMU averages its internal
   * high-rate samples over it. */
  return (isfinite(rate) && rate > 0.0) ? 1.0 / rate : 0.0;
}

typedef struct imu_reading {
  sensim_vec3 accel, gyro; /* sensor frame, m/s^2 and rad/s */
} imu_reading;

static imu_reading imu_read(const sensim_sensor *s, const sensim_body_state *st, double gravity) {
  const sensim_pose *mount = &s->params.mount;
  sensim_vec3 w = st->ang_vel, alpha = st->ang_acc;
  sensim_vec3 r = q_rotate(st->pose.rot, mount->pos);
  sensim_vec3 a_p =
      v3_add(st->lin_acc, v3_add(v3_cross(alpha, r), v3_cross(w, v3_cross(w, r))));
  sensim_vec3 f = v3_sub(a_p, v3(0.0, 0.0, -gravity));
  sensim_quat rs = q_mul(st->pose.rot, mount->rot);
  imu_reading out;
  out.accel = q_rotate_inv(rs, f);
  out.gyro = q_rotate_inv(rs, w);
  return out;
}

static void add_scaled(imu_reading *acc, const imu_reading *x, double wgt) {
  acc->accel = v3_add(acc->accel, v3_scale(x->accel, wgt));
  acc->gyro = v3_add(acc->gyro, v3_scale(x->gyro, wgt));
}

static sensim_status imu_generate(const sensim_sensor *s, const sensim_capture *cap,
                                  sensim_frame *frame) {
  const sensim_snapshot *snap = cap->snap;
  double g = snap->params.gravity;
  double t1 = cap->t_capture;
  double win = s->params.window;
  double t0 = t1 - win;
  int bi = s->params.body ? s->params.body->index : -1;

  sensim_body_state st;
  sensim__sensor_carrier_state(s, snap, t1, &st);
  imu_reading end = imu_read(s, &st, g);
  imu_reading mean = end;

  if (win > 0.0) {
    /* The sample is the time average over [t0, t1] of the sensor-frame
     * readings: a real IMU integrates (decimates) the readings it has
     * already rotated into its own frame, so the average is taken after
     * the rotation, not on world-frame quantities. Trapezoidal rule over the
     * carrier's keyframes inside the window plus the interpolated states at
     * both ends; for a world-fixed sensor the reading is constant. */
    const sensim_keyframe *k = NULL;
    size_t nk = 0;
    if (bi >= 0 && (size_t)bi < snap->nbodies) {
      k = snap->bodies[bi].k;
      nk = snap->bodies[bi].nk;
    }
    sensim__sensor_carrier_state(s, snap, t0, &st);
    imu_reading prev = imu_read(s, &st, g);
    double t_prev = t0;
    imu_reading sum = {{0, 0, 0}, {0, 0, 0}};
    for (size_t i = 0; i < nk; i++) {
      if (!(k[i].t > t0 && k[i].t < t1)) continue;
      imu_reading cur = imu_read(s, &k[i].s, g);
      double h = k[i].t - t_prev;
      add_scaled(&sum, &prev, 0.5 * h);
      add_scaled(&sum, &cur, 0.5 * h);
      prev = cur;
      t_prev = k[i].t;
    }
    double h = t1 - t_prev;
    add_scaled(&sum, &prev, 0.5 * h);
    add_scaled(&sum, &end, 0.5 * h);
    mean.accel = v3_scale(sum.accel, 1.0 / win);
    mean.gyro = v3_scale(sum.gyro, 1.0 / win);
  }

  sensim_status rc = sensim_frame_alloc(frame, SENSIM_PAYLOAD_IMU, 1, 1);
  if (rc != SENSIM_OK) return rc;
  sensim_imu_sample *out = (sensim_imu_sample *)frame->data;
  out->accel[0] = mean.accel.x;
  out->accel[1] = mean.accel.y;
  out->accel[2] = mean.accel.z;
  out->gyro[0] = mean.gyro.x;
  out->gyro[1] = mean.gyro.y;
  out->gyro[2] = mean.gyro.z;
  return SENSIM_OK;
}

static const sensim_sensor_kind imu_kind = {
    .name = "imu",
    .raw_type = SENSIM_PAYLOAD_IMU,
    .needs_geometry = 0,
    .default_window = imu_default_window,
    .generate = imu_generate,
    .destroy = NULL, /* no configuration beyond the schedule */
};

sensim_status sensim_imu_create(sensim_world *world, const sensim_sensor_params *sp,
                                sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "imu: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "imu: sensor params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "imu: out is NULL");
  /* A window longer than the period would make consecutive samples share
   * input, which a decimating IMU's filter does not do, and "imu_noise"
   * draws independent white noise per sample on the window's length. */
  if (isfinite(sp->rate) && sp->rate > 0.0 && sp->window > 1.0 / sp->rate)
    return sensim__fail(SENSIM_EINVAL, "imu: window %g s longer than the period 1/rate = %g s",
                        sp->window, 1.0 / sp->rate);
  return sensim__sensor_create(world, sp, &imu_kind, NULL, out);
}
