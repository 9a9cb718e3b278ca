/* tests/ablate/distort_tests.c: lens distortion by remapping against the
 * camera's own forward model, sensim_camera_project. */
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

/* A Brown-Conrady lens with radial and tangential terms on a small image. */
static sensim_camera_params bc_lens(uint32_t w, uint32_t h) {
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = w;
  cp.height = h;
  cp.fx = cp.fy = 0.8 * w;
  cp.cx = (w - 1) / 2.0 + 0.3;
  cp.cy = (h - 1) / 2.0 - 0.2;
  cp.lens = SENSIM_LENS_BROWN_CONRADY;
  cp.dist[0] = -0.25; /* k1: barrel */
  cp.dist[1] = 0.06;  /* k2 */
  cp.dist[2] = 1e-3;  /* p1 */
  cp.dist[3] = -8e-4; /* p2 */
  return cp;
}

static sensim_camera_params pinhole_of(const sensim_camera_params *cp) {
  sensim_camera_params p = *cp;
  p.lens = SENSIM_LENS_PINHOLE;
  memset(p.dist, 0, sizeof p.dist);
  memset(p.lateral_ca, 0, sizeof p.lateral_ca);
  return p;
}

static void test_distort_pinhole_lens_is_the_identity(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 20;
  cp.height = 14;
  sensim_distort_map *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_distort_map_create(&cp, &m));
  sensim_image in = ablate_image(20, 14, 3), out = {0, 0, 0, NULL};
  ablate_image_fill_random(&in, 3, 0, 1);
  SENSIM_OK_OR_FAIL(sensim_distort_apply(m, &in, -1.0f, &out));
  /* The pinhole's ray at a pixel projects back to it to ~1e-13 px; values
   * in [0, 1) then move by at most 1e-13 x |gradient| <= 1e-12. */
  for (size_t i = 0; i < 20 * 14 * 3; i++) assert_near(out.data[i], in.data[i], 1e-6);
  sensim_image_free(&in);
  sensim_image_free(&out);
  sensim_distort_map_destroy(m);
}

/* The input's R and G hold each pixel's own pinhole coordinates (u, v).
 * Bilinear interpolation reproduces an affine function exactly, so output
 * pixel (x, y) holds the pinhole position its content came from, and the
 * scene point seen there must project through the lens to (x, y).
 * Tolerance: float storage of coordinates below 64 errs by 2^-24 x 64 =
 * 3.8e-6 px, the camera's ray table by < 1e-4 px (docs/camera_pipeline.md,
 * the table's 1e-3 px test bound is the looser published figure; measured
 * 3e-5 for this kind of lens), and the lens's Jacobian is near 1: 2e-4 px. */
static void test_distort_content_lands_where_camera_project_puts_it(void **state) {
  (void)state;
  const uint32_t W = 40, H = 30;
  sensim_camera_params cp = bc_lens(W, H), pin = pinhole_of(&cp);
  sensim_distort_map *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_distort_map_create(&cp, &m));
  sensim_image in = ablate_image(W, H, 3), out = {0, 0, 0, NULL};
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      float *p = in.data + 3 * ((size_t)y * W + x);
      p[0] = (float)x;
      p[1] = (float)y;
      p[2] = 0.5f;
    }
  SENSIM_OK_OR_FAIL(sensim_distort_apply(m, &in, -1.0f, &out));
  size_t checked = 0, moved = 0;
  double worst = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      double su, sv;
      if (!sensim_distort_map_source(m, x, y, 0, &su, &sv)) {
        assert_true(out.data[3 * ((size_t)y * W + x)] == -1.0f);
        continue;
      }
      /* Inside the pixel-centre hull the interpolation is exact. */
      if (su < 0 || sv < 0 || su > W - 1 || sv > H - 1) continue;
      const float *p = out.data + 3 * ((size_t)y * W + x);
      sensim_vec3 dir;
      double u, v;
      SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&pin, p[0], p[1], &dir));
      SENSIM_OK_OR_FAIL(sensim_camera_project(&cp, dir, &u, &v));
      double e = hypot(u - x, v - y);
      if (e > worst) worst = e;
      if (hypot(p[0] - x, p[1] - y) > 0.5) moved++;
      assert_near(p[2], 0.5, 1e-7);
      checked++;
    }
  if (!(worst <= 2e-4)) fail_msg("worst reprojection %g px", worst);
  /* The test means something: most pixels are checked and the lens moves
   * many by more than half a pixel. */
  assert_true(checked > W * H * 7 / 10);
  assert_true(moved > checked / 4);
  sensim_image_free(&in);
  sensim_image_free(&out);
  sensim_distort_map_destroy(m);
}

