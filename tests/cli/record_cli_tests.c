/* tests/cli/record_cli_tests.c: `sensim run` and `sensim demo` with a
 * recording (--mcap FILE, --lidar-time start|end) and the files every
 * sensor folder carries (poses.txt, a camera's camera_info.yaml); bad
 * values are refused with a message naming the option and what it takes.
 * The recording's content is read back by tests/mcap* with an
 * independent reader; here only that the program makes it, completely
 * (MCAP's magic at both ends, no temporary file left), or refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/cli_record"
#define OUT TMP "/out.txt"
#define ERR TMP "/err.txt"

/* A moving cart with a pinhole camera, a FOV-lens camera (no ROS model),
 * a lidar, an IMU and a cone sensor (no ROS 2 message: left out of the
 * recording, not failing it), and a static box to see. */
static const char scenario[] =
    "{\"world\": {\"threads\": 0}, \"duration\": 0.3, \"step\": 0.01,\n"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}}],\n"
    " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"static\": true,\n"
    "              \"pose\": {\"position\": [3, 0, 0]}},\n"
    "             {\"name\": \"cart\", \"motion\": {\"type\": \"line\", \"start\": [0, 0, 0.5],\n"
    "              \"velocity\": [1, 0, 0]}}],\n"
    " \"sensors\": [\n"
    "  {\"name\": \"cam\", \"type\": \"camera\", \"body\": \"cart\", \"rate\": 10, \"width\": 16,\n"
    "   \"height\": 12, \"samples\": 1, \"filters\": [{\"name\": \"quantize\"}]},\n"
    "  {\"name\": \"wide\", \"type\": \"camera\", \"body\": \"cart\", \"rate\": 10, \"width\": 16,\n"
    "   \"height\": 12, \"samples\": 1, \"lens\": \"fov\", \"hfov_deg\": 90,\n"
    "   \"filters\": [{\"name\": \"quantize\"}]},\n"
    "  {\"name\": \"scanner\", \"type\": \"lidar\", \"body\": \"cart\", \"rate\": 10, \"channels\": 4,\n"
    "   \"columns\": 90, \"filters\": [{\"name\": \"points\"}], \"output\": {\"format\": \"pcd\"}},\n"
    "  {\"name\": \"imu\", \"type\": \"imu\", \"body\": \"cart\", \"rate\": 20},\n"
    "  {\"name\": \"cones\", \"type\": \"cone\", \"body\": \"cart\", \"rate\": 10}]}\n";

static int setup(void **state) {
  (void)state;
  return test_fresh_dir_with_file(TMP, "cart.json", scenario);
}

static int run_split(const char *const *args, char **out, char **err) {
  return test_run_cli_read(OUT, ERR, args, out, err);
}

/* Lines of a TUM file that are not comments, each of 8 numbers. */
static int tum_poses(const char *path) {
  char *t = test_slurp(path, NULL);
  int n = 0;
  for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    double v[8];
    char extra;
    if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
               &v[7], &extra) != 8)
      fail_msg("%s: not a TUM line: '%s'", path, line);
    n++;
  }
  free(t);
  return n;
}

static void test_run_writes_poses_and_camera_info_beside_frames(void **state) {
  (void)state;
  const char *args[] = {"run", TMP "/cart.json", "--out", TMP "/side", NULL};
  char *out, *err;
  assert_int_equal(run_split(args, &out, &err), 0);
  /* 0.3 s at 10 Hz: frames at 0, 0.1, 0.2 and 0.3 s; the IMU at 20 Hz. */
  assert_int_equal(tum_poses(TMP "/side/cam/poses.txt"), 4);
  assert_int_equal(tum_poses(TMP "/side/scanner/poses.txt"), 4);
  assert_int_equal(tum_poses(TMP "/side/imu/poses.txt"), 7);
  assert_int_equal(tum_poses(TMP "/side/cones/poses.txt"), 4);
  char *yaml = test_slurp(TMP "/side/cam/camera_info.yaml", NULL);
  assert_true(strncmp(yaml, "%YAML 1.0\n---\nimage_width: 16\n", 30) == 0);
  assert_non_null(strstr(yaml, "camera_name: \"cam\"\n"));
  free(yaml);
  /* The FOV lens has no ROS model: its own exactly, and a fitted one. */
  assert_int_equal(tum_poses(TMP "/side/wide/poses.txt"), 4);
  yaml = test_slurp(TMP "/side/wide/camera_info.yaml", NULL);
  assert_non_null(strstr(yaml, "\ndistortion_model: fov\n"));
  free(yaml);
  assert_true(test_file_exists(TMP "/side/wide/camera_info_fit.yaml"));
  assert_false(test_file_exists(TMP "/side/scanner/camera_info.yaml"));
  free(out);
  free(err);
}

/* A complete MCAP file: its magic at the start and at the end. */
static void assert_mcap(const char *path) {
  size_t n;
  char *b = test_slurp_if(path, &n);
  if (!b) fail_msg("no recording at %s", path);
  static const char magic[8] = "\x89MCAP0\r\n";
  if (n < 16 || memcmp(b, magic, 8) != 0 || memcmp(b + n - 8, magic, 8) != 0)
    fail_msg("%s (%zu bytes) is not a complete MCAP file", path, n);
  free(b);
}

