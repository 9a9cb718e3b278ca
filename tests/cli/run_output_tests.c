/* tests/cli/run_output_tests.c: what `sensim run` and `sensim demo` do
 * with their output: warnings about sensors that would write nothing
 * useful, and a non-empty output folder refused unless --force, which
 * replaces the scenario's sensor folders and keeps other files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/cli_run"
#define OUT TMP "/out.txt"
#define ERR TMP "/err.txt"

/* A small lidar whose chain ends in beams (no file layout) and no output,
 * and a GNSS receiver writing CSV. */
static const char scenario[] =
    "{\"world\": {\"threads\": 0}, \"duration\": 0.3, \"step\": 0.01,\n"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}}],\n"
    " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"static\": true,\n"
    "              \"pose\": {\"position\": [3, 0, 0]}}],\n"
    " \"sensors\": [\n"
    "  {\"name\": \"scanner\", \"type\": \"lidar\", \"rate\": 10, \"channels\": 4, \"columns\": 90},\n"
    "  {\"name\": \"gnss\", \"type\": \"gnss\", \"rate\": 10}]}\n";

static int setup(void **state) {
  (void)state;
  return test_fresh_dir_with_file(TMP, "beams.json", scenario);
}

static int run_split(const char *const *args, char **out, char **err) {
  return test_run_cli_read(OUT, ERR, args, out, err);
}

static void write_file(const char *path) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs("x\n", fp);
  fclose(fp);
}

static void test_run_warns_about_a_lidar_that_writes_nothing(void **state) {
  (void)state;
  const char *args[] = {"run", TMP "/beams.json", "--out", TMP "/warned", NULL};
  char *out, *err;
  assert_int_equal(run_split(args, &out, &err), 0);
  if (!strstr(err, "warning: sensors[0] 'scanner': its lidar frames end in beams"))
    fail_msg("no warning on stderr:\n%s", err);
  assert_null(strstr(out, "warning"));
  assert_true(test_file_exists(TMP "/warned/gnss/gnss.csv"));
  assert_false(test_file_exists(TMP "/warned/scanner"));
  free(out);
  free(err);
}

static void test_non_empty_output_folder_is_refused_unless_force(void **state) {
  (void)state;
  const char *first[] = {"run", TMP "/beams.json", "--out", TMP "/again", NULL};
  char *out, *err;
  assert_int_equal(run_split(first, &out, &err), 0);
  free(out);
  free(err);
  /* A stale file in a sensor's folder, and one of the user's own. */
  write_file(TMP "/again/gnss/stale.csv");
  write_file(TMP "/again/notes.txt");
  char *csv1 = test_slurp(TMP "/again/gnss/gnss.csv", NULL);

  assert_int_equal(run_split(first, &out, &err), 1);
  if (!strstr(err, "output folder '" TMP "/again' is not empty") || !strstr(err, "--force"))
    fail_msg("refusal lacks its reason:\n%s", err);
  assert_true(test_file_exists(TMP "/again/gnss/stale.csv")); /* nothing touched */
  free(out);
  free(err);

  const char *forced[] = {"run", TMP "/beams.json", "--out", TMP "/again", "--force", NULL};
  assert_int_equal(run_split(forced, &out, &err), 0);
  assert_false(test_file_exists(TMP "/again/gnss/stale.csv"));
  assert_true(test_file_exists(TMP "/again/notes.txt"));
  char *csv2 = test_slurp(TMP "/again/gnss/gnss.csv", NULL);
  assert_string_equal(csv1, csv2);
  free(csv1);
  free(csv2);
  free(out);
  free(err);

  /* The demo follows the same rule. */
  const char *demo[] = {"demo", "--out", TMP "/again", "--duration", "0.1", NULL};
  assert_int_equal(run_split(demo, &out, &err), 1);
  assert_non_null(strstr(err, "sensim demo: output folder"));
  assert_false(test_file_exists(TMP "/again/camera"));
  free(out);
  free(err);
}

int sensim_test_cli_run_output(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_run_warns_about_a_lidar_that_writes_nothing),
      cmocka_unit_test(test_non_empty_output_folder_is_refused_unless_force),
  };
  return cmocka_run_group_tests_name("cli_run_output", tests, setup, NULL);
}
