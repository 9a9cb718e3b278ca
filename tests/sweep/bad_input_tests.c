/* tests/sweep/bad_input_tests.c: sweep files that must not load, each
 * with its status and a message that says what and where; a failed load
 * leaves *out untouched and nothing allocated (LSan checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/ablate.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"

/* A sweep around the tiny scenario with `rest` after its "scenario". */
static void fails_with(const char *rest, sensim_status want, const char *const *needles) {
  char *t = sweep_textf("{\"scenario\": %s%s}", kSweepScenario, rest);
  sweep_load_fails(t, want, needles);
  free(t);
}

#define NEEDLES(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_missing_sweep_file_is_enotfound(void **state) {
  (void)state;
  sensim_sweep *s = (sensim_sweep *)&s;
  assert_int_equal(sensim_sweep_load(SWEEP_TMP "/no/such/sweep.json", &s), SENSIM_ENOTFOUND);
  assert_ptr_equal(s, (sensim_sweep *)&s);
  sweep_assert_contains(sensim_last_error(), "no/such/sweep.json");
  assert_int_equal(sensim_sweep_load(NULL, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_load_string(NULL, NULL, NULL, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_load_string("{}", NULL, NULL, NULL), SENSIM_EINVAL);
  assert_ptr_equal(s, (sensim_sweep *)&s);
}

/* Bad JSON names the source, line and column of the error, counting
 * lines past a comment. */
static void test_bad_json_is_eparse_with_file_line_column(void **state) {
  (void)state;
  sweep_load_fails("// a sweep\n{\"scenario\": {},\n  \"axes\": [}\n", SENSIM_EPARSE, NEEDLES("bad.json:3:12:"));
  sweep_load_fails("{\"scenario\": {}", SENSIM_EPARSE, NEEDLES("bad.json:1:", "unexpected end"));
  sweep_load_fails("/* never closed {\"scenario\": {}}", SENSIM_EPARSE, NEEDLES("bad.json:1:1:", "unterminated"));
  sweep_load_fails("[1, 2]", SENSIM_EPARSE, NEEDLES("bad.json: a sweep is a JSON object"));
}

/* An unknown key is EPARSE naming where it is, with the nearest known key. */
static void test_unknown_key_is_eparse_with_a_suggestion(void **state) {
  (void)state;
  fails_with(", \"axis\": []", SENSIM_EPARSE, NEEDLES("bad.json: sweep: unknown key 'axis'; did you mean 'axes'?"));
  fails_with(", \"axes\": [{\"name\": \"x\", \"pointr\": \"/duration\", \"values\": [1]}]", SENSIM_EPARSE,
             NEEDLES("axes[0]: unknown key 'pointr'; did you mean 'pointer'?"));
  fails_with(", \"axes\": [{\"seeds\": {\"first\": 1, \"cont\": 2}}]", SENSIM_EPARSE,
             NEEDLES("axes[0]: unknown key 'cont'; did you mean 'count'?"));
  fails_with(", \"axes\": [{\"name\": \"v\", \"variants\": [{\"name\": \"a\", \"sets\": {}}]}]", SENSIM_EPARSE,
             NEEDLES("axes[0].variants[0]: unknown key 'sets'; did you mean 'set'?"));
  fails_with(", \"experiment\": \"ablation\", \"ablation\": {\"frame\": 2}", SENSIM_EPARSE,
             NEEDLES("ablation: unknown key 'frame'; did you mean 'frames'?"));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"run\": 2}}", SENSIM_EPARSE,
                   NEEDLES("vepd: unknown key 'run'; did you mean 'runs'?"));
  /* An ekf key is checked on the run's document, at load. */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"ekf\": {\"gnss_sigm\": 1}}}", SENSIM_EPARSE,
                   NEEDLES("unknown key 'gnss_sigm'; did you mean 'gnss_sigma'?"));
  fails_with(", \"experiment\": \"ablaton\"", SENSIM_EINVAL,
             NEEDLES("unknown experiment 'ablaton' (ablation, vepd, judge); did you mean 'ablation'?"));
  fails_with(", \"combine\": \"zip\"", SENSIM_EINVAL, NEEDLES("\"combine\" must be \"product\" or \"list\""));
}

