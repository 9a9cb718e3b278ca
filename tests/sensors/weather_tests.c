/* tests/sensors/weather_tests.c: the world's weather as the sensors see it
 * (docs/weather.md): extinction of rain and snow against the geometric-
 * optics integral over their size distributions, the lidar's detection
 * range against its equation with that extinction, the count and ranges of
 * particle returns against the Poisson law of the detectable particles,
 * the sensor's own fog as an override, bad weather refused, and clear
 * weather unchanged. The camera's weather: weather_camera_tests.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sensors/lidar_fixtures.h"
#include "support/testutil.h"

#define KOSCH 3.912023005428146 /* -ln 0.02 */

/* ---- the model written out again, independently of scene/weather.c ---- */

typedef struct psd {
  double n0, lam; /* N(D) = n0 exp(-lam D), 1/(m^3 mm), 1/mm */
  double ak, ae;  /* cross-section ak D^ae, mm^2 */
  double albedo;
} psd;

static psd rain_psd(double r) {
  const double f = 0.33 / 2.33; /* Fresnel amplitude of water, n = 1.33 */
  return (psd){8000.0, 4.1 * pow(r, -0.21), M_PI / 4, 2.0, f * f / 4};
}

static psd snow_psd(double s) {
  return (psd){3800.0 * pow(s, -0.87), 2.55 * pow(s, -0.48), M_PI / (4 * 0.17), 3.0, 0.9};
}

/* 2 * integral of ak D^ae N(D) dD by Simpson's rule on [0, 60 / lam], 1/m:
 * the extinction of particles of efficiency 2, without the Gamma function. */
static double beta_quad(psd q) {
  const int n = 20000;
  const double b = 60.0 / q.lam, h = b / n;
  double s = 0.0;
  for (int i = 0; i <= n; i++) {
    double d = i * h, f = q.ak * pow(d, q.ae) * q.n0 * exp(-q.lam * d);
    s += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
  }
  return 2.0 * s * h / 3.0 * 1e-6;
}

static void test_weather_extinction_matches_size_distribution_integral(void **state) {
  (void)state;
  const double rates[4] = {0.5, 1.0, 10.0, 100.0};
  for (int i = 0; i < 4; i++) {
    double R = rates[i];
    /* Marshall-Palmer with Q = 2: pi n0 / lam^3 = 3.6466e-4 R^0.63 1/m. */
    double br = sensim__rain_beta(R);
    assert_near(br, beta_quad(rain_psd(R)), 1e-9 * br);
    assert_near(br, M_PI * 8000.0 / pow(4.1, 3) * pow(R, 0.63) * 1e-6, 1e-12 * br);
    if (R <= 30) {
      double bs = sensim__snow_beta(R);
      assert_near(bs, beta_quad(snow_psd(R)), 1e-9 * bs);
    }
  }
  /* The figures docs/weather.md quotes: 10 mm/h of rain leaves 2.5 km of
   * visibility, 1 mm/h of snow 785 m. */
  assert_near(KOSCH / sensim__rain_beta(10.0), 2515.0, 1.0);
  assert_near(KOSCH / sensim__snow_beta(1.0), 785.2, 0.5);
  /* Extinctions add; a sensor's own fog replaces the world's. */
  sensim_weather wx = {400.0, 10.0, 1.0};
  double sum = KOSCH / 400.0 + sensim__rain_beta(10.0) + sensim__snow_beta(1.0);
  assert_near(sensim_weather_extinction(&wx, 0.0), sum, 1e-15);
  assert_near(sensim_weather_extinction(&wx, 100.0), sum - KOSCH / 400.0 + KOSCH / 100.0, 1e-15);
  sensim_weather clear = {0, 0, 0};
  assert_true(sensim_weather_extinction(&clear, 0.0) == 0.0);
  assert_true(isnan(sensim_weather_extinction(NULL, 0.0)));
  assert_true(isnan(sensim_weather_extinction(&clear, -1.0)));
}

