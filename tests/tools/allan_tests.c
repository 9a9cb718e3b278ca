/* tests/tools/allan_tests.c: overlapping Allan deviation (IEEE 952 Annex C). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/allan.h>
#include "support/stats.h"
#include "support/testutil.h"

/* Tolerances below use the equivalent degrees of freedom of
 * support/stats.h: the relative standard deviation of an ADEV with edf d is
 * about 1 / sqrt(2 d). */

static void test_allan_small_example_matches_hand_computation(void **state) {
  (void)state;
  /* y = 1 3 2 5 4.
   * m = 1: differences 2 -1 3 -1, squares sum 15, AVAR = 15 / (2 * 4).
   * m = 2: cluster means 2 2.5 3.5 4.5; differences 3.5-2 = 1.5 and
   *        4.5-2.5 = 2, squares sum 6.25, AVAR = 6.25 / (2 * 2) = 1.5625. */
  const double y[5] = {1, 3, 2, 5, 4};
  const size_t ms[2] = {1, 2};
  double ad[2];
  SENSIM_OK_OR_FAIL(sensim_allan_deviation(y, 5, 0.1, ms, 2, ad));
  assert_near(ad[0], sqrt(15.0 / 8.0), 1e-14);
  assert_near(ad[1], 1.25, 1e-14);
}

static void test_allan_of_constant_is_zero_and_of_ramp_is_r_tau_over_sqrt2(void **state) {
  (void)state;
  /* A rate ramp y = R t has cluster means differing by exactly R tau, so
   * ADEV = R tau / sqrt(2) (IEEE 952 Annex C, rate ramp). A large constant
   * offset must not cost precision. */
  enum { n = 1001 };
  static double y[n], c[n];
  const double tau0 = 0.02, R = 0.3;
  for (int i = 0; i < n; i++) {
    y[i] = 1e6 + R * tau0 * i;
    c[i] = -42.0;
  }
  const size_t ms[4] = {1, 7, 100, 500};
  double ad[4], adc[4];
  SENSIM_OK_OR_FAIL(sensim_allan_deviation(y, n, tau0, ms, 4, ad));
  SENSIM_OK_OR_FAIL(sensim_allan_deviation(c, n, tau0, ms, 4, adc));
  for (int j = 0; j < 4; j++) {
    double tau = (double)ms[j] * tau0;
    assert_near(ad[j], R * tau / sqrt(2.0), 1e-7 * R * tau);
    assert_true(adc[j] == 0.0);
  }
}

static double *normal_series(size_t n, uint64_t seed, double sigma) {
  double *y = malloc(n * sizeof *y);
  assert_non_null(y);
  sensim_rng r;
  sensim_rng_init(&r, seed, 0, 0, 0);
  for (size_t i = 0; i < n; i++) y[i] = sigma * sensim_rng_normal(&r);
  return y;
}

static void test_allan_of_white_noise_is_sigma_over_sqrt_m(void **state) {
  (void)state;
  /* White rate noise of variance sigma^2: AVAR(m) = sigma^2 / m exactly
   * (IEEE 952 Annex C: N^2 / tau with sigma^2 = N^2 / tau0). */
  const size_t n = 200000;
  const double sigma = 0.7;
  double *y = normal_series(n, 11, sigma);
  const size_t ms[5] = {1, 3, 10, 100, 1000};
  double ad[5];
  SENSIM_OK_OR_FAIL(sensim_allan_deviation(y, n, 0.005, ms, 5, ad));
  for (int j = 0; j < 5; j++) {
    double m = (double)ms[j];
    double tol = 5.0 / sqrt(2.0 * test_edf_white_fm((double)n + 1.0, m));
    assert_near(ad[j] / (sigma / sqrt(m)), 1.0, tol);
  }
  free(y);
}

static void test_allan_of_random_walk_matches_discrete_formula(void **state) {
  (void)state;
  /* y_k = y_{k-1} + q^(1/2) w_k: AVAR(m) = q (2 m^2 + 1) / (6 m), which
   * tends to K^2 tau / 3 with q = K^2 tau0 (IEEE 952 rate random walk). One
   * series has few degrees of freedom at long tau, so 8 independent series
   * are pooled. */
  const size_t n = 50000;
  const double q = 0.01 * 0.01;
  const size_t ms[3] = {10, 100, 1000};
  double avar[3] = {0};
  for (uint64_t s = 0; s < 8; s++) {
    double *y = normal_series(n, 100 + s, sqrt(q));
    for (size_t i = 1; i < n; i++) y[i] += y[i - 1];
    double ad[3];
    SENSIM_OK_OR_FAIL(sensim_allan_deviation(y, n, 1.0, ms, 3, ad));
    for (int j = 0; j < 3; j++) avar[j] += ad[j] * ad[j] / 8.0;
    free(y);
  }
  for (int j = 0; j < 3; j++) {
    double m = (double)ms[j];
    double expect = sqrt(q * (2.0 * m * m + 1.0) / (6.0 * m));
    double tol = 5.0 / sqrt(2.0 * 8.0 * test_edf_rw_fm((double)n + 1.0, m));
    assert_near(sqrt(avar[j]) / expect, 1.0, tol);
  }
}

static void test_allan_bad_arguments_are_rejected_without_writing(void **state) {
  (void)state;
  const double y[7] = {1, 2, 3, 4, 5, 6, 7};
  const size_t ok_m[1] = {3}, big_m[1] = {4}, zero_m[1] = {0};
  double ad[1] = {-1.0};
  assert_int_equal(sensim_allan_deviation(NULL, 7, 1.0, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 2, 1.0, (size_t[1]){1}, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 0, 1.0, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, 0.0, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, -1.0, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, NAN, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, INFINITY, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, 1.0, NULL, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, 1.0, ok_m, 0, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, 1.0, ok_m, 1, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, 1.0, big_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(y, 7, 1.0, zero_m, 1, ad), SENSIM_EINVAL);
  const double bad[7] = {1, 2, NAN, 4, 5, 6, 7}, inf[7] = {1, 2, 3, 4, 5, 6, -INFINITY};
  assert_int_equal(sensim_allan_deviation(bad, 7, 1.0, ok_m, 1, ad), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_deviation(inf, 7, 1.0, ok_m, 1, ad), SENSIM_EINVAL);
  assert_true(strlen(sensim_last_error()) > 0);
  assert_true(ad[0] == -1.0);
  /* The largest valid m, (n - 1) / 2 = 3, works: two overlapping pairs of
   * clusters, (2, 5) and (3, 6), AVAR = (9 + 9) / (2 * 2). */
  SENSIM_OK_OR_FAIL(sensim_allan_deviation(y, 7, 1.0, ok_m, 1, ad));
  assert_near(ad[0], sqrt(4.5), 1e-14);
}

int sensim_test_allan(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_allan_small_example_matches_hand_computation),
      cmocka_unit_test(test_allan_of_constant_is_zero_and_of_ramp_is_r_tau_over_sqrt2),
      cmocka_unit_test(test_allan_of_white_noise_is_sigma_over_sqrt_m),
      cmocka_unit_test(test_allan_of_random_walk_matches_discrete_formula),
      cmocka_unit_test(test_allan_bad_arguments_are_rejected_without_writing),
  };
  return cmocka_run_group_tests_name("allan", tests, NULL, NULL);
}
