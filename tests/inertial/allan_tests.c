/* tests/inertial/allan_tests.c: Allan deviation of simulated IMU noise
 * (through "imu_noise") against IEEE Std 952-1997 Annex C, and the
 * N / K line fit (tools/allan_fit.c).
 *
 * Tolerances: Annex C.3 gives the percentage error of an Allan deviation
 * estimated from clusters of n samples out of N as
 *   delta = 1 / sqrt(2 (N / n - 1))
 * (Lesage & Audoin 1973, for non-overlapping clusters; overlapping
 * estimates are at least as good, so it bounds ours). Pooling P
 * independent series divides it by sqrt(P). Each check allows 5 delta. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "inertial/inertial_groups.h"
#include "filters/builtin.h"

static double delta_c3(double N, double m) { return 1.0 / sqrt(2.0 * (N / m - 1.0)); }

/* n samples of the gyro x axis (and the other five axes) of a static IMU
 * at 1 / dt Hz with the filter configured by json: out[axis][k]. */
static void simulate(const char *json, size_t n, double dt, uint32_t sensor, double *out[6]) {
  const sensim_builtin_filter *F = &sensim__filter_imu_noise;
  cJSON *p = cJSON_Parse(json);
  void *u = NULL;
  SENSIM_OK_OR_FAIL(F->create(p, &u));
  cJSON_Delete(p);
  for (size_t k = 0; k < n; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    inertial_imu_frame(&f, &s, k, dt * (double)k, dt);
    memset(&s, 0, sizeof s);
    SENSIM_OK_OR_FAIL(inertial_apply(F, u, &f, 21, sensor));
    for (int i = 0; i < 3; i++) out[i][k] = s.accel[i], out[3 + i][k] = s.gyro[i];
  }
  F->def.destroy(u);
}

static double **alloc6(size_t n) {
  double **y = malloc(6 * sizeof *y);
  assert_non_null(y);
  for (int i = 0; i < 6; i++) assert_non_null(y[i] = malloc(n * sizeof **y));
  return y;
}
static void free6(double **y) {
  for (int i = 0; i < 6; i++) free(y[i]);
  free(y);
}

static void test_allan_of_simulated_white_noise_follows_sigma_over_sqrt_tau(void **st) {
  (void)st;
  /* Density N over a 10 ms window: sample sigma = N / sqrt(0.01); ADEV at
   * tau = m tau0 is N / sqrt(tau). Six axes pooled (AVAR averaged). */
  const size_t n = 1u << 16;
  const double dt = 0.01, N = 2e-3;
  double **y = alloc6(n);
  simulate("{\"accel_noise_density\": 2e-3, \"gyro_noise_density\": 2e-3,"
           " \"accel_bias_walk\": 0, \"gyro_bias_walk\": 0}", n, dt, 0, y);
  size_t ms[64];
  size_t nm = sensim_allan_log_factors(n, 5, ms, 64);
  assert_true(nm > 20);
  double pooled[64] = {0}, ad[64];
  for (int i = 0; i < 6; i++) {
    SENSIM_OK_OR_FAIL(sensim_allan_deviation(y[i], n, dt, ms, nm, ad));
    for (size_t j = 0; j < nm; j++) pooled[j] += ad[j] * ad[j] / 6.0;
  }
  int checked = 0;
  for (size_t j = 0; j < nm; j++) {
    if ((double)ms[j] > n / 10.0) break;
    double tau = ms[j] * dt, m = (double)ms[j];
    assert_near(sqrt(pooled[j]) / (N / sqrt(tau)), 1.0, 5.0 * delta_c3((double)n, m) / sqrt(6.0));
    checked++;
  }
  assert_true(checked >= 15);
  free6(y);
}

static void test_allan_of_bias_random_walk_rises_with_slope_plus_half(void **st) {
  (void)st;
  /* K sqrt(tau / 3) with no white noise; the log-log slope between
   * tau = 1 s and 30 s is 1/2 within 5 (delta_1 + delta_2) / ln(30)
   * (each pooled over 6 axes), and the level within 5 delta. */
  const size_t n = 1u << 16;
  const double dt = 0.01, K = 3e-3;
  double **y = alloc6(n);
  simulate("{\"accel_noise_density\": 0, \"gyro_noise_density\": 0,"
           " \"accel_bias_walk\": 3e-3, \"gyro_bias_walk\": 3e-3}", n, dt, 1, y);
  const size_t ms[2] = {100, 3000};
  double pooled[2] = {0}, ad[2];
  for (int i = 0; i < 6; i++) {
    SENSIM_OK_OR_FAIL(sensim_allan_deviation(y[i], n, dt, ms, 2, ad));
    for (int j = 0; j < 2; j++) pooled[j] += ad[j] * ad[j] / 6.0;
  }
  double d0 = delta_c3((double)n, 100) / sqrt(6.0), d1 = delta_c3((double)n, 3000) / sqrt(6.0);
  double slope = log(sqrt(pooled[1] / pooled[0])) / log(30.0);
  assert_near(slope, 0.5, 5.0 * (d0 + d1) / log(30.0));
  /* Discrete walk: AVAR = K^2 dt (2 m^2 + 1) / (6 m) -> K^2 tau / 3. */
  assert_near(sqrt(pooled[0]) / (K * sqrt(1.0 / 3.0)), 1.0, 5.0 * d0);
  free6(y);
}

