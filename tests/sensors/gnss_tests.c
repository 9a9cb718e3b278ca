/* tests/sensors/gnss_tests.c: the ideal GNSS receiver through the real
 * world / schedule / poll path. */
#include <math.h>
#include "support/testutil.h"

/* An origin away from (0, 0, 0) so a mix-up of origin terms shows. */
#define LAT0 48.137
#define LON0 11.575
#define H0 519.0

static sensim_world *gnss_world(void) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.origin_lat = LAT0;
  p.origin_lon = LON0;
  p.origin_height = H0;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

static sensim_body *dynamic_body(sensim_world *w) {
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return b;
}

/* Expected fix for antenna position p and velocity v (world = ENU). The
 * geodetic conversion itself is checked against an independent reference
 * in tests/core/geodesy_tests.c. */
static void check_fix(const sensim_gnss_fix *fix, sensim_vec3 p, sensim_vec3 v, double tol_p,
                      double tol_v) {
  double o[3] = {LAT0, LON0, H0}, lat, lon, h;
  sensim_enu_to_geodetic(o, (double[3]){p.x, p.y, p.z}, &lat, &lon, &h);
  assert_int_equal(fix->fix_type, 1);
  assert_near(fix->enu[0], p.x, tol_p);
  assert_near(fix->enu[1], p.y, tol_p);
  assert_near(fix->enu[2], p.z, tol_p);
  /* 1e-9 m of ENU error is ~1e-14 deg; 1e-11 deg covers rounding. */
  assert_near(fix->lat, lat, 1e-11 + tol_p * 1e-5);
  assert_near(fix->lon, lon, 1e-11 + tol_p * 1e-5);
  assert_near(fix->height, h, 1e-6 + tol_p);
  assert_near(fix->vel_enu[0], v.x, tol_v);
  assert_near(fix->vel_enu[1], v.y, tol_v);
  assert_near(fix->vel_enu[2], v.z, tol_v);
  for (int i = 0; i < 9; i++) assert_true(fix->cov_enu[i] == 0.0);
  assert_true(fix->origin[0] == LAT0 && fix->origin[1] == LON0 && fix->origin[2] == H0);
}

static void test_gnss_constant_velocity_body_gives_true_position_and_velocity(void **state) {
  (void)state;
  sensim_world *w = gnss_world();
  sensim_body *car = dynamic_body(w);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sp.rate = 10.0;
  sensim_sensor *gnss = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss));
  assert_int_equal(sensim_sensor_output_type(gnss), SENSIM_PAYLOAD_GNSS);
  assert_true(sensim_sensor_params_get(gnss)->window == 0.0);

  /* Poses only, 100 Hz: sensim estimates the velocity by finite differences,
   * exact for a straight line at constant speed up to rounding. */
  const sensim_vec3 x0 = {100.0, -250.0, 3.0}, v = {3.0, 4.0, 0.5};
  int frames = 0;
  for (int j = 0; j <= 300; j++) {
    double t = j / 100.0;
    sensim_body_state s = {0};
    s.pose.pos = (sensim_vec3){x0.x + v.x * t, x0.y + v.y * t, x0.z + v.z * t};
    s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, 0.3);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(gnss, &f) == SENSIM_OK && f) {
      assert_int_equal(f->type, SENSIM_PAYLOAD_GNSS);
      assert_int_equal(f->count, 1);
      double tc = f->t_capture;
      assert_near(tc, f->index / 10.0, 1e-12);
      sensim_vec3 p = {x0.x + v.x * tc, x0.y + v.y * tc, x0.z + v.z * tc};
      /* Frame 0 sees a one-keyframe track: no velocity estimate yet. */
      if (f->index > 0) check_fix(f->data, p, v, 1e-9, 1e-9);
      frames++;
    }
  }
  assert_int_equal(frames, 31);
  sensim_world_destroy(w);
}