/* Axis names are unique and not a column of the sweep's own tables. */
static void test_duplicate_and_reserved_axis_names_are_refused(void **state) {
  (void)state;
  fails_with(", \"axes\": [{\"name\": \"x\", \"pointer\": \"/duration\", \"values\": [1]},"
             " {\"name\": \"x\", \"pointer\": \"/sensors/0/rate\", \"values\": [1]}]",
             SENSIM_EINVAL, NEEDLES("axes[0] and axes[1] are both named 'x'"));
  /* A seeds axis is named "seed" by default. */
  fails_with(", \"axes\": [{\"name\": \"seed\", \"pointer\": \"/duration\", \"values\": [1]}, {\"seeds\": [1]}]",
             SENSIM_EINVAL, NEEDLES("axes[0] and axes[1] are both named 'seed'"));
  const char *reserved[] = {"run", "status", "error", "world_seed", "sim_time", "ablation", "frames_gnss", "frames_"};
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
    char rest[200], needle[120];
    snprintf(rest, sizeof rest, ", \"axes\": [{\"name\": \"%s\", \"pointer\": \"/duration\", \"values\": [1]}]",
             reserved[i]);
    snprintf(needle, sizeof needle, "axes[0]: the name '%s' is a column of the sweep's own tables", reserved[i]);
    fails_with(rest, SENSIM_EINVAL, NEEDLES(needle));
  }
  const char *vepd_reserved[] = {"model", "manoeuvre", "k", "rmse", "variant", "w1", "vepd", "h_diff", "world_seed"};
  for (size_t i = 0; i < sizeof vepd_reserved / sizeof *vepd_reserved; i++) {
    char *t = sweep_textf("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 1}, \"axes\": [{\"name\": \"%s\", "
                          "\"pointer\": \"/duration\", \"values\": [3]}]}",
                          vepd_reserved[i]);
    sweep_load_fails(t, SENSIM_EINVAL, NEEDLES("is a column of the sweep's own tables"));
    free(t);
  }
  /* What is reserved for one kind is a fine name for another. */
  char *t = sweep_textf("{\"scenario\": %s, \"axes\": [{\"name\": \"model\", \"pointer\": \"/duration\", "
                        "\"values\": [1]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, NULL);
  sensim_sweep_destroy(s);
  free(t);
  fails_with(", \"axes\": [{\"name\": \"\", \"pointer\": \"/duration\", \"values\": [1]}]", SENSIM_EINVAL,
             NEEDLES("axes[0].name must be a non-empty string"));
  fails_with(", \"axes\": [{\"pointer\": \"/duration\", \"values\": [1]}]", SENSIM_EINVAL,
             NEEDLES("axes[0] needs a \"name\""));
  fails_with(", \"axes\": [{\"name\": \"v\", \"variants\": [{\"name\": \"a\", \"set\": {}}, {\"name\": \"a\", "
             "\"set\": {}}]}]",
             SENSIM_EINVAL, NEEDLES("axes[0]: two variants are named 'a'"));
}

/* One seeds axis at most, and it alone sets the world seed. */
static void test_seeds_axis_is_single_and_owns_the_world_seed(void **state) {
  (void)state;
  fails_with(", \"axes\": [{\"seeds\": [1]}, {\"name\": \"s2\", \"seeds\": {\"first\": 1, \"count\": 2}}]",
             SENSIM_EINVAL, NEEDLES("axes[0] and axes[1] both give seeds; a sweep has one seeds axis"));
  fails_with(", \"axes\": [{\"seeds\": [1]}, {\"name\": \"w\", \"pointer\": \"/world/seed\", \"values\": [2]}]",
             SENSIM_EINVAL, NEEDLES("axes[1] 'w' sets /world/seed, which the seeds axis 'seed' owns"));
  fails_with(", \"axes\": [{\"name\": \"w\", \"pointer\": \"/world\", \"values\": [{}]}, {\"name\": \"s\", \"seeds\": [1]}]",
             SENSIM_EINVAL, NEEDLES("axes[0] 'w' sets /world, which the seeds axis 's' owns"));
  fails_with(", \"axes\": [{\"seeds\": [1]}, {\"name\": \"v\", \"variants\": [{\"name\": \"a\", \"set\": "
             "{\"/duration\": 1}}, {\"name\": \"b\", \"set\": {\"/duration\": 1, \"/world/seed\": 5}}]}]",
             SENSIM_EINVAL, NEEDLES("axes[1] 'v' sets /world/seed, which the seeds axis 'seed' owns"));
  fails_with(", \"axes\": [{\"seeds\": [1], \"values\": [2]}]", SENSIM_EINVAL,
             NEEDLES("axes[0] must have exactly one of \"seeds\", \"pointer\" with \"values\", or \"variants\""));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {}, \"axes\": [{\"seeds\": [1]}]}", SENSIM_EINVAL,
                   NEEDLES("a vepd sweep takes no \"seeds\" axis"));
}

