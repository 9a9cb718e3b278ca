/* tests/filters/image_sensor_tests.c: "image_sensor", "noise_intensity",
 * "noise_emva1288", "cfa", "adc" and "raw16".
 *
 * Statistical checks use fixed seeds, so they are deterministic; their
 * bounds are 5 standard errors of the statistic for the sample size. The
 * variance of a sample variance of n iid values is exactly
 * kappa4 / n + 2 kappa2^2 / (n - 1) (kappa: cumulants; Gaussian kappa4 = 0,
 * so 2 sigma^4 / (n - 1); Poisson kappa2 = kappa4 = mu, i.e. fourth central
 * moment mu + 3 mu^2). A wrong model (sigma for sigma^2, a missing term, a
 * wrong gain) lies many standard errors out.
 *
 * Most checks call a builtin's create/apply on hand-made frames with the
 * context the chain builds (filters/chain.c); the fixed-pattern, exposure
 * and error-reporting checks also run the real world -> camera -> chain
 * path (0 threads). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "runtime/runtime_internal.h"
#include "support/testutil.h"
#include "filters/builtin.h"

#define SEED 1288u

/* ---- harness ------------------------------------------------------------ */

static sensim_status try_make(const sensim_builtin_filter *b, const char *json, void **user) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  *user = NULL;
  sensim_status rc = b->create(p, user);
  cJSON_Delete(p);
  return rc;
}

static void *make(const sensim_builtin_filter *b, const char *json) {
  void *user = NULL;
  SENSIM_OK_OR_FAIL(try_make(b, json, &user));
  return user;
}

static void drop(const sensim_builtin_filter *b, void *user) {
  if (b->def.destroy) b->def.destroy(user);
}

/* The context chain.c builds for slot 0 of sensor `sensor`, frame f->index. */
typedef struct harness {
  sensim_exposure_state x;
  sensim_filter_ctx ctx;
} harness;

static sensim_status run(const sensim_builtin_filter *b, void *user, sensim_frame *f, harness *h, uint64_t seed,
                         uint32_t sensor) {
  h->x.frame = f->index;
  h->ctx.seed = seed;
  h->ctx.sensor_id = sensor;
  h->ctx.slot = 0;
  h->ctx.exposure = &h->x;
  sensim_rng_init(&h->ctx.rng, seed, sensor, f->index, 0x80000000u);
  return b->def.apply(user, f, &h->ctx);
}

static void run_ok(const sensim_builtin_filter *b, void *user, sensim_frame *f) {
  harness h;
  memset(&h, 0, sizeof h);
  SENSIM_OK_OR_FAIL(run(b, user, f, &h, SEED, 3));
}

/* A w x h frame of `type` whose every value is `fill`. */
static void image(sensim_frame *f, sensim_payload type, uint32_t w, uint32_t h, sensim_image_unit unit, float fill,
                  uint64_t index) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, type, w, h));
  size_t n = f->count * (type == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1);
  for (size_t i = 0; i < n; i++) ((float *)f->data)[i] = fill;
  f->unit = unit;
  f->index = index;
}

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
static moments mom_of(const float *v, size_t n) {
  moments m = {0};
  for (size_t i = 0; i < n; i++) mom_add(&m, v[i]);
  return m;
}

/* Mean within 5 standard errors; variance within 5 standard errors of a
 * sample variance with cumulants kappa2, kappa4. */
static void check_moments(const moments *m, double mu, double kappa2, double kappa4) {
  assert_near(m->mean, mu, 5.0 * sqrt(kappa2 / m->n) + 1e-12);
  double se = sqrt(kappa4 / m->n + 2.0 * kappa2 * kappa2 / (m->n - 1.0));
  assert_near(mom_var(m), kappa2, 5.0 * se + 1e-12);
}

/* ---- noise_intensity ---------------------------------------------------- */

static void test_noise_intensity_variance_is_s1sq_I_plus_s2sq_at_four_levels(void **state) {
  (void)state;
  const double s1 = 0.05, s2 = 0.01, levels[4] = {0.0, 0.05, 0.3, 0.8};
  const sensim_payload types[3] = {SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_RAW_F32, SENSIM_PAYLOAD_RGB_F32};
  void *u = make(&sensim__filter_noise_intensity, "{\"s1\": 0.05, \"s2\": 0.01}");
  for (int t = 0; t < 3; t++)
    for (int k = 0; k < 4; k++) {
      sensim_frame f;
      image(&f, types[t], 256, 256, SENSIM_UNIT_SIGNAL, (float)levels[k], (uint64_t)(4 * t + k));
      run_ok(&sensim__filter_noise_intensity, u, &f);
      size_t n = f.count * (types[t] == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1);
      moments m = mom_of(f.data, n);
      check_moments(&m, levels[k], s1 * s1 * levels[k] + s2 * s2, 0.0);
      assert_int_equal(f.unit, SENSIM_UNIT_SIGNAL);
      free(f.data);
    }
  drop(&sensim__filter_noise_intensity, u);
}

/* The documented defaults: noise_intensity's model in SIGNAL units is the
 * temporal noise of the noise_emva1288 + adc defaults at unity gain. */
