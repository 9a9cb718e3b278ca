/* tests/alloc/steady_alloc_tests.c: a world running in steady state
 * allocates nothing (issue 17). After warm-up frames:
 *   - every buffer of every frame polled existed before counting began
 *     (exact: each block allocated while counting is recorded by address);
 *   - the sensors' frame pools served every request with a block they
 *     held (none with a new one);
 *   - sensim's code made no allocation at all (frame pools, the camera's
 *     and lidar's scratch, the kernel's bindings, instance lists and views,
 *     capture records and snapshot blocks are all reused). The warm-up is
 *     long enough for the spare capture records to have grown their
 *     snapshot blocks (25 % headroom each): 20 frames, since the world's
 *     weather grew the snapshot header by 24 bytes and moved one record's
 *     last growth past the 12 frames that were enough before (40 counted
 *     frames after 20 allocate nothing either).
 * Every allocation sensim's code made in the counted frames is printed by
 * where it was made. */
#include <stdio.h>
#include "alloc/alloc_count.h"
#include "runtime/runtime_internal.h"
#include "support/pool_rig.h"
#include "support/testutil.h"

enum { WARM = 20, N = 10 };

static void check_buffers(const sensim_frame *f, const char *who) {
  const void *b[5] = {f->data, f->depth, f->labels, f->normals, f->trajectory};
  static const char *const names[5] = {"data", "depth", "labels", "normals", "trajectory"};
  for (int i = 0; i < 5; i++)
    if (alloc_count_seen(b[i]))
      fail_msg("%s frame %llu: its %s was allocated in steady state", who, (unsigned long long)f->index,
               names[i]);
}

typedef struct misses {
  double cam, lid; /* new blocks a frame each pool handed out */
  size_t all;      /* every allocation sensim's code made while counting */
} misses;

static size_t pool_misses(const sensim_sensor *s) {
  size_t gets, m;
  sensim__frame_pool_stats(s->frames, &gets, &m);
  return m;
}

/* Run the rig WARM frames, then N more counting; with `check`, every
 * polled buffer must be an old one. */
static misses steady(int threads, pool_rig_chain chain, int check) {
  pool_rig r;
  pool_rig_make(&r, threads, chain);
  size_t cam0 = 0, lid0 = 0;
  for (int k = 0; k < WARM + N; k++) {
    if (k == WARM) {
      cam0 = pool_misses(r.cam);
      lid0 = pool_misses(r.lid);
      alloc_count_start();
    }
    pool_rig_step(&r, k);
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(r.cam, &f));
    assert_non_null(f);
    if (k >= WARM && check) check_buffers(f, "camera");
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(r.lid, &f));
    assert_non_null(f);
    if (k >= WARM && check) check_buffers(f, "lidar");
  }
  alloc_count_stop();
  misses m = {(double)(pool_misses(r.cam) - cam0) / N, (double)(pool_misses(r.lid) - lid0) / N,
              alloc_count_total()};
  size_t n;
  const alloc_rec *rec = alloc_count_records(&n);
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) bytes += rec[i].bytes;
  printf("# threads %d, chain %d: new pool blocks a frame: camera %.1f, lidar %.1f; all of sensim's "
         "allocations: %.1f a frame (%.0f bytes), from:\n",
         threads, (int)chain, m.cam, m.lid, (double)alloc_count_total() / N, (double)bytes / N);
  alloc_count_print(0, N);
  sensim_world_destroy(r.w);
  return m;
}

/* Camera filters that work in place, lidar beams: every frame buffer is
 * the pool's. */
static void test_steady_state_allocates_nothing(void **state) {
  (void)state;
  for (int threads = 0; threads <= 2; threads += 2) {
    misses m = steady(threads, POOL_RIG_IN_PLACE, 1);
    if (m.cam != 0 || m.lid != 0)
      fail_msg("threads %d: new frame buffers a frame: camera %.1f, lidar %.1f", threads, m.cam, m.lid);
    if (m.all != 0) fail_msg("threads %d: %zu allocations in %d steady frames", threads, m.all, N);
  }
}

/* The typical ISP chain, and the lidar's "points": the filters that
 * replace a payload give the old one back to the pool
 * (sensim__frame_buffer_free), so with them too no frame buffer is
 * allocated in steady state. */
static void test_steady_state_isp_chain_allocates_nothing(void **state) {
  (void)state;
  for (int threads = 0; threads <= 2; threads += 2) {
    misses m = steady(threads, POOL_RIG_ISP, 1);
    if (m.cam != 0 || m.lid != 0)
      fail_msg("threads %d: new frame buffers a frame: camera %.1f, lidar %.1f", threads, m.cam, m.lid);
    if (m.all != 0) fail_msg("threads %d: %zu allocations in %d steady frames", threads, m.all, N);
  }
}

int sensim_test_steady_alloc(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_steady_state_allocates_nothing),
      cmocka_unit_test(test_steady_state_isp_chain_allocates_nothing),
  };
  return cmocka_run_group_tests_name("steady_alloc", tests, NULL, NULL);
}
