/* tests/ablate/report_tests.c: the two-dataset image statistics report
 * against hand-computed numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

#define DIR_R ABLATE_TMP "/report"

/* Two grey images holding {0, 0.5} and {1, 0.25}: by hand, mean 0.4375,
 * population variance (0.4375^2 + 0.0625^2 + 0.5625^2 + 0.1875^2) / 4 =
 * 0.13671875, one value in each of 4 bins, min 0, max 1. */
static void test_set_stats_match_hand_computed_values(void **state) {
  (void)state;
  sensim_image a = ablate_image(2, 1, 1), b = ablate_image(1, 2, 1);
  a.data[0] = 0.0f, a.data[1] = 0.5f, b.data[0] = 1.0f, b.data[1] = 0.25f;
  sensim_image_set_stats s;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&s, 4));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&s, &a));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&s, &b));
  assert_int_equal(s.channels, 1);
  assert_int_equal(s.nimages, 2);
  assert_int_equal(s.npixels, 4);
  assert_near(s.mean[0], 0.4375, 1e-15);
  assert_near(s.std[0], sqrt(0.13671875), 1e-15);
  assert_near(s.min[0], 0, 0);
  assert_near(s.max[0], 1, 0);
  for (int i = 0; i < 4; i++) assert_int_equal(s.hist[0][i], 1);
  /* A colour image then makes it a colour set, the grey values standing
   * for R = G = B: R gets {0, .5, 1, .25, 0.75}. */
  sensim_image c = ablate_image(1, 1, 3);
  c.data[0] = 0.75f, c.data[1] = 0.0f, c.data[2] = 0.5f;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&s, &c));
  assert_int_equal(s.channels, 3);
  assert_near(s.mean[0], 2.5 / 5, 1e-15);
  assert_near(s.mean[1], 1.75 / 5, 1e-15);
  assert_near(s.mean[2], 2.25 / 5, 1e-15);
  double var_g = (0.35 * 0.35 + 0.15 * 0.15 + 0.65 * 0.65 + 0.1 * 0.1 + 0.35 * 0.35) / 5;
  assert_near(s.std[1], sqrt(var_g), 1e-15);
  assert_int_equal(s.hist[0][3], 2);
  assert_int_equal(s.hist[1][0], 2);
  sensim_image_free(&a);
  sensim_image_free(&b);
  sensim_image_free(&c);
}

/* W1 between all mass in bin 0 and all mass in bin 3 of 4: the distance
 * of the bin centres, 3/4; between a set and itself, 0; half of the mass
 * moved by one bin: 1/2 x 1/4. */
static void test_w1_matches_hand_computed_cases(void **state) {
  (void)state;
  sensim_image_set_stats a, b, c;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&a, 4));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&b, 4));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&c, 4));
  sensim_image lo = ablate_image(2, 1, 1), hi = ablate_image(2, 1, 1), mix = ablate_image(2, 1, 1);
  lo.data[0] = 0.1f, lo.data[1] = 0.2f;
  hi.data[0] = 0.9f, hi.data[1] = 1.0f;
  mix.data[0] = 0.1f, mix.data[1] = 0.3f;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&a, &lo));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&b, &hi));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&c, &mix));
  assert_near(sensim_image_set_w1(&a, &b, 0), 0.75, 1e-15);
  assert_near(sensim_image_set_w1(&b, &a, 2), 0.75, 1e-15);
  assert_near(sensim_image_set_w1(&a, &a, 0), 0, 0);
  assert_near(sensim_image_set_w1(&a, &c, 0), 0.125, 1e-15);
  sensim_image_set_stats d;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&d, 8));
  assert_true(isnan(sensim_image_set_w1(&a, &d, 0)));
  sensim_image_free(&lo);
  sensim_image_free(&hi);
  sensim_image_free(&mix);
}

static void test_report_text_prints_both_sets_numbers(void **state) {
  (void)state;
  sensim_image_set_stats a, b;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&a, 4));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&b, 4));
  sensim_image x = ablate_image(2, 1, 1), y = ablate_image(2, 1, 1);
  x.data[0] = 0.0f, x.data[1] = 0.5f, y.data[0] = 1.0f, y.data[1] = 0.25f;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&a, &x));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&b, &y));
  FILE *fp = tmpfile();
  assert_non_null(fp);
  SENSIM_OK_OR_FAIL(sensim_image_report_text(fp, &a, "sim", &b, "real"));
  long n = ftell(fp);
  rewind(fp);
  char *text = calloc((size_t)n + 1, 1);
  assert_int_equal(fread(text, 1, (size_t)n, fp), (size_t)n);
  fclose(fp);
  /* means 0.25 and 0.625, stds 0.25 and 0.375, difference +0.375, ratio
   * 1.5; bin 0 holds half of A and none of B. */
  const char *want[] = {"A: sim: 1 images, 2 pixels", "B: real", "0.250000", "0.625000", "0.375000", "+0.375000",
                        "1.5", "0.500000  0.000000"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    if (!strstr(text, want[i])) fail_msg("report lacks '%s':\n%s", want[i], text);
  free(text);
  /* W1 of the bin centres {1/8, 5/8} and {3/8, 7/8}: (1/4 + 1/4) / 2. */
  assert_near(sensim_image_set_w1(&a, &b, 0), 0.25, 1e-15);
  sensim_image_set_stats e;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&e, 4));
  assert_int_equal(sensim_image_report_text(stdout, &a, "a", &e, "e"), SENSIM_EINVAL);
  sensim_image_free(&x);
  sensim_image_free(&y);
}

