/* tests/cone/io_tests.c: the cone's CSV layout and scenario keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "cone/cone_groups.h"
#include "core/payload.h"
#include "io/scenario_cone.h"

static void test_cone_csv_record_reads_back_exactly_with_nan_for_unknowns(void **state) {
  (void)state;
  sensim_detection d;
  memset(&d, 0, sizeof d);
  d.detected = 1;
  d.instance_id = 42;
  d.class_id = 3;
  d.range = 1.0 / 3.0;
  d.azimuth = -0.1;
  d.elevation = 0.25;
  d.point[0] = 0.3;
  d.point[1] = -0.03;
  d.point[2] = 0.08;
  d.speed_diff = NAN;
  d.radial_speed = 0.7;
  d.rel_vel[0] = 0.7;
  d.rel_vel[1] = 0.3;
  d.rel_vel[2] = 0.0;
  d.speed = 0.25;
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_DETECTION;
  f.count = 1;
  f.data = &d;
  f.t_capture = 0.1;
  FILE *fp = tmpfile();
  assert_non_null(fp);
  const sensim__payload_desc *desc = sensim__payload_desc_of(SENSIM_PAYLOAD_DETECTION);
  fputs(desc->csv_header, fp);
  desc->csv_rows(fp, &f);
  rewind(fp);
  char line[1024];
  assert_non_null(fgets(line, sizeof line, fp));
  assert_string_equal(line, "t_capture,detected,instance_id,class_id,range,azimuth,elevation,x,y,z,"
                            "speed_diff,radial_speed,vx,vy,vz,speed\n");
  assert_non_null(fgets(line, sizeof line, fp));
  fclose(fp);
  double v[16];
  char *p = line;
  for (int i = 0; i < 16; i++) {
    char *end = NULL;
    v[i] = strtod(p, &end);
    assert_true(end != p);
    p = end + 1;
  }
  assert_true(v[0] == 0.1 && v[1] == 1 && v[2] == 42 && v[3] == 3);
  assert_true(v[4] == d.range && v[5] == d.azimuth && v[6] == d.elevation);
  assert_true(v[7] == 0.3 && v[8] == -0.03 && v[9] == 0.08);
  assert_true(isnan(v[10]) && v[11] == 0.7 && v[12] == 0.7 && v[13] == 0.3 && v[14] == 0.0);
  assert_true(v[15] == 0.25);
}

static sensim_status parse(const char *json, sensim_cone_params *cp) {
  cJSON *o = cJSON_Parse(json);
  assert_non_null(o);
  sensim_cone_params_init(cp);
  sensim_status st = sensim__scenario_cone(o, "sensors[0]", cp);
  cJSON_Delete(o);
  return st;
}

static void test_cone_scenario_keys_set_params_and_bad_values_name_the_key(void **state) {
  (void)state;
  sensim_cone_params cp;
  SENSIM_OK_OR_FAIL(parse("{\"theta_deg\": 60, \"phi_deg\": 20, \"length\": 5, \"method\": \"lines\","
                          " \"lines\": 100, \"published_speed\": false}", &cp));
  assert_near(cp.theta, M_PI / 3, 1e-15);
  assert_near(cp.phi, M_PI / 9, 1e-15);
  assert_true(cp.length == 5 && cp.method == SENSIM_CONE_LINES && cp.lines == 100);
  assert_int_equal(cp.published_speed, 0);
  SENSIM_OK_OR_FAIL(parse("{\"method\": \"rays\", \"rays\": 33}", &cp));
  assert_true(cp.method == SENSIM_CONE_RAYS && cp.rays == 33);
  SENSIM_OK_OR_FAIL(parse("{}", &cp));
  assert_true(cp.method == SENSIM_CONE_EXACT);
  assert_int_equal(parse("{\"theta_deg\": 180}", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "sensors[0].theta_deg"));
  assert_int_equal(parse("{\"phi_deg\": 0}", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "phi_deg"));
  assert_int_equal(parse("{\"length\": -2}", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "length"));
  assert_int_equal(parse("{\"method\": \"magic\"}", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "magic"));
  assert_int_equal(parse("{\"method\": \"lines\", \"lines\": 1}", &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "lines"));
  assert_int_equal(parse("{\"lines\": 2.5}", &cp), SENSIM_EPARSE);
  assert_int_equal(parse("{\"method\": 3}", &cp), SENSIM_EPARSE);
}

int sensim_test_cone_io(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cone_csv_record_reads_back_exactly_with_nan_for_unknowns),
      cmocka_unit_test(test_cone_scenario_keys_set_params_and_bad_values_name_the_key),
  };
  return cmocka_run_group_tests_name("cone_io", tests, NULL, NULL);
}
