/* tests/cli/pictures_cli_tests.c: `sensim contact-sheet`, `sensim
 * preview-depth`, `sensim preview-labels` and `sensim noise-calib --plot`
 * run as child processes: what they write, their exit codes, and text
 * drawn on a machine with no font configured (cairo's built-in face). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/colormap.h>
#include <sensim_tools/image_files.h>
#include <sensim_tools/preview.h>
#include "support/pixels.h"
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/pictures"
#define LOG TMP "/log.txt"

static int run(int want, const char *const *args) {
  int rc = test_run_cli(LOG, args);
  if (rc != want) {
    char text[4096]; /* fail_msg does not return: nothing left to free */
    char *log = test_slurp_if(LOG, NULL);
    snprintf(text, sizeof text, "%s", log ? log : "");
    free(log);
    fail_msg("exit %d, expected %d:\n%s", rc, want, text);
  }
  return rc;
}

static void assert_log_contains(const char *what) {
  char text[4096];
  char *log = test_slurp_if(LOG, NULL);
  assert_non_null(log);
  int found = strstr(log, what) != NULL;
  snprintf(text, sizeof text, "%s", log);
  free(log);
  if (!found) fail_msg("output lacks '%s':\n%s", what, text);
}

/* A 32 x 24 depth image, 1 + x / 4 m, written as the camera writes it. */
static void write_depth_png(const char *path) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_DEPTH_F32, 32, 24));
  float *d = f.data;
  for (int y = 0; y < 24; y++)
    for (int x = 0; x < 32; x++) d[y * 32 + x] = 1.0f + 0.25f * x;
  SENSIM_OK_OR_FAIL(sensim_write_png(path, &f));
  sensim_frame_release(&f);
}

/* Class ids 0..3 in vertical stripes of 8 px. */
static void write_labels_png(const char *path) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_LABELS, 32, 24));
  sensim_label *l = f.data;
  for (int i = 0; i < 32 * 24; i++) l[i].class_id = (uint16_t)((i % 32) / 8);
  SENSIM_OK_OR_FAIL(sensim_write_png(path, &f));
  sensim_frame_release(&f);
}

static int setup(void **st) {
  (void)st;
  if (sensim_mkdirs(TMP "/frames") != SENSIM_OK) return -1;
  for (int k = 0; k < 5; k++) {
    float px[16 * 12 * 3];
    for (int i = 0; i < 16 * 12 * 3; i++) px[i] = (float)(0.15 * k + 0.1 * (i % 3));
    sensim_image im = {16, 12, 3, px};
    char path[256];
    snprintf(path, sizeof path, TMP "/frames/cam_%03d.png", k);
    if (sensim_image_write_png(path, &im, 8) != SENSIM_OK) return -1;
  }
  write_depth_png(TMP "/depth.png");
  write_labels_png(TMP "/labels.png");
  return 0;
}

static void test_contact_sheet_command_writes_the_grid(void **st) {
  (void)st;
  const char *args[] = {"contact-sheet", TMP "/frames", "--out", TMP "/sheet.png", "--cols", "2",
                        "--max", "3", "--cell-width", "64", "--title", "cam", NULL};
  run(0, args);
  /* 2 columns, 2 rows of 64 x 48 cells. */
  assert_log_contains("3 of 5 frames, 2 x 2 cells, 152 x 178 px");
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/sheet.png", &im));
  assert_int_equal(im.width, 8 + 2 * (64 + 8));
  assert_int_equal(im.height, 30 + 2 * (48 + 18 + 8));
  sensim_image_free(&im);
  const char *help[] = {"contact-sheet", "--help", NULL};
  run(0, help);
  assert_log_contains("usage: sensim contact-sheet");
  const char *no_out[] = {"contact-sheet", TMP "/frames", NULL};
  run(2, no_out);
  assert_log_contains("--out");
  const char *bad_cols[] = {"contact-sheet", TMP "/frames", "--out", TMP "/x.png", "--cols", "0", NULL};
  run(2, bad_cols);
  const char *missing[] = {"contact-sheet", TMP "/nowhere", "--out", TMP "/x.png", NULL};
  run(1, missing);
  assert_false(test_file_exists(TMP "/x.png"));
}

