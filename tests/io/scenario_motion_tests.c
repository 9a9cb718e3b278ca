/* tests/io/scenario_motion_tests.c: scripted motion (circle, stadium,
 * line, waypoints) against closed-form derivatives, and an IMU riding it
 * reading the centripetal acceleration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/scenario_internal.h"
#include "io/scenario_fixtures.h"

/* ---- motion ------------------------------------------------------------ */

static sensim_pose identity_pose(void) {
  sensim_pose p = {{0, 0, 0}, {1, 0, 0, 0}};
  return p;
}

static sensim__motion parse_motion(const char *json) {
  cJSON *j = cJSON_Parse(json);
  assert_non_null(j);
  sensim__motion m;
  SENSIM_OK_OR_FAIL(sensim__motion_parse(j, "motion", &m));
  cJSON_Delete(j);
  return m;
}

/* Velocity and acceleration against central differences of position and
 * velocity: the truncation error is |x'''| h^2 / 6, about 1e-8 here. */
static void check_derivatives(const sensim__motion *m, const sensim_pose *off, double t) {
  const double h = 1e-4;
  sensim_body_state a, b, c;
  sensim__motion_state(m, off, t - h, &a);
  sensim__motion_state(m, off, t, &b);
  sensim__motion_state(m, off, t + h, &c);
  assert_int_equal(b.flags, SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION);
  assert_near(b.lin_vel.x, (c.pose.pos.x - a.pose.pos.x) / (2 * h), 1e-6);
  assert_near(b.lin_vel.y, (c.pose.pos.y - a.pose.pos.y) / (2 * h), 1e-6);
  assert_near(b.lin_vel.z, (c.pose.pos.z - a.pose.pos.z) / (2 * h), 1e-6);
  assert_near(b.lin_acc.x, (c.lin_vel.x - a.lin_vel.x) / (2 * h), 1e-6);
  assert_near(b.lin_acc.y, (c.lin_vel.y - a.lin_vel.y) / (2 * h), 1e-6);
  /* Yaw rate from the rotation between the two neighbours. */
  double ya = 2 * atan2(a.pose.rot.z, a.pose.rot.w), yc = 2 * atan2(c.pose.rot.z, c.pose.rot.w);
  double dy = remainder(yc - ya, 2 * PI);
  assert_near(b.ang_vel.z, dy / (2 * h), 1e-6);
}

static void test_circle_motion_derivatives_are_exact(void **state) {
  (void)state;
  sensim__motion m = parse_motion("{\"type\": \"circle\", \"center\": [1, 2, 3], \"radius\": 2,"
                                  " \"speed\": 3, \"direction\": \"cw\", \"phase\": 0.5}");
  sensim_pose id = identity_pose();
  for (double t = 0; t < 5; t += 0.37) {
    check_derivatives(&m, &id, t);
    sensim_body_state s;
    sensim__motion_state(&m, &id, t, &s);
    assert_near(hypot(s.pose.pos.x - 1, s.pose.pos.y - 2), 2, 1e-12);
    assert_near(s.pose.pos.z, 3, 0);
    /* Centripetal a = v^2 / r; the body's X axis points along the velocity. */
    assert_near(hypot(s.lin_acc.x, s.lin_acc.y), 4.5, 1e-12);
    sensim_vec3 fwd = sensim_quat_rotate(s.pose.rot, (sensim_vec3){1, 0, 0});
    assert_near(fwd.x * 3, s.lin_vel.x, 1e-12);
    assert_near(fwd.y * 3, s.lin_vel.y, 1e-12);
    assert_near(s.ang_vel.z, -1.5, 1e-12); /* clockwise */
  }
  sensim_body_state s0;
  sensim__motion_state(&m, &id, 0, &s0);
  assert_near(s0.pose.pos.x, 1 + 2 * cos(0.5), 1e-12);
  assert_near(s0.pose.pos.y, 2 + 2 * sin(0.5), 1e-12);
  sensim__motion_free(&m);
}

