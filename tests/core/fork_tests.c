/* tests/core/fork_tests.c: one capture's work in bands (src/core/fork.c):
 * the banding rule camera rows and lidar columns share, every item in
 * exactly one band whatever the split, and a failing band's message
 * reaching the capture's thread. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "core/fork.h"
#include "core/internal.h"

typedef struct marking_band {
  sensim_band b;
  atomic_int *hits; /* per item: how many bands visited it */
  int fail_at;      /* fail when this item is in the band, -1: never */
} marking_band;

static void mark(void *arg) {
  marking_band *m = arg;
  for (size_t i = m->b.lo; i < m->b.hi; i++) {
    atomic_fetch_add(&m->hits[i], 1);
    if ((int)i == m->fail_at) {
      sensim__band_fail(&m->b, sensim__fail(SENSIM_EIO, "item %zu broke", i));
      return;
    }
  }
}

static void test_fork_band_count_is_four_per_thread_plus_joiner_capped_at_items(void **state) {
  (void)state;
  sensim_pool *p2 = NULL, *p0 = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(2, &p2));
  SENSIM_OK_OR_FAIL(sensim__pool_create(0, &p0));
  sensim_fork two = {p2}, none = {p0}, inline_fork = {NULL};
  assert_int_equal(sensim__fork_threads(two), 2);
  assert_int_equal(sensim__fork_band_count(two, 1000, 1), 12); /* 4 x (2 + 1) */
  assert_int_equal(sensim__fork_band_count(two, 5, 1), 5);
  assert_int_equal(sensim__fork_band_count(two, 1000, 0), 1); /* not split: whole on one worker */
  assert_int_equal(sensim__fork_band_count(none, 1000, 1), 1);
  assert_int_equal(sensim__fork_band_count(inline_fork, 1000, 1), 1);
  assert_int_equal(sensim__fork_band_count(two, 0, 1), 1);
  sensim__pool_destroy(p2);
  sensim__pool_destroy(p0);
}

static void test_fork_bands_cover_every_item_exactly_once_in_even_slices(void **state) {
  (void)state;
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(2, &p));
  const size_t ns[] = {1, 7, 100, 1001};
  for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
    size_t n = ns[a];
    for (size_t nb = 1; nb <= 13 && nb <= n; nb += 3) {
      atomic_int *hits = calloc(n, sizeof *hits);
      marking_band *bands = calloc(nb, sizeof *bands);
      assert_non_null(hits);
      assert_non_null(bands);
      for (size_t i = 0; i < nb; i++) {
        bands[i].hits = hits;
        bands[i].fail_at = -1;
      }
      sensim_fork f = {p};
      SENSIM_OK_OR_FAIL(sensim__fork_run_bands(f, n, bands, nb, sizeof *bands, mark));
      for (size_t i = 0; i < n; i++) assert_int_equal(atomic_load(&hits[i]), 1);
      for (size_t i = 0; i < nb; i++) {
        assert_int_equal(bands[i].b.lo, n * i / nb);
        assert_int_equal(bands[i].b.hi, n * (i + 1) / nb);
        /* Even: band sizes differ by at most one item. */
        size_t len = bands[i].b.hi - bands[i].b.lo;
        assert_true(len == n / nb || len == n / nb + 1);
      }
      free(hits);
      free(bands);
    }
  }
  sensim__pool_destroy(p);
}

static void test_fork_returns_the_first_failing_bands_message(void **state) {
  (void)state;
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(2, &p));
  const size_t n = 40, nb = 8; /* 5 items a band */
  atomic_int hits[40];
  for (size_t i = 0; i < n; i++) atomic_init(&hits[i], 0);
  marking_band bands[8];
  memset(bands, 0, sizeof bands);
  for (size_t i = 0; i < nb; i++) {
    bands[i].hits = hits;
    bands[i].fail_at = -1;
  }
  bands[6].fail_at = 31; /* band 6 holds items 30..34 */
  bands[2].fail_at = 12; /* band 2 holds items 10..14: the first to fail in band order */
  sensim_fork f = {p};
  assert_int_equal(sensim__fork_run_bands(f, n, bands, nb, sizeof *bands, mark), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "item 12 broke"));
  /* The other bands still ran to their end. */
  for (size_t i = 0; i < n; i++)
    if (i / 5 != 2 && i / 5 != 6) assert_int_equal(atomic_load(&hits[i]), 1);
  /* A band's error is cleared when it is run again. */
  bands[2].fail_at = bands[6].fail_at = -1;
  SENSIM_OK_OR_FAIL(sensim__fork_run_bands(f, n, bands, nb, sizeof *bands, mark));
  for (size_t i = 0; i < nb; i++) assert_int_equal(bands[i].b.rc, SENSIM_OK);
  sensim__pool_destroy(p);
}

int sensim_test_fork(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fork_band_count_is_four_per_thread_plus_joiner_capped_at_items),
      cmocka_unit_test(test_fork_bands_cover_every_item_exactly_once_in_even_slices),
      cmocka_unit_test(test_fork_returns_the_first_failing_bands_message),
  };
  return cmocka_run_group_tests_name("fork", tests, NULL, NULL);
}