static void test_noise_intensity_defaults_match_emva1288_and_adc_defaults(void **state) {
  (void)state;
  void *emva = make(&sensim__filter_noise_emva1288, "{\"prnu\": 0, \"dsnu\": 0}");
  void *adc = make(&sensim__filter_adc, NULL);
  void *intensity = make(&sensim__filter_noise_intensity, NULL);
  /* 20 e- (8 DN, where s2 is a third of the variance, 3.7 sigma above the
   * clip at 0), 1000 e- and 5000 e-. */
  const float levels[3] = {20.0f, 1000.0f, 5000.0f};
  for (int k = 0; k < 3; k++) {
    sensim_frame f;
    image(&f, SENSIM_PAYLOAD_GRAY_F32, 256, 256, SENSIM_UNIT_ELECTRONS, levels[k], (uint64_t)k);
    f.exposure_time = 0.01;
    run_ok(&sensim__filter_noise_emva1288, emva, &f);
    run_ok(&sensim__filter_adc, adc, &f);
    moments m = mom_of(f.data, f.count);
    double model = 0.01 * 0.01 * m.mean + 3.1e-4 * 3.1e-4; /* documented s1, s2 */
    double se = model * sqrt(2.0 / (m.n - 1.0));
    assert_near(mom_var(&m), model, 5.0 * se);
    /* The filter's own defaults on a flat frame at that mean. */
    sensim_frame g;
    image(&g, SENSIM_PAYLOAD_GRAY_F32, 256, 256, SENSIM_UNIT_SIGNAL, (float)m.mean, (uint64_t)k);
    run_ok(&sensim__filter_noise_intensity, intensity, &g);
    moments mi = mom_of(g.data, g.count);
    assert_near(mom_var(&mi), mom_var(&m), 5.0 * sqrt(2.0) * se);
    free(f.data);
    free(g.data);
  }
  drop(&sensim__filter_noise_emva1288, emva);
  drop(&sensim__filter_adc, adc);
  drop(&sensim__filter_noise_intensity, intensity);
}

/* ---- noise_emva1288 ----------------------------------------------------- */

/* Pearson's chi-square of integer samples against Poisson(mu): single
 * bins, the lower tail merged up to at least 5 expected counts and the
 * upper tail [hi, inf) lumped likewise. *df = bins - 1. */
static double poisson_chi2(const float *v, size_t n, double mu, int *df) {
  enum { MAXK = 160 };
  double count[MAXK] = {0}, expect[MAXK], N = (double)n;
  for (size_t i = 0; i < n; i++) count[v[i] < MAXK - 1 ? (int)v[i] : MAXK - 1] += 1.0;
  for (int k = 0; k < MAXK; k++) expect[k] = N * exp(-mu + k * log(mu) - lgamma(k + 1.0));
  int lo = 0, hi = 0;
  double c_lo = count[0], e_lo = expect[0];
  while (e_lo < 5.0) c_lo += count[++lo], e_lo += expect[lo];
  double below = 0.0; /* expected count below k */
  for (int k = 0; k < MAXK; k++) {
    if (N - below >= 5.0) hi = k;
    below += expect[k];
  }
  double e_hi = N, c_hi = 0.0;
  for (int k = 0; k < hi; k++) e_hi -= expect[k];
  for (int k = hi; k < MAXK; k++) c_hi += count[k];
  assert_true(hi > lo + 1);
  double chi = (c_lo - e_lo) * (c_lo - e_lo) / e_lo + (c_hi - e_hi) * (c_hi - e_hi) / e_hi;
  for (int k = lo + 1; k < hi; k++) chi += (count[k] - expect[k]) * (count[k] - expect[k]) / expect[k];
  *df = hi - lo; /* hi - lo + 1 bins */
  return chi;
}

static void test_emva1288_shot_noise_is_poisson_at_five_means(void **state) {
  (void)state;
  /* Means on both sides of the sampler's switch at 10 (inversion, PTRS):
   * the whole distribution by chi-square where it has few values, mean and
   * variance (Poisson: kappa2 = kappa4 = mu) everywhere. */
  void *u = make(&sensim__filter_noise_emva1288,
                 "{\"read_noise\": 0, \"dark_current\": 0, \"prnu\": 0, \"dsnu\": 0}");
  const double mus[5] = {3.0, 9.5, 15.0, 50.0, 2000.0};
  for (int k = 0; k < 5; k++) {
    sensim_frame f;
    image(&f, SENSIM_PAYLOAD_GRAY_F32, 256, 256, SENSIM_UNIT_ELECTRONS, (float)mus[k], (uint64_t)k);
    run_ok(&sensim__filter_noise_emva1288, u, &f);
    const float *v = f.data;
    for (size_t i = 0; i < f.count; i++) assert_true(v[i] == floorf(v[i]) && v[i] >= 0.0f); /* electrons */
    moments m = mom_of(v, f.count);
    check_moments(&m, mus[k], mus[k], mus[k]);
    if (mus[k] <= 50.0) {
      int df = 0;
      double chi = poisson_chi2(v, f.count, mus[k], &df);
      assert_true(df >= 5);
      if (!(chi <= df + 5.0 * sqrt(2.0 * df))) fail_msg("mu %g: chi2 %g with %d dof", mus[k], chi, df);
    }
    assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
    free(f.data);
  }
  drop(&sensim__filter_noise_emva1288, u);
}

