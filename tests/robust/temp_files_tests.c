/* Left-over temporary files ("<name>.tmp-<pid>-<n>", io/fs.c) of a writer
 * that crashed are removed when a run or an atomic file starts writing into
 * their folder; those of a live process, this one included, never are. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

/* A pid that was a process and is no longer: a child that exited and was
 * reaped. (Its number could be reused by a new process at once, which
 * would only keep its file: the test then fails safe, not silently.) */
static pid_t dead_pid(void) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(0);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  return pid;
}

static void touch(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs("partial", fp);
  fclose(fp);
}

static int exists(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return test_file_exists(path);
}

static void fresh_dir(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(dir));
}

static void test_atomic_file_removes_a_dead_writers_leftovers_and_keeps_live_ones(void **state) {
  (void)state;
  const char *dir = SENSIM_TEST_TMP "/temp_atomic";
  fresh_dir(dir);
  char dead[128], mine[128], live[128];
  snprintf(dead, sizeof dead, "table.csv.tmp-%ld-7", (long)dead_pid());
  snprintf(mine, sizeof mine, "plot.png.tmp-%ld-0", (long)getpid());
  /* Another live process: a child that waits to be killed. */
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  snprintf(live, sizeof live, "run.json.tmp-%ld-3", (long)child);
  touch(dir, dead);
  touch(dir, mine);
  touch(dir, live);
  touch(dir, "notes.tmp-draft");   /* not a pid */
  touch(dir, "weird.tmp-0-1");     /* pid 0 would signal our process group */
  touch(dir, "data.csv");
  sensim_atomic_file *af = NULL;
  char target[256];
  snprintf(target, sizeof target, "%s/result.txt", dir);
  SENSIM_OK_OR_FAIL(sensim_atomic_file_open(target, &af));
  fputs("ok\n", sensim_atomic_file_stream(af));
  SENSIM_OK_OR_FAIL(sensim_atomic_file_commit(af));
  assert_false(exists(dir, dead));
  assert_true(exists(dir, mine));
  assert_true(exists(dir, live));
  assert_true(exists(dir, "notes.tmp-draft"));
  assert_true(exists(dir, "weird.tmp-0-1"));
  assert_true(exists(dir, "data.csv"));
  assert_true(exists(dir, "result.txt"));
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
}

static void test_scenario_run_removes_leftovers_in_its_output_and_sensor_folders(void **state) {
  (void)state;
  const char *out = SENSIM_TEST_TMP "/temp_run";
  fresh_dir(out);
  char sensor_dir[256];
  snprintf(sensor_dir, sizeof sensor_dir, "%s/imu", out);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(sensor_dir));
  char dead[128], mine[128];
  snprintf(dead, sizeof dead, "imu.csv.tmp-%ld-12", (long)dead_pid());
  snprintf(mine, sizeof mine, "imu.csv.tmp-%ld-999999", (long)getpid());
  touch(sensor_dir, dead);
  touch(sensor_dir, mine);
  touch(out, dead);
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      "{\"duration\": 0.05, \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"rate\": 100, "
      "\"output\": {\"format\": \"csv\"}}]}",
      NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, out, NULL, NULL, NULL));
  sensim_scenario_destroy(scn);
  assert_false(exists(sensor_dir, dead));
  assert_false(exists(out, dead));
  assert_true(exists(sensor_dir, mine));
  assert_true(exists(sensor_dir, "imu.csv"));
}

int sensim_test_robust_temp_files(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_atomic_file_removes_a_dead_writers_leftovers_and_keeps_live_ones),
      cmocka_unit_test(test_scenario_run_removes_leftovers_in_its_output_and_sensor_folders),
  };
  return cmocka_run_group_tests_name("robust_temp_files", tests, NULL, NULL);
}
