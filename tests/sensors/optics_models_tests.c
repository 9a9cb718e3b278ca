/* Optics, the rational and division lens models: forward projection
 * against hand-computed values and an independent transcription of
 * OpenCV's rational formula and Fitzgibbon's division law, the round trips
 * ray -> pixel -> ray and pixel -> ray -> pixel (table and direct inverse),
 * folds, poles and the field edge, and a rendered wall edge landing where
 * the model projects it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "sensors/optics.h"

static sensim_camera_params base(uint32_t w, uint32_t h) {
  sensim_camera_params p;
  sensim_camera_params_init(&p);
  p.width = w;
  p.height = h;
  p.samples = 1;
  return p;
}

/* A rational lens of the kind OpenCV's CALIB_RATIONAL_MODEL fits to a wide
 * lens: numerator and denominator both bend, with small tangential terms. */
static sensim_camera_params rational_realistic(void) {
  sensim_camera_params p = base(1280, 720);
  p.lens = SENSIM_LENS_RATIONAL;
  p.fx = p.fy = 600, p.cx = 641.3, p.cy = 357.8;
  const double d[8] = {0.25, 0.02, 4e-4, -6e-4, 0.001, 0.6, 0.05, 0.002};
  memcpy(p.dist, d, sizeof d);
  return p;
}

static sensim_camera_params division_barrel(void) {
  sensim_camera_params p = base(1280, 720);
  p.lens = SENSIM_LENS_DIVISION;
  p.fx = p.fy = 600, p.cx = 639.5, p.cy = 359.5;
  p.dist[0] = -0.2;
  return p;
}

static sensim_vec3 from_optical(double x, double y, double z) { return (sensim_vec3){z, -x, -y}; }

/* OpenCV's cv::projectPoints with CALIB_RATIONAL_MODEL, transcribed from
 * its documentation (calib3d, "Detailed Description"). */
static void ref_rational(const sensim_camera_params *p, sensim_vec3 P, double *u, double *v) {
  const double *k = p->dist; /* k1 k2 p1 p2 k3 k4 k5 k6 */
  double x = -P.y / P.x, y = -P.z / P.x, r2 = x * x + y * y, r4 = r2 * r2, r6 = r4 * r2;
  double radial = (1 + k[0] * r2 + k[1] * r4 + k[4] * r6) / (1 + k[5] * r2 + k[6] * r4 + k[7] * r6);
  double xpp = x * radial + 2 * k[2] * x * y + k[3] * (r2 + 2 * x * x);
  double ypp = y * radial + k[2] * (r2 + 2 * y * y) + 2 * k[3] * x * y;
  *u = p->fx * xpp + p->cx;
  *v = p->fy * ypp + p->cy;
}

/* atan2 of the cross and dot products: exact near 0, where acos of the
 * cosine cannot resolve angles below sqrt(2 eps) = 2e-8 rad. */
static double angle_between(sensim_vec3 a, sensim_vec3 b) {
  double cx = a.y * b.z - a.z * b.y, cy = a.z * b.x - a.x * b.z, cz = a.x * b.y - a.y * b.x;
  return atan2(sqrt(cx * cx + cy * cy + cz * cz), a.x * b.x + a.y * b.y + a.z * b.z);
}

