/* tests/cone/geometry_tests.c: the cone equation, the segment-cone
 * quadratic and its clipping, in the cone frame (x left, y up, z forward).
 * Cases are chosen so every root is a small rational number, exact in
 * binary floating point or within a few ulps; tolerances are 1e-12. */
#include "support/testutil.h"
#include "cone/cone_groups.h"

#define TOL 1e-12

static void test_cone_frame_maps_sensor_axes_x_forward_to_cone_z(void **state) {
  (void)state;
  double s[3] = {1.0, 2.0, 3.0}, c[3], back[3];
  sensim_cone_from_sensor(s, c);
  /* cone x = sensor Y (left), y = sensor Z (up), z = sensor X (forward). */
  assert_true(c[0] == 2.0 && c[1] == 3.0 && c[2] == 1.0);
  sensim_cone_to_sensor(c, back);
  assert_true(back[0] == 1.0 && back[1] == 2.0 && back[2] == 3.0);
  /* In place. */
  sensim_cone_from_sensor(s, s);
  assert_true(s[0] == 2.0 && s[1] == 3.0 && s[2] == 1.0);
}

static void test_cone_inside_follows_the_elliptical_cone_equation(void **state) {
  (void)state;
  /* theta = 90 deg: a = tan 45 = 1; phi = 60 deg: b = tan 30 = 1/sqrt(3). */
  sensim_cone_shape k = cone_shape_deg(90, 60, 10);
  const double b = tan(M_PI / 6.0);
  /* tan(pi/4) rounds to 1 - 2^-53: a point on the surface x = z is then a
   * hair outside, so the surface point uses the exact shape. */
  sensim_cone_shape k1 = {1.0, b, 10.0};
  assert_true(sensim_cone_inside(&k, (double[3]){0, 0, 0}));        /* apex */
  assert_true(sensim_cone_inside(&k, (double[3]){0, 0, 5}));        /* axis */
  assert_true(sensim_cone_inside(&k, (double[3]){0, 0, 10}));       /* end cap */
  assert_false(sensim_cone_inside(&k, (double[3]){0, 0, 10.0001})); /* beyond */
  assert_false(sensim_cone_inside(&k, (double[3]){0, 0, -1}));      /* back nappe */
  assert_false(sensim_cone_inside(&k, (double[3]){0.5, 0, -1}));
  assert_true(sensim_cone_inside(&k1, (double[3]){5, 0, 5}));       /* on the surface, x = a z */
  assert_false(sensim_cone_inside(&k1, (double[3]){5.001, 0, 5}));
  assert_true(sensim_cone_inside(&k, (double[3]){4.999, 0, 5}));
  assert_true(sensim_cone_inside(&k, (double[3]){0, 0.999 * b * 5, 5}));
  assert_false(sensim_cone_inside(&k, (double[3]){0, 1.001 * b * 5, 5}));
  /* On the ellipse at 45 deg polar angle: x = a z cos, y = b z sin. */
  double c45 = sqrt(0.5), z = 3.0;
  assert_true(sensim_cone_inside(&k, (double[3]){0.999 * z * c45, 0.999 * b * z * c45, z}));
  assert_false(sensim_cone_inside(&k, (double[3]){1.001 * z * c45, 1.001 * b * z * c45, z}));
  /* The horizontal half angle is theta / 2, the vertical phi / 2. */
  assert_true(sensim_cone_inside(&k, (double[3]){tan(44.9 * M_PI / 180) * 2, 0, 2}));
  assert_false(sensim_cone_inside(&k, (double[3]){0, tan(30.1 * M_PI / 180) * 2, 2}));
}

static void test_cone_quadratic_without_roots_misses(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* x = 5, z = 1: f = 25 + y^2 - 1 > 0; A = 4, B = -4, C = 25, D < 0. */
  double p0[3] = {5, -1, 1}, p1[3] = {5, 1, 1}, s[2];
  assert_int_equal(sensim_cone_surface_roots(&k, p0, p1, s), 0);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 0);
  assert_true(isinf(sensim_cone_segment_nearest(&k, p0, p1, NULL)));
}

static void test_cone_quadratic_tangent_touches_at_one_point(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* x = 1, z = 1: f = y^2 = (2s - 1)^2, D = 16 - 16 = 0, root s = 1/2. */
  double p0[3] = {1, -1, 1}, p1[3] = {1, 1, 1}, s[2], p[3];
  assert_int_equal(sensim_cone_surface_roots(&k, p0, p1, s), 1);
  assert_near(s[0], 0.5, TOL);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 1);
  assert_near(s[0], 0.5, TOL);
  assert_near(s[1], 0.5, TOL);
  assert_near(sensim_cone_segment_nearest(&k, p0, p1, p), sqrt(2.0), TOL);
  assert_near(p[1], 0.0, TOL);
}

