/* tests/tools/birdseye_tests.c: the bird's-eye figure (tools/birdseye.c)
 * around images the real "birdseye" filter makes (run through a standalone
 * chain): the scan sits 1:1 where the figure says, ticks stand at whole
 * metres of the sensor frame, the colour bar shows the filter's own colour
 * at each height, and the vehicle is drawn at the origin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/birdseye.h>
#include "support/pixels.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/birdseye"

enum { SIZE = 400 };
static const double RANGE = 20.0, ZMIN = -1.0, ZMAX = 1.0; /* s = 0.1 m per px */

static int setup(void **st) {
  (void)st;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* The filter's picture of n points, in f (release it). */
static void run_filter(const sensim_point *pts, size_t n, sensim_frame *f) {
  char params[200];
  snprintf(params, sizeof params,
           "{\"size_px\": %d, \"range\": %g, \"color\": \"height\", \"z_min\": %g, \"z_max\": %g}",
           SIZE, RANGE, ZMIN, ZMAX);
  sensim_filter_chain *chain = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_POINTS, &chain));
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(chain, "birdseye", params));
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, SENSIM_PAYLOAD_POINTS, (uint32_t)n, 1));
  memcpy(f->data, pts, n * sizeof *pts);
  SENSIM_OK_OR_FAIL(sensim_filter_chain_run(chain, f, 1, 0));
  sensim_filter_chain_destroy(chain);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RGBA8);
  assert_int_equal(f->width, SIZE);
}

static void params(sensim_birdseye_figure_params *p) {
  sensim_birdseye_figure_params_init(p);
  p->range = RANGE;
  p->color = SENSIM_BIRDSEYE_HEIGHT;
  p->z_min = ZMIN;
  p->z_max = ZMAX;
  p->vehicle_length = 4.0;
  p->vehicle_width = 2.0;
}

/* Points on a line at x = 7.25 m, y from -15.27 to 14.73 m (off the grid
 * lines, which fall on whole multiples of 5 m), heights rising
 * from z_min to z_max along it. */
static void make_points(sensim_point *pts, int n) {
  memset(pts, 0, (size_t)n * sizeof *pts);
  for (int i = 0; i < n; i++) {
    pts[i].x = 7.25f;
    pts[i].y = (float)(-15.27 + 30.0 * i / (n - 1));
    pts[i].z = (float)(ZMIN + (ZMAX - ZMIN) * i / (n - 1));
    pts[i].intensity = 0.5f;
  }
}

static void test_birdseye_figure_shows_the_scan_one_to_one_with_ticks_at_metres(void **st) {
  (void)st;
  enum { NP = 31 };
  sensim_point pts[NP];
  make_points(pts, NP);
  sensim_frame f;
  run_filter(pts, NP, &f);
  sensim_birdseye_figure_params p;
  params(&p);
  p.title = "test";
  sensim_birdseye_figure_info g;
  SENSIM_OK_OR_FAIL(sensim_birdseye_figure_write_png(f.data, SIZE, &p, TMP "/fig.png", &g));
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/fig.png", &im));
  assert_int_equal(im.width, (uint32_t)g.width);
  assert_int_equal(im.height, (uint32_t)g.height);
  const double s = 2 * RANGE / SIZE;
  /* Each point's pixel (row floor((R - x) / s), column floor((R - y) / s))
   * has the filter's colour at that place in the figure. */
  const uint8_t *img = f.data;
  for (int i = 0; i < NP; i++) {
    int v = (int)floor((RANGE - pts[i].x) / s), u = (int)floor((RANGE - pts[i].y) / s);
    const uint8_t *want = img + 4 * ((size_t)v * SIZE + (size_t)u);
    assert_true(want[0] + want[1] + want[2] > 200); /* the filter drew it */
    uint8_t got[3];
    test_pixel(&im, g.image_x + u, g.image_y + v, got);
    if (test_rgb_diff(got, want) > 0)
      fail_msg("point %d at (%d, %d): (%d, %d, %d) in the figure, (%d, %d, %d) in the scan", i, u,
               v, got[0], got[1], got[2], want[0], want[1], want[2]);
  }
  /* Ticks every tick_step metres, including 0: x (forward) on the left
   * edge at row floor((R - x) / s), y (left) under the bottom edge at
   * column floor((R - y) / s). */
  assert_true(g.tick_step >= 2.0 && g.tick_step <= 10.0);
  int ticks = 0;
  for (double m = -RANGE; m <= RANGE; m += g.tick_step) {
    int d = (int)floor((RANGE - m) / s);
    if (d >= SIZE) d = SIZE - 1;
    uint8_t c[3];
    for (int k = 2; k <= 5; k++) {
      test_pixel(&im, g.image_x - k, g.image_y + d, c);
      if (c[0] > 90) fail_msg("no x tick at %g m (row %d)", m, g.image_y + d);
      test_pixel(&im, g.image_x + d, g.image_y + SIZE + k, c);
      if (c[0] > 90) fail_msg("no y tick at %g m (column %d)", m, g.image_x + d);
    }
    /* Half a step away there is none. */
    int h = (int)floor((RANGE - m - g.tick_step / 2) / s);
    if (h >= 0) {
      test_pixel(&im, g.image_x - 4, g.image_y + h, c);
      assert_true(c[0] > 200);
    }
    ticks++;
  }
  assert_true(ticks >= 5);
  /* The vehicle: its 4 x 2 m footprint's outline around the centre
   * (x = 0 at row 200, y = 0 at column 200): a left edge 1 m from the
   * centre, white over the black scan; the heading arrow above it. */
  uint8_t c[3];
  test_pixel(&im, g.image_x + 200 - 10, g.image_y + 200 + 5, c);
  assert_true(c[0] > 180 && c[1] > 180 && c[2] > 180);
  test_pixel(&im, g.image_x + 200, g.image_y + 200 - 25, c); /* 2.5 m ahead: arrow shaft */
  assert_true(c[0] > 180);
  test_pixel(&im, g.image_x + 200 - 30, g.image_y + 200 - 25, c); /* beside it: scan black */
  assert_true(c[0] < 60 && c[1] < 60 && c[2] < 60);
  sensim_image_free(&im);
  sensim_frame_release(&f);
}

