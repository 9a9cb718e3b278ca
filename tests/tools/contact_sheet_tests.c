/* tests/tools/contact_sheet_tests.c: the contact sheet (tools/
 * contact_sheet.c): its size follows the geometry its header documents,
 * and each cell holds its own frame, shrunk (its mean colour kept),
 * captioned. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sensim_tools/contact_sheet.h>
#include <sensim_tools/image_files.h>
#include "support/pixels.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/contact"
#define FRAMES TMP "/frames"

enum { NF = 7, FW = 200, FH = 150 };

/* Frame k: a base colour of its own with a gentle diagonal shading, so a
 * cell showing the wrong frame, a wrong part of it or a smeared copy
 * differs in its mean. */
static double frame_value(int k, int c, int x, int y) {
  static const double base[NF][3] = {{0.9, 0.1, 0.1}, {0.1, 0.8, 0.2}, {0.1, 0.2, 0.9},
                                     {0.9, 0.9, 0.1}, {0.5, 0.1, 0.6}, {0.1, 0.7, 0.7},
                                     {0.6, 0.6, 0.6}};
  double shade = 0.2 * ((double)x / FW + (double)y / FH) - 0.2;
  double v = base[k][c] + shade;
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void write_frames(void) {
  sensim_mkdirs(FRAMES);
  for (int k = 0; k < NF; k++) {
    sensim_image im = {FW, FH, 3, malloc((size_t)FW * FH * 3 * sizeof(float))};
    assert_non_null(im.data);
    for (int y = 0; y < FH; y++)
      for (int x = 0; x < FW; x++)
        for (int c = 0; c < 3; c++) im.data[(y * FW + x) * 3 + c] = (float)frame_value(k, c, x, y);
    char path[256];
    snprintf(path, sizeof path, FRAMES "/frame_%06d.png", k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(path, &im, k == 2 ? 16 : 8)); /* one 16-bit file */
    free(im.data);
  }
}

static int setup(void **st) {
  (void)st;
  write_frames();
  sensim_mkdirs(TMP "/empty");
  return 0;
}

/* Mean 8-bit code of frame k over the source region a box's inner part
 * [ix0, ix1) x [iy0, iy1) (box pixels) shows at scale s. */
static void source_mean(int k, double s, int ix0, int iy0, int ix1, int iy1, double m[3]) {
  double sum[3] = {0, 0, 0};
  long n = 0;
  for (int y = (int)(iy0 / s); y < (int)(iy1 / s); y++)
    for (int x = (int)(ix0 / s); x < (int)(ix1 / s); x++, n++)
      for (int c = 0; c < 3; c++) sum[c] += floor(frame_value(k, c, x, y) * 255.0 + 0.5);
  for (int c = 0; c < 3; c++) m[c] = sum[c] / (double)n;
}

static void expect_cell(const sensim_image *sheet, const sensim_contact_sheet_info *g, size_t cell,
                        int frame) {
  int bx = SENSIM_CONTACT_PAD + (int)(cell % (size_t)g->cols) * (g->cell_w + SENSIM_CONTACT_PAD);
  int by = SENSIM_CONTACT_TITLE_H +
           (int)(cell / (size_t)g->cols) * (g->cell_h + SENSIM_CONTACT_CAPTION_H + SENSIM_CONTACT_PAD);
  double s = fmin((double)g->cell_w / FW, (double)g->cell_h / FH);
  /* The frame fills the box (same aspect); look inside a 3 px inset. */
  double got[3], want[3];
  test_box_mean(sheet, bx + 3, by + 3, bx + g->cell_w - 3, by + g->cell_h - 3, got);
  source_mean(frame, s, 3, 3, g->cell_w - 3, g->cell_h - 3, want);
  for (int c = 0; c < 3; c++)
    if (fabs(got[c] - want[c]) > 3.0)
      fail_msg("cell %zu: channel %d mean %.1f, frame %d's %.1f", cell, c, got[c], frame, want[c]);
  /* Its caption holds ink under the box. */
  int ink = 0;
  for (int y = by + g->cell_h + 2; y < by + g->cell_h + SENSIM_CONTACT_CAPTION_H; y++)
    for (int x = bx; x < bx + g->cell_w; x++) {
      uint8_t p[3];
      test_pixel(sheet, x, y, p);
      ink += p[0] < 100 && p[1] < 100 && p[2] < 100;
    }
  if (ink < 15) fail_msg("cell %zu has no caption", cell);
}

static void test_contact_sheet_size_and_cells_hold_their_frames(void **st) {
  (void)st;
  sensim_contact_sheet_params p;
  sensim_contact_sheet_params_init(&p);
  assert_int_equal(p.max_frames, 64);
  assert_int_equal(p.cell_width, 240);
  p.cols = 3;
  p.cell_width = 80; /* 200 x 150 frames shrink by 0.4 into 80 x 60 boxes */
  sensim_contact_sheet_info g;
  SENSIM_OK_OR_FAIL(sensim_contact_sheet_write_png(FRAMES, &p, TMP "/sheet.png", &g));
  assert_int_equal(g.cols, 3);
  assert_int_equal(g.rows, 3);
  assert_int_equal(g.cell_w, 80);
  assert_int_equal(g.cell_h, 60);
  assert_int_equal(g.frames, NF);
  assert_int_equal(g.files, NF);
  /* The documented size: pad + cols (cell_w + pad), title + rows (cell_h + caption + pad). */
  assert_int_equal(g.width, 8 + 3 * (80 + 8));
  assert_int_equal(g.height, 30 + 3 * (60 + 18 + 8));
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/sheet.png", &im));
  assert_int_equal(im.width, (uint32_t)g.width);
  assert_int_equal(im.height, (uint32_t)g.height);
  for (size_t k = 0; k < NF; k++) expect_cell(&im, &g, k, (int)k);
  /* The cells after the last frame stay background. */
  double m[3];
  test_box_mean(&im, 8 + 1 * 88, 30 + 2 * 86, 8 + 1 * 88 + 80, 30 + 2 * 86 + 60, m);
  assert_true(m[0] > 250 && m[1] > 250 && m[2] > 250);
  sensim_image_free(&im);
  test_assert_no_temp_files(TMP);
}

static void test_contact_sheet_spreads_max_frames_from_first_to_last(void **st) {
  (void)st;
  sensim_contact_sheet_params p;
  sensim_contact_sheet_params_init(&p);
  p.max_frames = 3; /* files 0, 3, 6 of 7 */
  p.cell_width = 100;
  sensim_contact_sheet_info g;
  SENSIM_OK_OR_FAIL(sensim_contact_sheet_write_png(FRAMES, &p, TMP "/sheet3.png", &g));
  assert_int_equal(g.frames, 3);
  assert_int_equal(g.cols, 2); /* ceil(sqrt(3)) */
  assert_int_equal(g.rows, 2);
  assert_int_equal(g.cell_h, 75);
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/sheet3.png", &im));
  expect_cell(&im, &g, 0, 0);
  expect_cell(&im, &g, 1, 3);
  expect_cell(&im, &g, 2, 6);
  sensim_image_free(&im);
}

static void test_contact_sheet_refuses_bad_requests(void **st) {
  (void)st;
  unlink(TMP "/x.png"); /* from an earlier run */
  sensim_contact_sheet_params p;
  sensim_contact_sheet_params_init(&p);
  assert_int_equal(sensim_contact_sheet_write_png(TMP "/missing", &p, TMP "/x.png", NULL),
                   SENSIM_ENOTFOUND);
  assert_int_equal(sensim_contact_sheet_write_png(TMP "/empty", &p, TMP "/x.png", NULL),
                   SENSIM_EINVAL);
  assert_int_equal(sensim_contact_sheet_write_png(NULL, &p, TMP "/x.png", NULL), SENSIM_EINVAL);
  p.cols = -1;
  assert_int_equal(sensim_contact_sheet_write_png(FRAMES, &p, TMP "/x.png", NULL), SENSIM_EINVAL);
  p.cols = 0;
  p.cell_width = 8;
  assert_int_equal(sensim_contact_sheet_write_png(FRAMES, &p, TMP "/x.png", NULL), SENSIM_EINVAL);
  /* 12 frames in one row of 2048 px cells: too wide for one picture. */
  sensim_mkdirs(TMP "/many");
  for (int k = 0; k < 12; k++) {
    float px[4 * 4] = {0};
    sensim_image im = {4, 4, 1, px};
    char path[256];
    snprintf(path, sizeof path, TMP "/many/f%02d.png", k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(path, &im, 8));
  }
  p.cell_width = 2048;
  p.cols = 12;
  assert_int_equal(sensim_contact_sheet_write_png(TMP "/many", &p, TMP "/x.png", NULL),
                   SENSIM_EINVAL);
  assert_true(strstr(sensim_last_error(), "fewer frames") != NULL);
  assert_false(test_file_exists(TMP "/x.png"));
}

int sensim_test_contact_sheet(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_contact_sheet_size_and_cells_hold_their_frames),
      cmocka_unit_test(test_contact_sheet_spreads_max_frames_from_first_to_last),
      cmocka_unit_test(test_contact_sheet_refuses_bad_requests),
  };
  return cmocka_run_group_tests_name("contact_sheet", tests, setup, NULL);
}
