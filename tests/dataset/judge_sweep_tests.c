/* tests/dataset/judge_sweep_tests.c: judge sweeps load as a grid of
 * trainings (the file's axes set /variant and /seed), and refuse what
 * does not belong: a seeds axis, an unknown key of the judge object (with
 * the near one), a judge object on another kind, a scenario on a judge
 * sweep, a seed that is not an integer. Running them needs Python and
 * torch: the judge_tiny ctest and docs/judge.md do. */
#include <stdlib.h>
#include <string.h>
#include "dataset/dataset_groups.h"
#include "support/testutil.h"
#include <sensim_tools/sensim_tools.h>

static const char kGrid[] =
    "{\"name\": \"g\", \"experiment\": \"judge\",\n"
    " \"judge\": {\"dataset\": \"data\", \"out\": \"study\", \"variant\": \"baseline\", \"seed\": 0, \"epochs\": 3},\n"
    " \"axes\": [{\"name\": \"variant\", \"pointer\": \"/variant\", \"values\": [\"baseline\", \"noise_off\"]},\n"
    "          {\"name\": \"seed\", \"pointer\": \"/seed\", \"values\": [0, 1, 2]}]}";

static void test_judge_sweep_is_a_grid_of_trainings(void **state) {
  (void)state;
  sensim_sweep *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_load_string(kGrid, "grid.json", NULL, &s));
  assert_int_equal(sensim_sweep_kind_of(s), SENSIM_SWEEP_JUDGE);
  assert_string_equal(sensim_sweep_kind_name(SENSIM_SWEEP_JUDGE), "judge");
  assert_int_equal(sensim_sweep_run_count(s), 6);
  assert_string_equal(sensim_sweep_run_label(s, 4), "variant=\"noise_off\" seed=1");
  sensim_sweep_destroy(s);
}

static void expect_refused(const char *text, sensim_status code, const char *msg) {
  sensim_sweep *s = NULL;
  assert_int_equal(sensim_sweep_load_string(text, "bad.json", NULL, &s), code);
  assert_null(s);
  if (!strstr(sensim_last_error(), msg)) fail_msg("message '%s' lacks '%s'", sensim_last_error(), msg);
}

static void test_judge_sweep_refusals(void **state) {
  (void)state;
  expect_refused("{\"experiment\": \"judge\", \"judge\": {\"dataset\": \"d\", \"out\": \"o\", \"seed\": 0},"
                 " \"axes\": [{\"seeds\": [1, 2]}]}",
                 SENSIM_EINVAL, "a judge sweep takes no \"seeds\" axis");
  expect_refused("{\"experiment\": \"judge\", \"judge\": {\"dataset\": \"d\", \"epoch\": 3, \"seed\": 0}}",
                 SENSIM_EPARSE, "did you mean 'epochs'?");
  expect_refused("{\"scenario\": {}, \"judge\": {\"dataset\": \"d\"}}", SENSIM_EINVAL,
                 "\"judge\" belongs to \"experiment\": \"judge\"");
  expect_refused("{\"experiment\": \"judge\", \"scenario\": {}, \"judge\": {\"dataset\": \"d\", \"seed\": 0}}",
                 SENSIM_EINVAL, "a judge sweep trains detectors: no \"scenario\"");
  expect_refused("{\"experiment\": \"judge\"}", SENSIM_EINVAL, "needs a \"judge\" object");
  expect_refused("{\"experiment\": \"judge\", \"judge\": {\"dataset\": \"d\", \"seed\": 0.5}}", SENSIM_EINVAL,
                 "judge.seed must be an integer");
  expect_refused("{\"experiment\": \"judg\", \"judge\": {}}", SENSIM_EINVAL, "did you mean 'judge'?");
}

int sensim_test_dataset_judge_sweep(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_judge_sweep_is_a_grid_of_trainings),
      cmocka_unit_test(test_judge_sweep_refusals),
  };
  return cmocka_run_group_tests_name("judge_sweep", tests, NULL, NULL);
}