static void test_weather_bad_values_are_refused(void **state) {
  (void)state;
  struct {
    sensim_weather w;
    const char *field;
  } bad[] = {{{-1, 0, 0}, "fog_visibility"}, {{0.5, 0, 0}, "fog_visibility"}, {{INFINITY, 0, 0}, "fog_visibility"},
             {{NAN, 0, 0}, "fog_visibility"},  {{0, -1, 0}, "rain_rate"},      {{0, NAN, 0}, "rain_rate"},
             {{0, 301, 0}, "rain_rate"},       {{0, 0, -0.1}, "snow_rate"},    {{0, 0, 31}, "snow_rate"},
             {{0, 0, INFINITY}, "snow_rate"}};
  sensim_world *w = test_world(0, 1);
  sensim_weather good = {300.0, 5.0, 0.5};
  SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &good));
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_world_params p;
    sensim_world_params_init(&p);
    p.weather = bad[i].w;
    sensim_world *w2 = (sensim_world *)0x1;
    assert_int_equal(sensim_world_create(&p, &w2), SENSIM_EINVAL);
    assert_true(w2 == (sensim_world *)0x1);
    if (!strstr(sensim_last_error(), bad[i].field) || !strstr(sensim_last_error(), "world.weather"))
      fail_msg("case %zu: message '%s' does not name world.weather.%s", i, sensim_last_error(), bad[i].field);
    assert_int_equal(sensim_world_set_weather(w, &bad[i].w), SENSIM_EINVAL);
    assert_non_null(strstr(sensim_last_error(), bad[i].field));
    /* Nothing half-changed. */
    const sensim_weather *now = &sensim_world_params_get(w)->weather;
    assert_true(now->fog_visibility == 300.0 && now->rain_rate == 5.0 && now->snow_rate == 0.5);
  }
  assert_int_equal(sensim_world_set_weather(NULL, &good), SENSIM_EINVAL);
  assert_int_equal(sensim_world_set_weather(w, NULL), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

/* ---- lidar: range ---- */

/* Is a wall of reflectance rho at `dist` seen by one ideal beam (no
 * particles: no divergence) in weather wx, the lidar's own fog `fog`? */
static int wall_seen(double dist, float rho, sensim_weather wx, double fog, double D) {
  sensim_world *w = test_world(0, 7);
  SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &wx));
  add_wall(w, dist, -20, 20, 20, rho);
  sensim_lidar_params lp = one_beam();
  lp.detection_range = D;
  lp.fog_visibility = fog;
  sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_beam *b = poll1(s)->data;
  int seen = b[0].range > 0;
  if (seen) assert_near(b[0].range, dist, 1e-4 * dist);
  if (seen) assert_near(b[0].intensity, rho, 0.5 / 255 + 1e-6); /* range compensated: no fall-off */
  sensim_world_destroy(w);
  return seen;
}

/* rho exp(-2 beta R) / R^2 = 0.8 / D^2: the range R_w solves
 * ln R + beta R = ln(D sqrt(rho / 0.8)); a wall just inside is seen, one
 * just beyond is not. */
static void test_weather_lidar_range_follows_lidar_equation(void **state) {
  (void)state;
  const double D = 80.0;
  struct {
    sensim_weather wx;
    double fog;  /* the lidar's own */
    double beta; /* what it should see, 1/m */
  } c[] = {
      {{0, 50, 0}, 0, sensim__rain_beta(50)},
      {{0, 0, 2}, 0, sensim__snow_beta(2)},
      {{150, 20, 0.5}, 0, KOSCH / 150 + sensim__rain_beta(20) + sensim__snow_beta(0.5)},
      /* The lidar's own fog replaces the world's 30 m fog (which alone
       * would hide anything beyond 15 m). */
      {{30, 20, 0}, 2000, KOSCH / 2000 + sensim__rain_beta(20)},
  };
  const float rhos[2] = {0.8f, 0.3f};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    for (int k = 0; k < 2; k++) {
      double target = log(D * sqrt(rhos[k] / 0.8)), r = D;
      for (int it = 0; it < 60; it++) r -= (log(r) + c[i].beta * r - target) / (1.0 / r + c[i].beta);
      /* Weather shortens the clear-air range D sqrt(rho / 0.8) by 5-80 %. */
      const double clear = D * sqrt(rhos[k] / 0.8);
      if (!(r < 0.95 * clear && r > 0.2 * clear))
        fail_msg("case %zu: range %.2f m of %.2f m in clear air", i, r, clear);
      if (!wall_seen(0.995 * r, rhos[k], c[i].wx, c[i].fog, D) || wall_seen(1.005 * r, rhos[k], c[i].wx, c[i].fog, D))
        fail_msg("case %zu rho %.1f: the detection range is not %.3f m", i, rhos[k], r);
    }
}

/* ---- lidar: particle returns ---- */

