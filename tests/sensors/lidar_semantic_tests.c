/* tests/sensors/lidar_semantic_tests.c: semantic lidar. Every return and
 * every point carries the class and instance ids of the body it lies on:
 * checked beam by beam against ray-plane geometry on a scene of two walls
 * of known ids (one sub-ray and the packet kernels, AVX2 and plain; seven
 * sub-rays; dual returns), through the filters that keep points
 * ("lidar_noise", "points", "deskew", "organized") and into the range
 * image's label plane; and the instance ids sensim assigns are the ones a
 * camera's label plane shows for the same body. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

/* Wall A: x = 10, y in [-30, 0], class 7, instance 1001. Wall B: x = 15,
 * y in [0, 30], class 3, instance assigned by sensim (1002, the next after
 * A's). Both z in [-10, 10]. */
#define XA 10.0
#define XB 15.0
#define HALF_H 10.0
#define CLASS_A 7
#define INST_A 1001u
#define CLASS_B 3
#define INST_B 1002u

static sensim_world *two_walls(void) {
  sensim_world *w = test_world(0, 21);
  add_wall_ids(w, XA, -30.0, 0.0, HALF_H, 0.6f, CLASS_A, INST_A);
  add_wall_ids(w, XB, 0.0, 30.0, HALF_H, 0.6f, CLASS_B, 0);
  return w;
}

static sensim_lidar_params scan_params(int subrays, sensim_return_mode mode) {
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 13; /* not a multiple of 8: partial packets */
  lp.elev_min = -0.5;
  lp.elev_max = 0.5;
  lp.columns = 360;
  lp.detection_range = 1e4; /* geometry only: every surface hit is detected */
  lp.subrays = subrays;
  lp.div_h = lp.div_v = subrays > 1 ? 0.003 : 0.0;
  lp.returns = mode;
  return lp;
}

/* Which wall the ray from the origin along (az, el) meets, by ray-plane
 * intersection: 'A', 'B', 0 for none, or '?' within `margin` m of an edge
 * (where a footprint or float rounding could fall either side). */
static int wall_of(double az, double el, double margin) {
  const double ca = cos(az);
  if (ca <= 0) return 0;
  const double walls[2][3] = {{XA, -30.0, 0.0}, {XB, 0.0, 30.0}}; /* x, y0, y1 */
  for (int k = 0; k < 2; k++) {
    const double t = walls[k][0] / (ca * cos(el)); /* range to the plane x = walls[k][0] */
    const double y = t * cos(el) * sin(az), z = t * sin(el);
    const double dy = fmin(y - walls[k][1], walls[k][2] - y), dz = HALF_H - fabs(z);
    if (dy > margin && dz > margin) return k ? 'B' : 'A';
    if (dy > -margin && dz > -margin) return '?';
  }
  return 0;
}

/* The ids a return on wall k must carry. */
static void expect_ids(int k, uint16_t cls, uint32_t inst) {
  if (k == 'A') {
    assert_int_equal(cls, CLASS_A);
    assert_int_equal(inst, INST_A);
  } else if (k == 'B') {
    assert_int_equal(cls, CLASS_B);
    assert_int_equal(inst, INST_B);
  } else {
    assert_int_equal(cls, 0);
    assert_int_equal(inst, 0);
  }
}

/* Beam by beam: a return's ids are those of the wall its direction meets
 * (and its range the distance to that wall); a beam that meets nothing has
 * no return and ids 0. Over one sub-ray (the packet kernels, AVX2 and
 * plain), seven sub-rays of a 3 mrad footprint (the grouping path; edges
 * kept out by 0.1 m, three footprints at 15 m), and dual returns, whose
 * second return is missing (one surface per beam) and names nothing. */
