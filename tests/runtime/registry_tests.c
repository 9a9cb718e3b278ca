/* tests/runtime/registry_tests.c: the world's sensor registry
 * (runtime/registry.c): a world without sensors has no runtime and still
 * keeps time; sensors are named and numbered in creation order; a refused
 * sensor leaves nothing behind; a body a sensor rides cannot be destroyed. */
#include <string.h>
#include "support/testutil.h"
#include "runtime/probe_kind.h"
#include "runtime/runtime_internal.h"

static void test_world_without_sensors_keeps_time_and_has_no_runtime(void **state) {
  (void)state;
  sensim_world *w = test_world(2, 1);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.5));
  assert_true(sensim_world_time(w) == 0.5);
  assert_null(sensim__runtime_of(w)); /* no workers started for a world that captures nothing */
  assert_int_equal(sensim_world_sensor_count(w), 0);
  assert_null(sensim_world_sensor(w, 0));
  assert_null(sensim_world_sensor_by_name(w, "probe0"));
  SENSIM_OK_OR_FAIL(sensim_world_reset(w));
  assert_true(isinf(sensim_world_time(w)) && sensim_world_time(w) < 0);
  assert_int_equal(sensim_world_advance(w, NAN), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

static void test_sensors_are_numbered_and_named_in_creation_order(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 1);
  static probe p;
  probe_init(&p, 0.0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *a = NULL, *b = NULL, *c = NULL;
  SENSIM_OK_OR_FAIL(probe_create(w, &sp, &p, &a));
  assert_non_null(sensim__runtime_of(w));
  SENSIM_OK_OR_FAIL(probe_create(w, &sp, &p, &b));
  assert_string_equal(sensim_sensor_name(a), "probe0");
  assert_string_equal(sensim_sensor_name(b), "probe1");
  assert_int_equal(sensim_sensor_id(b), 1);
  /* A refused sensor (bad rate, then a taken name) changes nothing; the
   * kind's impl is freed (the sanitizer run checks the leak). */
  sp.rate = -1.0;
  assert_int_equal(probe_create(w, &sp, &p, &c), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "rate"));
  sp.rate = 10.0;
  sp.name = "probe1";
  assert_int_equal(probe_create(w, &sp, &p, &c), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "already exists"));
  assert_null(c);
  assert_int_equal(sensim_world_sensor_count(w), 2);
  assert_ptr_equal(sensim_world_sensor(w, 1), b);
  assert_ptr_equal(sensim_world_sensor_by_name(w, "probe0"), a);
  sensim_world_destroy(w);
}

static void test_body_carrying_a_sensor_cannot_be_destroyed(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL, *other = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &other));
  static probe p;
  probe_init(&p, 0.0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "roof";
  sp.body = car;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(probe_create(w, &sp, &p, &s));
  assert_int_equal(sensim_body_destroy(car), SENSIM_ESTATE);
  assert_non_null(strstr(sensim_last_error(), "roof"));
  /* The car is untouched: it still takes pushes and the sensor follows it. */
  sensim_body_state st = test_state_xyzyaw(4.0, 0.0, 0.0, 0.0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(car, 0.0, &st));
  SENSIM_OK_OR_FAIL(sensim_body_destroy(other));
  assert_int_equal(sensim_body_push_state(other, 0.0, &st), SENSIM_ESTATE); /* retired: static now */
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  assert_int_equal(p.n, 1);
  assert_near(p.rec[0].pose_mid.pos.x, 4.0, 0);
  assert_int_equal(sensim_body_destroy(NULL), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

int sensim_test_runtime_registry(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_world_without_sensors_keeps_time_and_has_no_runtime),
      cmocka_unit_test(test_sensors_are_numbered_and_named_in_creation_order),
      cmocka_unit_test(test_body_carrying_a_sensor_cannot_be_destroyed),
  };
  return cmocka_run_group_tests_name("runtime_registry", tests, NULL, NULL);
}
