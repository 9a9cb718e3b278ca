/* tests/core/error_tests.c: the per-thread last error as code outside the
 * library sets it (sensim_error_set, sensim_error_prefix; status.h). */
#include <pthread.h>
#include <string.h>
#include "support/testutil.h"

static void test_error_set_returns_status_and_formats_message(void **state) {
  (void)state;
  assert_int_equal(sensim_error_set(SENSIM_EINVAL, "gain %g must be >= %d", -1.5, 0), SENSIM_EINVAL);
  assert_string_equal(sensim_last_error(), "gain -1.5 must be >= 0");
  assert_int_equal(sensim_error_set(SENSIM_OK, NULL), SENSIM_OK);
  assert_string_equal(sensim_last_error(), "");
}

static void test_error_set_may_quote_the_last_error(void **state) {
  (void)state;
  sensim_error_set(SENSIM_EIO, "disk full");
  assert_int_equal(sensim_error_set(SENSIM_EIO, "writing 'a.csv': %s", sensim_last_error()), SENSIM_EIO);
  assert_string_equal(sensim_last_error(), "writing 'a.csv': disk full");
}

static void test_error_prefix_nests_context(void **state) {
  (void)state;
  sensim_error_set(SENSIM_EPARSE, "bad key");
  sensim_error_prefix("filter %d", 2);
  sensim_error_prefix("sensor '%s'", "cam");
  assert_string_equal(sensim_last_error(), "sensor 'cam': filter 2: bad key");
}

static void test_error_set_truncates_long_messages(void **state) {
  (void)state;
  char big[2000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  sensim_error_set(SENSIM_EINVAL, "%s", big);
  assert_int_equal(strlen(sensim_last_error()), 511);
  sensim_error_prefix("%s", big);
  assert_int_equal(strlen(sensim_last_error()), 511);
}

/* A library call's own failure and a user's message share one slot. */
static void test_error_set_is_what_library_calls_replace(void **state) {
  (void)state;
  sensim_error_set(SENSIM_EINVAL, "mine");
  assert_int_equal(sensim_world_create(NULL, NULL), SENSIM_EINVAL);
  assert_string_not_equal(sensim_last_error(), "mine");
}

static void *other_thread(void *arg) {
  (void)arg;
  sensim_error_set(SENSIM_EIO, "other thread");
  return NULL;
}

static void test_error_set_is_per_thread(void **state) {
  (void)state;
  sensim_error_set(SENSIM_EINVAL, "this thread");
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_string_equal(sensim_last_error(), "this thread");
}

int sensim_test_error(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_error_set_returns_status_and_formats_message),
      cmocka_unit_test(test_error_set_may_quote_the_last_error),
      cmocka_unit_test(test_error_prefix_nests_context),
      cmocka_unit_test(test_error_set_truncates_long_messages),
      cmocka_unit_test(test_error_set_is_what_library_calls_replace),
      cmocka_unit_test(test_error_set_is_per_thread),
  };
  return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}
