/* The kernel: motion-blurred instances hit where the keyframes put them at
 * each ray's time, packets agree with single rays, normals are in the world. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rt/rt.h"
#include "runtime/runtime_internal.h"
#include "support/testutil.h"

typedef struct fixture {
  sensim_world *w;
  sensim_body *wall;
  sensim_snapshot *snap;
  sensim_rt_binding *bind;
  sensim_rt_view *view;
} fixture;

/* A wall (box 0.2 x 4 x 4) that moves from x = 5 at t = 0 to x = 7 at
 * t = 1, pushed at 100 Hz as poses only. */
static void setup_fixture(fixture *fx, double t0, double t1) {
  fx->w = test_world(0, 1);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.2, 4, 4}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(fx->w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  SENSIM_OK_OR_FAIL(sensim_body_create(fx->w, &bp, &fx->wall));
  for (int i = 0; i <= 100; i++) {
    double t = i * 0.01;
    sensim_body_state s = test_state_xyzyaw(5.0 + 2.0 * t, 0, 0, 0);
    s.flags = 0;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(fx->wall, t, &s));
  }
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(fx->w, t0, t1, 1, -1, &fx->snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(fx->w, fx->snap, &fx->bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(fx->bind, fx->snap, &fx->view));
}

static void teardown_fixture(fixture *fx) {
  sensim__rt_view_destroy(fx->view);
  sensim__rt_binding_free(fx->bind);
  sensim__snapshot_free(fx->snap);
  sensim_world_destroy(fx->w);
}

static sensim_rt_ray ray_x(double y, double time) {
  sensim_rt_ray r = {{0, (float)y, 0}, {1, 0, 0}, 0.0f, INFINITY, time};
  return r;
}

static void test_rt_ray_time_sees_body_where_keyframes_put_it(void **state) {
  (void)state;
  fixture fx;
  setup_fixture(&fx, 0.0, 1.0);
  for (int k = 0; k <= 10; k++) {
    double t = k * 0.1;
    sensim_rt_ray r = ray_x(0.3, t);
    sensim_rt_hit h;
    sensim__rt_intersect(fx.view, &r, &h, 1, 0);
    assert_int_equal(h.body, 0);
    /* Front face at x = 5 + 2 t - 0.1. */
    assert_near(h.t, 4.9 + 2.0 * t, 1e-4);
    assert_near(h.n[0], -1.0, 1e-5);
  }
  teardown_fixture(&fx);
}

static void test_rt_packets_agree_with_single_rays(void **state) {
  (void)state;
  fixture fx;
  setup_fixture(&fx, 0.2, 0.7);
  enum { N = 37 };
  sensim_rt_ray rays[N];
  sensim_rt_hit a[N], b[N];
  for (int i = 0; i < N; i++) rays[i] = ray_x(-3.0 + 6.0 * i / N, 0.2 + 0.5 * i / N);
  sensim__rt_intersect(fx.view, rays, a, N, 0);
  sensim__rt_intersect(fx.view, rays, b, N, 1);
  int nhit = 0;
  for (int i = 0; i < N; i++) {
    assert_int_equal(a[i].body, b[i].body);
    assert_true(a[i].t == b[i].t || (isinf(a[i].t) && isinf(b[i].t)));
    nhit += a[i].body == 0;
  }
  /* |y| < 2 hits the 4 m wide wall. */
  assert_true(nhit >= 23 && nhit <= 26);
  teardown_fixture(&fx);
}

static void test_rt_occlusion_and_rotated_normals(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){3, 0, 0};
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, M_PI / 6);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_snapshot *snap = NULL;
  sensim_rt_binding *bind = NULL;
  sensim_rt_view *view = NULL;
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, 0, 0, 1, -1, &snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(w, snap, &bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(bind, snap, &view));
  sensim_rt_ray r = ray_x(0, 0);
  sensim_rt_hit h;
  sensim__rt_intersect(view, &r, &h, 1, 0);
  /* The face turned by 30 deg: its normal is (-cos 30, -sin 30, 0). */
  assert_near(h.n[0], -cos(M_PI / 6), 1e-5);
  assert_near(h.n[1], -sin(M_PI / 6), 1e-5);
  assert_near(h.t, 3.0 - 0.5 / cos(M_PI / 6), 1e-4);
  unsigned char occ[2];
  sensim_rt_ray rs[2] = {ray_x(0, 0), ray_x(0, 0)};
  rs[0].tfar = 2.0f; /* stops short of the box */
  sensim__rt_occluded(view, rs, occ, 2, 0);
  assert_int_equal(occ[0], 0);
  assert_int_equal(occ[1], 1);
  sensim__rt_view_destroy(view);
  sensim__rt_binding_free(bind);
  sensim__snapshot_free(snap);
  sensim_world_destroy(w);
}

