/* Camera depth of field (thin lens): the aperture from the f-number and
 * the intrinsics against the thin-lens equation, a step edge at the focus
 * distance staying sharp, step edges in front of and behind it blurred by
 * a uniform disc whose diameter is the circle of confusion
 * c = A |d - s| / d * f / (s - f), determinism over thread counts, and bad
 * parameters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "sensors/camera_internal.h"

/* A portrait lens on a large-pixel sensor: fx = 8000 px at 6 um pitch puts
 * the sensor v = 48 mm behind the lens; f/1.4 focused at 2 m. */
#define FX 8000.0
#define PITCH 6e-6
#define FNUM 1.4
#define FOCUS 2.0

static sensim_camera_params dof_camera(void) {
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 256;
  cp.height = 24;
  cp.fx = cp.fy = FX;
  cp.cx = 127.5, cp.cy = 11.5;
  cp.samples = 256;
  cp.f_number = FNUM;
  cp.focus_distance = FOCUS;
  cp.pixel_pitch = PITCH;
  return cp;
}

/* The thin lens, written as the textbook states it: 1/f = 1/s + 1/v with
 * the sensor at v = fx * pitch, A = f / N, and the circle of confusion of
 * a point at distance d, c = A |d - s| / d * f / (s - f) on the sensor,
 * in pixels. */
static double coc_px(double d) {
  const double v = FX * PITCH, s = FOCUS, f = 1.0 / (1.0 / s + 1.0 / v), A = f / FNUM;
  return A * fabs(d - s) / d * f / (s - f) / PITCH;
}

static void test_camera_dof_aperture_follows_thin_lens_equation(void **state) {
  (void)state;
  sensim_camera_params cp = dof_camera();
  double r;
  /* v = 0.048 m, f = 0.048 * 2 / 2.048 = 0.046875 m, A = f / 1.4 = 0.0334821428571 m. */
  SENSIM_OK_OR_FAIL(sensim__camera_dof_init(&cp, &r));
  assert_near(2 * r, 0.0334821428571, 1e-12);
  /* An explicit aperture is taken as given. */
  cp.f_number = 0;
  cp.aperture = 0.02;
  SENSIM_OK_OR_FAIL(sensim__camera_dof_init(&cp, &r));
  assert_true(r == 0.01);
  /* Off: both zero. */
  cp.aperture = 0;
  SENSIM_OK_OR_FAIL(sensim__camera_dof_init(&cp, &r));
  assert_true(r == 0);
  /* Hand values of the closed form used below: 26.79 px at 2.5 m, 33.48 px at 1.6 m. */
  assert_near(coc_px(2.5), 26.7857142857, 1e-9);
  assert_near(coc_px(1.6), 33.4821428571, 1e-9);
}

/* Renders a thin wall at distance d covering Y < 0 (the right half of the
 * image), lit by the ambient term alone, and measures each row's edge
 * spread: the differences of the row profile (0 left, 1 right) are the
 * line-spread function, sampled at half-pixel positions. Returns the mean
 * over rows of its centroid and variance, and their standard errors. */
