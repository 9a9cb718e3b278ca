/* tests/sensors/lidar_noise_tests.c: the "lidar_noise" filter. Range,
 * angle and intensity errors have the set (or datasheet default) sigmas and
 * are independent, both returns of a firing share its pointing, misses are
 * left alone, intensities are clamped and requantised, bad parameters and
 * frames are refused, and a noisy scan is the same with 0 or 2 threads.
 *
 * Statistical bounds are 5 standard errors of the statistic for the sample
 * size (a fixed seed, so deterministic; a correct model fails them for a
 * random seed with probability < 1e-6, a wrong scale lies many standard
 * errors out). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "support/testutil.h"
#include "filters/builtin.h"
#include "sensors/lidar_fixtures.h"

#define SEED 20240611u

static void *noise_make(const char *json) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(sensim__filter_lidar_noise.create(p, &user));
  cJSON_Delete(p);
  return user;
}

/* Apply with the context the chain builds (filters/chain.c). */
static sensim_status noise_apply(void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.seed = SEED;
  sensim_rng_init(&ctx.rng, SEED, 2, f->index, 0x80000000u);
  return sensim__filter_lidar_noise.def.apply(user, f, &ctx);
}

static sensim_frame beams_frame(sensim_beam *b, size_t n, uint32_t returns) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_BEAMS;
  f.data = b;
  f.count = n;
  f.width = (uint32_t)n;
  f.height = 1;
  f.returns = returns;
  return f;
}

static sensim_beam *uniform_beams(size_t n, float range, float az, float el, float in) {
  sensim_beam *b = calloc(n, sizeof *b);
  assert_non_null(b);
  for (size_t i = 0; i < n; i++) b[i] = (sensim_beam){range, in, az, el, -0.01f, 3, 0, 0, 5, 0, 77};
  return b;
}

typedef struct moments {
  double n, mean, m2;
} moments;

static void mom_add(moments *m, double x) { /* Welford (1962) */
  m->n += 1;
  double d = x - m->mean;
  m->mean += d / m->n;
  m->m2 += d * (x - m->mean);
}

/* Mean within 5 sigma / sqrt(n); variance within 5 sigma^2 sqrt(2 / (n - 1))
 * ((n - 1) s^2 / sigma^2 ~ chi^2(n - 1)). */
static void check_normal(const moments *m, double mu, double sigma) {
  assert_near(m->mean, mu, 5 * sigma / sqrt(m->n) + 1e-12);
  assert_near(m->m2 / (m->n - 1), sigma * sigma, 5 * sigma * sigma * sqrt(2 / (m->n - 1)));
}

static void noise_stats(const char *json, double sr, double sa, double se, double si) {
  const size_t N = 100000;
  sensim_beam *b = uniform_beams(N, 20.0f, 0.0f, 0.0f, 0.5f);
  sensim_frame f = beams_frame(b, N, 1);
  void *u = noise_make(json);
  SENSIM_OK_OR_FAIL(noise_apply(u, &f));
  moments r = {0, 0, 0}, a = {0, 0, 0}, e = {0, 0, 0}, in = {0, 0, 0};
  double ra = 0, ae = 0;
  for (size_t i = 0; i < N; i++) {
    mom_add(&r, b[i].range);
    mom_add(&a, b[i].azimuth);
    mom_add(&e, b[i].elevation);
    mom_add(&in, b[i].intensity);
    if (sr > 0 && sa > 0) ra += (b[i].range - 20.0) / sr * (b[i].azimuth / sa);
    if (sa > 0 && se > 0) ae += b[i].azimuth / sa * (b[i].elevation / se);
    assert_int_equal(b[i].ring, 3); /* the rest is untouched: ring, time, the ids */
    assert_true(b[i].time_offset == -0.01f);
    assert_int_equal(b[i].class_id, 5);
    assert_int_equal(b[i].instance_id, 77);
  }
  check_normal(&r, 20.0, sr);
  check_normal(&a, 0.0, sa);
  check_normal(&e, 0.0, se);
  check_normal(&in, 0.5, si);
  /* Independent draws: correlation within 5 / sqrt(N) of 0. */
  assert_near(ra / N, 0.0, 5 / sqrt((double)N));
  assert_near(ae / N, 0.0, 5 / sqrt((double)N));
  free(u);
  free(b);
}

static void test_lidar_noise_sample_statistics_match_sigmas(void **state) {
  (void)state;
  noise_stats("{\"sigma_range\": 0.05, \"sigma_azimuth\": 0.002, \"sigma_elevation\": 0.001, "
              "\"sigma_intensity\": 0.04}",
              0.05, 0.002, 0.001, 0.04);
}

