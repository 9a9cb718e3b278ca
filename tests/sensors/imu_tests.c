/* tests/sensors/imu_tests.c: the ideal strapdown IMU against closed forms,
 * through the real world / schedule / poll path. */
#include <math.h>
#include "support/testutil.h"

/* Worlds at the default origin (0 deg, 0 m): the default gravity is the
 * WGS84 normal gravity on the equator (NIMA TR8350.2, table 3.4). */
#define G 9.7803253359

static sensim_world *imu_world(void) { return test_world(0, 7); }

static sensim_body *make_body(sensim_world *w, int is_static, sensim_pose pose) {
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = is_static;
  bp.pose = pose;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return b;
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

static void check_sample(const sensim_frame *f, const double acc[3], const double gyr[3],
                         double tol_a, double tol_g) {
  assert_int_equal(f->type, SENSIM_PAYLOAD_IMU);
  const sensim_imu_sample *s = f->data;
  for (int i = 0; i < 3; i++) {
    assert_near(s->accel[i], acc[i], tol_a);
    assert_near(s->gyro[i], gyr[i], tol_g);
  }
}

/* Uniform circular motion of radius R at angular speed W, counter-clockwise
 * about +Z, the body's X axis along the velocity (so its Y axis points at
 * the centre): p = R (cos Wt, sin Wt, 0), yaw = Wt + pi/2. Closed form of
 * the reading (Craig eq. 6.12 with r = 0): accel = (0, W^2 R, g) in the
 * body frame (centripetal v^2/R towards the centre plus the reaction to
 * gravity), gyro = (0, 0, W). Both are constant in the body frame, so the
 * window average is the same constant. */
#define CR 5.0
#define CW 2.0

static sensim_body_state circle_state(double t, int with_derivatives) {
  sensim_body_state s = {0};
  double a = CW * t;
  s.pose.pos = (sensim_vec3){CR * cos(a), CR * sin(a), 0.0};
  s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a + 0.5 * 3.14159265358979323846);
  if (with_derivatives) {
    s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    s.lin_vel = (sensim_vec3){-CR * CW * sin(a), CR * CW * cos(a), 0.0};
    s.ang_vel = (sensim_vec3){0, 0, CW};
    s.lin_acc = (sensim_vec3){-CR * CW * CW * cos(a), -CR * CW * CW * sin(a), 0.0};
  }
  return s;
}

static void run_circle(int with_derivatives, double tol_a, double tol_g) {
  sensim_world *w = imu_world();
  sensim_body *b = make_body(w, 0, sensim_pose_identity());
  sensim_sensor *imu = make_imu(w, b, sensim_pose_identity(), 100.0, -1.0);
  assert_near(sensim_sensor_params_get(imu)->window, 0.01, 1e-15); /* default 1 / rate */
  const double acc[3] = {0.0, CW * CW * CR, G}, gyr[3] = {0.0, 0.0, CW};
  int checked = 0;
  for (int j = 0; j <= 1000; j++) { /* 1 kHz for 1 s */
    double t = j / 1000.0;
    sensim_body_state s = circle_state(t, with_derivatives);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      /* Skip windows reaching before t = 3 ms: the track's first keyframes
       * have no (or one-sided) derivative estimates yet. */
      if (f->t_capture - f->window < 0.003) continue;
      check_sample(f, acc, gyr, tol_a, tol_g);
      checked++;
    }
  }
  assert_int_equal(checked, 99);
  sensim_world_destroy(w);
}

static void test_imu_circular_motion_host_derivatives_reads_centripetal_and_yaw_rate(void **s) {
  (void)s;
  /* Exact inputs: only rounding and the slerp/lerp at a window end that
   * falls a rounding error off a keyframe. */
  run_circle(1, 1e-9, 1e-12);
}

static void test_imu_circular_motion_poses_only_reads_centripetal_and_yaw_rate(void **s) {
  (void)s;
  /* Derivatives estimated by sensim from 1 kHz poses (h = 1 ms; scene/track.c,
   * quadratic through three keyframes). Inside the track the second
   * difference of p = R cos(Wt) has relative error (Wh)^2 / 12 = 3e-7, i.e.
   * 7e-6 m/s^2 of the 20 m/s^2. The newest keyframe (at t_capture, pushed
   * just before advance) only has the one-sided estimate: its acceleration
   * is that of the middle keyframe, a_c rotated by W h, an error of
   * a_c W h = 0.04 m/s^2 that enters the 10-sample trapezoid with weight
   * (h / 2) / window = 1/20: 2e-3 m/s^2. The yaw rate of a constant-rate
   * rotation is differenced exactly. Bounds: 2.5x those. */
  run_circle(0, 5e-3, 1e-9);
}