static void test_gnss_lever_arm_on_rotating_body(void **state) {
  (void)state;
  /* Body at the origin yawing at omega; antenna 2 m ahead and 1.5 m up on a
   * mount that is itself rotated (the rotation must not matter). Antenna:
   * p = (2 cos wt, 2 sin wt, 1.5), v = omega x r = (-2 w sin wt, 2 w cos wt, 0). */
  sensim_world *w = gnss_world();
  sensim_body *b = dynamic_body(w);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = b;
  sp.rate = 5.0;
  sp.mount.pos = (sensim_vec3){2.0, 0.0, 1.5};
  sp.mount.rot = sensim_quat_from_ypr(0.7, 0.2, -0.1);
  sensim_sensor *gnss = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss));
  const double om = 0.8;
  int frames = 0;
  for (int j = 0; j <= 200; j++) {
    double t = j / 100.0;
    sensim_body_state s = {0};
    s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, om * t);
    s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    s.ang_vel = (sensim_vec3){0, 0, om};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(gnss, &f) == SENSIM_OK && f) {
      double a = om * f->t_capture;
      sensim_vec3 p = {2.0 * cos(a), 2.0 * sin(a), 1.5};
      sensim_vec3 v = {-2.0 * om * sin(a), 2.0 * om * cos(a), 0.0};
      check_fix(f->data, p, v, 1e-9, 1e-9);
      frames++;
    }
  }
  assert_int_equal(frames, 11);
  sensim_world_destroy(w);
}

static void test_gnss_world_fixed_reports_mount_position(void **state) {
  (void)state;
  sensim_world *w = gnss_world();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){0.0, 1000.0, 100.0}; /* 1 km north, 100 m up */
  sensim_sensor *gnss = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(gnss, &f));
  assert_non_null(f);
  check_fix(f->data, sp.mount.pos, (sensim_vec3){0, 0, 0}, 1e-12, 0.0);
  sensim_world_destroy(w);
}

static void test_gnss_bad_input_is_rejected_and_world_stays_usable(void **state) {
  (void)state;
  sensim_world *w = gnss_world();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *gnss = NULL;
  assert_int_equal(sensim_gnss_create(NULL, &sp, test_gnss_defaults(), &gnss), SENSIM_EINVAL);
  assert_int_equal(sensim_gnss_create(w, NULL, test_gnss_defaults(), &gnss), SENSIM_EINVAL);
  assert_int_equal(sensim_gnss_create(w, &sp, test_gnss_defaults(), NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_gnss_create(w, &sp, NULL, &gnss), SENSIM_EINVAL);
  sp.rate = NAN;
  assert_int_equal(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss), SENSIM_EINVAL);
  sp.rate = 0.0;
  assert_int_equal(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss), SENSIM_EINVAL);
  sp.rate = 10.0;
  sp.mount.pos.x = NAN;
  assert_int_equal(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss), SENSIM_EINVAL);
  sp.mount.pos.x = 0.0;
  sp.mount.rot.w = 2.0; /* not unit */
  assert_int_equal(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss), SENSIM_EINVAL);
  sp.mount.rot.w = 1.0;
  assert_null(gnss);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  /* A GNSS takes no image filter: the chain is checked at set-up. */
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss));
  assert_int_equal(sensim_sensor_add_filter(gnss, "srgb8", NULL), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(gnss, &f));
  assert_non_null(f);
  check_fix(f->data, (sensim_vec3){0, 0, 0}, (sensim_vec3){0, 0, 0}, 1e-12, 0.0);
  sensim_world_destroy(w);
}

int sensim_test_gnss(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gnss_constant_velocity_body_gives_true_position_and_velocity),
      cmocka_unit_test(test_gnss_lever_arm_on_rotating_body),
      cmocka_unit_test(test_gnss_world_fixed_reports_mount_position),
      cmocka_unit_test(test_gnss_bad_input_is_rejected_and_world_stays_usable),
  };
  return cmocka_run_group_tests_name("gnss", tests, NULL, NULL);
}
