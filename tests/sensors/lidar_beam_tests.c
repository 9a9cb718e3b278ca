/* tests/sensors/lidar_beam_tests.c: the lidar beam model (footprint,
 * grouping of sub-ray hits into returns, detection threshold) and the
 * "lidar_noise" filter.
 *
 * Footprints and returns are checked directly against their closed forms;
 * the straddling beam, the detection threshold and the noise's determinism
 * also run end to end through world / advance / poll. Statistical bounds
 * are 5 standard errors of the statistic for the sample size (a fixed
 * seed, so deterministic; a correct model fails them for a random seed with
 * probability < 1e-6, a wrong scale lies many standard errors out). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "sensors/lidar_internal.h"
#include "support/testutil.h"
#include "filters/builtin.h"

/* ---- footprint ------------------------------------------------------------ */

static sensim_lidar_params beam_params(sensim_beam_shape shape, double dh, double dv, int n) {
  sensim_lidar_params p;
  sensim_lidar_params_init(&p);
  p.shape = shape;
  p.div_h = dh;
  p.div_v = dv;
  p.subrays = n;
  return p;
}

static sensim_lidar_footprint fp_make(sensim_beam_shape shape, double dh, double dv, int n) {
  sensim_lidar_params p = beam_params(shape, dh, dv, n);
  sensim_lidar_footprint fp;
  SENSIM_OK_OR_FAIL(sensim__lidar_footprint_init(&p, &fp));
  return fp;
}

static double wsum(const sensim_lidar_footprint *fp) {
  double s = 0;
  for (int k = 0; k < fp->n; k++) s += fp->w[k];
  return s;
}

static void test_lidar_footprint_one_subray_is_the_axis_with_all_energy(void **state) {
  (void)state;
  for (int shape = 0; shape < 3; shape++) {
    sensim_lidar_footprint fp = fp_make((sensim_beam_shape)shape, 3e-3, shape ? 1e-3 : 0.0, 1);
    assert_int_equal(fp.n, 1);
    assert_true(fp.dh[0] == 0.0f && fp.dv[0] == 0.0f && fp.w[0] == 1.0f);
    sensim__lidar_footprint_free(&fp);
  }
  /* An ideal ray (no divergence) too. */
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_ELLIPTICAL, 0.0, 0.0, 1);
  assert_true(fp.n == 1 && fp.w[0] == 1.0f);
  sensim__lidar_footprint_free(&fp);
  assert_null(fp.dh);
  sensim__lidar_footprint_free(&fp); /* twice is harmless */
}

static void test_lidar_footprint_weights_sum_to_one_inside_the_beam(void **state) {
  (void)state;
  const int ns[7] = {2, 3, 7, 16, 25, 64, 1024};
  const double wh = 4e-3, wv = 1.5e-3;
  for (int shape = 0; shape < 3; shape++)
    for (int i = 0; i < 7; i++) {
      double dv = shape == SENSIM_BEAM_CIRCULAR ? wh : wv;
      sensim_lidar_footprint fp = fp_make((sensim_beam_shape)shape, wh, shape ? wv : 0.0, ns[i]);
      assert_int_equal(fp.n, ns[i]);
      assert_near(wsum(&fp), 1.0, 1e-5);
      for (int k = 0; k < fp.n; k++) {
        assert_true(fp.w[k] > 0.0f);
        double x = fp.dh[k] / (0.5 * wh), y = fp.dv[k] / (0.5 * dv);
        if (shape == SENSIM_BEAM_RECTANGULAR) assert_true(fabs(x) < 1.0 && fabs(y) < 1.0);
        else assert_true(x * x + y * y < 1.0 + 1e-5);
      }
      assert_true(fp.dh[0] == 0.0f || shape == SENSIM_BEAM_RECTANGULAR); /* Gaussian: ray 0 on the axis */
      sensim__lidar_footprint_free(&fp);
    }
}