/* Seeds are integers in 0 .. 2^53, the scenario's range. */
static void test_seeds_outside_0_to_2_pow_53_are_refused(void **state) {
  (void)state;
  const char *bad[] = {"[-1]", "[1.5]", "[9007199254740994]", "[\"1\"]", "[1, null]",
                       "{\"first\": -1, \"count\": 1}",
                       "{\"first\": 1, \"count\": 0}", "{\"first\": 1, \"count\": 1000001}",
                       "{\"first\": 1}", "{\"first\": 0.5, \"count\": 1}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char rest[160];
    snprintf(rest, sizeof rest, ", \"axes\": [{\"seeds\": %s}]", bad[i]);
    fails_with(rest, SENSIM_EINVAL, NEEDLES("axes[0]", "2^53"));
  }
  fails_with(", \"axes\": [{\"seeds\": []}]", SENSIM_EINVAL, NEEDLES("axes[0].seeds must be a non-empty list"));
  /* Without a seeds axis the document's seed is checked the same way. */
  sweep_load_fails("{\"scenario\": {\"world\": {\"seed\": -2}}}", SENSIM_EINVAL,
                   NEEDLES("run_0000", "world.seed must be an integer in 0..2^53"));
  sweep_load_fails("{\"scenario\": {\"world\": {}}, \"axes\": [{\"name\": \"w\", \"pointer\": \"/world/seed\", "
                   "\"values\": [1, 2.5]}]}",
                   SENSIM_EINVAL, NEEDLES("run_0001 (w=2.5)", "world.seed must be an integer in 0..2^53"));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"seed\": 9007199254740994}}", SENSIM_EINVAL,
                   NEEDLES("vepd.seed must be an integer in 0..2^53"));
}

/* {"first", "count"} whose last seed passes 2^53 by one is refused: in
 * doubles first + count - 1 rounds back to 2^53, and the runs past it
 * would all get seed 2^53. The last seed at 2^53 exactly is fine. */
static void test_seeds_first_count_past_2_pow_53_is_refused_not_rounded(void **state) {
  (void)state;
  fails_with(", \"axes\": [{\"seeds\": {\"first\": 9007199254740992, \"count\": 2}}]", SENSIM_EINVAL,
             NEEDLES("axes[0].seeds: {\"first\": s, \"count\": n}", "s + n - 1 <= 2^53"));
  fails_with(", \"axes\": [{\"seeds\": {\"first\": 9007199254740991, \"count\": 3}}]", SENSIM_EINVAL,
             NEEDLES("s + n - 1 <= 2^53"));
  char *t = sweep_textf("{\"scenario\": %s, \"axes\": [{\"seeds\": {\"first\": 9007199254740991, \"count\": 2}}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, NULL);
  assert_string_equal(sensim_sweep_run_label(s, 0), "seed=9007199254740991");
  assert_string_equal(sensim_sweep_run_label(s, 1), "seed=9007199254740992");
  sensim_sweep_destroy(s);
  free(t);
  /* A vepd sweep's drives use seeds seed .. seed + 2 runs - 1: the last
   * at 2^53 loads, one past it does not. */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 2, \"seed\": 9007199254740990}}",
                   SENSIM_EINVAL, NEEDLES("vepd.seed + 2 vepd.runs - 1", "2^53"));
  s = sweep_load_ok("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 2, \"seed\": 9007199254740989}}", NULL);
  sensim_sweep_destroy(s);
}

/* A pointer that does not resolve fails the load naming the first run it
 * fails in and the axis, with the value. */
