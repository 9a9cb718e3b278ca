/* tests/filters/noise_tests.c: "gnss_noise" and "imu_noise".
 *
 * Statistical checks use a fixed seed, so they are deterministic; their
 * bounds are 5 standard errors of the statistic for the sample size, so a
 * correct model would fail them with probability < 1e-6 for a random seed,
 * while a wrong scale (e.g. sigma^2 for sigma, or N instead of N / sqrt(T))
 * lies many standard errors out.
 *
 * Most draws go through the filter's own apply() on hand-made frames with
 * the context the chain builds (filters/chain.c), which keeps long series
 * cheap; the set-up checks and one end-to-end run use the real sensor path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/allan.h>
#include "filters/chain.h"
#include "runtime/runtime_internal.h"
#include "support/stats.h"
#include "support/testutil.h"
#include "filters/builtin.h"

#define SEED 20240607u

static void *make_filter(const sensim_builtin_filter *b, const char *json) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(b->create(p, &user));
  cJSON_Delete(p);
  return user;
}

static void apply_filter(const sensim_builtin_filter *b, void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  ctx.seed = SEED;
  ctx.slot = 0;
  sensim_rng_init(&ctx.rng, SEED, 3, f->index, 0x80000000u);
  SENSIM_OK_OR_FAIL(b->def.apply(user, f, &ctx));
}

/* Running moments of a sample. */
typedef struct moments {
  double n, mean, m2;
} moments;

static void mom_add(moments *m, double x) { /* Welford (1962) */
  m->n += 1.0;
  double d = x - m->mean;
  m->mean += d / m->n;
  m->m2 += d * (x - m->mean);
}
static double mom_var(const moments *m) { return m->m2 / (m->n - 1.0); }

/* Sample mean within 5 standard errors sigma / sqrt(n) of mu. */
static void check_mean(const moments *m, double mu, double sigma) {
  assert_near(m->mean, mu, 5.0 * sigma / sqrt(m->n) + 1e-15);
}
/* Sample variance: (n - 1) s^2 / sigma^2 ~ chi^2(n - 1), whose standard
 * deviation is sqrt(2 (n - 1)); so s^2 within 5 sigma^2 sqrt(2 / (n - 1)). */
static void check_var(const moments *m, double sigma) {
  double s2 = sigma * sigma;
  assert_near(mom_var(m), s2, 5.0 * s2 * sqrt(2.0 / (m->n - 1.0)));
}

/* ---- gnss_noise --------------------------------------------------------- */

static const double kOrigin[3] = {-33.86, 151.21, 40.0};

static void gnss_frame(sensim_frame *f, sensim_gnss_fix *fix, uint64_t index, const double enu[3]) {
  memset(f, 0, sizeof *f);
  memset(fix, 0, sizeof *fix);
  f->type = SENSIM_PAYLOAD_GNSS;
  f->width = f->height = 1;
  f->count = 1;
  f->data = fix;
  f->index = index;
  f->t_capture = (double)index;
  memcpy(fix->enu, enu, sizeof fix->enu);
  memcpy(fix->origin, kOrigin, sizeof fix->origin);
  sensim_enu_to_geodetic(fix->origin, fix->enu, &fix->lat, &fix->lon, &fix->height);
  fix->fix_type = 1;
}

