/* tests/cone/exact_tests.c: the exact method against closed forms (cone
 * frame: x left, y up, z forward), against the lines method, which only
 * ever reports points of the triangle inside the cone and so bounds the
 * exact minimum from above, and against the optimality conditions of the
 * convex problem where the optimum is on the cone's surface. */
#include "support/testutil.h"
#include "cone/cone_groups.h"

#define TOL 1e-12

static void test_cone_exact_face_is_nearest_feature(void **state) {
  (void)state;
  sensim_cone_shape k = cone_shape_deg(90, 90, 10);
  double a[3] = {-5, -5, 2}, b[3] = {5, -5, 2}, c[3] = {0, 5, 2}, p[3];
  assert_near(sensim_cone_triangle_nearest(&k, a, b, c, p), 2.0, TOL);
  assert_near(p[0], 0.0, TOL);
  assert_near(p[1], 0.0, TOL);
  /* A tilted face: plane n.p = 3 with unit n = (0, 0.6, 0.8); the foot 3 n
   * = (0, 1.8, 2.4) lies inside the triangle and the cone. */
  double n[3] = {0, 0.6, 0.8}, t1[3] = {1, 0, 0}, t2[3] = {0, 0.8, -0.6}, f[3] = {0, 1.8, 2.4};
  double v[3][3];
  const double uv[3][2] = {{-3, -3}, {3, -3}, {0, 3}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) v[i][j] = f[j] + uv[i][0] * t1[j] + uv[i][1] * t2[j];
  assert_near(sensim_cone_triangle_nearest(&k, v[0], v[1], v[2], p), 3.0, TOL);
  for (int j = 0; j < 3; j++) assert_near(p[j], 3.0 * n[j], TOL);
}

static void test_cone_exact_edge_is_nearest_feature(void **state) {
  (void)state;
  sensim_cone_shape k = cone_shape_deg(90, 90, 10);
  /* In the plane z = 2 right of x = 0.5: the nearest point is the foot on
   * the edge x = 0.5, (0.5, 0, 2). */
  double a[3] = {0.5, -3, 2}, b[3] = {0.5, 3, 2}, c[3] = {3, 0, 2}, p[3];
  assert_near(sensim_cone_triangle_nearest(&k, a, b, c, p), sqrt(4.25), TOL);
  assert_near(p[0], 0.5, TOL);
  assert_near(p[1], 0.0, TOL);
}

static void test_cone_exact_vertex_is_nearest_feature(void **state) {
  (void)state;
  sensim_cone_shape k = cone_shape_deg(90, 90, 10);
  double a[3] = {0.5, 0.5, 2}, b[3] = {3, 0.5, 2}, c[3] = {0.5, 3, 2}, p[3];
  assert_near(sensim_cone_triangle_nearest(&k, a, b, c, p), sqrt(4.5), TOL);
  assert_near(p[0], 0.5, TOL);
  assert_near(p[1], 0.5, TOL);
}

