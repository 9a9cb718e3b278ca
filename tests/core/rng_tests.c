/* tests/core/rng_tests.c: Philox streams (src/core/rng.c): known answers,
 * determinism and independence of keys, moments and a chi-square test of
 * the distributions with tolerances derived from the sample size, and the
 * GSL adapter. */
#include <Random123/philox.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include "support/testutil.h"
#include "core/rng_gsl.h"

/* Known-answer vectors of Philox4x32-10 from Random123's tests/kat_vectors
 * (D. E. Shaw Research; line format "philox4x32 10 ctr[0..3] key[0..1]
 * out[0..3]", hex):
 *   philox4x32 10 00000000 00000000 00000000 00000000 00000000 00000000
 *                 6627e8d5 e169c58d bc57ac4c 9b00dbd8
 *   philox4x32 10 243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0
 *                 d16cfe09 94fdcceb 5001e420 24126ea1
 * sensim_rng_u32 hands out a block's words in the order out[0], out[1],
 * out[2], out[3], then moves ctr[0] on. */
static void test_philox_matches_random123_known_answers(void **state) {
  (void)state;
  sensim_rng r;
  /* seed 0, sensor 0, frame 0, element 0 is counter 0, key 0. */
  sensim_rng_init(&r, 0, 0, 0, 0);
  const uint32_t zero[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
  for (int i = 0; i < 4; i++) assert_int_equal(sensim_rng_u32(&r), zero[i]);
  /* The pi-digits vector, set through the public struct. */
  sensim_rng_init(&r, 0, 0, 0, 0);
  r.ctr[0] = 0x243f6a88u;
  r.ctr[1] = 0x85a308d3u;
  r.ctr[2] = 0x13198a2eu;
  r.ctr[3] = 0x03707344u;
  r.key[0] = 0xa4093822u;
  r.key[1] = 0x299f31d0u;
  r.used = 4;
  const uint32_t pi[4] = {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
  for (int i = 0; i < 4; i++) assert_int_equal(sensim_rng_u32(&r), pi[i]);
  /* The same key through sensim_rng_init: seed's low word is key[0]; the
   * element is ctr[1], the frame's low word ctr[2], the sensor (low 16
   * bits) and the frame's high word (<< 16) ctr[3]. Block 0 of that stream
   * is a direct call of philox4x32 on that counter. */
  uint64_t seed = ((uint64_t)0x299f31d0u << 32) | 0xa4093822u;
  uint64_t frame = ((uint64_t)0x0370u << 32) | 0x13198a2eu;
  sensim_rng_init(&r, seed, 0x7344u, frame, 0x85a308d3u);
  philox4x32_ctr_t c = {{0, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  philox4x32_key_t k = {{0xa4093822u, 0x299f31d0u}};
  for (uint32_t blk = 0; blk < 3; blk++) {
    c.v[0] = blk;
    philox4x32_ctr_t o = philox4x32(c, k);
    for (int i = 0; i < 4; i++) assert_int_equal(sensim_rng_u32(&r), o.v[i]);
  }
}

static void test_same_key_gives_identical_sequence(void **state) {
  (void)state;
  sensim_rng a, b;
  sensim_rng_init(&a, 123456789ull, 3, 77, 5);
  sensim_rng_init(&b, 123456789ull, 3, 77, 5);
  for (int i = 0; i < 10000; i++) assert_int_equal(sensim_rng_u32(&a), sensim_rng_u32(&b));
  sensim_rng_init(&a, 9, 1, 2, 3);
  sensim_rng_init(&b, 9, 1, 2, 3);
  for (int i = 0; i < 1000; i++) {
    assert_true(sensim_rng_uniform(&a) == sensim_rng_uniform(&b));
    assert_true(sensim_rng_normal(&a) == sensim_rng_normal(&b));
  }
}

/* Changing any one part of the key changes the stream. With 8 words of
 * 32 bits, two independent streams agree on all of them with probability
 * 2^-256; any agreement at all is a key collision. */
static void test_different_keys_give_different_sequences(void **state) {
  (void)state;
  const struct {
    uint64_t seed;
    uint32_t sensor;
    uint64_t frame;
    uint32_t element;
  } keys[] = {
      {1, 0, 0, 0},          {2, 0, 0, 0},          {1ull << 32, 0, 0, 0}, {1, 1, 0, 0},
      {1, 0, 1, 0},          {1, 0, 0, 1},          {1, 0, 1ull << 32, 0}, {1, 0xFFFF, 0, 0},
      {1, 0, 0, 0x80000000u}, {1, 0, 0xFFFFFFFFull, 0},
  };
  enum { NK = sizeof keys / sizeof keys[0], NW = 8 };
  uint32_t w[NK][NW];
  for (int i = 0; i < NK; i++) {
    sensim_rng r;
    sensim_rng_init(&r, keys[i].seed, keys[i].sensor, keys[i].frame, keys[i].element);
    for (int j = 0; j < NW; j++) w[i][j] = sensim_rng_u32(&r);
  }
  for (int i = 0; i < NK; i++)
    for (int j = i + 1; j < NK; j++) {
      int same = 0;
      for (int m = 0; m < NW; m++) same += w[i][m] == w[j][m];
      if (same == NW) fail_msg("keys %d and %d give the same stream", i, j);
      assert_true(same <= 1); /* P(>= 2 equal words of 8) ~ 6.5e-18 */
    }
}

/* Uniform on [0, 1): mean 1/2 and variance 1/12; the standard error of
 * the mean is sqrt(1/12 / n), of the sample variance sqrt((mu4 - s^4) / n)
 * with mu4 = 1/80, so mu4 - s^4 = 1/80 - 1/144 = 1/180. */
static void test_uniform_mean_and_variance_within_5_standard_errors(void **state) {
  (void)state;
  const int n = 1000000;
  sensim_rng r;
  sensim_rng_init(&r, 2024, 7, 11, 0);
  double sum = 0, sum2 = 0, lo = 1, hi = 0;
  for (int i = 0; i < n; i++) {
    double u = sensim_rng_uniform(&r);
    sum += u;
    sum2 += u * u;
    if (u < lo) lo = u;
    if (u > hi) hi = u;
  }
  assert_true(lo >= 0.0 && hi < 1.0);
  double mean = sum / n, var = sum2 / n - mean * mean;
  assert_near(mean, 0.5, 5.0 * sqrt(1.0 / 12.0 / n));
  assert_near(var, 1.0 / 12.0, 5.0 * sqrt(1.0 / 180.0 / n));
  /* Extremes of 1e6 draws lie within ~1e-5 of the ends (P(min > 2e-5) =
   * (1 - 2e-5)^1e6 = e^-20). */
  assert_true(lo < 2e-5 && hi > 1.0 - 2e-5);
}

/* N(0, 1): standard errors sqrt(1/n) for the mean, sqrt(2/n) for the
 * variance and sqrt(24/n) for the kurtosis m4 / m2^2 (= 3); 5 of each. */
static void test_normal_mean_variance_kurtosis_within_bounds(void **state) {
  (void)state;
  const int n = 1000000;
  sensim_rng r;
  sensim_rng_init(&r, 99, 2, 5, 17);
  double s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  for (int i = 0; i < n; i++) {
    double x = sensim_rng_normal(&r);
    double x2 = x * x;
    s1 += x;
    s2 += x2;
    s3 += x2 * x;
    s4 += x2 * x2;
  }
  double mean = s1 / n;
  double m2 = s2 / n - mean * mean;
  double m4 = s4 / n - 4 * mean * s3 / n + 6 * mean * mean * s2 / n - 3 * pow(mean, 4);
  assert_near(mean, 0.0, 5.0 / sqrt(n));
  assert_near(m2, 1.0, 5.0 * sqrt(2.0 / n));
  assert_near(m4 / (m2 * m2), 3.0, 5.0 * sqrt(24.0 / n));
}

/* Each normal costs exactly four words (two 53-bit uniforms, no cache). */
static void test_normal_consumes_exactly_four_words(void **state) {
  (void)state;
  sensim_rng a, b;
  sensim_rng_init(&a, 5, 6, 7, 8);
  sensim_rng_init(&b, 5, 6, 7, 8);
  for (int k = 0; k < 3; k++) {
    (void)sensim_rng_normal(&a);
    for (int i = 0; i < 4; i++) (void)sensim_rng_u32(&b);
    assert_int_equal(sensim_rng_u32(&a), sensim_rng_u32(&b));
  }
}

/* Pearson's chi-square over 100 equal bins of 1e6 uniforms: the statistic
 * is ~chi^2(99), mean 99 and standard deviation sqrt(198) = 14.1; it must
 * lie within 5 standard deviations (too small is as suspicious as too
 * large). */
/* Both values of a Box-Muller pair are standard normal and uncorrelated:
 * mean, variance and correlation within 5 standard errors (1/sqrt(n),
 * sqrt(2/n), 1/sqrt(n)); the first value equals sensim_rng_normal's. */
static void test_normal_pairs_are_independent_standard_normals(void **state) {
  (void)state;
  const int n = 500000;
  sensim_rng r, q;
  sensim_rng_init(&r, 11, 2, 3, 4);
  sensim_rng_init(&q, 11, 2, 3, 4);
  double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  for (int i = 0; i < n; i++) {
    double a, b;
    sensim_rng_normal2(&r, &a, &b);
    if (i < 10) assert_true(a == sensim_rng_normal(&q));
    sa += a, sb += b, saa += a * a, sbb += b * b, sab += a * b;
  }
  assert_near(sa / n, 0.0, 5.0 / sqrt(n));
  assert_near(sb / n, 0.0, 5.0 / sqrt(n));
  assert_near(saa / n, 1.0, 5.0 * sqrt(2.0 / n));
  assert_near(sbb / n, 1.0, 5.0 * sqrt(2.0 / n));
  assert_near(sab / n, 0.0, 5.0 / sqrt(n));
}

/* The single-precision pair: standard normal moments (kurtosis 3 within
 * 5 sqrt(24 / n)) and uncorrelated, from exactly two words. */
static void test_float_normal_pairs_are_standard_normal(void **state) {
  (void)state;
  const int n = 500000;
  sensim_rng r, q;
  sensim_rng_init(&r, 5, 6, 7, 8);
  double s1 = 0, s2 = 0, s4 = 0, sab = 0;
  for (int i = 0; i < n; i++) {
    float a, b;
    sensim_rng_normal2f(&r, &a, &b);
    s1 += a + b, s2 += (double)a * a + (double)b * b, s4 += pow(a, 4) + pow(b, 4), sab += (double)a * b;
  }
  assert_near(s1 / (2 * n), 0.0, 5.0 / sqrt(2.0 * n));
  assert_near(s2 / (2 * n), 1.0, 5.0 * sqrt(2.0 / (2 * n)));
  assert_near(s4 / (2 * n), 3.0, 5.0 * sqrt(96.0 / (2 * n))); /* var of x^4 is 105 - 9 = 96 */
  assert_near(sab / n, 0.0, 5.0 / sqrt(n));
  sensim_rng_init(&r, 5, 6, 7, 8);
  sensim_rng_init(&q, 5, 6, 7, 8);
  float a, b;
  sensim_rng_normal2f(&r, &a, &b);
  sensim_rng_u32(&q);
  sensim_rng_u32(&q);
  assert_int_equal(sensim_rng_u32(&r), sensim_rng_u32(&q));
}

static void test_uniform_histogram_passes_chi_square(void **state) {
  (void)state;
  enum { K = 100 };
  const int n = 1000000;
  long counts[K] = {0};
  sensim_rng r;
  sensim_rng_init(&r, 31337, 1, 0, 9);
  for (int i = 0; i < n; i++) {
    int b = (int)(sensim_rng_uniform(&r) * K);
    assert_true(b >= 0 && b < K);
    counts[b]++;
  }
  double e = (double)n / K, chi2 = 0;
  for (int b = 0; b < K; b++) chi2 += (counts[b] - e) * (counts[b] - e) / e;
  double sd = sqrt(2.0 * (K - 1));
  if (!(fabs(chi2 - (K - 1)) < 5 * sd)) fail_msg("chi2 = %g with %d dof", chi2, K - 1);
  /* Same for the raw words' top byte (256 bins) to check the integer path. */
  long c8[256] = {0};
  for (int i = 0; i < n; i++) c8[sensim_rng_u32(&r) >> 24]++;
  e = n / 256.0;
  chi2 = 0;
  for (int b = 0; b < 256; b++) chi2 += (c8[b] - e) * (c8[b] - e) / e;
  sd = sqrt(2.0 * 255);
  if (!(fabs(chi2 - 255) < 5 * sd)) fail_msg("u32 top-byte chi2 = %g with 255 dof", chi2);
}

/* The gsl_rng continues the stream it was made from: the same words, the
 * same doubles, and GSL's own Gaussian draws with the right moments. */
static void test_gsl_adapter_continues_stream_and_feeds_gsl_ran_gaussian(void **state) {
  (void)state;
  sensim_rng s, copy;
  sensim_rng_init(&s, 77, 4, 1000, 2);
  (void)sensim_rng_u32(&s); /* mid-block: the adapter must keep `used` */
  copy = s;
  gsl_rng *g = sensim__rng_gsl_alloc(&s);
  assert_non_null(g);
  assert_int_equal(gsl_rng_max(g), 0xFFFFFFFFul);
  assert_int_equal(gsl_rng_min(g), 0);
  for (int i = 0; i < 1000; i++) assert_int_equal(gsl_rng_get(g), sensim_rng_u32(&copy));
  for (int i = 0; i < 1000; i++) assert_true(gsl_rng_uniform(g) == sensim_rng_uniform(&copy));
  /* The source stream was copied, not advanced. */
  sensim_rng fresh;
  sensim_rng_init(&fresh, 77, 4, 1000, 2);
  (void)sensim_rng_u32(&fresh);
  assert_int_equal(sensim_rng_u32(&s), sensim_rng_u32(&fresh));

  const int n = 200000;
  const double sigma = 2.5;
  double s1 = 0, s2 = 0;
  for (int i = 0; i < n; i++) {
    double x = gsl_ran_gaussian(g, sigma);
    s1 += x;
    s2 += x * x;
  }
  double mean = s1 / n, var = s2 / n - mean * mean;
  assert_near(mean, 0.0, 5.0 * sigma / sqrt(n));
  assert_near(var, sigma * sigma, 5.0 * sigma * sigma * sqrt(2.0 / n));
  gsl_rng_free(g);
}

int sensim_test_rng(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_philox_matches_random123_known_answers),
      cmocka_unit_test(test_same_key_gives_identical_sequence),
      cmocka_unit_test(test_different_keys_give_different_sequences),
      cmocka_unit_test(test_uniform_mean_and_variance_within_5_standard_errors),
      cmocka_unit_test(test_normal_mean_variance_kurtosis_within_bounds),
      cmocka_unit_test(test_normal_consumes_exactly_four_words),
      cmocka_unit_test(test_normal_pairs_are_independent_standard_normals),
      cmocka_unit_test(test_float_normal_pairs_are_standard_normal),
      cmocka_unit_test(test_uniform_histogram_passes_chi_square),
      cmocka_unit_test(test_gsl_adapter_continues_stream_and_feeds_gsl_ran_gaussian),
  };
  return cmocka_run_group_tests_name("rng", tests, NULL, NULL);
}
