/* tests/ablate/summary_tests.c: what `sensim ablate` prints after rendering
 * (tools/ablate_summary.c): the image-statistics distance of each variant
 * to the baseline, against closed forms on hand-made folders, beside the
 * camera component study's record (tools/published.c), whose words are
 * typed here from the study's abstract (arXiv:2211.08599) apart from the
 * record. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

#define TMP ABLATE_TMP "/summary"

/* `n` w x h images of `channels` with every value v in dir (created). */
static void write_flat(const char *dir, int n, int channels, float v) {
  SENSIM_OK_OR_FAIL(sensim_mkdirs(dir));
  for (int k = 0; k < n; k++) {
    sensim_image img = ablate_image(8, 6, channels);
    for (size_t i = 0; i < (size_t)8 * 6 * (size_t)channels; i++) img.data[i] = v;
    char p[512];
    snprintf(p, sizeof p, "%s/frame_%06d.png", dir, k);
    SENSIM_OK_OR_FAIL(sensim_image_write_png(p, &img, 16));
    sensim_image_free(&img);
  }
}

/* Bin centres of the 64-bin histograms: a value there stays in its bin
 * after 16-bit rounding. */
#define CENTRE(i) ((float)(((double)(i) + 0.5) / 64.0))

/* DIR/baseline with cameras "a" (colour, 16.5/64) and "b" (grey,
 * 40.5/64); DIR/noise_off: "a" shifted to 48.5/64, "b" unchanged. */
static int setup(void **state) {
  (void)state;
  ablate_fresh_dir(TMP);
  write_flat(TMP "/out/baseline/a", 2, 3, CENTRE(16));
  write_flat(TMP "/out/baseline/b", 3, 1, CENTRE(40));
  write_flat(TMP "/out/noise_off/a", 2, 3, CENTRE(48));
  write_flat(TMP "/out/noise_off/b", 3, 1, CENTRE(40));
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/out/baseline/.hidden"));
  return 0;
}

/* W1 of two point masses is their distance: camera a moves every value by
 * 32/64 = 0.5, camera b not at all, so the mean over cameras is 0.25. */
static void test_distance_is_the_shift_averaged_over_cameras(void **state) {
  (void)state;
  double w = -1;
  SENSIM_OK_OR_FAIL(sensim_ablate_distance(TMP "/out", SENSIM_ABLATE_NOISE, &w));
  assert_true(fabs(w - 0.25) < 1e-12);
  SENSIM_OK_OR_FAIL(sensim_ablate_distance(TMP "/out", SENSIM_ABLATE_BASELINE, &w));
  assert_true(w == 0.0);
}

static void test_distance_refuses_missing_and_empty_folders(void **state) {
  (void)state;
  double w = 7;
  assert_int_equal(sensim_ablate_distance(TMP "/out", SENSIM_ABLATE_LENS, &w), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "lens_pinhole"));
  assert_int_equal(sensim_ablate_distance(TMP "/nothing", SENSIM_ABLATE_NOISE, &w), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "baseline"));
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/empty/baseline/cam"));
  assert_int_equal(sensim_ablate_distance(TMP "/empty", SENSIM_ABLATE_NOISE, &w), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "no PNG"));
  assert_int_equal(sensim_ablate_distance(TMP "/out", (sensim_ablation)99, &w), SENSIM_EINVAL);
  assert_int_equal(sensim_ablate_distance(NULL, SENSIM_ABLATE_NOISE, &w), SENSIM_EINVAL);
  assert_true(w == 7.0); /* untouched on failure */
}

static char *summary_of(const sensim_ablation *v, size_t n, sensim_status *st) {
  FILE *fp = fopen(TMP "/summary.txt", "w");
  assert_non_null(fp);
  *st = sensim_ablate_summary(fp, TMP "/out", v, n);
  fclose(fp);
  return test_slurp(TMP "/summary.txt", NULL);
}