/* Smooth content f(u, v) = sin(a u) cos(b v) + 1 sampled at the pinhole
 * grid: bilinear interpolation on a 1 px grid errs by at most
 * (max|f_uu| + max|f_vv|) / 8 = (a^2 + b^2) / 8 (per-axis h^2/8 bound of
 * linear interpolation), plus the < 2e-4 px position error times
 * |grad f| <= a + b. */
static void test_distort_smooth_content_within_the_bilinear_error_bound(void **state) {
  (void)state;
  const uint32_t W = 48, H = 36;
  const double a = 0.45, b = 0.35;
  sensim_camera_params cp = bc_lens(W, H);
  sensim_distort_map *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_distort_map_create(&cp, &m));
  sensim_image in = ablate_image(W, H, 1), out = {0, 0, 0, NULL};
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) in.data[(size_t)y * W + x] = (float)(sin(a * x) * cos(b * y) + 1);
  SENSIM_OK_OR_FAIL(sensim_distort_apply(m, &in, 0.0f, &out));
  double bound = (a * a + b * b) / 8 + 2e-4 * (a + b) + 1e-6, worst = 0, far = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      double su, sv;
      /* Grey images read the green channel's map. */
      if (!sensim_distort_map_source(m, x, y, 1, &su, &sv) || su < 0 || sv < 0 || su > W - 1 || sv > H - 1)
        continue;
      double exact = sin(a * su) * cos(b * sv) + 1, got = out.data[(size_t)y * W + x];
      worst = fmax(worst, fabs(got - exact));
      far = fmax(far, fabs(got - in.data[(size_t)y * W + x]));
    }
  if (!(worst <= bound)) fail_msg("worst error %g > bound %g", worst, bound);
  /* An identity remap would be far off: the content really moved. */
  assert_true(far > 4 * bound);
  sensim_image_free(&in);
  sensim_image_free(&out);
  sensim_distort_map_destroy(m);
}

static void test_distort_barrel_corners_beyond_the_input_get_the_fill(void **state) {
  (void)state;
  sensim_camera_params cp = bc_lens(32, 24);
  sensim_distort_map *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_distort_map_create(&cp, &m));
  sensim_image in = ablate_image(32, 24, 1), out = {0, 0, 0, NULL};
  for (size_t i = 0; i < 32 * 24; i++) in.data[i] = 0.25f;
  SENSIM_OK_OR_FAIL(sensim_distort_apply(m, &in, 0.75f, &out));
  /* Barrel distortion: the corner pixel sees farther out than the pinhole's
   * corner, so no input is there; the centre reads the input. */
  double u, v;
  assert_false(sensim_distort_map_source(m, 0, 0, 1, &u, &v));
  assert_true(out.data[0] == 0.75f);
  assert_near(out.data[12 * 32 + 16], 0.25, 1e-7);
  sensim_image_free(&in);
  sensim_image_free(&out);
  sensim_distort_map_destroy(m);
}

/* Lateral CA with scales s_c: the ray of channel c at pixel p is the base
 * lens's ray at c + (p - c) / s_c (docs/camera_pipeline.md), so the scene
 * point that channel c reads at p projects through the base lens there. */
static void test_distort_lateral_ca_gives_each_channel_its_scale(void **state) {
  (void)state;
  const uint32_t W = 30, H = 20;
  sensim_camera_params cp = bc_lens(W, H), base = cp, pin = pinhole_of(&cp);
  const double s[3] = {1.02, 1.0, 0.98};
  for (int c = 0; c < 3; c++) cp.lateral_ca[c] = s[c];
  sensim_distort_map *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_distort_map_create(&cp, &m));
  int differ = 0;
  for (uint32_t y = 0; y < H; y += 3)
    for (uint32_t x = 0; x < W; x += 3)
      for (int c = 0; c < 3; c++) {
        double su, sv, u, v;
        if (!sensim_distort_map_source(m, x, y, c, &su, &sv)) continue;
        sensim_vec3 dir;
        SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&pin, su, sv, &dir));
        SENSIM_OK_OR_FAIL(sensim_camera_project(&base, dir, &u, &v));
        assert_near(u, cp.cx + (x - cp.cx) / s[c], 1e-3);
        assert_near(v, cp.cy + (y - cp.cy) / s[c], 1e-3);
        double g_u, g_v;
        if (c == 0 && sensim_distort_map_source(m, x, y, 1, &g_u, &g_v)) differ += fabs(g_u - su) > 1e-3;
      }
  assert_true(differ > 0);
  sensim_distort_map_destroy(m);
}