static void test_cone_exact_object_partly_outside_has_nearest_on_cone_surface(void **state) {
  (void)state;
  /* A wall x = w parallel to the axis: min w^2 + y^2 + z^2 subject to
   * w^2/a^2 + y^2/b^2 <= z^2 is at y = 0, z = w/a: distance
   * w sqrt(1 + 1/a^2) = w / sin(theta/2). The wall's own nearest point
   * (w, 0, 0) is outside the cone. */
  const double thetas[] = {90, 60, 30}, phis[] = {90, 100, 20};
  for (int i = 0; i < 3; i++) {
    sensim_cone_shape k = cone_shape_deg(thetas[i], phis[i], 50);
    double w = 1.3, p[3];
    double a[3] = {w, -40, 0}, b[3] = {w, 40, 0}, c[3] = {w, 0, 45};
    double expect = w / sin(0.5 * thetas[i] * M_PI / 180.0);
    assert_near(sensim_cone_triangle_nearest(&k, a, b, c, p), expect, TOL * 10);
    assert_near(p[1], 0.0, 1e-9);
    assert_near(p[2], w / k.tan_h, 1e-9);
    /* A floor y = -w: distance w / sin(phi/2), nearest at x = 0. */
    double f0[3] = {-40, -w, 0}, f1[3] = {0, -w, 45}, f2[3] = {40, -w, 0};
    double ef = w / sin(0.5 * phis[i] * M_PI / 180.0);
    assert_near(sensim_cone_triangle_nearest(&k, f0, f1, f2, p), ef, TOL * 10);
    assert_near(p[0], 0.0, 1e-9);
  }
  /* Part of a face beyond the cap: the plane z = 12 with r = 10 is out. */
  sensim_cone_shape k = cone_shape_deg(90, 90, 10);
  double a[3] = {-5, -5, 12}, b[3] = {5, -5, 12}, c[3] = {0, 5, 12}, p[3];
  assert_true(isinf(sensim_cone_triangle_nearest(&k, a, b, c, p)));
  /* A wall beyond the cone's reach (x = 12 > r tan 45). */
  double d0[3] = {12, -5, 0}, d1[3] = {12, 5, 0}, d2[3] = {12, 0, 30};
  assert_true(isinf(sensim_cone_triangle_nearest(&k, d0, d1, d2, p)));
  /* A tilted wall x = w + m z (w = 1, m = 1/2) and the 45 deg cone: on the
   * surface |p| = sqrt(2) z, and the wall meets the cone where
   * |w + m z| <= z, i.e. z >= w / (1 - m) = 2: nearest (2, 0, 2), distance
   * 2 sqrt(2). The wall's own nearest point has z = -w m / (1 + m^2) < 0. */
  sensim_cone_shape k50 = cone_shape_deg(90, 90, 50);
  double s0[3] = {1, -30, 0}, s1[3] = {1, 30, 0}, s2[3] = {16, 0, 30};
  assert_near(sensim_cone_triangle_nearest(&k50, s0, s1, s2, p), 2.0 * sqrt(2.0), 1e-9);
  assert_near(p[0], 2.0, 1e-9);
  assert_near(p[2], 2.0, 1e-9);
  /* The end cap active: the plane x + 3 z = 35 has its foot (3.5, 0, 10.5)
   * beyond r = 10; within the plane |p|^2 is a paraboloid about the foot,
   * so the optimum under z <= 10 is the foot moved down the plane's
   * steepest z descent (-0.3, 0, 0.1) to z = 10: (5, 0, 10), inside the
   * cap disc (|x| <= 10). */
  double c0[3] = {11, -6, 8}, c1[3] = {11, 6, 8}, c2[3] = {-1, 0, 12};
  assert_near(sensim_cone_triangle_nearest(&k, c0, c1, c2, p), sqrt(125.0), 1e-9);
  assert_near(p[0], 5.0, 1e-9);
  assert_near(p[2], 10.0, 1e-9);
}

/* A small deterministic generator (Knuth's MMIX LCG constants) for the
 * cross-check below; the test needs variety, not statistical quality. */
