/* tests/filters/image_noise_tests.c: the image noise filters
 * "noise_intensity" and "noise_emva1288". Temporal variance follows each
 * model at several levels (shot noise Poisson, dark current and read noise
 * adding, the photon-transfer slope equal to the system gain, the
 * defaults agreeing with each other), and the fixed pattern is the same
 * every frame and differs per seed and per sensor.
 *
 * Statistical checks use fixed seeds, so they are deterministic; their
 * bounds are 5 standard errors of the statistic for the sample size. The
 * variance of a sample variance of n iid values is exactly
 * kappa4 / n + 2 kappa2^2 / (n - 1) (kappa: cumulants; Gaussian kappa4 = 0,
 * so 2 sigma^4 / (n - 1); Poisson kappa2 = kappa4 = mu, i.e. fourth central
 * moment mu + 3 mu^2). A wrong model (sigma for sigma^2, a missing term, a
 * wrong gain) lies many standard errors out.
 *
 * Most checks call a builtin's create/apply on hand-made frames with the
 * context the chain builds (filters/chain.c); the fixed pattern also runs
 * the real world -> camera -> chain path (0 threads). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "filters/builtin.h"
#include "filters/image_sensor_fixtures.h"

/* ---- noise_intensity ---------------------------------------------------- */

static void test_noise_intensity_variance_is_s1sq_I_plus_s2sq_at_four_levels(void **state) {
  (void)state;
  const double s1 = 0.05, s2 = 0.01, levels[4] = {0.0, 0.05, 0.3, 0.8};
  const sensim_payload types[3] = {SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_RAW_F32, SENSIM_PAYLOAD_RGB_F32};
  void *u = fx_make(&sensim__filter_noise_intensity, "{\"s1\": 0.05, \"s2\": 0.01}");
  for (int t = 0; t < 3; t++)
    for (int k = 0; k < 4; k++) {
      sensim_frame f;
      fx_image(&f, types[t], 256, 256, SENSIM_UNIT_SIGNAL, (float)levels[k], (uint64_t)(4 * t + k));
      run_ok(&sensim__filter_noise_intensity, u, &f);
      size_t n = f.count * (types[t] == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1);
      moments m = mom_of(f.data, n);
      check_moments(&m, levels[k], s1 * s1 * levels[k] + s2 * s2, 0.0);
      assert_int_equal(f.unit, SENSIM_UNIT_SIGNAL);
      free(f.data);
    }
  fx_drop(&sensim__filter_noise_intensity, u);
}

/* The documented defaults: noise_intensity's model in SIGNAL units is the
 * temporal noise of the noise_emva1288 + adc defaults at unity gain. */
static void test_noise_intensity_defaults_match_emva1288_and_adc_defaults(void **state) {
  (void)state;
  void *emva = fx_make(&sensim__filter_noise_emva1288, "{\"prnu\": 0, \"dsnu\": 0}");
  void *adc = fx_make(&sensim__filter_adc, NULL);
  void *intensity = fx_make(&sensim__filter_noise_intensity, NULL);
  /* 20 e- (8 DN, where s2 is a third of the variance, 3.7 sigma above the
   * clip at 0), 1000 e- and 5000 e-. */
  const float levels[3] = {20.0f, 1000.0f, 5000.0f};
  for (int k = 0; k < 3; k++) {
    sensim_frame f;
    fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, 256, 256, SENSIM_UNIT_ELECTRONS, levels[k], (uint64_t)k);
    f.exposure_time = 0.01;
    run_ok(&sensim__filter_noise_emva1288, emva, &f);
    run_ok(&sensim__filter_adc, adc, &f);
    moments m = mom_of(f.data, f.count);
    double model = 0.01 * 0.01 * m.mean + 3.1e-4 * 3.1e-4; /* documented s1, s2 */
    double se = model * sqrt(2.0 / (m.n - 1.0));
    assert_near(mom_var(&m), model, 5.0 * se);
    /* The filter's own defaults on a flat frame at that mean. */
    sensim_frame g;
    fx_image(&g, SENSIM_PAYLOAD_GRAY_F32, 256, 256, SENSIM_UNIT_SIGNAL, (float)m.mean, (uint64_t)k);
    run_ok(&sensim__filter_noise_intensity, intensity, &g);
    moments mi = mom_of(g.data, g.count);
    assert_near(mom_var(&mi), mom_var(&m), 5.0 * sqrt(2.0) * se);
    free(f.data);
    free(g.data);
  }
  fx_drop(&sensim__filter_noise_emva1288, emva);
  fx_drop(&sensim__filter_adc, adc);
  fx_drop(&sensim__filter_noise_intensity, intensity);
}

