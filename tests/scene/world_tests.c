/* tests/scene/world_tests.c: world parameters, lights, bodies, the clock's
 * bad inputs, mesh validation, and the primitive shapes (src/scene/
 * world.c, body.c, mesh.c, shapes.c) against closed-form geometry. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "support/testutil.h"
#include "core/vecmath.h"
#include "scene/scene.h"

static const double PI = 3.14159265358979323846;

/* ---- world parameters ------------------------------------------------------- */

static void expect_world_rejected(const sensim_world_params *p) {
  sensim_world *w = (sensim_world *)(uintptr_t)0x1;
  assert_int_equal(sensim_world_create(p, &w), SENSIM_EINVAL);
  assert_true(w == (sensim_world *)(uintptr_t)0x1); /* out untouched */
  assert_true(sensim_last_error()[0] != '\0');
}

static void test_world_params_validation(void **state) {
  (void)state;
  sensim_world_params p;
  sensim_world_params_init(&p);
  /* Documented defaults. */
  assert_int_equal(p.seed, 1);
  assert_int_equal(p.threads, 2);
  assert_true(p.gravity == SENSIM_GRAVITY_NORMAL); /* resolved at create */
  assert_near(p.origin_lat, 0, 0);
  assert_near(p.ambient, 0.1, 1e-7);
  sensim_world_params bad = p;
  bad.threads = -1;
  expect_world_rejected(&bad);
  bad = p;
  bad.origin_lat = 91.0;
  expect_world_rejected(&bad);
  bad = p;
  bad.origin_lat = NAN;
  expect_world_rejected(&bad);
  bad = p;
  bad.origin_lon = 180.5;
  expect_world_rejected(&bad);
  bad = p;
  bad.origin_height = NAN;
  expect_world_rejected(&bad);
  bad = p;
  bad.origin_height = INFINITY;
  expect_world_rejected(&bad);
  bad = p;
  bad.gravity = -9.81;
  expect_world_rejected(&bad);
  bad = p;
  bad.gravity = NAN;
  expect_world_rejected(&bad);
  bad = p;
  bad.background[1] = -0.5f;
  expect_world_rejected(&bad);
  bad = p;
  bad.ambient = NAN;
  expect_world_rejected(&bad);
  assert_int_equal(sensim_world_create(NULL, &(sensim_world *){NULL}), SENSIM_EINVAL);
  assert_int_equal(sensim_world_create(&p, NULL), SENSIM_EINVAL);
  /* The edges of the domains are accepted and the params are copied. */
  sensim_world_params edge = p;
  edge.origin_lat = -90.0;
  edge.origin_lon = 180.0;
  edge.gravity = 0.0;
  edge.threads = 0;
  edge.seed = 0xDEADBEEFCAFEull;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&edge, &w));
  edge.seed = 0;
  const sensim_world_params *got = sensim_world_params_get(w);
  assert_true(got->seed == 0xDEADBEEFCAFEull);
  assert_near(got->origin_lat, -90.0, 0);
  assert_true(isinf(sensim_world_time(w)) && sensim_world_time(w) < 0);
  sensim_world_destroy(w);
  sensim_world_destroy(NULL);
}

/* ---- lights ---------------------------------------------------------------------- */

static void test_lights_added_and_bad_lights_rejected(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_light l;
  sensim_light_init(&l);
  assert_int_equal(l.kind, SENSIM_LIGHT_DIRECTIONAL);
  assert_near(l.direction.z, -1.0, 0);
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_light pt = l;
  pt.kind = SENSIM_LIGHT_POINT;
  pt.position = v3(1, 2, 10);
  pt.direction = v3(0, 0, 0); /* unused by point lights */
  pt.intensity = 50.0f;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &pt));
  assert_int_equal(w->nlights, 2);
  assert_near(w->lights[1].position.z, 10.0, 0);

  enum { NBAD = 9 };
  sensim_light bad[NBAD];
  for (int i = 0; i < NBAD; i++) bad[i] = l;
  bad[0].kind = (sensim_light_kind)7;
  bad[1].direction = v3(0, 0, 0);
  bad[2].position.x = NAN;
  bad[3].direction.y = INFINITY;
  bad[4].intensity = -1.0f;
  bad[5].intensity = NAN;
  bad[6].color[2] = -0.1f;
  bad[7].intensity = INFINITY;
  bad[8].color[0] = 1.5f; /* world.h: "each in [0, 1]" */
  int accepted = -1;
  for (int i = 0; i < NBAD; i++) {
    sensim_status rc = sensim_light_add(w, &bad[i]);
    if (rc == SENSIM_OK) {
      if (accepted < 0) accepted = i;
      w->nlights--; /* undo, so the remaining cases are still checked */
      continue;
    }
    assert_int_equal(rc, SENSIM_EINVAL);
    assert_int_equal(w->nlights, 2);
  }
  assert_int_equal(sensim_light_add(w, NULL), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l)); /* still usable */
  assert_int_equal(w->nlights, 3);
  sensim_world_destroy(w);
  if (accepted >= 0) fail_msg("bad light %d was accepted", accepted);
}

