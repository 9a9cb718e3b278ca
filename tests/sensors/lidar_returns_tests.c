/* tests/sensors/lidar_returns_tests.c: how sub-ray hits become returns.
 * Grouping by range resolution, power-weighted range and intensity, the
 * detection threshold on a group's power, order independence and the
 * first / last / strongest / mean / dual modes against their closed forms;
 * the straddling beam and the datasheet detection range (with fog) also
 * end to end through world / advance / poll. */
#include <math.h>
#include <string.h>
#include "sensors/lidar_internal.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

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
    h[k].body = near ? 1u : 2u;
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
  /* Each return names the body its hits lie on (near 1, far 2). */
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 5.0, 1e-6);
  assert_int_equal(o[0].body, 1);
  assert_int_equal(run(SENSIM_RETURN_LAST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 20.0, 1e-6);
  assert_int_equal(o[0].body, 2);
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, 5.0, 1e-6); /* 1/25 beats 1/400 */
  assert_near(o[0].power, pn, 1e-6 * pn);
  assert_int_equal(o[0].body, 1);
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, pmin, h, 64, o), 2);
  assert_near(o[0].range, 5.0, 1e-6);
  assert_near(o[1].range, 20.0, 1e-6);
  assert_near(o[1].power, pf, 1e-6 * pf);
  assert_int_equal(o[0].body, 1);
  assert_int_equal(o[1].body, 2);
  /* The mean of both groups carries the strongest hit's body: the axis
   * sub-ray (the largest weight) on the near edge, 16 times the power of
   * any far hit. */
  assert_int_equal(run(SENSIM_RETURN_MEAN, 0.1, pmin, h, 64, o), 1);
  assert_near(o[0].range, (5.0 * pn + 20.0 * pf) / (pn + pf), 1e-5);
  assert_int_equal(o[0].body, 1);
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
  assert_int_equal(o[0].body, 2);
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
  const sensim_lidar_hit h[5] = {
      {10.30f, 3, 0.9f, 40, 400u}, {10.08f, 2, 0.5f, 20, 200u}, {0, 7, 0.5f, 70, 700u}, {10.00f, 1, 0.1f, 10, 100u}, {10.16f, 1, 0.3f, 30, 300u}};
  sensim_lidar_return o[2];
  const double g1 = (10.00f * 1 + 10.08f * 2 + 10.16f * 1) / 4.0, i1 = (0.1f + 2 * 0.5f + 0.3f) / 4.0;
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, 0.5, h, 5, o), 2);
  /* Group 1 (power 4) beats 10.30 (power 3); the miss (range 0) is no hit. */
  assert_near(o[0].range, g1, 1e-5);
  assert_near(o[0].intensity, i1, 1e-6);
  assert_near(o[0].power, 4.0, 1e-6);
  assert_near(o[1].range, 10.30, 1e-5);
  assert_near(o[1].intensity, 0.9, 1e-6);
  /* Group 1's strongest hit is 10.08 (power 2); the miss names nothing. */
  assert_int_equal(o[0].body, 20);
  assert_int_equal(o[1].body, 40);
  assert_int_equal(run(SENSIM_RETURN_MEAN, 0.1, 0.5, h, 5, o), 1);
  assert_near(o[0].range, (g1 * 4 + 10.30f * 3) / 7.0, 1e-5);
  assert_near(o[0].power, 7.0, 1e-6);
  assert_int_equal(o[0].body, 40); /* the strongest hit of all, power 3 */
  /* At 5 cm resolution every hit is its own return. */
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.05, 0.5, h, 5, o), 1);
  assert_near(o[0].range, 10.00, 1e-6);
  assert_int_equal(o[0].body, 10);
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.05, 0.5, h, 5, o), 1);
  assert_near(o[0].range, 10.30, 1e-6);
  assert_int_equal(o[0].body, 40);
}

static void test_lidar_returns_weight_range_and_intensity_by_power(void **state) {
  (void)state;
  const sensim_lidar_hit h[2] = {{10.0f, 3, 0.2f, 5, 50u}, {10.05f, 1, 0.6f, 6, 60u}};
  sensim_lidar_return o[2];
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.1, 0.0, h, 2, o), 1);
  assert_near(o[0].range, (3 * 10.0 + 10.05f) / 4.0, 1e-6); /* not the plain mean 10.025 */
  assert_near(o[0].intensity, (3 * 0.2f + 0.6f) / 4.0, 1e-6);
  assert_near(o[0].power, 4.0, 0.0);
  assert_int_equal(o[0].body, 5); /* the hit of power 3 names the merged return */
  assert_int_equal(o[0].elem, 50); /* and its placement */
  /* Equal powers: the nearer is the strongest, so dual reports both. */
  const sensim_lidar_hit t[2] = {{20.0f, 1, 0.4f, 7, 70u}, {10.0f, 1, 0.2f, 8, 80u}};
  assert_int_equal(run(SENSIM_RETURN_DUAL, 0.1, 0.0, t, 2, o), 2);
  assert_true(o[0].range == 10.0f && o[1].range == 20.0f);
  assert_true(o[0].body == 8 && o[1].body == 7);
  assert_true(o[0].elem == 80 && o[1].elem == 70);
  /* Equal powers inside one return: the nearer hit names it. */
  const sensim_lidar_hit u[2] = {{10.05f, 1, 0.4f, 9, 90u}, {10.0f, 1, 0.2f, 11, 110u}};
  assert_int_equal(run(SENSIM_RETURN_STRONGEST, 0.1, 0.0, u, 2, o), 1);
  assert_int_equal(o[0].body, 11);
}

