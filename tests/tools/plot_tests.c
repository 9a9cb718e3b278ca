/* tests/tools/plot_tests.c: the PNG plot writer (tools/plot.c) and its
 * built-in font (tools/plot_font.c), read back with sensim_read_png. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sensim_tools/plot.h>
#include "support/testutil.h"
#include "tools/plot_font.h"

static const char *tmp_dir(void) {
  sensim_mkdirs(SENSIM_TEST_TMP);
  return SENSIM_TEST_TMP;
}

/* Number of pixels of exactly this 8-bit colour. */
static size_t count_colour(const sensim_image *im, const uint8_t rgb[3]) {
  size_t n = 0;
  for (size_t i = 0; i < (size_t)im->width * im->height; i++) {
    const float *p = im->data + 3 * i;
    if (lroundf(p[0] * 255.0f) == rgb[0] && lroundf(p[1] * 255.0f) == rgb[1] &&
        lroundf(p[2] * 255.0f) == rgb[2])
      n++;
  }
  return n;
}

static void test_plot_writes_readable_rgb_png_of_requested_size_with_series_drawn(void **st) {
  (void)st;
  char path[512];
  snprintf(path, sizeof path, "%s/plot_loglog.png", tmp_dir());
  sensim_plot *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_plot_create(333, 211, "Allan deviation (test)", "tau (s)", "ADEV", 1, 1, &p));
  double x[50], y[50];
  for (int i = 0; i < 50; i++) x[i] = pow(10.0, -2 + 0.1 * i), y[i] = 1e-3 / sqrt(x[i]);
  y[7] = -1.0; /* skipped on a log axis: a gap, not an error */
  y[8] = NAN;
  sensim_plot_style red = {{220, 20, 30}, 0, 1, "gx"}, blue = {{10, 40, 200}, 1, 0, "fit"};
  SENSIM_OK_OR_FAIL(sensim_plot_line(p, x, y, 50, &red));
  double fx[2] = {1e-2, 1e3}, fy[2] = {1e-2, 1e-3 / sqrt(1e3)};
  SENSIM_OK_OR_FAIL(sensim_plot_line(p, fx, fy, 2, &blue));
  SENSIM_OK_OR_FAIL(sensim_plot_write_png(p, path));
  sensim_plot_destroy(p);
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(path, &im));
  assert_int_equal(im.width, 333);
  assert_int_equal(im.height, 211);
  assert_int_equal(im.channels, 3);
  const uint8_t white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
  assert_true(count_colour(&im, red.rgb) > 100);  /* line, markers, legend */
  assert_true(count_colour(&im, blue.rgb) > 50);
  assert_true(count_colour(&im, black) > 300);    /* axes, ticks, text */
  assert_true(count_colour(&im, white) > 333 * 211 / 2);
  /* Top-left corner is background; the title's row holds black pixels. */
  assert_true(im.data[0] == 1.0f && im.data[1] == 1.0f && im.data[2] == 1.0f);
  size_t title_px = 0;
  for (int y0 = 8; y0 < 15; y0++)
    for (int x0 = 0; x0 < 333; x0++) title_px += im.data[3 * (y0 * 333 + x0)] == 0.0f;
  assert_true(title_px > 40);
  sensim_image_free(&im);
  test_assert_no_temp_files(tmp_dir());
}

static void test_plot_bars_and_linear_axes_render(void **st) {
  (void)st;
  char path[512];
  snprintf(path, sizeof path, "%s/plot_bars.png", tmp_dir());
  sensim_plot *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_plot_create(160, 120, NULL, NULL, NULL, 0, 0, &p));
  const double edges[5] = {-2, -1, 0, 1, 2}, counts[4] = {3, 10, 8, 1};
  sensim_plot_style g = {{0, 150, 0}, 0, 0, "h"};
  SENSIM_OK_OR_FAIL(sensim_plot_bars(p, edges, counts, 4, &g));
  SENSIM_OK_OR_FAIL(sensim_plot_bars(p, edges, counts, 4, NULL));
  SENSIM_OK_OR_FAIL(sensim_plot_write_png(p, path));
  sensim_plot_destroy(p);
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(path, &im));
  assert_int_equal(im.width, 160);
  assert_int_equal(im.height, 120);
  sensim_image_free(&im);
}

static void test_plot_bad_input_is_rejected(void **st) {
  (void)st;
  sensim_plot *p = NULL;
  assert_int_equal(sensim_plot_create(159, 120, NULL, NULL, NULL, 0, 0, &p), SENSIM_EINVAL);
  assert_int_equal(sensim_plot_create(160, 119, NULL, NULL, NULL, 0, 0, &p), SENSIM_EINVAL);
  assert_int_equal(sensim_plot_create(100000, 200, NULL, NULL, NULL, 0, 0, &p), SENSIM_EINVAL);
  assert_int_equal(sensim_plot_create(200, 200, NULL, NULL, NULL, 0, 0, NULL), SENSIM_EINVAL);
  assert_null(p);
  SENSIM_OK_OR_FAIL(sensim_plot_create(200, 200, "t", "x", "y", 0, 1, &p));
  double x[1] = {1}, y[1] = {1};
  assert_int_equal(sensim_plot_line(p, x, y, 0, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_plot_line(p, NULL, y, 1, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_plot_bars(p, x, y, 0, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_plot_write_png(p, NULL), SENSIM_EINVAL);
  char path[512];
  snprintf(path, sizeof path, "%s/no/such/dir/p.png", tmp_dir());
  assert_int_equal(sensim_plot_write_png(p, path), SENSIM_EIO);
  /* Still usable, and a plot with nothing drawable still renders. */
  snprintf(path, sizeof path, "%s/plot_empty.png", tmp_dir());
  SENSIM_OK_OR_FAIL(sensim_plot_write_png(p, path));
  sensim_plot_destroy(p);
  sensim_plot_destroy(NULL);
}

static void test_plot_font_has_every_glyph_labels_need(void **st) {
  (void)st;
  const char *need = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-+e/()^ ";
  for (const char *c = need; *c; c++) {
    const uint8_t *g = sensim_tools__font_glyph(*c);
    if (!g) fail_msg("no glyph for '%c'", *c);
    int on = 0;
    for (int r = 0; r < SENSIM_TOOLS__FONT_H; r++) {
      on += g[r] != 0;
      assert_true(g[r] < 32);
    }
    if (*c != ' ') assert_true(on >= 1);
  }
  assert_null(sensim_tools__font_glyph('\x01'));
  /* Distinct glyphs for characters that are easy to confuse. */
  assert_memory_not_equal(sensim_tools__font_glyph('0'), sensim_tools__font_glyph('O'), SENSIM_TOOLS__FONT_H);
  assert_memory_not_equal(sensim_tools__font_glyph('1'), sensim_tools__font_glyph('l'), SENSIM_TOOLS__FONT_H);
}

int sensim_test_plot(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plot_writes_readable_rgb_png_of_requested_size_with_series_drawn),
      cmocka_unit_test(test_plot_bars_and_linear_axes_render),
      cmocka_unit_test(test_plot_bad_input_is_rejected),
      cmocka_unit_test(test_plot_font_has_every_glyph_labels_need),
  };
  return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
