/* tests/ablate/cli_tests.c: `sensim ablate`, `sensim augment` and
 * `sensim image-stats` run as child processes: exit codes, bad input and
 * the numbers they print or write. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ablate/ablate_groups.h"
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP ABLATE_TMP "/cli"
#define LOG TMP "/log.txt"
#define EXAMPLES SENSIM_TEST_DATA "/../../examples"

/* The program with args, its output in LOG (support/run_cli.h). */
static int run_cli(const char *const *args) { return test_run_cli(LOG, args); }

static void expect(int rc, int want, const char *const *args, const char *msg) {
  char *log = test_slurp_if(LOG, NULL);
  if (rc != want) fail_msg("%s %s... exited %d, expected %d:\n%s", args[0], args[1] ? args[1] : "", rc, want, log);
  if (msg && !strstr(log, msg)) fail_msg("output lacks '%s':\n%s", msg, log);
  free(log);
}

#define RUN(want, msg, ...)                           \
  do {                                                \
    const char *a__[] = {__VA_ARGS__, NULL};          \
    expect(run_cli(a__), (want), a__, (msg));         \
  } while (0)

/* Images: `n` colour PNGs of w x h in dir, values uniform in [lo, hi). */
static void write_set(const char *dir, int n, uint32_t w, uint32_t h, float lo, float hi, uint64_t seed) {
  ablate_fresh_dir(dir);
  for (int k = 0; k < n; k++) {
    sensim_image img = ablate_image(w, h, 3);
    ablate_image_fill_random(&img, seed + (uint64_t)k, lo, hi);
    char p[512];
    snprintf(p, sizeof p, "%s/im%02d.png", dir, k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(p, &img, 16));
    sensim_image_free(&img);
  }
}

static int setup(void **state) {
  (void)state;
  ablate_fresh_dir(TMP);
  write_set(TMP "/in", 3, 24, 16, 0.2f, 0.6f, 100);
  write_set(TMP "/calib", 2, 20, 10, 0.4f, 0.9f, 200);
  ablate_fresh_dir(TMP "/empty");
  return 0;
}

static void test_augment_bad_usage_exits_2(void **state) {
  (void)state;
  RUN(2, "needs IN_DIR and OUT_DIR", "augment", TMP "/in");
  RUN(2, "--stages is required", "augment", TMP "/in", TMP "/o");
  RUN(2, "unknown or repeated stage", "augment", TMP "/in", TMP "/o", "--stages", "noise,blur");
  RUN(2, "unknown or repeated stage", "augment", TMP "/in", TMP "/o", "--stages", "noise,noise");
  RUN(2, "need --calib", "augment", TMP "/in", TMP "/o", "--stages", "wb");
  RUN(2, "needs --lens", "augment", TMP "/in", TMP "/o", "--stages", "distort");
  RUN(2, "--sigma", "augment", TMP "/in", TMP "/o", "--stages", "noise", "--sigma", "nan");
  RUN(2, "--sigma", "augment", TMP "/in", TMP "/o", "--stages", "noise", "--sigma", "-1");
  RUN(2, "--bits", "augment", TMP "/in", TMP "/o", "--stages", "noise", "--bits", "12");
  RUN(2, "unknown option", "augment", TMP "/in", TMP "/o", "--stages", "noise", "--blur");
  RUN(0, "usage: sensim augment", "augment", "--help");
  assert_false(test_file_exists(TMP "/o"));
}

static void test_augment_bad_input_exits_1(void **state) {
  (void)state;
  RUN(1, "missing", "augment", TMP "/missing", TMP "/o", "--stages", "noise");
  RUN(1, "holds no PNG", "augment", TMP "/empty", TMP "/o", "--stages", "noise");
  RUN(1, "holds no PNG", "augment", TMP "/in", TMP "/o", "--stages", "wb", "--calib", TMP "/empty");
  RUN(1, "missing", "augment", TMP "/in", TMP "/o", "--stages", "brightness", "--calib", TMP "/missing");
  /* The lens's size differs from the images'. */
  RUN(1, "differs from the image", "augment", TMP "/in", TMP "/o", "--stages", "distort", "--lens",
      "{\"lens\": \"brown_conrady\", \"width\": 32, \"dist\": [-0.1]}");
  RUN(1, "no_lens.json", "augment", TMP "/in", TMP "/o", "--stages", "distort", "--lens", TMP "/no_lens.json");
}

/* Every stage at once writes one file per input under the same name.
 * Then brightness alone matches the calibration set's per-channel
 * statistics: one affine map for the whole input set, so the output set's
 * mean and std equal the calibration's up to the 16-bit rounding (1/131070
 * per value; the map keeps [0.2, 0.6] inside [0, 1], so nothing clips).
 * (After mosaic of pixel-random images the MHC kernels' overshoot is
 * clipped on writing, which moves the statistics: not checked there.) */