/* Folders of 16-bit PNGs whose values are exact codes k / 65535 read back
 * to the in-memory statistics; the plots come out one per channel. */
static void test_set_stats_of_folders_and_plots(void **state) {
  (void)state;
  ablate_fresh_dir(DIR_R "/a");
  ablate_fresh_dir(DIR_R "/b");
  ablate_fresh_dir(DIR_R "/empty");
  sensim_image_set_stats mem;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&mem, 32));
  for (int k = 0; k < 3; k++) {
    sensim_image img = ablate_image(6, 5, 3);
    ablate_image_fill_random(&img, 40 + k, 0, 1);
    for (size_t i = 0; i < 90; i++) img.data[i] = (float)(floor(img.data[i] * 65535.0 + 0.5) / 65535.0);
    char p[256];
    snprintf(p, sizeof p, DIR_R "/a/img%d.png", k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(p, &img, 16));
    SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&mem, &img));
    for (size_t i = 0; i < 90; i++) img.data[i] = img.data[i] * 0.5f;
    snprintf(p, sizeof p, DIR_R "/b/img%d.png", k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(p, &img, 8));
    sensim_image_free(&img);
  }
  sensim_image_set_stats a, b;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_dir(DIR_R "/a", 32, &a));
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_dir(DIR_R "/b", 32, &b));
  assert_int_equal(a.nimages, 3);
  assert_int_equal(a.channels, 3);
  for (int c = 0; c < 3; c++) {
    assert_near(a.mean[c], mem.mean[c], 1e-7);
    assert_near(a.std[c], mem.std[c], 1e-7);
    for (int i = 0; i < 32; i++) assert_int_equal(a.hist[c][i], mem.hist[c][i]);
    /* b holds half the values, 8-bit: within half an 8-bit step. */
    assert_near(b.mean[c], a.mean[c] / 2, 0.5 / 255);
  }
  /* One file, exactly the path given, whatever its name ends in. */
  static const char *const others[] = {DIR_R "/plot_r.png", DIR_R "/plot_g.png", DIR_R "/plot_b.png",
                                       DIR_R "/plot_noext_r.png", DIR_R "/plot_noext.png"};
  for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) test_remove_tree(others[k]);
  SENSIM_OK_OR_FAIL(sensim_image_report_png(DIR_R "/plot.png", &a, "a", &b, "b"));
  SENSIM_OK_OR_FAIL(sensim_image_report_png(DIR_R "/plot_noext", &a, "a", &b, "b"));
  const char *plots[2] = {DIR_R "/plot.png", DIR_R "/plot_noext"};
  for (int k = 0; k < 2; k++) {
    sensim_image p;
    SENSIM_OK_OR_FAIL(sensim_read_png(plots[k], &p));
    assert_true(p.width >= 160);
    sensim_image_free(&p);
  }
  for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
    if (test_file_exists(others[k])) fail_msg("the report also wrote %s", others[k]);
  double keep_mean = a.mean[0];
  assert_int_equal(sensim_image_set_stats_dir(DIR_R "/missing", 32, &a), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_image_set_stats_dir(DIR_R "/empty", 32, &a), SENSIM_EINVAL);
  assert_int_equal(sensim_image_set_stats_dir(DIR_R "/a", 1, &a), SENSIM_EINVAL);
  ablate_write_text(DIR_R "/empty/not.png", "text");
  assert_int_equal(sensim_image_set_stats_dir(DIR_R "/empty", 32, &a), SENSIM_EPARSE);
  assert_int_equal(a.nimages, 3);
  assert_near(a.mean[0], keep_mean, 0);
}

static void test_set_stats_refuses_nan_and_stays_usable(void **state) {
  (void)state;
  sensim_image_set_stats s;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_init(&s, 8));
  sensim_image img = ablate_image(3, 1, 3);
  img.data[4] = NAN;
  assert_int_equal(sensim_image_set_stats_add(&s, &img), SENSIM_EINVAL);
  assert_int_equal(s.npixels, 0);
  assert_int_equal(s.channels, 0);
  img.data[4] = 0.5f;
  SENSIM_OK_OR_FAIL(sensim_image_set_stats_add(&s, &img));
  assert_int_equal(s.npixels, 3);
  assert_int_equal(sensim_image_set_stats_init(&s, 0), SENSIM_OK);
  assert_int_equal(s.nbins, 64);
  assert_int_equal(sensim_image_set_stats_init(&s, SENSIM_IMAGE_STATS_MAX_BINS + 1), SENSIM_EINVAL);
  sensim_image_free(&img);
}

int sensim_test_image_report(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_set_stats_match_hand_computed_values),
      cmocka_unit_test(test_w1_matches_hand_computed_cases),
      cmocka_unit_test(test_report_text_prints_both_sets_numbers),
      cmocka_unit_test(test_set_stats_of_folders_and_plots),
      cmocka_unit_test(test_set_stats_refuses_nan_and_stays_usable),
  };
  return cmocka_run_group_tests_name("image_report", tests, NULL, NULL);
}