/* A Gaussian beam of 1/e^2 half angle a, truncated at a: with u = (r/a)^2
 * the energy density is ~ exp(-2u) on [0, 1]. Energy inside r < a/2 is
 * (1 - e^-1/2) / (1 - e^-2) = 0.4550 (a uniform beam would give 0.25), and
 * E[u] = (1 - 3 e^-2) / (2 (1 - e^-2)) = 0.3435. */
static void test_lidar_footprint_circular_follows_gaussian_profile(void **state) {
  (void)state;
  const double div = 2e-3, a = div / 2;
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_CIRCULAR, div, 0.0, 400);
  double inner = 0, eu = 0, mx = 0, my = 0, xx = 0, yy = 0;
  for (int k = 0; k < fp.n; k++) {
    double x = fp.dh[k] / a, y = fp.dv[k] / a, u = x * x + y * y, w = fp.w[k];
    if (u < 0.25) inner += w;
    eu += w * u;
    mx += w * x;
    my += w * y;
    xx += w * x * x;
    yy += w * y * y;
  }
  double e2 = exp(-2.0);
  /* Each ring of the spiral carries its exact share: only float rounding. */
  assert_near(inner, (1 - exp(-0.5)) / (1 - e2), 1e-4);
  /* Point positions at ring mid-areas: O(1/n) on the moment. */
  assert_near(eu, (1 - 3 * e2) / (2 * (1 - e2)), 2.0 / fp.n);
  assert_near(mx, 0.0, 0.02);
  assert_near(my, 0.0, 0.02);
  assert_near(xx, yy, 0.05 * (xx + yy)); /* round: no preferred axis */
  sensim__lidar_footprint_free(&fp);
}

static void test_lidar_footprint_elliptical_scales_each_axis(void **state) {
  (void)state;
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_ELLIPTICAL, 4e-3, 1e-3, 400);
  double xx = 0, yy = 0, maxx = 0, maxy = 0;
  for (int k = 0; k < fp.n; k++) {
    xx += fp.w[k] * fp.dh[k] * fp.dh[k];
    yy += fp.w[k] * fp.dv[k] * fp.dv[k];
    maxx = fmax(maxx, fabs(fp.dh[k]));
    maxy = fmax(maxy, fabs(fp.dv[k]));
  }
  assert_near(xx / yy, 16.0, 0.8); /* (4 / 1)^2 */
  assert_true(maxx > 0.9 * 2e-3 && maxx <= 2e-3 && maxy > 0.9 * 0.5e-3 && maxy <= 0.5e-3);
  sensim__lidar_footprint_free(&fp);
}

/* A uniform rectangle on a stratified grid: equal weights; for a square
 * beam of 25 sub-rays a 5 x 5 grid of cell centres, whose second moment is
 * W^2 / 12 (1 - 1 / 5^2) (midpoint rule on a uniform density). */
static void test_lidar_footprint_rectangular_is_a_uniform_grid(void **state) {
  (void)state;
  const double W = 2e-3;
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_RECTANGULAR, W, W, 25);
  double xx = 0, yy = 0;
  for (int k = 0; k < 25; k++) {
    assert_true(fp.w[k] == (float)(1.0 / 25));
    xx += fp.w[k] * fp.dh[k] * fp.dh[k];
    yy += fp.w[k] * fp.dv[k] * fp.dv[k];
    double cx = fp.dh[k] / (W / 5) + 2.0, cy = fp.dv[k] / (W / 5) + 2.0; /* grid index */
    assert_near(cx, nearbyint(cx), 1e-4);
    assert_near(cy, nearbyint(cy), 1e-4);
  }
  assert_near(xx, W * W / 12 * (24.0 / 25), 1e-5 * W * W);
  assert_near(yy, W * W / 12 * (24.0 / 25), 1e-5 * W * W);
  sensim__lidar_footprint_free(&fp);
  /* 7 sub-rays on a 2:1 beam: rows of 4 and 3, each row's height in
   * proportion, so the weighted centroid is the beam axis. */
  fp = fp_make(SENSIM_BEAM_RECTANGULAR, W, W / 2, 7);
  double mx = 0, my = 0;
  for (int k = 0; k < 7; k++) {
    assert_true(fp.w[k] == (float)(1.0 / 7));
    mx += fp.w[k] * fp.dh[k];
    my += fp.w[k] * fp.dv[k];
  }
  assert_near(mx, 0.0, 1e-9);
  assert_near(my, 0.0, 1e-9);
  sensim__lidar_footprint_free(&fp);
}