static void test_optics_rational_matches_opencv_formula(void **state) {
  (void)state;
  sensim_camera_params p = base(640, 480);
  p.lens = SENSIM_LENS_RATIONAL;
  p.fx = p.fy = 500, p.cx = 320, p.cy = 240;
  const double d[8] = {-0.2, 0.05, 0.001, -0.002, 0.01, 0.1, -0.02, 0.003};
  memcpy(p.dist, d, sizeof d);
  double u, v, ru, rv;
  /* Optical (0.5, 0.3, 2): x' = 0.25, y' = 0.15, r^2 = 0.085, r^4 = 0.007225,
   * r^6 = 0.000614125. Numerator 1 - 0.2*0.085 + 0.05*0.007225 + 0.01*0.000614125
   * = 0.98336739125; denominator 1 + 0.1*0.085 - 0.02*0.007225 + 0.003*0.000614125
   * = 1.008357342375; radial = 0.975217167491. x'' = 0.25*radial + 2*0.001*0.25*0.15
   * - 0.002*(0.085 + 0.125) = 0.243459291873 -> u = 500 x'' + 320 = 441.729645936;
   * y'' = 0.15*radial + 0.001*(0.085 + 0.045) - 2*0.002*0.25*0.15 = 0.146262575124
   * -> v = 313.131287562. */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(0.5, 0.3, 2), &u, &v));
  assert_near(u, 441.729645936, 1e-8);
  assert_near(v, 313.131287562, 1e-8);
  const sensim_vec3 pts[] = {{3, 0.2, 0.1}, {1, -0.6, 0.4}, {2, 0.9, -0.5}, {5, -0.1, -1.2}};
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_camera_project(&p, pts[i], &u, &v));
    ref_rational(&p, pts[i], &ru, &rv);
    assert_near(u, ru, 1e-9);
    assert_near(v, rv, 1e-9);
  }
  /* k4 = k5 = k6 = 0 is Brown-Conrady with the same k1 k2 p1 p2 k3. */
  p.dist[5] = p.dist[6] = p.dist[7] = 0;
  sensim_camera_params bc = p;
  bc.lens = SENSIM_LENS_BROWN_CONRADY;
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_camera_project(&p, pts[i], &u, &v));
    SENSIM_OK_OR_FAIL(sensim_camera_project(&bc, pts[i], &ru, &rv));
    assert_near(u, ru, 1e-12);
    assert_near(v, rv, 1e-12);
  }
}

static void test_optics_division_matches_fitzgibbon_closed_form(void **state) {
  (void)state;
  sensim_camera_params p = base(640, 480);
  p.lens = SENSIM_LENS_DIVISION;
  p.fx = p.fy = 400, p.cx = 320, p.cy = 240;
  p.dist[0] = -0.3;
  double u, v;
  /* Pixel (520, 390): x_d = (0.5, 0.375), |x_d|^2 = 0.390625,
   * 1 + lambda |x_d|^2 = 0.8828125, so the ray is (0.5, 0.375, 0.8828125)
   * (undistorted x_u = x_d / 0.8828125 = (0.566371681, 0.424778761)). */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(0.5, 0.375, 0.8828125), &u, &v));
  assert_near(u, 520, 1e-9);
  assert_near(v, 390, 1e-9);
  sensim_vec3 d;
  SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&p, 520, 390, &d));
  assert_true(angle_between(d, from_optical(0.5, 0.375, 0.8828125)) < 1e-12);
  /* Any point: its pixel's distorted coordinates satisfy Fitzgibbon's
   * x_u = x_d / (1 + lambda |x_d|^2) (and lambda = 0 is the pinhole). */
  const sensim_vec3 pts[] = {{3, 0.2, 0.1}, {1, -1.6, 0.4}, {0.3, 0.9, -0.5}, {5, -0.1, -1.2}};
  for (int k = 0; k < 2; k++) {
    p.dist[0] = k ? 0.05 : -0.3;
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
      if (k && pts[i].x < 1) continue; /* beyond the pincushion's fold */
      SENSIM_OK_OR_FAIL(sensim_camera_project(&p, pts[i], &u, &v));
      double xd = (u - 320) / 400, yd = (v - 240) / 400, den = 1 + p.dist[0] * (xd * xd + yd * yd);
      assert_near(xd / den, -pts[i].y / pts[i].x, 1e-12);
      assert_near(yd / den, -pts[i].z / pts[i].x, 1e-12);
    }
  }
}

/* pixel -> table ray -> pixel within 1e-3 px over the image (pixel centres
 * on a lattice and random sub-pixel points), the table agreeing with the
 * direct inverse; and sensim_camera_pixel_ray of a point's pixel pointing
 * back at the point. */