/* Static bodies and moving ones live in two parts of a view, traced one
 * after the other: a ray gets the nearer of the two hits, from single
 * rays, packets of 8 and of 16 alike, and occlusion sees both parts. The
 * static part is built once: a later view whose moving body moved
 * rebuilds the moving part alone. A static wall stands at x = 6 (front
 * face 5.9); the fixture's moving wall's front face runs from 4.9 at
 * t = 0 to 6.9 at t = 1, so it is nearer before t = 0.5 only. */
static void test_rt_static_and_moving_parts_give_the_nearer_hit(void **state) {
  (void)state;
  fixture fx;
  fx.w = test_world(0, 1);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.2, 4, 4}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(fx.w, &sh, NULL, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){6.0, 0, 0};
  sensim_body *fixed = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(fx.w, &bp, &fixed));
  bp.is_static = 0;
  bp.pose.pos = (sensim_vec3){0, 0, 0};
  SENSIM_OK_OR_FAIL(sensim_body_create(fx.w, &bp, &fx.wall));
  for (int i = 0; i <= 100; i++) {
    sensim_body_state s = test_state_xyzyaw(5.0 + 2.0 * i * 0.01, 0, 0, 0);
    s.flags = 0;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(fx.wall, i * 0.01, &s));
  }
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(fx.w, 0.0, 1.0, 1, -1, &fx.snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(fx.w, fx.snap, &fx.bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(fx.bind, fx.snap, &fx.view));
  assert_int_equal(sensim__rt_scene_builds(fx.w), 2); /* one per part */
  assert_false(sensim__rt_view_is_static(fx.view));
  sensim_rt_ray rays[16];
  sensim_rt_hit hits[16];
  sensim_rt_packet16 pk;
  for (int i = 0; i < 16; i++) {
    double t = (i + 0.5) / 16.0;
    rays[i] = ray_x(0.1 * (i % 4), t);
    pk.org_x[i] = 0, pk.org_y[i] = rays[i].org[1], pk.org_z[i] = 0, pk.tnear[i] = 0;
    pk.dir_x[i] = 1, pk.dir_y[i] = 0, pk.dir_z[i] = 0;
    pk.time[i] = sensim__rt_ray_time(fx.view, t), pk.tfar[i] = INFINITY;
  }
  sensim__rt_intersect16(fx.view, &pk, 0xFFFFu, 1);
  for (int coherent = 0; coherent < 2; coherent++) {
    sensim__rt_intersect(fx.view, rays, hits, 16, coherent);
    for (int i = 0; i < 16; i++) {
      double t = (i + 0.5) / 16.0, moving = 4.9 + 2.0 * t;
      int near_moving = moving < 5.9;
      assert_near(hits[i].t, near_moving ? moving : 5.9, 1e-4);
      assert_int_equal(hits[i].body, near_moving ? 1 : 0);
      assert_near(hits[i].n[0], -1.0, 1e-5);
      assert_near(pk.tfar[i], hits[i].t, 1e-5);
      assert_int_equal(pk.body[i], (unsigned)hits[i].body);
    }
  }
  /* Occlusion up to 5.5 m: only the moving wall, before t = 0.3, blocks. */
  unsigned char occ[16];
  sensim_rt_shadow16 sp;
  for (int i = 0; i < 16; i++) {
    rays[i].tfar = 5.5f;
    sp.org_x[i] = 0, sp.org_y[i] = rays[i].org[1], sp.org_z[i] = 0, sp.tnear[i] = 0;
    sp.dir_x[i] = 1, sp.dir_y[i] = 0, sp.dir_z[i] = 0, sp.time[i] = pk.time[i], sp.tfar[i] = 5.5f;
  }
  sensim__rt_occluded(fx.view, rays, occ, 16, 0);
  unsigned occ16 = sensim__rt_occluded16(fx.view, &sp, 0xFFFFu);
  for (int i = 0; i < 16; i++) {
    int blocked = 4.9 + 2.0 * (i + 0.5) / 16.0 < 5.5;
    assert_int_equal(occ[i], blocked);
    assert_int_equal((occ16 >> i) & 1u, (unsigned)blocked);
  }
  /* Past the rays' reach the static wall blocks every lane. */
  for (int i = 0; i < 16; i++) rays[i].tfar = 10.0f;
  sensim__rt_occluded(fx.view, rays, occ, 16, 0);
  for (int i = 0; i < 16; i++) assert_int_equal(occ[i], 1);
  /* A window where the moving wall stands elsewhere: its part alone is rebuilt. */
  sensim_snapshot *snap2 = NULL;
  sensim_rt_binding *bind2 = NULL;
  sensim_rt_view *view2 = NULL;
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(fx.w, 0.2, 0.3, 1, -1, &snap2));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(fx.w, snap2, &bind2));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(bind2, snap2, &view2));
  assert_int_equal(sensim__rt_scene_builds(fx.w), 3);
  sensim_rt_ray r = ray_x(0, 0.25);
  sensim_rt_hit h;
  sensim__rt_intersect(view2, &r, &h, 1, 0);
  assert_near(h.t, 4.9 + 0.5, 1e-4);
  sensim__rt_view_destroy(view2);
  sensim__rt_binding_free(bind2);
  sensim__snapshot_free(snap2);
  teardown_fixture(&fx);
}