static void test_gnss_noise_mean_and_variance_match_parameters(void **state) {
  (void)state;
  const double sigma[3] = {0.5, 1.5, 3.0}, mu[3] = {1.0, -2.0, 0.5}, truth[3] = {120.0, -40.0, 7.0};
  void *u = make_filter(&sensim__filter_gnss_noise,
                        "{\"sigma\": [0.5, 1.5, 3.0], \"mean\": [1.0, -2.0, 0.5]}");
  const int n = 20000;
  moments m[3] = {{0}};
  double cross = 0.0; /* sum of standardised east * north errors */
  for (int k = 0; k < n; k++) {
    sensim_frame f;
    sensim_gnss_fix fix;
    gnss_frame(&f, &fix, (uint64_t)k, truth);
    apply_filter(&sensim__filter_gnss_noise, u, &f);
    double e[3];
    for (int i = 0; i < 3; i++) {
      e[i] = fix.enu[i] - truth[i];
      mom_add(&m[i], e[i]);
    }
    cross += (e[0] - mu[0]) / sigma[0] * (e[1] - mu[1]) / sigma[1];
    /* lat/lon/height describe the noisy position. */
    double back[3];
    sensim_geodetic_to_enu(fix.origin, fix.lat, fix.lon, fix.height, back);
    for (int i = 0; i < 3; i++) assert_near(back[i], fix.enu[i], 1e-6);
    for (int i = 0; i < 9; i++)
      assert_true(fix.cov_enu[i] == (i % 4 == 0 ? sigma[i / 4] * sigma[i / 4] : 0.0));
    assert_int_equal(fix.fix_type, 1);
  }
  for (int i = 0; i < 3; i++) {
    check_mean(&m[i], mu[i], sigma[i]);
    check_var(&m[i], sigma[i]);
  }
  /* Independent axes: the sample correlation has standard error 1/sqrt(n). */
  assert_near(cross / n, 0.0, 5.0 / sqrt((double)n));
  sensim__filter_gnss_noise.def.destroy(u);
}

static void test_gnss_noise_defaults_are_documented_values(void **state) {
  (void)state;
  void *u = make_filter(&sensim__filter_gnss_noise, NULL);
  sensim_frame f;
  sensim_gnss_fix fix;
  const double truth[3] = {0, 0, 0};
  gnss_frame(&f, &fix, 0, truth);
  apply_filter(&sensim__filter_gnss_noise, u, &f);
  const double cov[9] = {1, 0, 0, 0, 1, 0, 0, 0, 4};
  for (int i = 0; i < 9; i++) assert_true(fix.cov_enu[i] == cov[i]);
  sensim__filter_gnss_noise.def.destroy(u);
  /* Zero sigma: a pure, exact offset. */
  u = make_filter(&sensim__filter_gnss_noise, "{\"sigma\": [0, 0, 0], \"mean\": [0, 0, 100]}");
  gnss_frame(&f, &fix, 1, truth);
  apply_filter(&sensim__filter_gnss_noise, u, &f);
  assert_near(fix.lat, kOrigin[0], 1e-9);
  assert_near(fix.lon, kOrigin[1], 1e-9);
  assert_near(fix.height, kOrigin[2] + 100.0, 1e-3);
  sensim__filter_gnss_noise.def.destroy(u);
}

/* ---- imu_noise ---------------------------------------------------------- */

static void imu_frame(sensim_frame *f, sensim_imu_sample *s, uint64_t index, double t,
                      double window) {
  memset(f, 0, sizeof *f);
  memset(s, 0, sizeof *s);
  f->type = SENSIM_PAYLOAD_IMU;
  f->width = f->height = 1;
  f->count = 1;
  f->data = s;
  f->index = index;
  f->t_capture = t;
  f->window = window;
  s->accel[2] = 9.80665;
  s->gyro[0] = 0.01;
}

static double imu_axis(const sensim_imu_sample *s, int i) {
  const double v[6] = {s->accel[0], s->accel[1], s->accel[2], s->gyro[0], s->gyro[1], s->gyro[2]};
  return v[i];
}
static const double kTrue[6] = {0, 0, 9.80665, 0.01, 0, 0};

static void test_imu_noise_white_std_is_density_over_sqrt_window(void **state) {
  (void)state;
  /* Window T = 5 ms shorter than the 10 ms period: T, not the gap, sets the
   * white noise, N / sqrt(T) (IEEE 952; Woodman 2007). */
  const double na = 0.01, ng = 0.002, T = 0.005;
  void *u = make_filter(&sensim__filter_imu_noise,
                        "{\"accel_noise_density\": 0.01, \"gyro_noise_density\": 0.002,"
                        " \"accel_bias_walk\": 0, \"gyro_bias_walk\": 0}");
  moments m[6] = {{0}};
  const int n = 20000;
  for (int k = 0; k < n; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    imu_frame(&f, &s, (uint64_t)k, 0.01 * k, T);
    apply_filter(&sensim__filter_imu_noise, u, &f);
    for (int i = 0; i < 6; i++) mom_add(&m[i], imu_axis(&s, i) - kTrue[i]);
  }
  for (int i = 0; i < 6; i++) {
    double sd = (i < 3 ? na : ng) / sqrt(T);
    check_mean(&m[i], 0.0, sd);
    check_var(&m[i], sd);
  }
  sensim__filter_imu_noise.def.destroy(u);
}

