/* tests/io/disk_full_tests.c: writers and the MCAP recorder on a full disk.
 * A 96 KiB tmpfs mounted in the scratch folder fills during a run of a
 * camera writing PNGs, an IMU writing CSV and a recording: the run ends
 * with SENSIM_EIO naming the cause (ENOSPC's text), no file stands
 * half-written under its final name (every PNG there decodes, no
 * recording, no temporary files left), and the world goes on advancing.
 * The group is skipped where mounting is not permitted (not root, or no
 * CAP_SYS_ADMIN in the container). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/disk_full"
#define MNT TMP "/mnt"

static const char scenario[] =
    "{\"world\": {\"threads\": 0}, \"duration\": 20, \"step\": 0.01,\n"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}}],\n"
    " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"static\": true, \"pose\": {\"position\": [3, 0, 0]}}],\n"
    " \"sensors\": [\n"
    "  {\"name\": \"cam\", \"type\": \"camera\", \"width\": 64, \"height\": 48, \"rate\": 10, \"samples\": 1,\n"
    "   \"filters\": [{\"name\": \"srgb8\"}]},\n"
    "  {\"name\": \"imu\", \"type\": \"imu\", \"rate\": 100}]}\n";

static int mounted;

static int setup(void **state) {
  (void)state;
  test_remove_tree(TMP);
  if (sensim_mkdirs(MNT) != SENSIM_OK) return -1;
  mounted = mount("tmpfs", MNT, "tmpfs", 0, "size=96k") == 0;
  if (!mounted) fprintf(stderr, "(disk_full: cannot mount a tmpfs here: %s; skipped)\n", strerror(errno));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  if (mounted) umount(MNT);
  mounted = 0;
  test_remove_tree(TMP);
  return 0;
}

/* Files under dir whose name holds ".tmp-" (a writer's temporary), and
 * PNGs that do not decode. */
static void check_tree(const char *dir, int *temps, int *bad_png, int *pngs) {
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (lstat(p, &sb) != 0) continue;
    if (S_ISDIR(sb.st_mode)) {
      check_tree(p, temps, bad_png, pngs);
      continue;
    }
    if (strstr(e->d_name, ".tmp-")) (*temps)++;
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".png")) {
      sensim_image img;
      (*pngs)++;
      if (sensim_read_png(p, &img) != SENSIM_OK) (*bad_png)++;
      else sensim_image_free(&img);
    }
  }
  closedir(d);
}

/* Descriptors this process holds on files under `dir` (deleted ones
 * included): a failed writer must close what it opened, or the space of
 * its unlinked file stays taken and the mount stays busy. */
static int open_files_under(const char *dir) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return 0; /* no /proc: not checked */
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    char link[300], target[512];
    snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
    ssize_t len = readlink(link, target, sizeof target - 1);
    if (len <= 0) continue;
    target[len] = '\0';
    n += strncmp(target, dir, strlen(dir)) == 0;
  }
  closedir(d);
  return n;
}

static void test_full_disk_fails_cleanly_and_leaves_the_world_usable(void **state) {
  (void)state;
  if (!mounted) skip();
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(scenario, TMP, &scn));
  sensim_scenario_run_options o;
  sensim_scenario_run_options_init(&o);
  o.out_dir = MNT "/out";
  o.mcap = MNT "/rec.mcap";
  sensim_status st = sensim_scenario_run_ex(scn, &o, NULL);
  assert_int_equal(st, SENSIM_EIO);
  if (!strstr(sensim_last_error(), strerror(ENOSPC)))
    fail_msg("the error does not name the full disk: %s", sensim_last_error());
  assert_false(test_file_exists(MNT "/rec.mcap"));
  int temps = 0, bad = 0, pngs = 0;
  check_tree(MNT, &temps, &bad, &pngs);
  assert_int_equal(temps, 0);
  assert_int_equal(bad, 0);
  assert_true(pngs > 0); /* some frames fitted before the disk filled */
  assert_int_equal(open_files_under(MNT), 0);
  /* The world itself is intact: it advances and captures. */
  sensim_world *w = sensim_scenario_world(scn);
  double t = sensim_world_time(w);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, t + 0.5));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(sensim_world_sensor(w, 1), &f));
  assert_non_null(f);
  sensim_scenario_destroy(scn);
  /* The recording alone, on the emptied disk: its own writes meet ENOSPC. */
  test_remove_tree(MNT "/out");
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(scenario, TMP, &scn));
  o.out_dir = NULL;
  st = sensim_scenario_run_ex(scn, &o, NULL);
  assert_int_equal(st, SENSIM_EIO);
  if (!strstr(sensim_last_error(), "MCAP") || !strstr(sensim_last_error(), strerror(ENOSPC)))
    fail_msg("the recording's error does not name the full disk: %s", sensim_last_error());
  temps = 0;
  check_tree(MNT, &temps, &bad, &pngs);
  assert_int_equal(temps, 0);
  assert_false(test_file_exists(MNT "/rec.mcap"));
  sensim_scenario_destroy(scn);
  assert_int_equal(open_files_under(MNT), 0);
}

int sensim_test_disk_full(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_full_disk_fails_cleanly_and_leaves_the_world_usable),
  };
  return cmocka_run_group_tests_name("disk_full", tests, setup, teardown);
}