/* A deforming wall: a 4 x 4 m quad whose vertices the host pushes at
 * x = 5 at t = 0 and x = 7 at t = 1 (the body itself stays at the
 * origin): a ray at time t meets it at 5 + 2 t, linear in time per ray as
 * a rigid body's motion is, through single rays and packets alike; a body
 * sharing the mesh keeps the mesh's own vertices. Bad pushes (a vertex
 * count other than the mesh's, a NaN, a static body, a time out of order)
 * are refused with the body unchanged. */
static void test_rt_deforming_body_is_seen_interpolated_per_ray(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  float quad[12] = {5, -2, -2, 5, 2, -2, 5, 2, 2, 5, -2, 2};
  const uint32_t ix[6] = {0, 2, 1, 0, 3, 2};
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = quad, d.nvert = 4, d.indices = ix, d.ntri = 2;
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  sensim_body *sheet = NULL, *rigid = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &sheet));
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){0, 10, 0}; /* the same mesh, rigid, 10 m to the left */
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &rigid));
  float far[12];
  for (int i = 0; i < 12; i++) far[i] = i % 3 == 0 ? 7.0f : quad[i];
  for (int i = 0; i <= 100; i++) {
    sensim_body_state st = test_state_xyzyaw(0, 0, 0, 0);
    st.flags = 0;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(sheet, 0.01 * i, &st));
  }
  SENSIM_OK_OR_FAIL(sensim_body_push_vertices(sheet, 0.0, quad, 4));
  SENSIM_OK_OR_FAIL(sensim_body_push_vertices(sheet, 1.0, far, 4));
  /* Bad pushes: refused, nothing kept. */
  assert_int_equal(sensim_body_push_vertices(sheet, 2.0, quad, 3), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "3 vertices pushed, but its mesh has 4"));
  float bad[12];
  memcpy(bad, quad, sizeof bad);
  bad[4] = NAN;
  assert_int_equal(sensim_body_push_vertices(sheet, 2.0, bad, 4), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "vertex 1"));
  assert_int_equal(sensim_body_push_vertices(sheet, 0.5, quad, 4), SENSIM_ESTATE);
  assert_int_equal(sensim_body_push_vertices(rigid, 2.0, quad, 4), SENSIM_ESTATE);
  assert_int_equal(sensim_body_push_vertices(NULL, 2.0, quad, 4), SENSIM_EINVAL);
  assert_int_equal(sensim_body_vertex_keyframe_count(sheet), 2);
  sensim_snapshot *snap = NULL;
  sensim_rt_binding *bind = NULL;
  sensim_rt_view *view = NULL;
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, 0.0, 1.0, 1, -1, &snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(w, snap, &bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(bind, snap, &view));
  assert_false(sensim__rt_view_is_static(view));
  sensim_rt_ray rays[16];
  sensim_rt_hit hits[16];
  for (int i = 0; i < 16; i++) rays[i] = ray_x(0.2 * (i % 5) - 0.4, i / 15.0);
  for (int coherent = 0; coherent < 2; coherent++) {
    sensim__rt_intersect(view, rays, hits, 16, coherent);
    for (int i = 0; i < 16; i++) {
      assert_int_equal(hits[i].body, 0);
      assert_near(hits[i].t, 5.0 + 2.0 * i / 15.0, 1e-4);
      assert_near(hits[i].n[0], -1.0, 1e-5);
    }
  }
  /* The rigid body sharing the mesh stands at the mesh's x = 5. */
  sensim_rt_ray r = {{0, 10, 0}, {1, 0, 0}, 0.0f, INFINITY, 1.0};
  sensim__rt_intersect(view, &r, hits, 1, 0);
  assert_int_equal(hits[0].body, 1);
  assert_near(hits[0].t, 5.0, 1e-5);
  sensim__rt_view_destroy(view);
  sensim__rt_binding_free(bind);
  sensim__snapshot_free(snap);
  sensim_world_destroy(w);
}

int sensim_test_rt(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rt_ray_time_sees_body_where_keyframes_put_it),
      cmocka_unit_test(test_rt_packets_agree_with_single_rays),
      cmocka_unit_test(test_rt_occlusion_and_rotated_normals),
      cmocka_unit_test(test_rt_static_and_moving_parts_give_the_nearer_hit),
      cmocka_unit_test(test_rt_deforming_body_is_seen_interpolated_per_ray),
  };
  return cmocka_run_group_tests_name("rt", tests, NULL, NULL);
}
