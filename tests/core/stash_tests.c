/* tests/core/stash_tests.c: the stack of spare blocks (core/stash.h) keeps
 * at most its bound, gives blocks back last in first out, and frees what
 * it holds when destroyed. */
#include <stdlib.h>
#include "core/stash.h"
#include "support/testutil.h"

static int freed;
static void count_free(void *p) {
  freed++;
  free(p);
}

static void test_stash_keeps_its_bound_and_gives_back_last_first(void **state) {
  (void)state;
  sensim_stash s;
  sensim__stash_init(&s, 2);
  assert_null(sensim__stash_take(&s));
  void *a = malloc(8), *b = malloc(8), *c = malloc(8);
  assert_int_equal(sensim__stash_give(&s, a), 1);
  assert_int_equal(sensim__stash_give(&s, b), 1);
  assert_int_equal(sensim__stash_give(&s, c), 0); /* full: the caller's to free */
  free(c);
  assert_ptr_equal(sensim__stash_take(&s), b);
  assert_int_equal(sensim__stash_give(&s, b), 1);
  freed = 0;
  sensim__stash_destroy(&s, count_free);
  assert_int_equal(freed, 2);
}

static void test_stash_bound_is_capped_at_its_storage(void **state) {
  (void)state;
  sensim_stash s;
  sensim__stash_init(&s, 10 * SENSIM_STASH_MAX);
  int kept = 0;
  for (int i = 0; i < SENSIM_STASH_MAX + 3; i++) {
    void *p = malloc(1);
    if (sensim__stash_give(&s, p)) kept++;
    else free(p);
  }
  assert_int_equal(kept, SENSIM_STASH_MAX);
  freed = 0;
  sensim__stash_destroy(&s, count_free);
  assert_int_equal(freed, SENSIM_STASH_MAX);
}

int sensim_test_stash(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stash_keeps_its_bound_and_gives_back_last_first),
      cmocka_unit_test(test_stash_bound_is_capped_at_its_storage),
  };
  return cmocka_run_group_tests_name("stash", tests, NULL, NULL);
}
