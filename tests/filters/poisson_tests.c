/* tests/filters/poisson_tests.c: the position-addressed draws of
 * "noise_emva1288" (filters/poisson_ctr.h, filters/emva_kernel.h,
 * core/rng_counter.h). The Poisson sampler fits the exact pmf by
 * chi-square at seven means on both sides of its switch from inversion to
 * PTRS; its library-free logarithms are within a few ulps of libm's; the
 * read noise's Gaussian has mean 0 and variance 1; the AVX2 path gives the
 * scalar path's bits; and a value's draws depend on its position alone, so
 * a mosaic gets exactly the kept channel of the rgb result and a frame
 * split into bands on workers gets the bits of one band. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "core/rng_counter.h"
#include "core/pool.h"
#include "filters/bands.h"
#include "filters/builtin.h"
#include "filters/emva_kernel.h"
#include "filters/image_sensor_fixtures.h"
#include "filters/poisson_ctr.h"
#include "support/testutil.h"

/* Chi-square of n draws against Poisson(mu): bins of expected count >= 5,
 * the tails pooled into the end bins. */
static double chi_square(const double *k, size_t n, double mu, int *df) {
  double lo_k = floor(mu - 12.0 * sqrt(mu) - 20.0), hi_k = ceil(mu + 12.0 * sqrt(mu) + 20.0);
  if (lo_k < 0) lo_k = 0;
  size_t nb = (size_t)(hi_k - lo_k) + 1;
  double *obs = calloc(nb, sizeof *obs), *exp_ = calloc(nb, sizeof *exp_);
  assert_non_null(obs);
  assert_non_null(exp_);
  for (size_t i = 0; i < n; i++) {
    double b = k[i] < lo_k ? 0 : k[i] > hi_k ? (double)(nb - 1) : k[i] - lo_k;
    obs[(size_t)b] += 1;
  }
  for (size_t b = 0; b < nb; b++) exp_[b] = (double)n * gsl_ran_poisson_pdf((unsigned)(lo_k + (double)b), mu);
  exp_[0] += (double)n * (lo_k > 0 ? gsl_cdf_poisson_P((unsigned)lo_k - 1u, mu) : 0.0);
  exp_[nb - 1] += (double)n * gsl_cdf_poisson_Q((unsigned)hi_k, mu);
  /* Merge bins from each end until every bin expects >= 5. */
  double chi = 0, eo = 0, ee = 0;
  int bins = 0;
  for (size_t b = 0; b < nb; b++) {
    eo += obs[b];
    ee += exp_[b];
    if (ee >= 5.0) {
      int tail_small = 1; /* fold a small remainder into this bin */
      double rest = 0;
      for (size_t c = b + 1; c < nb; c++) rest += exp_[c];
      if (rest >= 5.0) tail_small = 0;
      if (tail_small) {
        for (size_t c = b + 1; c < nb; c++) eo += obs[c], ee += exp_[c];
        b = nb;
      }
      chi += (eo - ee) * (eo - ee) / ee;
      bins++;
      eo = ee = 0;
    }
  }
  free(obs);
  free(exp_);
  *df = bins - 1;
  return chi;
}

static void test_poisson_sampler_fits_exact_pmf_by_chi_square_at_seven_means(void **state) {
  (void)state;
  /* 10^6 draws per mean, each from its own block (the filter's keying);
   * the critical value is the chi-square quantile at significance 1e-4
   * for the bins' degrees of freedom, so a correct sampler fails one of
   * these fixed seeds with probability under 1e-3 overall. A wrong
   * PTRS constant or an off-by-one in the inversion moves chi-square by
   * thousands at this sample size. */
  const double mus[] = {0.3, 4.0, 9.9, 10.1, 37.0, 1316.0, 1e5};
  const size_t n = 1000000;
  double *k = malloc(n * sizeof *k);
  assert_non_null(k);
  for (size_t m = 0; m < sizeof mus / sizeof mus[0]; m++) {
    const double mu = (double)(float)mus[m]; /* the frame's float value */
    sensim_rng s;
    sensim_rng_init(&s, 0x5EEDull + m, 7, 11, 0x80000002u);
    /* Through the filter's kernel (squeeze on eight lanes, packed full
     * tests, scalar rest), without read noise, pattern or well. */
    sensim_emva_kernel kn = {.stream = &s, .full_well = 1e9, .sure_sat = 2e9, .shot_noise = 1};
    double sum = 0;
    for (size_t i0 = 0; i0 < n; i0 += SENSIM_EMVA_CHUNK) {
      uint32_t blocks[SENSIM_EMVA_CHUNK];
      float v[SENSIM_EMVA_CHUNK];
      for (size_t i = 0; i < SENSIM_EMVA_CHUNK; i++) blocks[i] = (uint32_t)(i0 + i), v[i] = (float)mu;
      sensim__emva_values(&kn, blocks, SENSIM_EMVA_CHUNK, NULL, NULL, v);
      for (size_t i = 0; i < SENSIM_EMVA_CHUNK; i++) {
        k[i0 + i] = v[i];
        assert_true(k[i0 + i] >= 0 && k[i0 + i] == floor(k[i0 + i]));
        sum += v[i];
      }
      if (i0 < 4096) /* the sampler alone agrees with the kernel */
        for (size_t i = 0; i < SENSIM_EMVA_CHUNK; i++) {
          uint32_t w[4];
          sensim__philox_at1(&s, blocks[i], 0, w);
          assert_true(sensim__poisson_ctr(&s, blocks[i], w[0], w[1], mu) == k[i0 + i]);
        }
    }
    int df = 0;
    double chi = chi_square(k, n, mu, &df);
    double crit = gsl_cdf_chisq_Qinv(1e-4, df);
    if (!(df >= 2 && chi <= crit))
      fail_msg("mu %g: chi-square %.1f with %d dof above the 1e-4 critical value %.1f", mus[m], chi, df, crit);
    /* The mean too, within 5 standard errors. */
    assert_true(fabs(sum / (double)n - mu) <= 5.0 * sqrt(mu / (double)n));
  }
  free(k);
}