static void test_run_and_demo_record_with_mcap(void **state) {
  (void)state;
  char *out, *err;
  const char *run[] = {"run", TMP "/cart.json", "--out", TMP "/rec", "--mcap", TMP "/rec.mcap", NULL};
  if (run_split(run, &out, &err) != 0) fail_msg("run --mcap failed:\n%s", err);
  assert_mcap(TMP "/rec.mcap");
  assert_non_null(strstr(out, "ROS 2 recording: " TMP "/rec.mcap"));
  test_assert_no_temp_files(TMP);
  free(out);
  free(err);

  /* The end-relative lidar time, into the output folder itself. */
  const char *end[] = {"run",    TMP "/cart.json",     "--out",        TMP "/rec_end",
                       "--mcap", TMP "/rec_end/r.mcap", "--lidar-time", "end", NULL};
  if (run_split(end, &out, &err) != 0) fail_msg("run --lidar-time end failed:\n%s", err);
  assert_mcap(TMP "/rec_end/r.mcap");
  free(out);
  free(err);

  /* An existing recording is replaced only with --force. */
  const char *again[] = {"run", TMP "/cart.json", "--out", TMP "/rec2", "--mcap", TMP "/rec.mcap", NULL};
  assert_int_equal(run_split(again, &out, &err), 1);
  if (!strstr(err, "recording '" TMP "/rec.mcap' exists") || !strstr(err, "--force"))
    fail_msg("refusal lacks its reason:\n%s", err);
  assert_false(test_file_exists(TMP "/rec2/cam"));
  free(out);
  free(err);
  const char *forced[] = {"run",    TMP "/cart.json", "--out",   TMP "/rec2",
                          "--mcap", TMP "/rec.mcap",  "--force", NULL};
  if (run_split(forced, &out, &err) != 0) fail_msg("run --mcap --force failed:\n%s", err);
  assert_mcap(TMP "/rec.mcap");
  free(out);
  free(err);

  const char *demo[] = {"demo", "--out", TMP "/demo", "--duration", "0.3", "--mcap", TMP "/demo.mcap", NULL};
  if (run_split(demo, &out, &err) != 0) fail_msg("demo --mcap failed:\n%s", err);
  assert_mcap(TMP "/demo.mcap");
  assert_true(test_file_exists(TMP "/demo/camera/camera_info.yaml"));
  free(out);
  free(err);
}

typedef struct bad_case {
  const char *args[12];
  int rc;
  const char *msg; /* expected on stderr */
} bad_case;

static void test_bad_recording_options_are_refused_with_a_message(void **state) {
  (void)state;
  mkdir(TMP "/a_folder", 0755);
  static const bad_case cases[] = {
      {{"run", TMP "/cart.json", "--out", TMP "/b", "--mcap", TMP "/b.mcap", "--lidar-time", "strat", NULL},
       2,
       "--lidar-time 'strat': expected 'start' (s from the scan's start) or 'end' (s relative to the "
       "capture time); did you mean 'start'?"},
      {{"demo", "--out", TMP "/b", "--mcap", TMP "/b.mcap", "--lidar-time", "middle", NULL},
       2,
       "--lidar-time 'middle': expected 'start'"},
      {{"run", TMP "/cart.json", "--out", TMP "/b", "--lidar-time", "end", NULL},
       2,
       "--lidar-time sets the recording's point times: give --mcap FILE too"},
      {{"demo", "--out", TMP "/b", "--lidar-time", "start", NULL}, 2, "give --mcap FILE too"},
      {{"run", TMP "/cart.json", "--out", TMP "/b", "--mcap", "", NULL}, 2, "--mcap needs a non-empty file name"},
      {{"demo", "--out", TMP "/b", "--mcap", NULL}, 2, "option '--mcap' needs a value"},
      {{"run", TMP "/cart.json", "--out", TMP "/b", "--mcap", TMP "/a_folder", NULL},
       1,
       "--mcap '" TMP "/a_folder' is a folder"},
      {{"demo", "--out", TMP "/b", "--mcap", TMP "/no/such/folder/x.mcap", "--duration", "0.1", NULL},
       1,
       TMP "/no/such/folder/x.mcap"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *out, *err;
    int rc = run_split(cases[i].args, &out, &err);
    if (rc != cases[i].rc) fail_msg("case %zu exited %d, expected %d: %s", i, rc, cases[i].rc, err);
    if (!strstr(err, cases[i].msg)) fail_msg("case %zu: stderr lacks \"%s\":\n%s", i, cases[i].msg, err);
    if (rc == 2 && !strstr(err, "--help")) fail_msg("case %zu does not say where help is:\n%s", i, err);
    free(out);
    free(err);
  }
  /* Nothing was recorded by a refused run. */
  assert_false(test_file_exists(TMP "/b.mcap"));
  test_assert_no_temp_files(TMP);
}

int sensim_test_cli_record(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_run_writes_poses_and_camera_info_beside_frames),
      cmocka_unit_test(test_run_and_demo_record_with_mcap),
      cmocka_unit_test(test_bad_recording_options_are_refused_with_a_message),
  };
  return cmocka_run_group_tests_name("cli_record", tests, setup, NULL);
}