static void test_preview_commands_colour_depth_and_labels(void **st) {
  (void)st;
  const char *depth[] = {"preview-depth", TMP "/depth.png", "--out", TMP "/depth_view.png",
                         "--max-range", "9", NULL};
  run(0, depth);
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/depth_view.png", &im));
  assert_int_equal(im.width, 32 + SENSIM_PREVIEW_PANEL_W);
  for (int x = 0; x < 32; x += 5) {
    uint8_t got[3], want[3];
    test_pixel(&im, x, 10, got);
    sensim_colormap_viridis((1.0 + 0.25 * x) / 9.0, want);
    assert_true(test_rgb_diff(got, want) <= 1);
  }
  sensim_image_free(&im);
  const char *labels[] = {"preview-labels", TMP "/labels.png", "--out", TMP "/labels_view.png", NULL};
  run(0, labels);
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/labels_view.png", &im));
  for (int x = 0; x < 32; x += 3) {
    uint8_t got[3], want[3];
    test_pixel(&im, x, 5, got);
    sensim_label_color((uint32_t)(x / 8), want);
    assert_int_equal(test_rgb_diff(got, want), 0);
  }
  sensim_image_free(&im);
  /* Bad use: a range that does not increase, a colour file as depth, a
   * missing file, an option of the other command. */
  const char *flat[] = {"preview-depth", TMP "/depth.png", "--out", TMP "/x.png", "--max-range", "0", NULL};
  run(2, flat);
  const char *colour[] = {"preview-depth", TMP "/labels_view.png", "--out", TMP "/x.png", NULL};
  run(1, colour);
  assert_log_contains("16-bit");
  const char *missing[] = {"preview-labels", TMP "/none.png", "--out", TMP "/x.png", NULL};
  run(1, missing);
  const char *wrong[] = {"preview-labels", TMP "/labels.png", "--out", TMP "/x.png", "--max-range", "3", NULL};
  run(2, wrong);
  assert_false(test_file_exists(TMP "/x.png"));
}

/* `sensim noise-calib --plot` writes the photon-transfer plot of its fit:
 * four 8-bit frames of a grey ramp with a little deterministic noise. */
static void test_noise_calib_plot_option_writes_the_photon_transfer_plot(void **st) {
  (void)st;
  sensim_mkdirs(TMP "/stack");
  for (int k = 0; k < 4; k++) {
    float px[64 * 16];
    for (int i = 0; i < 64 * 16; i++) {
      int noise = (int)(((unsigned)(k * 7919 + i * 104729) >> 3) % 9) - 4;
      double v = 0.1 + 0.8 * (i % 64) / 63.0 + noise / 255.0;
      px[i] = (float)(v < 0 ? 0 : v > 1 ? 1 : v);
    }
    sensim_image im = {64, 16, 1, px};
    char path[256];
    snprintf(path, sizeof path, TMP "/stack/f%d.png", k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(path, &im, 8));
  }
  const char *args[] = {"noise-calib", TMP "/stack", "--bins", "8", "--plot", TMP "/ptc.png", NULL};
  run(0, args);
  assert_log_contains("photon-transfer plot: " TMP "/ptc.png");
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/ptc.png", &im));
  assert_int_equal(im.width, 800);
  assert_int_equal(im.height, 500);
  sensim_image_free(&im);
  const char *bad[] = {"noise-calib", TMP "/stack", "--plot", TMP "/no/dir/p.png", NULL};
  run(1, bad);
}

/* With fontconfig pointed at a configuration that names no font folder,
 * cairo finds no font and draws its own built-in face: the legend's text
 * still has ink. */
static void test_pictures_have_text_with_no_font_configured(void **st) {
  (void)st;
  FILE *fp = fopen(TMP "/fonts.conf", "w");
  assert_non_null(fp);
  fputs("<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n", fp);
  fclose(fp);
  setenv("FONTCONFIG_FILE", TMP "/fonts.conf", 1);
  const char *labels[] = {"preview-labels", TMP "/labels.png", "--out", TMP "/nofont.png", NULL};
  int rc = test_run_cli(LOG, labels);
  unsetenv("FONTCONFIG_FILE");
  assert_int_equal(rc, 0);
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/nofont.png", &im));
  /* The legend's heading, right of the image, near the top. */
  int ink = 0;
  for (int y = 8; y < 30; y++)
    for (int x = 40; x < 130; x++) {
      uint8_t p[3];
      test_pixel(&im, x, y, p);
      ink += p[0] < 120;
    }
  if (ink < 20) fail_msg("the legend heading has %d dark pixels", ink);
  sensim_image_free(&im);
}

int sensim_test_pictures_cli(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_contact_sheet_command_writes_the_grid),
      cmocka_unit_test(test_preview_commands_colour_depth_and_labels),
      cmocka_unit_test(test_noise_calib_plot_option_writes_the_photon_transfer_plot),
      cmocka_unit_test(test_pictures_have_text_with_no_font_configured),
  };
  return cmocka_run_group_tests_name("pictures_cli", tests, setup, NULL);
}
