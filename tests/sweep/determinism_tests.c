/* tests/sweep/determinism_tests.c: a run's output depends on the sweep and
 * its index alone: not on the order runs execute in, nor on the worker
 * threads; and numbers pass through manifests and tables exactly. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"
#include "tools/json_pointer.h"
#include "tools/sweep_internal.h"

#define DT SWEEP_TMP "/det"

static sensim_sweep *four_runs(void) {
  char *t = sweep_textf("{\"name\": \"det\", \"scenario\": %s, \"axes\": [{\"seeds\": {\"first\": 3, \"count\": 2}},"
                        " {\"name\": \"sigma\", \"pointer\": \"/sensors/0/filters/0/params/sigma\","
                        "  \"values\": [[0.2, 0.2, 0.4], [0.5, 0.5, 1]]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, "det.json");
  free(t);
  return s;
}

/* Runs executed last to first give the in-order tree, byte for byte
 * (sensor files, manifests, sweep.json, summary.csv), and the runs do
 * differ from each other where their seeds and sigmas say. */
static void test_reverse_order_gives_byte_identical_trees(void **state) {
  (void)state;
  sensim_sweep *s = four_runs();
  test_remove_tree(DT "/fwd");
  test_remove_tree(DT "/rev");
  sensim_sweep_totals a = sweep_run_all(s, DT "/fwd", NULL);
  const size_t rev[] = {3, 2, 1, 0};
  sensim_sweep_totals b = sweep_run_all(s, DT "/rev", rev);
  assert_int_equal(a.ok, 4);
  assert_int_equal(b.ok, 4);
  size_t na = 0, nb = 0;
  char *ta = sweep_tree(DT "/fwd", &na), *tb = sweep_tree(DT "/rev", &nb);
  assert_int_equal(na, nb);
  assert_memory_equal(ta, tb, na);
  sweep_assert_contains(ta, "summary.csv\n");
  sweep_assert_contains(ta, "run_0003/manifest.json\n");
  free(ta);
  free(tb);
  char *g[4];
  for (int i = 0; i < 4; i++) {
    char dir[128];
    snprintf(dir, sizeof dir, DT "/fwd/run_%04d/gnss", i);
    g[i] = sweep_tree(dir, NULL);
  }
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++)
      if (strcmp(g[i], g[j]) == 0) fail_msg("runs %d and %d wrote the same GNSS output", i, j);
  for (int i = 0; i < 4; i++) free(g[i]);
  sensim_sweep_destroy(s);
}

/* Worker threads per run change nothing a run writes. */
static void test_threads_do_not_change_a_runs_bytes(void **state) {
  (void)state;
  sensim_sweep *s = four_runs();
  test_remove_tree(DT "/t0");
  test_remove_tree(DT "/t2");
  char *r0 = NULL, *r2 = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 1, DT "/t0", &r0));
  SENSIM_OK_OR_FAIL(sensim_sweep_set_threads(s, 2));
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 1, DT "/t2", &r2));
  assert_string_equal(r0, r2);
  char *a = sweep_tree(DT "/t0", NULL), *b = sweep_tree(DT "/t2", NULL);
  assert_string_equal(a, b);
  free(a);
  free(b);
  free(r0);
  free(r2);
  sensim_sweep_destroy(s);
}

/* 0.1 + 1 ulp (15 digits would print it as 0.1) and a seed of 2^53 go into
 * the run, the manifest and the summary exactly, and read back to the
 * same doubles. */
