/* tests/ablate/noise_tests.c: the noise augmentation's statistics and its
 * determinism. */
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

/* Sample mean and population std of values [from, to) of an image minus `base`. */
static void moments(const sensim_image *img, size_t from, size_t to, double base, double *mean, double *sd) {
  double s = 0, q = 0;
  for (size_t i = from; i < to; i++) s += img->data[i] - base;
  double m = s / (double)(to - from);
  for (size_t i = from; i < to; i++) {
    double d = img->data[i] - base - m;
    q += d * d;
  }
  *mean = m;
  *sd = sqrt(q / (double)(to - from));
}

/* n = 12288 values of N(0, sigma^2): the sample mean has sd sigma/sqrt(n)
 * and the sample sd a relative sd of 1/sqrt(2(n - 1)) (normal theory);
 * both are checked to 5 of their sd (false alarm about 6e-7 each). */
static void test_noise_mean_and_std_match_sigma_within_sample_tolerance(void **state) {
  (void)state;
  const double sigma = 0.05;
  sensim_image img = ablate_image(64, 64, 3);
  size_t n = 64 * 64 * 3;
  for (size_t i = 0; i < n; i++) img.data[i] = 0.5f;
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&img, 0, sigma, 42, 0));
  double m, sd;
  moments(&img, 0, n, 0.5, &m, &sd);
  assert_near(m, 0, 5 * sigma / sqrt((double)n));
  assert_near(sd, sigma, 5 * sigma / sqrt(2.0 * (double)(n - 1)));
  sensim_image_free(&img);
}

/* sigma^2(I) = s1^2 I + s2^2 at two intensities, 6144 values each; same
 * 5-sd tolerances. A model without the s1 term would give 0.01 at both,
 * far outside. */
static void test_noise_variance_follows_s1_s2_model(void **state) {
  (void)state;
  const double s1 = 0.05, s2 = 0.01, lo = 0.1, hi = 0.8;
  sensim_image img = ablate_image(64, 64, 3);
  size_t n = 64 * 64 * 3, half = n / 2;
  for (size_t i = 0; i < n; i++) img.data[i] = (float)(i < half ? lo : hi);
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&img, s1, s2, 9, 3));
  const double level[2] = {lo, hi};
  for (int k = 0; k < 2; k++) {
    double want = sqrt(s1 * s1 * level[k] + s2 * s2), m, sd;
    moments(&img, k ? half : 0, k ? n : half, level[k], &m, &sd);
    assert_near(m, 0, 5 * want / sqrt((double)half));
    assert_near(sd, want, 5 * want / sqrt(2.0 * (double)(half - 1)));
  }
  sensim_image_free(&img);
}

static void test_noise_is_deterministic_by_seed_and_index(void **state) {
  (void)state;
  sensim_image a = ablate_image(17, 9, 3);
  ablate_image_fill_random(&a, 1, 0.2f, 0.8f);
  sensim_image b = ablate_image_copy(&a), c = ablate_image_copy(&a), d = ablate_image_copy(&a);
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&a, 0.02, 0.01, 5, 2));
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&b, 0.02, 0.01, 5, 2));
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&c, 0.02, 0.01, 6, 2));
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&d, 0.02, 0.01, 5, 3));
  size_t n = 17 * 9 * 3;
  assert_memory_equal(a.data, b.data, n * sizeof(float));
  assert_memory_not_equal(a.data, c.data, n * sizeof(float));
  assert_memory_not_equal(a.data, d.data, n * sizeof(float));
  sensim_image_free(&a);
  sensim_image_free(&b);
  sensim_image_free(&c);
  sensim_image_free(&d);
}

/* One stream per row: a row's noise does not depend on how many rows follow. */
static void test_noise_of_a_row_does_not_depend_on_the_image_height(void **state) {
  (void)state;
  sensim_image a = ablate_image(11, 4, 1), b = ablate_image(11, 9, 1);
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&a, 0, 0.1, 8, 1));
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&b, 0, 0.1, 8, 1));
  assert_memory_equal(a.data, b.data, 11 * 4 * sizeof(float));
  sensim_image_free(&a);
  sensim_image_free(&b);
}

static void test_noise_bad_input_leaves_the_image_unchanged(void **state) {
  (void)state;
  sensim_image img = ablate_image(5, 4, 3);
  ablate_image_fill_random(&img, 2, 0, 1);
  sensim_image keep = ablate_image_copy(&img);
  assert_int_equal(sensim_augment_noise(&img, 0, -0.1, 1, 0), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_noise(&img, NAN, 0.1, 1, 0), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_noise(&img, 0, INFINITY, 1, 0), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_noise(NULL, 0, 0.1, 1, 0), SENSIM_EINVAL);
  img.data[59] = NAN;
  keep.data[59] = NAN;
  assert_int_equal(sensim_augment_noise(&img, 0, 0.1, 1, 0), SENSIM_EINVAL);
  assert_memory_equal(img.data, keep.data, 60 * sizeof(float));
  img.data[59] = keep.data[59] = 0.5f;
  SENSIM_OK_OR_FAIL(sensim_augment_noise(&img, 0, 0.1, 1, 0));
  sensim_image_free(&img);
  sensim_image_free(&keep);
}

int sensim_test_augment_noise(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_noise_mean_and_std_match_sigma_within_sample_tolerance),
      cmocka_unit_test(test_noise_variance_follows_s1_s2_model),
      cmocka_unit_test(test_noise_is_deterministic_by_seed_and_index),
      cmocka_unit_test(test_noise_of_a_row_does_not_depend_on_the_image_height),
      cmocka_unit_test(test_noise_bad_input_leaves_the_image_unchanged),
  };
  return cmocka_run_group_tests_name("augment_noise", tests, NULL, NULL);
}