static void test_summary_prints_sensims_number_beside_the_study(void **state) {
  (void)state;
  const sensim_ablation v[] = {SENSIM_ABLATE_BASELINE, SENSIM_ABLATE_NOISE};
  sensim_status st;
  char *text = summary_of(v, 2, &st);
  SENSIM_OK_OR_FAIL(st);
  assert_non_null(strstr(text, "variant                  W1  the study"));
  assert_non_null(strstr(text, "baseline            0.00000  the full camera model"));
  assert_non_null(strstr(text, "noise_off           0.25000  noise: its own result not read"));
  assert_non_null(strstr(text, "beside the paper: \"Camera simulation for robot simulation"));
  assert_non_null(strstr(text, "not printed: its performance difference per omitted component"));
  assert_non_null(strstr(text, "sensim judge"));
  free(text);
  /* Without the baseline there is nothing to measure against: "-". */
  text = summary_of(v + 1, 1, &st);
  SENSIM_OK_OR_FAIL(st);
  assert_non_null(strstr(text, "the baseline was not rendered in this run"));
  assert_non_null(strstr(text, "noise_off                 -  noise"));
  free(text);
  /* A variant not rendered fails with its name, after nothing else. */
  const sensim_ablation bad[] = {SENSIM_ABLATE_BASELINE, SENSIM_ABLATE_WHITE_BALANCE};
  text = summary_of(bad, 2, &st);
  assert_int_equal(st, SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "wb_ideal"));
  assert_null(strstr(text, "beside the paper"));
  free(text);
  assert_int_equal(sensim_ablate_summary(NULL, TMP "/out", v, 2), SENSIM_EINVAL);
  assert_int_equal(sensim_ablate_summary(stdout, TMP "/out", NULL, 2), SENSIM_EINVAL);
}

/* The study's record against its abstract: "we investigate what happens if
 * one ignores aspects tied to processes from within the physical camera,
 * e.g., lens distortion, noise, and signal processing; scene effects, e.g.,
 * lighting and reflection; and rendering quality ... large-scale changes
 * to color, scene, and location have far greater impact than model aspects
 * concerned with local, feature-level artifacts ... these scene-level
 * aspects can stem from lens distortion and signal processing,
 * particularly when considering white-balance and auto-exposure
 * modeling". */
static void test_study_record_is_its_abstract(void **state) {
  (void)state;
  const sensim_published *p = sensim_published_camera_components();
  assert_non_null(strstr(p->cite, "how important are various camera model components?"));
  assert_non_null(strstr(p->cite, "arXiv:2211.08599"));
  assert_non_null(strstr(p->cite, "arXiv:2208.01022"));
  int far = 0, wbae = 0;
  for (size_t i = 0; i < p->nclaims; i++) {
    far |= strstr(p->claims[i], "far greater impact") && strstr(p->claims[i], "local, feature-level");
    wbae |= strstr(p->claims[i], "white-balance and auto-exposure") != NULL;
  }
  assert_true(far);
  assert_true(wbae);
  assert_non_null(p->unread);
  assert_non_null(strstr(p->unread, "Section I"));
  /* Every variant of sensim's table has its entry, in the table's order. */
  assert_int_equal(p->nvariants, SENSIM_ABLATE_COUNT);
  for (int a = 0; a < SENSIM_ABLATE_COUNT; a++)
    assert_string_equal(p->variants[a].variant, sensim_ablation_name((sensim_ablation)a));
  /* The abstract names lens distortion, white balance and auto exposure as
   * sources of the large, scene-level changes; of noise, lighting,
   * reflection and rendering quality it says only that they were studied. */
  const sensim_ablation scene_level[] = {SENSIM_ABLATE_LENS, SENSIM_ABLATE_LENS_FOV, SENSIM_ABLATE_FOV_LENS,
                                         SENSIM_ABLATE_WHITE_BALANCE, SENSIM_ABLATE_EXPOSURE};
  for (size_t i = 0; i < sizeof scene_level / sizeof scene_level[0]; i++) {
    const sensim_published_variant *v = sensim_published_variant_of(p, sensim_ablation_name(scene_level[i]));
    assert_non_null(v);
    assert_non_null(v->finding);
    assert_non_null(strstr(v->finding, "scene-level"));
  }
  const sensim_ablation unread[] = {SENSIM_ABLATE_NOISE, SENSIM_ABLATE_LIGHTING, SENSIM_ABLATE_REFLECTIONS,
                                    SENSIM_ABLATE_SUPERSAMPLING, SENSIM_ABLATE_SINGLE_LIGHT};
  for (size_t i = 0; i < sizeof unread / sizeof unread[0]; i++)
    assert_null(sensim_published_variant_of(p, sensim_ablation_name(unread[i]))->finding);
  assert_null(sensim_published_variant_of(p, "blur"));
  assert_null(sensim_published_variant_of(NULL, "noise_off"));
}

int sensim_test_ablate_summary(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_distance_is_the_shift_averaged_over_cameras),
      cmocka_unit_test(test_distance_refuses_missing_and_empty_folders),
      cmocka_unit_test(test_summary_prints_sensims_number_beside_the_study),
      cmocka_unit_test(test_study_record_is_its_abstract),
  };
  return cmocka_run_group_tests_name("ablate_summary", tests, setup, NULL);
}