static void test_numbers_round_trip_exactly_through_the_manifest(void **state) {
  (void)state;
  const double sig = nextafter(0.1, 1.0);
  char lit[40];
  snprintf(lit, sizeof lit, "%.17g", sig);
  assert_string_equal(lit, "0.10000000000000002");
  char *t = sweep_textf("{\"name\": \"num\", \"scenario\": %s, \"axes\": [{\"seeds\": [9007199254740992]},"
                        " {\"name\": \"sigma\", \"pointer\": \"/sensors/0/filters/0/params/sigma\","
                        "  \"values\": [[%s, 0.1, 1e-300]]}]}",
                        kSweepScenario, lit);
  sensim_sweep *s = sweep_load_ok(t, NULL);
  free(t);
  assert_string_equal(sensim_sweep_run_label(s, 0), "seed=9007199254740992 sigma=[0.10000000000000002,0.1,1e-300]");
  /* The document the run gets holds the very double. */
  cJSON *doc = NULL;
  SENSIM_OK_OR_FAIL(sensim_tools__sweep_resolve(s, 0, &doc));
  cJSON *sv = sensim_tools__json_pointer_get(doc, "/sensors/0/filters/0/params/sigma/0");
  assert_true(sv && sv->valuedouble == sig);
  assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "world"), "seed")->valuedouble == 9007199254740992.0);
  cJSON_Delete(doc);
  test_remove_tree(DT "/num");
  char *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, DT "/num"));
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, DT "/num", &rec));
  sweep_assert_contains(rec, "0.10000000000000002");
  sweep_assert_contains(rec, "9007199254740992");
  cJSON *m = sweep_parse(rec);
  assert_string_equal(cJSON_GetObjectItem(m, "status")->valuestring, "ok");
  assert_true(cJSON_GetObjectItem(m, "seed")->valuedouble == 9007199254740992.0);
  cJSON *ps = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "parameters"), "sigma");
  assert_true(cJSON_GetArrayItem(ps, 0)->valuedouble == sig);
  assert_true(cJSON_GetArrayItem(ps, 1)->valuedouble == 0.1);
  assert_true(cJSON_GetArrayItem(ps, 2)->valuedouble == 1e-300);
  assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "parameters"), "seed")->valuedouble == 9007199254740992.0);
  /* sweep.json keeps the digits too, so a reload is the same sweep. */
  char *mark = test_slurp(DT "/num/sweep.json", NULL);
  sweep_assert_contains(mark, "0.10000000000000002");
  sensim_sweep *again = sweep_load_ok(mark, "num.json");
  assert_true(again->digests[0] == s->digests[0]);
  assert_int_equal(sensim_sweep_run_complete(again, DT "/num", 0, NULL), 1);
  sensim_sweep_destroy(again);
  free(mark);
  char *recs[1] = {rec};
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, DT "/num", recs, NULL));
  char *sum = test_slurp(DT "/num/summary.csv", NULL);
  sweep_assert_contains(sum, "run_0000,ok,9007199254740992,\"[0.10000000000000002,0.1,1e-300]\",9007199254740992,");
  free(sum);
  cJSON_Delete(m);
  free(rec);
  sensim_sweep_destroy(s);
}

/* The digest is what the run computes, not where the sweep file is or
 * what it is called, and one changed character of the base changes it. */
static void test_digest_depends_on_the_run_not_on_the_source(void **state) {
  (void)state;
  char *t = sweep_textf("{\"name\": \"d\", \"scenario\": %s, \"axes\": [{\"seeds\": [1, 2]}]}", kSweepScenario);
  sensim_sweep *a = NULL, *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_load_string(t, "x/one.json", "/tmp", &a));
  SENSIM_OK_OR_FAIL(sensim_sweep_load_string(t, "y/two.json", NULL, &b));
  for (size_t i = 0; i < 2; i++) assert_true(a->digests[i] == b->digests[i]);
  assert_true(a->digests[0] != a->digests[1]);
  sensim_sweep_destroy(b);
  char *at = strstr(t, "\"duration\": 0.3");
  at[14] = '4';
  b = sweep_load_ok(t, NULL);
  for (size_t i = 0; i < 2; i++) assert_true(a->digests[i] != b->digests[i]);
  sensim_sweep_destroy(a);
  sensim_sweep_destroy(b);
  free(t);
}

int sensim_test_sweep_determinism(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reverse_order_gives_byte_identical_trees),
      cmocka_unit_test(test_threads_do_not_change_a_runs_bytes),
      cmocka_unit_test(test_numbers_round_trip_exactly_through_the_manifest),
      cmocka_unit_test(test_digest_depends_on_the_run_not_on_the_source),
  };
  return cmocka_run_group_tests_name("sweep_determinism", tests, NULL, NULL);
}
