/* tests/cli/sweep_cli_tests.c: `sensim sweep` alone, run as a child
 * process: listing, usage and file errors, exit codes, failed runs
 * recorded, reruns, --threads leaving the bytes alone, the timing file.
 * The same command under MPI ranks is tests/sweep_ranks/run.sh's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/cli_sweep"
#define FAILING SENSIM_TEST_DATA "/../sweep_ranks/failing.json"
#define OUT TMP "/stdout.txt"
#define ERR TMP "/stderr.txt"

static int setup(void **state) {
  (void)state;
  test_remove_tree(TMP);
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static int run_split(const char *const *args, char **out, char **err) {
  return test_run_cli_read(OUT, ERR, args, out, err);
}

static void write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static size_t count(const char *text, const char *what) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

static void test_list_prints_every_run_and_writes_nothing(void **state) {
  (void)state;
  const char *args[] = {"sweep", FAILING, "--list", NULL};
  char *out, *err;
  assert_int_equal(run_split(args, &out, &err), 0);
  assert_string_equal(out, "sweep failing (scenario): 6 runs\n"
                           "run_0000  seed=1 sigma=[0.5,0.5,1]\n"
                           "run_0001  seed=1 sigma=[-1,1,1]\n"
                           "run_0002  seed=2 sigma=[0.5,0.5,1]\n"
                           "run_0003  seed=2 sigma=[-1,1,1]\n"
                           "run_0004  seed=3 sigma=[0.5,0.5,1]\n"
                           "run_0005  seed=3 sigma=[-1,1,1]\n");
  assert_string_equal(err, "");
  free(out);
  free(err);
}

static void test_bad_usage_exits_2_and_bad_files_exit_1_with_the_reason(void **state) {
  (void)state;
  static const struct {
    const char *args[8];
    int rc;
    const char *message;
  } cases[] = {
      {{"sweep", NULL}, 2, "needs a sweep file"},
      {{"sweep", FAILING, NULL}, 2, "--out DIR is required"},
      {{"sweep", FAILING, "--out", NULL}, 2, "needs a value"},
      {{"sweep", FAILING, "--out", "", NULL}, 2, "non-empty folder"},
      {{"sweep", FAILING, "--out", TMP "/x", "--threads", "2000", NULL}, 2, "--threads: expected an integer"},
      {{"sweep", FAILING, "b.json", "--out", TMP "/x", NULL}, 2, "unexpected argument 'b.json'"},
      {{"sweep", TMP "/missing.json", "--out", TMP "/x", NULL}, 1, "missing.json"},
      {{"sweep", TMP "/broken.json", "--out", TMP "/x", NULL}, 1, "broken.json:2:"},
      {{"sweep", TMP "/badaxis.json", "--out", TMP "/x", NULL}, 1, "axes[0] 'x'"},
  };
  write_text(TMP "/broken.json", "{\"scenario\": \"a.json\",\n  \"axes\": [}\n");
  write_text(TMP "/badaxis.json", "{\"scenario\": {\"duration\": 1, \"sensors\": []},\n"
                                  " \"axes\": [{\"name\": \"x\", \"pointer\": \"/sensors/3/rate\", \"values\": [1]}]}\n");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *out, *err;
    int rc = run_split(cases[i].args, &out, &err);
    if (rc != cases[i].rc) fail_msg("case %zu exited %d, expected %d: %s", i, rc, cases[i].rc, err);
    if (!strstr(err, cases[i].message)) fail_msg("case %zu: stderr lacks \"%s\":\n%s", i, cases[i].message, err);
    free(out);
    free(err);
  }
  /* Nothing was made for a sweep that could not start. */
  assert_false(test_file_exists(TMP "/x"));
}

/* Failed runs are recorded and the others run; the exit code says a run
 * failed; a rerun redoes exactly the failed ones; timing.csv has a row per
 * run and the other files do not depend on the invocation. */