/* Defaults: OS1 range repeatability 1.5 cm, angular accuracy 0.01 deg. */
static void test_lidar_noise_defaults_are_the_datasheet_figures(void **state) {
  (void)state;
  noise_stats(NULL, 0.015, 0.01 * M_PI / 180, 0.01 * M_PI / 180, 0.0);
}

/* Pointing belongs to the firing: both returns of a dual beam move by the
 * same angles, each range by its own error. Beams without a return are left
 * alone and use no draws, so the hits get the same noise with or without
 * misses between them. */
static void test_lidar_noise_shares_pointing_and_skips_misses(void **state) {
  (void)state;
  const size_t N = 2000;
  void *u = noise_make("{\"sigma_range\": 0.1, \"sigma_azimuth\": 0.01, \"sigma_elevation\": 0.01}");
  sensim_beam *d = uniform_beams(2 * N, 10.0f, 0.2f, 0.1f, 0.5f);
  for (size_t i = 0; i < N; i++) {
    d[2 * i + 1].range = 30.0f;
    d[2 * i + 1].return_index = 1;
    if (i % 3 == 0) d[2 * i + 1].range = 0.0f; /* one return only */
  }
  sensim_beam *orig = malloc(2 * N * sizeof *orig);
  memcpy(orig, d, 2 * N * sizeof *orig);
  sensim_frame f = beams_frame(d, 2 * N, 2);
  SENSIM_OK_OR_FAIL(noise_apply(u, &f));
  int differ = 0;
  for (size_t i = 0; i < N; i++) {
    const sensim_beam *a = &d[2 * i], *b = &d[2 * i + 1];
    assert_true(a->azimuth != 0.2f);
    if (i % 3 == 0) {
      assert_memory_equal(b, &orig[2 * i + 1], sizeof *b);
      continue;
    }
    assert_true(a->azimuth == b->azimuth && a->elevation == b->elevation);
    differ += fabs((a->range - 10.0) - (b->range - 30.0)) > 1e-4;
  }
  assert_true(differ > (int)N / 2);
  /* Misses interleaved: same noise on the hits, misses byte for byte. */
  const size_t M = 1000;
  sensim_beam *h = uniform_beams(M, 12.0f, 0.0f, 0.0f, 0.5f), *g = uniform_beams(3 * M, 12.0f, 0.0f, 0.0f, 0.5f);
  for (size_t i = 0; i < 3 * M; i++)
    if (i % 3) g[i].range = 0.0f;
  sensim_frame fh = beams_frame(h, M, 1), fg = beams_frame(g, 3 * M, 1);
  SENSIM_OK_OR_FAIL(noise_apply(u, &fh));
  SENSIM_OK_OR_FAIL(noise_apply(u, &fg));
  for (size_t i = 0; i < M; i++) {
    assert_memory_equal(&g[3 * i], &h[i], sizeof *h);
    assert_true(g[3 * i + 1].range == 0.0f && g[3 * i + 1].azimuth == 0.0f);
  }
  free(h);
  free(g);
  free(orig);
  free(d);
  free(u);
}

static void test_lidar_noise_clamps_and_requantises_intensity(void **state) {
  (void)state;
  const size_t N = 20000;
  void *u = noise_make("{\"sigma_intensity\": 0.1, \"intensity_bits\": 8}");
  sensim_beam *b = uniform_beams(N, 5.0f, 0.0f, 0.0f, 0.98f);
  sensim_frame f = beams_frame(b, N, 1);
  SENSIM_OK_OR_FAIL(noise_apply(u, &f));
  double ones = 0;
  for (size_t i = 0; i < N; i++) {
    assert_true(b[i].intensity >= 0.0f && b[i].intensity <= 1.0f);
    double q = b[i].intensity * 255.0;
    assert_near(q, nearbyint(q), 1e-3);
    ones += b[i].intensity == 1.0f;
  }
  /* P(0.98 + 0.1 n rounds to 1) = P(n > (254.5 / 255 - 0.98) / 0.1). */
  double pr = 0.5 * erfc((254.5 / 255 - 0.98) / 0.1 / sqrt(2.0));
  assert_near(ones / N, pr, 5 * sqrt(pr * (1 - pr) / N));
  free(b);
  free(u);
}

