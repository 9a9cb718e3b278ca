/* The 60 s run of the issue: a 30 Hz camera, a 10 Hz lidar, a 10 Hz GNSS
 * and a 200 Hz IMU with lags, stepped at 1 ms; and worlds side by side on
 * their own host threads. */
#include <pthread.h>
#include <string.h>
#include "host/host_groups.h"
#include "support/testutil.h"

typedef struct run_log {
  host_rates rates;
  double t_prev, t_now;        /* the previous and the current advance time */
  uint64_t next_index[4];      /* the index each sensor's next frame must have */
  uint64_t delivered[4];
  uint64_t hash[4];
  int bad;                     /* first violation, reported after the run */
  char why[200];
} run_log;

static void check_frame(run_log *L, int i, const sensim_frame *f) {
  double tk = L->rates.phase[i] + (double)f->index / L->rates.rate[i];
  double td = tk + L->rates.lag[i];
  if (!L->bad && f->index != L->next_index[i]) {
    L->bad = 1;
    snprintf(L->why, sizeof L->why, "sensor %d: frame %llu after %llu (lost or reordered)", i,
             (unsigned long long)f->index, (unsigned long long)L->next_index[i]);
  }
  /* Delivered at the first advance at or after t_capture + lag. */
  if (!L->bad && !(f->t_capture == tk && f->t_deliver == td && L->t_prev < td && td <= L->t_now)) {
    L->bad = 1;
    snprintf(L->why, sizeof L->why, "sensor %d frame %llu: t_capture %.9f t_deliver %.9f seen at advance %.9f (prev %.9f)",
             i, (unsigned long long)f->index, f->t_capture, f->t_deliver, L->t_now, L->t_prev);
  }
  L->next_index[i] = f->index + 1;
  L->delivered[i]++;
  L->hash[i] = host_hash_frame(L->hash[i], f);
}

/* GNSS and IMU frames come by callback, camera and lidar by polling: both
 * paths are held to the same rules. */
static void on_frame(sensim_sensor *s, const sensim_frame *f, void *user) {
  run_log *L = user;
  check_frame(L, strcmp(sensim_sensor_name(s), "gnss") == 0 ? 2 : 3, f);
}

static void run(int threads, double T, run_log *L) {
  memset(L, 0, sizeof *L);
  L->rates = host_rates_default();
  L->hash[0] = L->hash[1] = L->hash[2] = L->hash[3] = 1469598103934665603ull; /* FNV offset basis */
  host_rig r;
  host_rig_build(&r, threads, 42, &L->rates, 1);
  SENSIM_OK_OR_FAIL(sensim_sensor_set_callback(r.gnss, on_frame, L));
  SENSIM_OK_OR_FAIL(sensim_sensor_set_callback(r.imu, on_frame, L));
  sensim_sensor *polled[2] = {r.cam, r.lidar};
  long steps = lround(T / 1e-3);
  L->t_prev = -INFINITY;
  for (long i = 0; i <= steps + 1000; i++) {
    /* One extra simulated second lets every frame captured by T arrive. */
    double t = i * 1e-3;
    sensim_body_state st = host_car_state(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(r.car, t, &st));
    L->t_now = t;
    SENSIM_OK_OR_FAIL(sensim_world_advance(r.world, t));
    for (int k = 0; k < 2; k++) {
      const sensim_frame *f;
      while (sensim_sensor_poll(polled[k], &f) == SENSIM_OK && f) check_frame(L, k, f);
    }
    L->t_prev = t;
    if (i == steps) {
      /* Frames captured so far: every t_k <= T, no more, none skipped. */
      for (int k = 0; k < 4; k++) {
        sensim_sensor *s = k == 0 ? r.cam : k == 1 ? r.lidar : k == 2 ? r.gnss : r.imu;
        uint64_t want = (uint64_t)floor((T - L->rates.phase[k]) * L->rates.rate[k]) + 1;
        assert_int_equal(sensim_sensor_frames_captured(s), want);
        assert_int_equal(sensim_sensor_frames_skipped(s), 0);
        /* Delivered by T: those with t_k + lag <= T. */
        uint64_t due = (uint64_t)floor((T - L->rates.phase[k] - L->rates.lag[k]) * L->rates.rate[k]) + 1;
        assert_int_equal(L->delivered[k], due);
      }
    }
  }
  sensim_world_destroy(r.world);
  if (L->bad) fail_msg("%s", L->why);
}

