/* tests/tools/plot_tests.c: the PNG plot writer (tools/plot.c), read back
 * with sensim_read_png. Text is drawn with whatever font the machine has,
 * so these check where things are, not how each pixel looks: a line runs
 * through the pixels its data map to, ticks stand at their values, bars
 * are filled to their heights, the legend and labels hold ink. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sensim_tools/plot.h>
#include "support/pixels.h"
#include "support/testutil.h"
#include "tools/plot_internal.h"

static const char *tmp_dir(void) {
  sensim_mkdirs(SENSIM_TEST_TMP);
  return SENSIM_TEST_TMP;
}

static int dark(const sensim_image *im, int x, int y) {
  uint8_t p[3];
  test_pixel(im, x, y, p);
  return p[0] < 110 && p[1] < 110 && p[2] < 110;
}

static int light(const sensim_image *im, int x, int y) {
  uint8_t p[3];
  test_pixel(im, x, y, p);
  return p[0] > 200 && p[1] > 200 && p[2] > 200;
}

/* Dark pixels in the box [x0, x1) x [y0, y1). */
static int ink(const sensim_image *im, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) n += dark(im, x, y);
  return n;
}

static void write_and_read(sensim_plot *p, const char *name, sensim_image *im) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmp_dir(), name);
  SENSIM_OK_OR_FAIL(sensim_plot_write_png(p, path));
  SENSIM_OK_OR_FAIL(sensim_read_png(path, im));
}

static void test_plot_line_passes_through_the_pixels_its_data_map_to(void **st) {
  (void)st;
  sensim_plot *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_plot_create(400, 300, "y = 2x + 1", "x", "y", 0, 0, &p));
  double x[11], y[11];
  for (int i = 0; i < 11; i++) x[i] = i, y[i] = 2.0 * i + 1.0;
  sensim_plot_style red = {{210, 30, 20}, 0, 0, NULL};
  SENSIM_OK_OR_FAIL(sensim_plot_line(p, x, y, 11, &red));
  sensim_tools__plot_frame f;
  sensim_tools__plot_frame_of(p, &f);
  /* Axes fitted to the data with 5 % either side. */
  assert_near(f.u0, -0.5, 1e-12);
  assert_near(f.u1, 10.5, 1e-12);
  assert_near(f.v0, 1.0 - 1.0, 1e-12);
  assert_near(f.v1, 21.0 + 1.0, 1e-12);
  sensim_image im;
  write_and_read(p, "plot_line.png", &im);
  sensim_plot_destroy(p);
  assert_int_equal(im.width, 400);
  assert_int_equal(im.height, 300);
  /* On the line, at data points and between them: the line's colour. */
  const double at[6] = {0.0, 0.5, 3.3, 5.0, 7.75, 10.0};
  for (int i = 0; i < 6; i++) {
    double px = sensim_tools__plot_px_x(&f, at[i]), py = sensim_tools__plot_px_y(&f, 2 * at[i] + 1);
    uint8_t c[3];
    test_pixel(&im, (int)floor(px), (int)floor(py), c);
    if (test_rgb_diff(c, red.rgb) > 45)
      fail_msg("x = %g: pixel (%.1f, %.1f) is (%d, %d, %d), not the line's colour", at[i], px, py,
               c[0], c[1], c[2]);
    /* 8 px above it, nothing red (the slope is about 1.5 px/px: the line
     * is more than 4 px away there). */
    test_pixel(&im, (int)floor(px), (int)floor(py) - 8, c);
    assert_true(c[0] - c[1] < 40);
  }
  sensim_image_free(&im);
}

