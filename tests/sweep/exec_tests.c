/* tests/sweep/exec_tests.c: running a sweep's runs into a folder and
 * reducing their records: the manifest, failed runs, the folder's mark,
 * reruns by digest, stale files, and summary.csv to the byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"
#include "tools/sweep_internal.h"

#define EX SWEEP_TMP "/exec"

/* Two runs: seed 3 with sigma 0.2 (ok) and with sigma -1 (out of the
 * gnss_noise filter's domain: the run fails). */
static char *ex_text(const char *sigma1) {
  return sweep_textf("{\"name\": \"ex\", \"scenario\": %s, \"axes\": [{\"seeds\": [3]},"
                     " {\"name\": \"sigma\", \"pointer\": \"/sensors/0/filters/0/params/sigma\","
                     "  \"values\": [[0.2, 0.2, 0.4], %s]},"
                     " {\"name\": \"imu_rate\", \"variants\": [{\"name\": \"r100\", \"set\": {\"/sensors/1/rate\": "
                     "100}}]}]}",
                     kSweepScenario, sigma1);
}

static sensim_sweep *ex_sweep(const char *sigma1) {
  char *t = ex_text(sigma1);
  sensim_sweep *s = sweep_load_ok(t, "ex.json");
  free(t);
  return s;
}

static char *compact(const cJSON *j) {
  char *t = cJSON_PrintUnformatted(j);
  assert_non_null(t);
  return t;
}

static void assert_json_text(const cJSON *j, const char *want) {
  char *got = compact(j);
  if (strcmp(got, want) != 0) fail_msg("got %s\nexpected %s", got, want);
  free(got);
}

static char *manifest_path(const char *dir, size_t i) {
  char *p = sensim_tools__sweep_run_path(dir, i, "manifest.json");
  assert_non_null(p);
  return p;
}

/* The manifest holds who the run is, its parameters in file order, its
 * status and its results, and is the very text execute hands back. */
static void test_execute_writes_the_manifest_it_returns(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/m");
  sensim_sweep *s = ex_sweep("[0.5, 0.5, 1]");
  char *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/m", &rec));
  char *path = manifest_path(EX "/m", 0);
  char *file = test_slurp(path, NULL);
  assert_string_equal(rec, file);
  assert_int_equal(rec[strlen(rec) - 1], '\n');
  cJSON *m = sweep_parse(rec);
  const char *keys[] = {"sweep", "kind", "run", "digest", "seed", "parameters", "status", "results"};
  size_t k = 0;
  for (const cJSON *c = m->child; c; c = c->next, k++) {
    assert_true(k < 8);
    assert_string_equal(c->string, keys[k]);
  }
  assert_int_equal(k, 8);
  assert_string_equal(cJSON_GetObjectItem(m, "sweep")->valuestring, "ex");
  assert_string_equal(cJSON_GetObjectItem(m, "kind")->valuestring, "scenario");
  assert_true(cJSON_GetObjectItem(m, "run")->valuedouble == 0);
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s->digests[0]);
  assert_string_equal(cJSON_GetObjectItem(m, "digest")->valuestring, hex);
  assert_int_equal(strspn(hex, "0123456789abcdef"), 16);
  assert_true(cJSON_GetObjectItem(m, "seed")->valuedouble == 3);
  assert_json_text(cJSON_GetObjectItem(m, "parameters"), "{\"seed\":3,\"sigma\":[0.2,0.2,0.4],\"imu_rate\":\"r100\"}");
  assert_string_equal(cJSON_GetObjectItem(m, "status")->valuestring, "ok");
  assert_json_text(cJSON_GetObjectItem(m, "results"), "{\"sim_time\":0.3,\"frames\":{\"gnss\":4,\"imu\":31}}");
  /* The run wrote its sensors' output in its own folder. */
  assert_true(test_file_exists(EX "/m/run_0000/gnss"));
  assert_true(test_file_exists(EX "/m/run_0000/imu"));
  assert_false(test_file_exists(EX "/m/run_0001"));
  test_assert_no_temp_files(EX "/m/run_0000");
  cJSON_Delete(m);
  free(file);
  free(path);
  free(rec);
  /* Another run of the same sweep in another folder is the same record. */
  sweep_fresh_dir(EX "/m2");
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/m2/deeper", &rec));
  file = test_slurp(EX "/m/run_0000/manifest.json", NULL);
  assert_string_equal(rec, file);
  free(file);
  free(rec);
  rec = (char *)&rec;
  assert_int_equal(sensim_sweep_execute(s, 2, EX "/m", &rec), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "run 2 out of range");
  assert_int_equal(sensim_sweep_execute(NULL, 0, EX "/m", &rec), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_execute(s, 0, NULL, &rec), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_execute(s, 0, EX "/m", NULL), SENSIM_EINVAL);
  assert_ptr_equal(rec, (char *)&rec);
  sensim_sweep_destroy(s);
}