static void test_lidar_semantic_ids_match_the_wall_each_beam_meets(void **state) {
  (void)state;
  const struct {
    int subrays, plain;
    sensim_return_mode mode;
  } cases[] = {{1, 0, SENSIM_RETURN_STRONGEST}, {1, 1, SENSIM_RETURN_STRONGEST}, {1, 0, SENSIM_RETURN_DUAL},
               {1, 1, SENSIM_RETURN_DUAL},      {7, 0, SENSIM_RETURN_STRONGEST}, {7, 0, SENSIM_RETURN_DUAL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
#if defined(SENSIM_HAVE_AVX2_PATHS)
    atomic_store(&sensim__cpu_avx2_off, cases[i].plain);
#endif
    sensim_world *w = two_walls();
    sensim_lidar_params lp = scan_params(cases[i].subrays, cases[i].mode);
    sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = poll1(s);
    const sensim_beam *b = f->data;
    const size_t R = f->returns;
    const double margin = cases[i].subrays > 1 ? 0.1 : 1e-3;
    size_t seen[3] = {0, 0, 0}; /* none, A, B */
    for (size_t j = 0; j < f->count; j++) {
      const int k = wall_of(b[j].azimuth, b[j].elevation, margin);
      assert_int_equal(b[j].pad2, 0);
      if (k == '?') continue;
      if (b[j].return_index > 0) { /* one surface per beam: no second return */
        assert_true(b[j].range == 0.0f);
        expect_ids(0, b[j].class_id, b[j].instance_id);
        continue;
      }
      if ((b[j].range > 0) != (k != 0))
        fail_msg("case %zu beam %zu (az %g, el %g): range %g, wall %c", i, j, b[j].azimuth, b[j].elevation,
                 b[j].range, k ? k : '-');
      expect_ids(k, b[j].class_id, b[j].instance_id);
      if (k) {
        const double x = k == 'A' ? XA : XB;
        assert_near(b[j].range, x / (cos(b[j].azimuth) * cos(b[j].elevation)), 0.01);
      }
      seen[k == 'A' ? 1 : k == 'B' ? 2 : 0]++;
    }
    assert_int_equal(f->count % R, 0);
    /* Both walls and the sky behind them are well sampled. */
    for (int k = 0; k < 3; k++) assert_true(seen[k] > 200);
    sensim_world_destroy(w);
  }
#if defined(SENSIM_HAVE_AVX2_PATHS)
  atomic_store(&sensim__cpu_avx2_off, 0);
#endif
}

/* The filters keep each point's ids with it. A raw sensor, one through
 * "lidar_noise", "points" and "deskew" (in a world where the lidar moves,
 * so deskewing changes the points), one through "organized", and one
 * through "range_image": the points are the returns in order with the same
 * ids, and each lies on its wall's plane within the noise (the walls are
 * 5 m apart in x); the organised grid and the range image's label plane
 * hold each beam's ids, 0 where it has no return. */
static void test_lidar_semantic_ids_survive_noise_points_deskew_and_grids(void **state) {
  (void)state;
  sensim_world *w = two_walls();
  sensim_lidar_params lp = scan_params(1, SENSIM_RETURN_STRONGEST);
  sensim_sensor *raw = add_lidar(w, &lp, NULL, NULL);
  sensim_sensor *pts = add_lidar(w, &lp, "lidar_noise", NULL);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(pts, "points", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(pts, "deskew", NULL));
  sensim_sensor *org = add_lidar(w, &lp, "organized", NULL);
  sensim_sensor *rim = add_lidar(w, &lp, "range_image", NULL);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *fb = poll1(raw), *fp = poll1(pts), *fo = poll1(org), *fr = poll1(rim);
  const sensim_beam *b = fb->data;
  const sensim_point *p = fp->data, *o = fo->data;
  size_t j = 0;
  for (size_t i = 0; i < fb->count; i++) {
    if (!(b[i].range > 0)) continue;
    assert_true(j < fp->count);
    assert_int_equal(p[j].class_id, b[i].class_id);
    assert_int_equal(p[j].instance_id, b[i].instance_id);
    assert_int_equal(p[j].pad, 0);
    assert_int_equal(p[j].pad2, 0);
    /* on the plane of the wall its ids name (noise: 1.5 cm, 0.01 deg) */
    const double x = p[j].instance_id == INST_A ? XA : XB;
    assert_near(p[j].x, x, 0.1);
    j++;
  }
  assert_int_equal(j, fp->count);
  /* organized and range_image: row C - 1 - ring, column j of the scan */
  const uint32_t C = (uint32_t)lp.channels, N = (uint32_t)lp.columns;
  assert_int_equal(fo->width, N);
  assert_int_equal(fo->height, C);
  assert_int_equal(fr->type, SENSIM_PAYLOAD_DEPTH_F32);
  assert_non_null(fr->labels);
  const float *range = fr->data;
  for (size_t i = 0; i < fb->count; i++) {
    const size_t px = (size_t)(C - 1 - b[i].ring) * N + i / C;
    const sensim_point *q = &o[px];
    const sensim_label *l = &fr->labels[px];
    assert_true(range[px] == (b[i].range > 0 ? b[i].range : 0.0f));
    assert_int_equal(q->class_id, b[i].class_id);
    assert_int_equal(q->instance_id, b[i].instance_id);
    assert_int_equal(l->class_id, b[i].class_id);
    assert_int_equal(l->instance_id, b[i].instance_id);
    if (!(b[i].range > 0)) assert_true(isnan(q->x) && q->instance_id == 0);
  }
  sensim_world_destroy(w);
}

/* The same points deskewed by a moving lidar: the sensor body drives at
 * 10 m/s along +Y during the scan; deskewing moves the points (to the
 * capture pose) and keeps their ids in place. */
static void test_lidar_semantic_ids_follow_points_through_deskew_of_a_moving_scan(void **state) {
  (void)state;
  sensim_world *w = two_walls();
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_lidar_params lp = scan_params(1, SENSIM_RETURN_STRONGEST);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sp.rate = 10.0;
  sp.phase = 0.1; /* first capture at t = 0.1 s, its window [0, 0.1] */
  sensim_sensor *s[2];
  for (int k = 0; k < 2; k++) SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s[k]));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s[0], "points", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s[1], "points", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s[1], "deskew", NULL));
  for (int step = 0; step <= 100; step++) {
    const double t = 0.001 * step;
    sensim_body_state st = test_state_xyzyaw(0.0, 10.0 * t, 0.0, 0.0);
    st.lin_vel = (sensim_vec3){0.0, 10.0, 0.0};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
  }
  const sensim_frame *f0 = poll1(s[0]), *f1 = poll1(s[1]);
  assert_int_equal(f0->count, f1->count);
  const sensim_point *a = f0->data, *d = f1->data;
  size_t moved = 0;
  for (size_t i = 0; i < f0->count; i++) {
    assert_int_equal(d[i].class_id, a[i].class_id);
    assert_int_equal(d[i].instance_id, a[i].instance_id);
    assert_true(a[i].instance_id == INST_A || a[i].instance_id == INST_B);
    moved += fabsf(d[i].y - a[i].y) > 0.05f;
  }
  assert_true(moved > f0->count / 4); /* deskewing did move them */
  sensim_world_destroy(w);
}