static void test_distort_bad_input_is_refused_and_the_map_stays_usable(void **state) {
  (void)state;
  sensim_camera_params cp = bc_lens(16, 12);
  sensim_distort_map *m = NULL;
  /* A lens that folds over inside the image (docs/camera_pipeline.md). */
  sensim_camera_params fold;
  sensim_camera_params_init(&fold);
  fold.width = 1280;
  fold.height = 720;
  fold.hfov = 2.2;
  fold.lens = SENSIM_LENS_BROWN_CONRADY;
  fold.dist[0] = -1.5;
  assert_int_equal(sensim_distort_map_create(&fold, &m), SENSIM_EINVAL);
  assert_null(m);
  assert_int_equal(sensim_distort_map_create(NULL, &m), SENSIM_EINVAL);
  sensim_camera_params zero = cp;
  zero.width = 0;
  assert_int_equal(sensim_distort_map_create(&zero, &m), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_distort_map_create(&cp, &m));
  sensim_image wrong = ablate_image(15, 12, 3), in = ablate_image(16, 12, 3), out = {0, 0, 0, NULL};
  assert_int_equal(sensim_distort_apply(m, &wrong, 0, &out), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "15 x 12"));
  assert_null(out.data);
  in.data[5] = NAN;
  assert_int_equal(sensim_distort_apply(m, &in, 0, &out), SENSIM_EINVAL);
  assert_null(out.data);
  in.data[5] = 0.5f;
  assert_int_equal(sensim_distort_apply(m, &in, NAN, &out), SENSIM_EINVAL);
  sensim_image two = ablate_image(16, 12, 2);
  assert_int_equal(sensim_distort_apply(m, &two, 0, &out), SENSIM_EINVAL);
  /* Still usable, and in place (out == in) works. */
  SENSIM_OK_OR_FAIL(sensim_distort_apply(m, &in, 0, &in));
  assert_int_equal(in.width, 16);
  sensim_image_free(&two);
  sensim_image_free(&wrong);
  sensim_image_free(&in);
  sensim_distort_map_destroy(m);
  sensim_distort_map_destroy(NULL);
}

static void test_lens_json_reads_camera_keys_and_checks_the_size(void **state) {
  (void)state;
  sensim_camera_params cp;
  SENSIM_OK_OR_FAIL(sensim_lens_params_from_json(
      "{\"lens\": \"brown_conrady\", \"fx\": 30, \"fy\": 31, \"cx\": 19.5, \"cy\": 14.5, \"dist\": [-0.2, 0.05]}",
      40, 30, &cp));
  assert_int_equal(cp.lens, SENSIM_LENS_BROWN_CONRADY);
  assert_near(cp.fy, 31, 0);
  assert_near(cp.dist[1], 0.05, 0);
  assert_int_equal(cp.width, 40);
  assert_int_equal(sensim_lens_params_from_json("{\"lens\": \"pinhole\", \"width\": 41}", 40, 30, &cp),
                   SENSIM_EINVAL);
  assert_int_equal(sensim_lens_params_from_json("{\"lens\": \"fisheye\"}", 40, 30, &cp), SENSIM_EINVAL);
  assert_int_equal(sensim_lens_params_from_json("{\"samples\": 4}", 40, 30, &cp), SENSIM_EPARSE);
  assert_int_equal(sensim_lens_params_from_json("{\"lens\": ", 40, 30, &cp), SENSIM_EPARSE);
  assert_int_equal(sensim_lens_params_from_json("[1]", 40, 30, &cp), SENSIM_EPARSE);
}

int sensim_test_augment_distort(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_distort_pinhole_lens_is_the_identity),
      cmocka_unit_test(test_distort_content_lands_where_camera_project_puts_it),
      cmocka_unit_test(test_distort_smooth_content_within_the_bilinear_error_bound),
      cmocka_unit_test(test_distort_barrel_corners_beyond_the_input_get_the_fill),
      cmocka_unit_test(test_distort_lateral_ca_gives_each_channel_its_scale),
      cmocka_unit_test(test_distort_bad_input_is_refused_and_the_map_stays_usable),
      cmocka_unit_test(test_lens_json_reads_camera_keys_and_checks_the_size),
  };
  return cmocka_run_group_tests_name("augment_distort", tests, NULL, NULL);
}