static void test_library_free_logs_are_within_a_few_ulps_of_libm(void **state) {
  (void)state;
  /* PTRS's acceptance test compares ln values; within 4 ulps of libm (itself
   * within 1) its decisions differ from exact arithmetic only when both
   * sides agree to 1e-15, which no finite sample can show. */
  double worst = 0;
  for (int i = 0; i <= 2000000; i++) {
    double x = exp(-700.0 + 1400.0 * i / 2000000.0) * (1.0 + 1e-7 * (i % 13));
    double want = log(x), got = sensim__ln(x);
    double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
    double err = fabs(got - want) / (want == 0 ? 1e-300 : ulp);
    if (err > worst) worst = err;
  }
  /* Near 1, where ln x -> 0: relative error, the hard case. */
  for (int i = 1; i <= 100000; i++) {
    double x = 1.0 + (i - 50000) * 1e-9;
    if (x == 1.0) continue;
    double want = log(x), got = sensim__ln(x);
    double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
    if (fabs(got - want) / ulp > worst) worst = fabs(got - want) / ulp;
  }
  if (!(worst <= 4.0)) fail_msg("sensim__ln is %.1f ulps from log", worst);
  double worst_f = 0;
  for (double k = SENSIM_STIRLING_MIN; k < 2e7; k = floor(k * 1.01) + 1) {
    double want = gsl_sf_lngamma(k + 1.0), got = sensim__ln_factorial_big(k);
    double rel = fabs(got - want) / want;
    if (rel > worst_f) worst_f = rel;
  }
  if (!(worst_f <= 4e-15)) fail_msg("ln k! relative error %g", worst_f);
}

static void test_read_noise_gaussian_has_mean_zero_and_unit_variance(void **state) {
  (void)state;
  /* 2^20 normals from words 2 and 3 of consecutive blocks: mean within
   * 5 / sqrt(n), variance within 5 sqrt(2 / n) (kappa4 = 0), and the
   * fourth moment 3 within 5 sqrt(96 / n). */
  sensim_rng s;
  sensim_rng_init(&s, 42, 1, 2, 0x80000001u);
  const size_t n = 1u << 20;
  double m1 = 0, m2 = 0, m4 = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t w[4];
    float a, b;
    sensim__philox_at1(&s, (uint32_t)i, 0, w);
    sensim__normal_pair_fast(w[2], w[3], &a, &b);
    m1 += a;
    m2 += (double)a * a;
    m4 += (double)a * a * a * a;
  }
  m1 /= (double)n, m2 /= (double)n, m4 /= (double)n;
  assert_true(fabs(m1) <= 5.0 / sqrt((double)n));
  assert_true(fabs(m2 - 1.0) <= 5.0 * sqrt(2.0 / (double)n));
  assert_true(fabs(m4 - 3.0) <= 5.0 * sqrt(96.0 / (double)n));
}

/* A gray frame whose means cover every path: zero, NaN, negative, under
 * 10 (inversion), around the Stirling switch, camera levels, beyond the
 * well. */
static void means_frame(sensim_frame *f, uint32_t w, uint32_t h) {
  fx_image(f, SENSIM_PAYLOAD_GRAY_F32, w, h, SENSIM_UNIT_ELECTRONS, 0.0f, 5);
  float *v = f->data;
  for (size_t i = 0; i < f->count; i++) {
    double t = (double)(i % 1000) / 1000.0;
    v[i] = (float)(i % 97 == 0 ? NAN : i % 89 == 0 ? -3.0 : 30000.0 * t * t * t);
  }
  f->exposure_time = 0.01;
}

