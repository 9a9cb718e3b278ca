/* tests/sensors/lidar_speed_tests.c: the lidar's speed paths give the same
 * results as the plain ones. The scene cache rebuilds exactly when a body
 * moved, a static scene is built once, the batched random streams equal
 * the one-at-a-time ones, and the SIMD kernels of a scan give the bits of
 * their plain twins. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/vecmath.h"
#include "rt/rt.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

/* A view of the snapshot at time t: [t, t], so every body has one step. */
static void view_at(sensim_world *w, double t, sensim_snapshot **snap, sensim_rt_binding **bind,
                    sensim_rt_view **view) {
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, t, t, 1, -1, snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(w, *snap, bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(*bind, *snap, view));
}

static float range_along_x(const sensim_rt_view *v) {
  sensim_rt_ray r = {{0, 0, 0}, {1, 0, 0}, 0.0f, INFINITY, 0.0};
  sensim_rt_hit h;
  sensim__rt_intersect(v, &r, &h, 1, 0);
  return h.t;
}

/* A capture whose instances equal the last scene built traces that scene
 * (no rebuild); one where a body moved builds its own and sees the body
 * where it now is; a view made before the cache moved on still traces its
 * own scene. */
static void test_lidar_scene_cache_reuses_only_unchanged_scenes(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.2, 4, 4}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  sensim_body *box = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &box));
  sensim_body_state st = test_state_xyzyaw(5.0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(box, 0.0, &st));
  sensim_snapshot *s1, *s2, *s3;
  sensim_rt_binding *b1, *b2, *b3;
  sensim_rt_view *v1, *v2, *v3;
  view_at(w, 0.0, &s1, &b1, &v1);
  unsigned long built = sensim__rt_scene_builds(w);
  assert_true(built >= 1);
  assert_near(range_along_x(v1), 4.9, 1e-5); /* front face at x = 5 - 0.1 */
  /* Pushed again at the same pose: the same instances, the cached scene. */
  SENSIM_OK_OR_FAIL(sensim_body_push_state(box, 0.5, &st));
  view_at(w, 0.5, &s2, &b2, &v2);
  assert_int_equal(sensim__rt_scene_builds(w), built);
  assert_near(range_along_x(v2), 4.9, 1e-5);
  /* Moved by 2 m: a new scene, and the box where it now is. */
  st = test_state_xyzyaw(7.0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(box, 1.0, &st));
  view_at(w, 1.0, &s3, &b3, &v3);
  assert_int_equal(sensim__rt_scene_builds(w), built + 1);
  assert_near(range_along_x(v3), 6.9, 1e-5);
  /* The views made before still trace the scene of their snapshot. */
  assert_near(range_along_x(v1), 4.9, 1e-5);
  assert_near(range_along_x(v2), 4.9, 1e-5);
  sensim__rt_view_destroy(v1);
  sensim__rt_view_destroy(v3);
  assert_near(range_along_x(v2), 4.9, 1e-5);
  sensim__rt_view_destroy(v2);
  sensim_rt_binding *bs[3] = {b1, b2, b3};
  sensim_snapshot *ss[3] = {s1, s2, s3};
  for (int i = 0; i < 3; i++) {
    sensim__rt_binding_free(bs[i]);
    sensim__snapshot_free(ss[i]);
  }
  sensim_world_destroy(w);
}

/* Through the sensor: a static scene is built once for any number of
 * captures and every capture sees it alike. */
static void test_lidar_static_scene_is_built_once(void **state) {
  (void)state;
  plane_scene ps = make_plane(10.0, 0.3);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10.0;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 8;
  lp.columns = 90;
  sensim_sensor *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(ps.w, &sp, &lp, &lid));
  sensim_beam first[8 * 90];
  unsigned long built = 0;
  for (int k = 0; k < 4; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(ps.w, 0.1 * k + 1e-9));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &f));
    assert_non_null(f);
    assert_int_equal(f->count, 8 * 90);
    const sensim_beam *b = f->data;
    if (k == 0) {
      memcpy(first, b, sizeof first);
      built = sensim__rt_scene_builds(ps.w);
      assert_int_equal(built, 1);
      continue;
    }
    for (int i = 0; i < 8 * 90; i++) assert_true(b[i].range == first[i].range);
  }
  assert_int_equal(sensim__rt_scene_builds(ps.w), built);
  sensim_world_destroy(ps.w);
}

/* sensim_rng_fill_u32 is n calls of sensim_rng_u32, from any position in
 * the stream and for any n (its SIMD paths cover 4, 8 and 16 blocks). */
static void test_lidar_rng_batch_equals_the_stream(void **state) {
  (void)state;
  uint32_t w[700];
  for (int skip = 0; skip < 6; skip++)
    for (size_t n = 0; n <= 700; n += 23) {
      sensim_rng a, b;
      sensim_rng_init(&a, 0x123456789ull, 7, 11, 3);
      sensim_rng_init(&b, 0x123456789ull, 7, 11, 3);
      for (int i = 0; i < skip; i++) (void)sensim_rng_u32(&a), (void)sensim_rng_u32(&b);
      sensim_rng_fill_u32(&a, w, n);
      for (size_t i = 0; i < n; i++) assert_int_equal(w[i], sensim_rng_u32(&b));
      assert_int_equal(sensim_rng_u32(&a), sensim_rng_u32(&b));
    }
}

/* One scan of the two-tone wall plus a box in front of it (packets mix
 * bodies; the sky beside the wall gives misses), in fog, through
 * "lidar_noise" (its own intensity grid) and optionally "points"; the heap
 * is first filled with 0xFF where the scan's buffer will come from, so a
 * beam the lidar failed to write shows. Returns a copy of the frame's data. */