static void test_stadium_motion_is_closed_and_exact(void **state) {
  (void)state;
  const double len = 8, r = 3, v = 2, per = 2 * len + 2 * PI * r;
  sensim__motion m = parse_motion("{\"type\": \"stadium\", \"center\": [0, 0, 0.2], "
                                  "\"length\": 8, \"radius\": 3, \"speed\": 2}");
  sensim_pose id = identity_pose();
  sensim_body_state s0, s1, prev;
  sensim__motion_state(&m, &id, 0, &s0);
  assert_near(s0.pose.pos.x, 0, 1e-12);
  assert_near(s0.pose.pos.y, -3, 1e-12);
  sensim__motion_state(&m, &id, per / v, &s1);
  assert_near(s1.pose.pos.x, s0.pose.pos.x, 1e-9);
  assert_near(s1.pose.pos.y, s0.pose.pos.y, 1e-9);
  /* Continuous path at constant speed, curvature 0 on straights and 1/r on
   * the turns. */
  prev = s0;
  const double dt = 1e-3;
  for (double t = dt; t < per / v; t += dt) {
    sensim_body_state s;
    sensim__motion_state(&m, &id, t, &s);
    assert_near(hypot(s.lin_vel.x, s.lin_vel.y), v, 1e-12);
    double a = hypot(s.lin_acc.x, s.lin_acc.y);
    assert_true(fabs(a) < 1e-12 || fabs(a - v * v / r) < 1e-12);
    assert_true(hypot(s.pose.pos.x - prev.pose.pos.x, s.pose.pos.y - prev.pose.pos.y) <=
                v * dt + 1e-9);
    prev = s;
  }
  /* Away from the four junctions, derivatives match finite differences. */
  double ts[] = {1.0, 3.5, 8.0, 11.0, 14.0, 17.0};
  for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) check_derivatives(&m, &id, ts[i]);
  /* Clockwise mirrors y. */
  sensim__motion cw = parse_motion("{\"type\": \"stadium\", \"length\": 8, \"radius\": 3, "
                                   "\"speed\": 2, \"direction\": \"cw\"}");
  sensim_body_state a, b;
  sensim__motion_state(&m, &id, 6.0, &a);
  sensim__motion_state(&cw, &id, 6.0, &b);
  assert_near(b.pose.pos.x, a.pose.pos.x, 1e-12);
  assert_near(b.pose.pos.y, -a.pose.pos.y, 1e-12);
  assert_near(b.ang_vel.z, -a.ang_vel.z, 1e-12);
  sensim__motion_free(&m);
  sensim__motion_free(&cw);
}

static void test_line_and_offset_motion(void **state) {
  (void)state;
  sensim__motion m = parse_motion("{\"type\": \"line\", \"start\": [1, 2, 3], "
                                  "\"velocity\": [0, 2, 0.5]}");
  sensim_pose id = identity_pose();
  sensim_body_state s;
  sensim__motion_state(&m, &id, 2, &s);
  assert_near(s.pose.pos.x, 1, 1e-12);
  assert_near(s.pose.pos.y, 6, 1e-12);
  assert_near(s.pose.pos.z, 4, 1e-12);
  assert_near(2 * atan2(s.pose.rot.z, s.pose.rot.w), PI / 2, 1e-12);
  check_derivatives(&m, &id, 1.0);
  sensim__motion_free(&m);
  /* A body offset from its circling frame: v = v_frame + w x r,
   * a = a_frame + w x (w x r) (rigid-body kinematics). */
  m = parse_motion("{\"type\": \"circle\", \"radius\": 2, \"speed\": 1}");
  sensim_pose off = {{0.3, 0.5, 0.1}, {0.9238795325112867, 0, 0, 0.3826834323650898}};
  for (double t = 0.1; t < 6; t += 0.9) check_derivatives(&m, &off, t);
  sensim__motion_free(&m);
}