static void test_avx2_and_plain_paths_give_same_bits(void **state) {
  (void)state;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (!sensim__cpu_has_avx2()) skip();
  const char *params[] = {NULL, "{\"read_noise\": 0, \"prnu\": 0, \"dsnu\": 0}",
                          "{\"full_well\": 50, \"dark_current\": 1000}"};
  for (int p = 0; p < 3; p++) {
    sensim_frame a, b;
    means_frame(&a, 333, 301); /* width not a multiple of 8: the scalar tail too */
    means_frame(&b, 333, 301);
    void *u = fx_make(&sensim__filter_noise_emva1288, params[p]);
    run_ok(&sensim__filter_noise_emva1288, u, &a);
    atomic_store(&sensim__cpu_avx2_off, 1);
    run_ok(&sensim__filter_noise_emva1288, u, &b);
    atomic_store(&sensim__cpu_avx2_off, 0);
    assert_memory_equal(a.data, b.data, a.count * sizeof(float));
    free(a.data);
    free(b.data);
    fx_drop(&sensim__filter_noise_emva1288, u);
  }
#else
  skip();
#endif
}

static void test_mosaic_gets_exactly_the_kept_channel_of_the_rgb_result(void **state) {
  (void)state;
  /* The draws of value (pixel, channel) depend on that position alone, and
   * a mosaic value's channel is its filter colour: noise then "cfa" equals
   * "cfa" then noise, bit for bit, pattern included. */
  const char *patterns[] = {"RGGB", "GBRG"};
  for (int p = 0; p < 2; p++) {
    sensim_frame rgb, raw;
    fx_image(&rgb, SENSIM_PAYLOAD_RGB_F32, 71, 37, SENSIM_UNIT_ELECTRONS, 0.0f, 9);
    float *v = rgb.data;
    for (size_t i = 0; i < 3 * rgb.count; i++) v[i] = (float)(5.0 + (double)(i * 7919 % 12000));
    rgb.exposure_time = 0.02;
    char json[48];
    snprintf(json, sizeof json, "{\"pattern\": \"%s\"}", patterns[p]);
    void *cfa = fx_make(&sensim__filter_cfa, json);
    /* raw: "cfa" on a copy of the input, then the noise */
    fx_image(&raw, SENSIM_PAYLOAD_RGB_F32, 71, 37, SENSIM_UNIT_ELECTRONS, 0.0f, 9);
    memcpy(raw.data, rgb.data, 3 * rgb.count * sizeof(float));
    raw.exposure_time = 0.02;
    run_ok(&sensim__filter_cfa, cfa, &raw);
    void *n1 = fx_make(&sensim__filter_noise_emva1288, NULL), *n2 = fx_make(&sensim__filter_noise_emva1288, NULL);
    run_ok(&sensim__filter_noise_emva1288, n1, &raw);
    run_ok(&sensim__filter_noise_emva1288, n2, &rgb);
    run_ok(&sensim__filter_cfa, cfa, &rgb);
    assert_memory_equal(raw.data, rgb.data, raw.count * sizeof(float));
    free(raw.data);
    free(rgb.data);
    fx_drop(&sensim__filter_noise_emva1288, n1);
    fx_drop(&sensim__filter_noise_emva1288, n2);
    fx_drop(&sensim__filter_cfa, cfa);
  }
}

static void test_noise_same_bits_in_one_band_and_in_many(void **state) {
  (void)state;
  /* The filter's rows split over a pool of three workers (16 bands by the
   * fork's rule), first frame (pattern made in bands too) and steady
   * state, against one band on this thread. */
  sensim_pool *pool = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(3, &pool));
  sensim_fork fork = {pool};
  void *one = fx_make(&sensim__filter_noise_emva1288, NULL), *many = fx_make(&sensim__filter_noise_emva1288, NULL);
  for (uint64_t k = 0; k < 2; k++) {
    sensim_frame a, b;
    means_frame(&a, 97, 83);
    means_frame(&b, 97, 83);
    a.index = b.index = k;
    run_ok(&sensim__filter_noise_emva1288, one, &a);
    const sensim_fork *old = sensim__filter_fork_swap(&fork);
    run_ok(&sensim__filter_noise_emva1288, many, &b);
    sensim__filter_fork_swap(old);
    assert_memory_equal(a.data, b.data, a.count * sizeof(float));
    free(a.data);
    free(b.data);
  }
  fx_drop(&sensim__filter_noise_emva1288, one);
  fx_drop(&sensim__filter_noise_emva1288, many);
  sensim__pool_destroy(pool);
}

int sensim_test_poisson(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_poisson_sampler_fits_exact_pmf_by_chi_square_at_seven_means),
      cmocka_unit_test(test_library_free_logs_are_within_a_few_ulps_of_libm),
      cmocka_unit_test(test_read_noise_gaussian_has_mean_zero_and_unit_variance),
      cmocka_unit_test(test_avx2_and_plain_paths_give_same_bits),
      cmocka_unit_test(test_mosaic_gets_exactly_the_kept_channel_of_the_rgb_result),
      cmocka_unit_test(test_noise_same_bits_in_one_band_and_in_many),
  };
  return cmocka_run_group_tests_name("poisson", tests, NULL, NULL);
}