static void test_imu_noise_instantaneous_samples_use_frame_gap(void **state) {
  (void)state;
  /* Window 0: T is the gap to the previous frame (20 ms here); the first
   * frame has no gap yet and carries neither white noise nor bias. */
  const double ng = 0.003, dt = 0.02;
  void *u = make_filter(&sensim__filter_imu_noise,
                        "{\"accel_noise_density\": 0.003, \"gyro_noise_density\": 0.003,"
                        " \"accel_bias_walk\": 0, \"gyro_bias_walk\": 0}");
  moments m[6] = {{0}};
  const int n = 20000;
  for (int k = 0; k < n; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    imu_frame(&f, &s, (uint64_t)k, 1.0 + dt * k, 0.0);
    apply_filter(&sensim__filter_imu_noise, u, &f);
    for (int i = 0; i < 6; i++) {
      if (k == 0) assert_true(imu_axis(&s, i) == kTrue[i]);
      else mom_add(&m[i], imu_axis(&s, i) - kTrue[i]);
    }
  }
  for (int i = 0; i < 6; i++) {
    check_mean(&m[i], 0.0, ng / sqrt(dt));
    check_var(&m[i], ng / sqrt(dt));
  }
  sensim__filter_imu_noise.def.destroy(u);
}

static void test_imu_noise_bias_walk_increments_have_variance_k2_dt(void **state) {
  (void)state;
  /* No white noise: consecutive samples differ by the bias increment,
   * K sqrt(dt) w with w ~ N(0, 1); frames 10 ms apart, first bias 0. */
  const double ka = 0.05, kg = 0.004, dt = 0.01;
  void *u = make_filter(&sensim__filter_imu_noise,
                        "{\"accel_noise_density\": 0, \"gyro_noise_density\": 0,"
                        " \"accel_bias_walk\": 0.05, \"gyro_bias_walk\": 0.004}");
  moments m[6] = {{0}};
  double prev[6];
  const int n = 20000;
  for (int k = 0; k < n; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    imu_frame(&f, &s, (uint64_t)k, dt * k, dt);
    apply_filter(&sensim__filter_imu_noise, u, &f);
    for (int i = 0; i < 6; i++) {
      double y = imu_axis(&s, i);
      if (k == 0) assert_true(y == kTrue[i]);
      else mom_add(&m[i], y - prev[i]);
      prev[i] = y;
    }
  }
  for (int i = 0; i < 6; i++) {
    double sd = (i < 3 ? ka : kg) * sqrt(dt);
    check_mean(&m[i], 0.0, sd);
    check_var(&m[i], sd);
  }
  sensim__filter_imu_noise.def.destroy(u);
}

/* Equivalent degrees of freedom of the overlapping Allan variance for N
 * phase points (N - 1 rate samples), NIST SP 1065 (Riley 2008) Table 5,
 * after Howe, Allan & Barnes (1981). */