/* The phases and lags keep every t_k and t_k + lag at least 0.1 ms from a
 * 1 ms step, so the expected counts floor((T - phase) rate) + 1 are exact
 * whatever the rounding of i * 1e-3. After T the run goes on for a second,
 * so each sensor's delivered count is the captures up to T + 1 s. */
static void test_host_60s_exact_counts_and_delivery_bit_identical_for_1_2_4_threads(void **state) {
  (void)state;
  const double T = 60.0;
  run_log a, b;
  run(1, T, &a);
  const int more[2] = {2, 4};
  for (int k = 0; k < 2; k++) {
    run(more[k], T, &b);
    for (int i = 0; i < 4; i++) {
      assert_int_equal(a.delivered[i], b.delivered[i]);
      if (a.hash[i] != b.hash[i]) fail_msg("sensor %d: frames differ between 1 and %d threads", i, more[k]);
    }
  }
  host_rates r = host_rates_default();
  for (int i = 0; i < 4; i++) {
    uint64_t want = (uint64_t)floor((T + 1.0 - r.phase[i] - r.lag[i]) * r.rate[i]) + 1;
    assert_int_equal(a.delivered[i], want);
  }
}

/* ---- worlds side by side ---- */

typedef struct lane {
  int threads;
  uint64_t seed;
  uint64_t hash;
  int failed;
  char why[200];
} lane;

static void *drive(void *arg) {
  lane *ln = arg;
  host_rig r;
  host_rates rates = host_rates_default();
  host_rig_build(&r, ln->threads, ln->seed, &rates, 1);
  sensim_sensor *all[4] = {r.cam, r.lidar, r.gnss, r.imu};
  ln->hash = 1469598103934665603ull;
  for (int i = 0; i <= 2000 && !ln->failed; i++) {
    double t = i * 1e-3;
    sensim_body_state st = host_car_state(t);
    if (sensim_body_push_state(r.car, t, &st) || sensim_world_advance(r.world, t)) {
      ln->failed = 1;
      snprintf(ln->why, sizeof ln->why, "%s", sensim_last_error());
    }
    for (int k = 0; k < 4; k++) {
      const sensim_frame *f;
      while (sensim_sensor_poll(all[k], &f) == SENSIM_OK && f) ln->hash = host_hash_frame(ln->hash, f);
    }
  }
  sensim_world_destroy(r.world);
  return NULL;
}

/* Two worlds, each with two workers, advanced at once from two host
 * threads, give the frames each gives alone: worlds share no state. */
static void test_host_two_worlds_on_two_host_threads_match_serial_runs(void **state) {
  (void)state;
  lane ref[2] = {{2, 11, 0, 0, ""}, {2, 12, 0, 0, ""}};
  lane par[2] = {{2, 11, 0, 0, ""}, {2, 12, 0, 0, ""}};
  for (int i = 0; i < 2; i++) drive(&ref[i]);
  pthread_t th[2];
  for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&th[i], NULL, drive, &par[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 2; i++) {
    if (ref[i].failed || par[i].failed) fail_msg("lane %d: %s%s", i, ref[i].why, par[i].why);
    assert_true(ref[i].hash == par[i].hash);
  }
  assert_true(ref[0].hash != ref[1].hash); /* different seeds: the hash sees noise */
}

int sensim_test_host_long_run(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_60s_exact_counts_and_delivery_bit_identical_for_1_2_4_threads),
      cmocka_unit_test(test_host_two_worlds_on_two_host_threads_match_serial_runs),
  };
  return cmocka_run_group_tests_name("host_long_run", tests, NULL, NULL);
}
