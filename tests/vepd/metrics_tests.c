/* tests/vepd/metrics_tests.c: Wasserstein-1, Wiener entropy, RMSE and VEPD
 * against closed forms and hand computations. */
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/sensim_tools.h>
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

#define EULER_GAMMA 0.57721566490153286061

/* ---- Wasserstein-1 ------------------------------------------------------ */

static void test_wasserstein_of_equal_sets_is_zero(void **s) {
  (void)s;
  const double a[4] = {3, 1, 2, 2}, b[4] = {2, 3, 2, 1};
  double w = -1;
  SENSIM_OK_OR_FAIL(sensim_wasserstein1(a, 4, b, 4, &w));
  assert_true(w == 0.0);
}

static void test_wasserstein_of_shifted_set_is_the_shift(void **s) {
  (void)s;
  /* Every quantile moves by c, so W1 = |c| (Vallender 1973, quantile form). */
  const double a[5] = {0.3, -1.2, 4.0, 2.5, 0.0};
  double b[5], w;
  for (int i = 0; i < 5; i++) b[i] = a[i] + 0.7;
  SENSIM_OK_OR_FAIL(sensim_wasserstein1(a, 5, b, 5, &w));
  assert_near(w, 0.7, 1e-14);
  SENSIM_OK_OR_FAIL(sensim_wasserstein1(b, 5, a, 5, &w));
  assert_near(w, 0.7, 1e-14);
}

static void test_wasserstein_of_different_sizes_matches_hand_computation(void **s) {
  (void)s;
  double w;
  /* {0, 1} vs {0, 0, 1}: on [0, 1) F_a = 1/2, F_b = 2/3; equal beyond 1:
   * W1 = 1/6 * 1. */
  const double a[2] = {0, 1}, b[3] = {0, 0, 1};
  SENSIM_OK_OR_FAIL(sensim_wasserstein1(a, 2, b, 3, &w));
  assert_near(w, 1.0 / 6.0, 1e-15);
  SENSIM_OK_OR_FAIL(sensim_wasserstein1(b, 3, a, 2, &w));
  assert_near(w, 1.0 / 6.0, 1e-15);
  /* {0} vs {1, 2}: |F_a - F_b| = 1 on [0, 1), 1/2 on [1, 2): 1.5, which is
   * also the mean distance from the single point. */
  const double c[1] = {0}, d[2] = {2, 1};
  SENSIM_OK_OR_FAIL(sensim_wasserstein1(c, 1, d, 2, &w));
  assert_near(w, 1.5, 1e-15);
}

/* Independent check by the quantile form W1 = int_0^1 |Fa^-1(u) - Fb^-1(u)| du:
 * both inverse CDFs are constant between consecutive multiples of 1/na
 * and 1/nb, so the integral is a sum over that merged grid. */
static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double w1_quantile(double *a, size_t na, double *b, size_t nb) {
  qsort(a, na, sizeof *a, cmp_d);
  qsort(b, nb, sizeof *b, cmp_d);
  double u = 0.0, w = 0.0;
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    double ua = (double)(i + 1) / (double)na, ub = (double)(j + 1) / (double)nb;
    double next = ua < ub ? ua : ub;
    w += fabs(a[i] - b[j]) * (next - u);
    u = next;
    if (ua <= next) i++;
    if (ub <= next) j++;
  }
  return w;
}

static void test_wasserstein_matches_the_quantile_form_on_random_sets(void **s) {
  (void)s;
  sensim_rng r;
  sensim_rng_init(&r, 99, 0, 0, 0);
  const size_t sizes[4][2] = {{7, 3}, {1, 9}, {12, 12}, {5, 8}};
  for (int c = 0; c < 4; c++) {
    double a[16], b[16];
    for (size_t i = 0; i < sizes[c][0]; i++) a[i] = sensim_rng_normal(&r);
    for (size_t i = 0; i < sizes[c][1]; i++) b[i] = 0.5 + 2.0 * sensim_rng_normal(&r);
    double w;
    SENSIM_OK_OR_FAIL(sensim_wasserstein1(a, sizes[c][0], b, sizes[c][1], &w));
    assert_near(w, w1_quantile(a, sizes[c][0], b, sizes[c][1]), 1e-12);
  }
}