/* A value out of its domain fails that run only: execute returns OK and
 * the manifest says "failed" with the message, and no results. */
static void test_out_of_domain_value_is_recorded_as_a_failed_run(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/f");
  sensim_sweep *s = ex_sweep("[-1, -1, -1]");
  assert_int_equal(sensim_sweep_run_count(s), 2);
  char *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 1, EX "/f", &rec));
  cJSON *m = sweep_parse(rec);
  assert_string_equal(cJSON_GetObjectItem(m, "status")->valuestring, "failed");
  const char *err = cJSON_GetObjectItem(m, "error")->valuestring;
  sweep_assert_contains(err, "sigma");
  sweep_assert_contains(err, "-1");
  assert_null(cJSON_GetObjectItem(m, "results"));
  assert_json_text(cJSON_GetObjectItem(m, "parameters"), "{\"seed\":3,\"sigma\":[-1,-1,-1],\"imu_rate\":\"r100\"}");
  assert_true(cJSON_GetObjectItem(m, "run")->valuedouble == 1);
  assert_true(cJSON_GetObjectItem(m, "seed")->valuedouble == 3);
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)s->digests[1]);
  assert_string_equal(cJSON_GetObjectItem(m, "digest")->valuestring, hex);
  assert_true(s->digests[0] != s->digests[1]);
  char *file = test_slurp(EX "/f/run_0001/manifest.json", NULL);
  assert_string_equal(file, rec);
  /* A failed run is not complete: a rerun does it again. */
  char *keep = (char *)&keep;
  assert_int_equal(sensim_sweep_run_complete(s, EX "/f", 1, &keep), 0);
  assert_ptr_equal(keep, (char *)&keep);
  free(file);
  cJSON_Delete(m);
  free(rec);
  sensim_sweep_destroy(s);
}

