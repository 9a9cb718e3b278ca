/* tests/gnss/hdop_outage_tests.c: "gnss_hdop", "gnss_outage" and the
 * chains of the published study's five variants. */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "gnss/gnss_groups.h"
#include "support/testutil.h"

static const double kTruth[3] = {-15.0, 30.0, 2.0};

/* H(t) = H_inf + (H0 - H_inf) exp(-(t - t0) / tau) at irregular fix times,
 * to 1e-12, and each step obeys H(t + dT) = a H(t) + (1 - a) H_inf with
 * a = exp(-dT / tau) to 1e-12; covariance (k H)^2 on east and north,
 * (k r H)^2 up; the position is left bit-identical. */
static void test_hdop_follows_exponential_law_exactly(void **state) {
  (void)state;
  const double h0 = 100.0, hinf = 1.3, tau = 4.0, k = 0.05, r = 1.7;
  void *u = gt_filter("gnss_hdop", "{\"h_inf\": 1.3, \"tau\": 4, \"k\": 0.05, \"vdop_ratio\": 1.7}");
  const double t0 = 2.5;
  double t = t0, prev = 0.0, prev_t = 0.0;
  for (int i = 0; i < 400; i++) {
    sensim_frame f;
    sensim_gnss_fix fix;
    gt_frame(&f, &fix, (uint64_t)i, t, kTruth);
    sensim_gnss_fix before = fix;
    gt_apply("gnss_hdop", u, &f, 2);
    double law = hinf + (h0 - hinf) * exp(-(t - t0) / tau);
    assert_near(fix.hdop, law, 1e-12);
    if (i == 0) assert_true(fix.hdop == h0);
    if (i > 0) {
      double a = exp(-(t - prev_t) / tau);
      assert_near(fix.hdop, a * prev + (1.0 - a) * hinf, 1e-12);
    }
    assert_near(fix.vdop, r * fix.hdop, 1e-12);
    assert_near(fix.pdop, hypot(fix.hdop, fix.vdop), 1e-12);
    assert_near(fix.cov_enu[0], (k * fix.hdop) * (k * fix.hdop), 1e-15 * (1 + fix.cov_enu[0]));
    assert_true(fix.cov_enu[0] == fix.cov_enu[4]);
    assert_near(fix.cov_enu[8], (k * fix.vdop) * (k * fix.vdop), 1e-15 * (1 + fix.cov_enu[8]));
    for (int j = 0; j < 9; j++)
      if (j % 4) assert_true(fix.cov_enu[j] == 0.0);
    assert_memory_equal(fix.enu, before.enu, sizeof fix.enu);
    assert_true(fix.lat == before.lat && fix.lon == before.lon && fix.height == before.height);
    prev = fix.hdop;
    prev_t = t;
    t += 0.05 + 0.3 * ((i * 7919) % 13) / 13.0; /* irregular steps */
  }
  assert_near(prev, hinf, 1e-6); /* relaxed after ~60 tau */
  gt_filter_free("gnss_hdop", u);
}

static void test_hdop_defaults_and_restart_after_outage(void **state) {
  (void)state;
  void *u = gt_filter("gnss_hdop", NULL);
  sensim_frame f;
  sensim_gnss_fix fix;
  gt_frame(&f, &fix, 0, 1.0, kTruth);
  gt_apply("gnss_hdop", u, &f, 1);
  assert_true(fix.hdop == 100.0);
  assert_near(fix.cov_enu[0], 4.0, 1e-12); /* (0.02 * 100)^2 */
  gt_frame(&f, &fix, 1, 6.0, kTruth);       /* one default tau (5 s) later */
  gt_apply("gnss_hdop", u, &f, 1);
  assert_near(fix.hdop, 1.0 + 99.0 * exp(-1.0), 1e-12);
  gt_frame(&f, &fix, 2, 7.0, kTruth);
  fix.fix_type = 0; /* an outage earlier in the chain */
  gt_apply("gnss_hdop", u, &f, 1);
  gt_frame(&f, &fix, 3, 8.0, kTruth);
  gt_apply("gnss_hdop", u, &f, 1);
  assert_true(fix.hdop == 100.0);
  gt_filter_free("gnss_hdop", u);

  u = gt_filter("gnss_hdop", "{\"reset_on_outage\": false}");
  gt_frame(&f, &fix, 0, 0.0, kTruth);
  gt_apply("gnss_hdop", u, &f, 1);
  gt_frame(&f, &fix, 1, 5.0, kTruth);
  fix.fix_type = 0;
  gt_apply("gnss_hdop", u, &f, 1);
  gt_frame(&f, &fix, 2, 10.0, kTruth);
  gt_apply("gnss_hdop", u, &f, 1);
  assert_near(fix.hdop, 1.0 + 99.0 * exp(-2.0), 1e-12);
  gt_filter_free("gnss_hdop", u);
}