static void test_emva1288_temporal_variance_adds_dark_current_and_read_noise(void **state) {
  (void)state;
  /* mu_d = 40 e-/s x 0.5 s = 20 e-; sigma_d = 4 e-: mean mu_e + mu_d,
   * variance mu_e + mu_d + 16, kappa4 = mu_e + mu_d (Gaussian adds none). */
  void *u = make(&sensim__filter_noise_emva1288,
                 "{\"read_noise\": 4, \"dark_current\": 40, \"prnu\": 0, \"dsnu\": 0}");
  const double mus[3] = {0.0, 1000.0, 5000.0};
  for (int k = 0; k < 3; k++) {
    sensim_frame f;
    image(&f, SENSIM_PAYLOAD_RAW_F32, 256, 256, SENSIM_UNIT_ELECTRONS, (float)mus[k], (uint64_t)k);
    f.exposure_time = 0.5;
    run_ok(&sensim__filter_noise_emva1288, u, &f);
    moments m = mom_of(f.data, f.count);
    double mu = mus[k] + 20.0;
    check_moments(&m, mu, mu + 16.0, mu);
    free(f.data);
  }
  drop(&sensim__filter_noise_emva1288, u);
  /* Saturation: the drawn charge is clipped at the full well before read
   * noise, also far beyond it (no draw). */
  u = make(&sensim__filter_noise_emva1288, "{\"read_noise\": 0, \"dark_current\": 0, \"prnu\": 0, \"dsnu\": 0,"
                                           " \"full_well\": 1000}");
  const float fills[2] = {1000.0f, 1e8f};
  for (int k = 0; k < 2; k++) {
    sensim_frame f;
    image(&f, SENSIM_PAYLOAD_GRAY_F32, 64, 64, SENSIM_UNIT_ELECTRONS, fills[k], 0);
    run_ok(&sensim__filter_noise_emva1288, u, &f);
    moments m = mom_of(f.data, f.count);
    for (size_t i = 0; i < f.count; i++) assert_true(((float *)f.data)[i] <= 1000.0f);
    if (k == 0) assert_true(m.mean < 1000.0 - 5.0); /* about half the draws fall below: mean ~ 987 */
    else assert_true(m.mean == 1000.0);
    free(f.data);
  }
  drop(&sensim__filter_noise_emva1288, u);
}

/* EMVA 1288 photon transfer: pairs of frames A, B per level give
 * mu_y = mean (A + B) / 2 and sigma_y^2 = var(A - B) / 2, which removes the
 * fixed pattern only if it is the same in both frames. The model is
 * sigma_y^2 = K^2 sigma_d^2 + 1/12 + K (mu_y - mu_y.dark). */
static void photon_transfer(double gain, const double *levels, int nl) {
  const double K = 4095.0 / 10000.0, Kg = K * gain, sd = 5.0, black = 100.0;
  void *noise = make(&sensim__filter_noise_emva1288,
                     "{\"read_noise\": 5, \"dark_current\": 0, \"prnu\": 0.02, \"dsnu\": 3}");
  void *raw = make(&sensim__filter_raw16, "{\"bits\": 12, \"black_level\": 100}");
  void *adc = make(&sensim__filter_adc, "{\"bits\": 12, \"black_level\": 100}");
  double x[16], y[16], se[16], mu_dark = 0.0;
  for (int k = 0; k < nl; k++) {
    moments mean = {0}, diff = {0};
    uint16_t *dn[2];
    for (int j = 0; j < 2; j++) {
      sensim_frame f;
      image(&f, SENSIM_PAYLOAD_RAW_F32, 256, 256, SENSIM_UNIT_ELECTRONS, (float)levels[k], (uint64_t)(2 * k + j));
      f.cfa = SENSIM_CFA_RGGB;
      f.gain = gain;
      run_ok(&sensim__filter_noise_emva1288, noise, &f);
      float *copy = malloc(f.count * sizeof *copy);
      assert_non_null(copy);
      memcpy(copy, f.data, f.count * sizeof *copy);
      run_ok(&sensim__filter_raw16, raw, &f);
      assert_int_equal(f.type, SENSIM_PAYLOAD_RAW16);
      assert_int_equal(f.cfa, SENSIM_CFA_RGGB);
      dn[j] = f.data;
      /* "adc" gives the same numbers as SIGNAL, black subtracted. */
      sensim_frame g = f;
      g.type = SENSIM_PAYLOAD_RAW_F32;
      g.data = copy;
      g.unit = SENSIM_UNIT_ELECTRONS;
      run_ok(&sensim__filter_adc, adc, &g);
      for (size_t i = 0; i < f.count; i++)
        assert_true(copy[i] == (float)((dn[j][i] - black) / (4095.0 - black)));
      free(copy);
    }
    for (size_t i = 0; i < 256u * 256u; i++) {
      mom_add(&mean, 0.5 * (dn[0][i] + dn[1][i]));
      mom_add(&diff, (double)dn[0][i] - dn[1][i]);
    }
    free(dn[0]);
    free(dn[1]);
    if (k == 0) mu_dark = mean.mean;
    x[k] = mean.mean - mu_dark;
    y[k] = 0.5 * mom_var(&diff);
    double model = Kg * Kg * sd * sd + 1.0 / 12.0 + Kg * x[k];
    se[k] = model * sqrt(2.0 / (diff.n - 1.0)); /* Gaussian approximation of A - B */
    assert_near(y[k], model, 5.0 * se[k]);
    /* The mean response is K g mu_e above the dark level (PRNU averages out
     * to prnu / sqrt(n) relative). */
    assert_near(x[k], Kg * levels[k], 5.0 * (Kg * levels[k] * 0.02 / 256.0 + sqrt(y[k] / 65536.0)) + 0.1);
  }
  /* Least-squares slope of sigma_y^2 on mu_y - mu_y.dark, and its standard
   * error from the per-level errors. */
  double xm = 0, ym = 0, sxx = 0, sxy = 0, var_slope = 0;
  for (int k = 0; k < nl; k++) xm += x[k] / nl, ym += y[k] / nl;
  for (int k = 0; k < nl; k++) sxx += (x[k] - xm) * (x[k] - xm), sxy += (x[k] - xm) * (y[k] - ym);
  for (int k = 0; k < nl; k++) var_slope += (x[k] - xm) * (x[k] - xm) * se[k] * se[k];
  double slope = sxy / sxx, slope_se = sqrt(var_slope) / sxx;
  assert_near(slope, Kg, 5.0 * slope_se);
  assert_true(5.0 * slope_se < 0.05 * Kg); /* the check can tell K from 1.1 K */
  assert_near(ym - slope * xm, Kg * Kg * sd * sd + 1.0 / 12.0, 5.0 * (se[0] + slope_se * xm));
  drop(&sensim__filter_noise_emva1288, noise);
  drop(&sensim__filter_raw16, raw);
  drop(&sensim__filter_adc, adc);
}

