/* tests/alloc/malloc_fail_tests.c: failing malloc (issue 32). An injection
 * counting down to each allocation sensim's own code makes (the wrapped
 * allocator of alloc_count.c) fails, in turn, every allocation of
 *   - loading a scenario with every sensor kind, and
 *   - its first captures (cold: frame pools, scratch, kernel views and
 *     capture records all grow there),
 * one allocation per run, until a run goes by in which the countdown never
 * reaches zero (every allocation of that window has then been failed once).
 * Each failure must come back as a status with a message (never a crash:
 * the sanitizer build also checks that nothing leaks or is freed twice),
 * nothing half-created must stay (a failed load gives no scenario), and
 * the world must go on working: the steps after the failure succeed and
 * every sensor delivers frames again. Worker threads are off so that the
 * order of allocations, and so the failure's place, is the same each run. */
#include <stdio.h>
#include <string.h>
#include "alloc/alloc_count.h"
#include "support/testutil.h"

/* Every sensor kind on a body driving a circle among a few boxes. */
static const char kScenario[] =
    "{\"duration\": 1, \"step\": 0.05,"
    " \"world\": {\"seed\": 11, \"threads\": 0, \"origin\": [47.0, 8.0, 400.0]},"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [2, 2, 2]}},"
    "              {\"name\": \"ground\", \"shape\": {\"kind\": \"plane\", \"size\": [60, 60, 0]}}],"
    " \"lights\": [{\"kind\": \"directional\", \"direction\": [0.3, 0.2, -1]}],"
    " \"bodies\": [{\"name\": \"ground\", \"mesh\": \"ground\", \"static\": true},"
    "   {\"name\": \"b1\", \"mesh\": \"box\", \"static\": true, \"pose\": {\"position\": [6, 0, 1]}},"
    "   {\"name\": \"b2\", \"mesh\": \"box\", \"static\": true, \"pose\": {\"position\": [-4, 5, 1]}},"
    "   {\"name\": \"car\", \"motion\": {\"type\": \"circle\", \"radius\": 3, \"speed\": 2}}],"
    " \"sensors\": ["
    "  {\"type\": \"camera\", \"name\": \"cam\", \"body\": \"car\", \"rate\": 10, \"width\": 24, \"height\": 16,"
    "   \"samples\": 1, \"mount\": {\"position\": [0, 0, 1.5]},"
    "   \"filters\": [{\"name\": \"image_sensor\"}, {\"name\": \"quantize\"}]},"
    "  {\"type\": \"lidar\", \"name\": \"lid\", \"body\": \"car\", \"rate\": 10, \"preset\": \"VLP-16\","
    "   \"columns\": 90, \"mount\": {\"position\": [0, 0, 1.8]}, \"filters\": [{\"name\": \"points\"}]},"
    "  {\"type\": \"gnss\", \"name\": \"gnss\", \"body\": \"car\", \"rate\": 10,"
    "   \"filters\": [{\"name\": \"gnss_noise\"}]},"
    "  {\"type\": \"imu\", \"name\": \"imu\", \"body\": \"car\", \"rate\": 100, \"filters\": [{\"name\": \"imu_noise\"}]},"
    "  {\"type\": \"magnetometer\", \"name\": \"mag\", \"body\": \"car\", \"rate\": 50},"
    "  {\"type\": \"radar\", \"name\": \"radar\", \"body\": \"car\", \"rate\": 10, \"mount\": {\"position\": [0, 0, 0.5]}},"
    "  {\"type\": \"cone\", \"name\": \"cone\", \"body\": \"car\", \"rate\": 10}"
    " ]}";

static const char *const kSensors[] = {"cam", "lid", "gnss", "imu", "mag", "radar", "cone"};
enum { NSENSORS = sizeof kSensors / sizeof kSensors[0] };

static sensim_scenario *load(void) {
  sensim_scenario *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(kScenario, ".", &s));
  return s;
}

/* Poll every frame each sensor has; count them per sensor. */
static void drain(sensim_scenario *s, int got[NSENSORS]) {
  sensim_world *w = sensim_scenario_world(s);
  for (int i = 0; i < NSENSORS; i++) {
    sensim_sensor *sn = sensim_world_sensor_by_name(w, kSensors[i]);
    assert_non_null(sn);
    for (;;) {
      const sensim_frame *f = NULL;
      sensim_status st = sensim_sensor_poll(sn, &f);
      if (st) {
        /* A frame that failed in its chain is reported here once. */
        assert_true(st < 0);
        assert_true(strlen(sensim_last_error()) > 0);
        continue;
      }
      if (!f) break;
      got[i]++;
    }
  }
}

static void test_every_allocation_of_loading_may_fail(void **state) {
  (void)state;
  long k = 0;
  for (;; k++) {
    sensim_scenario *s = NULL;
    alloc_fail_after(k);
    sensim_status st = sensim_scenario_load_string(kScenario, ".", &s);
    int fired = alloc_fail_stop();
    if (!fired) {
      SENSIM_OK_OR_FAIL(st);
      sensim_scenario_destroy(s);
      break;
    }
    if (st) {
      /* Refused with a message, nothing created. */
      assert_null(s);
      assert_true(strlen(sensim_last_error()) > 0);
    } else {
      /* A failure the loader could absorb (a cache it does without). */
      sensim_scenario_destroy(s);
    }
  }
  printf("[          ] loading: %ld allocations failed in turn\n", k);
  assert_true(k > 20);
}

static void test_every_allocation_of_the_first_captures_may_fail(void **state) {
  (void)state;
  long k = 0;
  for (;; k++) {
    sensim_scenario *s = load();
    int got[NSENSORS] = {0};
    alloc_fail_after(k);
    int failed_steps = 0;
    for (int j = 1; j <= 4; j++) {
      sensim_status st = sensim_scenario_step_to(s, 0.1 * j);
      if (st) {
        assert_true(st < 0);
        assert_true(strlen(sensim_last_error()) > 0);
        failed_steps++;
      }
      drain(s, got);
    }
    int fired = alloc_fail_stop();
    /* The world goes on: later steps succeed and every sensor delivers. */
    int later[NSENSORS] = {0};
    for (int j = 5; j <= 8; j++) {
      sensim_status st = sensim_scenario_step_to(s, 0.1 * j);
      if (st) fail_msg("run %ld: step to %.1f s after the injected failure: %s", k, 0.1 * j, sensim_last_error());
      drain(s, later);
    }
    for (int i = 0; i < NSENSORS; i++)
      if (later[i] == 0) fail_msg("run %ld: sensor %s delivered nothing after the injected failure", k, kSensors[i]);
    sensim_scenario_destroy(s);
    if (!fired) {
      assert_int_equal(failed_steps, 0);
      break;
    }
  }
  printf("[          ] first captures: %ld allocations failed in turn\n", k);
  assert_true(k > 5);
}

int sensim_test_malloc_fail(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_allocation_of_loading_may_fail),
      cmocka_unit_test(test_every_allocation_of_the_first_captures_may_fail),
  };
  return cmocka_run_group_tests_name("malloc_fail", tests, NULL, NULL);
}
