/* tests/inertial/imu_error_tests.c: each term of the "imu_noise" error
 * model (filters/imu_noise.c) against its formula, the order of the terms
 * in the output equation, the Gaussian-drift parameterisation of the issue
 * and bad parameters. Statistical tolerances are 5 standard errors of the
 * estimator at the sample size used (stated per test). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inertial/inertial_groups.h"
#include "runtime/runtime_internal.h"
#include "filters/builtin.h"

#define F (&sensim__filter_imu_noise)

static void *make(const char *json) {
  cJSON *p = cJSON_Parse(json);
  if (!p) fail_msg("test JSON does not parse: %s", json);
  void *u = NULL;
  sensim_status st = F->create(p, &u);
  cJSON_Delete(p);
  if (st != SENSIM_OK) fail_msg("%s -> %d: %s", json, st, sensim_last_error());
  return u;
}

static void expect_refused(const char *json, const char *needle) {
  cJSON *p = cJSON_Parse(json);
  if (!p) fail_msg("test JSON does not parse: %s", json);
  void *u = NULL;
  sensim_status st = F->create(p, &u);
  cJSON_Delete(p);
  if (st != SENSIM_EINVAL) fail_msg("%s accepted (%d)", json, st);
  if (u) fail_msg("%s: user pointer set on failure", json);
  if (needle && !strstr(sensim_last_error(), needle))
    fail_msg("%s: message '%s' lacks '%s'", json, sensim_last_error(), needle);
}

/* Apply to a sample with the given true accel / gyro; returns the output. */
static sensim_imu_sample step(void *u, uint64_t k, double t, double win, const double a[3],
                              const double g[3], uint32_t sensor) {
  sensim_frame f;
  sensim_imu_sample s;
  memset(&s, 0, sizeof s);
  inertial_imu_frame(&f, &s, k, t, win);
  memcpy(s.accel, a, sizeof s.accel);
  memcpy(s.gyro, g, sizeof s.gyro);
  SENSIM_OK_OR_FAIL(inertial_apply(F, u, &f, 99, sensor));
  return s;
}

#define QUIET "\"accel_noise_density\": 0, \"gyro_noise_density\": 0, \"accel_bias_walk\": 0, \"gyro_bias_walk\": 0"

static void test_imu_error_terms_apply_in_the_stated_order(void **st) {
  (void)st;
  /* Order: (I + S + M) x, + bias, quantise, saturate (filters/imu_noise.c).
   * Accel x: 1.1 * 9 + 0.01 * 2 = 9.92, + 0.6 = 10.52, quantised to 0.25:
   * 10.5, clamped to 10.4 -> 10.4. (Clamping before quantising would give
   * 10.5; adding the bias after quantising would give 10.6 -> 10.4 on x but
   * 2.6 on y, not a multiple of 0.25; scaling the bias would give 10.56.)
   * Accel y: 2 + 0.6 = 2.6 -> 2.5. Accel z: -3 + 0.6 = -2.4 -> -2.5 (round
   * half away from zero does not arise: -2.4 / 0.25 = -9.6 -> -10). */
  void *u = make("{" QUIET ", \"accel_scale_factor\": [0.1, 0, 0],"
                 " \"accel_misalignment\": [0, 0.01, 0, 0, 0, 0, 0, 0, 0],"
                 " \"accel_turn_on_bias\": 0.6, \"accel_resolution\": 0.25, \"accel_range\": 10.4}");
  const double a[3] = {9, 2, -3}, g[3] = {0.1, 0.2, 0.3};
  sensim_imu_sample s = step(u, 0, 0.0, 0.01, a, g, 0);
  assert_true(s.accel[0] == 10.4);
  assert_true(s.accel[1] == 2.5);
  assert_true(s.accel[2] == -2.5);
  for (int i = 0; i < 3; i++) assert_true(s.gyro[i] == g[i]); /* gyro untouched */
  F->def.destroy(u);
}