static void test_lidar_footprint_rejects_bad_input(void **state) {
  (void)state;
  struct {
    sensim_beam_shape shape;
    double dh, dv;
    int n;
  } bad[] = {
      {SENSIM_BEAM_CIRCULAR, 3e-3, 0, 0},       {SENSIM_BEAM_CIRCULAR, 3e-3, 0, -4},
      {SENSIM_BEAM_CIRCULAR, 3e-3, 0, 1025},    {SENSIM_BEAM_CIRCULAR, 0, 0, 4}, /* sub-rays, no divergence */
      {SENSIM_BEAM_ELLIPTICAL, 3e-3, 0, 4},     {SENSIM_BEAM_RECTANGULAR, 0, 3e-3, 9},
      {SENSIM_BEAM_CIRCULAR, NAN, 0, 4},        {SENSIM_BEAM_CIRCULAR, -1e-3, 0, 4},
      {SENSIM_BEAM_ELLIPTICAL, 3e-3, INFINITY, 4}, {SENSIM_BEAM_CIRCULAR, 1e-3, NAN, 1},
      {(sensim_beam_shape)7, 3e-3, 3e-3, 4},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_lidar_params p = beam_params(bad[i].shape, bad[i].dh, bad[i].dv, bad[i].n);
    sensim_lidar_footprint fp, before;
    memset(&fp, 0x5a, sizeof fp);
    before = fp;
    assert_int_equal(sensim__lidar_footprint_init(&p, &fp), SENSIM_EINVAL);
    assert_true(strlen(sensim_last_error()) > 0);
    assert_memory_equal(&fp, &before, sizeof fp); /* untouched */
  }
  /* Still usable; a circular beam ignores div_v = 0. */
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_CIRCULAR, 3e-3, 0.0, 1024);
  sensim__lidar_footprint_free(&fp);
}

/* ---- returns -------------------------------------------------------------- */

static sensim_lidar *mk_lidar(sensim_return_mode mode, double res, double pmin) {
  static sensim_lidar L;
  memset(&L, 0, sizeof L);
  sensim_lidar_params_init(&L.p);
  L.p.returns = mode;
  L.p.range_resolution = res;
  L.p_min = pmin;
  L.nret = mode == SENSIM_RETURN_DUAL ? 2 : 1;
  return &L;
}

static int run(sensim_return_mode mode, double res, double pmin, const sensim_lidar_hit *h, int n,
               sensim_lidar_return out[2]) {
  memset(out, 0, 2 * sizeof *out);
  return sensim__lidar_returns(mk_lidar(mode, res, pmin), h, n, out);
}

/* The case on the receiver's side: a circular beam of 64 sub-rays,
 * the half with negative azimuth offset on a near edge at 5 m, the rest on a
 * far wall at 20 m; powers from the lidar equation w rho / R^2. */
static void straddle(double rho_near, double rho_far, sensim_lidar_hit *h, double *pn, double *pf) {
  sensim_lidar_footprint fp = fp_make(SENSIM_BEAM_CIRCULAR, 0.01, 0.0, 64);
  *pn = *pf = 0;
  for (int k = 0; k < 64; k++) {
    int near = fp.dh[k] <= 0.0f;
    double r = near ? 5.0 : 20.0, rho = near ? rho_near : rho_far;
    h[k].range = (float)r;
    h[k].intensity = (float)rho;
    h[k].power = (float)(fp.w[k] * rho / (r * r));
    *(near ? pn : pf) += h[k].power;
  }
  sensim__lidar_footprint_free(&fp);
}