/* ---- bodies -------------------------------------------------------------------------- */

static sensim_mesh *unit_box(sensim_world *w) {
  sensim_shape s = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &s, NULL, &m));
  return m;
}

static void test_body_with_mesh_of_another_world_is_rejected(void **state) {
  (void)state;
  sensim_world *w1 = test_world(0, 1), *w2 = test_world(0, 2);
  sensim_mesh *m2 = unit_box(w2);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m2;
  sensim_body *b = NULL;
  assert_int_equal(sensim_body_create(w1, &bp, &b), SENSIM_EINVAL);
  assert_null(b);
  assert_int_equal(w1->nbodies, 0);
  /* A bad creation pose is refused as well. */
  bp.mesh = unit_box(w1);
  bp.pose.rot = q_make(0.5, 0, 0, 0);
  assert_int_equal(sensim_body_create(w1, &bp, &b), SENSIM_EINVAL);
  bp.pose = sensim_pose_identity();
  bp.pose.pos.x = NAN;
  assert_int_equal(sensim_body_create(w1, &bp, &b), SENSIM_EINVAL);
  assert_int_equal(w1->nbodies, 0);
  /* The same mesh in its own world is fine, and instance ids are unique. */
  bp.pose = sensim_pose_identity();
  sensim_body *b1 = NULL, *b2 = NULL, *b3 = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w1, &bp, &b1));
  bp.instance_id = 40;
  SENSIM_OK_OR_FAIL(sensim_body_create(w1, &bp, &b2));
  bp.instance_id = 0;
  SENSIM_OK_OR_FAIL(sensim_body_create(w1, &bp, &b3));
  assert_int_equal(w1->nbodies, 3);
  assert_int_equal(b2->instance_id, 40);
  assert_true(b1->instance_id != 0 && b3->instance_id != 0);
  assert_true(b1->instance_id != b2->instance_id && b3->instance_id != b2->instance_id &&
              b1->instance_id != b3->instance_id);
  sensim_world_destroy(w1);
  sensim_world_destroy(w2);
}

/* ---- the clock -------------------------------------------------------------------------- */

static void test_advance_rejects_nan_and_backwards_time(void **state) {
  (void)state;
  sensim_world *w = test_world(2, 1);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 1.0));
  assert_near(sensim_world_time(w), 1.0, 0);
  assert_int_equal(sensim_world_advance(w, NAN), SENSIM_EINVAL);
  assert_int_equal(sensim_world_advance(w, INFINITY), SENSIM_EINVAL);
  assert_near(sensim_world_time(w), 1.0, 0);
  assert_int_equal(sensim_world_advance(w, 0.5), SENSIM_ESTATE);
  assert_true(sensim_last_error()[0] != '\0');
  assert_near(sensim_world_time(w), 1.0, 0);
  assert_int_equal(sensim_world_advance(NULL, 2.0), SENSIM_EINVAL);
  /* Usable: the same time again and a later one are fine. */
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 1.0));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 2.0));
  assert_near(sensim_world_time(w), 2.0, 0);
  sensim_world_destroy(w);
}

/* ---- meshes --------------------------------------------------------------------------------- */

static void expect_mesh_rejected(sensim_world *w, const float *v, size_t nv, const uint32_t *ix, size_t nt,
                                 const sensim_material *m) {
  size_t before = w->nmeshes;
  sensim_mesh *out = NULL;
  sensim_mesh_desc d = test_mesh_desc(v, nv, ix, nt, m);
  assert_int_equal(sensim_mesh_create(w, &d, &out), SENSIM_EINVAL);
  assert_null(out);
  assert_int_equal(w->nmeshes, before);
  assert_true(sensim_last_error()[0] != '\0');
}