static void test_imu_scale_and_misalignment_matrix_multiplies_true_value(void **st) {
  (void)st;
  /* y = (I + S + M) x exactly, for a full misalignment matrix and
   * per-axis scale factors, on the gyroscope (ppm and mrad units). */
  void *u = make("{" QUIET ", \"gyro_scale_factor_ppm\": [1000, -2000, 500],"
                 " \"gyro_misalignment_mrad\": [0, 3, -1, 2, 0, 4, -5, 6, 0]}");
  const double S[3] = {1e-3, -2e-3, 5e-4};
  const double M[9] = {0, 3e-3, -1e-3, 2e-3, 0, 4e-3, -5e-3, 6e-3, 0};
  const double x[3] = {0.5, -1.5, 2.25}, a[3] = {0, 0, 9.8};
  sensim_imu_sample s = step(u, 0, 0.0, 0.01, a, x, 0);
  for (int i = 0; i < 3; i++) {
    double e = (1.0 + S[i]) * x[i];
    for (int j = 0; j < 3; j++) e += M[3 * i + j] * x[j];
    assert_near(s.gyro[i], e, 1e-15);
    assert_true(s.accel[i] == a[i]);
  }
  F->def.destroy(u);
}

static void test_imu_saturation_clamps_and_quantisation_rounds_to_lsb(void **st) {
  (void)st;
  void *u = make("{" QUIET ", \"gyro_range_dps\": 250, \"accel_resolution_mg\": 1}");
  const double r = 250.0 * (M_PI / 180.0), q = 1e-3 * 9.80665;
  sensim_rng rng;
  sensim_rng_init(&rng, 5, 0, 0, 0);
  for (int k = 0; k < 2000; k++) {
    double a[3], g[3];
    for (int i = 0; i < 3; i++) a[i] = 40.0 * (sensim_rng_uniform(&rng) - 0.5), g[i] = 12.0 * (sensim_rng_uniform(&rng) - 0.5);
    sensim_imu_sample s = step(u, (uint64_t)k, 0.01 * k, 0.01, a, g, 0);
    for (int i = 0; i < 3; i++) {
      /* Mid-tread quantiser: an integer number of LSBs within half an LSB. */
      double c = s.accel[i] / q;
      assert_near(c, round(c), 1e-9);
      assert_true(fabs(s.accel[i] - a[i]) <= 0.5 * q * (1 + 1e-12));
      assert_true(s.gyro[i] == (g[i] > r ? r : g[i] < -r ? -r : g[i]));
    }
  }
  F->def.destroy(u);
}

static void test_imu_turn_on_bias_is_constant_per_run_and_normal_across_runs(void **st) {
  (void)st;
  /* Each run (sensor) draws b_on ~ N(0, sigma^2) once. Over R = 4000 runs
   * the mean is within 5 sigma / sqrt(R) of 0 and the variance within
   * 5 sqrt(2 / (R - 1)) (relative) of sigma^2 (normal sample variance).
   * Within a run the bias does not change; the same run reproduces it. */
  const int R = 4000;
  const double sa = 0.05, sg = 1e-3;
  double sum[6] = {0}, sq[6] = {0};
  const double z[3] = {0, 0, 0};
  for (int r = 0; r < R; r++) {
    void *u = make("{" QUIET ", \"accel_turn_on_sigma\": 0.05, \"gyro_turn_on_sigma\": 0.001}");
    sensim_imu_sample s0 = step(u, 0, 0.0, 0.01, z, z, (uint32_t)r);
    sensim_imu_sample s1 = step(u, 1, 0.01, 0.01, z, z, (uint32_t)r);
    sensim_imu_sample s2 = step(u, 2, 0.02, 0.01, z, z, (uint32_t)r);
    for (int i = 0; i < 3; i++) {
      assert_true(s0.accel[i] == s1.accel[i] && s1.accel[i] == s2.accel[i]);
      assert_true(s0.gyro[i] == s2.gyro[i]);
      sum[i] += s0.accel[i], sq[i] += s0.accel[i] * s0.accel[i];
      sum[3 + i] += s0.gyro[i], sq[3 + i] += s0.gyro[i] * s0.gyro[i];
    }
    F->def.destroy(u);
    if (r == 7) {
      void *v = make("{" QUIET ", \"accel_turn_on_sigma\": 0.05, \"gyro_turn_on_sigma\": 0.001}");
      sensim_imu_sample again = step(v, 0, 0.0, 0.01, z, z, 7);
      assert_true(again.accel[0] == s0.accel[0] && again.gyro[2] == s0.gyro[2]);
      F->def.destroy(v);
    }
  }
  for (int i = 0; i < 6; i++) {
    double sig = i < 3 ? sa : sg, m = sum[i] / R, var = (sq[i] - R * m * m) / (R - 1);
    assert_near(m, 0.0, 5.0 * sig / sqrt(R));
    assert_near(var / (sig * sig), 1.0, 5.0 * sqrt(2.0 / (R - 1)));
  }
}

