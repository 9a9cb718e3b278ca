/* tests/sweep/load_tests.c: a sweep file expanded into runs: how many, in
 * which order, with which labels, folders and world seeds, for each way of
 * combining axes and each kind of run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"
#include "tools/sweep_internal.h"

static void expect_labels(const sensim_sweep *s, const char *const *want, size_t n) {
  assert_int_equal(sensim_sweep_run_count(s), n);
  for (size_t i = 0; i < n; i++) {
    const char *got = sensim_sweep_run_label(s, i);
    if (!got || strcmp(got, want[i]) != 0) fail_msg("run %zu: label '%s', expected '%s'", i, got, want[i]);
  }
  assert_null(sensim_sweep_run_label(s, n));
  assert_null(sensim_sweep_run_label(s, (size_t)-1));
}

/* Every run's digest differs from every other's (they are different runs). */
static void expect_distinct_digests(const sensim_sweep *s) {
  for (size_t i = 0; i < s->nruns; i++)
    for (size_t j = i + 1; j < s->nruns; j++)
      if (s->digests[i] == s->digests[j]) fail_msg("runs %zu and %zu share digest %016llx", i, j,
                                                   (unsigned long long)s->digests[i]);
}

/* "product": 2 seeds x 3 rates x 2 variants = 12 runs, the first axis
 * outermost and the last fastest; seeds and labels follow. */
