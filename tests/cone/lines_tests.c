/* tests/cone/lines_tests.c: the published lines method and its published
 * experiment: a 1 m x 1 m face of a thin box 1 m in front of the sensor,
 * centred on the axis, with N = 2, 10, 100, 1000 lines; and the off-axis
 * face at cone (x, y, z) = (5, 0, 7) turned to face the sensor.
 *
 * Closed form. The box's -X face (sensim_mesh_create_shape's vertex order)
 * becomes the quad v0 = (Y +0.5, Z -0.5), v1 = (Y -0.5, Z -0.5), v2, v3 =
 * (Y +0.5, Z +0.5): lines run along Y at heights Z_i = -0.5 + i/(N-1). The
 * nearest point of line i to the sensor is (d, 0, Z_i) for a face at
 * distance d seen square-on, so the method reports the line with the least
 * |Z_i| =: z_N (0 for odd N, 0.5/(N-1) for even N): range sqrt(d^2 + z_N^2),
 * azimuth 0, elevation atan(z_N / d) <= atan(0.5 / ((N-1) d)), the
 * published bound. For even N the lines at +z_N and -z_N are equally near;
 * the thesis's tie rule takes the upper one, so the elevation is positive
 * (its Table 2). The mesh is float: vertex 0.5 is exact, the 0.01 m half
 * thickness is rounded by 2.3e-10 m, hence 1e-9 tolerances. */
#include "support/testutil.h"
#include "cone/cone_groups.h"

#define TOL 1e-9
#define THICK 0.02

static double nearest_line_height(int n, double half) {
  double best = INFINITY;
  for (int i = 0; i < n; i++) {
    double z = -half + 2.0 * half * i / (n - 1);
    if (fabs(z) < best) best = fabs(z);
  }
  return best;
}

static sensim_sensor *make_cone(sensim_world *w, sensim_cone_method method, int lines) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_cone_params cp;
  sensim_cone_params_init(&cp);
  cp.method = method;
  cp.lines = lines;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_cone_create(w, &sp, &cp, &s));
  return s;
}

static void test_cone_published_face_at_1m_matches_closed_form_for_each_n(void **state) {
  (void)state;
  const int ns[] = {2, 3, 10, 11, 100, 1000};
  for (size_t j = 0; j < sizeof ns / sizeof *ns; j++) {
    int n = ns[j];
    sensim_world *w = cone_world();
    cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){1.0, 0, 0}, 0.0, 1);
    sensim_sensor *s = make_cone(w, SENSIM_CONE_LINES, n);
    sensim_detection d = cone_detect_once(w, s);
    double zn = nearest_line_height(n, 0.5);
    assert_int_equal(d.detected, 1);
    assert_int_equal(d.class_id, 3);
    assert_near(d.range, sqrt(1.0 + zn * zn), TOL);
    assert_near(d.azimuth, 0.0, TOL);
    assert_near(d.elevation, atan(zn), TOL);
    assert_near(d.point[0], 1.0, TOL);
    assert_near(d.point[1], 0.0, TOL);
    assert_near(d.point[2], zn, TOL);
    /* The published error bound, every N. */
    assert_true(fabs(d.elevation) <= atan(0.5 / ((n - 1) * 1.0)) + TOL);
    if (n % 2 == 0) assert_near(d.elevation, atan(0.5 / (n - 1)), TOL);
    sensim_world_destroy(w);
  }
}

static void test_cone_exact_method_on_published_face_has_no_error(void **state) {
  (void)state;
  sensim_world *w = cone_world();
  cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){1.0, 0, 0}, 0.0, 1);
  sensim_sensor *s = make_cone(w, SENSIM_CONE_EXACT, 2);
  sensim_detection d = cone_detect_once(w, s);
  assert_int_equal(d.detected, 1);
  assert_near(d.range, 1.0, TOL);
  assert_near(d.azimuth, 0.0, TOL);
  assert_near(d.elevation, 0.0, TOL);
  sensim_world_destroy(w);
}

