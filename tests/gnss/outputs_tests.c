/* tests/gnss/outputs_tests.c: the GNSS CSV columns, the receiver's
 * scenario keys and the study's variants configured in a scenario file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "gnss/gnss_groups.h"
#include "io/scenario_gnss.h"
#include "support/testutil.h"

static void test_csv_has_speed_course_dops_and_satellites(void **state) {
  (void)state;
  char path[512];
  sensim_mkdirs(SENSIM_TEST_TMP);
  snprintf(path, sizeof path, "%s/gnss_cols.csv", SENSIM_TEST_TMP);
  sensim_csv *csv = NULL;
  SENSIM_OK_OR_FAIL(sensim_csv_open(path, SENSIM_PAYLOAD_GNSS, &csv));
  sensim_frame f;
  sensim_gnss_fix fix;
  gt_frame(&f, &fix, 0, 0.5, (double[3]){1.0, 2.0, 3.0});
  fix.cov_enu[0] = 0.25;
  SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &f));
  void *u = gt_filter("gnss_outage", "{\"windows\": [[0, 10]]}");
  gt_apply("gnss_outage", u, &f, 1);
  gt_filter_free("gnss_outage", u);
  SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &f));
  SENSIM_OK_OR_FAIL(sensim_csv_close(csv));
  char *s = test_slurp(path, NULL);
  const char *hdr = "t_capture,lat,lon,height,east,north,up,vel_east,vel_north,vel_up,"
                    "cov_ee,cov_nn,cov_uu,fix_type,speed,course,hdop,vdop,pdop,satellites\n";
  assert_memory_equal(s, hdr, strlen(hdr));
  char *line = s + strlen(hdr);
  double v[20];
  char *p = line;
  for (int i = 0; i < 20; i++) {
    v[i] = strtod(p, &p);
    assert_true(*p == (i < 19 ? ',' : '\n'));
    p++;
  }
  assert_true(v[0] == 0.5 && v[4] == 1.0 && v[10] == 0.25 && v[13] == 1.0);
  assert_true(v[14] == 5.0);                               /* speed of (3, 4) m/s */
  assert_true(v[15] == fix.course || fabs(v[15] - atan2(3.0, 4.0) * 180.0 / M_PI) < 1e-12);
  assert_true(v[16] == 0.9 && v[17] == 1.5 && v[19] == 10.0);
  /* The outage row: nan position, fix_type 0, no DOPs, no satellites. */
  for (int i = 0; i < 20; i++) {
    v[i] = strtod(p, &p);
    assert_true(*p == (i < 19 ? ',' : '\n'));
    p++;
  }
  assert_true(isnan(v[1]) && isnan(v[4]) && isnan(v[14]) && isnan(v[10]));
  assert_true(v[13] == 0.0 && v[16] == 0.0 && v[19] == 0.0);
  assert_true(*p == '\0');
  free(s);
}

static void test_scenario_gnss_keys_parse_and_reject_bad_values(void **state) {
  (void)state;
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  cJSON *o = cJSON_Parse("{\"type\": \"gnss\", \"satellites\": 7, \"hdop\": 1.25, \"vdop\": 2}");
  SENSIM_OK_OR_FAIL(sensim__scenario_gnss(o, "sensors[0]", &gp));
  cJSON_Delete(o);
  assert_int_equal(gp.satellites, 7);
  assert_true(gp.hdop == 1.25 && gp.vdop == 2.0);
  const struct {
    const char *json;
    sensim_status st;
  } bad[] = {
      {"{\"satellites\": 100}", SENSIM_EINVAL}, {"{\"satellites\": -1}", SENSIM_EINVAL},
      {"{\"satellites\": 7.5}", SENSIM_EPARSE}, {"{\"satellites\": \"7\"}", SENSIM_EPARSE},
      {"{\"hdop\": -1}", SENSIM_EINVAL},        {"{\"hdop\": 1000}", SENSIM_EINVAL},
      {"{\"vdop\": -0.1}", SENSIM_EINVAL},      {"{\"vdop\": [1]}", SENSIM_EPARSE},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_gnss_params before = gp;
    o = cJSON_Parse(bad[i].json);
    assert_non_null(o);
    sensim_status st = sensim__scenario_gnss(o, "sensors[0]", &gp);
    cJSON_Delete(o);
    if (st != bad[i].st) fail_msg("%s gave %d, not %d", bad[i].json, st, bad[i].st);
    assert_non_null(strstr(sensim_last_error(), "sensors[0]"));
    assert_memory_equal(&gp, &before, sizeof gp); /* unchanged on failure */
  }
  const char *const *k = sensim__scenario_gnss_keys;
  assert_string_equal(k[0], "satellites");
  assert_string_equal(k[3], "mode"); /* then the satellites mode's keys */
  assert_null(k[21]);
}

/* The five variants, each one "filters" line of a scenario, and the lines
 * that differ as published (no reported covariance, pulled-back walk;
 * docs/gnss.md). */
static void test_study_variants_load_from_one_scenario_line_each(void **state) {
  (void)state;
  const char *lines[] = {
      "[{\"name\": \"gnss_noise\", \"params\": {\"sigma\": [0.02, 0.02, 0.04]}}]",
      "[{\"name\": \"gnss_random_walk\"}]",
      "[{\"name\": \"gnss_hdop\"}]",
      "[{\"name\": \"gnss_noise\", \"params\": {\"sigma\": [0.02, 0.02, 0.04]}}, {\"name\": \"gnss_hdop\"}]",
      "[{\"name\": \"gnss_random_walk\"}, {\"name\": \"gnss_hdop\"}]",
      "[{\"name\": \"gnss_noise\", \"params\": {\"sigma\": [0.02, 0.02, 0.04], \"reported_sigma\": 0}}]",
      "[{\"name\": \"gnss_random_walk\", \"params\": {\"pullback\": 1, \"reported_sigma\": 0}}]",
      "[{\"name\": \"gnss_random_walk\", \"params\": {\"pullback\": 1}}, {\"name\": \"gnss_hdop\"}]",
      /* The experiment's lines since issue 28: the study's p / p_max pull. */
      "[{\"name\": \"gnss_random_walk\", \"params\": {\"pullback_ratio\": 0.05, \"reported_sigma\": 0}}]",
      "[{\"name\": \"gnss_random_walk\", \"params\": {\"pullback_ratio\": 0.05, \"reported_sigma\": 0}}, "
      "{\"name\": \"gnss_hdop\"}]",
  };
  for (int i = 0; i < 10; i++) {
    char json[1024];
    snprintf(json, sizeof json,
             "{\"world\": {\"threads\": 0}, \"duration\": 1, \"step\": 0.01, \"sensors\": "
             "[{\"name\": \"fix\", \"type\": \"gnss\", \"rate\": 10, \"filters\": %s}]}",
             lines[i]);
    sensim_scenario *scn = NULL;
    SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
    sensim_run_summary sum;
    SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, NULL, NULL, NULL, &sum));
    assert_true(sum.frames[0] >= 10);
    sensim_scenario_destroy(scn);
  }
}

int sensim_test_gnss_outputs(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_csv_has_speed_course_dops_and_satellites),
      cmocka_unit_test(test_scenario_gnss_keys_parse_and_reject_bad_values),
      cmocka_unit_test(test_study_variants_load_from_one_scenario_line_each),
  };
  return cmocka_run_group_tests_name("gnss_outputs", tests, NULL, NULL);
}