static void test_mesh_desc_init_needs_arrays_and_gives_the_default_material(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_mesh_desc d;
  memset(&d, 0xAB, sizeof d); /* init must not rely on a zeroed struct */
  sensim_mesh_desc_init(&d);
  sensim_mesh *m = NULL;
  assert_int_equal(sensim_mesh_create(w, &d, &m), SENSIM_EINVAL);
  assert_null(m);
  assert_int_equal(sensim_mesh_create(w, NULL, &m), SENSIM_EINVAL);
  const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const uint32_t ix[3] = {0, 1, 2};
  d.vertices = v, d.nvert = 3, d.indices = ix, d.ntri = 1;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  sensim_material def;
  sensim_material_init(&def);
  assert_memory_equal(&m->material, &def, sizeof def);
  assert_null(m->uvs);
  assert_null(m->tri_reflectance);
  sensim_world_destroy(w);
}

static void test_mesh_create_validation_leaves_world_unchanged(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  float v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const uint32_t ix[6] = {0, 1, 2, 0, 3, 1};
  sensim_mesh *m = NULL;
  sensim_mesh_desc d = test_mesh_desc(v, 4, ix, 2, NULL);
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  assert_int_equal(w->nmeshes, 1);
  assert_int_equal(sensim_mesh_triangle_count(m), 2);
  /* Copied: changing the caller's array does not change the mesh. */
  v[3] = 7.0f;
  assert_near(m->vertices[3], 1.0, 0);
  v[3] = 1.0f;
  /* Default material. */
  assert_near(m->material.base_color[0], 0.5, 0);
  assert_near(m->material.reflectance, 0.5, 0);

  float vn[12];
  memcpy(vn, v, sizeof v);
  vn[7] = NAN;
  expect_mesh_rejected(w, vn, 4, ix, 2, NULL);
  vn[7] = INFINITY;
  expect_mesh_rejected(w, vn, 4, ix, 2, NULL);
  const uint32_t out_of_range[6] = {0, 1, 2, 0, 4, 1};
  expect_mesh_rejected(w, v, 4, out_of_range, 2, NULL);
  expect_mesh_rejected(w, v, 4, ix, 0, NULL);
  expect_mesh_rejected(w, v, 2, ix, 1, NULL);
  expect_mesh_rejected(w, NULL, 4, ix, 2, NULL);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_material bad = mat;
  bad.roughness = 1.5f;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.reflectance = -0.1f;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.base_color[2] = NAN;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.metallic = 2.0f;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.emission[1] = -1.0f;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.ior = 0.0f;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.ior = NAN;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.transmission = 1.01f;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  bad = mat;
  bad.alpha_mode = (sensim_alpha_mode)7;
  expect_mesh_rejected(w, v, 4, ix, 2, &bad);
  /* Edges of [0, 1] are fine; the world is still usable. */
  mat.roughness = 0.0f;
  mat.metallic = 1.0f;
  mat.reflectance = 1.0f;
  d.material = &mat;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  assert_int_equal(w->nmeshes, 2);
  assert_near(m->material.metallic, 1.0, 0);
  sensim_world_destroy(w);
}

/* ---- shapes --------------------------------------------------------------------------------- */

static sensim_mesh *shape(sensim_world *w, sensim_shape_kind k, double x, double y, double z, int seg) {
  sensim_shape s;
  s.kind = k;
  s.size = v3(x, y, z);
  s.segments = seg;
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &s, NULL, &m));
  return m;
}

static sensim_vec3 vtx(const sensim_mesh *m, uint32_t i) {
  return v3(m->vertices[3 * i], m->vertices[3 * i + 1], m->vertices[3 * i + 2]);
}

/* Signed volume by the divergence theorem: sum over triangles of
 * v0 . (v1 x v2) / 6. Positive for a closed surface wound counter-clockwise
 * seen from outside (outward normals). */
static double signed_volume(const sensim_mesh *m) {
  double v = 0;
  for (size_t t = 0; t < m->ntri; t++) {
    const uint32_t *ix = &m->indices[3 * t];
    v += v3_dot(vtx(m, ix[0]), v3_cross(vtx(m, ix[1]), vtx(m, ix[2])));
  }
  return v / 6.0;
}