static void test_lidar_returns_straddling_beam_reports_near_far_or_both(void **state) {
  (void)state;
  sensim_lidar_hit h[64];
  sensim_lidar_return o[2];
  double pn, pf;
  const double pmin = 0.8 / (100.0 * 100.0);
  straddle(0.8, 0.8, h, &pn, &pf);
  assert_true(pn > pf && pf > pmin); /* both halves lit and detectable */
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 5.0, 1e-6);
  assert_int_equal(run(SENSIM_RETURN_LAST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 20.0, 1e-6);
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 5.0, 1e-6); /* 1/25 beats 1/400 */
  assert_near(o[0].power, pn, 1e-6 * pn);
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, pmin, h, 64, o), 2);
  assert_near(o[0].range, 5.0, 1e-6);
  assert_near(o[1].range, 20.0, 1e-6);
  assert_near(o[1].power, pf, 1e-6 * pf);
  assert_int_equal(run(SENSIM_RETURN_MEAN, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, (5.0 * pn + 20.0 * pf) / (pn + pf), 1e-5);
  /* A dark near edge (2 %) against a bright far wall: the far wall is the
   * strongest and the last, so dual reports it once. */
  straddle(0.02, 0.9, h, &pn, &pf);
  assert_true(pf > pn && pn > pmin);
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 20.0, 1e-6);
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 5.0, 1e-6);
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 20.0, 1e-6);
  /* Dual asked of a lidar that keeps one return per beam: the strongest. */
  sensim_lidar *L = mk_lidar(SENSIM_RETURN_DUAL, 0.1, pmin);
  L->nret = 1;
  straddle(0.8, 0.8, h, &pn, &pf);
  assert_int_equal(sensim__lidar_returns(L, h, 64, o), 1);
  assert_near(o[0].range, 5.0, 1e-6);
}

/* Single linkage: 10.00, 10.08, 10.16 chain into one return at 0.1 m
 * resolution although they span 0.16 m; 10.30 stands alone. */
static void test_lidar_returns_group_hits_by_range_resolution(void **state) {
  (void)state;
  const sensim_lidar_hit h[5] = {{10.30f, 3, 0.9f}, {10.08f, 2, 0.5f}, {0, 7, 0.5f}, {10.00f, 1, 0.1f}, {10.16f, 1, 0.3f}};
  sensim_lidar_return o[2];
  const double g1 = (10.00f * 1 + 10.08f * 2 + 10.16f * 1) / 4.0, i1 = (0.1f + 2 * 0.5f + 0.3f) / 4.0;
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, 0.5, h, 5, o), 2);
  /* Group 1 (power 4) beats 10.30 (power 3); the miss (range 0) is no hit. */
  assert_near(o[0].range, g1, 1e-5);
  assert_near(o[0].intensity, i1, 1e-6);
  assert_near(o[0].power, 4.0, 1e-6);
  assert_near(o[1].range, 10.30, 1e-5);
  assert_near(o[1].intensity, 0.9, 1e-6);
  assert_int_equal(run(SENSIM_RETURN_MEAN, 0.1, 0.5, h, 5, o), 1);
  assert_near(o[0].range, (g1 * 4 + 10.30f * 3) / 7.0, 1e-5);
  assert_near(o[0].power, 7.0, 1e-6);
  /* At 5 cm resolution every hit is its own return. */
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.05, 0.5, h, 5, o), 1);
  assert_near(o[0].range, 10.00, 1e-6);
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.05, 0.5, h, 5, o), 1);
  assert_near(o[0].range, 10.30, 1e-6);
}

static void test_lidar_returns_weight_range_and_intensity_by_power(void **state) {
  (void)state;
  const sensim_lidar_hit h[2] = {{10.0f, 3, 0.2f}, {10.05f, 1, 0.6f}};
  sensim_lidar_return o[2];
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.1, 0.0, h, 2, o), 1);
  assert_near(o[0].range, (3 * 10.0 + 10.05f) / 4.0, 1e-6); /* not the plain mean 10.025 */
  assert_near(o[0].intensity, (3 * 0.2f + 0.6f) / 4.0, 1e-6);
  assert_near(o[0].power, 4.0, 0.0);
  /* Equal powers: the nearer is the strongest, so dual reports both. */
  const sensim_lidar_hit t[2] = {{20.0f, 1, 0.4f}, {10.0f, 1, 0.2f}};
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, 0.0, t, 2, o), 2);
  assert_true(o[0].range == 10.0f && o[1].range == 20.0f);
}

