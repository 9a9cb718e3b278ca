/* tests/runtime/frame_pool_tests.c: a sensor's frame pool (issue 17):
 * reused buffers by capacity, the zeroing contract, the bound, the
 * thread's current pool; frames bit-identical whether their buffers were
 * reused or new; sensim_sensor_recycle. How many allocations steady state
 * makes is counted in tests/alloc/. */
#include <stdlib.h>
#include <string.h>
#include "core/frame_pool.h"
#include "core/internal.h"
#include "support/pool_rig.h"
#include "support/testutil.h"

static void test_pool_reuses_a_bigger_block_for_a_smaller_request_never_the_reverse(void **state) {
  (void)state;
  sensim_frame_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__frame_pool_create(&p));
  unsigned char *big = sensim__frame_pool_get(p, 4096, 0);
  assert_non_null(big);
  sensim__frame_pool_put(p, big);
  assert_int_equal(sensim__frame_pool_blocks(p, NULL), 1);
  unsigned char *bigger = sensim__frame_pool_get(p, 8192, 0);
  assert_ptr_not_equal(bigger, big); /* too small: a new block, the old one stays */
  memset(bigger, 1, 8192);           /* all of it is ours (the sanitizer run checks) */
  assert_int_equal(sensim__frame_pool_blocks(p, NULL), 1);
  unsigned char *small = sensim__frame_pool_get(p, 1000, 0);
  assert_ptr_equal(small, big);
  assert_int_equal(sensim__frame_pool_blocks(p, NULL), 0);
  sensim__frame_pool_put(p, small);
  sensim__frame_pool_put(p, bigger);
  /* The smallest block that fits, so the big one stays for a big request. */
  assert_ptr_equal(sensim__frame_pool_get(p, 2000, 0), big);
  assert_ptr_equal(sensim__frame_pool_get(p, 2000, 0), bigger);
  free(big);
  free(bigger); /* plain malloc blocks */
  /* A block is not spent on a request of under a quarter of it (beyond
   * 4 kB): an IMU sample does not pin a camera plane. */
  unsigned char *plane = malloc(1 << 20);
  sensim__frame_pool_put(p, plane);
  unsigned char *sample = sensim__frame_pool_get(p, 100, 0);
  assert_ptr_not_equal(sample, plane);
  free(sample);
  assert_ptr_equal(sensim__frame_pool_get(p, (1 << 20) / 4, 0), plane);
  free(plane);
  sensim__frame_pool_destroy(p);
}

static void test_pool_zeroes_a_reused_block_when_asked(void **state) {
  (void)state;
  sensim_frame_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__frame_pool_create(&p));
  unsigned char *a = sensim__frame_pool_get(p, 5000, 0);
  memset(a, 0xab, 5000);
  sensim__frame_pool_put(p, a);
  unsigned char *b = sensim__frame_pool_get(p, 5000, 1);
  assert_ptr_equal(a, b);
  for (size_t i = 0; i < 5000; i++)
    if (b[i]) fail_msg("byte %zu of a zeroed reused block is %d", i, b[i]);
  sensim__frame_pool_put(p, b);
  sensim__frame_pool_destroy(p); /* frees what it holds (the sanitizer run checks) */
}

static void test_pool_keeps_at_most_its_bound_and_evicts_the_smallest(void **state) {
  (void)state;
  sensim_frame_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__frame_pool_create(&p));
  sensim__frame_pool_set_frames(p, 1);
  /* A frame of 5 buffers seen: the bound is 1 x (5 + 2) blocks. */
  sensim_frame f = {0};
  void **bufs[5] = {&f.data, (void **)&f.depth, (void **)&f.labels, (void **)&f.normals, (void **)&f.trajectory};
  for (int i = 0; i < 5; i++) *bufs[i] = malloc(100);
  f.ntraj = 1;
  f.count = 100;
  sensim__frame_pool_release(p, &f);
  for (int i = 0; i < 5; i++) assert_null(*bufs[i]);
  assert_int_equal(f.count, 0);
  assert_int_equal(f.ntraj, 0);
  for (size_t i = 1; i <= 10; i++) sensim__frame_pool_put(p, malloc(1000 * i));
  size_t bytes = 0;
  assert_int_equal(sensim__frame_pool_blocks(p, &bytes), 7);
  assert_true(bytes >= 1000 * (4 + 5 + 6 + 7 + 8 + 9 + 10)); /* the seven biggest stayed */
  sensim__frame_pool_set_frames(p, 0);                       /* 0 counts as 1 frame */
  assert_int_equal(sensim__frame_pool_blocks(p, NULL), 7);
  sensim__frame_pool_set_frames(p, 2);
  for (size_t i = 1; i <= 10; i++) sensim__frame_pool_put(p, malloc(100 * i));
  assert_int_equal(sensim__frame_pool_blocks(p, NULL), 14);
  sensim__frame_pool_destroy(p);
}

