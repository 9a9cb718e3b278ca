/* tests/tools/preview_tests.c: depth and label previews (tools/preview.c),
 * read back with sensim_read_png: each image pixel has the colour of the
 * map at its depth or of its id, the colour bar runs the map from bottom
 * to top, the legend shows the ids present. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/colormap.h>
#include <sensim_tools/preview.h>
#include "support/pixels.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/preview"

static int setup(void **st) {
  (void)st;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static void expect_map(const sensim_image *im, int x, int y, double t) {
  uint8_t got[3], want[3];
  test_pixel(im, x, y, got);
  sensim_colormap_viridis(t, want);
  if (test_rgb_diff(got, want) > 1)
    fail_msg("pixel (%d, %d) is (%d, %d, %d); viridis(%g) is (%d, %d, %d)", x, y, got[0], got[1],
             got[2], t, want[0], want[1], want[2]);
}

static void expect_rgb(const sensim_image *im, int x, int y, int r, int g, int b) {
  uint8_t got[3], want[3] = {(uint8_t)r, (uint8_t)g, (uint8_t)b};
  test_pixel(im, x, y, got);
  if (test_rgb_diff(got, want) != 0)
    fail_msg("pixel (%d, %d) is (%d, %d, %d), not (%d, %d, %d)", x, y, got[0], got[1], got[2], r, g, b);
}

/* Depth 0.5 + 0.25 x m across 64 columns (0.5 .. 16.25 m); row 3 has no
 * return (0), row 4 NaN, row 5 is 100 m (beyond the range). */
static float *ramp_depth(void) {
  float *d = malloc(64 * 48 * sizeof *d);
  assert_non_null(d);
  for (int y = 0; y < 48; y++)
    for (int x = 0; x < 64; x++)
      d[y * 64 + x] = y == 3 ? 0.0f : y == 4 ? NAN : y == 5 ? 100.0f : 0.5f + 0.25f * x;
  return d;
}

static void test_depth_preview_pixel_has_the_map_colour_of_its_depth(void **st) {
  (void)st;
  float *d = ramp_depth();
  sensim_depth_preview_params p;
  sensim_depth_preview_params_init(&p);
  assert_near(p.min_range, 0.0, 0);
  assert_near(p.max_range, 80.0, 0);
  p.min_range = 0.5;
  p.max_range = 20.0;
  SENSIM_OK_OR_FAIL(sensim_depth_preview_write_png(d, 64, 48, &p, TMP "/depth.png"));
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/depth.png", &im));
  assert_int_equal(im.width, 64 + SENSIM_PREVIEW_PANEL_W);
  assert_int_equal(im.height, SENSIM_PREVIEW_MIN_H);
  for (int x = 0; x < 64; x += 7)
    for (int y = 0; y < 48; y += 11) {
      if (y >= 3 && y <= 5) continue;
      expect_map(&im, x, y, (0.5 + 0.25 * x - 0.5) / 19.5);
    }
  expect_rgb(&im, 10, 3, 0, 0, 0);  /* no return: black */
  expect_rgb(&im, 10, 4, 0, 0, 0);  /* NaN: black */
  expect_map(&im, 10, 5, 1.0);      /* beyond the range: the last colour */
  expect_rgb(&im, 10, 100, 255, 255, 255); /* below the image: background */
  /* The colour bar: 18 px right of the image, rows 16 .. 195 (H - 44),
   * row r showing the map at t = 1 - (r - 16 + 0.5) / 180: its end at the
   * top, its start at the bottom, lightness falling down the bar. */
  const int bx = 64 + 18 + 10, top = 16, rows = SENSIM_PREVIEW_MIN_H - 16 - 44;
  double prev = INFINITY;
  for (int r = top + 1; r < top + rows - 1; r += 7) {
    uint8_t c[3], want[3];
    double lab[3];
    test_pixel(&im, bx, r, c);
    sensim_colormap_viridis(1.0 - (r - top + 0.5) / rows, want);
    if (test_rgb_diff(c, want) > 1)
      fail_msg("bar row %d: (%d, %d, %d), map (%d, %d, %d)", r, c[0], c[1], c[2], want[0], want[1],
               want[2]);
    test_srgb_to_lab(c, lab);
    assert_true(lab[0] < prev);
    prev = lab[0];
  }
  sensim_image_free(&im);
  free(d);
}

/* Through a 16-bit millimetre PNG as a camera's depth output writes it
 * (sensim_write_png of a depth_f32 frame): the same colours at 1 mm. */
static void test_depth_preview_reads_sensims_16_bit_millimetre_pngs(void **st) {
  (void)st;
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_DEPTH_F32, 64, 48));
  float *d = ramp_depth();
  memcpy(f.data, d, 64 * 48 * sizeof *d);
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/depth_mm.png", &f));
  sensim_frame_release(&f);
  sensim_depth_preview_params p;
  sensim_depth_preview_params_init(&p);
  p.max_range = 16.0;
  SENSIM_OK_OR_FAIL(sensim_depth_preview_png(TMP "/depth_mm.png", &p, TMP "/depth_mm_preview.png"));
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/depth_mm_preview.png", &im));
  for (int x = 0; x < 64; x += 3) expect_map(&im, x, 20, (0.5 + 0.25 * x) / 16.0);
  expect_rgb(&im, 5, 3, 0, 0, 0);
  expect_map(&im, 5, 5, 1.0); /* 100 m: clamped to 65.535 m by the file, still past the range */
  sensim_image_free(&im);
  free(d);
  /* A colour or 8-bit file is not a depth image. */
  assert_int_equal(sensim_depth_preview_png(TMP "/depth_mm_preview.png", &p, TMP "/x.png"),
                   SENSIM_EINVAL);
  assert_int_equal(sensim_depth_preview_png(TMP "/missing.png", &p, TMP "/x.png"), SENSIM_ENOTFOUND);
  assert_false(test_file_exists(TMP "/x.png"));
}