static void test_allan_fit_recovers_n_and_k_of_simulated_imu(void **st) {
  (void)st;
  /* White density N = 1e-3 and walk K = 1.7e-3 (lines cross at
   * tau = sqrt(3) N / K = 1 s), 2^18 samples at 100 Hz, pooled over the
   * 6 axes of 2 IMUs (12 series). The fitted N sits where the slope is
   * -1/2 (short tau, delta tiny); K where it is +1/2, at tau_k: each is
   * checked against 5 delta_c3 / sqrt(12) at its tau plus the other
   * noise's share there (K^2 tau^2 / (3 N^2) resp. 3 N^2 / (K^2 tau^2),
   * relative AVAR, halved for the deviation). */
  const size_t n = 1u << 18;
  const double dt = 0.01, N = 1e-3, K = 1.7e-3;
  size_t ms[128];
  size_t nm = sensim_allan_log_factors(n, 10, ms, 128);
  double pooled[128] = {0}, ad[128], tau[128];
  double **y = alloc6(n);
  for (uint32_t imu = 0; imu < 2; imu++) {
    simulate("{\"accel_noise_density\": 1e-3, \"gyro_noise_density\": 1e-3,"
             " \"accel_bias_walk\": 1.7e-3, \"gyro_bias_walk\": 1.7e-3}", n, dt, 10 + imu, y);
    for (int i = 0; i < 6; i++) {
      SENSIM_OK_OR_FAIL(sensim_allan_deviation(y[i], n, dt, ms, nm, ad));
      for (size_t j = 0; j < nm; j++) pooled[j] += ad[j] * ad[j] / 12.0;
    }
  }
  free6(y);
  for (size_t j = 0; j < nm; j++) tau[j] = ms[j] * dt, pooled[j] = sqrt(pooled[j]);
  sensim_allan_lines l;
  SENSIM_OK_OR_FAIL(sensim_allan_fit_lines(tau, pooled, nm, &l));
  assert_true(isfinite(l.n) && isfinite(l.k));
  assert_near(l.slope_n, -0.5, 0.2);
  assert_near(l.slope_k, 0.5, 0.2);
  double tol_n = 5.0 * delta_c3((double)n, l.tau_n / dt) / sqrt(12.0) +
                 0.5 * K * K * l.tau_n * l.tau_n / (3.0 * N * N);
  double tol_k = 5.0 * delta_c3((double)n, l.tau_k / dt) / sqrt(12.0) +
                 0.5 * 3.0 * N * N / (K * K * l.tau_k * l.tau_k);
  assert_near(l.n / N, 1.0, tol_n);
  assert_near(l.k / K, 1.0, tol_k);
}

static void test_allan_fit_on_exact_curve_reads_n_at_1s_and_k_at_3s(void **st) {
  (void)st;
  /* sigma(tau) = sqrt(N^2 / tau + K^2 tau / 3), N = 2e-3, K = 1e-5: the
   * slopes are -1/2 and +1/2 to 1e-4 at the ends of 1e-3 .. 1e5 s. */
  const double N = 2e-3, K = 1e-5;
  double tau[81], ad[81];
  for (int i = 0; i < 81; i++) {
    tau[i] = pow(10.0, -3.0 + 0.1 * i);
    ad[i] = sqrt(N * N / tau[i] + K * K * tau[i] / 3.0);
  }
  sensim_allan_lines l;
  SENSIM_OK_OR_FAIL(sensim_allan_fit_lines(tau, ad, 81, &l));
  assert_near(l.n / N, 1.0, 1e-4);
  assert_near(l.k / K, 1.0, 1e-3);
  /* White only: no +1/2 region, K is NaN. */
  for (int i = 0; i < 81; i++) ad[i] = N / sqrt(tau[i]);
  SENSIM_OK_OR_FAIL(sensim_allan_fit_lines(tau, ad, 81, &l));
  assert_near(l.n, N, 1e-15);
  assert_true(isnan(l.k));
}

static void test_allan_fit_and_factors_bad_input(void **st) {
  (void)st;
  double tau[3] = {1, 2, 3}, ad[3] = {1, 1, 1};
  sensim_allan_lines l;
  assert_int_equal(sensim_allan_fit_lines(NULL, ad, 3, &l), SENSIM_EINVAL);
  assert_int_equal(sensim_allan_fit_lines(tau, ad, 2, &l), SENSIM_EINVAL);
  tau[1] = 1;
  assert_int_equal(sensim_allan_fit_lines(tau, ad, 3, &l), SENSIM_EINVAL);
  tau[1] = NAN;
  assert_int_equal(sensim_allan_fit_lines(tau, ad, 3, &l), SENSIM_EINVAL);
  tau[1] = 2;
  ad[1] = NAN; /* a bad value is skipped, not an error */
  SENSIM_OK_OR_FAIL(sensim_allan_fit_lines(tau, ad, 3, &l));
  assert_true(isnan(l.n) && isnan(l.k));
  size_t ms[64];
  assert_int_equal(sensim_allan_log_factors(2, 10, ms, 64), 0);
  assert_int_equal(sensim_allan_log_factors(1000, 0, ms, 64), 0);
  size_t k = sensim_allan_log_factors(1000, 10, ms, 64);
  assert_true(k > 20 && ms[0] == 1 && ms[k - 1] <= 499);
  for (size_t i = 1; i < k; i++) assert_true(ms[i] > ms[i - 1]);
  assert_int_equal(sensim_allan_log_factors(1000, 10, ms, 4), 4);
}

int sensim_test_inertial_allan(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_allan_of_simulated_white_noise_follows_sigma_over_sqrt_tau),
      cmocka_unit_test(test_allan_of_bias_random_walk_rises_with_slope_plus_half),
      cmocka_unit_test(test_allan_fit_recovers_n_and_k_of_simulated_imu),
      cmocka_unit_test(test_allan_fit_on_exact_curve_reads_n_at_1s_and_k_at_3s),
      cmocka_unit_test(test_allan_fit_and_factors_bad_input),
  };
  return cmocka_run_group_tests_name("inertial_allan", tests, NULL, NULL);
}