static void test_imu_noise_allan_deviation_shows_white_and_rate_random_walk(void **state) {
  (void)state;
  /* At rest, 100 Hz, window = period = 10 ms. Discrete-time Allan variance
   * of the model, cluster of m samples (tau = m dt):
   *   white:            N^2 / (m T) = N^2 / tau             (slope -1/2)
   *   bias random walk: K^2 dt (2 m^2 + 1) / (6 m) -> K^2 tau / 3  (slope +1/2)
   * (IEEE 952 Annex C; the exact discrete form follows from summing the
   * walk's increments over two adjacent clusters). N and K are chosen so the
   * two cross at tau = sqrt(3) N / K = 0.17 s, and all six axes share them
   * so their Allan variances can be pooled (six independent series). */
  const double N = 1e-3, K = 1e-2, dt = 0.01;
  const size_t n = 1u << 17; /* 1311 s */
  const size_t ms[4] = {1, 4, 250, 1000};
  void *u = make_filter(&sensim__filter_imu_noise,
                        "{\"accel_noise_density\": 1e-3, \"gyro_noise_density\": 1e-3,"
                        " \"accel_bias_walk\": 1e-2, \"gyro_bias_walk\": 1e-2}");
  double *y[6];
  for (int i = 0; i < 6; i++) {
    y[i] = malloc(n * sizeof *y[i]);
    assert_non_null(y[i]);
  }
  for (size_t k = 0; k < n; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    imu_frame(&f, &s, (uint64_t)k, dt * (double)k, dt);
    apply_filter(&sensim__filter_imu_noise, u, &f);
    for (int i = 0; i < 6; i++) y[i][k] = imu_axis(&s, i);
  }
  double avar[4] = {0};
  for (int i = 0; i < 6; i++) {
    double ad[4];
    SENSIM_OK_OR_FAIL(sensim_allan_deviation(y[i], n, dt, ms, 4, ad));
    for (int j = 0; j < 4; j++) avar[j] += ad[j] * ad[j] / 6.0;
    free(y[i]);
  }
  double rel[4], adev[4], expect[4];
  for (int j = 0; j < 4; j++) {
    double m = (double)ms[j];
    double white = N * N / (m * dt);
    double walk = K * K * dt * (2.0 * m * m + 1.0) / (6.0 * m);
    expect[j] = sqrt(white + walk);
    adev[j] = sqrt(avar[j]);
    /* The dominant term's edf, pooled over 6 series; the relative standard
     * deviation of an ADEV with edf d is ~ 1 / sqrt(2 d). */
    double d = 6.0 * (white > walk ? test_edf_white_fm((double)n + 1.0, m)
                                   : test_edf_rw_fm((double)n + 1.0, m));
    rel[j] = 5.0 / sqrt(2.0 * d);
    assert_near(adev[j] / expect[j], 1.0, rel[j]);
  }
  /* The log-log slopes: about -1/2 at short tau, +1/2 at long tau. */
  double s_short = log(adev[1] / adev[0]) / log(4.0);
  double s_long = log(adev[3] / adev[2]) / log(4.0);
  assert_near(s_short, log(expect[1] / expect[0]) / log(4.0), (rel[0] + rel[1]) / log(4.0));
  assert_near(s_long, log(expect[3] / expect[2]) / log(4.0), (rel[2] + rel[3]) / log(4.0));
  assert_true(s_short < -0.4 && s_long > 0.4);
  /* The long-tau level is K sqrt(tau / 3) (continuous form). */
  assert_near(adev[3] / (K * sqrt(ms[3] * dt / 3.0)), 1.0, rel[3] + 1e-3);
  sensim__filter_imu_noise.def.destroy(u);
}

/* ---- through the sensor path -------------------------------------------- */