static void test_imu_gauss_markov_bias_has_variance_sigma2_and_autocorrelation_exp(void **st) {
  (void)st;
  /* Stationary AR(1) b_k = phi b_k-1 + sigma sqrt(1 - phi^2) w_k with
   * phi = exp(-dt / tau) = exp(-0.2): variance sigma^2, lag-j
   * autocorrelation phi^j. Standard errors for n = 100000 (Bartlett 1946;
   * Priestley, "Spectral Analysis and Time Series", 1981, 5.3.3):
   * var of the sample variance ~ 2 sigma^4 (1 + phi^2) / ((1 - phi^2) n),
   * var r_j ~ [(1 + phi^2)(1 - phi^(2j)) / (1 - phi^2) - 2 j phi^(2j)] / n. */
  const double sigma = 0.2, tau = 0.5, dt = 0.1, phi = exp(-dt / tau);
  const int n = 100000;
  void *u = make("{" QUIET ", \"gyro_gm_sigma\": [0.2, 0.2, 0.2], \"gyro_gm_tau\": 0.5}");
  double *b = malloc((size_t)n * sizeof *b);
  assert_non_null(b);
  const double z[3] = {0, 0, 0};
  for (int k = 0; k < n; k++) b[k] = step(u, (uint64_t)k, dt * k, dt, z, z, 0).gyro[1];
  F->def.destroy(u);
  double m = 0, v = 0;
  for (int k = 0; k < n; k++) m += b[k];
  m /= n;
  for (int k = 0; k < n; k++) v += (b[k] - m) * (b[k] - m);
  v /= n;
  double p2 = phi * phi;
  assert_near(v / (sigma * sigma), 1.0, 5.0 * sqrt(2.0 * (1 + p2) / ((1 - p2) * n)));
  const int lags[3] = {1, 5, 10};
  for (int j = 0; j < 3; j++) {
    int L = lags[j];
    double c = 0;
    for (int k = 0; k + L < n; k++) c += (b[k] - m) * (b[k + L] - m);
    double r = c / n / v, pj = pow(phi, 2.0 * L);
    double se = sqrt(((1 + p2) * (1 - pj) / (1 - p2) - 2.0 * L * pj) / n);
    assert_near(r, pow(phi, L), 5.0 * se);
  }
  free(b);
}

static void test_imu_bias_instability_key_sets_gm_sigma_to_bi_over_adev_peak(void **st) {
  (void)st;
  /* bias_instability BI gives the GM process whose ADEV peak is BI:
   * sigma = BI / sqrt(0.3811387) = 1.619789 BI. Same seed: outputs equal. */
  void *a = make("{" QUIET ", \"accel_bias_instability_ug\": 50, \"accel_gm_tau\": 20}");
  char json[256];
  snprintf(json, sizeof json, "{" QUIET ", \"accel_gm_sigma\": %.17g, \"accel_gm_tau\": 20}",
           50e-6 * 9.80665 / sqrt(0.38113865810245));
  void *b = make(json);
  const double z[3] = {0, 0, 0};
  for (int k = 0; k < 50; k++) {
    sensim_imu_sample x = step(a, (uint64_t)k, 0.01 * k, 0.01, z, z, 3);
    sensim_imu_sample y = step(b, (uint64_t)k, 0.01 * k, 0.01, z, z, 3);
    for (int i = 0; i < 3; i++) assert_near(x.accel[i], y.accel[i], 1e-11 * (1e-3 + fabs(y.accel[i])));
  }
  F->def.destroy(a);
  F->def.destroy(b);
}