static void test_current_pool_nests_and_is_per_thread_state(void **state) {
  (void)state;
  sensim_frame_pool *a = NULL, *b = NULL;
  SENSIM_OK_OR_FAIL(sensim__frame_pool_create(&a));
  SENSIM_OK_OR_FAIL(sensim__frame_pool_create(&b));
  assert_null(sensim__frame_pool_current());
  sensim_frame_pool *o1 = sensim__frame_pool_enter(a);
  sensim_frame_pool *o2 = sensim__frame_pool_enter(b);
  assert_ptr_equal(o2, a);
  sensim__frame_buffer_free(malloc(64)); /* into b */
  sensim__frame_pool_leave(o2);
  assert_ptr_equal(sensim__frame_pool_current(), a);
  sensim__frame_pool_leave(o1);
  assert_null(sensim__frame_pool_current());
  assert_int_equal(sensim__frame_pool_blocks(a, NULL), 0);
  assert_int_equal(sensim__frame_pool_blocks(b, NULL), 1);
  /* Outside any capture: plain allocation, and the frame alloc is zeroed. */
  sensim_frame f = {0};
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_GRAY8, 8, 8));
  for (size_t i = 0; i < 64; i++) assert_int_equal(((unsigned char *)f.data)[i], 0);
  sensim_frame_release(&f);
  sensim__frame_pool_destroy(a);
  sensim__frame_pool_destroy(b);
}

/* ---- whole sensors ---- */

/* The bytes of a camera or lidar frame: payload and every plane. */
typedef struct snap {
  size_t n;
  unsigned char *b;
} snap;

static void add(snap *s, const void *p, size_t n) {
  if (!p) n = 0;
  s->b = realloc(s->b, s->n + n + sizeof n);
  assert_non_null(s->b);
  memcpy(s->b + s->n, &n, sizeof n); /* so a missing plane differs from an empty one */
  if (n) memcpy(s->b + s->n + sizeof n, p, n);
  s->n += n + sizeof n;
}

static void add_frame(snap *s, const sensim_frame *f) {
  size_t px = (size_t)f->width * f->height;
  add(s, &f->index, sizeof f->index);
  add(s, f->data, f->count * sensim_payload_elem_size(f->type));
  add(s, f->depth, px * sizeof *f->depth);
  add(s, f->labels, px * sizeof *f->labels);
  add(s, f->normals, px * 3 * sizeof *f->normals);
  add(s, f->trajectory, f->ntraj * sizeof *f->trajectory);
}

/* Where the camera saw nothing, its planes hold 0 (camera.h): what a
 * reused plane would break if it were not cleared. */
static int misses(const sensim_frame *f) {
  int n = 0;
  for (size_t i = 0; i < (size_t)f->width * f->height; i++) {
    if (f->labels[i].class_id || f->labels[i].instance_id) continue;
    n++;
    if (f->depth[i] != 0.0f || f->normals[3 * i] != 0.0f || f->normals[3 * i + 1] != 0.0f ||
        f->normals[3 * i + 2] != 0.0f)
      fail_msg("frame %llu pixel %zu: a miss with depth %g", (unsigned long long)f->index, i, f->depth[i]);
  }
  return n;
}

enum { KEEP, POLL, RECYCLE, RECYCLE_CROSSED };

/* Frames 0 .. n-1 of both sensors. KEEP takes each frame and keeps it to
 * the end, so every frame's buffers are new: the reference. POLL gives
 * them back on the next poll, RECYCLE by sensim_sensor_recycle,
 * RECYCLE_CROSSED to the other sensor (wrong sizes, wrong payloads). */
static snap run(int threads, pool_rig_chain chain, int how, int n, int *nmiss) {
  pool_rig r;
  pool_rig_make(&r, threads, chain);
  snap s = {0, NULL};
  sensim_frame *kept = calloc(2 * (size_t)n, sizeof *kept);
  assert_non_null(kept);
  *nmiss = 0;
  for (int k = 0; k < n; k++) {
    pool_rig_step(&r, k);
    sensim_sensor *ss[2] = {r.cam, r.lid};
    for (int j = 0; j < 2; j++) {
      if (how == POLL) {
        const sensim_frame *f = NULL;
        SENSIM_OK_OR_FAIL(sensim_sensor_poll(ss[j], &f));
        assert_non_null(f);
        add_frame(&s, f);
        if (j == 0) *nmiss += misses(f);
        continue;
      }
      sensim_frame *f = &kept[2 * k + j];
      int got = 0;
      SENSIM_OK_OR_FAIL(sensim_sensor_take(ss[j], f, &got));
      assert_int_equal(got, 1);
      add_frame(&s, f);
      if (j == 0) *nmiss += misses(f);
      if (how == RECYCLE) sensim_sensor_recycle(ss[j], f);
      if (how == RECYCLE_CROSSED) sensim_sensor_recycle(ss[1 - j], f);
      if (how != KEEP) assert_null(f->data);
    }
  }
  sensim_world_destroy(r.w);
  for (int i = 0; i < 2 * n; i++) sensim_frame_release(&kept[i]);
  free(kept);
  return s;
}