static void *poisoned_scan(sensim_return_mode mode, int points, size_t *bytes, size_t *count) {
  sensim_world *w = two_tone_wall(12.0, 0.3f, 0.7f);
  test_static_shape(w, SENSIM_SHAPE_BOX, v3(1.0, 2.0, 1.5), v3(6.0, 1.0, 0.0));
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 29; /* not a multiple of 8: a column's last packet is partial */
  lp.elev_min = -0.4;
  lp.elev_max = 0.6;
  lp.columns = 200;
  lp.returns = mode;
  lp.intensity_bits = 8;
  lp.fog_visibility = 300.0;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "lidar_noise", "{\"sigma_intensity\": 0.02, \"intensity_bits\": 8}"));
  if (points) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "points", NULL));
  const size_t R = mode == SENSIM_RETURN_DUAL ? 2 : 1, n = (size_t)lp.columns * lp.channels * R;
  unsigned char *junk = malloc(n * sizeof(sensim_beam));
  assert_non_null(junk);
  memset(junk, 0xFF, n * sizeof(sensim_beam));
  free(junk);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  *count = f->count;
  *bytes = f->count * sensim_payload_elem_size(f->type);
  void *copy = malloc(*bytes ? *bytes : 1);
  assert_non_null(copy);
  memcpy(copy, f->data, *bytes);
  if (!points) { /* every beam written whole: the organised layout, pad 0 */
    const sensim_beam *e = f->data;
    assert_int_equal(f->count, n);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
      assert_int_equal(e[i].return_index, i % R);
      assert_int_equal(e[i].pad, 0);
      assert_int_equal(e[i].pad2, 0);
      /* The wall (class 0) and the box (class 1), their instances 1 and 2
       * assigned by sensim; a missing return carries no ids. */
      if (e[i].range > 0) {
        assert_true(e[i].instance_id == 1 || e[i].instance_id == 2);
        assert_int_equal(e[i].class_id, e[i].instance_id - 1);
      } else {
        assert_true(e[i].instance_id == 0 && e[i].class_id == 0);
      }
      assert_true(e[i].ring < lp.channels);
      assert_true(e[i].range >= 0.0f && e[i].range < 200.0f);
      assert_true(e[i].time_offset <= 0.0f && e[i].time_offset > -1.0f);
      hits += e[i].range > 0;
    }
    assert_true(hits > n / (4 * R) && hits < n / R); /* walls, box and sky all seen */
  }
  sensim_world_destroy(w);
  return copy;
}

/* The SIMD kernels on a scan's path (packet beams and normals, the noise
 * filter's perturbation and normals, beams to points) give the bits of
 * their plain twins, and the lidar writes every beam of its buffer. */
static void test_lidar_simd_and_plain_paths_give_the_same_frame(void **state) {
  (void)state;
  const sensim_return_mode modes[2] = {SENSIM_RETURN_STRONGEST, SENSIM_RETURN_DUAL};
  for (int k = 0; k < 4; k++) {
    size_t bytes[2], count[2];
    void *frame[2];
    for (int plain = 0; plain < 2; plain++) {
      atomic_store(&sensim__cpu_avx2_off, plain);
      frame[plain] = poisoned_scan(modes[k / 2], k % 2, &bytes[plain], &count[plain]);
    }
    atomic_store(&sensim__cpu_avx2_off, 0);
    assert_int_equal(count[0], count[1]);
    assert_int_equal(bytes[0], bytes[1]);
    assert_memory_equal(frame[0], frame[1], bytes[0]);
    free(frame[0]);
    free(frame[1]);
  }
}

/* sensim_rng_normal2f_n gives normal2f's pairs to a few float ulps (its ln,
 * sin and cos approximations are good to 3e-8; the worst pair, out at
 * 5.8 sigma, moves by under 4e-6), the same bits whatever the batch size
 * (the scalar, SSE2 and AVX2 paths do the same float operations), and
 * consumes the same words. */
static void test_lidar_rng_batched_normals_match_normal2f(void **state) {
  (void)state;
  enum { P = 20000 };
  float *one = malloc(2 * P * sizeof *one), *all = malloc(2 * P * sizeof *all);
  assert_non_null(one);
  assert_non_null(all);
  sensim_rng a, b, c;
  sensim_rng_init(&a, 42, 1, 2, 3);
  sensim_rng_init(&b, 42, 1, 2, 3);
  sensim_rng_init(&c, 42, 1, 2, 3);
  sensim_rng_normal2f_n(&a, all, P);
  for (size_t i = 0; i < P;) { /* batches of 1, 2, ..., 37 pairs */
    size_t n = 1 + i % 37;
    if (n > P - i) n = P - i;
    sensim_rng_normal2f_n(&b, one + 2 * i, n);
    i += n;
  }
  assert_memory_equal(one, all, 2 * P * sizeof *one);
  double worst = 0.0;
  for (size_t i = 0; i < P; i++) {
    float x, y;
    sensim_rng_normal2f(&c, &x, &y);
    double d = fmax(fabs(x - all[2 * i]), fabs(y - all[2 * i + 1]));
    worst = d > worst ? d : worst;
  }
  assert_true(worst < 4e-6);
  assert_int_equal(sensim_rng_u32(&a), sensim_rng_u32(&c));
  free(one);
  free(all);
}

int sensim_test_lidar_speed(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_scene_cache_reuses_only_unchanged_scenes),
      cmocka_unit_test(test_lidar_static_scene_is_built_once),
      cmocka_unit_test(test_lidar_rng_batch_equals_the_stream),
      cmocka_unit_test(test_lidar_simd_and_plain_paths_give_the_same_frame),
      cmocka_unit_test(test_lidar_rng_batched_normals_match_normal2f),
  };
  return cmocka_run_group_tests_name("lidar_speed", tests, NULL, NULL);
}