static void test_imu_gaussian_drift_b0_tb_is_walk_k_and_increments_have_mean_mu_b(void **st) {
  (void)st;
  /* The increment N(mu_b, (b0 sqrt(dt / t_b))^2) is the walk
   * K sqrt(dt) w with K = b0 / sqrt(t_b): (0.02, 100 s) and K = 0.002 give
   * identical outputs for the same stream. With mu_b = 1e-4 the n = 20000
   * increments have mean mu_b (within 5 sd / sqrt(n)) and variance
   * b0^2 dt / t_b (within 5 sqrt(2 / n)). White N(mu_a, sigma_a^2): mean
   * and variance likewise. */
  const double dt = 0.01, sd = 0.02 * sqrt(dt / 100.0);
  const int n = 20000;
  void *a = make("{\"accel_noise_density\": 0, \"gyro_noise_density\": 0, \"gyro_bias_walk\": 0,"
                 " \"accel_bias_b0\": 0.02, \"accel_bias_tb\": 100}");
  void *b = make("{\"accel_noise_density\": 0, \"gyro_noise_density\": 0, \"gyro_bias_walk\": 0,"
                 " \"accel_bias_walk\": 0.002}");
  void *c = make("{\"accel_noise_density\": 0, \"gyro_bias_walk\": 0,"
                 " \"accel_bias_b0\": 0.02, \"accel_bias_tb\": 100, \"accel_bias_walk_mean\": 1e-4,"
                 " \"gyro_white_sigma\": 0.05, \"gyro_white_mean\": 0.01}");
  const double z[3] = {0, 0, 0};
  double prev = 0, sm = 0, sq = 0, wm = 0, wq = 0;
  for (int k = 0; k < n; k++) {
    sensim_imu_sample x = step(a, (uint64_t)k, dt * k, dt, z, z, 1);
    sensim_imu_sample y = step(b, (uint64_t)k, dt * k, dt, z, z, 1);
    sensim_imu_sample w = step(c, (uint64_t)k, dt * k, dt, z, z, 1);
    for (int i = 0; i < 3; i++) assert_near(x.accel[i], y.accel[i], 1e-15);
    if (k > 0) {
      double d = w.accel[2] - prev;
      sm += d, sq += d * d;
    }
    prev = w.accel[2];
    wm += w.gyro[0], wq += w.gyro[0] * w.gyro[0];
  }
  double m = sm / (n - 1), var = sq / (n - 1) - m * m;
  assert_near(m, 1e-4, 5.0 * sd / sqrt(n - 1.0));
  assert_near(var / (sd * sd), 1.0, 5.0 * sqrt(2.0 / (n - 1.0)));
  double mw = wm / n, vw = wq / n - mw * mw;
  assert_near(mw, 0.01, 5.0 * 0.05 / sqrt(n));
  assert_near(vw / (0.05 * 0.05), 1.0, 5.0 * sqrt(2.0 / n));
  F->def.destroy(a);
  F->def.destroy(b);
  F->def.destroy(c);
}

/* The variance each sample reports (frame.h accel_var, gyro_var) is the
 * white noise the filter adds: N^2 / T = N^2 f for a density N sampled at
 * f = 1 / T (IEEE Std 952 Annex C; Kalibr's sigma_d = sigma_c / sqrt(dt)),
 * sigma^2 for a per-sample sigma, plus q^2 / 12 for the LSB q. By hand:
 * N = 2e-3 m/s^2/sqrt(Hz) at 100 Hz: 4e-4 (m/s^2)^2; gyro sigma 5e-3 rad/s
 * and q = 1e-3 rad/s: 2.5e-5 + 1e-6 / 12. The samples' own variance agrees
 * within 5 standard errors (sqrt(2 / n) relative) for n = 20000. */
static void test_imu_reported_variance_is_the_white_noise_added_per_sample(void **st) {
  (void)st;
  void *u = make("{\"accel_noise_density\": 2e-3, \"accel_bias_walk\": 0,"
                 " \"gyro_bias_walk\": 0, \"gyro_white_sigma\": 5e-3, \"gyro_resolution\": 1e-3}");
  const double a[3] = {0.3, -0.2, 9.8}, g[3] = {0.1, -0.05, 0.02};
  const double va = 2e-3 * 2e-3 * 100.0, vg = 5e-3 * 5e-3 + 1e-6 / 12.0;
  const int n = 20000;
  double sa[3] = {0}, sg[3] = {0};
  for (int k = 0; k < n; k++) {
    sensim_imu_sample s = step(u, (uint64_t)k, 0.01 * k, 0.01, a, g, 0);
    for (int i = 0; i < 3; i++) {
      assert_near(s.accel_var[i], va, 1e-18);
      assert_near(s.gyro_var[i], vg, 1e-18);
      sa[i] += (s.accel[i] - a[i]) * (s.accel[i] - a[i]);
      sg[i] += (s.gyro[i] - g[i]) * (s.gyro[i] - g[i]);
    }
  }
  const double tol = 5.0 * sqrt(2.0 / n);
  for (int i = 0; i < 3; i++) {
    assert_true(fabs(sa[i] / n / va - 1.0) < tol);
    assert_true(fabs(sg[i] / n / vg - 1.0) < tol);
  }
  F->def.destroy(u);
  /* No noise configured: the sample stays exact (0). */
  u = make("{" QUIET "}");
  sensim_imu_sample s = step(u, 0, 0.0, 0.01, a, g, 0);
  for (int i = 0; i < 3; i++) assert_true(s.accel_var[i] == 0.0 && s.gyro_var[i] == 0.0);
  F->def.destroy(u);
}