/* The threshold is on a return's summed power: two hits of 0.6 p_min make
 * one detectable return when they merge, nothing when they do not. */
static void test_lidar_returns_threshold_applies_to_group_power(void **state) {
  (void)state;
  const float p = 1e-4f;
  sensim_lidar_hit h[3] = {{30.0f, 0.6f * p, 0.5f}, {30.05f, 0.6f * p, 0.5f}, {0, 0, 0}};
  sensim_lidar_return o[2];
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.1, p, h, 2, o), 1);
  assert_near(o[0].power, 1.2 * p, 1e-6 * p);
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.01, p, h, 2, o), 0);
  /* At the threshold: detected; a hair below: not. */
  h[0].power = p;
  assert_int_equal(run(SENSIM_RETURN_LAST, 0.01, p, h, 1, o), 1);
  assert_int_equal(run(SENSIM_RETURN_LAST, 0.01, p * (1 + 1e-6), h, 1, o), 0);
  /* The mean mode averages detected returns only. */
  h[0] = (sensim_lidar_hit){10.0f, 2 * p, 0.5f};
  h[1] = (sensim_lidar_hit){20.0f, 0.5f * p, 0.5f};
  h[2] = (sensim_lidar_hit){40.0f, 2 * p, 0.5f};
  assert_int_equal(run(SENSIM_RETURN_MEAN, 0.1, p, h, 3, o), 1);
  assert_near(o[0].range, 25.0, 1e-5);
  /* Misses, zero or non-finite power: nothing to receive. */
  const sensim_lidar_hit none[4] = {{0, 1, 1}, {5.0f, 0, 1}, {6.0f, NAN, 1}, {-1.0f, 1, 1}};
  for (int m = SENSIM_RETURN_STRONGEST; m <= SENSIM_RETURN_DUAL; m++)
    assert_int_equal(run((sensim_return_mode)m, 0.1, 0.0, none, 4, o), 0);
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, 0.0, none, 0, o), 0);
}

/* The result depends on the hits, not on the order the sub-rays list them:
 * bit-identical under permutation, through both sorts (<= 32 and more). */
static void test_lidar_returns_do_not_depend_on_hit_order(void **state) {
  (void)state;
  sensim_rng rng;
  sensim_rng_init(&rng, 11, 0, 0, 0);
  for (int n = 8; n <= 200; n *= 5) {
    sensim_lidar_hit h[200], g[200];
    for (int k = 0; k < n; k++) {
      /* Ranges on a 2 cm grid so ties occur, in three clusters. */
      h[k].range = (float)(10.0 * (1 + k % 3) + 0.02 * (int)(8 * sensim_rng_uniform(&rng)));
      h[k].power = (float)(1e-3 * (0.1 + sensim_rng_uniform(&rng)));
      h[k].intensity = (float)sensim_rng_uniform(&rng);
    }
    for (int m = SENSIM_RETURN_STRONGEST; m <= SENSIM_RETURN_DUAL; m++) {
      sensim_lidar_return a[2], b[2];
      int na = run((sensim_return_mode)m, 0.05, 0.0, h, n, a);
      assert_true(na >= 1);
      for (int trial = 0; trial < 5; trial++) {
        memcpy(g, h, (size_t)n * sizeof *h);
        for (int k = n - 1; k > 0; k--) { /* Fisher-Yates */
          int j = (int)(sensim_rng_uniform(&rng) * (k + 1));
          sensim_lidar_hit t = g[k];
          g[k] = g[j];
          g[j] = t;
        }
        assert_int_equal(run((sensim_return_mode)m, 0.05, 0.0, g, n, b), na);
        assert_memory_equal(a, b, (size_t)na * sizeof *a);
      }
    }
  }
}

/* ---- end to end: straddling beam, detection threshold ------------------- */