/* An unlabelled body (class 0) keeps the instance id sensim assigned it,
 * and the lidar reports the same instance and class as a camera's label
 * plane shows for that body: both read the body's ids. */
static void test_lidar_semantic_instance_ids_agree_with_the_camera_label_plane(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 4);
  add_wall_ids(w, 8.0, -20.0, 20.0, 20.0, 0.5f, 0, 0); /* class 0, instance auto */
  sensim_lidar_params lp = one_beam();
  sensim_sensor *lid = add_lidar(w, &lp, "points", NULL);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 9;
  cp.height = 9;
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "labels", NULL));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *fl = poll1(lid), *fc = poll1(cam);
  assert_int_equal(fl->count, 1);
  const sensim_point *p = fl->data;
  const sensim_label *centre = &((const sensim_label *)fc->data)[4 * 9 + 4]; /* the optical axis, along +X */
  assert_true(p[0].instance_id != 0);
  assert_int_equal(p[0].instance_id, centre->instance_id);
  assert_int_equal(p[0].class_id, 0);
  assert_int_equal(centre->class_id, 0);
  sensim_world_destroy(w);
}

int sensim_test_lidar_semantic(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_semantic_ids_match_the_wall_each_beam_meets),
      cmocka_unit_test(test_lidar_semantic_ids_survive_noise_points_deskew_and_grids),
      cmocka_unit_test(test_lidar_semantic_ids_follow_points_through_deskew_of_a_moving_scan),
      cmocka_unit_test(test_lidar_semantic_instance_ids_agree_with_the_camera_label_plane),
  };
  return cmocka_run_group_tests_name("lidar_semantic", tests, NULL, NULL);
}