static void test_emva1288_photon_transfer_slope_is_system_gain(void **state) {
  (void)state;
  const double levels1[8] = {0, 500, 1500, 3000, 4500, 6000, 7500, 8500};
  const double levels2[8] = {0, 250, 750, 1500, 2250, 3000, 3750, 4250};
  photon_transfer(1.0, levels1, 8);
  photon_transfer(2.0, levels2, 8); /* analog gain 2: slope 2 K */
}

/* Noise-free pattern: out = mu_e (1 + prnu a) + dsnu b. */
static float *pattern_frame(void *u, float mu_e, uint32_t w, uint64_t index, uint64_t seed, uint32_t sensor) {
  sensim_frame f;
  image(&f, SENSIM_PAYLOAD_GRAY_F32, w, 128, SENSIM_UNIT_ELECTRONS, mu_e, index);
  harness h;
  memset(&h, 0, sizeof h);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_noise_emva1288, u, &f, &h, seed, sensor));
  return f.data;
}

static void test_emva1288_fixed_pattern_same_every_frame_differs_per_seed_and_sensor(void **state) {
  (void)state;
  void *u = make(&sensim__filter_noise_emva1288, "{\"shot_noise\": 0, \"read_noise\": 0, \"dark_current\": 0,"
                                                 " \"prnu\": 0.05, \"dsnu\": 4}");
  const size_t n = 128u * 128u;
  float *a0 = pattern_frame(u, 1000.0f, 128, 0, SEED, 3);
  float *a7 = pattern_frame(u, 1000.0f, 128, 7, SEED, 3);
  float *seed2 = pattern_frame(u, 1000.0f, 128, 0, SEED + 1, 3);
  float *sensor4 = pattern_frame(u, 1000.0f, 128, 7, SEED, 4);
  float *narrow = pattern_frame(u, 1000.0f, 64, 7, SEED, 3);
  assert_memory_equal(a0, a7, n * sizeof *a0);
  /* Independent patterns: sample correlation within 5 / sqrt(n) of 0. */
  const float *other[2] = {seed2, sensor4};
  for (int j = 0; j < 2; j++) {
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; i++) {
      double p = a0[i] - 1000.0, q = other[j][i] - 1000.0;
      sab += p * q, saa += p * p, sbb += q * q;
    }
    assert_near(sab / sqrt(saa * sbb), 0.0, 5.0 / sqrt((double)n));
  }
  /* A photodiode's pattern does not depend on the image width. */
  for (uint32_t y = 0; y < 128; y++) assert_memory_equal(narrow + 64 * y, a0 + 128 * y, 64 * sizeof *a0);
  /* Spread: (prnu mu_e)^2 + dsnu^2 in the light, dsnu^2 in the dark. */
  moments m = mom_of(a0, n);
  check_moments(&m, 1000.0, 50.0 * 50.0 + 16.0, 0.0);
  float *dark = pattern_frame(u, 0.0f, 128, 2, SEED, 3);
  m = mom_of(dark, n);
  check_moments(&m, 0.0, 16.0, 0.0);
  free(a0), free(a7), free(seed2), free(sensor4), free(narrow), free(dark);
  drop(&sensim__filter_noise_emva1288, u);
}

