/* tests/inertial/motion_tests.c: the ideal IMU against rigid-body closed
 * forms through the world / schedule / poll path: lever-arm acceleration
 * on a body spinning up about a tilted axis while accelerating, gravity's
 * projection on a static tilted IMU with a rotated mount, and the window
 * rule. Expected values are computed here with rotation matrices, not with
 * the library's quaternion code. */
#include <math.h>
#include <string.h>
#include "inertial/inertial_groups.h"

/* The worlds here are at the default origin (0 deg, 0 m), whose default
 * gravity is the WGS84 normal gravity on the equator (NIMA TR8350.2). */
#define G 9.7803253359

/* Rotation matrix of a unit quaternion (Shoemake 1985; Hamilton, active). */
static void quat_to_mat(sensim_quat q, double R[9]) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}
static void mat_mul(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
static void mat_t_vec(const double R[9], const double v[3], double o[3]) {
  for (int i = 0; i < 3; i++) o[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
}
static void mat_vec(const double R[9], const double v[3], double o[3]) {
  for (int i = 0; i < 3; i++) o[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}
static void cross(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

static sensim_sensor *make_imu(sensim_world *w, sensim_body *b, sensim_pose mount, double rate,
                               double window) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = b;
  sp.mount = mount;
  sp.rate = rate;
  sp.window = window;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &s));
  return s;
}

static void test_imu_offset_mount_on_spinning_up_body_reads_alpha_cross_r_plus_centripetal(void **st) {
  (void)st;
  /* Body spinning up about the fixed unit axis n (omega = (W0 + A t) n,
   * alpha = A n, angle W0 t + A t^2 / 2) while its origin accelerates at
   * a0 (p = a0 t^2 / 2). Mount at r_b with its own rotation. At the mount
   * point a_p = a0 + alpha x r + omega x (omega x r), r = R_body r_b
   * (Titterton & Weston 2004, eq. 3.x; Craig eq. 6.12); the accelerometer
   * reads R_s^T (a_p - g_vec), g_vec = (0, 0, -g), and the gyroscope
   * R_s^T omega, with R_s = R_body R_mount. Instantaneous samples
   * (window 0) at 50 Hz from a 1 kHz host with exact derivatives. */
  const double n[3] = {0.36, -0.48, 0.8}, W0 = 0.7, A = 2.5, a0[3] = {0.4, -1.1, 0.25};
  const double rb[3] = {0.6, -0.25, 0.4};
  sensim_world *w = test_world(0, 3);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_pose mount = {{rb[0], rb[1], rb[2]}, sensim_quat_from_ypr(0.3, -0.7, 1.2)};
  sensim_sensor *imu = make_imu(w, b, mount, 50.0, 0.0);
  double Rm[9];
  quat_to_mat(mount.rot, Rm);
  int checked = 0;
  for (int j = 0; j <= 1000; j++) {
    double t = j / 1000.0;
    double om = W0 + A * t;
    sensim_body_state s = {0};
    s.pose.pos = (sensim_vec3){0.5 * a0[0] * t * t, 0.5 * a0[1] * t * t, 0.5 * a0[2] * t * t};
    s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){n[0], n[1], n[2]}, W0 * t + 0.5 * A * t * t);
    s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    s.lin_vel = (sensim_vec3){a0[0] * t, a0[1] * t, a0[2] * t};
    s.lin_acc = (sensim_vec3){a0[0], a0[1], a0[2]};
    s.ang_vel = (sensim_vec3){om * n[0], om * n[1], om * n[2]};
    s.ang_acc = (sensim_vec3){A * n[0], A * n[1], A * n[2]};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      double tc = f->t_capture, omc = W0 + A * tc;
      double Rb[9], Rs[9], r[3], wv[3] = {omc * n[0], omc * n[1], omc * n[2]};
      double al[3] = {A * n[0], A * n[1], A * n[2]}, t1[3], t2[3], t3[3], fw[3], fs[3], gs[3];
      quat_to_mat(sensim_quat_from_axis_angle((sensim_vec3){n[0], n[1], n[2]},
                                              W0 * tc + 0.5 * A * tc * tc), Rb);
      mat_mul(Rb, Rm, Rs);
      mat_vec(Rb, rb, r);
      cross(al, r, t1);
      cross(wv, r, t2);
      cross(wv, t2, t3);
      for (int i = 0; i < 3; i++) fw[i] = a0[i] + t1[i] + t3[i] + (i == 2 ? G : 0.0);
      mat_t_vec(Rs, fw, fs);
      mat_t_vec(Rs, wv, gs);
      const sensim_imu_sample *m = f->data;
      for (int i = 0; i < 3; i++) {
        assert_near(m->accel[i], fs[i], 1e-9);
        assert_near(m->gyro[i], gs[i], 1e-12);
      }
      /* The lever-arm terms are not negligible here: without them the
       * reading would differ by more than 0.5 m/s^2. */
      double lever = sqrt((t1[0] + t3[0]) * (t1[0] + t3[0]) + (t1[1] + t3[1]) * (t1[1] + t3[1]) +
                          (t1[2] + t3[2]) * (t1[2] + t3[2]));
      assert_true(lever > 0.5);
      checked++;
    }
  }
  assert_int_equal(checked, 51);
  sensim_world_destroy(w);
}

