/* tests/tools/colormap_tests.c: viridis and the label colours
 * (tools/colormap.c), judged with CIE 1976 L*a*b* computed here from sRGB
 * (support/pixels.c), not with the library's own conversion. */
#include <string.h>
#include <sensim_tools/colormap.h>
#include "support/pixels.h"
#include "support/testutil.h"

static void assert_rgb_near(const uint8_t got[3], int r, int g, int b, int tol, const char *what) {
  const uint8_t want[3] = {(uint8_t)r, (uint8_t)g, (uint8_t)b};
  if (test_rgb_diff(got, want) > tol)
    fail_msg("%s: (%d, %d, %d), expected (%d, %d, %d) within %d", what, got[0], got[1], got[2], r,
             g, b, tol);
}

/* The colours viridis is known by (#440154, #3B528B, #21918C, #5EC962,
 * #FDE725: entries 0, 64, 128, 192 and 255 of the published table, the
 * ones matplotlib's documentation and most palettes quote). */
static void test_viridis_matches_the_published_colours_at_ends_quarters_and_middle(void **st) {
  (void)st;
  uint8_t c[3];
  sensim_colormap_viridis(0.0, c);
  assert_rgb_near(c, 0x44, 0x01, 0x54, 1, "t = 0");
  sensim_colormap_viridis(64.0 / 255.0, c);
  assert_rgb_near(c, 0x3b, 0x52, 0x8b, 1, "t = 64/255");
  sensim_colormap_viridis(128.0 / 255.0, c);
  assert_rgb_near(c, 0x21, 0x91, 0x8c, 1, "t = 128/255");
  sensim_colormap_viridis(192.0 / 255.0, c);
  assert_rgb_near(c, 0x5e, 0xc9, 0x62, 1, "t = 192/255");
  sensim_colormap_viridis(1.0, c);
  assert_rgb_near(c, 0xfd, 0xe7, 0x25, 1, "t = 1");
  /* Clamped outside [0, 1]; NaN is the start. */
  uint8_t e[3];
  sensim_colormap_viridis(-3.0, c);
  sensim_colormap_viridis(0.0, e);
  assert_memory_equal(c, e, 3);
  sensim_colormap_viridis(NAN, c);
  assert_memory_equal(c, e, 3);
  sensim_colormap_viridis(7.0, c);
  sensim_colormap_viridis(1.0, e);
  assert_memory_equal(c, e, 3);
}

/* A perceptually uniform sequential map: L* rises at every step, and by
 * nearly the same amount (viridis's lightness J' is linear in t; CIE 1976
 * L* follows it to within a factor of 2 from step to step), so it reads
 * the same printed in grey. */
static void test_viridis_lightness_rises_monotonically_in_even_steps(void **st) {
  (void)st;
  enum { N = 64 };
  double prev = -1.0, dmin = INFINITY, dmax = 0.0, first = 0.0;
  for (int i = 0; i <= N; i++) {
    uint8_t c[3];
    double lab[3];
    sensim_colormap_viridis(i / (double)N, c);
    test_srgb_to_lab(c, lab);
    if (i == 0) first = lab[0];
    if (i > 0) {
      if (!(lab[0] > prev)) fail_msg("L* falls from %.2f to %.2f at t = %g", prev, lab[0], i / (double)N);
      dmin = fmin(dmin, lab[0] - prev);
      dmax = fmax(dmax, lab[0] - prev);
    }
    prev = lab[0];
  }
  assert_true(first < 20.0 && prev > 85.0); /* dark to light */
  assert_true(dmax / dmin < 2.0);
}

static void test_label_colours_are_distinct_for_100_ids(void **st) {
  (void)st;
  enum { N = 101 }; /* ids 0..100: background and 100 labels */
  uint8_t c[N][3];
  for (uint32_t id = 0; id < N; id++) sensim_label_color(id, c[id]);
  double dmin = INFINITY;
  int wa = 0, wb = 0;
  for (int a = 0; a < N; a++)
    for (int b = a + 1; b < N; b++) {
      double d = test_delta_e(c[a], c[b]);
      if (d < dmin) dmin = d, wa = a, wb = b;
    }
  if (dmin < 20.0) fail_msg("ids %d and %d are only %.2f Delta E*ab apart", wa, wb, dmin);
}

static void test_label_colours_are_stable_and_black_for_id_0(void **st) {
  (void)st;
  uint8_t c[3], d[3];
  sensim_label_color(0, c);
  assert_rgb_near(c, 0, 0, 0, 0, "id 0");
  /* The first ids are the extremes of the sRGB cube farthest from black
   * and from each other: these are part of the promise (the same every
   * run), so a change to the design shows here. */
  sensim_label_color(1, c);
  assert_rgb_near(c, 0, 255, 0, 0, "id 1");
  sensim_label_color(2, c);
  assert_rgb_near(c, 0, 0, 255, 0, "id 2");
  sensim_label_color(3, c);
  assert_rgb_near(c, 255, 0, 0, 0, "id 3");
  /* Ids beyond 255 repeat the cycle; a call does not change the next. */
  for (uint32_t id = 1; id < 600; id += 37) {
    sensim_label_color(id, c);
    sensim_label_color(id + 255, d);
    assert_memory_equal(c, d, 3);
    sensim_label_color(id, d);
    assert_memory_equal(c, d, 3);
  }
  sensim_label_color(UINT32_MAX, c);
  sensim_label_color(1 + (UINT32_MAX - 1) % 255, d);
  assert_memory_equal(c, d, 3);
}

int sensim_test_colormap(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_viridis_matches_the_published_colours_at_ends_quarters_and_middle),
      cmocka_unit_test(test_viridis_lightness_rises_monotonically_in_even_steps),
      cmocka_unit_test(test_label_colours_are_distinct_for_100_ids),
      cmocka_unit_test(test_label_colours_are_stable_and_black_for_id_0),
  };
  return cmocka_run_group_tests_name("colormap", tests, NULL, NULL);
}