static void edge_spread(sensim_camera_params cp, double d, int threads, double *mu, double *mu_se, double *var,
                        double *var_se, float **copy) {
  sensim_world *w = test_black_world(threads, 1.0f);
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1e-5, 2, 2}, (sensim_vec3){d + 0.5e-5, -1.0, 0});
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_non_null(f);
  const float *rgb = f->data;
  const uint32_t W = f->width, H = f->height;
  const double hi = rgb[3 * ((size_t)(H / 2) * W + W - 1)];
  assert_true(hi > 0);
  double sm = 0, sm2 = 0, sv = 0, sv2 = 0;
  for (uint32_t j = 0; j < H; j++) {
    const float *row = rgb + 3 * (size_t)j * W;
    assert_true(row[0] == 0.0f);                      /* far left: background */
    assert_near(row[3 * (W - 1)] / hi, 1.0, 1e-6);    /* far right: the wall */
    double s0 = 0, s1 = 0, s2 = 0;
    for (uint32_t i = 0; i + 1 < W; i++) {
      double D = (row[3 * (i + 1)] - row[3 * i]) / hi, x = i + 0.5;
      s0 += D, s1 += D * x, s2 += D * x * x;
    }
    double m1 = s1 / s0, v1 = s2 / s0 - m1 * m1;
    sm += m1, sm2 += m1 * m1, sv += v1, sv2 += v1 * v1;
  }
  *mu = sm / H;
  *var = sv / H;
  *mu_se = sqrt(fmax(0, sm2 / H - *mu * *mu) / (H - 1));
  *var_se = sqrt(fmax(0, sv2 / H - *var * *var) / (H - 1));
  if (copy) {
    *copy = malloc(3 * sizeof(float) * W * H);
    assert_non_null(*copy);
    memcpy(*copy, rgb, 3 * sizeof(float) * W * H);
  }
  sensim_world_destroy(w);
}

static void test_camera_dof_edge_at_focus_distance_stays_sharp(void **state) {
  (void)state;
  double mu, mu_se, var, var_se;
  edge_spread(dof_camera(), FOCUS, 2, &mu, &mu_se, &var, &var_se, NULL);
  /* A sharp edge through the principal point lies on the boundary between
   * pixels 127 and 128: the profile steps from 0 to 1 there, its
   * differences are one spike at 127.5, variance 0 (measured 3e-4 px^2,
   * the jittered samples of pixels whose rays graze the edge). Focused
   * 2 cm off, the disc would be 1.33 px wide and the variance ~0.11 px^2. */
  assert_near(mu, 127.5, 0.01);
  assert_true(var < 0.03);
}

/* The line-spread function of a uniform disc of radius R is
 * (2 / (pi R)) sqrt(1 - x^2 / R^2), variance R^2 / 4; the pixel's box
 * filter, taken twice, adds 1/6 px^2. */
static void check_blur(double d) {
  double mu, mu_se, var, var_se;
  edge_spread(dof_camera(), d, 2, &mu, &mu_se, &var, &var_se, NULL);
  const double R = 0.5 * coc_px(d), want = R * R / 4 + 1.0 / 6;
  /* Tolerances from the spread over the 24 rows (each row's samples are
   * independent): 4 standard errors, plus 0.5 % for replacing the
   * integral by the sum over half-pixel positions. */
  if (fabs(var - want) > 4 * var_se + 0.005 * want)
    fail_msg("d = %g m: edge spread variance %.3f px^2 (se %.3f), thin lens %.3f (R = %.2f px)", d, var, var_se, want,
             R);
  if (fabs(mu - 127.5) > 4 * mu_se + 0.01) fail_msg("d = %g m: edge centre %.3f (se %.3f), want 127.5", d, mu, mu_se);
  /* A clear test: at twice or half the width the variance would be 4x or 1/4. */
  assert_true(4 * var_se < 0.1 * want);
}

static void test_camera_dof_edge_behind_focus_blurs_by_circle_of_confusion(void **state) {
  (void)state;
  check_blur(2.5);
}

static void test_camera_dof_edge_in_front_of_focus_blurs_by_circle_of_confusion(void **state) {
  (void)state;
  check_blur(1.6);
}

static void test_camera_dof_frames_do_not_depend_on_threads(void **state) {
  (void)state;
  sensim_camera_params cp = dof_camera();
  cp.width = 64, cp.height = 8, cp.cx = 31.5, cp.cy = 3.5, cp.samples = 9;
  double a, b, c, e;
  float *one = NULL, *two = NULL;
  edge_spread(cp, 2.5, 0, &a, &b, &c, &e, &one);
  edge_spread(cp, 2.5, 3, &a, &b, &c, &e, &two);
  assert_memory_equal(one, two, 3 * sizeof(float) * 64 * 8);
  free(one);
  free(two);
}