static void test_augment_writes_same_names_and_matches_the_calibration(void **state) {
  (void)state;
  RUN(0, "augmented 3 images", "augment", TMP "/in", TMP "/out", "--stages", "distort,noise,mosaic,wb,brightness",
      "--calib", TMP "/calib", "--lens", "{\"lens\": \"brown_conrady\", \"hfov_deg\": 70, \"dist\": [-0.05]}",
      "--sigma", "0.005", "--fill", "0.4", "--bits", "16");
  char *a = ablate_png_names(TMP "/in"), *b = ablate_png_names(TMP "/out");
  assert_string_equal(a, b);
  free(a);
  free(b);
  RUN(0, "augmented 3 images", "augment", TMP "/in", TMP "/bright", "--stages", "noise,brightness", "--calib",
      TMP "/calib", "--sigma", "0.005", "--bits", "16");
  sensim_image_set_stats cal, out;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_dir(TMP "/calib", 64, &cal));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_dir(TMP "/bright", 64, &out));
  for (int c = 0; c < 3; c++) {
    assert_near(out.mean[c], cal.mean[c], 1e-5);
    assert_near(out.std[c], cal.std[c], 1e-5);
  }
  /* wb alone: the output's means keep the input's green and take the
   * calibration's gray-world gains, R and B scaled by m_G / m_c. */
  RUN(0, NULL, "augment", TMP "/in", TMP "/wb", "--stages", "wb", "--calib", TMP "/calib", "--bits", "16");
  sensim_image_set_stats in, wb;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_dir(TMP "/in", 64, &in));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_dir(TMP "/wb", 64, &wb));
  assert_near(wb.mean[1], in.mean[1], 1e-5);
  assert_near(wb.mean[0], in.mean[0] * cal.mean[1] / cal.mean[0], 1e-5);
  assert_near(wb.mean[2], in.mean[2] * cal.mean[1] / cal.mean[2], 1e-5);
  /* The same seed gives the same files. */
  RUN(0, NULL, "augment", TMP "/in", TMP "/out2", "--stages", "noise", "--seed", "5", "--bits", "16");
  RUN(0, NULL, "augment", TMP "/in", TMP "/out3", "--stages", "noise", "--seed", "5", "--bits", "16");
  size_t n2, n3;
  char *f2 = test_slurp_if(TMP "/out2/im01.png", &n2), *f3 = test_slurp_if(TMP "/out3/im01.png", &n3);
  assert_non_null(f2);
  assert_true(n2 == n3 && memcmp(f2, f3, n2) == 0);
  free(f2);
  free(f3);
}

static void test_image_stats_prints_and_plots(void **state) {
  (void)state;
  /* --out X.png writes X.png and nothing else, colour sets too. */
  test_remove_tree(TMP "/p.png");
  test_remove_tree(TMP "/p_r.png");
  test_remove_tree(TMP "/p_g.png");
  test_remove_tree(TMP "/p_b.png");
  RUN(0, "plot written to " TMP "/p.png", "image-stats", TMP "/in", TMP "/calib", "--out", TMP "/p.png");
  RUN(0, "A: " TMP "/in: 3 images, 1152 pixels", "image-stats", TMP "/in", TMP "/calib");
  assert_true(test_file_exists(TMP "/p.png"));
  assert_false(test_file_exists(TMP "/p_r.png"));
  assert_false(test_file_exists(TMP "/p_g.png"));
  assert_false(test_file_exists(TMP "/p_b.png"));
  RUN(1, "missing", "image-stats", TMP "/in", TMP "/missing");
  RUN(1, "holds no PNG", "image-stats", TMP "/empty", TMP "/in");
  RUN(2, "needs two folders", "image-stats", TMP "/in");
  RUN(2, "--bins", "image-stats", TMP "/in", TMP "/calib", "--bins", "1");
}

static void test_ablate_command(void **state) {
  (void)state;
  RUN(2, "--out DIR is required", "ablate", EXAMPLES "/ablation.json");
  RUN(2, "needs a scenario", "ablate", "--out", TMP "/abl");
  RUN(2, "--frames", "ablate", EXAMPLES "/ablation.json", "--out", TMP "/abl", "--frames", "0");
  RUN(2, "--variants", "ablate", EXAMPLES "/ablation.json", "--out", TMP "/abl", "--variants", "noise_off,blur");
  RUN(1, "no_such.json", "ablate", TMP "/no_such.json", "--out", TMP "/abl");
  ablate_write_text(TMP "/nocam.json", "{\"duration\": 1, \"sensors\": [{\"name\": \"g\", \"type\": \"gnss\"}]}");
  RUN(1, "no camera", "ablate", TMP "/nocam.json", "--out", TMP "/abl");
  RUN(0, "samples 4 -> 1", "ablate", EXAMPLES "/ablation.json", "--out", TMP "/abl", "--frames", "1", "--threads",
      "2", "--variants", "baseline,supersampling_1");
  assert_true(test_file_exists(TMP "/abl/baseline/camera/frame_000000.png"));
  assert_true(test_file_exists(TMP "/abl/supersampling_1/camera/frame_000000.png"));
  assert_false(test_file_exists(TMP "/abl/noise_off"));
  /* Issue 28: the summary, sensim's number per variant beside the study's
   * component, and the study's block saying its numbers were not read. */
  char *log = test_slurp(LOG, NULL);
  assert_non_null(strstr(log, "baseline            0.00000  the full camera model"));
  assert_non_null(strstr(log, "supersampling_1 "));
  assert_non_null(strstr(log, "rendering quality: its own result not read"));
  assert_non_null(strstr(log, "beside the paper: \"Camera simulation for robot simulation"));
  assert_non_null(strstr(log, "not printed: "));
  free(log);
}

int sensim_test_ablate_cli(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_augment_bad_usage_exits_2),
      cmocka_unit_test(test_augment_bad_input_exits_1),
      cmocka_unit_test(test_augment_writes_same_names_and_matches_the_calibration),
      cmocka_unit_test(test_image_stats_prints_and_plots),
      cmocka_unit_test(test_ablate_command),
  };
  return cmocka_run_group_tests_name("ablate_cli", tests, setup, NULL);
}
