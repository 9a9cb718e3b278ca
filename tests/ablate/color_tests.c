/* tests/ablate/color_tests.c: white balance and brightness matched to a
 * calibration set, against their closed forms. */
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

/* Pooled per-channel mean and population std of a set of images. */
static void set_moments(const sensim_image *imgs, int n, double mean[3], double sd[3]) {
  sensim_image_set_stats s;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&s, 16));
  for (int k = 0; k < n; k++) SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&s, &imgs[k]));
  for (int c = 0; c < 3; c++) {
    mean[c] = s.mean[c];
    sd[c] = s.std[c];
  }
}

/* A calibration set with a colour cast: the gray-world gains make its
 * three channel means equal (to float rounding of the gained values,
 * ~1e-8 here), and keep green. */
static void test_white_balance_gains_make_the_calibration_means_gray(void **state) {
  (void)state;
  sensim_image cal[2] = {ablate_image(13, 7, 3), ablate_image(9, 11, 3)};
  for (int k = 0; k < 2; k++) {
    ablate_image_fill_random(&cal[k], 10 + k, 0, 1);
    for (size_t i = 0; i < (size_t)cal[k].width * cal[k].height; i++) {
      cal[k].data[3 * i] *= 0.7f;      /* a cyan cast */
      cal[k].data[3 * i + 2] *= 1.15f;
    }
  }
  double mean[3], sd[3], gains[3];
  set_moments(cal, 2, mean, sd);
  SENSIM_OK_OR_FAIL(sensim_gray_world_gains(mean, gains));
  assert_near(gains[1], 1, 0);
  assert_true(fabs(mean[0] - mean[1]) > 0.05); /* the cast is there */
  double g_before = mean[1];
  for (int k = 0; k < 2; k++) SENSIM_OK_OR_FAIL(sensim_augment_gains(&cal[k], gains));
  set_moments(cal, 2, mean, sd);
  assert_near(mean[0], mean[1], 1e-6);
  assert_near(mean[2], mean[1], 1e-6);
  assert_near(mean[1], g_before, 1e-12);
  sensim_image_free(&cal[0]);
  sensim_image_free(&cal[1]);
}

/* The affine map gives the set exactly the reference mean and std (both
 * are affine-equivariant); per image and for a pooled set of two. */
static void test_brightness_matches_reference_mean_and_std(void **state) {
  (void)state;
  const double ref_mean[3] = {0.41, 0.52, 0.33}, ref_std[3] = {0.08, 0.12, 0.05};
  sensim_image set[2] = {ablate_image(16, 12, 3), ablate_image(10, 10, 3)};
  ablate_image_fill_random(&set[0], 21, 0.1f, 0.6f);
  ablate_image_fill_random(&set[1], 22, 0.3f, 0.9f);
  double mean[3], sd[3];
  set_moments(set, 2, mean, sd);
  for (int k = 0; k < 2; k++) SENSIM_OK_OR_FAIL(sensim_augment_match_stats(&set[k], mean, sd, ref_mean, ref_std));
  set_moments(set, 2, mean, sd);
  for (int c = 0; c < 3; c++) {
    assert_near(mean[c], ref_mean[c], 1e-6);
    assert_near(sd[c], ref_std[c], 1e-6);
  }
  /* One image alone, grey. */
  sensim_image g = ablate_image(8, 8, 1);
  ablate_image_fill_random(&g, 23, 0, 1);
  double m1, s1, rm = 0.25, rs = 0.02;
  SENSIM_OK_OR_FAIL(sensim_image_moments(&g, &m1, &s1));
  SENSIM_OK_OR_FAIL(sensim_augment_match_stats(&g, &m1, &s1, &rm, &rs));
  SENSIM_OK_OR_FAIL(sensim_image_moments(&g, &m1, &s1));
  assert_near(m1, rm, 1e-6);
  assert_near(s1, rs, 1e-6);
  sensim_image_free(&g);
  sensim_image_free(&set[0]);
  sensim_image_free(&set[1]);
}

static void test_brightness_on_a_flat_channel_only_shifts_it(void **state) {
  (void)state;
  sensim_image img = ablate_image(4, 4, 1);
  for (size_t i = 0; i < 16; i++) img.data[i] = 0.3f;
  double m = 0.3, s = 0, rm = 0.6, rs = 0.1;
  SENSIM_OK_OR_FAIL(sensim_augment_match_stats(&img, &m, &s, &rm, &rs));
  for (size_t i = 0; i < 16; i++) assert_near(img.data[i], 0.6, 1e-7);
  sensim_image_free(&img);
}

static void test_color_bad_input_is_refused_and_the_image_kept(void **state) {
  (void)state;
  sensim_image img = ablate_image(3, 3, 3), grey = ablate_image(3, 3, 1);
  ablate_image_fill_random(&img, 30, 0, 1);
  sensim_image keep = ablate_image_copy(&img);
  double g[3];
  const double zero_r[3] = {0, 0.5, 0.5}, nan_m[3] = {NAN, 0.5, 0.5};
  assert_int_equal(sensim_gray_world_gains(zero_r, g), SENSIM_EINVAL);
  assert_int_equal(sensim_gray_world_gains(nan_m, g), SENSIM_EINVAL);
  const double bad_gain[3] = {1, NAN, 1}, neg_gain[3] = {1, -1, 1}, ok_gain[3] = {1, 1, 1};
  assert_int_equal(sensim_augment_gains(&img, bad_gain), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_gains(&img, neg_gain), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_gains(&grey, ok_gain), SENSIM_EINVAL);
  const double m[3] = {0.5, 0.5, 0.5}, s[3] = {0.1, 0.1, 0.1}, neg_s[3] = {0.1, -0.1, 0.1};
  assert_int_equal(sensim_augment_match_stats(&img, m, neg_s, m, s), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_match_stats(&img, m, s, nan_m, s), SENSIM_EINVAL);
  assert_memory_equal(img.data, keep.data, 27 * sizeof(float));
  img.data[4] = keep.data[4] = INFINITY;
  assert_int_equal(sensim_augment_match_stats(&img, m, s, m, s), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_gains(&img, ok_gain), SENSIM_EINVAL);
  double mm[3], ss[3];
  assert_int_equal(sensim_image_moments(&img, mm, ss), SENSIM_EINVAL);
  assert_memory_equal(img.data, keep.data, 27 * sizeof(float));
  sensim_image_free(&img);
  sensim_image_free(&grey);
  sensim_image_free(&keep);
}

int sensim_test_augment_color(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_white_balance_gains_make_the_calibration_means_gray),
      cmocka_unit_test(test_brightness_matches_reference_mean_and_std),
      cmocka_unit_test(test_brightness_on_a_flat_channel_only_shifts_it),
      cmocka_unit_test(test_color_bad_input_is_refused_and_the_image_kept),
  };
  return cmocka_run_group_tests_name("augment_color", tests, NULL, NULL);
}