static void test_camera_dof_rejects_bad_parameters(void **state) {
  (void)state;
  sensim_world *w = NULL;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  const sensim_camera_params ok = dof_camera();
  sensim_camera_params cp;
  sensim_sensor *cam = NULL;
  struct {
    double f_number, aperture, focus, pitch;
    const char *needle;
  } bad[] = {
      {-1, 0, 2, 6e-6, "f_number"},     {NAN, 0, 2, 6e-6, "f_number"},  {0, -0.01, 2, 6e-6, "aperture"},
      {0, INFINITY, 2, 6e-6, "aperture"}, {1.4, 0.02, 2, 6e-6, "both"}, {1.4, 0, 0, 6e-6, "focus_distance"},
      {0, 0.02, NAN, 6e-6, "focus_distance"}, {1.4, 0, -2, 6e-6, "focus_distance"}, {1.4, 0, 2, 0, "pixel_pitch"},
      {1.4, 0, 2, NAN, "pixel_pitch"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cp = ok;
    cp.f_number = bad[i].f_number, cp.aperture = bad[i].aperture;
    cp.focus_distance = bad[i].focus, cp.pixel_pitch = bad[i].pitch;
    assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
    assert_null(cam);
    if (!strstr(sensim_last_error(), bad[i].needle))
      fail_msg("case %zu: '%s' lacks '%s'", i, sensim_last_error(), bad[i].needle);
  }
  /* Without depth of field the other three are not read. */
  cp = ok;
  cp.f_number = 0, cp.focus_distance = NAN, cp.pixel_pitch = -1;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  sensim_world_destroy(w);
}

static void test_camera_dof_scenario_keys(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  SENSIM_OK_OR_FAIL(sensim_camera_params_from_json(
      "{\"f_number\": 2.8, \"focus_distance\": 3.5, \"pixel_pitch\": 5.86e-6}", "t", &cp));
  assert_true(cp.f_number == 2.8 && cp.focus_distance == 3.5 && cp.pixel_pitch == 5.86e-6 && cp.aperture == 0);
  sensim_camera_params_init(&cp);
  SENSIM_OK_OR_FAIL(sensim_camera_params_from_json("{\"aperture\": 0.01, \"focus_distance\": 2}", "t", &cp));
  assert_true(cp.aperture == 0.01 && cp.f_number == 0);
  const struct {
    const char *json, *needle;
  } bad[] = {
      {"{\"f_number\": 2.8}", "focus_distance"},
      {"{\"f_number\": -1, \"focus_distance\": 2}", "f_number"},
      {"{\"aperture\": 0.01, \"f_number\": 2, \"focus_distance\": 2}", "not both"},
      {"{\"pixel_pitch\": 0}", "pixel_pitch"},
      {"{\"aperture\": -0.01, \"focus_distance\": 2}", "aperture"},
      {"{\"f_numbr\": 2}", "f_numbr"},
  };
  sensim_camera_params_init(&cp);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_camera_params before = cp;
    if (sensim_camera_params_from_json(bad[i].json, "t", &cp) == SENSIM_OK) fail_msg("'%s' accepted", bad[i].json);
    if (!strstr(sensim_last_error(), bad[i].needle))
      fail_msg("'%s': '%s' lacks '%s'", bad[i].json, sensim_last_error(), bad[i].needle);
    assert_memory_equal(&cp, &before, sizeof cp);
  }
}

int sensim_test_camera_dof(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_camera_dof_aperture_follows_thin_lens_equation),
      cmocka_unit_test(test_camera_dof_edge_at_focus_distance_stays_sharp),
      cmocka_unit_test(test_camera_dof_edge_behind_focus_blurs_by_circle_of_confusion),
      cmocka_unit_test(test_camera_dof_edge_in_front_of_focus_blurs_by_circle_of_confusion),
      cmocka_unit_test(test_camera_dof_frames_do_not_depend_on_threads),
      cmocka_unit_test(test_camera_dof_rejects_bad_parameters),
      cmocka_unit_test(test_camera_dof_scenario_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
