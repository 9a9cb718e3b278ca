/* tests/core/suggest_tests.c: the edit distance behind "did you mean"
 * messages (core/suggest.c) and when a suggestion is offered. */
#include <string.h>
#include "core/internal.h"
#include "support/testutil.h"

static void test_edit_distance_counts_the_four_damerau_edits(void **state) {
  (void)state;
  assert_int_equal(sensim__edit_distance("rate", "rate"), 0);
  assert_int_equal(sensim__edit_distance("rat", "rate"), 1);      /* insertion */
  assert_int_equal(sensim__edit_distance("rates", "rate"), 1);    /* deletion */
  assert_int_equal(sensim__edit_distance("rote", "rate"), 1);     /* substitution */
  assert_int_equal(sensim__edit_distance("rtae", "rate"), 1);     /* transposition */
  assert_int_equal(sensim__edit_distance("", "lidar"), 5);
  assert_int_equal(sensim__edit_distance("kitten", "sitting"), 3); /* Levenshtein's classic */
  /* Restricted form: "ca" -> "abc" is 3 (no substring edited twice); the
   * unrestricted Damerau distance would be 2. */
  assert_int_equal(sensim__edit_distance("ca", "abc"), 3);
  assert_int_equal(sensim__edit_distance("RGGB", "rggb"), 0);    /* ASCII case ignored */
  char longw[200];
  memset(longw, 'a', sizeof longw - 1);
  longw[sizeof longw - 1] = '\0';
  assert_int_equal(sensim__edit_distance(longw, "a"), (size_t)-1);
}

static void test_suggest_offers_only_near_names(void **state) {
  (void)state;
  static const char *const keys[] = {"name", "type", "rate", "phase", "lag", "window", NULL};
  assert_string_equal(sensim__suggest("rat", keys), "rate");
  assert_string_equal(sensim__suggest("raet", keys), "rate");
  assert_string_equal(sensim__suggest("windwo", keys), "window");
  assert_string_equal(sensim__suggest("Phase", keys), "phase");
  assert_null(sensim__suggest("rate", keys));  /* known: nothing to suggest */
  assert_null(sensim__suggest("speed", keys)); /* 4 edits from phase */
  assert_null(sensim__suggest("ab", keys));    /* 2 edits from lag, but only 2 letters */
  assert_null(sensim__suggest("", keys));
  assert_null(sensim__suggest(NULL, keys));
  assert_null(sensim__suggest("rat", NULL));
  /* Long names allow a third of their length: 3 edits at 9 letters. */
  static const char *const long_names[] = {"noise_intensity", "demosaic", NULL};
  assert_string_equal(sensim__suggest("nois_intnsty", long_names), "noise_intensity");
  assert_null(sensim__suggest("demo", long_names)); /* 4 edits from demosaic */
  /* Equally near: the first listed. */
  static const char *const tie[] = {"cat", "car", NULL};
  assert_string_equal(sensim__suggest("caz", tie), "cat");
  /* The public form answers the same. */
  assert_ptr_equal(sensim_suggest("rat", keys), keys[2]);
}

static void test_did_you_mean_formats_the_suffix_or_nothing(void **state) {
  (void)state;
  static const char *const keys[] = {"rate", "lag", NULL};
  char buf[64];
  assert_string_equal(sensim__did_you_mean(buf, sizeof buf, "rat", keys), "; did you mean 'rate'?");
  assert_string_equal(sensim__did_you_mean(buf, sizeof buf, "zzzzzz", keys), "");
  char tiny[8];
  assert_string_equal(sensim__did_you_mean(tiny, sizeof tiny, "rat", keys), "; did y");
}

int sensim_test_suggest(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edit_distance_counts_the_four_damerau_edits),
      cmocka_unit_test(test_suggest_offers_only_near_names),
      cmocka_unit_test(test_did_you_mean_formats_the_suffix_or_nothing),
  };
  return cmocka_run_group_tests_name("suggest", tests, NULL, NULL);
}