/* ---- noise_emva1288 ----------------------------------------------------- */

/* Pearson's chi-square of integer samples against Poisson(mu): single
 * bins, the lower tail merged up to at least 5 expected counts and the
 * upper tail [hi, inf) lumped likewise. *df = bins - 1. */
static double poisson_chi2(const float *v, size_t n, double mu, int *df) {
  enum { MAXK = 160 };
  double count[MAXK] = {0}, expect[MAXK], N = (double)n;
  for (size_t i = 0; i < n; i++) count[v[i] < MAXK - 1 ? (int)v[i] : MAXK - 1] += 1.0;
  for (int k = 0; k < MAXK; k++) expect[k] = N * exp(-mu + k * log(mu) - lgamma(k + 1.0));
  int lo = 0, hi = 0;
  double c_lo = count[0], e_lo = expect[0];
  while (e_lo < 5.0) c_lo += count[++lo], e_lo += expect[lo];
  double below = 0.0; /* expected count below k */
  for (int k = 0; k < MAXK; k++) {
    if (N - below >= 5.0) hi = k;
    below += expect[k];
  }
  double e_hi = N, c_hi = 0.0;
  for (int k = 0; k < hi; k++) e_hi -= expect[k];
  for (int k = hi; k < MAXK; k++) c_hi += count[k];
  assert_true(hi > lo + 1);
  double chi = (c_lo - e_lo) * (c_lo - e_lo) / e_lo + (c_hi - e_hi) * (c_hi - e_hi) / e_hi;
  for (int k = lo + 1; k < hi; k++) chi += (count[k] - expect[k]) * (count[k] - expect[k]) / expect[k];
  *df = hi - lo; /* hi - lo + 1 bins */
  return chi;
}

static void test_emva1288_shot_noise_is_poisson_at_five_means(void **state) {
  (void)state;
  /* Means on both sides of the sampler's switch at 10 (inversion, PTRS):
   * the whole distribution by chi-square where it has few values, mean and
   * variance (Poisson: kappa2 = kappa4 = mu) everywhere. */
  void *u = fx_make(&sensim__filter_noise_emva1288,
                 "{\"read_noise\": 0, \"dark_current\": 0, \"prnu\": 0, \"dsnu\": 0}");
  const double mus[5] = {3.0, 9.5, 15.0, 50.0, 2000.0};
  for (int k = 0; k < 5; k++) {
    sensim_frame f;
    fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, 256, 256, SENSIM_UNIT_ELECTRONS, (float)mus[k], (uint64_t)k);
    run_ok(&sensim__filter_noise_emva1288, u, &f);
    const float *v = f.data;
    for (size_t i = 0; i < f.count; i++) assert_true(v[i] == floorf(v[i]) && v[i] >= 0.0f); /* electrons */
    moments m = mom_of(v, f.count);
    check_moments(&m, mus[k], mus[k], mus[k]);
    if (mus[k] <= 50.0) {
      int df = 0;
      double chi = poisson_chi2(v, f.count, mus[k], &df);
      assert_true(df >= 5);
      if (!(chi <= df + 5.0 * sqrt(2.0 * df))) fail_msg("mu %g: chi2 %g with %d dof", mus[k], chi, df);
    }
    assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
    free(f.data);
  }
  fx_drop(&sensim__filter_noise_emva1288, u);
}