/* A quad wall x = d, y in [y0, y1], z in [-h, h], facing the sensor. */
static void add_wall(sensim_world *w, double d, double y0, double y1, double h, float rho) {
  const float v[12] = {(float)d, (float)y1, (float)-h, (float)d, (float)y0, (float)-h,
                       (float)d, (float)y0, (float)h,  (float)d, (float)y1, (float)h};
  const uint32_t ix[6] = {0, 1, 2, 0, 2, 3};
  sensim_material m;
  sensim_material_init(&m);
  m.reflectance = rho;
  sensim_mesh_desc desc = {v, NULL, 4, ix, 2, NULL, &m};
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &desc, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
}

/* One beam along +X. */
static sensim_lidar_params one_beam(void) {
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0.0;
  lp.columns = 1;
  lp.start_azimuth = 0.0;
  return lp;
}

static sensim_sensor *add_lidar(sensim_world *w, const sensim_lidar_params *lp, const char *filter,
                                const char *json) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, lp, &s));
  if (filter) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, filter, json));
  return s;
}

static const sensim_frame *poll1(sensim_sensor *s) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  return f;
}

static void test_lidar_straddling_beam_end_to_end_first_last_dual(void **state) {
  (void)state;
  for (int dark = 0; dark < 2; dark++) {
    sensim_world *w = test_world(0, 7);
    add_wall(w, 5.0, -2.0, 1e-4, 2.0, dark ? 0.02f : 0.8f); /* near edge at y = 0.1 mm */
    add_wall(w, 20.0, -10.0, 10.0, 10.0, 0.8f);
    sensim_lidar_params lp = one_beam();
    lp.div_h = 0.01; /* 5 cm footprint on the edge */
    lp.subrays = 64;
    sensim_sensor *s[5];
    for (int m = 0; m < 5; m++) {
      lp.returns = (sensim_return_mode)m;
      s[m] = add_lidar(w, &lp, NULL, NULL);
    }
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    /* Expected powers from the footprint: a sub-ray hits the near wall iff
     * 5 tan(dh) < 1e-4 m. */
    sensim_lidar_footprint fp;
    SENSIM_OK_OR_FAIL(sensim__lidar_footprint_init(&lp, &fp));
    double pn = 0, pf = 0, rn = dark ? 0.02 : 0.8;
    for (int k = 0; k < fp.n; k++) {
      if (5.0 * tan(fp.dh[k]) < 1e-4) pn += fp.w[k] * rn / 25.0;
      else pf += fp.w[k] * 0.8 / 400.0;
    }
    sensim__lidar_footprint_free(&fp);
    const sensim_beam *b;
    b = poll1(s[SENSIM_RETURN_FIRST])->data;
    assert_near(b[0].range, 5.0, 2e-3);
    b = poll1(s[SENSIM_RETURN_LAST])->data;
    assert_near(b[0].range, 20.0, 2e-3);
    b = poll1(s[SENSIM_RETURN_STRONGEST])->data;
    assert_near(b[0].range, dark ? 20.0 : 5.0, 2e-3);
    b = poll1(s[SENSIM_RETURN_MEAN])->data;
    assert_near(b[0].range, (5.0 * pn + 20.0 * pf) / (pn + pf), 5e-3);
    const sensim_frame *f = poll1(s[SENSIM_RETURN_DUAL]);
    assert_int_equal(f->returns, 2);
    assert_int_equal(f->count, 2);
    b = f->data;
    assert_int_equal(b[0].return_index, 0);
    assert_int_equal(b[1].return_index, 1);
    if (dark) { /* the far wall is strongest and last: reported once */
      assert_near(b[0].range, 20.0, 2e-3);
      assert_true(b[1].range == 0.0f);
    } else {
      assert_near(b[0].range, 5.0, 2e-3);
      assert_near(b[1].range, 20.0, 2e-3);
    }
    sensim_world_destroy(w);
  }
}

/* Received power rho exp(-2 beta R) / R^2 against the threshold 0.8 / D^2:
 * a reflectance-0.8 wall at normal incidence is detected just inside the
 * datasheet range D and not just beyond; a 0.2 wall at D / 2 sits on the
 * same boundary (0.2 / (D/2)^2 = 0.8 / D^2); in fog the range R_f solves
 * R exp(beta R) = D. */
