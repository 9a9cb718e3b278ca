/* tests/inertial/gravity_tests.c: the world's default gravity, the WGS84
 * normal gravity at its origin (scene/gravity.c): published values, an
 * independent form of Somigliana's formula, the free-air gradient, how the
 * world and a scenario choose it, and an IMU at rest reading it (with the
 * Earth's rate, south of the equator, in a rotated mount). */
#include <math.h>
#include <string.h>
#include "inertial/inertial_groups.h"

/* Somigliana's formula in its original form, from the axes and the two
 * published normal gravities alone (Hofmann-Wellenhof & Moritz, "Physical
 * Geodesy", 2nd ed., 2006, eq. 2-146), independent of the constants k and
 * e^2 that sensim_normal_gravity uses:
 *   gamma = (a gamma_e cos^2 phi + b gamma_p sin^2 phi) / sqrt(a^2 cos^2 phi + b^2 sin^2 phi). */
static double somigliana_axes(double lat_deg) {
  const double a = 6378137.0, b = a * (1.0 - 1.0 / 298.257223563);
  const double ge = 9.7803253359, gp = 9.8321849378; /* TR8350.2 table 3.4 */
  double p = lat_deg * M_PI / 180.0, c = cos(p), s = sin(p);
  return (a * ge * c * c + b * gp * s * s) / sqrt(a * a * c * c + b * b * s * s);
}

/* TR8350.2 (3rd ed.) table 3.4: 9.7803253359 m/s^2 at the equator,
 * 9.8321849378 at the poles; other latitudes against the axes form above.
 * The tables' k and e^2 are rounded to 12 digits, so the two forms agree to
 * 6e-11 m/s^2: tolerance 1e-10. */
static void test_normal_gravity_matches_published_values_and_axes_form(void **st) {
  (void)st;
  assert_near(sensim_normal_gravity(0.0, 0.0), 9.7803253359, 1e-12);
  assert_near(sensim_normal_gravity(90.0, 0.0), 9.8321849378, 1e-10);
  assert_near(sensim_normal_gravity(-90.0, 0.0), 9.8321849378, 1e-10);
  for (double lat = -89.0; lat <= 89.0; lat += 7.25) {
    assert_near(sensim_normal_gravity(lat, 0.0), somigliana_axes(lat), 1e-10);
    assert_true(sensim_normal_gravity(lat, 0.0) == sensim_normal_gravity(-lat, 0.0));
  }
  /* 45 deg: 9.8061977694 by the axes form. */
  assert_near(sensim_normal_gravity(45.0, 0.0), 9.8061977694, 1e-9);
  assert_true(isnan(sensim_normal_gravity(90.5, 0.0)));
  assert_true(isnan(sensim_normal_gravity(NAN, 0.0)));
  assert_true(isnan(sensim_normal_gravity(10.0, INFINITY)));
}

/* Height: the normal free-air gradient is -0.3086 mGal/m (1 mGal =
 * 1e-5 m/s^2; Heiskanen & Moritz, "Physical Geodesy", 1967, eq. 2-124:
 * -2 gamma / a (1 + f + m - 2 f sin^2 phi), 0.30855 at 45 deg) and the
 * second derivative 6 gamma / a^2 (eq. 2-123), here by central
 * differences over +-1 km (exact for eq. 4-3, a quadratic in h, up to
 * rounding: 1e-15 m/s^2 over 2 km). */
static void test_normal_gravity_height_correction_has_free_air_gradient(void **st) {
  (void)st;
  const double a = 6378137.0, h = 1000.0;
  double g0 = sensim_normal_gravity(45.0, 0.0);
  double gp = sensim_normal_gravity(45.0, h), gm = sensim_normal_gravity(45.0, -h);
  double grad = (gp - gm) / (2.0 * h), curv = (gp - 2.0 * g0 + gm) / (h * h);
  assert_near(grad / 1e-5, -0.3086, 1e-4);
  assert_near(curv, 6.0 * g0 / (a * a), 1e-3 * 6.0 * g0 / (a * a));
  /* 10 km up at the equator: 3.08 cm/s^2 less. */
  assert_near(sensim_normal_gravity(0.0, 1e4) - sensim_normal_gravity(0.0, 0.0), -3.08e-2, 2e-4);
}