static void test_cone_published_off_axis_face_at_5_0_7(void **state) {
  (void)state;
  /* Cone frame (5, 0, 7) is sensor (X, Y, Z) = (7, 5, 0): 35.5 deg to the
   * left, 8.60 m away; the face is turned by that azimuth to face the
   * sensor, so its nearest point is its centre and line i lies at height
   * Z_i, horizontal and perpendicular to the line of sight. */
  const double R = sqrt(74.0), az = atan2(5.0, 7.0);
  const int ns[] = {2, 10, 100, 1000};
  for (size_t j = 0; j < sizeof ns / sizeof *ns; j++) {
    int n = ns[j];
    sensim_world *w = cone_world();
    cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){7.0, 5.0, 0}, az, 1);
    sensim_sensor *s = make_cone(w, SENSIM_CONE_LINES, n);
    sensim_detection d = cone_detect_once(w, s);
    double zn = nearest_line_height(n, 0.5);
    assert_int_equal(d.detected, 1);
    /* 1e-8: the box's float vertices rotated by the yaw. */
    assert_near(d.range, sqrt(R * R + zn * zn), 1e-8);
    assert_near(d.azimuth, az, 1e-8);
    /* Eq. 3.8: atan(y / z) in the cone frame, the nearest point being
     * (X, Y, Z) = (7, 5, z_N) up to the float vertices. */
    assert_near(d.elevation, atan(zn / 7.0), 1e-8);
    assert_true(fabs(d.elevation) <= atan(0.5 / ((n - 1) * 7.0)) + 1e-8);
    sensim_world_destroy(w);
  }
  sensim_world *w = cone_world();
  cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){7.0, 5.0, 0}, az, 1);
  sensim_sensor *s = make_cone(w, SENSIM_CONE_EXACT, 2);
  sensim_detection d = cone_detect_once(w, s);
  assert_near(d.range, R, 1e-8);
  assert_near(d.azimuth, az, 1e-8);
  assert_near(d.elevation, 0.0, 1e-8);
  sensim_world_destroy(w);
}

/* The thesis's own numbers. Table 2 (face at 1 m): elevations +26.56528,
 * +3.179862, +0.2893734, +0.02867683 deg for N = 2, 10, 100, 1000; the
 * off-axis face at cone (5, 0, 7) with 1000 lines: 0.004096 deg (Eq. 3.8).
 * sensim's values are atan(0.5 / (N - 1)) and atan(0.5 / 999 / 7): the
 * thesis's Table 2 is 0.86 to 1.12e-5 relative above them in every row (its
 * conversion or rounding; the thesis does not say), hence 2e-5; its
 * 0.004096 is 0.0040967 cut to four figures, hence 1e-6 deg. */
static void test_cone_lines_reproduce_the_thesis_table_2_and_off_axis_numbers(void **state) {
  (void)state;
  const double deg = 180.0 / M_PI;
  const int ns[4] = {2, 10, 100, 1000};
  const double table2[4] = {26.56528, 3.179862, 0.2893734, 0.02867683};
  for (int j = 0; j < 4; j++) {
    sensim_world *w = cone_world();
    cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){1.0, 0, 0}, 0.0, 1);
    sensim_detection d = cone_detect_once(w, make_cone(w, SENSIM_CONE_LINES, ns[j]));
    assert_true(d.elevation > 0.0);
    assert_near(d.elevation * deg, table2[j], 2e-5 * table2[j]);
    sensim_world_destroy(w);
  }
  sensim_world *w = cone_world();
  cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){7.0, 5.0, 0}, atan2(5.0, 7.0), 1);
  sensim_detection d = cone_detect_once(w, make_cone(w, SENSIM_CONE_LINES, 1000));
  assert_near(d.elevation * deg, 0.004096, 1e-6);
  /* The spherical elevation of the same point, what the lines method
   * reported before it followed Eq. 3.8: -0.003334 with the old tie rule. */
  assert_near(atan2(d.point[2], hypot(d.point[0], d.point[1])) * deg, 0.0033336, 1e-6);
  sensim_world_destroy(w);
}

/* Eq. 3.8 against the spherical elevation where they differ (Y and Z both
 * non-zero): the face at (7, 5) raised so that its lower edge is at Z = 0.5
 * and turned to face the sensor. Its nearest point is the middle of the
 * lower edge, (7, 5, 0.5), which is also the first line (odd N): lines
 * report atan(0.5 / 7), exact atan(0.5 / sqrt(74)). */
