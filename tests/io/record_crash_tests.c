/* tests/io/record_crash_tests.c: recordings that do not end well. A
 * recording killed with SIGKILL leaves its temporary file; the next
 * writer in that folder keeps it aside as "x.partial-<pid>.mcap" rather
 * than sweeping it, and a streaming reader reads its whole chunks
 * (docs/recording.md, "When a run is killed"). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "io/mcap_writer.h" /* sensim__crc32 */
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/record_crash"

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static uint64_t le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Read a file that ends anywhere as a streaming reader does: records
 * from the leading magic while a whole one remains; every whole chunk
 * (uncompressed here) has its CRC right. Counts chunks and messages. */
static void salvage_read(const unsigned char *b, size_t n, int *chunks, int *messages) {
  static const unsigned char magic[8] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  assert_true(n >= 8);
  assert_memory_equal(b, magic, 8);
  *chunks = *messages = 0;
  for (size_t at = 8; at + 9 <= n;) {
    const uint64_t len = le64(b + at + 1);
    if (len > n - at - 9) break; /* the record being written when killed */
    const unsigned char *r = b + at + 9;
    if (b[at] == 0x06) {
      assert_int_equal(le32(r + 28), 0); /* no compression */
      const uint64_t rl = le64(r + 32);
      assert_int_equal(sensim__crc32(0, r + 40, rl), le32(r + 24));
      for (uint64_t k = 0; k < rl; k += 9 + le64(r + 40 + k + 1)) *messages += r[40 + k] == 0x05;
      (*chunks)++;
    }
    at += 9 + len;
  }
}

/* The child: records a moving body at 1 kHz into dir/run.mcap in 2 KiB
 * chunks, says so on the pipe after 1.5 s of it, and waits to be killed. */
static void record_until_killed(const char *path, int fd) {
  sensim_world *w = test_world(1, 3);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.compress = 0;
  rp.chunk_size = 2048;
  rp.tf_rate = 1000;
  sensim_recorder *r = NULL;
  if (sensim_body_create(w, &bp, &b) || sensim_recorder_open(path, w, &rp, &r) ||
      sensim_recorder_add_body(r, b, "cart"))
    _exit(2);
  for (int k = 0; k <= 1500; k++) {
    sensim_body_state s = test_state_xyzyaw(0.001 * k, 0, 0, 0);
    if (sensim_body_push_state(b, k * 1e-3, &s) || sensim_world_advance(w, k * 1e-3) ||
        sensim_recorder_advance(r, k * 1e-3))
      _exit(3);
  }
  if (write(fd, "r", 1) != 1) _exit(4);
  for (;;) pause();
}

static void test_killed_recording_is_kept_aside_and_its_chunks_read(void **state) {
  (void)state;
  const char *dir = TMP "/killed";
  sensim_mkdirs(dir);
  int p[2];
  assert_int_equal(pipe(p), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(p[0]);
    record_until_killed(TMP "/killed/run.mcap", p[1]);
  }
  close(p[1]);
  char c = 0;
  assert_int_equal(read(p[0], &c, 1), 1);
  close(p[0]);
  struct timespec pause_for = {0, 200000000}; /* the writer's thread finishes the chunk it was handed */
  nanosleep(&pause_for, NULL);
  assert_int_equal(kill(pid, SIGKILL), 0);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

  /* What the kill left: the temporary file alone. */
  char tmpname[512] = "";
  DIR *d = opendir(dir);
  assert_non_null(d);
  char prefix[64];
  snprintf(prefix, sizeof prefix, "run.mcap.tmp-%ld-", (long)pid);
  for (struct dirent *e; (e = readdir(d));)
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) snprintf(tmpname, sizeof tmpname, "%s/%s", dir, e->d_name);
  closedir(d);
  assert_true(tmpname[0]);
  size_t n0 = 0;
  char *before = test_slurp(tmpname, &n0);

  /* The next recording in that folder keeps it aside, bytes unchanged. */
  sensim_world *w = test_world(1, 4);
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(TMP "/killed/run.mcap", w, NULL, &r));
  struct stat st;
  assert_int_equal(stat(tmpname, &st), -1);
  char kept[512];
  snprintf(kept, sizeof kept, "%s/run.partial-%ld.mcap", dir, (long)pid);
  size_t n1 = 0;
  char *after = test_slurp(kept, &n1);
  assert_int_equal(n1, n0);
  assert_memory_equal(after, before, n0);
  int chunks, messages;
  salvage_read((const unsigned char *)after, n1, &chunks, &messages);
  if (chunks < 10 || messages < 100) fail_msg("kept %d whole chunks, %d messages", chunks, messages);
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  assert_int_equal(stat(TMP "/killed/run.mcap", &st), 0); /* the new one completed */
  free(before);
  free(after);
  sensim_world_destroy(w);
}