/* The world's default is normal gravity at its origin, resolved when it is
 * created (params_get gives the value in use); an explicit value
 * overrides; only exactly SENSIM_GRAVITY_NORMAL is the sentinel. */
static void test_world_gravity_defaults_to_normal_gravity_at_origin(void **st) {
  (void)st;
  sensim_world_params p;
  sensim_world_params_init(&p);
  assert_true(p.gravity == SENSIM_GRAVITY_NORMAL);
  p.threads = 0;
  p.origin_lat = 47.5;
  p.origin_lon = 8.0;
  p.origin_height = 420.0;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  assert_true(sensim_world_params_get(w)->gravity == sensim_normal_gravity(47.5, 420.0));
  sensim_world_destroy(w);
  p.gravity = 9.81;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  assert_true(sensim_world_params_get(w)->gravity == 9.81);
  sensim_world_destroy(w);
  const double bad[] = {-2.0, -0.5, NAN, 100.0};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    p.gravity = bad[i];
    w = NULL;
    assert_int_equal(sensim_world_create(&p, &w), SENSIM_EINVAL);
    assert_null(w);
    assert_non_null(strstr(sensim_last_error(), "world.gravity"));
  }
}

/* Scenario key world.gravity: absent or "normal" is normal gravity at the
 * origin, a number is that value, anything else is refused by name. */
static void test_scenario_gravity_takes_a_number_or_normal(void **st) {
  (void)st;
  const char *fmt = "{\"duration\": 1, \"world\": {\"threads\": 0, \"origin\": [-33.9, 151.2, 50]%s}}";
  const char *keys[] = {"", ", \"gravity\": \"normal\"", ", \"gravity\": 9.7"};
  const double want[] = {sensim_normal_gravity(-33.9, 50.0), sensim_normal_gravity(-33.9, 50.0), 9.7};
  char json[256];
  for (int i = 0; i < 3; i++) {
    snprintf(json, sizeof json, fmt, keys[i]);
    sensim_scenario *scn = NULL;
    SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
    assert_true(sensim_world_params_get(sensim_scenario_world(scn))->gravity == want[i]);
    sensim_scenario_destroy(scn);
  }
  /* A value of the wrong JSON type is a malformed file (SENSIM_EPARSE), as
   * for every key; -1 is refused although it is the C sentinel. */
  const char *bad[] = {", \"gravity\": \"standard\"", ", \"gravity\": -1", ", \"gravity\": true",
                       ", \"gravity\": 150"};
  const sensim_status code[] = {SENSIM_EINVAL, SENSIM_EINVAL, SENSIM_EPARSE, SENSIM_EINVAL};
  for (int i = 0; i < 4; i++) {
    snprintf(json, sizeof json, fmt, bad[i]);
    sensim_scenario *scn = NULL;
    assert_int_equal(sensim_scenario_load_string(json, NULL, &scn), code[i]);
    assert_null(scn);
    assert_non_null(strstr(sensim_last_error(), "gravity"));
  }
}

/* A world (no workers) whose origin is at lat deg, h m, a body in it, and
 * sensor params on that body at 10 Hz. */
static sensim_world *world_at(double lat, double h, sensim_body **b, sensim_sensor_params *sp) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.origin_lat = lat;
  p.origin_height = h;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, b));
  sensim_sensor_params_init(sp);
  sp->body = *b;
  sp->rate = 10.0;
  return w;
}

/* Body b held level at rest at the origin for 1 s (states every 0.1 s,
 * with zero velocity and acceleration given), the world advanced with it;
 * the IMU's samples into out (at most max); returns how many. */
static int samples_at_rest(sensim_world *w, sensim_body *b, sensim_sensor *imu, sensim_imu_sample *out, int max) {
  int n = 0;
  for (int j = 0; j <= 10; j++) {
    sensim_body_state s = {0};
    s.pose.rot = sensim_quat_from_ypr(0.0, 0.0, 0.0);
    s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.1 * j, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1 * j));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      assert_true(n < max);
      out[n++] = *(const sensim_imu_sample *)f->data;
    }
  }
  return n;
}