/* A world whose camera sees only a uniform background of radiance 0.25. */
static sensim_world *flat_world(uint64_t seed) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.seed = seed;
  p.background[0] = p.background[1] = p.background[2] = 0.25f;
  p.ambient = 0.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

static sensim_sensor *flat_camera(sensim_world *w) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 32;
  cp.height = 24;
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  return cam;
}

/* Frames 0..n-1 of a fresh flat world's camera through `chain` (pairs of
 * filter name and JSON), values copied into out[k]. */
static void capture_chain(uint64_t seed, const char *const *chain, int nf, int n, float **out) {
  sensim_world *w = flat_world(seed);
  sensim_sensor *cam = flat_camera(w);
  for (int i = 0; i < nf; i++) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, chain[2 * i], chain[2 * i + 1]));
  for (int k = 0; k < n; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 10.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_int_equal(f->type, SENSIM_PAYLOAD_RAW_F32);
    assert_int_equal(f->unit, SENSIM_UNIT_ELECTRONS);
    out[k] = malloc(f->count * sizeof(float));
    assert_non_null(out[k]);
    memcpy(out[k], f->data, f->count * sizeof(float));
  }
  sensim_world_destroy(w);
}

static void test_emva1288_fixed_pattern_through_worlds_is_per_seed(void **state) {
  (void)state;
  /* The physical order: cfa, image_sensor, noise. Temporal noise off, so
   * the frames show the fixed pattern alone. */
  const char *chain[] = {"cfa", "{\"pattern\": \"GRBG\"}", "image_sensor", NULL, "noise_emva1288",
                         "{\"shot_noise\": 0, \"read_noise\": 0, \"dark_current\": 0, \"prnu\": 0.03, \"dsnu\": 2}"};
  const size_t n = 32 * 24;
  float *a[2], *b[2], *c[2];
  capture_chain(SEED, chain, 3, 2, a);
  capture_chain(SEED, chain, 3, 2, b);
  capture_chain(SEED + 99, chain, 3, 2, c);
  assert_memory_equal(a[0], a[1], n * sizeof(float)); /* frame to frame */
  assert_memory_equal(a[0], b[0], n * sizeof(float)); /* same seed, same sensor */
  size_t differ = 0;
  for (size_t i = 0; i < n; i++) differ += a[0][i] != c[0][i];
  assert_true(differ > n * 9 / 10); /* another seed, another pattern */
  assert_memory_equal(c[0], c[1], n * sizeof(float));
  /* The pattern spreads around 0.25 x 0.01 s x 3e6 x 0.5 = 3750 e-. */
  moments m = mom_of(a[0], n);
  assert_near(m.mean, 3750.0, 5.0 * sqrt((112.5 * 112.5 + 4.0) / n));
  for (int k = 0; k < 2; k++) free(a[k]), free(b[k]), free(c[k]);
}

/* ---- cfa ---------------------------------------------------------------- */