static void test_cone_quadratic_two_roots_clip_the_chord(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* Across the cone at z = 1 (radius 1): x = -2 + 4s crosses x = -1, 1 at
   * s = 1/4, 3/4; the nearest point is on the axis. */
  double p0[3] = {-2, 0, 1}, p1[3] = {2, 0, 1}, s[2], p[3];
  assert_int_equal(sensim_cone_surface_roots(&k, p0, p1, s), 2);
  assert_near(s[0], 0.25, TOL);
  assert_near(s[1], 0.75, TOL);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 1);
  assert_near(s[0], 0.25, TOL);
  assert_near(s[1], 0.75, TOL);
  assert_near(sensim_cone_segment_nearest(&k, p0, p1, p), 1.0, TOL);
  assert_near(p[0], 0.0, TOL);
  /* A segment ending inside: one crossing, the inner end kept. */
  double q1[3] = {0.5, 0, 1};
  assert_int_equal(sensim_cone_clip_segment(&k, p0, q1, s), 1);
  assert_near(s[0], 1.0 / 2.5, TOL);
  assert_near(s[1], 1.0, TOL);
  /* Elliptical: phi = 60 deg, b = 1/sqrt(3); vertical chord at z = 3 is
   * |y| <= b z = sqrt(3). */
  sensim_cone_shape e = cone_shape_deg(90, 60, 10);
  double v0[3] = {0, -3, 3}, v1[3] = {0, 3, 3};
  assert_int_equal(sensim_cone_clip_segment(&e, v0, v1, s), 1);
  assert_near(s[0], (3 - sqrt(3.0)) / 6, TOL);
  assert_near(s[1], (3 + sqrt(3.0)) / 6, TOL);
}

static void test_cone_segment_parallel_to_axis_enters_through_the_surface(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* x = 0.5, z = -1 + 21 s: A = -441 < 0, f = 0.25 - z^2 <= 0 for |z| >= 0.5,
   * the forward part from z = 0.5 (s = 1.5/21) to the cap z = 10 (s = 11/21). */
  double p0[3] = {0.5, 0, -1}, p1[3] = {0.5, 0, 20}, s[2], p[3];
  assert_int_equal(sensim_cone_surface_roots(&k, p0, p1, s), 2);
  assert_near(s[0], 0.5 / 21, TOL);
  assert_near(s[1], 1.5 / 21, TOL);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 1);
  assert_near(s[0], 1.5 / 21, TOL);
  assert_near(s[1], 11.0 / 21, TOL);
  assert_near(sensim_cone_segment_nearest(&k, p0, p1, p), sqrt(0.5), TOL);
  /* Outside the cone all along (x = 20 > z for z <= 10). */
  double o0[3] = {20, 0, 1}, o1[3] = {20, 0, 9};
  assert_int_equal(sensim_cone_clip_segment(&k, o0, o1, s), 0);
}

static void test_cone_segment_parallel_to_a_generator_is_linear(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* Direction (1, 0, 1) lies on the 45 deg cone: A = 0, f = -3 (1 + 4 s). */
  double p0[3] = {-1, 0, 2}, p1[3] = {1, 0, 4}, s[2];
  assert_int_equal(sensim_cone_surface_roots(&k, p0, p1, s), 1);
  assert_near(s[0], -0.25, TOL);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 1);
  assert_near(s[0], 0.0, TOL);
  assert_near(s[1], 1.0, TOL);
  /* On the surface itself: f = 0 for every s. */
  double g0[3] = {1, 0, 1}, g1[3] = {2, 0, 2};
  assert_int_equal(sensim_cone_surface_roots(&k, g0, g1, s), -1);
  assert_int_equal(sensim_cone_clip_segment(&k, g0, g1, s), 1);
}

static void test_cone_segment_crossing_the_end_cap_stops_at_length(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* Along the axis from z = 5 to 15: the cap z = 10 at s = 1/2. */
  double p0[3] = {0, 0, 5}, p1[3] = {0, 0, 15}, s[2], p[3];
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 1);
  assert_near(s[0], 0.0, TOL);
  assert_near(s[1], 0.5, TOL);
  assert_near(sensim_cone_segment_nearest(&k, p0, p1, p), 5.0, TOL);
  /* Wholly beyond the cap. */
  double b0[3] = {0, 0, 11}, b1[3] = {0, 0, 15};
  assert_int_equal(sensim_cone_clip_segment(&k, b0, b1, s), 0);
  /* Coming back from beyond the cap: the nearest point is on the cap. */
  double c0[3] = {1, 0, 14}, c1[3] = {1, 0, 10.0};
  assert_near(sensim_cone_segment_nearest(&k, c0, c1, p), sqrt(101.0), TOL);
}