/* Tilt formula for a Z-Y-X (yaw, pitch theta, roll phi) attitude at rest:
 * f_body = R^T (0, 0, g) = g (-sin theta, cos theta sin phi, cos theta cos phi)
 * (the standard tilt-sensing relation, cf. M. Pedley, Freescale AN3461
 * "Tilt sensing using a three-axis accelerometer", written here for Z up). */
static void tilt_expect(double pitch, double roll, double acc[3]) {
  acc[0] = -G * sin(pitch);
  acc[1] = G * cos(pitch) * sin(roll);
  acc[2] = G * cos(pitch) * cos(roll);
}

static void test_imu_at_rest_tilted_reads_gravity_projection(void **s) {
  (void)s;
  const double yaw = 1.1, pitch = 0.35, roll = -0.6, zero[3] = {0, 0, 0};
  double acc[3];
  tilt_expect(pitch, roll, acc);
  sensim_world *w = imu_world();
  /* A static body tilted by (yaw, pitch, roll), and a world-fixed IMU whose
   * mount carries the same tilt: both must read the same. */
  sensim_pose tilted = sensim_pose_identity();
  tilted.pos = (sensim_vec3){3, -2, 1};
  tilted.rot = sensim_quat_from_ypr(yaw, pitch, roll);
  sensim_body *b = make_body(w, 1, tilted);
  sensim_sensor *on_body = make_imu(w, b, sensim_pose_identity(), 50.0, -1.0);
  sensim_sensor *on_world = make_imu(w, NULL, tilted, 50.0, -1.0);
  /* A dynamic body held still with poses only (estimated derivatives zero). */
  sensim_body *d = make_body(w, 0, sensim_pose_identity());
  sensim_sensor *on_dyn = make_imu(w, d, sensim_pose_identity(), 50.0, -1.0);
  int n = 0;
  for (int j = 0; j <= 100; j++) {
    double t = j / 500.0;
    sensim_body_state st = {0};
    st.pose = tilted;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(d, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    sensim_sensor *all[3] = {on_body, on_world, on_dyn};
    for (int i = 0; i < 3; i++) {
      const sensim_frame *f = NULL;
      while (sensim_sensor_poll(all[i], &f) == SENSIM_OK && f) {
        check_sample(f, acc, zero, 1e-9, 1e-9);
        n++;
      }
    }
  }
  assert_int_equal(n, 3 * 11);
  sensim_world_destroy(w);
}

static void test_imu_off_centre_on_spinning_body_reads_centripetal(void **s) {
  (void)s;
  /* Body spinning in place at W about Z, IMU 0.5 m out on the body's X
   * axis: the mount point moves on a circle, a_p = omega x (omega x r) =
   * -W^2 r, so the IMU reads -W^2 r along its X (towards the centre). The
   * host gives only the body's angular velocity: the lever-arm term must
   * come from sensim. */
  const double W = 3.0, r = 0.5;
  sensim_world *w = imu_world();
  sensim_body *b = make_body(w, 0, sensim_pose_identity());
  sensim_pose mount = sensim_pose_identity();
  mount.pos = (sensim_vec3){r, 0, 0};
  sensim_sensor *imu = make_imu(w, b, mount, 100.0, -1.0);
  const double acc[3] = {-W * W * r, 0.0, G}, gyr[3] = {0, 0, W};
  int n = 0;
  for (int j = 0; j <= 200; j++) {
    double t = j / 1000.0;
    sensim_body_state st = {0};
    st.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, W * t);
    st.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    st.ang_vel = (sensim_vec3){0, 0, W};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      check_sample(f, acc, gyr, 1e-9, 1e-12);
      n++;
    }
  }
  assert_int_equal(n, 21);
  sensim_world_destroy(w);
}

static void test_imu_spin_up_reads_tangential_alpha_r(void **s) {
  (void)s;
  /* Constant angular acceleration A from rest: omega = A t, yaw = A t^2 / 2.
   * An instantaneous IMU (window 0) at r on the body's X axis reads
   * (-(A t)^2 r, A r, g): the alpha x r term is the tangential A r on Y. */
  const double A = 4.0, r = 0.25;
  sensim_world *w = imu_world();
  sensim_body *b = make_body(w, 0, sensim_pose_identity());
  sensim_pose mount = sensim_pose_identity();
  mount.pos = (sensim_vec3){r, 0, 0};
  sensim_sensor *imu = make_imu(w, b, mount, 20.0, 0.0);
  int n = 0;
  for (int j = 0; j <= 100; j++) {
    double t = j / 100.0;
    sensim_body_state st = {0};
    st.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, 0.5 * A * t * t);
    st.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    st.ang_vel = (sensim_vec3){0, 0, A * t};
    st.ang_acc = (sensim_vec3){0, 0, A};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      double om = A * f->t_capture;
      const double acc[3] = {-om * om * r, A * r, G}, gyr[3] = {0, 0, om};
      check_sample(f, acc, gyr, 1e-9, 1e-12);
      n++;
    }
  }
  assert_int_equal(n, 21);
  sensim_world_destroy(w);
}