static void test_imu_static_tilted_body_and_mount_reads_gravity_projection(void **st) {
  (void)st;
  /* At rest f = -g_vec = (0, 0, g) in the world, read as R_s^T (0, 0, g):
   * for R_s from yaw psi, pitch theta, roll phi that is
   * g (-sin theta, cos theta sin phi, cos theta cos phi) (Pedley, Freescale
   * AN3461, Z up). Here R_s = R_body R_mount with both tilted, checked
   * against the matrix product and, for the mount alone on a level body,
   * against the closed form. */
  sensim_world *w = test_world(0, 5);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.pose.rot = sensim_quat_from_ypr(-0.4, 0.25, 0.5);
  sensim_body *tilted = NULL, *level = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &tilted));
  bp.pose.rot = (sensim_quat){1, 0, 0, 0};
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &level));
  const double yaw = 2.0, pitch = -0.6, roll = 0.9;
  sensim_pose mount = {{0.2, 0.1, 0.0}, sensim_quat_from_ypr(yaw, pitch, roll)};
  sensim_sensor *a = make_imu(w, tilted, mount, 100.0, -1.0);
  sensim_sensor *b = make_imu(w, level, mount, 100.0, -1.0);
  double Rb[9], Rm[9], Rs[9], up[3] = {0, 0, G}, expect_a[3];
  quat_to_mat(sensim_quat_from_ypr(-0.4, 0.25, 0.5), Rb);
  quat_to_mat(mount.rot, Rm);
  mat_mul(Rb, Rm, Rs);
  mat_t_vec(Rs, up, expect_a);
  const double expect_b[3] = {-G * sin(pitch), G * cos(pitch) * sin(roll), G * cos(pitch) * cos(roll)};
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.05));
  int n = 0;
  const sensim_frame *f = NULL;
  while (sensim_sensor_poll(a, &f) == SENSIM_OK && f) {
    const sensim_imu_sample *m = f->data;
    for (int i = 0; i < 3; i++) {
      assert_near(m->accel[i], expect_a[i], 1e-12);
      assert_near(m->gyro[i], 0.0, 1e-15);
    }
    n++;
  }
  while (sensim_sensor_poll(b, &f) == SENSIM_OK && f) {
    const sensim_imu_sample *m = f->data;
    for (int i = 0; i < 3; i++) assert_near(m->accel[i], expect_b[i], 1e-12);
    n++;
  }
  assert_int_equal(n, 12);
  sensim_world_destroy(w);
}

static void test_imu_window_longer_than_period_is_rejected_and_world_stays_usable(void **st) {
  (void)st;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 100.0;
  sp.window = 0.0101;
  sensim_sensor *s = NULL;
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "period"));
  assert_null(s);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  sp.window = 0.01; /* exactly one period is the default and allowed */
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &s));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  sensim_world_destroy(w);
}

int sensim_test_inertial_motion(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_imu_offset_mount_on_spinning_up_body_reads_alpha_cross_r_plus_centripetal),
      cmocka_unit_test(test_imu_static_tilted_body_and_mount_reads_gravity_projection),
      cmocka_unit_test(test_imu_window_longer_than_period_is_rejected_and_world_stays_usable),
  };
  return cmocka_run_group_tests_name("inertial_motion", tests, NULL, NULL);
}
