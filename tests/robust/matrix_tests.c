/* The bad-input matrix (issue 14): every table of bad calls, each case on a
 * fresh fixture, with the world's health checked after each. One test per
 * table so that a failure names the area; every failing case of a table
 * is printed before the test fails. */
#include <math.h>
#include <stdio.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

static void run_table(const robust_case *cases, size_t n) {
  int failed = robust_run_cases(cases, n);
  if (failed) fail_msg("%d of %zu cases failed (listed above)", failed, n);
}

static void test_matrix_parameter_structs_out_of_domain_are_refused_and_change_nothing(void **state) {
  (void)state;
  run_table(robust_param_cases, robust_param_case_count);
}

static void test_matrix_calls_in_the_wrong_state_or_with_bad_handles_are_refused(void **state) {
  (void)state;
  run_table(robust_call_cases, robust_call_case_count);
}

static void test_matrix_malformed_and_unbounded_scenarios_are_refused_at_load(void **state) {
  (void)state;
  run_table(robust_scenario_cases, robust_scenario_case_count);
}

static void test_matrix_writers_refuse_bad_frames_and_paths(void **state) {
  (void)state;
  run_table(robust_io_cases, robust_io_case_count);
}

/* Accessors that return a value, not a status, answer NULL neutrally. */
static void test_world_accessors_answer_a_null_world_without_crashing(void **state) {
  (void)state;
  assert_true(isnan(sensim_world_time(NULL)));
  assert_null(sensim_world_params_get(NULL));
  assert_int_equal(sensim_world_sensor_count(NULL), 0);
  assert_null(sensim_world_sensor(NULL, 0));
  assert_null(sensim_world_sensor_by_name(NULL, "cam"));
  assert_int_equal(sensim_mesh_triangle_count(NULL), 0);
  assert_int_equal(sensim_body_keyframe_count(NULL), 0);
}

/* The issue asks for at least 250 cases. */
static void test_matrix_holds_at_least_250_cases(void **state) {
  (void)state;
  size_t n = robust_param_case_count + robust_call_case_count + robust_scenario_case_count + robust_io_case_count;
  print_message("bad-input matrix: %zu cases (%zu parameters, %zu calls, %zu scenarios, %zu writers)\n", n,
                robust_param_case_count, robust_call_case_count, robust_scenario_case_count, robust_io_case_count);
  assert_true(n >= 250);
}

int sensim_test_robust_matrix(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matrix_holds_at_least_250_cases),
      cmocka_unit_test(test_world_accessors_answer_a_null_world_without_crashing),
      cmocka_unit_test(test_matrix_parameter_structs_out_of_domain_are_refused_and_change_nothing),
      cmocka_unit_test(test_matrix_calls_in_the_wrong_state_or_with_bad_handles_are_refused),
      cmocka_unit_test(test_matrix_malformed_and_unbounded_scenarios_are_refused_at_load),
      cmocka_unit_test(test_matrix_writers_refuse_bad_frames_and_paths),
  };
  return cmocka_run_group_tests_name("robust_matrix", tests, NULL, NULL);
}