static void test_unresolved_pointer_names_the_run_and_the_axis(void **state) {
  (void)state;
  fails_with(", \"axes\": [{\"name\": \"x\", \"pointer\": \"/sensors/7/rate\", \"values\": [1]}]", SENSIM_EINVAL,
             NEEDLES("bad.json: run_0000 (x=1): axes[0] 'x' = 1: /sensors/7/rate: no element '7' under '/sensors'"));
  fails_with(", \"axes\": [{\"name\": \"a\", \"pointer\": \"/duration\", \"values\": [1, 2]},"
             " {\"name\": \"b\", \"variants\": [{\"name\": \"ok\", \"set\": {\"/sensors/0/rate\": 5}},"
             "  {\"name\": \"bad\", \"set\": {\"/sensors/0/rate\": 5, \"/sensors/1/filters/3/x\": 1}}]}]",
             SENSIM_EINVAL, NEEDLES("run_0001 (a=1 b=bad): axes[1] 'b' = bad: /sensors/1/filters/3/x: no element '3'"));
  fails_with(", \"axes\": [{\"name\": \"x\", \"pointer\": \"duration\", \"values\": [1]}]", SENSIM_EINVAL,
             NEEDLES("axes[0]: pointer 'duration' must start with '/'"));
  fails_with(", \"axes\": [{\"name\": \"x\", \"pointer\": \"/sensors/01/rate\", \"values\": [1]}]", SENSIM_EINVAL,
             NEEDLES("run_0000", "axes[0] 'x'"));
  fails_with(", \"axes\": [{\"name\": \"x\", \"pointer\": \"/sensors/2\", \"values\": [1]}]", SENSIM_EINVAL,
             NEEDLES("run_0000", "index 2 is past the end of an array of 2"));
  /* A vepd axis may not change the experiment's structure. */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {}, \"axes\": [{\"name\": \"n\", \"pointer\": \"/runs\", "
                   "\"values\": [2]}]}",
                   SENSIM_EINVAL, NEEDLES("'/runs' sets the experiment's structure (\"runs\")"));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {}, \"axes\": [{\"name\": \"n\", \"variants\": [{\"name\": "
                   "\"a\", \"set\": {\"/variants/0/name\": \"x\"}}]}]}",
                   SENSIM_EINVAL, NEEDLES("sets the experiment's structure (\"variants\")"));
  /* ... but a name that only starts like a structural one is fine to reach. */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {}, \"axes\": [{\"name\": \"n\", \"pointer\": \"/runsx/a\", "
                   "\"values\": [2]}]}",
                   SENSIM_EINVAL, NEEDLES("run_0000", "no member 'runsx' under the document root"));
  /* A value of the wrong type for the vepd run fails at load (types are
   * checked per document; domains fail the run). */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 1}, \"axes\": [{\"name\": \"d\", \"pointer\": "
                   "\"/duration\", \"values\": [3, \"long\"]}]}",
                   SENSIM_EINVAL, NEEDLES("d=\"long\"", "vepd.duration must be a number"));
}

/* "list" needs axes of one length; no axis may be empty. */
static void test_list_axes_of_unequal_length_and_empty_axes_are_refused(void **state) {
  (void)state;
  fails_with(", \"combine\": \"list\", \"axes\": [{\"seeds\": [1, 2, 3]}, {\"name\": \"d\", \"pointer\": "
             "\"/duration\", \"values\": [1, 2]}]",
             SENSIM_EINVAL, NEEDLES("\"list\" runs value i of every axis together, but axis 'seed' has 3 values and "
                                    "'d' 2"));
  fails_with(", \"axes\": [{\"name\": \"d\", \"pointer\": \"/duration\", \"values\": []}]", SENSIM_EINVAL,
             NEEDLES("axes[0] needs \"pointer\" (a string) and \"values\" (a non-empty list)"));
  fails_with(", \"axes\": [{\"name\": \"d\", \"pointer\": \"/duration\"}]", SENSIM_EINVAL,
             NEEDLES("axes[0] needs \"pointer\" (a string) and \"values\" (a non-empty list)"));
  fails_with(", \"axes\": [{\"name\": \"v\", \"variants\": []}]", SENSIM_EINVAL,
             NEEDLES("axes[0].variants must be a non-empty list"));
  fails_with(", \"axes\": [{\"name\": \"v\", \"variants\": [{\"name\": \"a\"}]}]", SENSIM_EINVAL,
             NEEDLES("axes[0].variants[0].set must be an object"));
  fails_with(", \"axes\": {}", SENSIM_EINVAL, NEEDLES("\"axes\" must be a list"));
  fails_with(", \"axes\": [5]", SENSIM_EINVAL, NEEDLES("axes[0] must be an object"));
}

/* More than SENSIM_SWEEP_MAX_RUNS runs are refused at load, the message
 * naming the counts that exceed it. */