/* prepare takes a new, empty or own folder and refuses any other. */
static void test_prepare_refuses_a_foreign_folder_and_takes_its_own(void **state) {
  (void)state;
  sensim_sweep *s = ex_sweep("[0.5, 0.5, 1]");
  test_remove_tree(EX "/p");
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, EX "/p/new/deep")); /* made */
  char *mark = test_slurp(EX "/p/new/deep/sweep.json", NULL);
  cJSON *spec = sweep_parse(mark);
  char *t0 = ex_text("[0.5, 0.5, 1]");
  cJSON *want = sweep_parse(t0);
  free(t0);
  assert_true(cJSON_Compare(spec, want, 1)); /* the file's text, as loaded */
  assert_string_equal(cJSON_GetObjectItem(spec, "name")->valuestring, "ex");
  cJSON_Delete(spec);
  cJSON_Delete(want);
  free(mark);
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, EX "/p/new/deep")); /* its own, again */
  SENSIM_OK_OR_FAIL(sensim_mkdirs(EX "/p/empty"));
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, EX "/p/empty"));
  /* A folder holding something else. */
  SENSIM_OK_OR_FAIL(sensim_mkdirs(EX "/p/other"));
  sweep_write_text(EX "/p/other/notes.txt", "mine");
  assert_int_equal(sensim_sweep_prepare(s, EX "/p/other"), SENSIM_ESTATE);
  sweep_assert_contains(sensim_last_error(), "p/other is not empty ('notes.txt', ...) and holds no sweep");
  assert_false(test_file_exists(EX "/p/other/sweep.json"));
  /* A folder of another sweep (its name is what tells). */
  char *t = sweep_textf("{\"name\": \"other\", \"scenario\": %s}", kSweepScenario);
  sensim_sweep *o = sweep_load_ok(t, NULL);
  free(t);
  assert_int_equal(sensim_sweep_prepare(o, EX "/p/empty"), SENSIM_ESTATE);
  sweep_assert_contains(sensim_last_error(), "holds sweep 'ex', not sweep 'other'");
  /* A sweep.json that is not a sweep's. */
  SENSIM_OK_OR_FAIL(sensim_mkdirs(EX "/p/junk"));
  sweep_write_text(EX "/p/junk/sweep.json", "not json");
  assert_int_equal(sensim_sweep_prepare(s, EX "/p/junk"), SENSIM_ESTATE);
  sweep_assert_contains(sensim_last_error(), "a sweep.json that does not read as a sweep's, not sweep 'ex'");
  char *junk = test_slurp(EX "/p/junk/sweep.json", NULL);
  assert_string_equal(junk, "not json");
  free(junk);
  /* A path that cannot be a folder. */
  sweep_write_text(EX "/p/file", "x");
  assert_int_not_equal(sensim_sweep_prepare(s, EX "/p/file/sub"), SENSIM_OK);
  assert_int_equal(sensim_sweep_prepare(s, ""), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_prepare(NULL, EX "/p/empty"), SENSIM_EINVAL);
  sensim_sweep_destroy(o);
  sensim_sweep_destroy(s);
}

/* A run is complete when its manifest says ok with the digest the run has
 * now: a changed value makes exactly the runs that use it stale. */
