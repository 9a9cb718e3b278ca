/* tests/cli/run_output_tests.c: what `sensim run` and `sensim demo` do
 * with their output: warnings about sensors that would write nothing
 * useful, and a non-empty output folder refused unless --force, which
 * replaces the scenario's sensor folders and keeps other files, and
 * refuses devices, FIFOs and folders a run did not make. */
/* mknod, makedev and S_IFCHR are XSI, beyond the project's POSIX level. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
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

/* --force replaces regular files and a run's own folders only: a FIFO or
 * a character device at the recording's path or a sensor's folder, and a
 * sensor-named folder the run did not make, are refused with or without
 * --force and left in place, with nothing removed. The device is made by
 * mknod in the scratch folder (a copy of /dev/null's numbers); where that
 * is not permitted, the FIFO cases alone run. */
static void test_force_refuses_devices_fifos_and_foreign_folders(void **state) {
  (void)state;
  char *out, *err;
  const char *first[] = {"run", TMP "/beams.json", "--out", TMP "/nodes", NULL};
  assert_int_equal(run_split(first, &out, &err), 0);
  free(out);
  free(err);
  assert_true(test_file_exists(TMP "/nodes/gnss/" SENSIM_RUN_FOLDER_MARK));
  assert_int_equal(mkfifo(TMP "/fifo.mcap", 0600), 0);
  int have_dev = mknod(TMP "/null.mcap", S_IFCHR | 0600, makedev(1, 3)) == 0;
  if (!have_dev) fprintf(stderr, "(mknod not permitted here: the character-device cases are skipped)\n");
  for (int force = 0; force < 2; force++)
    for (int dev = 0; dev <= have_dev; dev++) {
      const char *path = dev ? TMP "/null.mcap" : TMP "/fifo.mcap";
      const char *args[] = {"run", TMP "/beams.json", "--out", TMP "/rec_node", "--mcap", path,
                            force ? "--force" : NULL, NULL};
      assert_int_equal(run_split(args, &out, &err), 1);
      if (!strstr(err, dev ? "is a character device, not a regular file" : "is a FIFO, not a regular file"))
        fail_msg("refusal lacks its reason:\n%s", err);
      free(out);
      free(err);
      struct stat sb;
      assert_int_equal(lstat(path, &sb), 0);
      assert_true(dev ? S_ISCHR(sb.st_mode) : S_ISFIFO(sb.st_mode));
    }
  /* The library's own writers refuse such a path too. */
  sensim_atomic_file *af = NULL;
  assert_int_equal(sensim_atomic_file_open(TMP "/fifo.mcap", &af), SENSIM_EINVAL);
  assert_null(af);
  assert_non_null(strstr(sensim_last_error(), "FIFO"));

  /* A sensor's folder replaced by a FIFO, then by a folder of the user's:
   * refused, and the other sensor's folder (checked first or not) kept. */
  const char *forced[] = {"run", TMP "/beams.json", "--out", TMP "/nodes", "--force", NULL};
  test_remove_tree(TMP "/nodes/gnss");
  assert_int_equal(mkfifo(TMP "/nodes/gnss", 0600), 0);
  write_file(TMP "/nodes/scanner");
  assert_int_equal(run_split(forced, &out, &err), 1);
  if (!strstr(err, "'" TMP "/nodes/gnss' is a FIFO")) fail_msg("refusal lacks its reason:\n%s", err);
  assert_true(test_file_exists(TMP "/nodes/scanner"));
  free(out);
  free(err);
  assert_int_equal(unlink(TMP "/nodes/gnss"), 0);
  assert_int_equal(mkdir(TMP "/nodes/gnss", 0700), 0);
  write_file(TMP "/nodes/gnss/mine.txt");
  assert_int_equal(run_split(forced, &out, &err), 1);
  if (!strstr(err, "folder sensim did not make")) fail_msg("refusal lacks its reason:\n%s", err);
  assert_true(test_file_exists(TMP "/nodes/gnss/mine.txt"));
  free(out);
  free(err);
  /* A run's folder holding a FIFO is not removed either. */
  write_file(TMP "/nodes/gnss/" SENSIM_RUN_FOLDER_MARK);
  assert_int_equal(mkfifo(TMP "/nodes/gnss/pipe", 0600), 0);
  assert_int_equal(run_split(forced, &out, &err), 1);
  if (!strstr(err, "holds 'pipe', which is a FIFO")) fail_msg("refusal lacks its reason:\n%s", err);
  free(out);
  free(err);
  /* With only regular files there, --force replaces it (a regular file in
   * the scanner's place too). */
  assert_int_equal(unlink(TMP "/nodes/gnss/pipe"), 0);
  assert_int_equal(run_split(forced, &out, &err), 0);
  assert_false(test_file_exists(TMP "/nodes/gnss/mine.txt"));
  assert_false(test_file_exists(TMP "/nodes/scanner"));
  assert_true(test_file_exists(TMP "/nodes/gnss/gnss.csv"));
  free(out);
  free(err);
  if (have_dev) assert_int_equal(unlink(TMP "/null.mcap"), 0);
}

int sensim_test_cli_run_output(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_run_warns_about_a_lidar_that_writes_nothing),
      cmocka_unit_test(test_non_empty_output_folder_is_refused_unless_force),
      cmocka_unit_test(test_force_refuses_devices_fifos_and_foreign_folders),
  };
  return cmocka_run_group_tests_name("cli_run_output", tests, setup, NULL);
}