static void test_product_runs_every_combination_last_axis_fastest(void **state) {
  (void)state;
  char *t = sweep_textf("{\"name\": \"p\", \"scenario\": %s, \"axes\": ["
                        " {\"seeds\": [5, 6]},"
                        " {\"name\": \"rate\", \"pointer\": \"/sensors/0/rate\", \"values\": [1, 2.5, 10]},"
                        " {\"name\": \"imu\", \"variants\": [{\"name\": \"slow\", \"set\": {\"/sensors/1/rate\": 50}},"
                        "   {\"name\": \"fast\", \"set\": {\"/sensors/1/rate\": 200}}]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, "p.json");
  static const char *const want[] = {
      "seed=5 rate=1 imu=slow",   "seed=5 rate=1 imu=fast",   "seed=5 rate=2.5 imu=slow", "seed=5 rate=2.5 imu=fast",
      "seed=5 rate=10 imu=slow",  "seed=5 rate=10 imu=fast",  "seed=6 rate=1 imu=slow",   "seed=6 rate=1 imu=fast",
      "seed=6 rate=2.5 imu=slow", "seed=6 rate=2.5 imu=fast", "seed=6 rate=10 imu=slow",  "seed=6 rate=10 imu=fast"};
  expect_labels(s, want, 12);
  for (size_t i = 0; i < 12; i++) assert_int_equal(s->seeds[i], i < 6 ? 5 : 6);
  expect_distinct_digests(s);
  assert_string_equal(sensim_sweep_name(s), "p");
  assert_int_equal(sensim_sweep_kind_of(s), SENSIM_SWEEP_SCENARIO);
  assert_int_equal(sensim_sweep_threads(s), 0);
  /* Run 9's document has every override of its label and nothing else. */
  cJSON *doc = NULL, *base = cJSON_Parse(kSweepScenario);
  SENSIM_OK_OR_FAIL(sensim_tools__sweep_resolve(s, 9, &doc));
  cJSON_ReplaceItemInObject(cJSON_GetObjectItem(base, "world"), "seed", cJSON_CreateNumber(6));
  cJSON *sensors = cJSON_GetObjectItem(base, "sensors");
  cJSON_ReplaceItemInObject(cJSON_GetArrayItem(sensors, 0), "rate", cJSON_CreateNumber(2.5));
  cJSON_ReplaceItemInObject(cJSON_GetArrayItem(sensors, 1), "rate", cJSON_CreateNumber(200));
  assert_true(cJSON_Compare(doc, base, 1));
  cJSON_Delete(doc);
  cJSON_Delete(base);
  sensim_sweep_destroy(s);
  free(t);
}

/* "list": value i of every axis together, 3 runs from three axes of 3. */
static void test_list_runs_value_i_of_every_axis_together(void **state) {
  (void)state;
  char *t = sweep_textf("{\"name\": \"l\", \"combine\": \"list\", \"scenario\": %s, \"axes\": ["
                        " {\"name\": \"s\", \"seeds\": {\"first\": 10, \"count\": 3}},"
                        " {\"name\": \"rate\", \"pointer\": \"/sensors/0/rate\", \"values\": [1, 2, 3]},"
                        " {\"name\": \"v\", \"variants\": [{\"name\": \"a\", \"set\": {}},"
                        "   {\"name\": \"b\", \"set\": {}}, {\"name\": \"c\", \"set\": {\"/duration\": 0.2}}]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, "l.json");
  static const char *const want[] = {"s=10 rate=1 v=a", "s=11 rate=2 v=b", "s=12 rate=3 v=c"};
  expect_labels(s, want, 3);
  for (size_t i = 0; i < 3; i++) assert_int_equal(s->seeds[i], 10 + i);
  expect_distinct_digests(s);
  sensim_sweep_destroy(s);
  free(t);
}

/* A seeds axis given as a list keeps its order; {first, count} counts up
 * from first, up to 2^53 exactly. */
static void test_seeds_axis_as_list_and_as_first_count(void **state) {
  (void)state;
  char *t = sweep_textf("{\"scenario\": %s, \"axes\": [{\"seeds\": [9, 0, 9007199254740992]}]}", kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, "a.json");
  static const char *const want[] = {"seed=9", "seed=0", "seed=9007199254740992"};
  expect_labels(s, want, 3);
  assert_int_equal(s->seeds[0], 9);
  assert_int_equal(s->seeds[1], 0);
  assert_true(s->seeds[2] == 9007199254740992ULL);
  sensim_sweep_destroy(s);
  free(t);
  t = sweep_textf("{\"scenario\": %s, \"axes\": [{\"name\": \"w\", \"seeds\": {\"first\": 9007199254740990, "
                  "\"count\": 3}}]}",
                  kSweepScenario);
  s = sweep_load_ok(t, "b.json");
  /* Labels print numbers as the shortest of 15..17 digits that reads
   * back: 2^53 - 2 needs only 15. */
  static const char *const want2[] = {"w=9.00719925474099e+15", "w=9007199254740991", "w=9007199254740992"};
  expect_labels(s, want2, 3);
  for (size_t i = 0; i < 3; i++) assert_true(s->seeds[i] == 9007199254740990ULL + i);
  expect_distinct_digests(s);
  sensim_sweep_destroy(s);
  free(t);
}

/* Without a seeds axis every run has the scenario's world seed (1 when it
 * gives none), and an axis that sets /world/seed sets the runs' seeds. */
static void test_without_seeds_axis_runs_take_the_documents_seed(void **state) {
  (void)state;
  char *t = sweep_textf("{\"scenario\": %s, \"axes\": [{\"name\": \"r\", \"pointer\": \"/sensors/0/rate\", "
                        "\"values\": [1, 2]}]}",
                        kSweepScenario);
  char *at = strstr(t, "\"seed\": 1");
  assert_non_null(at);
  at[8] = '7';
  sensim_sweep *s = sweep_load_ok(t, "a.json");
  assert_int_equal(s->seeds[0], 7);
  assert_int_equal(s->seeds[1], 7);
  sensim_sweep_destroy(s);
  free(t);
  s = sweep_load_ok("{\"scenario\": {\"duration\": 1}, \"axes\": [{\"name\": \"d\", \"pointer\": \"/duration\", "
                    "\"values\": [1, 2]}]}",
                    NULL);
  assert_int_equal(s->seeds[0], 1);
  assert_int_equal(s->seeds[1], 1);
  assert_string_equal(sensim_sweep_name(s), "sweep");
  sensim_sweep_destroy(s);
  s = sweep_load_ok("{\"scenario\": {\"world\": {}}, \"axes\": [{\"name\": \"ws\", \"pointer\": \"/world/seed\", "
                    "\"values\": [4, 9007199254740992]}]}",
                    NULL);
  assert_int_equal(s->seeds[0], 4);
  assert_true(s->seeds[1] == 9007199254740992ULL);
  sensim_sweep_destroy(s);
  /* No axes at all: one run, with an empty label. */
  s = sweep_load_ok("{\"scenario\": {\"world\": {\"seed\": 3}}}", NULL);
  static const char *const want[] = {""};
  expect_labels(s, want, 1);
  assert_int_equal(s->seeds[0], 3);
  sensim_sweep_destroy(s);
}

/* run_NNNN with at least 4 digits; a buffer without room for the name
 * and its NUL is EINVAL. */
static void test_run_dir_has_four_digits_or_more_and_checks_room(void **state) {
  (void)state;
  char buf[32];
  SENSIM_OK_OR_FAIL(sensim_sweep_run_dir(0, buf, sizeof buf));
  assert_string_equal(buf, "run_0000");
  SENSIM_OK_OR_FAIL(sensim_sweep_run_dir(7, buf, 9)); /* exactly fits */
  assert_string_equal(buf, "run_0007");
  SENSIM_OK_OR_FAIL(sensim_sweep_run_dir(9999, buf, sizeof buf));
  assert_string_equal(buf, "run_9999");
  SENSIM_OK_OR_FAIL(sensim_sweep_run_dir(12345, buf, sizeof buf));
  assert_string_equal(buf, "run_12345");
  SENSIM_OK_OR_FAIL(sensim_sweep_run_dir(999999, buf, sizeof buf));
  assert_string_equal(buf, "run_999999");
  assert_int_equal(sensim_sweep_run_dir(7, buf, 8), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "run 7");
  assert_int_equal(sensim_sweep_run_dir(12345, buf, 9), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_run_dir(0, buf, 0), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_run_dir(0, NULL, 16), SENSIM_EINVAL);
}

/* An ablation sweep's implicit "ablation" axis is outermost, in the order
 * "variants" lists; by default every variant. */
static void test_ablation_kind_adds_an_outermost_ablation_axis(void **state) {
  (void)state;
  char *t = sweep_textf("{\"experiment\": \"ablation\", \"scenario\": %s,"
                        " \"ablation\": {\"variants\": [\"noise_off\", \"baseline\"], \"frames\": 2},"
                        " \"axes\": [{\"seeds\": [1, 2]}, {\"name\": \"r\", \"pointer\": \"/sensors/0/rate\", "
                        "\"values\": [5, 10]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, "ab.json");
  static const char *const want[] = {
      "ablation=noise_off seed=1 r=5", "ablation=noise_off seed=1 r=10", "ablation=noise_off seed=2 r=5",
      "ablation=noise_off seed=2 r=10", "ablation=baseline seed=1 r=5",   "ablation=baseline seed=1 r=10",
      "ablation=baseline seed=2 r=5",  "ablation=baseline seed=2 r=10"};
  expect_labels(s, want, 8);
  assert_int_equal(sensim_sweep_kind_of(s), SENSIM_SWEEP_ABLATION);
  assert_int_equal(s->seeds[5], 1);
  assert_int_equal(s->seeds[6], 2);
  expect_distinct_digests(s);
  sensim_sweep_destroy(s);
  free(t);
  t = sweep_textf("{\"experiment\": \"ablation\", \"scenario\": %s, \"axes\": [{\"seeds\": [1, 2, 3]}]}",
                  kSweepScenario);
  s = sweep_load_ok(t, "ab.json");
  assert_int_equal(sensim_sweep_run_count(s), 3 * SENSIM_ABLATE_COUNT);
  for (int a = 0; a < SENSIM_ABLATE_COUNT; a++) {
    char want1[64];
    snprintf(want1, sizeof want1, "ablation=%s seed=3", sensim_ablation_name((sensim_ablation)a));
    assert_string_equal(sensim_sweep_run_label(s, 3 * (size_t)a + 2), want1);
  }
  sensim_sweep_destroy(s);
  free(t);
}

/* A vepd sweep's implicit axes come innermost, after the file's: model
 * (the reference first), manoeuvre (in the experiment's order whatever
 * the file's), k; seeds are seed + k, seed + K + k for the reference. */
static void test_vepd_kind_adds_model_manoeuvre_k_innermost(void **state) {
  (void)state;
  sensim_sweep *s = sweep_load_ok(
      "{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 2, \"seed\": 100, \"manoeuvres\": [\"half_sine\", \"straight\"],"
      " \"variants\": [{\"name\": \"a\", \"filters\": [{\"name\": \"gnss_noise\"}]},"
      "  {\"name\": \"b\", \"filters\": [{\"name\": \"gnss_hdop\"}]}], \"reference\": \"b\"},"
      " \"axes\": [{\"name\": \"g\", \"pointer\": \"/ekf/gnss_sigma\", \"values\": [0.1, 0.2]}]}",
      "v.json");
  assert_int_equal(sensim_sweep_kind_of(s), SENSIM_SWEEP_VEPD);
  /* 2 values x 3 models x 2 manoeuvres x K = 2 */
  assert_int_equal(sensim_sweep_run_count(s), 24);
  const char *models[] = {"reference", "a", "b"};
  const char *man[] = {"straight", "half_sine"};
  for (size_t i = 0; i < 24; i++) {
    size_t g = i / 12, model = i / 4 % 3, m = i / 2 % 2, k = i % 2;
    char want[128];
    snprintf(want, sizeof want, "g=%s model=%s manoeuvre=%s k=%zu", g ? "0.2" : "0.1", models[model], man[m], k);
    assert_string_equal(sensim_sweep_run_label(s, i), want);
    assert_int_equal(s->seeds[i], 100 + k + (model == 0 ? 2 : 0));
  }
  /* The reference's drives simulate variant "b"; their digests differ
   * from b's own (other seeds, other model label). */
  expect_distinct_digests(s);
  sensim_sweep_destroy(s);
  /* Defaults: the five published variants, all three manoeuvres, K 10. */
  s = sweep_load_ok("{\"experiment\": \"vepd\", \"vepd\": {}}", "d.json");
  assert_int_equal(sensim_sweep_run_count(s), 6 * 3 * 10);
  assert_string_equal(sensim_sweep_run_label(s, 0), "model=reference manoeuvre=straight k=0");
  assert_string_equal(sensim_sweep_run_label(s, 179), "model=random_walk_hdop manoeuvre=half_sine k=9");
  assert_int_equal(s->seeds[0], 11);
  assert_int_equal(s->seeds[179], 10);
  sensim_sweep_destroy(s);
  /* A real reference adds no model of its own. */
  s = sweep_load_ok("{\"experiment\": \"vepd\", \"vepd\": {\"runs\": 1, \"reference\": {\"real\": \"r\"},"
                    " \"variants\": [{\"name\": \"a\", \"filters\": [{\"name\": \"gnss_noise\"}]}]}}",
                    "d.json");
  assert_int_equal(sensim_sweep_run_count(s), 3);
  assert_string_equal(sensim_sweep_run_label(s, 2), "model=a manoeuvre=half_sine k=0");
  assert_int_equal(s->seeds[2], 1);
  sensim_sweep_destroy(s);
}

/* The name defaults to the file's stem (the source's for a text; "sweep"
 * without one); a given name wins. */
static void test_name_defaults_to_the_file_stem(void **state) {
  (void)state;
  char dir[] = SWEEP_TMP "/stem";
  sweep_fresh_dir(dir);
  char *t = sweep_textf("{\"scenario\": %s}", kSweepScenario);
  sweep_write_text(SWEEP_TMP "/stem/cart.noise.json", t);
  sensim_sweep *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_load(SWEEP_TMP "/stem/cart.noise.json", &s));
  assert_string_equal(sensim_sweep_name(s), "cart.noise");
  assert_int_equal(sensim_sweep_run_count(s), 1);
  sensim_sweep_destroy(s);
  const char *sources[][2] = {{"a/b/c.json", "c"}, {"plain", "plain"}, {".hidden", ".hidden"}, {"x.", "x"}};
  for (size_t i = 0; i < 4; i++) {
    s = sweep_load_ok(t, sources[i][0]);
    assert_string_equal(sensim_sweep_name(s), sources[i][1]);
    sensim_sweep_destroy(s);
  }
  free(t);
  t = sweep_textf("{\"name\": \"given\", \"scenario\": %s}", kSweepScenario);
  s = sweep_load_ok(t, "a/b/c.json");
  assert_string_equal(sensim_sweep_name(s), "given");
  sensim_sweep_destroy(s);
  free(t);
  assert_null(sensim_sweep_name(NULL));
  assert_int_equal(sensim_sweep_run_count(NULL), 0);
  assert_int_equal(sensim_sweep_threads(NULL), 0);
  assert_null(sensim_sweep_run_label(NULL, 0));
  sensim_sweep_destroy(NULL);
}

/* A scenario file is read relative to the sweep file, and a missing one
 * is ENOTFOUND naming it. */
static void test_scenario_file_resolves_against_the_sweep_file(void **state) {
  (void)state;
  sweep_fresh_dir(SWEEP_TMP "/rel");
  SENSIM_OK_OR_FAIL(sensim_mkdirs(SWEEP_TMP "/rel/scn"));
  sweep_write_text(SWEEP_TMP "/rel/scn/cart.json", kSweepScenario);
  sweep_write_text(SWEEP_TMP "/rel/s.json",
                   "// comments are allowed\n{\"scenario\": \"scn/cart.json\", /* here too */ \"threads\": 3,\n"
                   " \"axes\": [{\"seeds\": [1, 2]}]}\n");
  sensim_sweep *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_load(SWEEP_TMP "/rel/s.json", &s));
  assert_int_equal(sensim_sweep_run_count(s), 2);
  assert_int_equal(sensim_sweep_threads(s), 3);
  SENSIM_OK_OR_FAIL(sensim_sweep_set_threads(s, 1024));
  assert_int_equal(sensim_sweep_threads(s), 1024);
  SENSIM_OK_OR_FAIL(sensim_sweep_set_threads(s, 0));
  assert_int_equal(sensim_sweep_threads(s), 0);
  assert_int_equal(sensim_sweep_set_threads(s, -1), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "0..1024");
  assert_int_equal(sensim_sweep_set_threads(s, 1025), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_set_threads(NULL, 1), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_threads(s), 0);
  sensim_sweep_destroy(s);
  sweep_write_text(SWEEP_TMP "/rel/m.json", "{\"scenario\": \"scn/gone.json\"}");
  s = (sensim_sweep *)&s;
  assert_int_equal(sensim_sweep_load(SWEEP_TMP "/rel/m.json", &s), SENSIM_ENOTFOUND);
  assert_ptr_equal(s, (sensim_sweep *)&s);
  sweep_assert_contains(sensim_last_error(), "scn/gone.json");
  sweep_assert_contains(sensim_last_error(), "m.json");
}

int sensim_test_sweep_load(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_product_runs_every_combination_last_axis_fastest),
      cmocka_unit_test(test_list_runs_value_i_of_every_axis_together),
      cmocka_unit_test(test_seeds_axis_as_list_and_as_first_count),
      cmocka_unit_test(test_without_seeds_axis_runs_take_the_documents_seed),
      cmocka_unit_test(test_run_dir_has_four_digits_or_more_and_checks_room),
      cmocka_unit_test(test_ablation_kind_adds_an_outermost_ablation_axis),
      cmocka_unit_test(test_vepd_kind_adds_model_manoeuvre_k_innermost),
      cmocka_unit_test(test_name_defaults_to_the_file_stem),
      cmocka_unit_test(test_scenario_file_resolves_against_the_sweep_file),
  };
  return cmocka_run_group_tests_name("sweep_load", tests, NULL, NULL);
}