static double lcg_uniform(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* If pe lies on the cone's lateral surface strictly inside the triangle and
 * below the cap, check the optimality (KKT) conditions of the convex
 * problem min |p|^2/2 s.t. p in T's plane, f(p) <= 0: p = -mu grad f - lambda n
 * with mu >= 0, i.e. p, n, grad f coplanar and the in-plane parts of p and
 * grad f opposed. Returns 1 if the point was such an arc point. */
static int check_arc_kkt(const sensim_cone_shape *k, const double v[3][3], const double pe[3]) {
  double a2 = k->tan_h * k->tan_h, b2 = k->tan_v * k->tan_v;
  double f = pe[0] * pe[0] / a2 + pe[1] * pe[1] / b2 - pe[2] * pe[2];
  if (!(fabs(f) <= 1e-9 * pe[2] * pe[2]) || !(pe[2] < k->length * (1 - 1e-6))) return 0;
  double e0[3], e1[3], e2[3], n[3];
  for (int i = 0; i < 3; i++) {
    e0[i] = v[1][i] - v[0][i];
    e1[i] = v[2][i] - v[0][i];
    e2[i] = pe[i] - v[0][i];
  }
  n[0] = e0[1] * e1[2] - e0[2] * e1[1];
  n[1] = e0[2] * e1[0] - e0[0] * e1[2];
  n[2] = e0[0] * e1[1] - e0[1] * e1[0];
  double d00 = 0, d01 = 0, d11 = 0, d20 = 0, d21 = 0, nn = 0;
  for (int i = 0; i < 3; i++) {
    d00 += e0[i] * e0[i];
    d01 += e0[i] * e1[i];
    d11 += e1[i] * e1[i];
    d20 += e2[i] * e0[i];
    d21 += e2[i] * e1[i];
    nn += n[i] * n[i];
  }
  double den = d00 * d11 - d01 * d01, bv = (d11 * d20 - d01 * d21) / den, bw = (d00 * d21 - d01 * d20) / den;
  if (!(bv > 1e-6 && bw > 1e-6 && 1 - bv - bw > 1e-6)) return 0;
  nn = sqrt(nn);
  double g[3] = {2 * pe[0] / a2, 2 * pe[1] / b2, -2 * pe[2]}, gn = 0, pn = 0, pp = 0, gg = 0;
  for (int i = 0; i < 3; i++) {
    n[i] /= nn;
    gn += g[i] * n[i];
    pn += pe[i] * n[i];
  }
  double gt[3], pt[3], dot = 0;
  for (int i = 0; i < 3; i++) {
    gt[i] = g[i] - gn * n[i];
    pt[i] = pe[i] - pn * n[i];
    dot += gt[i] * pt[i];
    pp += pt[i] * pt[i];
    gg += gt[i] * gt[i];
  }
  /* Parallel (|cos| = 1) and opposed (cos = -1) in the plane. */
  double c = dot / sqrt(pp * gg);
  assert_near(c, -1.0, 1e-9);
  return 1;
}

static void test_cone_exact_is_a_lower_bound_of_dense_lines_and_meets_them(void **state) {
  (void)state;
  /* For random triangles near an elliptical cone: the exact distance is
   * never above the lines method's (which reports feasible points), the
   * exact point lies in the cone, and with 4000 lines the two agree to
   * the line spacing times a factor for the slope of |p| across lines
   * (|grad |p|| <= 1): below 2 * diameter / 3999. */
  sensim_cone_shape k = cone_shape_deg(70, 40, 9);
  uint64_t seed = 12345;
  int found = 0, arc = 0;
  for (int it = 0; it < 300; it++) {
    double v[3][3];
    for (int i = 0; i < 3; i++) {
      v[i][0] = -6 + 12 * lcg_uniform(&seed);
      v[i][1] = -4 + 8 * lcg_uniform(&seed);
      v[i][2] = -1 + 12 * lcg_uniform(&seed);
    }
    double pe[3], pl[3];
    double de = sensim_cone_triangle_nearest(&k, v[0], v[1], v[2], pe);
    double dl = sensim_cone_quad_nearest_lines(&k, v[0], v[1], v[2], v[2], 4000, pl);
    if (isinf(de)) {
      assert_true(isinf(dl));
      continue;
    }
    found++;
    assert_true(de <= dl + 1e-12);
    /* The exact point is in the cone (to rounding). */
    double u = pe[0] / k.tan_h, w = pe[1] / k.tan_v;
    assert_true(u * u + w * w <= pe[2] * pe[2] * (1 + 1e-9) + 1e-12);
    assert_true(pe[2] >= -1e-12 && pe[2] <= k.length + 1e-9);
    arc += check_arc_kkt(&k, (const double (*)[3])v, pe);
    if (isfinite(dl)) {
      double diam = 0;
      for (int i = 0; i < 3; i++) {
        double e[3] = {v[i][0] - v[(i + 1) % 3][0], v[i][1] - v[(i + 1) % 3][1], v[i][2] - v[(i + 1) % 3][2]};
        double l = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (l > diam) diam = l;
      }
      assert_true(dl - de <= 2.0 * diam / 3999.0 + 1e-9);
    }
  }
  assert_true(found > 50);
  /* Enough optima on the conic arc for the KKT check to mean something. */
  assert_true(arc >= 10);
}

int sensim_test_cone_exact(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cone_exact_face_is_nearest_feature),
      cmocka_unit_test(test_cone_exact_edge_is_nearest_feature),
      cmocka_unit_test(test_cone_exact_vertex_is_nearest_feature),
      cmocka_unit_test(test_cone_exact_object_partly_outside_has_nearest_on_cone_surface),
      cmocka_unit_test(test_cone_exact_is_a_lower_bound_of_dense_lines_and_meets_them),
  };
  return cmocka_run_group_tests_name("cone_exact", tests, NULL, NULL);
}