static void test_wasserstein_rejects_empty_null_and_nan_sets(void **s) {
  (void)s;
  const double a[2] = {0, 1}, nan2[2] = {0, NAN}, inf2[2] = {INFINITY, 0};
  double w = -7;
  assert_int_equal(sensim_wasserstein1(a, 0, a, 2, &w), SENSIM_EINVAL);
  assert_int_equal(sensim_wasserstein1(a, 2, a, 0, &w), SENSIM_EINVAL);
  assert_int_equal(sensim_wasserstein1(NULL, 2, a, 2, &w), SENSIM_EINVAL);
  assert_int_equal(sensim_wasserstein1(a, 2, a, 2, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_wasserstein1(a, 2, nan2, 2, &w), SENSIM_EINVAL);
  assert_int_equal(sensim_wasserstein1(inf2, 2, a, 2, &w), SENSIM_EINVAL);
  assert_true(strlen(sensim_last_error()) > 0);
  assert_true(w == -7);
}

/* ---- Wiener entropy ----------------------------------------------------- */

static void test_wiener_entropy_of_bin_centred_tone_is_near_zero(void **s) {
  (void)s;
  /* All energy in bin 37 (and DC, left out): every other bin is zero up to
   * FFT rounding (~1e-16 n), so the geometric mean is ~1e-13 against an
   * arithmetic mean of ~1: flatness ~1e-13. */
  enum { n = 1024 };
  static double x[n];
  for (int j = 0; j < n; j++) x[j] = 3.0 + cos(2.0 * M_PI * 37.0 * j / n + 0.3);
  double h = -1;
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy_bins(x, n, SENSIM_ENTROPY_FLUCTUATION, &h));
  assert_true(h >= 0.0 && h < 1e-6);
  /* All bins (the paper's Eq. 2): DC and bin 37 with its mirror hold all
   * the energy, the rest is rounding: still a tone. */
  h = -1;
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy(x, n, &h));
  assert_true(h >= 0.0 && h < 1e-6);
}

static double white_flatness(size_t n, uint64_t seed) {
  double *x = malloc(n * sizeof *x), h = -1;
  sensim_rng r;
  sensim_rng_init(&r, seed, 1, 2, 3);
  for (size_t j = 0; j < n; j++) x[j] = 5.0 + 0.3 * sensim_rng_normal(&r);
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy_bins(x, n, SENSIM_ENTROPY_FLUCTUATION, &h));
  free(x);
  return h;
}

static void test_wiener_entropy_of_white_noise_matches_rayleigh_closed_form(void **s) {
  (void)s;
  /* For white Gaussian x (variance sigma^2) the DFT bins 0 < k < n/2 are
   * exactly independent circular complex Gaussians with E|X_k|^2 =
   * n sigma^2: the cosine and sine basis vectors of those bins are
   * orthogonal with squared norm n/2 (D. R. Brillinger, "Time Series: Data
   * Analysis and Theory", 1981, sec. 4.4, exact for Gaussian x), so
   * R = |X_k| is Rayleigh with R^2 = 2 s^2 E, E ~ Exp(1), s^2 = n sigma^2 / 2. Then (A. Papoulis, S. U. Pillai,
   * "Probability, Random Variables and Stochastic Processes", 4th ed.,
   * sec. 5-4; E[ln E] = psi(1) = -gamma, Abramowitz & Stegun 6.3.2):
   *   E[ln R] = ln(sqrt(2) s) - gamma/2,   E[R] = s sqrt(pi/2),
   * and over m bins the flatness exp(mean ln R) / mean R tends to
   *   sqrt(2) exp(-gamma/2) / sqrt(pi/2) = 2 exp(-gamma/2) / sqrt(pi) = 0.8455.
   * Tolerance: by the delta method ln F = L - ln M has variance
   *   (Var ln R + Var R / E[R]^2 - 2 Cov(ln R, R) / E[R]) / m
   *   = (pi^2/24 + (4/pi - 1) - 2 (1 - ln 2)) / m = 0.0707 / m
   * (Var ln R = Var(ln E)/4 = pi^2/24; Var R / E[R]^2 = 4/pi - 1;
   * Cov(ln R, R) / E[R] = 1 - ln 2 from E[E^a ln E] = Gamma(1+a) psi(1+a)
   * at a = 1/2), a relative sd of 0.266 / sqrt(m); its bias,
   * (4/pi - 1) / (2 m), is below 1e-4 here. 5 sd bounds. The power-spectrum
   * flatness, exp(-gamma) = 0.56, is far outside them. */
  const double expect = 2.0 * exp(-0.5 * EULER_GAMMA) / sqrt(M_PI);
  assert_near(expect, 0.845501, 1e-6);
  const size_t ns[3] = {8192, 8191, 4000};
  for (int c = 0; c < 3; c++) {
    double m = (double)((ns[c] - 1) / 2);
    double tol = 5.0 * sqrt(0.0707 / m) * expect;
    assert_near(white_flatness(ns[c], 11 + (uint64_t)c), expect, tol);
  }
}