static void test_waypoints_interpolate_and_loop(void **state) {
  (void)state;
  sensim__motion m = parse_motion("{\"type\": \"waypoints\", \"loop\": true, \"points\": "
                                  "[[1, 0, 0, 0, 0], [3, 4, 2, 0, 1], [5, 0, 0, 0, 0]]}");
  sensim_pose id = identity_pose();
  sensim_body_state s;
  sensim__motion_state(&m, &id, 2, &s);
  assert_int_equal(s.flags, 0); /* poses only */
  assert_near(s.pose.pos.x, 2, 1e-12);
  assert_near(s.pose.pos.y, 1, 1e-12);
  assert_near(2 * atan2(s.pose.rot.z, s.pose.rot.w), 0.5, 1e-12);
  sensim__motion_state(&m, &id, 6, &s); /* wraps: 6 -> 2 */
  assert_near(s.pose.pos.x, 2, 1e-12);
  sensim__motion_state(&m, &id, 0, &s); /* wraps backwards: 0 -> 4 */
  assert_near(s.pose.pos.x, 2, 1e-12);
  sensim__motion_free(&m);
  m = parse_motion("{\"type\": \"waypoints\", \"points\": [[1, 0, 0, 0, 0], [2, 1, 0, 0, 0]]}");
  sensim__motion_state(&m, &id, 0, &s); /* held before the first */
  assert_near(s.pose.pos.x, 0, 0);
  sensim__motion_state(&m, &id, 9, &s); /* and after the last */
  assert_near(s.pose.pos.x, 1, 0);
  sensim__motion_free(&m);
}

/* End to end: a noiseless IMU on a body circling at v = 2 m/s, r = 2 m
 * reads the centripetal acceleration v^2 / r = 2 m/s^2 along +Y (towards
 * the centre, to the left when turning counter-clockwise), +g on Z and a
 * yaw rate v / r = 1 rad/s, which holds only if the loader pushes the exact
 * derivatives. Tolerance 0.02 m/s^2: an implementation that rotates the
 * window average by the pose at either end of the 10 ms window is off by
 * half the turn, w T / 2 = 5 mrad, i.e. 0.01 m/s^2 across axes. */
static void test_run_imu_reads_centripetal_acceleration(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      "{\"world\": {\"threads\": 2}, \"duration\": 1.0,"
      " \"bodies\": [{\"name\": \"b\", \"motion\": {\"type\": \"circle\", \"radius\": 2,"
      " \"speed\": 2}}],"
      " \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"b\", \"rate\": 100}]}",
      NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/imu_circle", NULL, NULL, NULL));
  sensim_scenario_destroy(scn);
  char *csv = test_slurp(TMP "/imu_circle/imu/imu.csv", NULL);
  assert_int_equal(scenario_count_lines(csv), 102);
  const char *line = strchr(csv, '\n') + 1;
  for (int row = 0; *line; row++) {
    double v[7];
    int n = sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6]);
    assert_int_equal(n, 7);
    if (row >= 2) { /* the first window reaches before the track starts */
      assert_near(v[1], 0, 0.02);
      assert_near(v[2], 2.0, 0.02);
      assert_near(v[3], 9.7803253359, 0.02); /* normal gravity, origin 0 deg 0 m */
      assert_near(v[6], 1.0, 1e-6);
    }
    line = strchr(line, '\n') + 1;
  }
  free(csv);
}


int sensim_test_scenario_motion(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_circle_motion_derivatives_are_exact),
      cmocka_unit_test(test_stadium_motion_is_closed_and_exact),
      cmocka_unit_test(test_line_and_offset_motion),
      cmocka_unit_test(test_waypoints_interpolate_and_loop),
      cmocka_unit_test(test_run_imu_reads_centripetal_acceleration),
  };
  return cmocka_run_group_tests_name("scenario_motion", tests, scenario_setup, NULL);
}