static void round_trips(const sensim_camera_params *p) {
  sensim_optics *o = NULL;
  SENSIM_OK_OR_FAIL(sensim__optics_create(p, &o));
  double worst = 0;
  srand(11);
  for (int k = 0; k < 20000; k++) {
    double u = -0.5 + p->width * (rand() / (RAND_MAX + 1.0)), v = -0.5 + p->height * (rand() / (RAND_MAX + 1.0));
    if (k < 400) u = (k % 20) * (p->width - 1) / 19.0, v = (k / 20) * (p->height - 1) / 19.0;
    sensim_vec3 d, dd;
    double pu, pv;
    assert_true(sensim__optics_ray(o, u, v, 1, &d));
    SENSIM_OK_OR_FAIL(sensim_camera_project(p, d, &pu, &pv));
    worst = fmax(worst, hypot(pu - u, pv - v));
    SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(p, u, v, &dd));
    assert_true(angle_between(d, dd) < 1e-6);
  }
  if (!(worst < 1e-3)) fail_msg("lens %d: worst reprojection %g px", (int)p->lens, worst);
  /* ray -> pixel -> ray: directions within the image's field. */
  for (int k = 0; k < 2000; k++) {
    sensim_vec3 P = from_optical(-0.9 + 1.8 * (rand() / (RAND_MAX + 1.0)), -0.5 + 1.0 * (rand() / (RAND_MAX + 1.0)), 1);
    double u, v;
    sensim_vec3 d;
    SENSIM_OK_OR_FAIL(sensim_camera_project(p, P, &u, &v));
    SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(p, u, v, &d));
    if (!(angle_between(d, P) < 1e-9)) fail_msg("lens %d: ray back %g rad off", (int)p->lens, angle_between(d, P));
  }
  sensim__optics_destroy(o);
}

static void test_optics_rational_and_division_round_trip(void **state) {
  (void)state;
  sensim_camera_params p = rational_realistic();
  round_trips(&p);
  p.dist[2] = p.dist[3] = 0; /* radial table alone */
  round_trips(&p);
  p = division_barrel();
  round_trips(&p);
  p.dist[0] = 0.08; /* pincushion; fold at rho = 3.5, the corner at 1.22 */
  round_trips(&p);
}

static void expect_einval(const sensim_camera_params *p, const char *what, const char *needle) {
  sensim_optics *o = NULL;
  sensim_status rc = sensim__optics_create(p, &o);
  if (rc != SENSIM_EINVAL) fail_msg("%s: create gave %d, expected SENSIM_EINVAL", what, rc);
  assert_null(o);
  if (!strstr(sensim_last_error(), needle)) fail_msg("%s: message '%s' lacks '%s'", what, sensim_last_error(), needle);
}