static void test_run_complete_detects_stale_digests_and_failed_runs(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/c");
  char *t = sweep_textf("{\"name\": \"c\", \"scenario\": %s, \"axes\": [{\"seeds\": [1, 2]}, {\"name\": \"d\", "
                        "\"pointer\": \"/duration\", \"values\": [0.2, 0.3]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, NULL);
  for (size_t i = 0; i < 4; i++) assert_int_equal(sensim_sweep_run_complete(s, EX "/c", i, NULL), 0);
  char *recs[4] = {NULL};
  for (size_t i = 0; i < 4; i++) SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, i, EX "/c", &recs[i]));
  for (size_t i = 0; i < 4; i++) {
    /* Each record names its own run, seed and value. */
    cJSON *m = sweep_parse(recs[i]);
    assert_true(cJSON_GetObjectItem(m, "run")->valuedouble == (double)i);
    assert_true(cJSON_GetObjectItem(m, "seed")->valuedouble == (i < 2 ? 1 : 2));
    char want_par[64];
    snprintf(want_par, sizeof want_par, "{\"seed\":%d,\"d\":%s}", i < 2 ? 1 : 2, i % 2 ? "0.3" : "0.2");
    assert_json_text(cJSON_GetObjectItem(m, "parameters"), want_par);
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "results"), "sim_time")->valuedouble == (i % 2 ? 0.3 : 0.2));
    cJSON_Delete(m);
  }
  for (size_t i = 0; i < 4; i++) {
    char *got = NULL;
    assert_int_equal(sensim_sweep_run_complete(s, EX "/c", i, &got), 1);
    assert_string_equal(got, recs[i]);
    free(got);
    assert_int_equal(sensim_sweep_run_complete(s, EX "/c", i, NULL), 1);
  }
  assert_int_equal(sensim_sweep_run_complete(s, EX "/c", 4, NULL), 0);
  assert_int_equal(sensim_sweep_run_complete(NULL, EX "/c", 0, NULL), 0);
  assert_int_equal(sensim_sweep_run_complete(s, NULL, 0, NULL), 0);
  /* 0.3 -> 0.25: runs 1 and 3 are stale, 0 and 2 still complete. */
  char *t2 = sweep_textf("{\"name\": \"c\", \"scenario\": %s, \"axes\": [{\"seeds\": [1, 2]}, {\"name\": \"d\", "
                         "\"pointer\": \"/duration\", \"values\": [0.2, 0.25]}]}",
                         kSweepScenario);
  sensim_sweep *s2 = sweep_load_ok(t2, NULL);
  int want[4] = {1, 0, 1, 0};
  for (size_t i = 0; i < 4; i++) assert_int_equal(sensim_sweep_run_complete(s2, EX "/c", i, NULL), want[i]);
  /* A change to the base document makes every run stale; so does the
   * same sweep under another name. */
  char *t3 = sweep_textf("{\"name\": \"c\", \"scenario\": %s, \"axes\": [{\"seeds\": [1, 2]}, {\"name\": \"d\", "
                         "\"pointer\": \"/duration\", \"values\": [0.2, 0.3]}]}",
                         kSweepScenario);
  char *at = strstr(t3, "\"rate\": 100");
  assert_non_null(at);
  at[9] = '2'; /* the IMU at 120 Hz */
  sensim_sweep *s3 = sweep_load_ok(t3, NULL);
  sensim_sweep *s4 = sweep_load_ok(t + 0, "renamed.json"); /* name "c" is in the text: same sweep */
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(sensim_sweep_run_complete(s3, EX "/c", i, NULL), 0);
    assert_int_equal(sensim_sweep_run_complete(s4, EX "/c", i, NULL), 1);
  }
  char *t5 = sweep_textf("{\"name\": \"c2\", \"scenario\": %s, \"axes\": [{\"seeds\": [1, 2]}, {\"name\": \"d\", "
                         "\"pointer\": \"/duration\", \"values\": [0.2, 0.3]}]}",
                         kSweepScenario);
  sensim_sweep *s5 = sweep_load_ok(t5, NULL);
  assert_int_equal(sensim_sweep_run_complete(s5, EX "/c", 0, NULL), 0);
  /* A manifest that does not read, or reads as another run's. */
  sweep_write_text(EX "/c/run_0000/manifest.json", "{\"status\": \"ok\"");
  assert_int_equal(sensim_sweep_run_complete(s, EX "/c", 0, NULL), 0);
  sweep_write_text(EX "/c/run_0000/manifest.json", recs[2]);
  assert_int_equal(sensim_sweep_run_complete(s, EX "/c", 0, NULL), 0);
  /* A manifest with status "failed" but the right digest. */
  char *failed = strdup(recs[1]);
  char *ok = strstr(failed, "\"status\":\t\"ok\"");
  if (!ok) ok = strstr(failed, "\"status\": \"ok\"");
  assert_non_null(ok);
  memcpy(strstr(ok, "\"ok\""), "\"no\"", 4);
  sweep_write_text(EX "/c/run_0001/manifest.json", failed);
  assert_int_equal(sensim_sweep_run_complete(s, EX "/c", 1, NULL), 0);
  free(failed);
  for (size_t i = 0; i < 4; i++) free(recs[i]);
  sensim_sweep_destroy(s);
  sensim_sweep_destroy(s2);
  sensim_sweep_destroy(s3);
  sensim_sweep_destroy(s4);
  sensim_sweep_destroy(s5);
  free(t);
  free(t2);
  free(t3);
  free(t5);
}

/* Records name their parameters by axis and variant names, so a renamed
 * axis makes every run stale, and a renamed variant the runs that use it. */