static void test_label_preview_colours_each_id_and_lists_it(void **st) {
  (void)st;
  enum { W = 60, H = 40 };
  sensim_label *l = calloc(W * H, sizeof *l);
  assert_non_null(l);
  /* Columns of 10 px: classes 0..5 (class 1 widest: 20 px), instances 100 + column. */
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      l[y * W + x].class_id = (uint16_t)(x < 20 ? 1 : x / 10);
      l[y * W + x].instance_id = 100u + (uint32_t)x / 10u;
    }
  SENSIM_OK_OR_FAIL(sensim_label_preview_write_png(l, W, H, SENSIM_LABEL_CLASS, TMP "/labels.png"));
  SENSIM_OK_OR_FAIL(sensim_label_preview_write_png(l, W, H, SENSIM_LABEL_INSTANCE, TMP "/inst.png"));
  sensim_image im, in;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/labels.png", &im));
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/inst.png", &in));
  for (int x = 0; x < W; x += 3)
    for (int y = 0; y < H; y += 13) {
      uint8_t want[3], got[3];
      sensim_label_color(l[y * W + x].class_id, want);
      test_pixel(&im, x, y, got);
      assert_int_equal(test_rgb_diff(got, want), 0);
      sensim_label_color(l[y * W + x].instance_id, want);
      test_pixel(&in, x, y, got);
      assert_int_equal(test_rgb_diff(got, want), 0);
    }
  /* The legend holds a swatch of every class present, class 1 (the most
   * pixels) first, in the panel right of the image. */
  int first_row[6];
  for (int id = 1; id <= 5; id++) {
    uint8_t want[3];
    sensim_label_color((uint32_t)id, want);
    first_row[id] = -1;
    for (int y = 0; y < (int)im.height && first_row[id] < 0; y++)
      for (int x = W; x < (int)im.width; x++) {
        uint8_t got[3];
        test_pixel(&im, x, y, got);
        if (test_rgb_diff(got, want) == 0) {
          first_row[id] = y;
          break;
        }
      }
    if (first_row[id] < 0) fail_msg("no swatch of class %d in the legend", id);
  }
  for (int id = 2; id <= 5; id++) assert_true(first_row[1] < first_row[id]);
  sensim_image_free(&im);
  sensim_image_free(&in);
  /* As a 16-bit class-id PNG (the labels payload's file), by class. */
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_LABELS, W, H));
  memcpy(f.data, l, W * H * sizeof *l);
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/labels16.png", &f));
  sensim_frame_release(&f);
  SENSIM_OK_OR_FAIL(sensim_label_preview_png(TMP "/labels16.png", TMP "/labels16_preview.png"));
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/labels16_preview.png", &im));
  for (int x = 0; x < W; x += 5) {
    uint8_t want[3], got[3];
    sensim_label_color(l[x].class_id, want);
    test_pixel(&im, x, 7, got);
    assert_int_equal(test_rgb_diff(got, want), 0);
  }
  sensim_image_free(&im);
  free(l);
}

static void test_previews_refuse_bad_input(void **st) {
  (void)st;
  float d[4] = {1, 2, 3, 4};
  sensim_label l[4];
  memset(l, 0, sizeof l);
  sensim_depth_preview_params p;
  sensim_depth_preview_params_init(&p);
  assert_int_equal(sensim_depth_preview_write_png(NULL, 2, 2, &p, TMP "/b.png"), SENSIM_EINVAL);
  assert_int_equal(sensim_depth_preview_write_png(d, 0, 2, &p, TMP "/b.png"), SENSIM_EINVAL);
  assert_int_equal(sensim_depth_preview_write_png(d, 2, 2, NULL, TMP "/b.png"), SENSIM_EINVAL);
  assert_int_equal(sensim_depth_preview_write_png(d, 20000, 1, &p, TMP "/b.png"), SENSIM_EINVAL);
  p.max_range = p.min_range;
  assert_int_equal(sensim_depth_preview_write_png(d, 2, 2, &p, TMP "/b.png"), SENSIM_EINVAL);
  sensim_depth_preview_params_init(&p);
  assert_int_equal(sensim_depth_preview_write_png(d, 2, 2, &p, TMP "/no/dir/b.png"), SENSIM_EIO);
  assert_int_equal(sensim_label_preview_write_png(l, 2, 2, (sensim_label_field)7, TMP "/b.png"),
                   SENSIM_EINVAL);
  assert_int_equal(sensim_label_preview_write_png(NULL, 2, 2, SENSIM_LABEL_CLASS, TMP "/b.png"),
                   SENSIM_EINVAL);
  assert_int_equal(sensim_label_preview_png(TMP "/missing.png", TMP "/b.png"), SENSIM_ENOTFOUND);
  assert_false(test_file_exists(TMP "/b.png"));
  test_assert_no_temp_files(TMP);
}

int sensim_test_preview(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_depth_preview_pixel_has_the_map_colour_of_its_depth),
      cmocka_unit_test(test_depth_preview_reads_sensims_16_bit_millimetre_pngs),
      cmocka_unit_test(test_label_preview_colours_each_id_and_lists_it),
      cmocka_unit_test(test_previews_refuse_bad_input),
  };
  return cmocka_run_group_tests_name("preview", tests, setup, NULL);
}
