/* tests/ablate/mosaic_tests.c: mosaic and demosaic of existing images
 * through the camera pipeline's own filters. */
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

static const char *const kPatterns[4] = {"RGGB", "BGGR", "GRBG", "GBRG"};

/* Channel index of pattern letter (x mod 2) + 2 (y mod 2). */
static int channel_at(const char *pattern, uint32_t x, uint32_t y) {
  char ch = pattern[(x & 1u) + 2u * (y & 1u)];
  return ch == 'R' ? 0 : ch == 'G' ? 1 : 2;
}

static void test_mosaic_keeps_one_channel_per_pixel(void **state) {
  (void)state;
  sensim_image in = ablate_image(7, 6, 3);
  ablate_image_fill_random(&in, 4, 0, 1);
  for (int k = 0; k < 4; k++) {
    sensim_image raw = {0, 0, 0, NULL};
    SENSIM_OK_OR_FAIL(sensim_augment_cfa(&in, kPatterns[k], &raw));
    assert_int_equal(raw.channels, 1);
    assert_int_equal(raw.width, 7);
    assert_int_equal(raw.height, 6);
    for (uint32_t y = 0; y < 6; y++)
      for (uint32_t x = 0; x < 7; x++)
        assert_true(raw.data[y * 7 + x] == in.data[3 * (y * 7 + x) + (uint32_t)channel_at(kPatterns[k], x, y)]);
    sensim_image_free(&raw);
  }
  sensim_image_free(&in);
}

/* A uniform colour comes back exactly, up to the edge, for both methods
 * (docs/camera_pipeline.md: the kernels' weights sum to 1 and the mirrored
 * border keeps the CFA's parity; the sums are exact in double). */
static void test_mosaic_demosaic_of_a_constant_colour_is_exact(void **state) {
  (void)state;
  const float colour[3] = {0.2f, 0.55f, 0.9f};
  const char *methods[2] = {"bilinear", "mhc"};
  for (int k = 0; k < 4; k++)
    for (int m = 0; m < 2; m++) {
      sensim_image img = ablate_image(9, 7, 3);
      for (size_t i = 0; i < 9 * 7; i++) memcpy(img.data + 3 * i, colour, sizeof colour);
      SENSIM_OK_OR_FAIL(sensim_augment_mosaic(&img, kPatterns[k], methods[m]));
      assert_int_equal(img.channels, 3);
      for (size_t i = 0; i < 9 * 7 * 3; i++)
        if (img.data[i] != colour[i % 3])
          fail_msg("%s %s: value %zu is %.9g, not %.9g", kPatterns[k], methods[m], i, img.data[i], colour[i % 3]);
      sensim_image_free(&img);
    }
}

/* Both demosaicers are linear and exact on channels affine in (x, y) away
 * from the border (1 px bilinear, 2 px MHC); float rounding of values
 * below 2 leaves < 1e-6. */
static void test_mosaic_demosaic_reproduces_affine_channels_inside(void **state) {
  (void)state;
  const char *methods[2] = {"bilinear", "mhc"};
  for (int m = 0; m < 2; m++) {
    sensim_image img = ablate_image(12, 10, 3);
    for (uint32_t y = 0; y < 10; y++)
      for (uint32_t x = 0; x < 12; x++) {
        float *p = img.data + 3 * (y * 12 + x);
        p[0] = 0.1f + 0.03f * x + 0.02f * y;
        p[1] = 0.5f - 0.01f * x + 0.025f * y;
        p[2] = 0.3f + 0.015f * x - 0.01f * y;
      }
    sensim_image ref = ablate_image_copy(&img);
    const float *mine = img.data;
    SENSIM_OK_OR_FAIL(sensim_augment_mosaic(&img, "GRBG", methods[m]));
    assert_ptr_equal(img.data, mine); /* in place: the caller's buffer, not a new one */
    uint32_t b = m == 0 ? 1 : 2;
    for (uint32_t y = b; y < 10 - b; y++)
      for (uint32_t x = b; x < 12 - b; x++)
        for (int c = 0; c < 3; c++) assert_near(img.data[3 * (y * 12 + x) + c], ref.data[3 * (y * 12 + x) + c], 1e-6);
    sensim_image_free(&img);
    sensim_image_free(&ref);
  }
}

static void test_mosaic_bad_input_is_refused_and_the_image_kept(void **state) {
  (void)state;
  sensim_image grey = ablate_image(4, 4, 1), img = ablate_image(4, 4, 3), tiny = ablate_image(1, 1, 3);
  ablate_image_fill_random(&img, 5, 0, 1);
  sensim_image keep = ablate_image_copy(&img), raw = {0, 0, 0, NULL};
  assert_int_equal(sensim_augment_mosaic(&grey, NULL, NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "colour"));
  assert_int_equal(sensim_augment_cfa(&grey, NULL, &raw), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_mosaic(&img, "RGBG", NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "RGBG"));
  assert_int_equal(sensim_augment_mosaic(&img, NULL, "nearest"), SENSIM_EINVAL);
  assert_int_equal(sensim_augment_mosaic(&tiny, NULL, NULL), SENSIM_EINVAL);
  assert_memory_equal(img.data, keep.data, 48 * sizeof(float));
  assert_null(raw.data);
  SENSIM_OK_OR_FAIL(sensim_augment_mosaic(&img, NULL, NULL));
  sensim_image_free(&grey);
  sensim_image_free(&img);
  sensim_image_free(&tiny);
  sensim_image_free(&keep);
}

int sensim_test_augment_mosaic(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mosaic_keeps_one_channel_per_pixel),
      cmocka_unit_test(test_mosaic_demosaic_of_a_constant_colour_is_exact),
      cmocka_unit_test(test_mosaic_demosaic_reproduces_affine_channels_inside),
      cmocka_unit_test(test_mosaic_bad_input_is_refused_and_the_image_kept),
  };
  return cmocka_run_group_tests_name("augment_mosaic", tests, NULL, NULL);
}