static void test_plot_log_axes_have_decade_ticks_where_the_decades_map(void **st) {
  (void)st;
  sensim_plot *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_plot_create(640, 420, "Allan deviation", "tau (s)", "ADEV", 1, 1, &p));
  double x[50], y[50];
  for (int i = 0; i < 50; i++) x[i] = pow(10.0, -2 + 0.1 * i), y[i] = 1e-3 / sqrt(x[i]);
  sensim_plot_style blue = {{20, 60, 200}, 0, 1, "gx"};
  SENSIM_OK_OR_FAIL(sensim_plot_line(p, x, y, 50, &blue));
  sensim_tools__plot_frame f;
  sensim_tools__plot_frame_of(p, &f);
  sensim_image im;
  write_and_read(p, "plot_loglog.png", &im);
  sensim_plot_destroy(p);
  int y1 = (int)f.y1, x0 = (int)f.x0, decades = 0;
  for (int k = -2; k <= 2; k++) {
    int tx = (int)floor(sensim_tools__plot_px_x(&f, pow(10.0, k)));
    /* A major tick: 6 px below the axes. */
    for (int r = 1; r < SENSIM_TOOLS__MAJOR_TICK; r++)
      if (!dark(&im, tx, y1 + r)) fail_msg("no tick at 1e%d (column %d, row %d)", k, tx, y1 + r);
    /* Its label below it. */
    if (ink(&im, tx - 14, y1 + 9, tx + 15, y1 + 26) < 6) fail_msg("no label under 1e%d", k);
    /* A minor tick at 2 x the decade: shorter. */
    int mx = (int)floor(sensim_tools__plot_px_x(&f, 2.0 * pow(10.0, k)));
    assert_true(dark(&im, mx, y1 + 1));
    assert_true(light(&im, mx, y1 + SENSIM_TOOLS__MAJOR_TICK - 1));
    /* No tick between 1 and 2 times the decade. */
    int gx = (int)floor(sensim_tools__plot_px_x(&f, 1.4 * pow(10.0, k)));
    for (int r = 1; r < SENSIM_TOOLS__MAJOR_TICK; r++) assert_true(light(&im, gx, y1 + r));
    decades++;
  }
  assert_int_equal(decades, 5);
  /* The y axis: 1e-3 / sqrt(x) spans 10^-4.5 .. 10^-2, so 10^-4 and 10^-3
   * are ticked left of the axes. */
  for (int k = -4; k <= -3; k++) {
    int ty = (int)floor(sensim_tools__plot_px_y(&f, pow(10.0, k)));
    for (int c = 1; c < SENSIM_TOOLS__MAJOR_TICK; c++) assert_true(dark(&im, x0 - c, ty));
    if (ink(&im, x0 - 50, ty - 8, x0 - 8, ty + 8) < 6) fail_msg("no label left of 1e%d", k);
  }
  /* The legend's sample line in the series' colour, in the top right. */
  int found = 0;
  for (int yy = (int)f.y0; yy < (int)f.y0 + 40; yy++)
    for (int xx = (int)f.x1 - 120; xx < (int)f.x1; xx++) {
      uint8_t c[3];
      test_pixel(&im, xx, yy, c);
      found += test_rgb_diff(c, blue.rgb) < 30;
    }
  assert_true(found > 20);
  /* Title and axis labels hold ink. */
  assert_true(ink(&im, 200, 0, 440, (int)f.y0) > 30);
  assert_true(ink(&im, (int)f.x0, y1 + 26, (int)f.x1, 420) > 20);
  assert_true(ink(&im, 0, (int)f.y0, 22, y1) > 10);
  sensim_image_free(&im);
}

static void test_plot_bars_are_filled_to_their_heights(void **st) {
  (void)st;
  sensim_plot *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_plot_create(320, 240, NULL, NULL, NULL, 0, 0, &p));
  const double edges[5] = {-2, -1, 0, 1, 2}, counts[4] = {3, 9, 7, 1};
  sensim_plot_style g = {{0, 150, 0}, 0, 0, "h"};
  SENSIM_OK_OR_FAIL(sensim_plot_bars(p, edges, counts, 4, &g));
  sensim_tools__plot_frame f;
  sensim_tools__plot_frame_of(p, &f);
  assert_near(f.v0, -0.45, 1e-12); /* bars stand on 0: 0 .. 9, +/- 5 % */
  sensim_image im;
  write_and_read(p, "plot_bars.png", &im);
  sensim_plot_destroy(p);
  /* A quarter of the colour over white inside each bar (half-way up, between
   * the grid lines at whole counts), white above it. */
  const uint8_t tint[3] = {191, 229, 191};
  for (int i = 0; i < 4; i++) {
    int cx = (int)floor(sensim_tools__plot_px_x(&f, edges[i] + 0.3)); /* off the grid */
    int top = (int)floor(sensim_tools__plot_px_y(&f, counts[i]));
    int bottom = (int)floor(sensim_tools__plot_px_y(&f, 0.0));
    uint8_t c[3];
    test_pixel(&im, cx, (top + bottom) / 2, c);
    if (test_rgb_diff(c, tint) > 12) fail_msg("bar %d is (%d, %d, %d) inside", i, c[0], c[1], c[2]);
    test_pixel(&im, cx, top - 4, c);
    assert_true(c[1] - c[0] < 20); /* not green: above the bar */
  }
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
  test_assert_no_temp_files(tmp_dir());
}