/* The test's own intensity of detectable particles per metre at range r:
 * N_T a_b(r) P(D >= D_min) with D_min found by bisection on the particle's
 * received power albedo min(a_p / a_b, 1) exp(-2 beta r) / r^2 against
 * p_min. */
static double lam_indep(psd q, double beta, double div, double pmin, double r) {
  const double ab = M_PI / 4 * div * div * r * r, atm = exp(-2 * beta * r) / (r * r);
  if (q.albedo * atm < pmin) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (q.albedo * fmin(q.ak * pow(hi, q.ae) * 1e-6 / ab, 1.0) * atm < pmin) hi *= 2;
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (q.albedo * fmin(q.ak * pow(mid, q.ae) * 1e-6 / ab, 1.0) * atm < pmin) lo = mid;
    else hi = mid;
  }
  return q.n0 / q.lam * ab * exp(-q.lam * hi);
}

/* Expected detectable particles between r0 and r1 (Simpson, 20000 steps). */
static double mu_indep(const psd *q, int nq, double beta, double div, double pmin, double r0, double r1) {
  const int n = 20000;
  const double h = (r1 - r0) / n;
  double s = 0.0;
  for (int i = 0; i <= n; i++) {
    double f = 0.0;
    for (int k = 0; k < nq; k++) f += lam_indep(q[k], beta, div, pmin, r0 + i * h);
    s += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
  }
  return s * h / 3.0;
}

/* A 16-channel lidar of 3 mrad circular beams under the open sky (nothing
 * to hit but the particles): the fraction of beams with a return is
 * 1 - exp(-mu), mu the expected count of detectable particles per beam;
 * with first returns, the fraction whose first is nearer than x is
 * 1 - exp(-mu(x)). Each within 4.5 binomial standard deviations of the
 * 32 000 beams. */
static void test_weather_lidar_particle_returns_follow_poisson_law(void **state) {
  (void)state;
  const double div = 3e-3, Dr = 100.0, pmin = 0.8 / (Dr * Dr), r0 = 0.5, rmax = 100.0;
  struct {
    double rain, snow, x;
  } c[] = {{0, 1.0, 6.0}, {50, 0, 1.2}, {20, 0.3, 4.0}};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    sensim_weather wx = {0, c[i].rain, c[i].snow};
    psd q[2];
    int nq = 0;
    if (c[i].rain > 0) q[nq++] = rain_psd(c[i].rain);
    if (c[i].snow > 0) q[nq++] = snow_psd(c[i].snow);
    const double beta = sensim__rain_beta(c[i].rain) + sensim__snow_beta(c[i].snow);
    const double mu = mu_indep(q, nq, beta, div, pmin, r0, rmax), mux = mu_indep(q, nq, beta, div, pmin, r0, c[i].x);
    for (int mode = 0; mode < 2; mode++) {
      sensim_world *w = test_world(2, 11 + i);
      SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &wx));
      sensim_lidar_params lp;
      sensim_lidar_params_init(&lp);
      lp.columns = 2000;
      lp.div_h = lp.div_v = div;
      lp.min_range = r0;
      lp.max_range = rmax;
      lp.detection_range = Dr;
      lp.returns = mode ? SENSIM_RETURN_FIRST : SENSIM_RETURN_STRONGEST;
      sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
      SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
      const sensim_frame *f = poll1(s);
      const sensim_beam *b = f->data;
      size_t seen = 0, near = 0;
      for (size_t k = 0; k < f->count; k++) {
        if (!(b[k].range > 0)) continue;
        seen++;
        near += b[k].range < c[i].x;
        assert_true(b[k].range >= r0 && b[k].range <= rmax);
        assert_true(b[k].intensity >= 0 && b[k].intensity <= 1);
        /* A particle is no body: its return's semantic ids are 0. */
        assert_int_equal(b[k].class_id, 0);
        assert_int_equal(b[k].instance_id, 0);
      }
      const double M = (double)f->count;
      assert_true(M == 32000);
      double p = mode ? 1 - exp(-mux) : 1 - exp(-mu), got = mode ? near / M : seen / M;
      double tol = 4.5 * sqrt(p * (1 - p) / M);
      if (fabs(got - p) > tol)
        fail_msg("rain %g snow %g, %s: fraction %.5f, expected %.5f +- %.5f (mu %.5f, mu(%g m) %.5f)", c[i].rain,
                 c[i].snow, mode ? "first nearer than x" : "any return", got, p, tol, mu, c[i].x, mux);
      sensim_world_destroy(w);
    }
  }
}