/* Every edge of a closed, consistently wound surface is used once in each
 * direction. Vertices are compared by position, since shapes duplicate
 * vertices along seams and edges. */
static int edges_pair_up(const sensim_mesh *m) {
  for (size_t t = 0; t < m->ntri; t++)
    for (int e = 0; e < 3; e++) {
      sensim_vec3 a = vtx(m, m->indices[3 * t + e]), b = vtx(m, m->indices[3 * t + (e + 1) % 3]);
      if (v3_norm(v3_sub(a, b)) < 1e-6) continue; /* degenerate pole edge */
      int rev = 0, fwd = 0;
      for (size_t u = 0; u < m->ntri; u++)
        for (int f = 0; f < 3; f++) {
          sensim_vec3 c = vtx(m, m->indices[3 * u + f]), d = vtx(m, m->indices[3 * u + (f + 1) % 3]);
          if (v3_norm(v3_sub(c, b)) < 1e-6 && v3_norm(v3_sub(d, a)) < 1e-6) rev++;
          if (v3_norm(v3_sub(c, a)) < 1e-6 && v3_norm(v3_sub(d, b)) < 1e-6) fwd++;
        }
      if (rev != 1 || fwd != 1) return 0;
    }
  return 1;
}

static void bounds(const sensim_mesh *m, sensim_vec3 *lo, sensim_vec3 *hi) {
  *lo = v3(INFINITY, INFINITY, INFINITY);
  *hi = v3(-INFINITY, -INFINITY, -INFINITY);
  for (size_t i = 0; i < m->nvert; i++) {
    sensim_vec3 p = vtx(m, (uint32_t)i);
    lo->x = fmin(lo->x, p.x), lo->y = fmin(lo->y, p.y), lo->z = fmin(lo->z, p.z);
    hi->x = fmax(hi->x, p.x), hi->y = fmax(hi->y, p.y), hi->z = fmax(hi->z, p.z);
  }
}

static void test_box_spans_its_size_and_has_its_volume(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_mesh *m = shape(w, SENSIM_SHAPE_BOX, 2.0, 0.5, 3.0, 0);
  assert_int_equal(sensim_mesh_triangle_count(m), 12);
  sensim_vec3 lo, hi;
  bounds(m, &lo, &hi);
  /* Exactly +-size/2 (all values representable in float). */
  assert_true(lo.x == -1.0 && hi.x == 1.0 && lo.y == -0.25 && hi.y == 0.25 && lo.z == -1.5 && hi.z == 1.5);
  for (size_t i = 0; i < m->nvert; i++) {
    sensim_vec3 p = vtx(m, (uint32_t)i);
    assert_true(fabs(p.x) == 1.0 && fabs(p.y) == 0.25 && fabs(p.z) == 1.5); /* only corners */
  }
  assert_near(signed_volume(m), 2.0 * 0.5 * 3.0, 1e-6);
  assert_true(edges_pair_up(m));
  sensim_world_destroy(w);
}

/* A UV sphere with its vertices on the sphere is inscribed in it, so its
 * volume lies between that of the ball of its smallest face-plane distance
 * (which it contains, being convex around the centre) and 4/3 pi r^3.
 * Exactly: each band between colatitudes th_i and th_i+1 (i = 0..rings-1,
 * th_i = pi i / rings) is a frustum of a regular n-gon pyramid, whose
 * cross-sections are regular n-gons of circumradius linear in z, so its
 * volume is h/3 (A1 + A2 + sqrt(A1 A2)) with A = n/2 rho^2 sin(2 pi/n),
 * rho = r sin th, h = r (cos th_i - cos th_i+1). */
static double uv_sphere_volume(double r, int n, int rings) {
  double v = 0;
  for (int i = 0; i < rings; i++) {
    double t0 = PI * i / rings, t1 = PI * (i + 1) / rings;
    double a0 = 0.5 * n * pow(r * sin(t0), 2) * sin(2 * PI / n);
    double a1 = 0.5 * n * pow(r * sin(t1), 2) * sin(2 * PI / n);
    v += r * (cos(t0) - cos(t1)) / 3.0 * (a0 + a1 + sqrt(a0 * a1));
  }
  return v;
}