/* A level IMU at rest in a default world at 60 deg N, 1000 m up reads the
 * normal gravity there, 9.8161 m/s^2, not 9.80665. */
static void test_imu_at_rest_reads_normal_gravity_of_the_origin(void **st) {
  (void)st;
  sensim_body *b = NULL;
  sensim_sensor_params sp;
  sensim_world *w = world_at(60.0, 1000.0, &b, &sp);
  sensim_sensor *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  sensim_imu_sample m[16];
  int n = samples_at_rest(w, b, imu, m, 16);
  assert_true(n >= 10);
  for (int k = 0; k < n; k++) {
    assert_near(m[k].accel[0], 0.0, 1e-15);
    assert_near(m[k].accel[1], 0.0, 1e-15);
    assert_near(m[k].accel[2], sensim_normal_gravity(60.0, 1000.0), 1e-12);
    assert_near(m[k].accel[2], 9.8161, 1e-4);
  }
  sensim_world_destroy(w);
}

/* The Earth's rate through the scenario key, south of the equator and with
 * a rotated mount (the existing sensors test covers 45 deg N, a level
 * mount and the Coriolis term): at rest at 33.9 deg S a gyro senses
 * Omega (0, cos phi, sin phi) with a negative up component, resolved in the
 * sensor frame, and the accelerometer normal gravity resolved the same
 * way; expected values by rotation matrix, not by the library's quaternions.
 * R = Rz(yaw) Ry(pitch) Rx(roll) (sensim_quat_from_ypr's convention, ZYX). */
static void test_imu_earth_rate_south_of_equator_in_rotated_mount_from_json(void **st) {
  (void)st;
  const double lat = -33.9, om = 7.292115e-5, yaw = 0.4, pitch = -0.3, roll = 1.1;
  sensim_body *b = NULL;
  sensim_sensor_params sp;
  sensim_world *w = world_at(lat, 0.0, &b, &sp);
  sp.mount.rot = sensim_quat_from_ypr(yaw, pitch, roll);
  sensim_sensor *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_create_json(w, "imu", &sp, "{\"earth_rotation\": true}", &imu));
  double cy = cos(yaw), sy = sin(yaw), cp = cos(pitch), sp_ = sin(pitch), cr = cos(roll),
         sr = sin(roll);
  const double R[9] = {cy * cp, cy * sp_ * sr - sy * cr, cy * sp_ * cr + sy * sr,
                       sy * cp, sy * sp_ * sr + cy * cr, sy * sp_ * cr - cy * sr,
                       -sp_,    cp * sr,                 cp * cr};
  double phi = lat * M_PI / 180.0, g = sensim_normal_gravity(lat, 0.0);
  const double earth[3] = {0.0, om * cos(phi), om * sin(phi)}, up[3] = {0.0, 0.0, g};
  double gyr[3], acc[3];
  for (int i = 0; i < 3; i++) {
    gyr[i] = R[i] * earth[0] + R[3 + i] * earth[1] + R[6 + i] * earth[2];
    acc[i] = R[i] * up[0] + R[3 + i] * up[1] + R[6 + i] * up[2];
  }
  sensim_imu_sample m[16];
  int n = samples_at_rest(w, b, imu, m, 16);
  assert_true(n >= 10);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < 3; i++) {
      assert_near(m[k].gyro[i], gyr[i], 1e-18);
      assert_near(m[k].accel[i], acc[i], 1e-14);
    }
  /* The world's up component of the Earth's rate is negative in the south. */
  assert_true(earth[2] < -4e-5);
  sensim_world_destroy(w);
}

int sensim_test_inertial_gravity(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_normal_gravity_matches_published_values_and_axes_form),
      cmocka_unit_test(test_normal_gravity_height_correction_has_free_air_gradient),
      cmocka_unit_test(test_world_gravity_defaults_to_normal_gravity_at_origin),
      cmocka_unit_test(test_scenario_gravity_takes_a_number_or_normal),
      cmocka_unit_test(test_imu_at_rest_reads_normal_gravity_of_the_origin),
      cmocka_unit_test(test_imu_earth_rate_south_of_equator_in_rotated_mount_from_json),
  };
  return cmocka_run_group_tests_name("inertial_gravity", tests, NULL, NULL);
}
