/* tests/sensors/lens_table_tests.c: the public lens table (camera.h,
 * sensim_lens_table_*): its rays reproject to their pixels through the
 * public forward model, agree with sensim_camera_pixel_ray, scale per
 * channel by lateral_ca about the principal point, stop at a fisheye's
 * field, and bad parameters are refused as sensim_camera_create refuses
 * them. */
#include <math.h>
#include <string.h>
#include "support/testutil.h"

static sensim_camera_params brown_conrady(void) {
  sensim_camera_params p;
  sensim_camera_params_init(&p);
  p.width = 320;
  p.height = 240;
  p.lens = SENSIM_LENS_BROWN_CONRADY;
  p.fx = p.fy = 200;
  p.cx = 159.5;
  p.cy = 119.5;
  const double d[5] = {-0.28, 0.07, 1e-4, -2e-4, 0};
  memcpy(p.dist, d, sizeof d);
  return p;
}

static double angle_between(sensim_vec3 a, sensim_vec3 b) {
  double na = sqrt(a.x * a.x + a.y * a.y + a.z * a.z), nb = sqrt(b.x * b.x + b.y * b.y + b.z * b.z);
  double c = (a.x * b.x + a.y * b.y + a.z * b.z) / (na * nb);
  return acos(c > 1 ? 1 : c);
}

static void test_lens_table_rays_reproject_to_their_pixels(void **state) {
  (void)state;
  sensim_camera_params p = brown_conrady();
  sensim_lens_table *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_lens_table_create(&p, &t));
  assert_int_equal(sensim_lens_table_channels(t), 1);
  double worst = 0, worst_angle = 0;
  for (double v = -0.5; v <= p.height - 0.5; v += 13.7)
    for (double u = -0.5; u <= p.width - 0.5; u += 11.3) {
      sensim_vec3 d, exact;
      assert_int_equal(sensim_lens_table_ray(t, u, v, 1, &d), 1);
      double pu, pv;
      SENSIM_OK_OR_FAIL(sensim_camera_project(&p, d, &pu, &pv));
      worst = fmax(worst, hypot(pu - u, pv - v));
      SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&p, u, v, &exact));
      worst_angle = fmax(worst_angle, angle_between(d, exact));
    }
  /* The table's documented accuracy: below 1e-4 px (1e-4 / fx rad). */
  assert_true(worst < 1e-4);
  assert_true(worst_angle < 1e-4 / p.fx);
  sensim_lens_table_destroy(t);
}

static void test_lens_table_channels_scale_by_lateral_ca(void **state) {
  (void)state;
  sensim_camera_params p = brown_conrady();
  p.lateral_ca[0] = 1.01;
  p.lateral_ca[2] = 0.99;
  sensim_lens_table *t = NULL, *plain = NULL;
  SENSIM_OK_OR_FAIL(sensim_lens_table_create(&p, &t));
  sensim_camera_params q = brown_conrady();
  SENSIM_OK_OR_FAIL(sensim_lens_table_create(&q, &plain));
  assert_int_equal(sensim_lens_table_channels(t), 3);
  /* Channel c images at (u, v) what green images at cx + (u - cx) / s_c,
   * to the two tables' accuracy (their grids span different extents). */
  const double s[3] = {1.01, 1.0, 0.99};
  for (int c = 0; c < 3; c++) {
    double u = 250.25, v = 30.5;
    sensim_vec3 a, b;
    assert_int_equal(sensim_lens_table_ray(t, u, v, c, &a), 1);
    assert_int_equal(sensim_lens_table_ray(plain, p.cx + (u - p.cx) / s[c], p.cy + (v - p.cy) / s[c], 1, &b), 1);
    assert_true(angle_between(a, b) < 2e-4 / p.fx);
  }
  sensim_lens_table_destroy(t);
  sensim_lens_table_destroy(plain);
}

static void test_lens_table_fisheye_field_and_bad_calls(void **state) {
  (void)state;
  sensim_camera_params p;
  sensim_camera_params_init(&p);
  p.width = 200;
  p.height = 200;
  p.lens = SENSIM_LENS_KANNALA_BRANDT;
  p.fx = p.fy = 40;
  p.cx = p.cy = 99.5;
  sensim_lens_table *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_lens_table_create(&p, &t));
  sensim_vec3 d = {0, 0, 0};
  assert_int_equal(sensim_lens_table_ray(t, 99.5, 99.5, 1, &d), 1);
  assert_true(d.x > 0 && fabs(d.y) < 1e-12 && fabs(d.z) < 1e-12);
  /* Equidistant: a corner 99.5 sqrt(2) px out is 3.5 rad off axis, beyond
   * any physical fisheye; the lens images nothing there. */
  assert_int_equal(sensim_lens_table_ray(t, -0.5, -0.5, 1, &d), 0);
  assert_int_equal(sensim_lens_table_ray(t, 10, 10, 3, &d), 0);
  assert_int_equal(sensim_lens_table_ray(t, NAN, 10, 1, &d), 0);
  assert_int_equal(sensim_lens_table_ray(t, 10, 10, 1, NULL), 0);
  assert_int_equal(sensim_lens_table_ray(NULL, 10, 10, 1, &d), 0);
  assert_int_equal(sensim_lens_table_channels(NULL), 0);
  sensim_lens_table_destroy(t);
  sensim_lens_table_destroy(NULL);

  sensim_camera_params bad = brown_conrady();
  bad.lateral_ca[0] = 3;
  t = (sensim_lens_table *)&bad;
  assert_int_equal(sensim_lens_table_create(&bad, &t), SENSIM_EINVAL);
  assert_null(t);
  assert_non_null(strstr(sensim_last_error(), "lateral_ca"));
  assert_int_equal(sensim_lens_table_create(NULL, &t), SENSIM_EINVAL);
  assert_int_equal(sensim_lens_table_create(&bad, NULL), SENSIM_EINVAL);
}

int sensim_test_lens_table(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lens_table_rays_reproject_to_their_pixels),
      cmocka_unit_test(test_lens_table_channels_scale_by_lateral_ca),
      cmocka_unit_test(test_lens_table_fisheye_field_and_bad_calls),
  };
  return cmocka_run_group_tests_name("lens_table", tests, NULL, NULL);
}
