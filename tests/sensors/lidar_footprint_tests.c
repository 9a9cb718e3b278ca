/* tests/sensors/lidar_footprint_tests.c: the lidar beam's footprint. Its
 * sub-rays lie inside the beam with weights summing to one, follow the
 * Gaussian profile (circular, elliptical) or a uniform grid (rectangular)
 * against their closed forms, and bad shapes or counts are refused. */
#include <math.h>
#include <string.h>
#include "sensors/lidar_internal.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

static double wsum(const sensim_lidar_footprint *fp) {
  double s = 0;
  for (int k = 0; k < fp->n; k++) s += fp->w[k];
  return s;
}

static void test_lidar_footprint_one_subray_is_the_axis_with_all_energy(void **state) {
  (void)state;
  for (int shape = 0; shape < 3; shape++) {
    sensim_lidar_footprint fp = fp_make((sensim_beam_shape)shape, 3e-3, shape ? 1e-3 : 0.0, 1);
    assert_int_equal(fp.n, 1);
    assert_true(fp.dh[0] == 0.0f && fp.dv[0] == 0.0f && fp.w[0] == 1.0f);
    sensim__lidar_footprint_free(&fp);
  }
  /* An ideal ray (no divergence) too. */
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_ELLIPTICAL, 0.0, 0.0, 1);
  assert_true(fp.n == 1 && fp.w[0] == 1.0f);
  sensim__lidar_footprint_free(&fp);
  assert_null(fp.dh);
  sensim__lidar_footprint_free(&fp); /* twice is harmless */
}

static void test_lidar_footprint_weights_sum_to_one_inside_the_beam(void **state) {
  (void)state;
  const int ns[7] = {2, 3, 7, 16, 25, 64, 1024};
  const double wh = 4e-3, wv = 1.5e-3;
  for (int shape = 0; shape < 3; shape++)
    for (int i = 0; i < 7; i++) {
      double dv = shape == SENSIM_BEAM_CIRCULAR ? wh : wv;
      sensim_lidar_footprint fp = fp_make((sensim_beam_shape)shape, wh, shape ? wv : 0.0, ns[i]);
      assert_int_equal(fp.n, ns[i]);
      assert_near(wsum(&fp), 1.0, 1e-5);
      for (int k = 0; k < fp.n; k++) {
        assert_true(fp.w[k] > 0.0f);
        double x = fp.dh[k] / (0.5 * wh), y = fp.dv[k] / (0.5 * dv);
        if (shape == SENSIM_BEAM_RECTANGULAR) assert_true(fabs(x) < 1.0 && fabs(y) < 1.0);
        else assert_true(x * x + y * y < 1.0 + 1e-5);
      }
      assert_true(fp.dh[0] == 0.0f || shape == SENSIM_BEAM_RECTANGULAR); /* Gaussian: ray 0 on the axis */
      sensim__lidar_footprint_free(&fp);
    }
}

/* A Gaussian beam of 1/e^2 half angle a, truncated at a: with u = (r/a)^2
 * the energy density is ~ exp(-2u) on [0, 1]. Energy inside r < a/2 is
 * (1 - e^-1/2) / (1 - e^-2) = 0.4550 (a uniform beam would give 0.25), and
 * E[u] = (1 - 3 e^-2) / (2 (1 - e^-2)) = 0.3435. */
static void test_lidar_footprint_circular_follows_gaussian_profile(void **state) {
  (void)state;
  const double div = 2e-3, a = div / 2;
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_CIRCULAR, div, 0.0, 400);
  double inner = 0, eu = 0, mx = 0, my = 0, xx = 0, yy = 0;
  for (int k = 0; k < fp.n; k++) {
    double x = fp.dh[k] / a, y = fp.dv[k] / a, u = x * x + y * y, w = fp.w[k];
    if (u < 0.25) inner += w;
    eu += w * u;
    mx += w * x;
    my += w * y;
    xx += w * x * x;
    yy += w * y * y;
  }
  double e2 = exp(-2.0);
  /* Each ring of the spiral carries its exact share: only float rounding. */
  assert_near(inner, (1 - exp(-0.5)) / (1 - e2), 1e-4);
  /* Point positions at ring mid-areas: O(1/n) on the moment. */
  assert_near(eu, (1 - 3 * e2) / (2 * (1 - e2)), 2.0 / fp.n);
  assert_near(mx, 0.0, 0.02);
  assert_near(my, 0.0, 0.02);
  assert_near(xx, yy, 0.05 * (xx + yy)); /* round: no preferred axis */
  sensim__lidar_footprint_free(&fp);
}

