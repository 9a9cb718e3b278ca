/* Bounded work per sensor (WAIT and SKIP), frame callbacks and what they
 * may do. A user filter that holds its frame until the test opens a gate
 * makes the host outrun the pool on demand, so the tests are exact rather
 * than timing-dependent. */
#include <pthread.h>
#include <string.h>
#include <time.h>
#include "host/host_groups.h"
#include "support/testutil.h"

typedef struct gate {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int open;
  int entered; /* frames that reached the filter */
} gate;

static void gate_init(gate *g) {
  memset(g, 0, sizeof *g);
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
}

static void gate_open(gate *g) {
  pthread_mutex_lock(&g->mu);
  g->open = 1;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

static void gate_fini(gate *g) {
  pthread_cond_destroy(&g->cv);
  pthread_mutex_destroy(&g->mu);
}

static sensim_status gate_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)f;
  (void)ctx;
  gate *g = user;
  pthread_mutex_lock(&g->mu);
  g->entered++;
  pthread_cond_broadcast(&g->cv);
  while (!g->open) pthread_cond_wait(&g->cv, &g->mu);
  pthread_mutex_unlock(&g->mu);
  return SENSIM_OK;
}

static const sensim_filter_def gate_def = {"gate", SENSIM_PAYLOAD_ANY, SENSIM_PAYLOAD_ANY, NULL, gate_apply, NULL};

static sensim_sensor *gated_imu(sensim_world *w, const char *name, double rate, double lag, gate *g) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = name;
  sp.rate = rate;
  sp.lag = lag;
  sp.window = 0;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &s));
  if (g) SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(s, &gate_def, g));
  return s;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void wait_unfinished(sensim_sensor *s, int n) {
  for (int i = 0; i < 10000 && sensim_sensor_frames_unfinished(s) != n; i++) sleep_ms(1);
  assert_int_equal(sensim_sensor_frames_unfinished(s), n);
}

/* SKIP: with one capture stuck in its chain and a bound of 1, the next
 * capture is not taken and is counted; after the stuck one finishes,
 * captures resume. Indices show exactly which frame is missing. (A lag of
 * 0.5 s keeps the stuck frame from being due, which would block.) */
static void test_host_skip_policy_counts_captures_not_taken(void **state) {
  (void)state;
  gate g;
  gate_init(&g);
  sensim_world *w = test_world(1, 1);
  sensim_sensor *s = gated_imu(w, "imu", 10.0, 0.5, &g);
  SENSIM_OK_OR_FAIL(sensim_sensor_set_overrun(s, 1, SENSIM_OVERRUN_SKIP));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));  /* frame 0 starts, stuck in the gate */
  assert_int_equal(sensim_sensor_frames_unfinished(s), 1);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.15)); /* frame 1 due: skipped */
  assert_int_equal(sensim_sensor_frames_skipped(s), 1);
  assert_int_equal(sensim_sensor_frames_captured(s), 1);
  gate_open(&g);
  wait_unfinished(s, 0);
  /* A host that lets each capture finish before the next loses nothing. */
  for (int k = 2; k <= 10; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1 * k + 0.05));
    wait_unfinished(s, 0);
  }
  assert_int_equal(sensim_sensor_frames_captured(s), 10);
  SENSIM_OK_OR_FAIL(sensim_sensor_set_overrun(s, 0, SENSIM_OVERRUN_WAIT));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 1.55)); /* delivers t_k <= 1.05 */
  uint64_t seen[16];
  int n = 0;
  const sensim_frame *f;
  while (sensim_sensor_poll(s, &f) == SENSIM_OK && f && n < 16) seen[n++] = f->index;
  assert_int_equal(n, 10); /* frames 0, 2..10 */
  assert_int_equal(seen[0], 0);
  for (int i = 1; i < n; i++) assert_int_equal(seen[i], i + 1);
  assert_int_equal(sensim_sensor_frames_skipped(s), 1);
  sensim_world_destroy(w);
  gate_fini(&g);
}

typedef struct watcher {
  sensim_sensor *s;
  gate *g;
  int max_seen;
  volatile int released;
} watcher;

static void *watch_then_open(void *arg) {
  watcher *wt = arg;
  /* Wait until the host is blocked at the bound, sample the bound, open. */
  for (int i = 0; i < 200; i++) {
    int u = sensim_sensor_frames_unfinished(wt->s);
    if (u > wt->max_seen) wt->max_seen = u;
    sleep_ms(1);
  }
  wt->released = 1;
  gate_open(wt->g);
  return NULL;
}