static void test_emva1288_temporal_variance_adds_dark_current_and_read_noise(void **state) {
  (void)state;
  /* mu_d = 40 e-/s x 0.5 s = 20 e-; sigma_d = 4 e-: mean mu_e + mu_d,
   * variance mu_e + mu_d + 16, kappa4 = mu_e + mu_d (Gaussian adds none). */
  void *u = fx_make(&sensim__filter_noise_emva1288,
                 "{\"read_noise\": 4, \"dark_current\": 40, \"prnu\": 0, \"dsnu\": 0}");
  const double mus[3] = {0.0, 1000.0, 5000.0};
  for (int k = 0; k < 3; k++) {
    sensim_frame f;
    fx_image(&f, SENSIM_PAYLOAD_RAW_F32, 256, 256, SENSIM_UNIT_ELECTRONS, (float)mus[k], (uint64_t)k);
    f.exposure_time = 0.5;
    run_ok(&sensim__filter_noise_emva1288, u, &f);
    moments m = mom_of(f.data, f.count);
    double mu = mus[k] + 20.0;
    check_moments(&m, mu, mu + 16.0, mu);
    free(f.data);
  }
  fx_drop(&sensim__filter_noise_emva1288, u);
  /* Saturation: the drawn charge is clipped at the full well before read
   * noise, also far beyond it (no draw). */
  u = fx_make(&sensim__filter_noise_emva1288, "{\"read_noise\": 0, \"dark_current\": 0, \"prnu\": 0, \"dsnu\": 0,"
                                           " \"full_well\": 1000}");
  const float fills[2] = {1000.0f, 1e8f};
  for (int k = 0; k < 2; k++) {
    sensim_frame f;
    fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, 64, 64, SENSIM_UNIT_ELECTRONS, fills[k], 0);
    run_ok(&sensim__filter_noise_emva1288, u, &f);
    moments m = mom_of(f.data, f.count);
    for (size_t i = 0; i < f.count; i++) assert_true(((float *)f.data)[i] <= 1000.0f);
    if (k == 0) assert_true(m.mean < 1000.0 - 5.0); /* about half the draws fall below: mean ~ 987 */
    else assert_true(m.mean == 1000.0);
    free(f.data);
  }
  fx_drop(&sensim__filter_noise_emva1288, u);
}

/* EMVA 1288 photon transfer: pairs of frames A, B per level give
 * mu_y = mean (A + B) / 2 and sigma_y^2 = var(A - B) / 2, which removes the
 * fixed pattern only if it is the same in both frames. The model is
 * sigma_y^2 = K^2 sigma_d^2 + 1/12 + K (mu_y - mu_y.dark). */
static void photon_transfer(double gain, const double *levels, int nl) {
  const double K = 4095.0 / 10000.0, Kg = K * gain, sd = 5.0, black = 100.0;
  void *noise = fx_make(&sensim__filter_noise_emva1288,
                     "{\"read_noise\": 5, \"dark_current\": 0, \"prnu\": 0.02, \"dsnu\": 3}");
  void *raw = fx_make(&sensim__filter_raw16, "{\"bits\": 12, \"black_level\": 100}");
  void *adc = fx_make(&sensim__filter_adc, "{\"bits\": 12, \"black_level\": 100}");
  double x[16], y[16], se[16], mu_dark = 0.0;
  for (int k = 0; k < nl; k++) {
    moments mean = {0}, diff = {0};
    uint16_t *dn[2];
    for (int j = 0; j < 2; j++) {
      sensim_frame f;
      fx_image(&f, SENSIM_PAYLOAD_RAW_F32, 256, 256, SENSIM_UNIT_ELECTRONS, (float)levels[k], (uint64_t)(2 * k + j));
      f.cfa = SENSIM_CFA_RGGB;
      f.gain = gain;
      run_ok(&sensim__filter_noise_emva1288, noise, &f);
      float *copy = malloc(f.count * sizeof *copy);
      assert_non_null(copy);
      memcpy(copy, f.data, f.count * sizeof *copy);
      run_ok(&sensim__filter_raw16, raw, &f);
      assert_int_equal(f.type, SENSIM_PAYLOAD_RAW16);
      assert_int_equal(f.cfa, SENSIM_CFA_RGGB);
      dn[j] = f.data;
      /* "adc" gives the same numbers as SIGNAL, black subtracted. */
      sensim_frame g = f;
      g.type = SENSIM_PAYLOAD_RAW_F32;
      g.data = copy;
      g.unit = SENSIM_UNIT_ELECTRONS;
      run_ok(&sensim__filter_adc, adc, &g);
      for (size_t i = 0; i < f.count; i++)
        assert_true(copy[i] == (float)((dn[j][i] - black) / (4095.0 - black)));
      free(copy);
    }
    for (size_t i = 0; i < 256u * 256u; i++) {
      mom_add(&mean, 0.5 * (dn[0][i] + dn[1][i]));
      mom_add(&diff, (double)dn[0][i] - dn[1][i]);
    }
    free(dn[0]);
    free(dn[1]);
    if (k == 0) mu_dark = mean.mean;
    x[k] = mean.mean - mu_dark;
    y[k] = 0.5 * mom_var(&diff);
    double model = Kg * Kg * sd * sd + 1.0 / 12.0 + Kg * x[k];
    se[k] = model * sqrt(2.0 / (diff.n - 1.0)); /* Gaussian approximation of A - B */
    assert_near(y[k], model, 5.0 * se[k]);
    /* The mean response is K g mu_e above the dark level (PRNU averages out
     * to prnu / sqrt(n) relative). */
    assert_near(x[k], Kg * levels[k], 5.0 * (Kg * levels[k] * 0.02 / 256.0 + sqrt(y[k] / 65536.0)) + 0.1);
  }
  /* Least-squares slope of sigma_y^2 on mu_y - mu_y.dark, and its standard
   * error from the per-level errors. */
  double xm = 0, ym = 0, sxx = 0, sxy = 0, var_slope = 0;
  for (int k = 0; k < nl; k++) xm += x[k] / nl, ym += y[k] / nl;
  for (int k = 0; k < nl; k++) sxx += (x[k] - xm) * (x[k] - xm), sxy += (x[k] - xm) * (y[k] - ym);
  for (int k = 0; k < nl; k++) var_slope += (x[k] - xm) * (x[k] - xm) * se[k] * se[k];
  double slope = sxy / sxx, slope_se = sqrt(var_slope) / sxx;
  assert_near(slope, Kg, 5.0 * slope_se);
  assert_true(5.0 * slope_se < 0.05 * Kg); /* the check can tell K from 1.1 K */
  assert_near(ym - slope * xm, Kg * Kg * sd * sd + 1.0 / 12.0, 5.0 * (se[0] + slope_se * xm));
  fx_drop(&sensim__filter_noise_emva1288, noise);
  fx_drop(&sensim__filter_raw16, raw);
  fx_drop(&sensim__filter_adc, adc);
}