static void test_lidar_detection_threshold_matches_datasheet_range(void **state) {
  (void)state;
  const double D = 50.0, V = 200.0, beta = 3.912023005428146 / V;
  double rf = D; /* Newton on g(R) = ln R + beta R - ln D */
  for (int i = 0; i < 50; i++) rf -= (log(rf) + beta * rf - log(D)) / (1.0 / rf + beta);
  struct {
    double dist;
    float rho;
    double fog;
    int detected;
  } c[] = {{0.99 * D, 0.8f, 0, 1}, {1.01 * D, 0.8f, 0, 0}, {0.49 * D, 0.2f, 0, 1},
           {0.51 * D, 0.2f, 0, 0}, {0.98 * rf, 0.8f, V, 1}, {1.02 * rf, 0.8f, V, 0}};
  assert_true(rf > 25 && rf < 35);
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    sensim_world *w = test_world(0, 7);
    add_wall(w, c[i].dist, -20, 20, 20, c[i].rho);
    sensim_lidar_params lp = one_beam();
    lp.detection_range = D;
    lp.fog_visibility = c[i].fog;
    sensim_sensor *s = add_lidar(w, &lp, NULL, NULL);
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_beam *b = poll1(s)->data;
    if ((b[0].range > 0) != c[i].detected)
      fail_msg("wall rho %.1f at %.2f m, fog %g m: detected %d, expected %d", c[i].rho, c[i].dist, c[i].fog,
               b[0].range > 0, c[i].detected);
    if (c[i].detected) {
      assert_near(b[0].range, c[i].dist, 1e-4 * c[i].dist);
      assert_near(b[0].intensity, c[i].rho, 0.5 / 255 + 1e-6); /* range compensated: no fall-off */
    }
    sensim_world_destroy(w);
  }
}

/* ---- "lidar_noise" --------------------------------------------------------- */

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
  for (size_t i = 0; i < n; i++) b[i] = (sensim_beam){range, in, az, el, -0.01f, 3, 0, 0};
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
    assert_int_equal(b[i].ring, 3); /* the rest is untouched */
    assert_true(b[i].time_offset == -0.01f);
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

int sensim_test_lidar_beam(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_footprint_one_subray_is_the_axis_with_all_energy),
      cmocka_unit_test(test_lidar_footprint_weights_sum_to_one_inside_the_beam),
      cmocka_unit_test(test_lidar_footprint_circular_follows_gaussian_profile),
      cmocka_unit_test(test_lidar_footprint_elliptical_scales_each_axis),
      cmocka_unit_test(test_lidar_footprint_rectangular_is_a_uniform_grid),
      cmocka_unit_test(test_lidar_footprint_rejects_bad_input),
      cmocka_unit_test(test_lidar_returns_straddling_beam_reports_near_far_or_both),
      cmocka_unit_test(test_lidar_returns_group_hits_by_range_resolution),
      cmocka_unit_test(test_lidar_returns_weight_range_and_intensity_by_power),
      cmocka_unit_test(test_lidar_returns_threshold_applies_to_group_power),
      cmocka_unit_test(test_lidar_returns_do_not_depend_on_hit_order),
      cmocka_unit_test(test_lidar_straddling_beam_end_to_end_first_last_dual),
      cmocka_unit_test(test_lidar_detection_threshold_matches_datasheet_range),
      cmocka_unit_test(test_lidar_noise_sample_statistics_match_sigmas),
      cmocka_unit_test(test_lidar_noise_defaults_are_the_datasheet_figures),
      cmocka_unit_test(test_lidar_noise_shares_pointing_and_skips_misses),
      cmocka_unit_test(test_lidar_noise_clamps_and_requantises_intensity),
      cmocka_unit_test(test_lidar_noise_rejects_bad_params_and_frames),
      cmocka_unit_test(test_lidar_noise_end_to_end_deterministic_across_threads),
  };
  return cmocka_run_group_tests_name("lidar_beam", tests, NULL, NULL);
}
