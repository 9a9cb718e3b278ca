/* tests/alloc/malloc_fail_tests.c: failing allocations during captures.
 * The rig of tests/support/pool_rig.h (a small camera through the ISP
 * chain and a lidar giving points, one world thread off) takes its first
 * captures with the k-th allocation sensim's code makes failing, for every
 * k from the first to the last allocation those captures make: each step
 * either succeeds or returns SENSIM_ENOMEM with a message, never crashes
 * (ASan/UBSan builds check reads and writes), and once allocations succeed
 * again the same world goes on delivering frames of both sensors. */
#include <stdio.h>
#include <string.h>
#include "alloc/alloc_count.h"
#include "support/pool_rig.h"
#include "support/testutil.h"

enum { STEPS = 3 };

/* Steps 0 .. STEPS-1 of a fresh rig with allocation k failing (k < 0:
 * none); returns the allocations the steps made and checks the world
 * afterwards. */
static size_t run(long k, int *enomem) {
  pool_rig r;
  pool_rig_make(&r, 0, POOL_RIG_ISP);
  alloc_count_start();
  alloc_fail_nth(k);
  for (int s = 0; s < STEPS; s++) {
    sensim_body_state st = test_state_xyzyaw(0, 0, 0, 0.3 * s);
    sensim_status rc = sensim_body_push_state(r.car, 0.1 * s, &st);
    if (rc == SENSIM_OK) rc = sensim_world_advance(r.w, 0.1 * s);
    const sensim_frame *f = NULL;
    if (rc == SENSIM_OK) rc = sensim_sensor_poll(r.cam, &f);
    if (rc == SENSIM_OK) rc = sensim_sensor_poll(r.lid, &f);
    if (rc != SENSIM_OK) {
      if (rc != SENSIM_ENOMEM) fail_msg("allocation %ld failing gave %s: %s", k, sensim_status_str(rc), sensim_last_error());
      if (!sensim_last_error()[0]) fail_msg("allocation %ld failing: SENSIM_ENOMEM without a message", k);
      (*enomem)++;
    }
  }
  alloc_fail_nth(-1);
  alloc_count_stop();
  size_t made = alloc_count_total();
  /* The world is usable: later frames of both sensors arrive. */
  for (int s = STEPS; s < STEPS + 3; s++) {
    sensim_body_state st = test_state_xyzyaw(0, 0, 0, 0.3 * s);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(r.car, 0.1 * s, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(r.w, 0.1 * s));
  }
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(r.cam, &f));
  if (!f) fail_msg("allocation %ld failing: no camera frame afterwards", k);
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(r.lid, &f));
  if (!f) fail_msg("allocation %ld failing: no lidar frame afterwards", k);
  sensim_world_destroy(r.w);
  return made;
}

static void test_every_failed_allocation_in_captures_is_reported_and_survived(void **state) {
  (void)state;
  int enomem = 0;
  size_t n = run(-1, &enomem);
  assert_int_equal(enomem, 0);
  assert_true(n > 0);
  int reported = 0;
  for (long k = 0; k < (long)n; k++) run(k, &reported);
  printf("(malloc_fail: %zu allocations in %d captures; %d of their failures surfaced as SENSIM_ENOMEM, the others "
         "were absorbed)\n",
         n, STEPS, reported);
}

int sensim_test_malloc_fail(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_failed_allocation_in_captures_is_reported_and_survived),
  };
  return cmocka_run_group_tests_name("malloc_fail", tests, NULL, NULL);
}