static void test_sphere_vertices_on_radius_and_volume_bracketed(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const double r = 1.7;
  const int segs[] = {8, 32, 64};
  for (int k = 0; k < 3; k++) {
    int seg = segs[k], rings = seg / 2;
    sensim_mesh *m = shape(w, SENSIM_SHAPE_SPHERE, r, 0, 0, seg);
    /* Two cap bands of seg triangles plus rings - 2 bands of 2 seg. */
    assert_int_equal(sensim_mesh_triangle_count(m), (size_t)(2 * seg * (rings - 1)));
    sensim_vec3 lo, hi;
    bounds(m, &lo, &hi);
    assert_near(hi.z, r, 1e-6);
    assert_near(lo.z, -r, 1e-6);
    for (size_t i = 0; i < m->nvert; i++) assert_near(v3_norm(vtx(m, (uint32_t)i)), r, 1e-6 * r);
    double d_min = INFINITY;
    for (size_t t = 0; t < m->ntri; t++) {
      sensim_vec3 a = vtx(m, m->indices[3 * t]), b = vtx(m, m->indices[3 * t + 1]), c = vtx(m, m->indices[3 * t + 2]);
      sensim_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
      double nn = v3_norm(n);
      assert_true(nn > 0); /* no degenerate triangles */
      double d = v3_dot(n, a) / nn;
      assert_true(d > 0); /* every face normal points away from the centre */
      d_min = fmin(d_min, d);
    }
    double V = signed_volume(m), Vs = 4.0 / 3.0 * PI * r * r * r;
    assert_true(V > 0);
    assert_true(V <= Vs * (1 + 1e-6));
    assert_true(V >= 4.0 / 3.0 * PI * pow(d_min, 3) * (1 - 1e-6));
    assert_near(V, uv_sphere_volume(r, seg, rings), 1e-5 * Vs);
    if (seg == 64) assert_near(V / Vs, 1.0, 0.01);
    if (seg == 8) assert_true(edges_pair_up(m)); /* quadratic in triangles */
  }
  sensim_world_destroy(w);
}

/* Cylinder and cone over a regular n-gon inscribed in the circle of radius
 * r: base area (n/2) r^2 sin(2 pi / n), volumes A h and A h / 3; they
 * approach pi r^2 h and pi r^2 h / 3 from below with relative error
 * 1 - sin(x)/x <= x^2/6, x = 2 pi / n. */
static void test_cylinder_and_cone_match_prism_and_pyramid_volumes(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const double r = 0.8, h = 2.5;
  const int segs[] = {3, 12, 32};
  for (int k = 0; k < 3; k++) {
    int n = segs[k];
    double x = 2.0 * PI / n, A = 0.5 * n * r * r * sin(x);
    sensim_mesh *cyl = shape(w, SENSIM_SHAPE_CYLINDER, r, 0, h, n);
    sensim_mesh *cone = shape(w, SENSIM_SHAPE_CONE, r, 0, h, n);
    /* Cylinder: base and top fans and a quad per side; cone: fan and side. */
    assert_int_equal(sensim_mesh_triangle_count(cyl), (size_t)(4 * n));
    assert_int_equal(sensim_mesh_triangle_count(cone), (size_t)(2 * n));
    assert_near(signed_volume(cyl), A * h, 1e-5 * A * h);
    assert_near(signed_volume(cone), A * h / 3.0, 1e-5 * A * h);
    double rel = x * x / 6.0;
    assert_near(signed_volume(cyl), PI * r * r * h, rel * PI * r * r * h);
    assert_near(signed_volume(cone), PI * r * r * h / 3.0, rel * PI * r * r * h / 3.0);
    sensim_vec3 lo, hi;
    bounds(cyl, &lo, &hi);
    assert_true(lo.z == 0.0f && hi.z == (float)h); /* standing on z = 0 */
    bounds(cone, &lo, &hi);
    assert_true(lo.z == 0.0f && hi.z == (float)h);
    /* The apex: the only vertex of the cone above the base sits on the axis. */
    for (size_t i = 0; i < cone->nvert; i++) {
      sensim_vec3 p = vtx(cone, (uint32_t)i);
      if (p.z > 0) {
        assert_near(p.z, h, 1e-6);
        assert_near(p.x, 0, 0);
        assert_near(p.y, 0, 0);
      } else {
        double rho = hypot(p.x, p.y);
        assert_true(rho == 0.0 || fabs(rho - r) < 1e-6);
      }
    }
    assert_true(edges_pair_up(cyl));
    assert_true(edges_pair_up(cone));
  }
  /* Default segment count is 32. */
  sensim_mesh *def = shape(w, SENSIM_SHAPE_CYLINDER, 1, 0, 1, 0);
  assert_int_equal(sensim_mesh_triangle_count(def), 4 * 32);
  sensim_world_destroy(w);
}