static void test_renamed_axes_and_variants_make_their_runs_stale(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/n");
  static const char fmt[] = "{\"name\": \"n\", \"scenario\": %s, \"axes\": [{\"name\": \"%s\", \"pointer\": "
                            "\"/duration\", \"values\": [0.2]}, {\"name\": \"v\", \"variants\": ["
                            "{\"name\": \"%s\", \"set\": {\"/world/seed\": 4}}, "
                            "{\"name\": \"b\", \"set\": {\"/world/seed\": 5}}]}]}";
  char *t = sweep_textf(fmt, kSweepScenario, "d", "a");
  sensim_sweep *s = sweep_load_ok(t, NULL);
  for (size_t i = 0; i < 2; i++) {
    char *rec = NULL;
    SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, i, EX "/n", &rec));
    free(rec);
  }
  char *t_axis = sweep_textf(fmt, kSweepScenario, "duration", "a");
  char *t_variant = sweep_textf(fmt, kSweepScenario, "d", "a2");
  sensim_sweep *s_axis = sweep_load_ok(t_axis, NULL), *s_variant = sweep_load_ok(t_variant, NULL);
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(sensim_sweep_run_complete(s, EX "/n", i, NULL), 1);
    assert_int_equal(sensim_sweep_run_complete(s_axis, EX "/n", i, NULL), 0);
    assert_int_equal(sensim_sweep_run_complete(s_variant, EX "/n", i, NULL), i == 1);
  }
  sensim_sweep_destroy(s);
  sensim_sweep_destroy(s_axis);
  sensim_sweep_destroy(s_variant);
  free(t);
  free(t_axis);
  free(t_variant);
}

/* execute empties the run's folder first: what a failed or stale attempt
 * left (files, folders) is gone; other runs' folders are untouched. */
static void test_execute_empties_the_run_folder_of_stale_files(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/e");
  sensim_sweep *s = ex_sweep("[0.5, 0.5, 1]");
  SENSIM_OK_OR_FAIL(sensim_mkdirs(EX "/e/run_0000/old/deeper"));
  SENSIM_OK_OR_FAIL(sensim_mkdirs(EX "/e/run_0000/gnss"));
  SENSIM_OK_OR_FAIL(sensim_mkdirs(EX "/e/run_0001"));
  sweep_write_text(EX "/e/run_0000/old/deeper/x.csv", "stale");
  sweep_write_text(EX "/e/run_0000/gnss/frame_9999.csv", "stale");
  sweep_write_text(EX "/e/run_0000/manifest.json", "{}");
  sweep_write_text(EX "/e/run_0001/keep.txt", "other run");
  char *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/e", &rec));
  assert_false(test_file_exists(EX "/e/run_0000/old"));
  assert_false(test_file_exists(EX "/e/run_0000/gnss/frame_9999.csv"));
  assert_true(test_file_exists(EX "/e/run_0001/keep.txt"));
  /* What is left is exactly what a run into a fresh folder writes. */
  sweep_fresh_dir(EX "/e2");
  char *rec2 = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/e2", &rec2));
  char *a = sweep_tree(EX "/e/run_0000", NULL), *b = sweep_tree(EX "/e2/run_0000", NULL);
  assert_string_equal(a, b);
  free(a);
  free(b);
  free(rec);
  free(rec2);
  sensim_sweep_destroy(s);
}

/* summary.csv to the byte: a header of every column, one row per run in
 * index order: ok with results, failed with its error, missing for a NULL
 * record; JSON-array values and names with commas or quotes quoted per
 * RFC 4180. */