/* The threshold is on a return's summed power: two hits of 0.6 p_min make
 * one detectable return when they merge, nothing when they do not. */
static void test_lidar_returns_threshold_applies_to_group_power(void **state) {
  (void)state;
  const float p = 1e-4f;
  sensim_lidar_hit h[3] = {{30.0f, 0.6f * p, 0.5f, 0, 0}, {30.05f, 0.6f * p, 0.5f, 0, 0}, {0, 0, 0, ~0u, 0}};
  sensim_lidar_return o[2];
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.1, p, h, 2, o), 1);
  assert_near(o[0].power, 1.2 * p, 1e-6 * p);
  assert_int_equal(run(SENSIM_RETURN_FIRST, 0.01, p, h, 2, o), 0);
  /* At the threshold: detected; a hair below: not. */
  h[0].power = p;
  assert_int_equal(run(SENSIM_RETURN_LAST, 0.01, p, h, 1, o), 1);
  assert_int_equal(run(SENSIM_RETURN_LAST, 0.01, p * (1 + 1e-6), h, 1, o), 0);
  /* The mean mode averages detected returns only. */
  h[0] = (sensim_lidar_hit){10.0f, 2 * p, 0.5f, 0, 0};
  h[1] = (sensim_lidar_hit){20.0f, 0.5f * p, 0.5f, 0, 0};
  h[2] = (sensim_lidar_hit){40.0f, 2 * p, 0.5f, 0, 0};
  assert_int_equal(run(SENSIM_RETURN_MEAN, 0.1, p, h, 3, o), 1);
  assert_near(o[0].range, 25.0, 1e-5);
  /* Misses, zero or non-finite power: nothing to receive. */
  const sensim_lidar_hit none[4] = {{0, 1, 1, 0, 0}, {5.0f, 0, 1, 0, 0}, {6.0f, NAN, 1, 0, 0}, {-1.0f, 1, 1, 0, 0}};
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
      h[k].body = (unsigned)k; /* the strongest hit's body follows it through any order */
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

static void test_lidar_straddling_beam_end_to_end_first_last_dual(void **state) {
  (void)state;
  for (int dark = 0; dark < 2; dark++) {
    sensim_world *w = test_world(0, 7);
    /* near edge at y = 0.1 mm: class 4, instance 40; far wall: class 9, instance 90 */
    add_wall_ids(w, 5.0, -2.0, 1e-4, 2.0, dark ? 0.02f : 0.8f, 4, 40);
    add_wall_ids(w, 20.0, -10.0, 10.0, 10.0, 0.8f, 9, 90);
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
    /* Each return carries the ids of the wall it came from. */
    b = poll1(s[SENSIM_RETURN_FIRST])->data;
    assert_near(b[0].range, 5.0, 2e-3);
    assert_true(b[0].class_id == 4 && b[0].instance_id == 40);
    b = poll1(s[SENSIM_RETURN_LAST])->data;
    assert_near(b[0].range, 20.0, 2e-3);
    assert_true(b[0].class_id == 9 && b[0].instance_id == 90);
    b = poll1(s[SENSIM_RETURN_STRONGEST])->data;
    assert_near(b[0].range, dark ? 20.0 : 5.0, 2e-3);
    assert_int_equal(b[0].class_id, dark ? 9 : 4);
    assert_int_equal(b[0].instance_id, dark ? 90 : 40);
    b = poll1(s[SENSIM_RETURN_MEAN])->data;
    assert_near(b[0].range, (5.0 * pn + 20.0 * pf) / (pn + pf), 5e-3);
    /* The strongest sub-ray hit names it: the axis sub-ray on the near
     * edge (power w0 rho / 25), unless that edge is dark: then sub-ray 2 on
     * the far wall (weight 0.94 w0, power 0.94 w0 0.8 / 400) outshines
     * the axis' 0.02 w0 / 25. */
    assert_int_equal(b[0].instance_id, dark ? 90 : 40);
    const sensim_frame *f = poll1(s[SENSIM_RETURN_DUAL]);
    assert_int_equal(f->returns, 2);
    assert_int_equal(f->count, 2);
    b = f->data;
    assert_int_equal(b[0].return_index, 0);
    assert_int_equal(b[1].return_index, 1);
    if (dark) { /* the far wall is strongest and last: reported once */
      assert_near(b[0].range, 20.0, 2e-3);
      assert_true(b[1].range == 0.0f);
      assert_true(b[0].class_id == 9 && b[0].instance_id == 90);
      assert_true(b[1].class_id == 0 && b[1].instance_id == 0); /* a missing return names nothing */
    } else { /* each return its own wall's ids */
      assert_near(b[0].range, 5.0, 2e-3);
      assert_near(b[1].range, 20.0, 2e-3);
      assert_true(b[0].class_id == 4 && b[0].instance_id == 40);
      assert_true(b[1].class_id == 9 && b[1].instance_id == 90);
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

int sensim_test_lidar_returns(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_returns_straddling_beam_reports_near_far_or_both),
      cmocka_unit_test(test_lidar_returns_group_hits_by_range_resolution),
      cmocka_unit_test(test_lidar_returns_weight_range_and_intensity_by_power),
      cmocka_unit_test(test_lidar_returns_threshold_applies_to_group_power),
      cmocka_unit_test(test_lidar_returns_do_not_depend_on_hit_order),
      cmocka_unit_test(test_lidar_straddling_beam_end_to_end_first_last_dual),
      cmocka_unit_test(test_lidar_detection_threshold_matches_datasheet_range),
  };
  return cmocka_run_group_tests_name("lidar_returns", tests, NULL, NULL);
}