static void test_wiener_entropy_ignores_offset_and_scale(void **s) {
  (void)s;
  /* DC is left out and flatness is a ratio of means of |X_k|: a x + b has
   * the same flatness as x for any a != 0. */
  enum { n = 257 };
  double x[n], y[n], hx, hy;
  sensim_rng r;
  sensim_rng_init(&r, 5, 0, 0, 0);
  for (int j = 0; j < n; j++) {
    x[j] = sensim_rng_normal(&r) + sin(0.1 * j);
    y[j] = -40.0 * x[j] + 1e3;
  }
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy_bins(x, n, SENSIM_ENTROPY_FLUCTUATION, &hx));
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy_bins(y, n, SENSIM_ENTROPY_FLUCTUATION, &hy));
  assert_near(hy, hx, 1e-12);
  assert_true(hx > 0.0 && hx < 1.0);
  /* The paper's all-bins entropy keeps DC, so an offset changes it (and a
   * scale does not: every bin scales alike). */
  for (int j = 0; j < n; j++) y[j] = -40.0 * x[j];
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy(x, n, &hx));
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy(y, n, &hy));
  assert_near(hy, hx, 1e-12);
  for (int j = 0; j < n; j++) y[j] = x[j] + 1e3;
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy(y, n, &hy));
  assert_true(hy < 0.5 * hx);
}

/* The paper's Eq. 2 against an independent implementation: the DFT by its
 * definition (direct O(n^2) sums in long double), then exp of the mean log
 * over the n bins over the mean, for odd and even n (Nyquist present),
 * for noise around a mean (DC dominant) and around 0. */
static double entropy_by_definition(const double *x, size_t n) {
  long double sl = 0.0L, sm = 0.0L;
  for (size_t k = 0; k < n; k++) {
    long double re = 0.0L, im = 0.0L;
    for (size_t j = 0; j < n; j++) {
      long double a = -2.0L * 3.14159265358979323846264338327950288L * (long double)((j * k) % n) / (long double)n;
      re += x[j] * cosl(a);
      im += x[j] * sinl(a);
    }
    long double mag = sqrtl(re * re + im * im);
    sl += logl(mag);
    sm += mag;
  }
  return (double)(expl(sl / (long double)n) / (sm / (long double)n));
}

static void test_wiener_entropy_all_bins_matches_the_dft_by_definition(void **s) {
  (void)s;
  const size_t ns[4] = {7, 8, 101, 128};
  const double means[2] = {2.0, 0.0};
  for (int c = 0; c < 4; c++)
    for (int m = 0; m < 2; m++) {
      double x[128], h = -1;
      sensim_rng r;
      sensim_rng_init(&r, 17, (uint64_t)c, (uint64_t)m, 0);
      for (size_t j = 0; j < ns[c]; j++) x[j] = means[m] + 0.1 * sensim_rng_normal(&r) + 0.05 * sin(0.3 * j);
      SENSIM_OK_OR_FAIL(sensim_wiener_entropy(x, ns[c], &h));
      assert_near(h, entropy_by_definition(x, ns[c]), 1e-10);
      double hb = -1;
      SENSIM_OK_OR_FAIL(sensim_wiener_entropy_bins(x, ns[c], SENSIM_ENTROPY_ALL_BINS, &hb));
      assert_true(hb == h);
    }
}

static void test_wiener_entropy_of_constant_is_zero_even_with_rounding(void **s) {
  (void)s;
  /* A constant speed read through hypot(v cos a, v sin a) differs from v by
   * rounding only: still a tone at 0 Hz. */
  enum { n = 100 };
  double c[n], r[n], h = -1;
  for (int j = 0; j < n; j++) {
    c[j] = 2.0;
    r[j] = hypot(2.0 * cos(0.37 * j), 2.0 * sin(0.37 * j));
  }
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy(c, n, &h));
  assert_true(h == 0.0);
  h = -1;
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy(r, n, &h));
  assert_true(h == 0.0);
}