static void test_plane_spans_size_and_faces_up(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_mesh *m = shape(w, SENSIM_SHAPE_PLANE, 4.0, 6.0, 0, 0);
  assert_int_equal(sensim_mesh_triangle_count(m), 2);
  sensim_vec3 lo, hi;
  bounds(m, &lo, &hi);
  assert_true(lo.x == -2.0 && hi.x == 2.0 && lo.y == -3.0 && hi.y == 3.0 && lo.z == 0 && hi.z == 0);
  double area = 0;
  for (size_t t = 0; t < m->ntri; t++) {
    sensim_vec3 a = vtx(m, m->indices[3 * t]), b = vtx(m, m->indices[3 * t + 1]), c = vtx(m, m->indices[3 * t + 2]);
    sensim_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
    assert_true(n.z > 0); /* counter-clockwise seen from +Z */
    area += 0.5 * n.z;
  }
  assert_near(area, 24.0, 1e-9);
  sensim_world_destroy(w);
}

static void test_bad_shapes_rejected_and_mesh_count_unchanged(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const sensim_shape bad[] = {
      {SENSIM_SHAPE_BOX, {0, 1, 1}, 0},          {SENSIM_SHAPE_BOX, {1, -1, 1}, 0},
      {SENSIM_SHAPE_BOX, {1, 1, NAN}, 0},        {SENSIM_SHAPE_SPHERE, {-1, 0, 0}, 0},
      {SENSIM_SHAPE_SPHERE, {INFINITY, 0, 0}, 0}, {SENSIM_SHAPE_SPHERE, {1, 0, 0}, 2},
      {SENSIM_SHAPE_SPHERE, {1, 0, 0}, -4},      {SENSIM_SHAPE_CYLINDER, {1, 0, 0}, 0},
      {SENSIM_SHAPE_CONE, {0, 0, 1}, 0},         {SENSIM_SHAPE_CONE, {1, 0, NAN}, 0},
      {SENSIM_SHAPE_PLANE, {1, 0, 0}, 0},        {(sensim_shape_kind)99, {1, 1, 1}, 0},
  };
  sensim_mesh *m = NULL;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (sensim_mesh_create_shape(w, &bad[i], NULL, &m) != SENSIM_EINVAL) fail_msg("bad shape %zu accepted", i);
    assert_int_equal(w->nmeshes, 0);
  }
  sensim_material mat;
  sensim_material_init(&mat);
  mat.roughness = -1.0f;
  const sensim_shape ok = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  assert_int_equal(sensim_mesh_create_shape(w, &ok, &mat, &m), SENSIM_EINVAL);
  assert_int_equal(w->nmeshes, 0);
  assert_null(m);
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &ok, NULL, &m));
  assert_int_equal(w->nmeshes, 1);
  sensim_world_destroy(w);
}

int sensim_test_world(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_world_params_validation),
      cmocka_unit_test(test_lights_added_and_bad_lights_rejected),
      cmocka_unit_test(test_body_with_mesh_of_another_world_is_rejected),
      cmocka_unit_test(test_advance_rejects_nan_and_backwards_time),
      cmocka_unit_test(test_mesh_desc_init_needs_arrays_and_gives_the_default_material),
      cmocka_unit_test(test_mesh_create_validation_leaves_world_unchanged),
      cmocka_unit_test(test_box_spans_its_size_and_has_its_volume),
      cmocka_unit_test(test_sphere_vertices_on_radius_and_volume_bracketed),
      cmocka_unit_test(test_cylinder_and_cone_match_prism_and_pyramid_volumes),
      cmocka_unit_test(test_plane_spans_size_and_faces_up),
      cmocka_unit_test(test_bad_shapes_rejected_and_mesh_count_unchanged),
  };
  return cmocka_run_group_tests_name("world", tests, NULL, NULL);
}