/* The sizes of the drawn particles: given its range r, a detected flake's
 * melted diameter exceeds D_min(r) by an exponential of rate lambda (the
 * size distribution is memoryless). Read back from the hits' intensities
 * albedo a_p / a_b of 3 mrad beams in 1.5 mm/h of snow: the mean of
 * lambda (D - D_min) is 1 and P(lambda (D - D_min) > 1) = 1/e, within 4.5
 * standard deviations of the sample. */
static void test_weather_lidar_particle_sizes_are_exponential_beyond_dmin(void **state) {
  (void)state;
  sensim_lidar l;
  memset(&l, 0, sizeof l);
  sensim_lidar_params_init(&l.p);
  l.p.div_h = l.p.div_v = 3e-3;
  l.p.min_range = 0.5;
  l.p_min = 0.8 / (100.0 * 100.0);
  sensim_weather wx = {0, 0, 1.5};
  const double beta = sensim__snow_beta(1.5);
  sensim_lidar_wx *t = NULL;
  SENSIM_OK_OR_FAIL(sensim__lidar_wx_init(&l, &wx, beta, &t));
  assert_non_null(t);
  const psd q = snow_psd(1.5);
  double sum = 0.0, over = 0.0, n = 0.0;
  for (uint32_t b = 0; b < 20000; b++) {
    sensim_rng r;
    sensim_rng_init(&r, 3, 0, 0, b);
    sensim_lidar_hit h[SENSIM_LIDAR_WX_MAX];
    int k = sensim__lidar_wx_hits(t, &r, 100.0, h, SENSIM_LIDAR_WX_MAX);
    for (int i = 0; i < k; i++) {
      const double rr = h[i].range, ab = M_PI / 4 * 9e-6 * rr * rr;
      const double frac = h[i].intensity / q.albedo;
      if (frac >= 1.0) continue; /* a flake wider than the beam: its size is not read back */
      double d = cbrt(frac * ab / (q.ak * 1e-6)), x = q.lam * (d - sensim__lidar_wx_dmin(t, 0, rr));
      assert_true(x > -1e-4);
      sum += x;
      over += x > 1.0;
      n++;
    }
  }
  assert_true(n > 10000);
  if (fabs(sum / n - 1.0) > 4.5 / sqrt(n)) fail_msg("mean lambda (D - D_min) %.4f over %.0f flakes", sum / n, n);
  const double pe = exp(-1.0);
  if (fabs(over / n - pe) > 4.5 * sqrt(pe * (1 - pe) / n)) fail_msg("P(> 1/lambda) %.4f, 1/e %.4f", over / n, pe);
  sensim__frame_buffer_free(t);
}

/* Snow in front of a wall, dual returns: the wall is every beam's last
 * return; flakes, when brighter than the wall, are the strongest, nearer. */
static void test_weather_lidar_wall_behind_snow_is_last_return(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 5);
  sensim_weather wx = {0, 0, 2.0};
  SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &wx));
  add_wall(w, 15.0, -200, 200, 200, 0.5f);
  sensim_lidar_params lp = one_beam();
  lp.columns = 400;
  lp.hfov = 0.2; /* all within the wall */
  lp.start_azimuth = -0.1;
  lp.div_h = lp.div_v = 3e-3;
  lp.returns = SENSIM_RETURN_DUAL;
  sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = poll1(s);
  const sensim_beam *b = f->data;
  int flakes = 0;
  for (size_t j = 0; j < f->count; j += 2) {
    double wall = 15.0 / cos(b[j].azimuth);
    const sensim_beam *last = b[j + 1].range > 0 ? &b[j + 1] : &b[j];
    /* A flake within the range resolution of the wall merges into its
     * return (power-weighted range). */
    assert_near(last->range, wall, lp.range_resolution);
    if (b[j].range < wall - 0.2) flakes++;
  }
  /* Some beams, not all: a flake outshines a 0.5 wall at 15 m only near. */
  assert_true(flakes > 5 && flakes < 390);
  sensim_world_destroy(w);
}

/* ---- clear weather ---- */

static const sensim_frame *one_frame(sensim_world *w, sensim_sensor *s, double t) {
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
  return poll1(s);
}

/* Weather applies to the captures after it is set, and clear weather after
 * rain gives the same bits as a world that never had any (lidar with and
 * without a footprint, camera). */