static void test_cfa_each_pattern_puts_right_channel_at_each_cell(void **state) {
  (void)state;
  /* frame.h: a pattern names its 2 x 2 cell left to right, top to bottom. */
  const char *names[4] = {"RGGB", "BGGR", "GRBG", "GBRG"};
  const sensim_cfa values[4] = {SENSIM_CFA_RGGB, SENSIM_CFA_BGGR, SENSIM_CFA_GRBG, SENSIM_CFA_GBRG};
  const char *cells[4] = {"RGGB", "BGGR", "GRBG", "GBRG"}; /* (0,0) (1,0) (0,1) (1,1) */
  for (int p = 0; p < 4; p++) {
    char json[64];
    snprintf(json, sizeof json, "{\"pattern\": \"%s\"}", names[p]);
    void *u = make(&sensim__filter_cfa, json);
    sensim_frame f;
    image(&f, SENSIM_PAYLOAD_RGB_F32, 6, 4, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
    float *rgb = f.data;
    for (size_t i = 0; i < f.count; i++)
      for (int c = 0; c < 3; c++) rgb[3 * i + c] = (float)(1000 * c + i); /* channel and pixel coded */
    float depth[24];
    for (int i = 0; i < 24; i++) depth[i] = (float)i;
    f.depth = depth;
    run_ok(&sensim__filter_cfa, u, &f);
    assert_int_equal(f.type, SENSIM_PAYLOAD_RAW_F32);
    assert_int_equal(f.cfa, values[p]);
    assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
    assert_true(f.width == 6 && f.height == 4 && f.count == 24 && f.depth == depth);
    const float *raw = f.data;
    for (uint32_t y = 0; y < 4; y++)
      for (uint32_t x = 0; x < 6; x++) {
        char want = cells[p][(x % 2) + 2 * (y % 2)];
        int c = want == 'R' ? 0 : want == 'G' ? 1 : 2;
        assert_true(raw[y * 6 + x] == (float)(1000 * c + y * 6 + x));
      }
    free(f.data);
    drop(&sensim__filter_cfa, u);
  }
}

/* ---- adc ---------------------------------------------------------------- */

static void test_adc_rounding_error_of_ramp_has_variance_one_twelfth(void **state) {
  (void)state;
  /* A dense ramp over the full well: DN - K e is uniform on [-1/2, 1/2]
   * (EMVA 1288: sigma_q^2 = 1/12 DN^2); kappa2 = 1/12, kappa4 = -1/120. */
  void *u = make(&sensim__filter_adc, NULL); /* 12 bits, K = 4095 / 10000 */
  const double K = 4095.0 / 10000.0;
  sensim_frame f;
  image(&f, SENSIM_PAYLOAD_GRAY_F32, 1000, 100, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
  float *v = f.data;
  double *e = malloc(f.count * sizeof *e);
  assert_non_null(e);
  for (size_t i = 0; i < f.count; i++) v[i] = (float)(9999.0 * (double)i / (double)f.count), e[i] = v[i];
  run_ok(&sensim__filter_adc, u, &f);
  assert_int_equal(f.unit, SENSIM_UNIT_SIGNAL);
  moments m = {0};
  for (size_t i = 0; i < f.count; i++) {
    double dn = v[i] * 4095.0;
    assert_near(dn, floor(dn + 0.5), 1e-3); /* an integer DN */
    double err = floor(dn + 0.5) - K * e[i];
    assert_true(fabs(err) <= 0.5 + 1e-9);
    mom_add(&m, err);
  }
  check_moments(&m, 0.0, 1.0 / 12.0, -1.0 / 120.0);
  free(e);
  free(f.data);
  /* Saturation, black, NaN, gain and an 8-bit converter. */
  const float in[5] = {20000.0f, 10000.0f, -50.0f, NAN, 2000.0f};
  const float want12[5] = {1.0f, 1.0f, 0.0f, 0.0f, (float)(819.0 / 4095.0)};
  image(&f, SENSIM_PAYLOAD_GRAY_F32, 5, 1, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
  memcpy(f.data, in, sizeof in);
  run_ok(&sensim__filter_adc, u, &f);
  for (int i = 0; i < 5; i++) assert_true(((float *)f.data)[i] == want12[i]);
  memcpy(f.data, in, sizeof in);
  f.unit = SENSIM_UNIT_ELECTRONS;
  f.gain = 2.0; /* K g: 2000 e- -> 1638 DN */
  run_ok(&sensim__filter_adc, u, &f);
  assert_true(((float *)f.data)[4] == (float)(1638.0 / 4095.0));
  drop(&sensim__filter_adc, u);
  u = make(&sensim__filter_adc, "{\"bits\": 8, \"full_well\": 5000}");
  memcpy(f.data, in, sizeof in);
  f.unit = SENSIM_UNIT_ELECTRONS;
  f.gain = 0.0; /* no image_sensor: unity */
  run_ok(&sensim__filter_adc, u, &f);
  assert_true(((float *)f.data)[4] == (float)(102.0 / 255.0)); /* 2000 x 255 / 5000 = 102 */
  free(f.data);
  drop(&sensim__filter_adc, u);
}

/* ---- image_sensor ------------------------------------------------------- */

static void test_image_sensor_electrons_follow_formula_and_double_with_time(void **state) {
  (void)state;
  const double L[3] = {0.1, 0.2, 0.05}, qe[3] = {0.4, 0.6, 0.3}, R = 1e6;
  float e[2][3];
  for (int j = 0; j < 2; j++) {
    double t = j ? 0.008 : 0.004;
    char json[160];
    snprintf(json, sizeof json,
             "{\"exposure_time\": %g, \"responsivity\": 1e6, \"qe\": [0.4, 0.6, 0.3], \"full_well\": 20000}", t);
    void *u = make(&sensim__filter_image_sensor, json);
    sensim_frame f;
    image(&f, SENSIM_PAYLOAD_RGB_F32, 4, 2, SENSIM_UNIT_RADIANCE, 0.0f, 0);
    float *v = f.data;
    for (size_t i = 0; i < f.count; i++)
      for (int c = 0; c < 3; c++) v[3 * i + c] = (float)L[c];
    v[3] = 100.0f, v[4] = -1.0f, v[5] = NAN; /* pixel 1: saturates, and collects nothing */
    run_ok(&sensim__filter_image_sensor, u, &f);
    assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
    assert_true(f.exposure_time == t && f.gain == 1.0);
    for (int c = 0; c < 3; c++) {
      e[j][c] = v[c];
      assert_near(v[c], L[c] * t * R * qe[c], 1e-3);
    }
    assert_true(v[3] == 20000.0f && v[4] == 0.0f && v[5] == 0.0f);
    free(f.data);
    drop(&sensim__filter_image_sensor, u);
  }
  for (int c = 0; c < 3; c++) assert_near(e[1][c] / e[0][c], 2.0, 1e-6);
  /* A mosaic takes the quantum efficiency of each site's colour. */
  void *u = make(&sensim__filter_image_sensor, "{\"responsivity\": 1e6, \"qe\": [0.4, 0.6, 0.3]}");
  sensim_frame f;
  image(&f, SENSIM_PAYLOAD_RAW_F32, 2, 2, SENSIM_UNIT_RADIANCE, 0.1f, 0);
  f.cfa = SENSIM_CFA_GRBG;
  run_ok(&sensim__filter_image_sensor, u, &f);
  const double want[4] = {0.6, 0.4, 0.3, 0.6}; /* G R / B G */
  for (int i = 0; i < 4; i++) assert_near(((float *)f.data)[i], 0.1 * 0.01 * 1e6 * want[i], 1e-3);
  free(f.data);
  drop(&sensim__filter_image_sensor, u);
}

static void test_image_sensor_uses_shared_exposure_when_set(void **state) {
  (void)state;
  void *u = make(&sensim__filter_image_sensor, "{\"exposure_time\": 0.001, \"gain\": 2, \"qe\": 1}");
  sensim_frame f;
  harness h;
  /* No exposure yet: this filter's own becomes the chain's. */
  memset(&h, 0, sizeof h);
  image(&f, SENSIM_PAYLOAD_RGB_F32, 2, 2, SENSIM_UNIT_RADIANCE, 0.5f, 0);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_image_sensor, u, &f, &h, SEED, 0));
  assert_true(h.x.valid && h.x.current.time == 0.001 && h.x.current.gain == 2.0);
  assert_true(f.exposure_time == 0.001 && f.gain == 2.0);
  assert_near(((float *)f.data)[0], 0.5 * 0.001 * 3e6, 1e-3);
  free(f.data);
  /* An exposure in effect (e.g. from auto exposure) wins over the parameters. */
  h.x.current = (sensim_exposure){0.004, 3.0};
  image(&f, SENSIM_PAYLOAD_RGB_F32, 2, 2, SENSIM_UNIT_RADIANCE, 0.5f, 1);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_image_sensor, u, &f, &h, SEED, 0));
  assert_true(f.exposure_time == 0.004 && f.gain == 3.0);
  assert_true(h.x.current.time == 0.004 && h.x.current.gain == 3.0);
  assert_near(((float *)f.data)[0], 0.5 * 0.004 * 3e6, 1e-3);
  free(f.data);
  drop(&sensim__filter_image_sensor, u);
}