static void test_plot_ticks_fall_on_round_values(void **st) {
  (void)st;
  double maj[64], mnr[128];
  int nm = 0;
  /* Linear: 1-2-5 steps. */
  int n = sensim_tools__plot_ticks(-0.3, 2.2, 0, maj, 64, mnr, &nm, 128);
  assert_int_equal(n, 5);
  assert_int_equal(nm, 0);
  for (int i = 0; i < n; i++) assert_near(maj[i], 0.5 * i, 1e-12);
  /* Log over 10^-2.2 .. 10^1.3: decades -2..1, minors at 2..9 in each. */
  n = sensim_tools__plot_ticks(-2.2, 1.3, 1, maj, 64, mnr, &nm, 128);
  assert_int_equal(n, 4);
  for (int i = 0; i < n; i++) assert_near(maj[i], -2.0 + i, 1e-12);
  assert_near(mnr[0], -3.0 + log10(7.0), 1e-12); /* 10^-2.2 = 6.3e-3: 7e-3 is the first */
  assert_int_equal(nm, 3 + 8 * 3); /* 7e-3..9e-3, then three full decades (20 > 10^1.3) */
  /* Twenty decades: every third, no minors. */
  n = sensim_tools__plot_ticks(-10.0, 10.0, 1, maj, 64, mnr, &nm, 128);
  assert_int_equal(nm, 0);
  assert_near(maj[1] - maj[0], 3.0, 1e-12);
  /* Within one decade: 1, 2, 5. */
  n = sensim_tools__plot_ticks(log10(1.5), log10(60.0), 1, maj, 64, mnr, &nm, 128);
  assert_int_equal(n, 5); /* 2, 5, 10, 20, 50 */
  assert_near(maj[0], log10(2.0), 1e-12);
  assert_near(maj[4], log10(50.0), 1e-12);
}

/* The photon-transfer plot of a hand-made fit: every bin's marker where
 * its (mean, variance) maps, the fitted line through a I + b. */
static void test_noise_calib_plot_marks_each_bin_at_its_mean_and_variance(void **st) {
  (void)st;
  static sensim_noise_fit fit; /* about 10 kB */
  memset(&fit, 0, sizeof fit);
  fit.a = 0.02;
  fit.b = 0.01;
  fit.nbins_used = 8;
  for (int i = 0; i < 8; i++) {
    fit.bins[i].mean = 0.1 + 0.1 * i;
    /* Alternately above and below the line, so markers and line part. */
    fit.bins[i].var = fit.a * fit.bins[i].mean + fit.b + (i % 2 ? 0.003 : -0.003);
  }
  sensim_plot *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_tools__noise_calib_plot(&fit, NULL, &p));
  sensim_tools__plot_frame f;
  sensim_tools__plot_frame_of(p, &f);
  sensim_image im;
  write_and_read(p, "noise_calib_plot.png", &im);
  sensim_plot_destroy(p);
  const uint8_t blue[3] = {20, 80, 200}, red[3] = {200, 40, 30};
  for (int i = 0; i < 8; i++) {
    int x = (int)floor(sensim_tools__plot_px_x(&f, fit.bins[i].mean));
    int y = (int)floor(sensim_tools__plot_px_y(&f, fit.bins[i].var));
    uint8_t c[3];
    test_pixel(&im, x, y, c);
    if (test_rgb_diff(c, blue) > 30) fail_msg("bin %d: (%d, %d, %d) at its marker", i, c[0], c[1], c[2]);
  }
  /* The fit's line (dashed: look along 12 px of it) at I = 0.45. */
  int found = 0;
  for (int dx = -6; dx <= 6; dx++) {
    double xv = 0.45 + dx * (f.u1 - f.u0) / (f.x1 - f.x0);
    uint8_t c[3];
    test_pixel(&im, (int)floor(sensim_tools__plot_px_x(&f, xv)),
               (int)floor(sensim_tools__plot_px_y(&f, fit.a * xv + fit.b)), c);
    found += test_rgb_diff(c, red) < 40;
  }
  assert_true(found >= 3);
  sensim_image_free(&im);
  fit.nbins_used = 0;
  assert_int_equal(sensim_noise_calib_plot_png(&fit, NULL, SENSIM_TEST_TMP "/x.png"), SENSIM_EINVAL);
  assert_int_equal(sensim_noise_calib_plot_png(NULL, NULL, SENSIM_TEST_TMP "/x.png"), SENSIM_EINVAL);
}

int sensim_test_plot(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plot_line_passes_through_the_pixels_its_data_map_to),
      cmocka_unit_test(test_plot_log_axes_have_decade_ticks_where_the_decades_map),
      cmocka_unit_test(test_plot_bars_are_filled_to_their_heights),
      cmocka_unit_test(test_plot_bad_input_is_rejected),
      cmocka_unit_test(test_plot_ticks_fall_on_round_values),
      cmocka_unit_test(test_noise_calib_plot_marks_each_bin_at_its_mean_and_variance),
  };
  return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