static void test_birdseye_colour_bar_shows_the_filters_colour_at_each_height(void **st) {
  (void)st;
  enum { NP = 9 };
  sensim_point pts[NP];
  make_points(pts, NP);
  sensim_frame f;
  run_filter(pts, NP, &f);
  sensim_birdseye_figure_params p;
  params(&p);
  sensim_birdseye_figure_info g;
  SENSIM_OK_OR_FAIL(sensim_birdseye_figure_write_png(f.data, SIZE, &p, TMP "/bar.png", &g));
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/bar.png", &im));
  const double s = 2 * RANGE / SIZE;
  for (int i = 0; i < NP; i++) {
    int v = (int)floor((RANGE - pts[i].x) / s), u = (int)floor((RANGE - pts[i].y) / s);
    const uint8_t *want = (const uint8_t *)f.data + 4 * ((size_t)v * SIZE + (size_t)u);
    /* Row r of the bar shows t = 1 - (r + 0.5) / bar_h; this point's t: */
    double t = (pts[i].z - ZMIN) / (ZMAX - ZMIN);
    int r = (int)floor((1.0 - t) * g.bar_h);
    r = r < 1 ? 1 : r > g.bar_h - 2 ? g.bar_h - 2 : r; /* inside the bar's outline */
    uint8_t got[3];
    test_pixel(&im, g.bar_x + g.bar_w / 2, g.bar_y + r, got);
    if (test_rgb_diff(got, want) > 8)
      fail_msg("z = %g m: bar (%d, %d, %d), filter (%d, %d, %d)", pts[i].z, got[0], got[1], got[2],
               want[0], want[1], want[2]);
  }
  sensim_image_free(&im);
  sensim_frame_release(&f);
  /* Through the filter's PNG, as the demo does it. */
  sensim_frame g2;
  run_filter(pts, NP, &g2);
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/scan.png", &g2));
  sensim_frame_release(&g2);
  SENSIM_OK_OR_FAIL(sensim_birdseye_figure_png(TMP "/scan.png", &p, TMP "/scan_fig.png", &g));
  assert_true(test_file_exists(TMP "/scan_fig.png"));
}

static void test_birdseye_figure_refuses_bad_parameters(void **st) {
  (void)st;
  uint8_t img[4 * 16] = {0};
  sensim_birdseye_figure_params p;
  params(&p);
  assert_int_equal(sensim_birdseye_figure_write_png(NULL, 4, &p, TMP "/b.png", NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_birdseye_figure_write_png(img, 0, &p, TMP "/b.png", NULL), SENSIM_EINVAL);
  p.range = 0;
  assert_int_equal(sensim_birdseye_figure_write_png(img, 4, &p, TMP "/b.png", NULL), SENSIM_EINVAL);
  params(&p);
  p.z_max = p.z_min;
  assert_int_equal(sensim_birdseye_figure_write_png(img, 4, &p, TMP "/b.png", NULL), SENSIM_EINVAL);
  params(&p);
  p.color = SENSIM_BIRDSEYE_RING;
  p.rings = 0;
  assert_int_equal(sensim_birdseye_figure_write_png(img, 4, &p, TMP "/b.png", NULL), SENSIM_EINVAL);
  params(&p);
  p.vehicle_width = -1;
  assert_int_equal(sensim_birdseye_figure_write_png(img, 4, &p, TMP "/b.png", NULL), SENSIM_EINVAL);
  assert_false(test_file_exists(TMP "/b.png"));
  params(&p);
  p.color = SENSIM_BIRDSEYE_RING; /* ring and intensity bars render too */
  SENSIM_OK_OR_FAIL(sensim_birdseye_figure_write_png(img, 4, &p, TMP "/ring.png", NULL));
  p.color = SENSIM_BIRDSEYE_INTENSITY;
  SENSIM_OK_OR_FAIL(sensim_birdseye_figure_write_png(img, 4, &p, TMP "/intensity.png", NULL));
  assert_int_equal(sensim_birdseye_figure_png(TMP "/missing.png", &p, TMP "/b.png", NULL),
                   SENSIM_ENOTFOUND);
}

int sensim_test_birdseye(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_birdseye_figure_shows_the_scan_one_to_one_with_ticks_at_metres),
      cmocka_unit_test(test_birdseye_colour_bar_shows_the_filters_colour_at_each_height),
      cmocka_unit_test(test_birdseye_figure_refuses_bad_parameters),
  };
  return cmocka_run_group_tests_name("birdseye", tests, setup, NULL);
}