/* WAIT: advance blocks while the sensor has max_inflight unfinished
 * captures, never holds more, and takes every capture in the end. */
static void test_host_wait_policy_blocks_at_the_bound_and_loses_nothing(void **state) {
  (void)state;
  gate g;
  gate_init(&g);
  sensim_world *w = test_world(2, 1);
  sensim_sensor *s = gated_imu(w, "imu", 100.0, 0.5, &g);
  SENSIM_OK_OR_FAIL(sensim_sensor_set_overrun(s, 3, SENSIM_OVERRUN_WAIT));
  watcher wt = {s, &g, 0, 0};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, watch_then_open, &wt), 0);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0995)); /* 10 captures due, bound 3 */
  assert_true(wt.released);  /* could not have returned before the gate opened */
  pthread_join(th, NULL);
  assert_int_equal(wt.max_seen, 3);
  assert_true(sensim_sensor_frames_unfinished(s) <= 3);
  assert_int_equal(sensim_sensor_frames_captured(s), 10);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.7));
  assert_int_equal(sensim_sensor_frames_captured(s), 71);
  assert_int_equal(sensim_sensor_frames_delivered(s), 21); /* t_k + 0.5 <= 0.7 */
  assert_int_equal(sensim_sensor_frames_queued(s), 21);
  assert_int_equal(sensim_sensor_frames_skipped(s), 0);
  sensim_world_destroy(w);
  gate_fini(&g);
}

typedef struct cb_log {
  sensim_world *w;
  int n;
  double t_deliver[64];
  int sensor[64];
  sensim_status advance_rc, reset_rc, create_rc, filter_rc, setcb_rc;
} cb_log;

static void record(sensim_sensor *s, const sensim_frame *f, void *user) {
  cb_log *L = user;
  if (L->n < 64) {
    L->t_deliver[L->n] = f->t_deliver;
    L->sensor[L->n] = sensim_sensor_id(s);
  }
  L->n++;
  /* What a callback must not do fails cleanly. */
  L->advance_rc = sensim_world_advance(L->w, 100.0);
  L->reset_rc = sensim_world_reset(L->w);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "late";
  sensim_sensor *late = NULL;
  L->create_rc = sensim_imu_create(L->w, &sp, test_imu_defaults(), &late);
  L->filter_rc = sensim_sensor_add_filter(s, "imu_noise", NULL);
  L->setcb_rc = sensim_sensor_set_callback(s, NULL, NULL);
}

/* Callbacks run inside advance, across sensors in order of delivery time
 * (ties by sensor id), and the calls they must not make return ESTATE and
 * change nothing. */
static void test_host_callbacks_come_in_delivery_order_and_cannot_advance(void **state) {
  (void)state;
  sensim_world *w = test_world(2, 1);
  cb_log L;
  memset(&L, 0, sizeof L);
  L.w = w;
  sensim_sensor_params sp;
  sensim_sensor *a = NULL, *b = NULL;
  sensim_sensor_params_init(&sp);
  sp.name = "a";
  sp.rate = 10;
  sp.lag = 0.25; /* a's frame k arrives at 0.1 k + 0.25 */
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &a));
  sp.name = "b";
  sp.rate = 20;
  sp.lag = 0.0; /* b's frame k arrives at 0.05 k */
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &b));
  SENSIM_OK_OR_FAIL(sensim_sensor_set_callback(a, record, &L));
  SENSIM_OK_OR_FAIL(sensim_sensor_set_callback(b, record, &L));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.6)); /* one advance delivers both sensors' frames */
  /* a: 0.25 .. 0.55 (4 frames); b: 0 .. 0.6 (13 frames). */
  assert_int_equal(L.n, 17);
  for (int i = 1; i < L.n; i++) {
    assert_true(L.t_deliver[i] >= L.t_deliver[i - 1]);
    if (L.t_deliver[i] == L.t_deliver[i - 1]) assert_true(L.sensor[i] > L.sensor[i - 1]);
  }
  assert_int_equal(L.advance_rc, SENSIM_ESTATE);
  assert_int_equal(L.reset_rc, SENSIM_ESTATE);
  assert_int_equal(L.create_rc, SENSIM_ESTATE);
  assert_int_equal(L.filter_rc, SENSIM_ESTATE);
  assert_int_equal(L.setcb_rc, SENSIM_ESTATE);
  assert_int_equal(sensim_world_sensor_count(w), 2);
  assert_true(sensim_world_time(w) == 0.6);
  /* Nothing was queued for polling; back to polling from now on. */
  const sensim_frame *f;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(b, &f));
  assert_null(f);
  SENSIM_OK_OR_FAIL(sensim_sensor_set_callback(b, NULL, NULL));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.7));
  assert_int_equal(L.n, 18); /* a's 0.65 frame */
  assert_int_equal(sensim_sensor_frames_queued(b), 2);
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(b, &f));
  assert_non_null(f);
  assert_true(f->t_deliver == 0.65);
  /* Outside a callback the same calls work again. */
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.8));
  sensim_world_destroy(w);
}