static void test_optics_rational_and_division_folds_poles_and_field(void **state) {
  (void)state;
  sensim_camera_params p = rational_realistic();
  double u, v;
  sensim_vec3 d;
  /* A rational map that folds: N = 1 - 0.5 t, D = 1 + 0.5 t gives
   * g = r (1 - 0.5 t) / (1 + 0.5 t), g' = (1 - 2 t - 0.25 t^2) / D^2 = 0 at
   * t = 0.4721 (r = 0.687, g = 0.441, 265 px at fx = 600), inside the image. */
  memset(p.dist, 0, sizeof p.dist);
  p.dist[0] = -0.5, p.dist[5] = 0.5;
  expect_einval(&p, "rational fold", "not invertible");
  assert_int_equal(sensim_camera_project(&p, from_optical(0.1, 0, 1), &u, &v), SENSIM_EINVAL);
  /* With the image inside the fold (fx = 2000: corner at r = 0.37) the
   * lens is valid, and points past the fold are not imaged. */
  p.fx = p.fy = 2000;
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(0.68, 0, 1), &u, &v));
  assert_int_equal(sensim_camera_project(&p, from_optical(0.70, 0, 1), &u, &v), SENSIM_EINVAL);
  /* A pole before any fold (D = 1 - 0.5 t vanishes at t = 2, r = 1.414):
   * g runs to +inf there, so every pixel has a ray; points beyond the pole
   * are not imaged. */
  memset(p.dist, 0, sizeof p.dist);
  p.fx = p.fy = 300;
  p.dist[5] = -0.5;
  round_trips(&p);
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(1.4, 0, 1), &u, &v));
  assert_true(u > 640 + 300 * 1.4 / (1 - 0.5 * 1.96) * 0.99);
  assert_int_equal(sensim_camera_project(&p, from_optical(1.42, 0, 1), &u, &v), SENSIM_EINVAL);
  /* Division, pincushion folding inside the image: 1/sqrt(lambda) = 1 < the
   * corner's 1.22 at fx = 600. */
  p = division_barrel();
  p.dist[0] = 1.0;
  expect_einval(&p, "division fold", "not invertible");
  /* Division, strong barrel: the ray reaches 90 degrees at rho = 1/sqrt(2)
   * (424 px at fx = 600); pixels beyond see nothing, in the table and in
   * the direct inverse, and pixels inside still round-trip. */
  p.dist[0] = -2.0;
  sensim_optics *o = NULL;
  SENSIM_OK_OR_FAIL(sensim__optics_create(&p, &o));
  assert_false(sensim__optics_ray(o, 639.5 + 430, 359.5, 1, &d));
  assert_int_equal(sensim_camera_pixel_ray(&p, 639.5 + 430, 359.5, &d), SENSIM_EINVAL);
  assert_true(sensim__optics_ray(o, 639.5 + 420, 359.5, 1, &d));
  double pu, pv;
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, d, &pu, &pv));
  assert_near(pu, 639.5 + 420, 1e-9);
  /* Every point in front of the lens lands inside rho < 1/sqrt(2). */
  SENSIM_OK_OR_FAIL(sensim_camera_project(&p, from_optical(1000, 0, 1), &u, &v));
  assert_true(u - 639.5 < 600 / sqrt(2.0) && u - 639.5 > 600 / sqrt(2.0) - 1);
  sensim__optics_destroy(o);
  /* Non-finite coefficients beyond the fifth are refused too. */
  p = rational_realistic();
  p.dist[7] = NAN;
  expect_einval(&p, "dist[7] NaN", "dist[7]");
  p = division_barrel();
  p.dist[0] = INFINITY;
  expect_einval(&p, "lambda inf", "dist[0]");
}

/* Renders a wall whose +Y edge at y = e stands at distance D, lit by the
 * ambient term alone, with 64 stratified samples per pixel: in each row the
 * lit fraction integrates to the distance from the edge to the image's
 * right border, which must match sensim_camera_project of the edge line at
 * that row. */
static void check_rendered_edge(const sensim_camera_params *cp0) {
  const double D = 4.0, e = -1.1;
  sensim_world *w = test_black_world(2, 1.0f);
  /* Thin, so that its side face (visible off the axis) adds under 1e-4 px. */
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1e-5, 20, 40}, (sensim_vec3){D + 0.5e-5, e - 10.0, 0});
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp = *cp0;
  cp.samples = 64;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_non_null(f);
  const float *rgb = f->data;
  const uint32_t W = f->width;
  double hi = rgb[3 * ((size_t)(cp.height / 2) * W + W - 1)];
  assert_true(hi > 0);
  const uint32_t rows[] = {3, cp.height / 4, cp.height / 2, 3 * cp.height / 4, cp.height - 4};
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    uint32_t j = rows[k];
    double sum = 0;
    for (uint32_t i = 0; i < W; i++) sum += rgb[3 * ((size_t)j * W + i)] / hi;
    double measured = W - 0.5 - sum;
    /* The edge line (D, e, z): bisect z for the point imaged on row j. */
    double zlo = -40, zhi = 40, u = 0, v;
    for (int it = 0; it < 200; it++) {
      double z = 0.5 * (zlo + zhi);
      SENSIM_OK_OR_FAIL(sensim_camera_project(&cp, (sensim_vec3){D, e, z}, &u, &v));
      if (v > j) zlo = z; /* rows grow downwards, z upwards */
      else zhi = z;
    }
    /* Stratified 8 x 8 jittered sampling: the edge crosses one stratum per
     * stratum row, whose sample is lit or not (variance <= 1/4), so the
     * measured position has a standard deviation <= sqrt(8 / 4) / 64 =
     * 0.022 px; 0.1 px is 4.5 of them. The curvature of the edge's image
     * across one row adds well under 0.01 px here. Leaving out k4..k6 or
     * lambda moves the edge by tens of pixels. */
    if (fabs(measured - u) > 0.1)
      fail_msg("lens %d row %u: edge measured at u = %.4f, model %.4f", (int)cp.lens, j, measured, u);
  }
  sensim_world_destroy(w);
}

