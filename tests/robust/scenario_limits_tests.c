/* The scenario bounds of scenario.h at their boundaries: the bound itself
 * loads, one more step or frame is refused with a message naming the
 * numbers; scripted motions are checked over the whole duration; a run
 * whose sensor would deliver nothing is refused before it starts. */
#include <stdio.h>
#include <string.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

/* Load `json`: 0 when it loads, else the status (message kept). */
static sensim_status try_load(const char *json) {
  sensim_scenario *scn = NULL;
  sensim_status st = sensim_scenario_load_string(json, NULL, &scn);
  sensim_scenario_destroy(scn);
  return st;
}

static void test_scenario_may_ask_for_1e8_steps_and_not_one_more(void **state) {
  (void)state;
  /* k = 0 .. floor(duration / step): duration 99999999 s at 1 s is 1e8. */
  SENSIM_OK_OR_FAIL(try_load("{\"duration\": 99999999, \"step\": 1}"));
  assert_int_equal(try_load("{\"duration\": 100000000, \"step\": 1}"), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "step: 1 s over the duration 1e+08 s gives 100000001 steps, more "
                                              "than 100000000 (SENSIM_SCENARIO_MAX_STEPS)"));
  assert_true(SENSIM_SCENARIO_MAX_STEPS >= 86400 * 1000); /* a day at 1 ms */
}

static void test_scenario_may_ask_for_1e8_frames_of_a_sensor_and_not_one_more(void **state) {
  (void)state;
  /* A 1 kHz IMU from t = 0: floor(duration * 1000) + 1 frames. */
  SENSIM_OK_OR_FAIL(try_load("{\"duration\": 99999.999, \"step\": 1, \"sensors\": "
                             "[{\"name\": \"imu\", \"type\": \"imu\", \"rate\": 1000}]}"));
  assert_int_equal(try_load("{\"duration\": 100000, \"step\": 1, \"sensors\": "
                            "[{\"name\": \"imu\", \"type\": \"imu\", \"rate\": 1000}]}"),
                   SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "sensors[0] 'imu': rate 1000 Hz over the duration 100000 s asks for "
                                              "100000001 frames"));
  /* A phase shortens the run a sensor sees. */
  SENSIM_OK_OR_FAIL(try_load("{\"duration\": 100000, \"step\": 1, \"sensors\": "
                             "[{\"name\": \"imu\", \"type\": \"imu\", \"rate\": 1000, \"phase\": 0.001}]}"));
  assert_true(SENSIM_SCENARIO_MAX_FRAMES >= 86400 * 1000); /* a day of a 1 kHz IMU */
}

static void test_scenario_duration_may_reach_the_time_limit_and_no_further(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(try_load("{\"duration\": 4294967296, \"step\": 1000}"));
  assert_int_equal(try_load("{\"duration\": 4294967297, \"step\": 1000}"), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "duration: 4.29497e+09 s is beyond the simulation time limit"));
  /* Issue 14's file that ran until it was killed. */
  assert_int_equal(try_load("{\"duration\": 1e17, \"step\": 1e16, \"sensors\": [{\"name\": \"g\", \"type\": \"gnss\"}]}"),
                   SENSIM_EINVAL);
}

/* A line at 1024 m/s for 16383 s ends at 16 776 192 m; with the reach of
 * its speed over 1 s it touches 2^24 m exactly: allowed. A millisecond
 * more is not. */
static void test_scripted_line_is_checked_over_the_whole_duration(void **state) {
  (void)state;
  const char *fmt = "{\"duration\": %s, \"step\": 1, \"bodies\": [{\"name\": \"b\", \"motion\": "
                    "{\"type\": \"line\", \"velocity\": [1024, 0, 0]}}]}";
  char json[512];
  snprintf(json, sizeof json, fmt, "16383");
  SENSIM_OK_OR_FAIL(try_load(json));
  snprintf(json, sizeof json, fmt, "16383.001");
  assert_int_equal(try_load(json), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "bodies[0].motion"));
  assert_non_null(strstr(sensim_last_error(), "SENSIM_COORD_MAX"));
}

/* A circle is bounded by its centre plus its radius; its pushed
 * acceleration v^2 / r must pass the push's reach check. */
static void test_scripted_circle_is_bounded_by_centre_radius_and_acceleration(void **state) {
  (void)state;
  const char *fmt = "{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"motion\": "
                    "{\"type\": \"circle\", \"center\": [%s, 0, 0], \"radius\": 1000, \"speed\": %s}}]}";
  char json[512];
  snprintf(json, sizeof json, fmt, "16776216", "0");
  SENSIM_OK_OR_FAIL(try_load(json));
  snprintf(json, sizeof json, fmt, "16776217", "0");
  assert_int_equal(try_load(json), SENSIM_EINVAL);
  /* From the origin, a^2/2 with a = v^2 / r: v = 1e5 m/s on 1 km is 1e7
   * m/s^2, which with the speed itself reaches 5.1e6 m in 1 s: allowed;
   * 2e5 m/s reaches 2.02e7 m: refused. */
  snprintf(json, sizeof json, fmt, "0", "1e5");
  SENSIM_OK_OR_FAIL(try_load(json));
  snprintf(json, sizeof json, fmt, "0", "2e5");
  assert_int_equal(try_load(json), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "acceleration"));
}

static void test_run_whose_first_frame_comes_after_the_last_step_is_refused_before_it_starts(void **state) {
  (void)state;
  const char *fmt = "{\"duration\": 1, \"step\": 0.25, \"sensors\": [{\"name\": \"gnss\", \"type\": \"gnss\", "
                    "\"lag\": %s}]}";
  char json[256];
  sensim_scenario *scn = NULL;
  sensim_run_summary sum;
  snprintf(json, sizeof json, fmt, "1");
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, NULL, NULL, NULL, &sum));
  assert_true(sum.frames[0] == 1); /* frame 0, delivered at the last step */
  sensim_scenario_destroy(scn);
  snprintf(json, sizeof json, fmt, "1.01");
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  assert_int_equal(sensim_scenario_run(scn, NULL, NULL, NULL, &sum), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "'gnss': its first frame is delivered at phase + lag = 0 + 1.01 s"));
  /* Nothing ran: stepping by hand still works (and may go past the end). */
  SENSIM_OK_OR_FAIL(sensim_scenario_step_to(scn, 1.5));
  sensim_sensor *g = sensim_world_sensor(sensim_scenario_world(scn), 0);
  assert_true(sensim_sensor_frames_delivered(g) >= 1);
  sensim_scenario_destroy(scn);
}

int sensim_test_robust_scenario_limits(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_may_ask_for_1e8_steps_and_not_one_more),
      cmocka_unit_test(test_scenario_may_ask_for_1e8_frames_of_a_sensor_and_not_one_more),
      cmocka_unit_test(test_scenario_duration_may_reach_the_time_limit_and_no_further),
      cmocka_unit_test(test_scripted_line_is_checked_over_the_whole_duration),
      cmocka_unit_test(test_scripted_circle_is_bounded_by_centre_radius_and_acceleration),
      cmocka_unit_test(test_run_whose_first_frame_comes_after_the_last_step_is_refused_before_it_starts),
  };
  return cmocka_run_group_tests_name("robust_scenario_limits", tests, NULL, NULL);
}
