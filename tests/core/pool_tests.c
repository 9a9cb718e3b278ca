/* tests/core/pool_tests.c: the job pool (src/core/pool.c): inline jobs
 * without threads, every job exactly once with threads, FIFO order, and a
 * destroy that drains the queue. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include "support/testutil.h"
#include "core/pool.h"

typedef struct counted {
  atomic_int runs;
  pthread_t ran_on;
  atomic_int *order_slot; /* shared cursor for FIFO checks, or NULL */
  int order;              /* position at which this job ran */
  int sleep_ms;           /* delay inside the job */
} counted;

static void count_job(void *arg) {
  counted *c = arg;
  if (c->sleep_ms > 0) {
    struct timespec ts = {0, (long)c->sleep_ms * 1000000L};
    nanosleep(&ts, NULL);
  }
  c->ran_on = pthread_self();
  if (c->order_slot) c->order = atomic_fetch_add(c->order_slot, 1);
  atomic_fetch_add(&c->runs, 1);
}

static void test_pool_with_zero_threads_runs_jobs_inline(void **state) {
  (void)state;
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(0, &p));
  assert_int_equal(sensim__pool_threads(p), 0);
  counted c = {0};
  sensim_job j = {count_job, &c, NULL};
  sensim__pool_submit(p, &j);
  /* Already done when submit returns, on the caller's thread. */
  assert_int_equal(atomic_load(&c.runs), 1);
  assert_true(pthread_equal(c.ran_on, pthread_self()));
  sensim__pool_destroy(p);
  assert_int_equal(atomic_load(&c.runs), 1);
}

static void test_pool_with_two_threads_runs_1000_jobs_exactly_once(void **state) {
  (void)state;
  enum { N = 1000 };
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(2, &p));
  assert_int_equal(sensim__pool_threads(p), 2);
  counted *c = calloc(N, sizeof *c);
  sensim_job *j = calloc(N, sizeof *j);
  assert_non_null(c);
  assert_non_null(j);
  for (int i = 0; i < N; i++) {
    j[i].fn = count_job;
    j[i].arg = &c[i];
    sensim__pool_submit(p, &j[i]);
  }
  sensim__pool_destroy(p);
  int off_caller = 0;
  for (int i = 0; i < N; i++) {
    assert_int_equal(atomic_load(&c[i].runs), 1);
    off_caller += !pthread_equal(c[i].ran_on, pthread_self());
  }
  assert_int_equal(off_caller, N); /* workers ran them, not the submitter */
  free(c);
  free(j);
}

/* One worker takes jobs in the order they were queued. */
static void test_pool_single_worker_runs_jobs_in_fifo_order(void **state) {
  (void)state;
  enum { N = 200 };
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(1, &p));
  atomic_int cursor = 0;
  counted c[N];
  sensim_job j[N];
  for (int i = 0; i < N; i++) {
    atomic_init(&c[i].runs, 0);
    c[i].order_slot = &cursor;
    c[i].order = -1;
    c[i].sleep_ms = 0;
    j[i].fn = count_job;
    j[i].arg = &c[i];
    sensim__pool_submit(p, &j[i]);
  }
  sensim__pool_destroy(p);
  for (int i = 0; i < N; i++) assert_int_equal(c[i].order, i);
}

/* The first job holds the only worker for 50 ms, so the other 99 are still
 * queued when destroy is called; destroy must run them all, not drop them. */
static void test_pool_destroy_drains_the_queue(void **state) {
  (void)state;
  enum { N = 100 };
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(1, &p));
  counted c[N];
  sensim_job j[N];
  for (int i = 0; i < N; i++) {
    atomic_init(&c[i].runs, 0);
    c[i].order_slot = NULL;
    c[i].sleep_ms = i == 0 ? 50 : 0;
    j[i].fn = count_job;
    j[i].arg = &c[i];
    sensim__pool_submit(p, &j[i]);
  }
  int done_before = 0;
  for (int i = 0; i < N; i++) done_before += atomic_load(&c[i].runs);
  sensim__pool_destroy(p);
  for (int i = 0; i < N; i++) assert_int_equal(atomic_load(&c[i].runs), 1);
  assert_true(done_before < N); /* the queue was really non-empty */
}

static void test_pool_create_rejects_bad_thread_counts(void **state) {
  (void)state;
  sensim_pool *p = (sensim_pool *)(uintptr_t)0x1;
  assert_int_equal(sensim__pool_create(-1, &p), SENSIM_EINVAL);
  assert_int_equal(sensim__pool_create(1025, &p), SENSIM_EINVAL);
  assert_true(p == (sensim_pool *)(uintptr_t)0x1); /* untouched on failure */
  assert_true(sensim_last_error()[0] != '\0');
  sensim__pool_destroy(NULL); /* no-op */
}

int sensim_test_pool(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool_with_zero_threads_runs_jobs_inline),
      cmocka_unit_test(test_pool_with_two_threads_runs_1000_jobs_exactly_once),
      cmocka_unit_test(test_pool_single_worker_runs_jobs_in_fifo_order),
      cmocka_unit_test(test_pool_destroy_drains_the_queue),
      cmocka_unit_test(test_pool_create_rejects_bad_thread_counts),
  };
  return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