static void test_wiener_entropy_rejects_short_null_and_nan(void **s) {
  (void)s;
  double x[4] = {1, 2, 3, 4}, h = -5;
  assert_int_equal(sensim_wiener_entropy(x, 2, &h), SENSIM_EINVAL);
  assert_int_equal(sensim_wiener_entropy(x, 0, &h), SENSIM_EINVAL);
  assert_int_equal(sensim_wiener_entropy(NULL, 4, &h), SENSIM_EINVAL);
  assert_int_equal(sensim_wiener_entropy(x, 4, NULL), SENSIM_EINVAL);
  x[2] = NAN;
  assert_int_equal(sensim_wiener_entropy(x, 4, &h), SENSIM_EINVAL);
  assert_true(h == -5);
  assert_int_equal(sensim_wiener_entropy_bins(x, 4, (sensim_entropy_bins)7, &h), SENSIM_EINVAL);
  /* n = 3: one complex bin without DC, whose flatness is 1 by definition. */
  x[2] = 0.5;
  SENSIM_OK_OR_FAIL(sensim_wiener_entropy_bins(x, 3, SENSIM_ENTROPY_FLUCTUATION, &h));
  assert_near(h, 1.0, 1e-15);
}

/* ---- RMSE and VEPD ------------------------------------------------------ */

enum { RN = 200 };

typedef struct run_buf {
  double t[RN], est[RN * 2], tru[RN * 2];
  sensim_vepd_run run;
} run_buf;

/* Truth: a 1-D speed with some spectral content; estimate = truth + offset
 * + amp sin(2 pi 10 j / RN) (whole periods over the run). */
static void make_run(run_buf *b, double offset, double amp) {
  for (int j = 0; j < RN; j++) {
    b->t[j] = 0.01 * j;
    b->tru[j] = 2.0 + 0.5 * sin(2.0 * M_PI * 3.0 * j / RN) + 0.1 * cos(0.77 * j * j);
    b->est[j] = b->tru[j] + offset + amp * sin(2.0 * M_PI * 10.0 * j / RN);
  }
  b->run = (sensim_vepd_run){RN, 1, b->t, b->est, b->tru};
}

static void test_rmse_matches_closed_forms(void **s) {
  (void)s;
  static run_buf b;
  sensim_vepd_run_metrics m;
  make_run(&b, -0.3, 0.0);
  SENSIM_OK_OR_FAIL(sensim_vepd_run_metrics_compute(&b.run, &m));
  assert_near(m.rmse, 0.3, 1e-14);
  /* Offset c plus a sinusoid over whole periods: mean square c^2 + A^2/2. */
  make_run(&b, 0.2, 0.4);
  SENSIM_OK_OR_FAIL(sensim_vepd_run_metrics_compute(&b.run, &m));
  assert_near(m.rmse, sqrt(0.04 + 0.08), 1e-13);
  /* dim 2: a constant (3, 4) error has norm 5. */
  for (int j = 0; j < RN; j++) {
    b.tru[2 * j] = cos(0.1 * j);
    b.tru[2 * j + 1] = sin(0.1 * j);
    b.est[2 * j] = b.tru[2 * j] + 3.0;
    b.est[2 * j + 1] = b.tru[2 * j + 1] - 4.0;
  }
  b.run.dim = 2;
  SENSIM_OK_OR_FAIL(sensim_vepd_run_metrics_compute(&b.run, &m));
  assert_near(m.rmse, 5.0, 1e-13);
  /* Its entropy signal is the speed: the truth's is constant 1 -> 0. */
  assert_true(m.h_true == 0.0);
}

static void test_vepd_of_offset_runs_is_half_the_rmse_distance(void **s) {
  (void)s;
  /* A constant offset changes the RMSE but not the estimate's flatness over
   * the fluctuation bins (DC left out), so every h_diff is 0, W2 = 0 and
   * VEPD = W1({0.1, 0.2}, {0.3}) / 2 = ((0.3 - 0.1) + (0.3 - 0.2)) / 2 / 2. */
  static run_buf a0, a1, b0;
  make_run(&a0, 0.1, 0.0);
  make_run(&a1, -0.2, 0.0);
  make_run(&b0, 0.3, 0.0);
  sensim_vepd_run A[2] = {a0.run, a1.run}, B[1] = {b0.run};
  sensim_vepd_result r;
  sensim_vepd_run_metrics ma[2], mb[1];
  SENSIM_OK_OR_FAIL(sensim_vepd_compute_bins(A, 2, B, 1, SENSIM_ENTROPY_FLUCTUATION, &r, ma, mb));
  assert_near(r.w1, 0.15, 1e-13);
  assert_near(r.w2, 0.0, 1e-12);
  assert_near(r.vepd, 0.075, 1e-13);
  assert_near(ma[1].rmse, 0.2, 1e-13);
  assert_near(mb[0].rmse, 0.3, 1e-13);
  assert_near(r.rmse_mean[0], 0.15, 1e-13);
  assert_near(r.rmse_mean[1], 0.3, 1e-13);
}