static void test_noise_filters_bad_params_leave_chain_unchanged(void **state) {
  (void)state;
  sensim_world *w = test_world(0, SEED);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *gnss = NULL, *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss));
  sp.rate = 100.0;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  const char *bad_gnss[] = {"{\"sigma\": [1, -1, 2]}", "{\"sigma\": [1, 1]}",
                            "{\"sigma\": 3}",          "{\"mean\": [0, 0, \"x\"]}",
                            "{\"sigmas\": [1, 1, 1]}", "{\"sigma\": [1, 1, 1], \"bias\": 1}"};
  for (size_t i = 0; i < sizeof bad_gnss / sizeof bad_gnss[0]; i++) {
    assert_int_equal(sensim_sensor_add_filter(gnss, "gnss_noise", bad_gnss[i]), SENSIM_EINVAL);
    assert_true(strlen(sensim_last_error()) > 0);
    assert_int_equal(gnss->chain.n, 0);
  }
  const char *bad_imu[] = {"{\"gyro_noise_density\": -1e-4}", "{\"accel_bias_walk\": -1}",
                           "{\"gyro_noise\": 1e-4}",          "{\"accel_noise_density\": [1]}",
                           "{\"gyro_bias_walk\": \"big\"}"};
  for (size_t i = 0; i < sizeof bad_imu / sizeof bad_imu[0]; i++) {
    assert_int_equal(sensim_sensor_add_filter(imu, "imu_noise", bad_imu[i]), SENSIM_EINVAL);
    assert_int_equal(imu->chain.n, 0);
  }
  assert_int_equal(sensim_sensor_add_filter(imu, "gnss_noise", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_sensor_add_filter(gnss, "imu_noise", NULL), SENSIM_ETYPE);
  assert_int_equal(imu->chain.n, 0);
  assert_int_equal(gnss->chain.n, 0);
  /* Still usable: good parameters are accepted afterwards and frames flow. */
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(gnss, "gnss_noise", "{\"sigma\": [2, 2, 4]}"));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(imu, "imu_noise", NULL));
  assert_int_equal(gnss->chain.n, 1);
  assert_int_equal(imu->chain.n, 1);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(gnss, &f));
  assert_non_null(f);
  const sensim_gnss_fix *fix = f->data;
  assert_true(fix->cov_enu[0] == 4.0 && fix->cov_enu[8] == 16.0);
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(imu, &f));
  assert_non_null(f);
  sensim_world_destroy(w);
}

static void test_noise_filters_through_world_are_deterministic_and_scaled(void **state) {
  (void)state;
  /* Two worlds with the same seed give bit-identical noisy fixes (the
   * stream is keyed by seed, sensor, frame and slot); the per-axis error
   * has the configured spread. 0 threads: jobs run inside advance(). */
  const int n = 2000;
  double *e[2];
  for (int r = 0; r < 2; r++) {
    e[r] = malloc((size_t)n * 3 * sizeof(double));
    assert_non_null(e[r]);
    sensim_world *w = test_world(0, SEED);
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.rate = 100.0;
    sp.mount.pos = (sensim_vec3){5.0, -3.0, 2.0};
    sensim_sensor *gnss = NULL;
    SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &gnss));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(gnss, "gnss_noise", "{\"sigma\": [0.3, 0.3, 0.6]}"));
    int got = 0;
    for (int k = 0; k < n; k++) {
      SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 100.0));
      const sensim_frame *f = NULL;
      while (sensim_sensor_poll(gnss, &f) == SENSIM_OK && f) {
        const sensim_gnss_fix *fix = f->data;
        e[r][3 * got + 0] = fix->enu[0] - 5.0;
        e[r][3 * got + 1] = fix->enu[1] + 3.0;
        e[r][3 * got + 2] = fix->enu[2] - 2.0;
        got++;
      }
    }
    assert_int_equal(got, n);
    sensim_world_destroy(w);
  }
  assert_memory_equal(e[0], e[1], (size_t)n * 3 * sizeof(double));
  const double sigma[3] = {0.3, 0.3, 0.6};
  for (int i = 0; i < 3; i++) {
    moments m = {0};
    for (int k = 0; k < n; k++) mom_add(&m, e[0][3 * k + i]);
    check_mean(&m, 0.0, sigma[i]);
    check_var(&m, sigma[i]);
  }
  free(e[0]);
  free(e[1]);
}

int sensim_test_noise_filters(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gnss_noise_mean_and_variance_match_parameters),
      cmocka_unit_test(test_gnss_noise_defaults_are_documented_values),
      cmocka_unit_test(test_imu_noise_white_std_is_density_over_sqrt_window),
      cmocka_unit_test(test_imu_noise_instantaneous_samples_use_frame_gap),
      cmocka_unit_test(test_imu_noise_bias_walk_increments_have_variance_k2_dt),
      cmocka_unit_test(test_imu_noise_allan_deviation_shows_white_and_rate_random_walk),
      cmocka_unit_test(test_noise_filters_bad_params_leave_chain_unchanged),
      cmocka_unit_test(test_noise_filters_through_world_are_deterministic_and_scaled),
  };
  return cmocka_run_group_tests_name("noise_filters", tests, NULL, NULL);
}