static void test_weather_set_and_cleared_gives_clear_bits(void **state) {
  (void)state;
  for (int kind = 0; kind < 3; kind++) {
    sensim_world *w[2];
    sensim_sensor *s[2];
    for (int k = 0; k < 2; k++) {
      w[k] = test_world(2, 9);
      add_wall(w[k], 12.0, -30, 30, 30, 0.4f);
      sensim_sensor_params sp;
      sensim_sensor_params_init(&sp);
      sp.rate = 10;
      if (kind < 2) {
        sensim_lidar_params lp;
        sensim_lidar_params_init(&lp);
        lp.columns = 360;
        if (kind == 1) {
          lp.div_h = lp.div_v = 3e-3;
          lp.subrays = 7;
          lp.returns = SENSIM_RETURN_DUAL;
        }
        SENSIM_OK_OR_FAIL(sensim_lidar_create(w[k], &sp, &lp, &s[k]));
      } else {
        sensim_camera_params cp;
        sensim_camera_params_init(&cp);
        cp.width = 64;
        cp.height = 48;
        SENSIM_OK_OR_FAIL(sensim_camera_create(w[k], &sp, &cp, &s[k]));
      }
    }
    const sensim_frame *clear0 = one_frame(w[0], s[0], 0.0);
    size_t bytes = clear0->count * sensim_payload_elem_size(clear0->type);
    void *ref = malloc(bytes);
    memcpy(ref, clear0->data, bytes);
    sensim_weather wet = {0, 30, 1}, clear = {0, 0, 0};
    SENSIM_OK_OR_FAIL(sensim_world_set_weather(w[1], &wet));
    const sensim_frame *f = one_frame(w[1], s[1], 0.0);
    assert_int_equal(f->count * sensim_payload_elem_size(f->type), bytes);
    assert_true(memcmp(f->data, ref, bytes) != 0); /* the weather changed what was seen */
    SENSIM_OK_OR_FAIL(sensim_world_set_weather(w[1], &clear));
    const sensim_frame *a = one_frame(w[0], s[0], 0.1);
    memcpy(ref, a->data, bytes);
    const sensim_frame *b = one_frame(w[1], s[1], 0.1);
    assert_int_equal(b->count * sensim_payload_elem_size(b->type), bytes);
    assert_memory_equal(b->data, ref, bytes);
    free(ref);
    sensim_world_destroy(w[0]);
    sensim_world_destroy(w[1]);
  }
}

/* Particles come from per-beam streams: a VLP-16 in snow and rain gives
 * the same bits on 0 and 3 worker threads, and other bits for another
 * seed. */
static void test_weather_lidar_particles_are_the_same_for_any_thread_count(void **state) {
  (void)state;
  void *bits[3];
  size_t bytes = 0;
  for (int k = 0; k < 3; k++) {
    sensim_world *w = test_world(k == 1 ? 3 : 0, k == 2 ? 8 : 7);
    sensim_weather wx = {0, 15, 1.0};
    SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &wx));
    add_wall(w, 20.0, -50, 50, 50, 0.3f);
    sensim_lidar_params lp;
    SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &lp));
    sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = poll1(s);
    bytes = f->count * sensim_payload_elem_size(f->type);
    bits[k] = malloc(bytes);
    memcpy(bits[k], f->data, bytes);
    sensim_world_destroy(w);
  }
  assert_memory_equal(bits[0], bits[1], bytes);
  assert_true(memcmp(bits[0], bits[2], bytes) != 0);
  for (int k = 0; k < 3; k++) free(bits[k]);
}

int sensim_test_weather(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_weather_extinction_matches_size_distribution_integral),
      cmocka_unit_test(test_weather_bad_values_are_refused),
      cmocka_unit_test(test_weather_lidar_range_follows_lidar_equation),
      cmocka_unit_test(test_weather_lidar_particle_returns_follow_poisson_law),
      cmocka_unit_test(test_weather_lidar_particle_sizes_are_exponential_beyond_dmin),
      cmocka_unit_test(test_weather_lidar_wall_behind_snow_is_last_return),
      cmocka_unit_test(test_weather_lidar_particles_are_the_same_for_any_thread_count),
      cmocka_unit_test(test_weather_set_and_cleared_gives_clear_bits),
  };
  return cmocka_run_group_tests_name("weather", tests, NULL, NULL);
}