static void test_cone_lines_use_eq_3_8_and_exact_the_spherical_elevation(void **state) {
  (void)state;
  const sensim_cone_method m[2] = {SENSIM_CONE_LINES, SENSIM_CONE_EXACT};
  const double expect[2] = {atan(0.5 / 7.0), atan(0.5 / sqrt(74.0))};
  for (int j = 0; j < 2; j++) {
    sensim_world *w = cone_world();
    cone_thin_box(w, THICK, 1.0, 1.0, (sensim_vec3){7.0, 5.0, 1.0}, atan2(5.0, 7.0), 1);
    sensim_detection d = cone_detect_once(w, make_cone(w, m[j], 11));
    assert_int_equal(d.detected, 1);
    assert_near(d.point[2], 0.5, 1e-7);
    assert_near(d.elevation, expect[j], 1e-8);
    sensim_world_destroy(w);
  }
}

static void test_cone_lines_on_triangle_use_degenerate_quad(void **state) {
  (void)state;
  /* Triangle (a, b, c) as quad (a, b, c, c): lines parallel to a b, the
   * last one the point c. In the plane z = 2: a = (-1, -1), b = (1, -1),
   * c = (0, 1); with N = 3 the lines are y = -1, 0, 1 (the last is c). */
  sensim_cone_shape k = cone_shape_deg(120, 120, 10);
  double a[3] = {-1, -1, 2}, b[3] = {1, -1, 2}, c[3] = {0, 1, 2}, p[3];
  assert_near(sensim_cone_quad_nearest_lines(&k, a, b, c, c, 3, p), 2.0, 1e-12);
  assert_near(p[1], 0.0, 1e-12);
  /* N = 2: the edge a b (y = -1) and the point c: distance sqrt(5). */
  assert_near(sensim_cone_quad_nearest_lines(&k, a, b, c, c, 2, p), sqrt(5.0), 1e-12);
  /* N < 2 is refused by returning nothing. */
  assert_true(isinf(sensim_cone_quad_nearest_lines(&k, a, b, c, c, 1, p)));
}

static void test_cone_lines_error_bound_holds_for_every_n_on_offset_faces(void **state) {
  (void)state;
  /* Square faces of half extent e at distance d, square-on, with their
   * centre offset vertically by o (still covering the axis, every line
   * reaching into the 120 deg cone): the lines
   * method's elevation error never exceeds atan(e / ((N-1) d)). */
  sensim_cone_shape k = cone_shape_deg(120, 120, 50);
  const double es[] = {0.5, 1.2}, ds[] = {1.0, 7.5}, os[] = {0.0, 0.137, -0.31};
  for (int n = 2; n <= 64; n++)
    for (int ie = 0; ie < 2; ie++)
      for (int id = 0; id < 2; id++)
        for (int io = 0; io < 3; io++) {
          double e = es[ie], d = ds[id], o = os[io], p[3];
          double v0[3] = {e, o - e, d}, v1[3] = {-e, o - e, d}, v2[3] = {-e, o + e, d}, v3[3] = {e, o + e, d};
          double r = sensim_cone_quad_nearest_lines(&k, v0, v1, v2, v3, n, p);
          assert_true(isfinite(r));
          double elev = atan2(p[1], hypot(p[2], p[0]));
          assert_true(fabs(elev) <= atan(e / ((n - 1) * d)) + 1e-12);
          assert_near(p[0], 0.0, 1e-12);
        }
}

int sensim_test_cone_lines(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cone_published_face_at_1m_matches_closed_form_for_each_n),
      cmocka_unit_test(test_cone_exact_method_on_published_face_has_no_error),
      cmocka_unit_test(test_cone_published_off_axis_face_at_5_0_7),
      cmocka_unit_test(test_cone_lines_reproduce_the_thesis_table_2_and_off_axis_numbers),
      cmocka_unit_test(test_cone_lines_use_eq_3_8_and_exact_the_spherical_elevation),
      cmocka_unit_test(test_cone_lines_on_triangle_use_degenerate_quad),
      cmocka_unit_test(test_cone_lines_error_bound_holds_for_every_n_on_offset_faces),
  };
  return cmocka_run_group_tests_name("cone_lines", tests, NULL, NULL);
}
