/* tests/core/pool_tests.c: the job pool (src/core/pool.c): inline jobs
 * without threads, every job exactly once with threads, FIFO order, and a
 * destroy that drains the queue. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
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

/* A job still queued can be taken back (the host then runs it: the
 * schedule does this for a capture it must wait for); a job a worker has
 * started cannot, and neither can one that is not queued at all. The one
 * worker is kept busy by a gate job until the takes are done, so the
 * queue's state is known. */
static atomic_int gate_open;
static void gate_job(void *arg) {
  atomic_store((atomic_int *)arg, 1); /* started */
  while (!atomic_load(&gate_open)) {
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
  }
}

static void test_pool_take_removes_only_queued_jobs(void **state) {
  (void)state;
  sensim_pool *p = NULL;
  SENSIM_OK_OR_FAIL(sensim__pool_create(1, &p));
  atomic_int started;
  atomic_init(&started, 0);
  atomic_store(&gate_open, 0);
  sensim_job gate = {gate_job, &started, NULL};
  sensim__pool_submit(p, &gate);
  while (!atomic_load(&started)) {
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
  }
  counted c[3];
  sensim_job j[3];
  for (int i = 0; i < 3; i++) {
    atomic_init(&c[i].runs, 0);
    c[i].order_slot = NULL;
    c[i].sleep_ms = 0;
    j[i].fn = count_job;
    j[i].arg = &c[i];
    sensim__pool_submit(p, &j[i]);
  }
  assert_int_equal(sensim__pool_take(p, &gate), 0);  /* running */
  assert_int_equal(sensim__pool_take(p, &j[1]), 1);  /* middle of the queue */
  assert_int_equal(sensim__pool_take(p, &j[1]), 0);  /* already taken */
  assert_int_equal(sensim__pool_take(p, &j[2]), 1);  /* the tail */
  j[1].fn(j[1].arg); /* the taker runs it */
  atomic_store(&gate_open, 1);
  sensim__pool_destroy(p); /* drains j[0] */
  assert_int_equal(atomic_load(&c[0].runs), 1);
  assert_int_equal(atomic_load(&c[1].runs), 1);
  assert_int_equal(atomic_load(&c[2].runs), 0); /* taken and never run */

  /* With no worker threads every job ran inside submit: nothing to take. */
  SENSIM_OK_OR_FAIL(sensim__pool_create(0, &p));
  sensim__pool_submit(p, &j[0]);
  assert_int_equal(sensim__pool_take(p, &j[0]), 0);
  sensim__pool_destroy(p);
}

/* ---- fork-join ---- */

static atomic_int fj_hits[64];

static void fj_leaf(void *arg) { atomic_fetch_add(&fj_hits[(size_t)(intptr_t)arg], 1); }

static void run_leaves(sensim_pool *p, int base, int n) {
  void *args[16];
  for (int i = 0; i < n; i++) args[i] = (void *)(intptr_t)(base + i);
  sensim__pool_run_all(p, fj_leaf, args, (size_t)n);
}

typedef struct outer_arg {
  sensim_pool *pool;
  int base;
  sensim_job job;
  atomic_int *done;
} outer_arg;

/* A queued job that itself forks 8 leaves and joins them, as a camera
 * capture does with its row bands. */
static void fj_outer(void *arg) {
  outer_arg *o = arg;
  run_leaves(o->pool, o->base, 8);
  for (int i = 0; i < 8; i++) assert_int_equal(atomic_load(&fj_hits[o->base + i]), 1);
  atomic_fetch_add(o->done, 1);
}

static void test_pool_run_all_runs_each_job_once_and_nests_without_deadlock(void **state) {
  (void)state;
  for (int threads = 0; threads <= 2; threads += 2) {
    for (int i = 0; i < 64; i++) atomic_store(&fj_hits[i], 0);
    sensim_pool *p = NULL;
    SENSIM_OK_OR_FAIL(sensim__pool_create(threads, &p));
    run_leaves(p, 0, 16); /* from the host thread */
    for (int i = 0; i < 16; i++) assert_int_equal(atomic_load(&fj_hits[i]), 1);
    /* Four jobs on the pool at once, each forking and joining: with two
     * workers both block in joins unless joining threads help. */
    atomic_int done = 0;
    outer_arg o[4];
    for (int k = 0; k < 4; k++) {
      o[k] = (outer_arg){p, 16 + 8 * k, {fj_outer, &o[k], NULL}, &done};
      sensim__pool_submit(p, &o[k].job);
    }
    for (int spins = 0; atomic_load(&done) < 4 && spins < 20000; spins++) {
      struct timespec ts = {0, 1000000};
      nanosleep(&ts, NULL);
    }
    assert_int_equal(atomic_load(&done), 4);
    for (int i = 16; i < 48; i++) assert_int_equal(atomic_load(&fj_hits[i]), 1);
    sensim__pool_destroy(p);
  }
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
      cmocka_unit_test(test_pool_take_removes_only_queued_jobs),
      cmocka_unit_test(test_pool_run_all_runs_each_job_once_and_nests_without_deadlock),
      cmocka_unit_test(test_pool_create_rejects_bad_thread_counts),
  };
  return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