static void test_reduce_writes_summary_csv_exactly(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/r");
  char *t = sweep_textf("{\"name\": \"red\", \"combine\": \"list\", \"scenario\": %s, \"axes\": ["
                        " {\"seeds\": [3, 4, 5]},"
                        " {\"name\": \"sigma\", \"pointer\": \"/sensors/0/filters/0/params/sigma\","
                        "  \"values\": [[0.2, 0.2, 0.4], [-1, 0.5, 0.5], [0.5, 0.5, 1]]},"
                        " {\"name\": \"imu,cfg\", \"variants\": [{\"name\": \"r\\\"1\", \"set\": {\"/sensors/1/rate\": 100}},"
                        "  {\"name\": \"r2\", \"set\": {}}, {\"name\": \"r3\", \"set\": {\"/duration\": 0.2}}]}]}",
                        kSweepScenario);
  sensim_sweep *s = sweep_load_ok(t, NULL);
  free(t);
  char *recs[3] = {NULL};
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, EX "/r"));
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/r", &recs[0]));
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 1, EX "/r", &recs[1]));
  cJSON *m1 = sweep_parse(recs[1]);
  const char *err = cJSON_GetObjectItem(m1, "error")->valuestring;
  sensim_sweep_totals tot = {9, 9, 9, 9};
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, EX "/r", recs, &tot));
  assert_int_equal(tot.runs, 3);
  assert_int_equal(tot.ok, 1);
  assert_int_equal(tot.failed, 1);
  assert_int_equal(tot.missing, 1);
  char *got = test_slurp(EX "/r/summary.csv", NULL);
  char want[4096];
  snprintf(want, sizeof want,
           "run,status,seed,sigma,\"imu,cfg\",world_seed,sim_time,frames_gnss,frames_imu,error\n"
           "run_0000,ok,3,\"[0.2,0.2,0.4]\",\"r\"\"1\",3,0.3,4,31,\n"
           "run_0001,failed,4,\"[-1,0.5,0.5]\",r2,4,,,,%s\n"
           "run_0002,missing,5,\"[0.5,0.5,1]\",r3,5,,,,\n",
           err);
  assert_string_equal(got, want);
  assert_null(strpbrk(err, ",\"\n\r")); /* so it needs no quoting above */
  test_assert_no_temp_files(EX "/r");
  cJSON_Delete(m1);
  free(got);
  for (size_t i = 0; i < 3; i++) free(recs[i]);
  sensim_sweep_destroy(s);
}

/* A failed run's message with a comma, a quote and a line break is one
 * quoted field, its quotes doubled. */
static void test_reduce_quotes_an_error_with_comma_quote_and_newline(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/q");
  sensim_sweep *s = ex_sweep("[-1, -1, -1]");
  char *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/q", &rec));
  cJSON *m = sweep_parse(rec);
  cJSON_ReplaceItemInObject(m, "status", cJSON_CreateString("failed"));
  cJSON_DeleteItemFromObject(m, "results");
  cJSON_AddStringToObject(m, "error", "bad \"x\", see\nline 2");
  char *recs[2] = {compact(m), NULL};
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, EX "/q", recs, NULL));
  char *got = test_slurp(EX "/q/summary.csv", NULL);
  assert_string_equal(got,
                      "run,status,seed,sigma,imu_rate,world_seed,sim_time,error\n"
                      "run_0000,failed,3,\"[0.2,0.2,0.4]\",r100,3,,\"bad \"\"x\"\", see\nline 2\"\n"
                      "run_0001,missing,3,\"[-1,-1,-1]\",r100,3,,\n");
  free(got);
  free(recs[0]);
  /* Each of the four characters alone calls for quotes. */
  const char *errs[][2] = {{"a\nb", "\"a\nb\""}, {"a\rb", "\"a\rb\""}, {"a,b", "\"a,b\""},
                           {"a\"b", "\"a\"\"b\""}, {"a;b 'c'", "a;b 'c'"}};
  for (size_t i = 0; i < 5; i++) {
    cJSON_ReplaceItemInObject(m, "error", cJSON_CreateString(errs[i][0]));
    recs[0] = compact(m);
    SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, EX "/q", recs, NULL));
    free(recs[0]);
    got = test_slurp(EX "/q/summary.csv", NULL);
    char want[512];
    snprintf(want, sizeof want, "\nrun_0000,failed,3,\"[0.2,0.2,0.4]\",r100,3,,%s\nrun_0001,", errs[i][1]);
    sweep_assert_contains(got, want);
    free(got);
  }
  cJSON_Delete(m);
  free(rec);
  sensim_sweep_destroy(s);
}

/* reduce takes run i's record for run i only: a record of another run or
 * sweep, or one that does not parse, is EINVAL naming the run, and no
 * summary is written. */