static void test_optics_rational_and_division_rendered_edge_lands_where_projected(void **state) {
  (void)state;
  sensim_camera_params p = base(320, 240);
  p.lens = SENSIM_LENS_RATIONAL;
  p.fx = p.fy = 180, p.cx = 161.2, p.cy = 118.7;
  const double d[8] = {0.25, 0.02, 2e-3, -3e-3, 0.001, 0.6, 0.05, 0.002};
  memcpy(p.dist, d, sizeof d);
  check_rendered_edge(&p);
  p.lens = SENSIM_LENS_DIVISION;
  memset(p.dist, 0, sizeof p.dist);
  p.dist[0] = -0.25;
  check_rendered_edge(&p);
}

/* The scenario keys: "lens" names both models, "dist" takes up to 8
 * coefficients for the rational lens and 1 (lambda) for the division
 * lens; anything else is refused and leaves the parameters unchanged. */
static void test_optics_rational_and_division_scenario_keys(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  SENSIM_OK_OR_FAIL(sensim_camera_params_from_json(
      "{\"fx\": 600, \"fy\": 600, \"cx\": 320, \"cy\": 240, \"lens\": \"rational\", "
      "\"dist\": [0.25, 0.02, 4e-4, -6e-4, 0.001, 0.6, 0.05, 0.002]}",
      "t", &cp));
  assert_int_equal(cp.lens, SENSIM_LENS_RATIONAL);
  assert_true(cp.dist[7] == 0.002 && cp.dist[5] == 0.6 && cp.dist[2] == 4e-4);
  SENSIM_OK_OR_FAIL(sensim_camera_params_from_json("{\"lens\": \"rational\", \"dist\": [0.1, 0.2]}", "t", &cp));
  assert_true(cp.dist[0] == 0.1 && cp.dist[1] == 0.2 && cp.dist[5] == 0 && cp.dist[7] == 0);
  SENSIM_OK_OR_FAIL(sensim_camera_params_from_json("{\"lens\": \"division\", \"dist\": [-0.2]}", "t", &cp));
  assert_int_equal(cp.lens, SENSIM_LENS_DIVISION);
  assert_true(cp.dist[0] == -0.2 && cp.dist[1] == 0);
  sensim_camera_params before = cp;
  assert_int_equal(sensim_camera_params_from_json("{\"lens\": \"division\", \"dist\": [-0.2, 0.1]}", "t", &cp),
                   SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "at most 1"));
  assert_int_equal(
      sensim_camera_params_from_json("{\"lens\": \"rational\", \"dist\": [0, 0, 0, 0, 0, 0, 0, 0, 1]}", "t", &cp),
      SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "at most 8"));
  assert_int_equal(sensim_camera_params_from_json("{\"lens\": \"rationale\"}", "t", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "rational"));
  assert_memory_equal(&cp, &before, sizeof cp);
}

int sensim_test_optics_models(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_optics_rational_matches_opencv_formula),
      cmocka_unit_test(test_optics_division_matches_fitzgibbon_closed_form),
      cmocka_unit_test(test_optics_rational_and_division_round_trip),
      cmocka_unit_test(test_optics_rational_and_division_folds_poles_and_field),
      cmocka_unit_test(test_optics_rational_and_division_rendered_edge_lands_where_projected),
      cmocka_unit_test(test_optics_rational_and_division_scenario_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