static void test_vepd_of_single_runs_is_mean_of_the_two_differences(void **s) {
  (void)s;
  /* With one run per set W1 = |rmse_a - rmse_b|, W2 = |hd_a - hd_b|. */
  static run_buf a, b;
  make_run(&a, 0.0, 0.05);
  make_run(&b, 0.0, 0.5);
  sensim_vepd_run_metrics ma, mb;
  SENSIM_OK_OR_FAIL(sensim_vepd_run_metrics_compute(&a.run, &ma));
  SENSIM_OK_OR_FAIL(sensim_vepd_run_metrics_compute(&b.run, &mb));
  assert_true(mb.h_diff != ma.h_diff);
  sensim_vepd_result r;
  SENSIM_OK_OR_FAIL(sensim_vepd_compute(&a.run, 1, &b.run, 1, &r, NULL, NULL));
  assert_near(r.w1, fabs(ma.rmse - mb.rmse), 1e-14);
  assert_near(r.w2, fabs(ma.h_diff - mb.h_diff), 1e-14);
  assert_near(r.vepd, 0.5 * (r.w1 + r.w2), 1e-15);
  /* Same set on both sides: 0. */
  SENSIM_OK_OR_FAIL(sensim_vepd_compute(&a.run, 1, &a.run, 1, &r, NULL, NULL));
  assert_true(r.vepd == 0.0);
}

static void test_vepd_rejects_empty_sets_and_bad_runs(void **s) {
  (void)s;
  static run_buf a;
  make_run(&a, 0.1, 0.0);
  sensim_vepd_result r = {.vepd = -3};
  assert_int_equal(sensim_vepd_compute(&a.run, 0, &a.run, 1, &r, NULL, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_vepd_compute(&a.run, 1, NULL, 1, &r, NULL, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_vepd_compute(&a.run, 1, &a.run, 1, NULL, NULL, NULL), SENSIM_EINVAL);
  sensim_vepd_run bad = a.run;
  bad.n = 2;
  assert_int_equal(sensim_vepd_compute(&a.run, 1, &bad, 1, &r, NULL, NULL), SENSIM_EINVAL);
  bad = a.run;
  bad.dim = 4;
  assert_int_equal(sensim_vepd_compute(&a.run, 1, &bad, 1, &r, NULL, NULL), SENSIM_EINVAL);
  a.est[17] = NAN;
  assert_int_equal(sensim_vepd_compute(&a.run, 1, &a.run, 1, &r, NULL, NULL), SENSIM_EINVAL);
  a.est[17] = 0.0;
  a.t[9] = a.t[8];
  assert_int_equal(sensim_vepd_compute(&a.run, 1, &a.run, 1, &r, NULL, NULL), SENSIM_EINVAL);
  assert_true(r.vepd == -3);
  sensim_vepd_run_metrics m;
  assert_int_equal(sensim_vepd_run_metrics_compute(NULL, &m), SENSIM_EINVAL);
}

int sensim_test_vepd_metrics(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wasserstein_of_equal_sets_is_zero),
      cmocka_unit_test(test_wasserstein_of_shifted_set_is_the_shift),
      cmocka_unit_test(test_wasserstein_of_different_sizes_matches_hand_computation),
      cmocka_unit_test(test_wasserstein_matches_the_quantile_form_on_random_sets),
      cmocka_unit_test(test_wasserstein_rejects_empty_null_and_nan_sets),
      cmocka_unit_test(test_wiener_entropy_of_bin_centred_tone_is_near_zero),
      cmocka_unit_test(test_wiener_entropy_of_white_noise_matches_rayleigh_closed_form),
      cmocka_unit_test(test_wiener_entropy_ignores_offset_and_scale),
      cmocka_unit_test(test_wiener_entropy_all_bins_matches_the_dft_by_definition),
      cmocka_unit_test(test_wiener_entropy_of_constant_is_zero_even_with_rounding),
      cmocka_unit_test(test_wiener_entropy_rejects_short_null_and_nan),
      cmocka_unit_test(test_rmse_matches_closed_forms),
      cmocka_unit_test(test_vepd_of_offset_runs_is_half_the_rmse_distance),
      cmocka_unit_test(test_vepd_of_single_runs_is_mean_of_the_two_differences),
      cmocka_unit_test(test_vepd_rejects_empty_sets_and_bad_runs),
  };
  return cmocka_run_group_tests_name("vepd_metrics", tests, NULL, NULL);
}