static void test_imu_noise_bad_parameters_are_refused_with_the_key_named(void **st) {
  (void)st;
  expect_refused("{\"gyro_noise_density\": -1e-4}", "gyro_noise_density");
  expect_refused("{\"accel_white_sigma\": -1}", "accel_white_sigma");
  expect_refused("{\"gyro_gm_sigma\": 0.1, \"gyro_gm_tau\": 0}", "time must be > 0");
  expect_refused("{\"gyro_gm_sigma\": 0.1}", "gyro_gm_tau");
  expect_refused("{\"accel_gm_tau\": -3}", "accel_gm_tau");
  expect_refused("{\"accel_bias_b0\": 0.1, \"accel_bias_tb\": 0}", "time must be > 0");
  expect_refused("{\"accel_bias_b0\": 0.1}", "go together");
  expect_refused("{\"accel_bias_b0\": 0.1, \"accel_bias_tb\": 5, \"accel_bias_walk\": 1}", "not both");
  expect_refused("{\"gyro_noise_density\": 1, \"gyro_white_sigma\": 1}", "not both");
  expect_refused("{\"gyro_arw_deg_per_rth\": 0.1, \"gyro_noise_density\": 1e-4}", "same parameter");
  expect_refused("{\"gyro_turn_on_sigma\": 1, \"gyro_turn_on_bias\": 1}", "not both");
  expect_refused("{\"gyro_noise_density_ug_per_rthz\": 1}", "no parameter");
  expect_refused("{\"accel_arw_deg_per_rth\": 1}", "no parameter");
  expect_refused("{\"magnet_range\": 1}", "no parameter");
  expect_refused("{\"accel_misalignment\": [0.1, 0, 0, 0, 0, 0, 0, 0, 0]}", "diagonal");
  expect_refused("{\"accel_misalignment\": [0, 0, 0]}", "9 numbers");
  expect_refused("{\"accel_scale_factor\": -1}", "> -1");
  expect_refused("{\"gyro_range\": -5}", "gyro_range");
  expect_refused("{\"gyro_resolution\": [1, -1, 1]}", "gyro_resolution");
  expect_refused("{\"gyro_turn_on_bias\": [1, \"x\", 1]}", "must be a number");
  expect_refused("{\"gyro_turn_on_bias\": [1, 2]}", "array of 3");
  /* Through a sensor: refused filters leave the chain empty; NaN is not
   * JSON and is refused as unparsable; then a good one is taken. */
  sensim_world *w = test_world(0, 2);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 100;
  sensim_sensor *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  assert_true(sensim_sensor_add_filter(imu, "imu_noise", "{\"gyro_gm_tau\": 0}") != SENSIM_OK);
  assert_true(sensim_sensor_add_filter(imu, "imu_noise", "{\"gyro_noise_density\": NaN}") != SENSIM_OK);
  assert_int_equal(imu->chain.n, 0);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(
      imu, "imu_noise", "{\"gyro_arw_deg_per_rth\": 0.2, \"gyro_gm_sigma\": 1e-4, \"gyro_gm_tau\": 10,"
                        " \"accel_range_g\": 16, \"accel_resolution_mg\": 0.5}"));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.05));
  const sensim_frame *f = NULL;
  int n = 0;
  while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) n++;
  assert_int_equal(n, 6);
  sensim_world_destroy(w);
}

int sensim_test_inertial_errors(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_imu_error_terms_apply_in_the_stated_order),
      cmocka_unit_test(test_imu_scale_and_misalignment_matrix_multiplies_true_value),
      cmocka_unit_test(test_imu_saturation_clamps_and_quantisation_rounds_to_lsb),
      cmocka_unit_test(test_imu_turn_on_bias_is_constant_per_run_and_normal_across_runs),
      cmocka_unit_test(test_imu_gauss_markov_bias_has_variance_sigma2_and_autocorrelation_exp),
      cmocka_unit_test(test_imu_bias_instability_key_sets_gm_sigma_to_bi_over_adev_peak),
      cmocka_unit_test(test_imu_gaussian_drift_b0_tb_is_walk_k_and_increments_have_mean_mu_b),
      cmocka_unit_test(test_imu_reported_variance_is_the_white_noise_added_per_sample),
      cmocka_unit_test(test_imu_noise_bad_parameters_are_refused_with_the_key_named),
  };
  return cmocka_run_group_tests_name("inertial_errors", tests, NULL, NULL);
}