static void test_too_many_runs_are_refused_from_the_counts(void **state) {
  (void)state;
  /* 1000 x 1001 = 1001000 */
  char *vals = malloc(1001 * 8 + 8);
  assert_non_null(vals);
  size_t n = 0;
  for (int i = 0; i < 1001; i++) n += (size_t)sprintf(vals + n, "%s%d", i ? "," : "", i);
  char rest[9000];
  snprintf(rest, sizeof rest, ", \"axes\": [{\"seeds\": {\"first\": 0, \"count\": 1000}}, {\"name\": \"d\", "
           "\"pointer\": \"/duration\", \"values\": [%s]}]", vals);
  fails_with(rest, SENSIM_EINVAL, NEEDLES("the axes' product exceeds 1000000 runs"));
  /* Planning 10^6 runs takes seconds; refusing them takes milliseconds. */
  free(vals);
  /* The implicit axes count too. */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 50000}, \"axes\": [{\"name\": \"d\", "
                   "\"pointer\": \"/duration\", \"values\": [3, 4]}]}",
                   SENSIM_EINVAL, NEEDLES("2 combinations of the axes times 900000 runs each exceed 1000000 runs"));
  /* 6 models x 3 manoeuvres x 100000 */
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 100000}}", SENSIM_EINVAL,
                   NEEDLES("more than 1000000 runs"));
  char *t = sweep_textf("{\"experiment\": \"ablation\", \"scenario\": %s, \"axes\": [{\"seeds\": {\"first\": 0, "
                        "\"count\": 150000}}]}",
                        kSweepScenario);
  char want[128];
  snprintf(want, sizeof want, "150000 combinations of the axes times %d runs each exceed 1000000", SENSIM_ABLATE_COUNT);
  sweep_load_fails(t, SENSIM_EINVAL, NEEDLES(want));
  free(t);
}

/* "threads" and the other top-level values are checked. */
static void test_bad_top_level_values_are_einval(void **state) {
  (void)state;
  fails_with(", \"threads\": 1025", SENSIM_EINVAL, NEEDLES("\"threads\" must be an integer in 0..1024"));
  fails_with(", \"threads\": -1", SENSIM_EINVAL, NEEDLES("\"threads\" must be an integer in 0..1024"));
  fails_with(", \"threads\": 1.5", SENSIM_EINVAL, NEEDLES("\"threads\" must be an integer in 0..1024"));
  fails_with(", \"name\": \"\"", SENSIM_EINVAL, NEEDLES("\"name\" must be a non-empty string"));
  sweep_load_fails("{}", SENSIM_EINVAL, NEEDLES("what does each run do?"));
  sweep_load_fails("{\"scenario\": 5}", SENSIM_EINVAL, NEEDLES("\"scenario\" must be a file name or a scenario object"));
  fails_with(", \"vepd\": {}", SENSIM_EINVAL, NEEDLES("\"vepd\" belongs to \"experiment\": \"vepd\""));
  fails_with(", \"ablation\": {}", SENSIM_EINVAL, NEEDLES("\"ablation\" belongs to \"experiment\": \"ablation\""));
  fails_with(", \"experiment\": \"vepd\", \"vepd\": {}", SENSIM_EINVAL, NEEDLES("no \"scenario\""));
  fails_with(", \"experiment\": \"ablation\", \"ablation\": {\"variants\": [\"noise_of\"]}", SENSIM_EINVAL,
             NEEDLES("'noise_of' is not a variant; did you mean 'noise_off'?"));
  fails_with(", \"experiment\": \"ablation\", \"ablation\": {\"variants\": [\"baseline\", \"baseline\"]}",
             SENSIM_EINVAL, NEEDLES("names 'baseline' twice"));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"reference\": \"nope\"}}", SENSIM_EINVAL,
                   NEEDLES("vepd.reference 'nope' is not one of vepd.variants"));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"manoeuvres\": [\"circle\", \"circle\"]}}", SENSIM_EINVAL,
                   NEEDLES("'circle' is not a manoeuvre named once"));
  sweep_load_fails("{\"experiment\": \"vepd\", \"vepd\": {\"variants\": [{\"name\": \"reference\", \"filters\": "
                   "[{\"name\": \"gnss_noise\"}]}]}}",
                   SENSIM_EINVAL, NEEDLES("other than 'reference'"));
}

int sensim_test_sweep_bad_input(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_missing_sweep_file_is_enotfound),
      cmocka_unit_test(test_bad_json_is_eparse_with_file_line_column),
      cmocka_unit_test(test_unknown_key_is_eparse_with_a_suggestion),
      cmocka_unit_test(test_duplicate_and_reserved_axis_names_are_refused),
      cmocka_unit_test(test_seeds_axis_is_single_and_owns_the_world_seed),
      cmocka_unit_test(test_seeds_outside_0_to_2_pow_53_are_refused),
      cmocka_unit_test(test_seeds_first_count_past_2_pow_53_is_refused_not_rounded),
      cmocka_unit_test(test_unresolved_pointer_names_the_run_and_the_axis),
      cmocka_unit_test(test_list_axes_of_unequal_length_and_empty_axes_are_refused),
      cmocka_unit_test(test_too_many_runs_are_refused_from_the_counts),
      cmocka_unit_test(test_bad_top_level_values_are_einval),
  };
  return cmocka_run_group_tests_name("sweep_bad_input", tests, NULL, NULL);
}