static void test_emva1288_photon_transfer_slope_is_system_gain(void **state) {
  (void)state;
  const double levels1[8] = {0, 500, 1500, 3000, 4500, 6000, 7500, 8500};
  const double levels2[8] = {0, 250, 750, 1500, 2250, 3000, 3750, 4250};
  photon_transfer(1.0, levels1, 8);
  photon_transfer(2.0, levels2, 8); /* analog gain 2: slope 2 K */
}

/* Noise-free pattern: out = mu_e (1 + prnu a) + dsnu b. */
static float *pattern_frame(void *u, float mu_e, uint32_t w, uint64_t index, uint64_t seed, uint32_t sensor) {
  sensim_frame f;
  fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, w, 128, SENSIM_UNIT_ELECTRONS, mu_e, index);
  harness h;
  memset(&h, 0, sizeof h);
  SENSIM_OK_OR_FAIL(fx_run(&sensim__filter_noise_emva1288, u, &f, &h, seed, sensor));
  return f.data;
}

static void test_emva1288_fixed_pattern_same_every_frame_differs_per_seed_and_sensor(void **state) {
  (void)state;
  void *u = fx_make(&sensim__filter_noise_emva1288, "{\"shot_noise\": 0, \"read_noise\": 0, \"dark_current\": 0,"
                                                 " \"prnu\": 0.05, \"dsnu\": 4}");
  const size_t n = 128u * 128u;
  float *a0 = pattern_frame(u, 1000.0f, 128, 0, SEED, 3);
  float *a7 = pattern_frame(u, 1000.0f, 128, 7, SEED, 3);
  float *seed2 = pattern_frame(u, 1000.0f, 128, 0, SEED + 1, 3);
  float *sensor4 = pattern_frame(u, 1000.0f, 128, 7, SEED, 4);
  float *narrow = pattern_frame(u, 1000.0f, 64, 7, SEED, 3);
  assert_memory_equal(a0, a7, n * sizeof *a0);
  /* Independent patterns: sample correlation within 5 / sqrt(n) of 0. */
  const float *other[2] = {seed2, sensor4};
  for (int j = 0; j < 2; j++) {
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; i++) {
      double p = a0[i] - 1000.0, q = other[j][i] - 1000.0;
      sab += p * q, saa += p * p, sbb += q * q;
    }
    assert_near(sab / sqrt(saa * sbb), 0.0, 5.0 / sqrt((double)n));
  }
  /* A photodiode's pattern does not depend on the image width. */
  for (uint32_t y = 0; y < 128; y++) assert_memory_equal(narrow + 64 * y, a0 + 128 * y, 64 * sizeof *a0);
  /* Spread: (prnu mu_e)^2 + dsnu^2 in the light, dsnu^2 in the dark. */
  moments m = mom_of(a0, n);
  check_moments(&m, 1000.0, 50.0 * 50.0 + 16.0, 0.0);
  float *dark = pattern_frame(u, 0.0f, 128, 2, SEED, 3);
  m = mom_of(dark, n);
  check_moments(&m, 0.0, 16.0, 0.0);
  free(a0), free(a7), free(seed2), free(sensor4), free(narrow), free(dark);
  fx_drop(&sensim__filter_noise_emva1288, u);
}