/* A user filter after "image_sensor" that asks for twice the exposure time
 * from frame 2 on, as an auto-exposure stage would. */
static sensim_status ask_double(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  if (f->index != 0) return SENSIM_OK;
  sensim_exposure e;
  int valid = 0;
  sensim_filter_exposure_get(ctx, &e, &valid);
  if (!valid) return SENSIM_ESTATE;
  e.time *= 2.0;
  return sensim_filter_exposure_request(ctx, 2, e);
}

static void test_image_sensor_follows_exposure_requests_through_the_chain(void **state) {
  (void)state;
  sensim_world *w = flat_world(SEED);
  sensim_sensor *cam = flat_camera(w);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "image_sensor", "{\"exposure_time\": 0.002}"));
  sensim_filter_def def = {"ask_double", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL, ask_double, NULL};
  SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(cam, &def, NULL));
  const double want_t[4] = {0.002, 0.002, 0.004, 0.004};
  for (int k = 0; k < 4; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 10.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_true(f->exposure_time == want_t[k]);
    assert_near(((const float *)f->data)[0], 0.25 * want_t[k] * 3e6 * 0.5, 1e-2);
  }
  sensim_world_destroy(w);
}

/* ---- bad input ---------------------------------------------------------- */

static void expect_einval(const sensim_builtin_filter *b, const char *json) {
  void *u = NULL;
  sensim_status rc = try_make(b, json, &u);
  if (rc != SENSIM_EINVAL) fail_msg("%s %s -> %d, expected EINVAL", b->def.name, json, rc);
  assert_true(strlen(sensim_last_error()) > 0);
}

static void test_bad_parameters_are_refused_with_a_message(void **state) {
  (void)state;
  expect_einval(&sensim__filter_cfa, "{\"pattern\": \"RGBG\"}");
  expect_einval(&sensim__filter_cfa, "{\"pattern\": \"rggb\"}");
  expect_einval(&sensim__filter_cfa, "{\"pattern\": 3}");
  expect_einval(&sensim__filter_cfa, "{\"layout\": \"RGGB\"}");
  assert_non_null(strstr(sensim_last_error(), "layout"));
  expect_einval(&sensim__filter_adc, "{\"bits\": 20}");
  assert_non_null(strstr(sensim_last_error(), "bits"));
  expect_einval(&sensim__filter_adc, "{\"bits\": 7}");
  expect_einval(&sensim__filter_adc, "{\"bits\": 12.5}");
  expect_einval(&sensim__filter_adc, "{\"full_well\": -10000}");
  expect_einval(&sensim__filter_adc, "{\"system_gain\": 0}");
  expect_einval(&sensim__filter_adc, "{\"black_level\": 4095}");
  expect_einval(&sensim__filter_raw16, "{\"bits\": 17}");
  expect_einval(&sensim__filter_image_sensor, "{\"full_well\": -5}");
  assert_non_null(strstr(sensim_last_error(), "full_well"));
  expect_einval(&sensim__filter_image_sensor, "{\"qe\": 1.5}");
  expect_einval(&sensim__filter_image_sensor, "{\"qe\": [0.5, 0.5]}");
  expect_einval(&sensim__filter_image_sensor, "{\"qe\": \"high\"}");
  expect_einval(&sensim__filter_image_sensor, "{\"exposure_time\": 0}");
  expect_einval(&sensim__filter_image_sensor, "{\"gain\": -1}");
  expect_einval(&sensim__filter_image_sensor, "{\"responsivity\": 0}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"full_well\": -1}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"prnu\": 1.2}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"read_noise\": -1}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"shot_noise\": 0.5}");
  expect_einval(&sensim__filter_noise_intensity, "{\"s1\": -1}");
  expect_einval(&sensim__filter_noise_intensity, "{\"sigma\": 1}");
}