static void check_same(pool_rig_chain chain) {
  enum { N = 8 };
  int m0, m1, m2, m3, m4;
  snap ref = run(0, chain, KEEP, N, &m0);
  snap polled = run(2, chain, POLL, N, &m1);
  snap recycled = run(0, chain, RECYCLE, N, &m2);
  snap crossed = run(2, chain, RECYCLE_CROSSED, N, &m3);
  snap polled0 = run(0, chain, POLL, N, &m4);
  /* The rig shows the sky in every frame, in changing places. */
  assert_true(m0 > N * 100 && m0 < N * POOL_RIG_W * POOL_RIG_H);
  assert_int_equal(ref.n, polled.n);
  assert_memory_equal(ref.b, polled.b, ref.n);
  assert_int_equal(ref.n, recycled.n);
  assert_memory_equal(ref.b, recycled.b, ref.n);
  assert_int_equal(ref.n, crossed.n);
  assert_memory_equal(ref.b, crossed.b, ref.n);
  assert_int_equal(ref.n, polled0.n);
  assert_memory_equal(ref.b, polled0.b, ref.n);
  free(ref.b);
  free(polled.b);
  free(recycled.b);
  free(crossed.b);
  free(polled0.b);
}

static void test_frames_with_reused_buffers_equal_frames_with_new_ones_radiance(void **state) {
  (void)state;
  check_same(POOL_RIG_NONE);
}

static void test_frames_with_reused_buffers_equal_frames_with_new_ones_isp_chain(void **state) {
  (void)state;
  check_same(POOL_RIG_ISP);
}

static void test_recycle_takes_any_malloc_frame_and_null_sensor_frees(void **state) {
  (void)state;
  pool_rig a, b;
  pool_rig_make(&a, 0, POOL_RIG_NONE);
  pool_rig_make(&b, 0, POOL_RIG_NONE);
  pool_rig_step(&a, 0);
  sensim_frame f;
  int got = 0;
  SENSIM_OK_OR_FAIL(sensim_sensor_take(a.cam, &f, &got));
  assert_int_equal(got, 1);
  /* Into a sensor of another world, which then outlives the first. */
  sensim_sensor_recycle(b.lid, &f);
  assert_null(f.data);
  assert_null(f.depth);
  assert_null(f.labels);
  assert_null(f.normals);
  assert_int_equal(f.count, 0);
  sensim_world_destroy(a.w);
  /* A frame the host built, and an empty one. */
  sensim_frame h = {0};
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&h, SENSIM_PAYLOAD_RGBA8, 3, 5));
  sensim_sensor_recycle(b.cam, &h);
  assert_null(h.data);
  sensim_sensor_recycle(b.cam, &h);
  sensim_sensor_recycle(b.cam, NULL);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&h, SENSIM_PAYLOAD_RGBA8, 3, 5));
  sensim_sensor_recycle(NULL, &h); /* frees, as sensim_frame_release */
  assert_null(h.data);
  for (int k = 0; k < 3; k++) {
    pool_rig_step(&b, k);
    const sensim_frame *p = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(b.cam, &p));
    assert_non_null(p);
    assert_int_equal(p->index, k);
    assert_true(misses(p) > 0);
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(b.lid, &p));
    assert_non_null(p);
  }
  sensim_world_destroy(b.w);
}

static void test_reset_keeps_frames_identical_to_a_fresh_world(void **state) {
  (void)state;
  enum { N = 4 };
  pool_rig r;
  pool_rig_make(&r, 2, POOL_RIG_ISP);
  snap first = {0, NULL}, again = {0, NULL};
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < N; k++) {
      pool_rig_step(&r, k);
      const sensim_frame *f = NULL;
      SENSIM_OK_OR_FAIL(sensim_sensor_poll(r.cam, &f));
      assert_non_null(f);
      add_frame(pass ? &again : &first, f);
    }
    /* A frame left queued at reset: its buffers go back to the pool too. */
    pool_rig_step(&r, N);
    SENSIM_OK_OR_FAIL(sensim_world_reset(r.w));
  }
  assert_int_equal(first.n, again.n);
  assert_memory_equal(first.b, again.b, first.n);
  sensim_world_destroy(r.w);
  free(first.b);
  free(again.b);
}

int sensim_test_frame_pool(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool_reuses_a_bigger_block_for_a_smaller_request_never_the_reverse),
      cmocka_unit_test(test_pool_zeroes_a_reused_block_when_asked),
      cmocka_unit_test(test_pool_keeps_at_most_its_bound_and_evicts_the_smallest),
      cmocka_unit_test(test_current_pool_nests_and_is_per_thread_state),
      cmocka_unit_test(test_frames_with_reused_buffers_equal_frames_with_new_ones_radiance),
      cmocka_unit_test(test_frames_with_reused_buffers_equal_frames_with_new_ones_isp_chain),
      cmocka_unit_test(test_recycle_takes_any_malloc_frame_and_null_sensor_frees),
      cmocka_unit_test(test_reset_keeps_frames_identical_to_a_fresh_world),
  };
  return cmocka_run_group_tests_name("frame_pool", tests, NULL, NULL);
}