/* A body driving east at 10 m/s, level, at latitude 45 deg in a world that
 * turns with the Earth (imu.h): Omega_enu = Omega (0, cos 45, sin 45), so
 * the gyro reads Omega_enu and the accelerometer adds 2 Omega_enu x v with
 * v = (10, 0, 0): (0, 20 Omega sin 45, -20 Omega cos 45). */
static void test_imu_earth_rotation_reads_earth_rate_and_coriolis(void **s) {
  (void)s;
  const double om = 7.292115e-5, lat = 45.0 * 3.14159265358979323846 / 180.0, v = 10.0;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.origin_lat = 45.0;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  sensim_body *b = make_body(w, 0, sensim_pose_identity());
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = b;
  sp.rate = 100.0;
  sensim_imu_params ip;
  sensim_imu_params_init(&ip);
  assert_int_equal(ip.earth_rotation, 0);
  ip.earth_rotation = 2;
  sensim_sensor *imu = NULL;
  assert_int_equal(sensim_imu_create(w, &sp, &ip, &imu), SENSIM_EINVAL);
  assert_int_equal(sensim_imu_create(w, &sp, NULL, &imu), SENSIM_EINVAL);
  assert_null(imu);
  ip.earth_rotation = 1;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, &ip, &imu));
  const double g45 = sensim_world_params_get(w)->gravity; /* normal gravity at 45 deg */
  assert_near(g45, sensim_normal_gravity(45.0, 0.0), 0.0);
  const double acc[3] = {0.0, 2.0 * v * om * sin(lat), g45 - 2.0 * v * om * cos(lat)};
  const double gyr[3] = {0.0, om * cos(lat), om * sin(lat)};
  int checked = 0;
  for (int j = 0; j <= 200; j++) {
    double t = j / 1000.0;
    sensim_body_state st = {0};
    st.pose = sensim_pose_identity();
    st.pose.pos.x = v * t;
    st.lin_vel.x = v;
    st.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      if (f->t_capture - f->window < 0.0) continue; /* the window reaches before the first push */
      check_sample(f, acc, gyr, 1e-12, 1e-15);
      checked++;
    }
  }
  assert_int_equal(checked, 20);
  sensim_world_destroy(w);
}

static void test_imu_bad_input_is_rejected_and_world_stays_usable(void **s) {
  (void)s;
  sensim_world *w = imu_world();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *imu = NULL;
  assert_int_equal(sensim_imu_create(NULL, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  assert_int_equal(sensim_imu_create(w, NULL, test_imu_defaults(), &imu), SENSIM_EINVAL);
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), NULL), SENSIM_EINVAL);
  sp.rate = -5.0;
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  sp.rate = 100.0;
  sp.window = INFINITY;
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  sp.window = -1.0;
  sp.mount.rot = (sensim_quat){NAN, 0, 0, 0};
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  sp.mount = sensim_pose_identity();
  assert_null(imu);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  assert_int_equal(sensim_sensor_add_filter(imu, "gnss_noise", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_sensor_output_type(imu), SENSIM_PAYLOAD_IMU);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(imu, &f));
  assert_non_null(f);
  check_sample(f, (double[3]){0, 0, G}, (double[3]){0, 0, 0}, 1e-12, 1e-12);
  sensim_world_destroy(w);
}

int sensim_test_imu(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_imu_circular_motion_host_derivatives_reads_centripetal_and_yaw_rate),
      cmocka_unit_test(test_imu_circular_motion_poses_only_reads_centripetal_and_yaw_rate),
      cmocka_unit_test(test_imu_at_rest_tilted_reads_gravity_projection),
      cmocka_unit_test(test_imu_off_centre_on_spinning_body_reads_centripetal),
      cmocka_unit_test(test_imu_spin_up_reads_tangential_alpha_r),
      cmocka_unit_test(test_imu_earth_rotation_reads_earth_rate_and_coriolis),
      cmocka_unit_test(test_imu_bad_input_is_rejected_and_world_stays_usable),
  };
  return cmocka_run_group_tests_name("imu", tests, NULL, NULL);
}