/* apply() refuses a frame in the wrong unit and leaves it unchanged. */
static void expect_unit_error(const sensim_builtin_filter *b, const char *json, sensim_payload type,
                              sensim_image_unit unit, const char *says) {
  void *u = make(b, json);
  sensim_frame f;
  image(&f, type, 4, 4, unit, 0.5f, 0);
  harness h;
  memset(&h, 0, sizeof h);
  assert_int_equal(run(b, u, &f, &h, SEED, 0), SENSIM_ETYPE);
  if (!strstr(sensim_last_error(), says)) fail_msg("%s: '%s' does not say '%s'", b->def.name, sensim_last_error(), says);
  assert_int_equal(f.type, type);
  assert_int_equal(f.unit, unit);
  for (size_t i = 0; i < f.count; i++) assert_true(((float *)f.data)[i] == 0.5f);
  free(f.data);
  drop(b, u);
}

static void test_wrong_unit_at_apply_time_is_a_clear_type_error(void **state) {
  (void)state;
  expect_unit_error(&sensim__filter_noise_emva1288, NULL, SENSIM_PAYLOAD_RGB_F32, SENSIM_UNIT_RADIANCE, "electrons");
  expect_unit_error(&sensim__filter_adc, NULL, SENSIM_PAYLOAD_RAW_F32, SENSIM_UNIT_RADIANCE, "electrons");
  expect_unit_error(&sensim__filter_adc, NULL, SENSIM_PAYLOAD_RAW_F32, SENSIM_UNIT_SIGNAL, "electrons");
  expect_unit_error(&sensim__filter_image_sensor, NULL, SENSIM_PAYLOAD_RGB_F32, SENSIM_UNIT_ELECTRONS, "radiance");
  expect_unit_error(&sensim__filter_raw16, NULL, SENSIM_PAYLOAD_RAW_F32, SENSIM_UNIT_RADIANCE, "radiance");
  /* A mosaic without a layout cannot take per-channel quantum efficiencies. */
  expect_unit_error(&sensim__filter_image_sensor, "{\"qe\": [0.4, 0.5, 0.3]}", SENSIM_PAYLOAD_RAW_F32,
                    SENSIM_UNIT_RADIANCE, "CFA");

  /* Through a world: the chain is refused at set-up where payloads do not
   * fit, and a unit error at frame time is reported by advance(). */
  sensim_world *w = flat_world(SEED);
  sensim_sensor *cam = flat_camera(w);
  assert_int_equal(sensim_sensor_add_filter(cam, "cfa", "{\"pattern\": \"XYZW\"}"), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "XYZW"));
  assert_int_equal(cam->chain.n, 0);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "cfa", "{\"pattern\": \"BGGR\"}"));
  assert_int_equal(sensim_sensor_add_filter(cam, "cfa", NULL), SENSIM_ETYPE); /* raw_f32 is not rgb_f32 */
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "noise_emva1288", NULL));  /* no image_sensor before it */
  assert_int_equal(cam->chain.n, 2);
  assert_int_equal(sensim_world_advance(w, 0.0), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "electrons"));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_null(f); /* the frame was dropped */
  sensim_world_destroy(w);
}

int sensim_test_image_sensor(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_noise_intensity_variance_is_s1sq_I_plus_s2sq_at_four_levels),
      cmocka_unit_test(test_noise_intensity_defaults_match_emva1288_and_adc_defaults),
      cmocka_unit_test(test_emva1288_shot_noise_is_poisson_at_five_means),
      cmocka_unit_test(test_emva1288_temporal_variance_adds_dark_current_and_read_noise),
      cmocka_unit_test(test_emva1288_photon_transfer_slope_is_system_gain),
      cmocka_unit_test(test_emva1288_fixed_pattern_same_every_frame_differs_per_seed_and_sensor),
      cmocka_unit_test(test_emva1288_fixed_pattern_through_worlds_is_per_seed),
      cmocka_unit_test(test_cfa_each_pattern_puts_right_channel_at_each_cell),
      cmocka_unit_test(test_adc_rounding_error_of_ramp_has_variance_one_twelfth),
      cmocka_unit_test(test_image_sensor_electrons_follow_formula_and_double_with_time),
      cmocka_unit_test(test_image_sensor_uses_shared_exposure_when_set),
      cmocka_unit_test(test_image_sensor_follows_exposure_requests_through_the_chain),
      cmocka_unit_test(test_bad_parameters_are_refused_with_a_message),
      cmocka_unit_test(test_wrong_unit_at_apply_time_is_a_clear_type_error),
  };
  return cmocka_run_group_tests_name("image_sensor", tests, NULL, NULL);
}