static void test_lidar_noise_rejects_bad_params_and_frames(void **state) {
  (void)state;
  const char *bad[] = {"{\"sigma\": 0.1}",         "{\"sigma_range\": -0.1}",   "{\"sigma_azimuth\": \"x\"}",
                       "{\"sigma_azimuth\": 2}",   "{\"intensity_bits\": 3.5}", "{\"intensity_bits\": 17}",
                       "{\"sigma_intensity\": -1}", "[0.1]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cJSON *p = cJSON_Parse(bad[i]);
    assert_non_null(p);
    void *user = (void *)&user;
    assert_int_equal(sensim__filter_lidar_noise.create(p, &user), SENSIM_EINVAL);
    assert_true(user == (void *)&user); /* nothing handed out */
    cJSON_Delete(p);
  }
  void *u = noise_make("{\"sigma_range\": 0, \"intensity_bits\": 0}");
  sensim_beam *b = uniform_beams(3, 5.0f, 0.0f, 0.0f, 0.5f);
  sensim_frame f = beams_frame(b, 3, 2); /* not a whole number of firings */
  assert_int_equal(noise_apply(u, &f), SENSIM_EINVAL);
  assert_true(b[0].range == 5.0f && b[0].azimuth == 0.0f);
  f.type = SENSIM_PAYLOAD_POINTS;
  assert_int_equal(noise_apply(u, &f), SENSIM_ETYPE);
  free(b);
  free(u);
  /* Through a sensor: strict JSON, still usable after a refusal, chains to points. */
  sensim_world *w = test_world(0, 1);
  sensim_lidar_params lp = one_beam();
  sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
  assert_int_equal(sensim_sensor_add_filter(s, "lidar_noise", "{\"sigma_elevation\": -1}"), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_output_type(s), SENSIM_PAYLOAD_BEAMS);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "lidar_noise", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "points", NULL));
  assert_int_equal(sensim_sensor_add_filter(s, "lidar_noise", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_sensor_output_type(s), SENSIM_PAYLOAD_POINTS);
  sensim_world_destroy(w);
}

/* End to end: a 16 x 900 scan of a wall with noise, frames 0..3, with 0 and
 * 2 worker threads: bit-identical; and the range error has the set sigma. */
static void test_lidar_noise_end_to_end_deterministic_across_threads(void **state) {
  (void)state;
  sensim_beam *ref[4] = {NULL, NULL, NULL, NULL};
  size_t cnt[4] = {0, 0, 0, 0};
  for (int threads = 0; threads <= 2; threads += 2) {
    sensim_world *w = test_world(threads, 99);
    add_wall(w, 8.0, -30, 30, 30, 0.6f);
    sensim_lidar_params lp;
    sensim_lidar_params_init(&lp);
    lp.columns = 900;
    sensim_sensor *s =
        add_lidar(w, &lp, "lidar_noise", "{\"sigma_range\": 0.02, \"sigma_azimuth\": 0, \"sigma_elevation\": 0}");
    moments err = {0, 0, 0};
    for (int k = 0; k < 4; k++) {
      SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1 * k));
      const sensim_frame *f = poll1(s);
      assert_int_equal(f->index, (uint64_t)k);
      const sensim_beam *b = f->data;
      if (threads == 0) {
        cnt[k] = f->count;
        ref[k] = malloc(f->count * sizeof *b);
        memcpy(ref[k], b, f->count * sizeof *b);
      } else {
        assert_int_equal(f->count, cnt[k]);
        assert_memory_equal(b, ref[k], cnt[k] * sizeof *b);
      }
      for (size_t i = 0; i < f->count; i++) /* wall x = 8: r = 8 / (cos el cos az) */
        if (b[i].range > 0) mom_add(&err, b[i].range - 8.0 / (cos(b[i].elevation) * cos(b[i].azimuth)));
    }
    assert_true(err.n > 10000);
    check_normal(&err, 0.0, 0.02);
    sensim_world_destroy(w);
  }
  for (int k = 0; k < 4; k++) free(ref[k]);
}

int sensim_test_lidar_noise(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_noise_sample_statistics_match_sigmas),
      cmocka_unit_test(test_lidar_noise_defaults_are_the_datasheet_figures),
      cmocka_unit_test(test_lidar_noise_shares_pointing_and_skips_misses),
      cmocka_unit_test(test_lidar_noise_clamps_and_requantises_intensity),
      cmocka_unit_test(test_lidar_noise_rejects_bad_params_and_frames),
      cmocka_unit_test(test_lidar_noise_end_to_end_deterministic_across_threads),
  };
  return cmocka_run_group_tests_name("lidar_noise", tests, NULL, NULL);
}
