/* tests/tools/table_tests.c: numeric CSV tables (sensim_tools/table.h):
 * columns by name in any order, comment and blank lines skipped, CRLF,
 * NaN only when allowed, and malformed files refused with file:line. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sensim_tools/table.h>
#include "support/testutil.h"

#define DIR_T SENSIM_TEST_TMP "/table"

static const char *write_file(const char *name, const char *text) {
  static char path[512];
  sensim_mkdirs(DIR_T);
  snprintf(path, sizeof path, "%s/%s", DIR_T, name);
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
  return path;
}

static void test_table_reads_columns_by_name_skipping_comments(void **state) {
  (void)state;
  const char *p = write_file("ok.csv", "# recorded by hand\r\n t , b,a\r\n\r\n0,1.5,-2\r\n# x\r\n1e-3,2,nan\r\n");
  sensim_table t;
  assert_int_equal(sensim_table_read(p, 0, &t), SENSIM_EINVAL); /* nan refused */
  assert_non_null(strstr(sensim_last_error(), "ok.csv:6"));
  SENSIM_OK_OR_FAIL(sensim_table_read(p, 1, &t));
  assert_int_equal(t.ncols, 3);
  assert_int_equal(t.nrows, 2);
  assert_int_equal(sensim_table_col(&t, "t"), 0);
  assert_int_equal(sensim_table_col(&t, "a"), 2);
  assert_int_equal(sensim_table_col(&t, "c"), -1);
  assert_int_equal(sensim_table_col(NULL, "a"), -1);
  assert_near(t.v[0 * 3 + 1], 1.5, 0);
  assert_near(t.v[1 * 3 + 0], 1e-3, 0);
  assert_true(isnan(t.v[1 * 3 + 2]));
  sensim_table_free(&t);
  assert_null(t.v);
  assert_int_equal(t.ncols, 0);
  sensim_table_free(NULL);
}

static void test_table_refuses_malformed_files_naming_the_line(void **state) {
  (void)state;
  sensim_table t;
  memset(&t, 0xab, sizeof t);
  sensim_table before = t;
  assert_int_equal(sensim_table_read(DIR_T "/missing.csv", 0, &t), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_table_read(write_file("short.csv", "a,b\n1,2\n3\n"), 0, &t), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "short.csv:3"));
  assert_int_equal(sensim_table_read(write_file("word.csv", "a,b\n1,x\n"), 0, &t), SENSIM_EPARSE);
  assert_int_equal(sensim_table_read(write_file("twice.csv", "a,a\n1,2\n"), 0, &t), SENSIM_EPARSE);
  assert_int_equal(sensim_table_read(write_file("empty.csv", "# nothing\n"), 0, &t), SENSIM_EPARSE);
  assert_int_equal(sensim_table_read(NULL, 0, &t), SENSIM_EINVAL);
  assert_memory_equal(&t, &before, sizeof t);
}

int sensim_test_table(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_reads_columns_by_name_skipping_comments),
      cmocka_unit_test(test_table_refuses_malformed_files_naming_the_line),
  };
  return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