static void test_host_set_overrun_rejects_bad_bounds_and_policies(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor *s = gated_imu(w, "imu", 10.0, 0.0, NULL);
  assert_int_equal(sensim_sensor_set_overrun(s, -1, SENSIM_OVERRUN_WAIT), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_set_overrun(s, 2000, SENSIM_OVERRUN_WAIT), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_set_overrun(s, 2, (sensim_overrun)7), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_set_overrun(NULL, 2, SENSIM_OVERRUN_WAIT), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_set_callback(NULL, NULL, NULL), SENSIM_EINVAL);
  /* Still usable, with its defaults. */
  SENSIM_OK_OR_FAIL(sensim_sensor_set_overrun(s, 0, SENSIM_OVERRUN_SKIP));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 1.0));
  assert_int_equal(sensim_sensor_frames_delivered(s), 11);
  assert_int_equal(sensim_sensor_frames_skipped(s), 0); /* 0 threads: nothing is ever unfinished */
  sensim_world_destroy(w);
}

/* A filter that fails on frames 2 and 3: each failed frame is dropped at
 * its delivery time and counted, the advance that reaches it returns the
 * filter's status, and the sensor goes on delivering the frames after. */
static sensim_status fail_some_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  if (f->index == 2 || f->index == 3) return sensim_error_set(SENSIM_EINVAL, "frame %d refused", (int)f->index);
  return SENSIM_OK;
}

static void test_host_failed_frames_are_dropped_counted_and_the_sensor_goes_on(void **state) {
  (void)state;
  static const sensim_filter_def def = {"fail_some", SENSIM_PAYLOAD_ANY, SENSIM_PAYLOAD_ANY, NULL,
                                        fail_some_apply, NULL};
  for (int threads = 0; threads <= 2; threads += 2) {
    sensim_world *w = test_world(threads, 1);
    sensim_sensor *s = gated_imu(w, "imu", 10.0, 0.05, NULL);
    SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(s, &def, NULL));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.16)); /* frames 0, 1 delivered */
    assert_int_equal(sensim_sensor_frames_failed(s), 0);
    assert_int_equal(sensim_world_advance(w, 0.26), SENSIM_EINVAL); /* frame 2 due */
    assert_non_null(strstr(sensim_last_error(), "frame 2 refused"));
    assert_int_equal(sensim_sensor_frames_failed(s), 1);
    assert_true(sensim_world_time(w) == 0.26); /* the clock moved on */
    assert_int_equal(sensim_world_advance(w, 0.36), SENSIM_EINVAL); /* frame 3 */
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.56));                /* frames 4, 5 */
    assert_int_equal(sensim_sensor_frames_failed(s), 2);
    assert_int_equal(sensim_sensor_frames_delivered(s), 4);
    uint64_t got[8];
    int n = 0;
    for (const sensim_frame *f; n < 8 && sensim_sensor_poll(s, &f) == SENSIM_OK && f;) got[n++] = f->index;
    assert_int_equal(n, 4);
    assert_true(got[0] == 0 && got[1] == 1 && got[2] == 4 && got[3] == 5);
    SENSIM_OK_OR_FAIL(sensim_world_reset(w));
    assert_int_equal(sensim_sensor_frames_failed(s), 0);
    assert_true(sensim_sensor_frames_failed(NULL) == 0);
    sensim_world_destroy(w);
  }
}

int sensim_test_host_flow(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_skip_policy_counts_captures_not_taken),
      cmocka_unit_test(test_host_wait_policy_blocks_at_the_bound_and_loses_nothing),
      cmocka_unit_test(test_host_callbacks_come_in_delivery_order_and_cannot_advance),
      cmocka_unit_test(test_host_set_overrun_rejects_bad_bounds_and_policies),
      cmocka_unit_test(test_host_failed_frames_are_dropped_counted_and_the_sensor_goes_on),
  };
  return cmocka_run_group_tests_name("host_flow", tests, NULL, NULL);
}