static void test_failed_runs_are_recorded_exit_1_and_a_rerun_redoes_them(void **state) {
  (void)state;
  const char *args[] = {"sweep", FAILING, "--out", TMP "/f", NULL};
  char *out, *err;
  assert_int_equal(run_split(args, &out, &err), 1);
  assert_non_null(strstr(out, "6 runs, 0 complete from before, 6 to run"));
  assert_non_null(strstr(out, "6 runs: 3 ok, 3 failed, 0 missing"));
  assert_int_equal(count(out, " failed "), 3);
  assert_non_null(strstr(out, "run_0003 failed"));
  assert_non_null(strstr(out, "sigma[0] = -1 must be finite"));
  free(out);
  free(err);
  char *summary = test_slurp_if(TMP "/f/summary.csv", NULL);
  assert_non_null(summary);
  assert_int_equal(count(summary, ",failed,"), 3);
  assert_int_equal(count(summary, ",ok,"), 3);
  char *timing = test_slurp_if(TMP "/f/timing.csv", NULL);
  assert_non_null(timing);
  assert_non_null(strstr(timing, "# ranks 1,"));
  assert_int_equal(count(timing, ",ran,0,"), 6);
  free(timing);
  char *m0 = test_slurp_if(TMP "/f/run_0000/manifest.json", NULL);
  assert_non_null(m0);

  assert_int_equal(run_split(args, &out, &err), 1);
  assert_non_null(strstr(out, "6 runs, 3 complete from before, 3 to run"));
  assert_null(strstr(out, "run_0000 ok"));
  char *timing2 = test_slurp_if(TMP "/f/timing.csv", NULL);
  assert_int_equal(count(timing2, ",skipped,"), 3);
  assert_int_equal(count(timing2, ",ran,"), 3);
  char *summary2 = test_slurp_if(TMP "/f/summary.csv", NULL);
  assert_string_equal(summary2, summary);
  char *m0b = test_slurp_if(TMP "/f/run_0000/manifest.json", NULL);
  assert_string_equal(m0b, m0);
  free(out);
  free(err);
  free(summary);
  free(summary2);
  free(timing2);
  free(m0);
  free(m0b);
}

/* A sweep of good runs exits 0, and two worker threads per run give the
 * files one gives (timing.csv aside). */
static void test_every_run_ok_exits_0_and_threads_leave_the_bytes(void **state) {
  (void)state;
  char *text = test_slurp_if(FAILING, NULL);
  assert_non_null(text);
  char *bad = strstr(text, "[-1, 1, 1]");
  assert_non_null(bad);
  memcpy(bad, "[ 2, 2, 4]", 10);
  write_text(TMP "/good.json", text);
  free(text);
  const char *a0[] = {"sweep", TMP "/good.json", "--out", TMP "/g0", "--threads", "0", NULL};
  const char *a2[] = {"sweep", TMP "/good.json", "--out", TMP "/g2", "--threads", "2", NULL};
  char *out, *err;
  assert_int_equal(run_split(a0, &out, &err), 0);
  assert_non_null(strstr(out, "6 runs: 6 ok, 0 failed, 0 missing"));
  free(out);
  free(err);
  assert_int_equal(run_split(a2, &out, &err), 0);
  free(out);
  free(err);
  static const char *const files[] = {"summary.csv", "sweep.json", "run_0001/manifest.json", "run_0001/gnss/gnss.csv",
                                      "run_0005/gnss/gnss.csv"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char p0[256], p2[256];
    snprintf(p0, sizeof p0, TMP "/g0/%s", files[i]);
    snprintf(p2, sizeof p2, TMP "/g2/%s", files[i]);
    size_t n0, n2;
    char *x = test_slurp_if(p0, &n0), *y = test_slurp_if(p2, &n2);
    if (!x || !y || n0 != n2 || memcmp(x, y, n0) != 0) fail_msg("%s differs between 0 and 2 threads", files[i]);
    free(x);
    free(y);
  }
}

/* Another sweep's folder, or one holding other files, is refused and left
 * as it was. */
static void test_a_foreign_folder_is_refused_and_left_alone(void **state) {
  (void)state;
  assert_int_equal(sensim_mkdirs(TMP "/mine"), SENSIM_OK);
  write_text(TMP "/mine/notes.txt", "mine");
  const char *args[] = {"sweep", FAILING, "--out", TMP "/mine", NULL};
  char *out, *err;
  assert_int_equal(run_split(args, &out, &err), 1);
  assert_non_null(strstr(err, "notes.txt"));
  assert_false(test_file_exists(TMP "/mine/sweep.json"));
  free(out);
  free(err);
}

int sensim_test_cli_sweep(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list_prints_every_run_and_writes_nothing),
      cmocka_unit_test(test_bad_usage_exits_2_and_bad_files_exit_1_with_the_reason),
      cmocka_unit_test(test_failed_runs_are_recorded_exit_1_and_a_rerun_redoes_them),
      cmocka_unit_test(test_every_run_ok_exits_0_and_threads_leave_the_bytes),
      cmocka_unit_test(test_a_foreign_folder_is_refused_and_left_alone),
  };
  return cmocka_run_group_tests_name("cli_sweep", tests, setup, NULL);
}