static void test_outage_windows_give_no_fix_inclusive_of_ends(void **state) {
  (void)state;
  void *u = gt_filter("gnss_outage", "{\"windows\": [[1.0, 2.0], [5.0, 5.0], [4.0, 4.5]]}");
  const struct {
    double t;
    int out;
  } cases[] = {{0.9, 0}, {1.0, 1}, {1.5, 1}, {2.0, 1}, {2.0000001, 0}, {3.99, 0},
               {4.2, 1}, {4.6, 0}, {5.0, 1}, {5.0001, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sensim_frame f;
    sensim_gnss_fix fix;
    gt_frame(&f, &fix, i, cases[i].t, kTruth);
    sensim_gnss_fix before = fix;
    gt_apply("gnss_outage", u, &f, 1);
    if (!cases[i].out) {
      assert_memory_equal(&fix, &before, sizeof fix);
      continue;
    }
    assert_int_equal(fix.fix_type, 0);
    assert_int_equal(fix.satellites, 0);
    assert_true(isnan(fix.lat) && isnan(fix.lon) && isnan(fix.height));
    for (int j = 0; j < 3; j++) assert_true(isnan(fix.enu[j]) && isnan(fix.vel_enu[j]));
    for (int j = 0; j < 9; j++) assert_true(isnan(fix.cov_enu[j]));
    assert_true(isnan(fix.speed) && isnan(fix.course));
    assert_true(fix.hdop == 0.0 && fix.vdop == 0.0 && fix.pdop == 0.0);
    assert_memory_equal(fix.origin, before.origin, sizeof fix.origin);
  }
  gt_filter_free("gnss_outage", u);
}

static void test_bad_hdop_and_outage_parameters_are_refused(void **state) {
  (void)state;
  const struct {
    const char *name, *json;
  } bad[] = {
      {"gnss_hdop", "{\"tau\": 0}"},
      {"gnss_hdop", "{\"tau\": -1}"},
      {"gnss_hdop", "{\"h0\": -1}"},
      {"gnss_hdop", "{\"h_inf\": -0.5}"},
      {"gnss_hdop", "{\"k\": -0.02}"},
      {"gnss_hdop", "{\"vdop_ratio\": -1}"},
      {"gnss_hdop", "{\"reset_on_outage\": 1}"},
      {"gnss_hdop", "{\"h_infinity\": 1}"},
      {"gnss_hdop", "{\"tau\": \"slow\"}"},
      {"gnss_outage", "{\"windows\": [[2, 1]]}"},
      {"gnss_outage", "{\"windows\": [[1]]}"},
      {"gnss_outage", "{\"windows\": [[1, 2, 3]]}"},
      {"gnss_outage", "{\"windows\": [1, 2]}"},
      {"gnss_outage", "{\"windows\": [[\"a\", 2]]}"},
      {"gnss_outage", "{\"windows\": {\"a\": 1}}"},
      {"gnss_outage", "{\"tunnels\": []}"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_status st = gt_filter_status(bad[i].name, bad[i].json);
    if (st != SENSIM_EINVAL) fail_msg("%s %s gave %d, not SENSIM_EINVAL", bad[i].name, bad[i].json, st);
    assert_true(strlen(sensim_last_error()) > 0);
  }
  const char *keys[] = {"h0", "h_inf", "tau", "k", "vdop_ratio"};
  for (int i = 0; i < 5; i++) assert_int_equal(gt_filter_status_nan("gnss_hdop", keys[i]), SENSIM_EINVAL);
  /* A NaN window bound, built programmatically. */
  cJSON *p = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(p, "windows");
  cJSON *w = cJSON_CreateArray();
  cJSON_AddItemToArray(w, cJSON_CreateNumber(1.0));
  cJSON_AddItemToArray(w, cJSON_CreateNumber(NAN));
  cJSON_AddItemToArray(arr, w);
  assert_int_equal(gt_filter_status_obj("gnss_outage", p), SENSIM_EINVAL);
  cJSON_Delete(p);
  /* Empty and absent windows are valid: no outage. */
  assert_int_equal(gt_filter_status("gnss_outage", "{\"windows\": []}"), SENSIM_OK);
  assert_int_equal(gt_filter_status("gnss_outage", NULL), SENSIM_OK);
}

/* The study's five variants as chains on a real sensor (docs/gnss.md):
 * each adds its filters in one call sequence, and the reported covariance
 * is the last covariance-setting filter's. */
static void test_study_variants_build_and_report_expected_covariance(void **state) {
  (void)state;
  const struct {
    const char *f1, *p1, *f2, *p2;
    double cov_e0; /* cov_ee of the first fix */
    int moves;     /* position differs from the truth */
  } v[] = {
      {"gnss_noise", "{\"sigma\": [0.3, 0.3, 0.6]}", NULL, NULL, 0.09, 1},
      {"gnss_random_walk", NULL, NULL, NULL, 0.0012, 0}, /* walk starts at 0 */
      {"gnss_hdop", NULL, NULL, NULL, 4.0, 0},
      {"gnss_noise", "{\"sigma\": [0.3, 0.3, 0.6]}", "gnss_hdop", NULL, 4.0, 1},
      {"gnss_random_walk", NULL, "gnss_hdop", NULL, 4.0, 0},
  };
  for (size_t i = 0; i < 5; i++) {
    sensim_world_params wp;
    sensim_world_params_init(&wp);
    wp.threads = 0;
    sensim_world *w = NULL;
    SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.mount.pos = (sensim_vec3){kTruth[0], kTruth[1], kTruth[2]};
    sensim_sensor *g = NULL;
    SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g, v[i].f1, v[i].p1));
    if (v[i].f2) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g, v[i].f2, v[i].p2));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(g, &f));
    assert_non_null(f);
    const sensim_gnss_fix *fix = f->data;
    assert_near(fix->cov_enu[0], v[i].cov_e0, 1e-12);
    double d = fabs(fix->enu[0] - kTruth[0]) + fabs(fix->enu[1] - kTruth[1]);
    assert_true(v[i].moves ? d > 0.0 : d < 1e-12);
    /* Later fixes of the random-walk variants wander. */
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 5.0));
    sensim_gnss_fix last;
    memset(&last, 0, sizeof last);
    int n = 0;
    /* A polled frame lives until the next poll: keep a copy. */
    while (sensim_sensor_poll(g, &f) == SENSIM_OK && f) {
      last = *(const sensim_gnss_fix *)f->data;
      n++;
    }
    assert_int_equal(n, 50);
    if (strcmp(v[i].f1, "gnss_hdop") != 0) assert_true(fabs(last.enu[0] - kTruth[0]) > 0.0);
    else assert_true(last.enu[0] == kTruth[0]);
    sensim_world_destroy(w);
  }
}

int sensim_test_gnss_hdop_outage(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hdop_follows_exponential_law_exactly),
      cmocka_unit_test(test_hdop_defaults_and_restart_after_outage),
      cmocka_unit_test(test_outage_windows_give_no_fix_inclusive_of_ends),
      cmocka_unit_test(test_bad_hdop_and_outage_parameters_are_refused),
      cmocka_unit_test(test_study_variants_build_and_report_expected_covariance),
  };
  return cmocka_run_group_tests_name("gnss_hdop_outage", tests, NULL, NULL);
}