/* Frames 0..n-1 of a fresh flat world's camera through `chain` (pairs of
 * filter name and JSON), values copied into out[k]. */
static void capture_chain(uint64_t seed, const char *const *chain, int nf, int n, float **out) {
  sensim_world *w = flat_world(seed);
  sensim_sensor *cam = flat_camera(w);
  for (int i = 0; i < nf; i++) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, chain[2 * i], chain[2 * i + 1]));
  for (int k = 0; k < n; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 10.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_int_equal(f->type, SENSIM_PAYLOAD_RAW_F32);
    assert_int_equal(f->unit, SENSIM_UNIT_ELECTRONS);
    out[k] = malloc(f->count * sizeof(float));
    assert_non_null(out[k]);
    memcpy(out[k], f->data, f->count * sizeof(float));
  }
  sensim_world_destroy(w);
}

static void test_emva1288_fixed_pattern_through_worlds_is_per_seed(void **state) {
  (void)state;
  /* The physical order: cfa, image_sensor, noise. Temporal noise off, so
   * the frames show the fixed pattern alone. */
  const char *chain[] = {"cfa", "{\"pattern\": \"GRBG\"}", "image_sensor", NULL, "noise_emva1288",
                         "{\"shot_noise\": 0, \"read_noise\": 0, \"dark_current\": 0, \"prnu\": 0.03, \"dsnu\": 2}"};
  const size_t n = 32 * 24;
  float *a[2], *b[2], *c[2];
  capture_chain(SEED, chain, 3, 2, a);
  capture_chain(SEED, chain, 3, 2, b);
  capture_chain(SEED + 99, chain, 3, 2, c);
  assert_memory_equal(a[0], a[1], n * sizeof(float)); /* frame to frame */
  assert_memory_equal(a[0], b[0], n * sizeof(float)); /* same seed, same sensor */
  size_t differ = 0;
  for (size_t i = 0; i < n; i++) differ += a[0][i] != c[0][i];
  assert_true(differ > n * 9 / 10); /* another seed, another pattern */
  assert_memory_equal(c[0], c[1], n * sizeof(float));
  /* The pattern spreads around 0.25 x 0.01 s x 3e6 x 0.5 = 3750 e-. */
  moments m = mom_of(a[0], n);
  assert_near(m.mean, 3750.0, 5.0 * sqrt((112.5 * 112.5 + 4.0) / n));
  for (int k = 0; k < 2; k++) free(a[k]), free(b[k]), free(c[k]);
}

int sensim_test_image_noise(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_noise_intensity_variance_is_s1sq_I_plus_s2sq_at_four_levels),
      cmocka_unit_test(test_noise_intensity_defaults_match_emva1288_and_adc_defaults),
      cmocka_unit_test(test_emva1288_shot_noise_is_poisson_at_five_means),
      cmocka_unit_test(test_emva1288_temporal_variance_adds_dark_current_and_read_noise),
      cmocka_unit_test(test_emva1288_photon_transfer_slope_is_system_gain),
      cmocka_unit_test(test_emva1288_fixed_pattern_same_every_frame_differs_per_seed_and_sensor),
      cmocka_unit_test(test_emva1288_fixed_pattern_through_worlds_is_per_seed),
  };
  return cmocka_run_group_tests_name("image_noise", tests, NULL, NULL);
}