/* A small run: a cart with an IMU (its CSV in out/imu/). */
static const char *const RUN =
    "{\"duration\": 0.05, \"step\": 0.01,"
    " \"bodies\": [{\"name\": \"cart\", \"motion\": {\"type\": \"line\", \"start\": [0, 0, 0], \"velocity\": [1, 0, 0]}}],"
    " \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"cart\", \"rate\": 100}]}";

static sensim_status run_to(const char *out_dir, const char *mcap) {
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(RUN, NULL, &scn));
  sensim_scenario_run_options o;
  sensim_scenario_run_options_init(&o);
  o.out_dir = out_dir;
  o.mcap = mcap;
  sensim_status st = sensim_scenario_run_ex(scn, &o, NULL);
  sensim_scenario_destroy(scn);
  return st;
}

static int entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* A recording path whose folder is a regular file cannot be written
 * (ENOTDIR even for root, who ignores permissions): the run fails naming
 * the cause, "Not a directory", before any sensor folder exists; an
 * output folder it had to create is gone again, an existing one is as it
 * was. A recording inside a new output folder still works. */
static void test_unwritable_recording_fails_before_any_output_folder(void **state) {
  (void)state;
  const char *dir = TMP "/unwritable";
  sensim_mkdirs(dir);
  FILE *fp = fopen(TMP "/unwritable/afile", "w");
  assert_non_null(fp);
  fclose(fp);
  struct stat st;
  assert_int_equal(run_to(TMP "/unwritable/new/deep", TMP "/unwritable/afile/run.mcap"), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "Not a directory"));
  assert_non_null(strstr(sensim_last_error(), "afile/run.mcap"));
  assert_int_equal(stat(TMP "/unwritable/new", &st), -1);
  sensim_mkdirs(TMP "/unwritable/old");
  fp = fopen(TMP "/unwritable/old/keep.txt", "w");
  assert_non_null(fp);
  fclose(fp);
  assert_int_equal(run_to(TMP "/unwritable/old", TMP "/unwritable/afile/run.mcap"), SENSIM_EIO);
  assert_int_equal(entries(TMP "/unwritable/old"), 1);
  /* The output folder under a file: the same cause, named. */
  assert_int_equal(run_to(TMP "/unwritable/afile/out", NULL), SENSIM_EIO);
  if (!strstr(sensim_last_error(), "Not a directory")) fail_msg("message: %s", sensim_last_error());
  /* Recording into the output folder the run makes. */
  SENSIM_OK_OR_FAIL(run_to(TMP "/unwritable/fresh", TMP "/unwritable/fresh/run.mcap"));
  assert_int_equal(stat(TMP "/unwritable/fresh/run.mcap", &st), 0);
  assert_int_equal(stat(TMP "/unwritable/fresh/imu/imu.csv", &st), 0);
}

int sensim_test_record_crash(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_killed_recording_is_kept_aside_and_its_chunks_read),
      cmocka_unit_test(test_unwritable_recording_fails_before_any_output_folder),
  };
  return cmocka_run_group_tests_name("record_crash", tests, setup, NULL);
}