static void test_cone_far_intersection_beyond_length_slides_to_the_cap(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* x = 20 s, z = 8 + 5 s leaves the lateral surface at s = 8/15
   * (z = 10.67 > r): the kept part ends where z = r, s = 2/5, x = 8. */
  double p0[3] = {0, 0, 8}, p1[3] = {20, 0, 13}, s[2];
  assert_int_equal(sensim_cone_surface_roots(&k, p0, p1, s), 2);
  assert_near(s[1], 8.0 / 15.0, TOL);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, p1, s), 1);
  assert_near(s[0], 0.0, TOL);
  assert_near(s[1], 0.4, TOL);
  assert_near(8 + 5 * s[1], 10.0, TOL);
  /* Entering from outside and leaving through the cap: x = -12 + 24 s,
   * z = 6 + 6 s enters at x = -z (s = 1/5) and the cap is at s = 2/3. */
  double q0[3] = {-12, 0, 6}, q1[3] = {12, 0, 12};
  assert_int_equal(sensim_cone_clip_segment(&k, q0, q1, s), 1);
  assert_near(s[0], 0.2, TOL);
  assert_near(s[1], 2.0 / 3.0, TOL);
}

static void test_cone_nearest_on_segment_is_the_clamped_projection(void **state) {
  (void)state;
  sensim_cone_shape k = {1.0, 1.0, 10.0}; /* 90 deg x 90 deg with tan 45 = 1 exactly */
  /* Line z = 4, x from -1 to 3: the foot of the apex is x = 0 (in range). */
  double p0[3] = {-1, 0, 4}, p1[3] = {3, 0, 4}, p[3];
  assert_near(sensim_cone_segment_nearest(&k, p0, p1, p), 4.0, TOL);
  assert_near(p[0], 0.0, TOL);
  /* x from 1 to 3: the projection clamps to the end x = 1. */
  double q0[3] = {1, 0, 4}, q1[3] = {3, 0, 4};
  assert_near(sensim_cone_segment_nearest(&k, q0, q1, p), sqrt(17.0), TOL);
  /* x from 2 to 6: the inside part is x in [2, 4]; nearest x = 2. */
  double r0[3] = {6, 0, 4}, r1[3] = {2, 0, 4};
  assert_near(sensim_cone_segment_nearest(&k, r0, r1, p), sqrt(20.0), TOL);
  /* Non-finite points are never inside. */
  double nan3[3] = {NAN, 0, 1}, inf3[3] = {0, 0, INFINITY}, s[2];
  assert_false(sensim_cone_inside(&k, nan3));
  assert_int_equal(sensim_cone_clip_segment(&k, nan3, p0, s), 0);
  assert_int_equal(sensim_cone_clip_segment(&k, p0, inf3, s), 0);
  assert_int_equal(sensim_cone_surface_roots(&k, nan3, p0, s), 0);
  assert_true(isinf(sensim_cone_segment_nearest(&k, nan3, p0, p)));
  assert_true(isinf(sensim_cone_triangle_nearest(&k, nan3, p0, p1, p)));
  assert_true(isinf(sensim_cone_quad_nearest_lines(&k, p0, p1, nan3, nan3, 5, p)));
  /* A zero-length segment inside. */
  double z0[3] = {0, 1, 3};
  assert_near(sensim_cone_segment_nearest(&k, z0, z0, p), sqrt(10.0), TOL);
}

int sensim_test_cone_geometry(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cone_frame_maps_sensor_axes_x_forward_to_cone_z),
      cmocka_unit_test(test_cone_inside_follows_the_elliptical_cone_equation),
      cmocka_unit_test(test_cone_quadratic_without_roots_misses),
      cmocka_unit_test(test_cone_quadratic_tangent_touches_at_one_point),
      cmocka_unit_test(test_cone_quadratic_two_roots_clip_the_chord),
      cmocka_unit_test(test_cone_segment_parallel_to_axis_enters_through_the_surface),
      cmocka_unit_test(test_cone_segment_parallel_to_a_generator_is_linear),
      cmocka_unit_test(test_cone_segment_crossing_the_end_cap_stops_at_length),
      cmocka_unit_test(test_cone_far_intersection_beyond_length_slides_to_the_cap),
      cmocka_unit_test(test_cone_nearest_on_segment_is_the_clamped_projection),
  };
  return cmocka_run_group_tests_name("cone_geometry", tests, NULL, NULL);
}