static void test_lidar_footprint_elliptical_scales_each_axis(void **state) {
  (void)state;
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_ELLIPTICAL, 4e-3, 1e-3, 400);
  double xx = 0, yy = 0, maxx = 0, maxy = 0;
  for (int k = 0; k < fp.n; k++) {
    xx += fp.w[k] * fp.dh[k] * fp.dh[k];
    yy += fp.w[k] * fp.dv[k] * fp.dv[k];
    maxx = fmax(maxx, fabs(fp.dh[k]));
    maxy = fmax(maxy, fabs(fp.dv[k]));
  }
  assert_near(xx / yy, 16.0, 0.8); /* (4 / 1)^2 */
  assert_true(maxx > 0.9 * 2e-3 && maxx <= 2e-3 && maxy > 0.9 * 0.5e-3 && maxy <= 0.5e-3);
  sensim__lidar_footprint_free(&fp);
}

/* A uniform rectangle on a stratified grid: equal weights; for a square
 * beam of 25 sub-rays a 5 x 5 grid of cell centres, whose second moment is
 * W^2 / 12 (1 - 1 / 5^2) (midpoint rule on a uniform density). */
static void test_lidar_footprint_rectangular_is_a_uniform_grid(void **state) {
  (void)state;
  const double W = 2e-3;
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_RECTANGULAR, W, W, 25);
  double xx = 0, yy = 0;
  for (int k = 0; k < 25; k++) {
    assert_true(fp.w[k] == (float)(1.0 / 25));
    xx += fp.w[k] * fp.dh[k] * fp.dh[k];
    yy += fp.w[k] * fp.dv[k] * fp.dv[k];
    double cx = fp.dh[k] / (W / 5) + 2.0, cy = fp.dv[k] / (W / 5) + 2.0; /* grid index */
    assert_near(cx, nearbyint(cx), 1e-4);
    assert_near(cy, nearbyint(cy), 1e-4);
  }
  assert_near(xx, W * W / 12 * (24.0 / 25), 1e-5 * W * W);
  assert_near(yy, W * W / 12 * (24.0 / 25), 1e-5 * W * W);
  sensim__lidar_footprint_free(&fp);
  /* 7 sub-rays on a 2:1 beam: rows of 4 and 3, each row's height in
   * proportion, so the weighted centroid is the beam axis. */
  fp = fp_make(SENSIM_BEAM_RECTANGULAR, W, W / 2, 7);
  double mx = 0, my = 0;
  for (int k = 0; k < 7; k++) {
    assert_true(fp.w[k] == (float)(1.0 / 7));
    mx += fp.w[k] * fp.dh[k];
    my += fp.w[k] * fp.dv[k];
  }
  assert_near(mx, 0.0, 1e-9);
  assert_near(my, 0.0, 1e-9);
  sensim__lidar_footprint_free(&fp);
}

static void test_lidar_footprint_rejects_bad_input(void **state) {
  (void)state;
  struct {
    sensim_beam_shape shape;
    double dh, dv;
    int n;
  } bad[] = {
      {SENSIM_BEAM_CIRCULAR, 3e-3, 0, 0},       {SENSIM_BEAM_CIRCULAR, 3e-3, 0, -4},
      {SENSIM_BEAM_CIRCULAR, 3e-3, 0, 1025},    {SENSIM_BEAM_CIRCULAR, 0, 0, 4}, /* sub-rays, no divergence */
      {SENSIM_BEAM_ELLIPTICAL, 3e-3, 0, 4},     {SENSIM_BEAM_RECTANGULAR, 0, 3e-3, 9},
      {SENSIM_BEAM_CIRCULAR, NAN, 0, 4},        {SENSIM_BEAM_CIRCULAR, -1e-3, 0, 4},
      {SENSIM_BEAM_ELLIPTICAL, 3e-3, INFINITY, 4}, {SENSIM_BEAM_CIRCULAR, 1e-3, NAN, 1},
      {(sensim_beam_shape)7, 3e-3, 3e-3, 4},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_lidar_params p = beam_params(bad[i].shape, bad[i].dh, bad[i].dv, bad[i].n);
    sensim_lidar_footprint fp, before;
    memset(&fp, 0x5a, sizeof fp);
    before = fp;
    assert_int_equal(sensim__lidar_footprint_init(&p, &fp), SENSIM_EINVAL);
    assert_true(strlen(sensim_last_error()) > 0);
    assert_memory_equal(&fp, &before, sizeof fp); /* untouched */
  }
  /* Still usable; a circular beam ignores div_v = 0. */
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_CIRCULAR, 3e-3, 0.0, 1024);
  sensim__lidar_footprint_free(&fp);
}

int sensim_test_lidar_footprint(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_footprint_one_subray_is_the_axis_with_all_energy),
      cmocka_unit_test(test_lidar_footprint_weights_sum_to_one_inside_the_beam),
      cmocka_unit_test(test_lidar_footprint_circular_follows_gaussian_profile),
      cmocka_unit_test(test_lidar_footprint_elliptical_scales_each_axis),
      cmocka_unit_test(test_lidar_footprint_rectangular_is_a_uniform_grid),
      cmocka_unit_test(test_lidar_footprint_rejects_bad_input),
  };
  return cmocka_run_group_tests_name("lidar_footprint", tests, NULL, NULL);
}