static void test_reduce_rejects_a_record_of_another_run_or_sweep(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/x");
  sensim_sweep *s = ex_sweep("[0.5, 0.5, 1]");
  char *r0 = NULL, *r1 = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/x", &r0));
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 1, EX "/x", &r1));
  char *swapped[2] = {r0, r0};
  sensim_sweep_totals tot = {7, 7, 7, 7};
  assert_int_equal(sensim_sweep_reduce(s, EX "/x", swapped, &tot), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "sweep 'ex': the record given for run_0001 is not that run's");
  assert_int_equal(tot.runs, 7); /* untouched */
  assert_false(test_file_exists(EX "/x/summary.csv"));
  /* Same index and kind, another sweep. */
  char *t = ex_text("[0.5, 0.5, 1]");
  char *at = strstr(t, "\"name\": \"ex\"");
  memcpy(at, "\"name\": \"ey\"", 12);
  sensim_sweep *o = sweep_load_ok(t, NULL);
  free(t);
  char *o1 = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(o, 1, EX "/x2", &o1));
  char *mixed[2] = {r0, o1};
  assert_int_equal(sensim_sweep_reduce(s, EX "/x", mixed, NULL), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "run_0001");
  /* Same sweep name, another digest (a changed value). */
  sensim_sweep *c = ex_sweep("[0.6, 0.5, 1]");
  char *good[2] = {r0, r1};
  assert_int_equal(sensim_sweep_reduce(c, EX "/x", good, NULL), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "run_0001");
  char *junk[2] = {r0, "{not json"};
  assert_int_equal(sensim_sweep_reduce(s, EX "/x", junk, NULL), SENSIM_EINVAL);
  sweep_assert_contains(sensim_last_error(), "sweep 'ex': run_0001's record does not parse as JSON");
  assert_false(test_file_exists(EX "/x/summary.csv"));
  assert_int_equal(sensim_sweep_reduce(NULL, EX "/x", good, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_reduce(s, NULL, good, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_sweep_reduce(s, EX "/x", NULL, NULL), SENSIM_EINVAL);
  /* The right records reduce. */
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, EX "/x", good, &tot));
  assert_int_equal(tot.ok, 2);
  assert_int_equal(tot.failed + tot.missing, 0);
  free(r0);
  free(r1);
  free(o1);
  sensim_sweep_destroy(o);
  sensim_sweep_destroy(c);
  sensim_sweep_destroy(s);
}

/* execute returns EIO, recording nothing, when the run's folder cannot
 * be made (out_dir is a file). */
static void test_execute_is_eio_when_the_run_folder_cannot_be_made(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/io");
  sweep_write_text(EX "/io/file", "x");
  sensim_sweep *s = ex_sweep("[0.5, 0.5, 1]");
  char *rec = (char *)&rec;
  assert_int_equal(sensim_sweep_execute(s, 0, EX "/io/file", &rec), SENSIM_EIO);
  assert_ptr_equal(rec, (char *)&rec);
  sweep_assert_contains(sensim_last_error(), "sweep 'ex' run 0");
  sensim_sweep_destroy(s);
}

/* An ablation run renders the edited scenario: the manifest's kind is
 * "ablation", "ablation" leads its parameters, its results say what the
 * variant changed; the summary's ablation column comes first. A scenario
 * without a camera fails every run, recorded. */
