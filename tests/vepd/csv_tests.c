/* tests/vepd/csv_tests.c: run files (docs/vepd.md, "Run files"): round
 * trip, column order, and every way a file can be malformed. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sensim_tools/sensim_tools.h>
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

#define TMP SENSIM_TEST_TMP "/vepd_csv"

static void put(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static int setup(void **s) {
  (void)s;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static void test_run_write_then_read_is_exact(void **s) {
  (void)s;
  double t[5], e[10], v[10];
  for (int i = 0; i < 5; i++) {
    t[i] = 0.1 * i + 1e-9;
    for (int d = 0; d < 2; d++) {
      e[2 * i + d] = 1.0 / 3.0 * (i + d) - 1e-17;
      v[2 * i + d] = -0.1 * i * d + 1e300;
    }
  }
  sensim_vepd_run r = {5, 2, t, e, v}, back;
  SENSIM_OK_OR_FAIL(sensim_vepd_run_write(TMP "/rt.csv", &r));
  test_assert_no_temp_files(TMP);
  SENSIM_OK_OR_FAIL(sensim_vepd_run_read(TMP "/rt.csv", &back));
  assert_int_equal(back.n, 5);
  assert_int_equal(back.dim, 2);
  assert_memory_equal(back.t, t, sizeof t);
  assert_memory_equal(back.v_est, e, sizeof e);
  assert_memory_equal(back.v_true, v, sizeof v);
  sensim_vepd_run_free(&back);
}

static void test_run_read_takes_columns_by_name_in_any_order(void **s) {
  (void)s;
  put(TMP "/order.csv",
      "# a comment line\r\n"
      "v_true, extra ,t,v_est\r\n"
      "2.0,99,0.0,2.5\r\n"
      "\r\n"
      "2.1,99,0.1,2.4\r\n"
      "2.2,99,0.2,2.3\r\n");
  sensim_vepd_run r;
  SENSIM_OK_OR_FAIL(sensim_vepd_run_read(TMP "/order.csv", &r));
  assert_int_equal(r.n, 3);
  assert_int_equal(r.dim, 1);
  assert_true(r.t[2] == 0.2 && r.v_true[1] == 2.1 && r.v_est[0] == 2.5);
  sensim_vepd_run_free(&r);
  put(TMP "/d3.csv",
      "t,v_true_u,v_est_e,v_est_n,v_est_u,v_true_e,v_true_n\n"
      "0,1,2,3,4,5,6\n1,1,2,3,4,5,6\n2,1,2,3,4,5,7\n");
  SENSIM_OK_OR_FAIL(sensim_vepd_run_read(TMP "/d3.csv", &r));
  assert_int_equal(r.dim, 3);
  assert_true(r.v_est[3 * 2 + 2] == 4 && r.v_true[3 * 2 + 1] == 7 && r.v_true[2] == 1);
  sensim_vepd_run_free(&r);
}

static void expect_fail(const char *name, const char *text, sensim_status code) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", TMP, name);
  put(path, text);
  sensim_vepd_run r = {0};
  sensim_status st = sensim_vepd_run_read(path, &r);
  if (st != code) fail_msg("%s: got %d (%s), expected %d", name, st, sensim_last_error(), code);
  assert_true(strlen(sensim_last_error()) > 0);
  assert_null(r.t);
}

static void test_run_read_rejects_malformed_files(void **s) {
  (void)s;
  const char *rows = "0,1,1\n1,1,1\n2,1,1\n";
  char buf[256];
  expect_fail("empty.csv", "", SENSIM_EPARSE);
  snprintf(buf, sizeof buf, "t,v_est,speed\n%s", rows);
  expect_fail("nocol.csv", buf, SENSIM_EPARSE);
  expect_fail("short.csv", "t,v_est,v_true\n0,1,1\n1,1\n2,1,1\n", SENSIM_EPARSE);
  expect_fail("long.csv", "t,v_est,v_true\n0,1,1\n1,1,1,4\n2,1,1\n", SENSIM_EPARSE);
  expect_fail("text.csv", "t,v_est,v_true\n0,1,1\n1,fast,1\n2,1,1\n", SENSIM_EPARSE);
  expect_fail("emptyfield.csv", "t,v_est,v_true\n0,1,1\n1,,1\n2,1,1\n", SENSIM_EPARSE);
  expect_fail("dup.csv", "t,v_est,v_est\n0,1,1\n", SENSIM_EPARSE);
  expect_fail("nan.csv", "t,v_est,v_true\n0,1,1\n1,nan,1\n2,1,1\n", SENSIM_EINVAL);
  expect_fail("inf.csv", "t,v_est,v_true\n0,1,1\n1,1,-inf\n2,1,1\n", SENSIM_EINVAL);
  expect_fail("back.csv", "t,v_est,v_true\n0,1,1\n1,1,1\n1,1,1\n", SENSIM_EINVAL);
  expect_fail("two.csv", "t,v_est,v_true\n0,1,1\n1,1,1\n", SENSIM_EINVAL);
  sensim_vepd_run r;
  assert_int_equal(sensim_vepd_run_read(TMP "/does_not_exist.csv", &r), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_vepd_run_read(TMP "/rt.csv", NULL), SENSIM_EINVAL);
}

static void test_runs_read_dir_reads_csv_files_sorted_and_rejects_empty(void **s) {
  (void)s;
  const char *dir = TMP "/set";
  SENSIM_OK_OR_FAIL(sensim_mkdirs(dir));
  put(TMP "/set/b.csv", "t,v_est,v_true\n0,2,2\n1,2,2\n2,2,2\n3,2,2\n");
  put(TMP "/set/a.csv", "t,v_est,v_true\n0,1,1\n1,1,1\n2,1,1\n");
  put(TMP "/set/notes.txt", "not a run\n");
  sensim_vepd_run *runs = NULL;
  size_t n = 0;
  SENSIM_OK_OR_FAIL(sensim_vepd_runs_read_dir(dir, &runs, &n));
  assert_int_equal(n, 2);
  assert_int_equal(runs[0].n, 3);
  assert_int_equal(runs[1].n, 4);
  sensim_vepd_runs_free(runs, n);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/none"));
  assert_int_equal(sensim_vepd_runs_read_dir(TMP "/none", &runs, &n), SENSIM_EINVAL);
  assert_int_equal(sensim_vepd_runs_read_dir(TMP "/missing", &runs, &n), SENSIM_ENOTFOUND);
  /* One bad file fails the set, naming it. */
  put(TMP "/set/c.csv", "t,v_est,v_true\n0,1,1\n1,x,1\n2,1,1\n");
  assert_int_equal(sensim_vepd_runs_read_dir(dir, &runs, &n), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "c.csv"));
  remove(TMP "/set/c.csv");
}

static void test_run_write_rejects_bad_runs_and_leaves_no_file(void **s) {
  (void)s;
  double t[3] = {0, 1, 1}, e[3] = {0}, v[3] = {0};
  sensim_vepd_run r = {3, 1, t, e, v};
  assert_int_equal(sensim_vepd_run_write(TMP "/bad.csv", &r), SENSIM_EINVAL);
  assert_false(test_file_exists(TMP "/bad.csv"));
  t[2] = 2;
  assert_int_equal(sensim_vepd_run_write(TMP "/no/such/dir/x.csv", &r), SENSIM_EIO);
}

int sensim_test_vepd_csv(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_run_write_then_read_is_exact),
      cmocka_unit_test(test_run_read_takes_columns_by_name_in_any_order),
      cmocka_unit_test(test_run_read_rejects_malformed_files),
      cmocka_unit_test(test_runs_read_dir_reads_csv_files_sorted_and_rejects_empty),
      cmocka_unit_test(test_run_write_rejects_bad_runs_and_leaves_no_file),
  };
  return cmocka_run_group_tests_name("vepd_csv", tests, setup, NULL);
}