static void test_ablation_runs_record_their_variant_and_changes(void **state) {
  (void)state;
  sweep_fresh_dir(EX "/ab");
  static const char scene[] =
      "{\"world\": {\"seed\": 2, \"background\": [0.5, 0.5, 0.5]}, \"duration\": 0.25,"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 10, \"width\": 8, \"height\": 6,"
      "  \"hfov_deg\": 60, \"samples\": 1, \"filters\": [{\"name\": \"image_sensor\"}, {\"name\": \"noise_emva1288\"},"
      "  {\"name\": \"quantize\"}]}]}";
  char *t = sweep_textf("{\"name\": \"ab\", \"experiment\": \"ablation\", \"scenario\": %s,"
                        " \"ablation\": {\"variants\": [\"baseline\", \"noise_off\"]},"
                        " \"axes\": [{\"seeds\": [4]}]}",
                        scene);
  sensim_sweep *s = sweep_load_ok(t, NULL);
  free(t);
  char *recs[2] = {NULL, NULL};
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, EX "/ab"));
  for (size_t i = 0; i < 2; i++) SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, i, EX "/ab", &recs[i]));
  cJSON *m0 = sweep_parse(recs[0]), *m1 = sweep_parse(recs[1]);
  assert_string_equal(cJSON_GetObjectItem(m1, "kind")->valuestring, "ablation");
  assert_json_text(cJSON_GetObjectItem(m0, "parameters"), "{\"ablation\":\"baseline\",\"seed\":4}");
  assert_json_text(cJSON_GetObjectItem(m1, "parameters"), "{\"ablation\":\"noise_off\",\"seed\":4}");
  assert_string_equal(cJSON_GetObjectItem(m1, "status")->valuestring, "ok");
  cJSON *r0 = cJSON_GetObjectItem(m0, "results"), *r1 = cJSON_GetObjectItem(m1, "results");
  assert_string_equal(cJSON_GetObjectItem(r0, "changes")->valuestring, "");
  sweep_assert_contains(cJSON_GetObjectItem(r1, "changes")->valuestring, "noise_emva1288");
  assert_json_text(cJSON_GetObjectItem(r1, "frames"), "{\"cam\":3}");
  assert_true(test_file_exists(EX "/ab/run_0001/cam"));
  sensim_sweep_totals tot;
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, EX "/ab", recs, &tot));
  char *sum = test_slurp(EX "/ab/summary.csv", NULL);
  assert_string_equal(sum,
                      "run,status,ablation,seed,world_seed,sim_time,frames_cam,error\n"
                      "run_0000,ok,baseline,4,4,0.25,3,\n"
                      "run_0001,ok,noise_off,4,4,0.25,3,\n");
  free(sum);
  cJSON_Delete(m0);
  cJSON_Delete(m1);
  for (size_t i = 0; i < 2; i++) free(recs[i]);
  sensim_sweep_destroy(s);
  /* No camera: the edit refuses, the run is recorded failed. */
  t = sweep_textf("{\"name\": \"ab\", \"experiment\": \"ablation\", \"scenario\": %s,"
                  " \"ablation\": {\"variants\": [\"noise_off\"]}}",
                  kSweepScenario);
  s = sweep_load_ok(t, NULL);
  free(t);
  char *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, 0, EX "/ab2", &rec));
  cJSON *m = sweep_parse(rec);
  assert_string_equal(cJSON_GetObjectItem(m, "status")->valuestring, "failed");
  sweep_assert_contains(cJSON_GetObjectItem(m, "error")->valuestring, "camera");
  cJSON_Delete(m);
  free(rec);
  sensim_sweep_destroy(s);
}

int sensim_test_sweep_exec(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_execute_writes_the_manifest_it_returns),
      cmocka_unit_test(test_out_of_domain_value_is_recorded_as_a_failed_run),
      cmocka_unit_test(test_prepare_refuses_a_foreign_folder_and_takes_its_own),
      cmocka_unit_test(test_run_complete_detects_stale_digests_and_failed_runs),
      cmocka_unit_test(test_renamed_axes_and_variants_make_their_runs_stale),
      cmocka_unit_test(test_execute_empties_the_run_folder_of_stale_files),
      cmocka_unit_test(test_reduce_writes_summary_csv_exactly),
      cmocka_unit_test(test_reduce_quotes_an_error_with_comma_quote_and_newline),
      cmocka_unit_test(test_reduce_rejects_a_record_of_another_run_or_sweep),
      cmocka_unit_test(test_execute_is_eio_when_the_run_folder_cannot_be_made),
      cmocka_unit_test(test_ablation_runs_record_their_variant_and_changes),
  };
  return cmocka_run_group_tests_name("sweep_exec", tests, NULL, NULL);
}
