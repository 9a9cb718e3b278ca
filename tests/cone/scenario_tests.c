/* tests/cone/scenario_tests.c: the cone sensor from a scenario file, end to
 * end: its keys, its creation and its CSV output through `sensim_scenario_run`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "cone/cone_groups.h"

/* A 0.2 m thick wall whose near face is at x = 3 m, in front of a cone
 * sensor at the origin looking along +X: every detection is that face's
 * foot point, range 3 m, azimuth and elevation 0. */
static const char *wall_scenario(const char *method) {
  static char json[2048];
  snprintf(json, sizeof json,
           "{\"world\": {\"threads\": 0}, \"duration\": 0.5, \"step\": 0.01,"
           " \"meshes\": [{\"name\": \"wall\", \"shape\": {\"kind\": \"box\", \"size\": [0.2, 2, 2]}}],"
           " \"bodies\": [{\"name\": \"wall\", \"mesh\": \"wall\", \"class_id\": 7, \"static\": true,"
           "               \"pose\": {\"position\": [3.1, 0, 0]}}],"
           " \"sensors\": [{\"name\": \"cone\", \"type\": \"cone\", \"rate\": 10,"
           "   \"theta_deg\": 30, \"phi_deg\": 20, \"length\": 10, \"method\": \"%s\", \"lines\": 11,"
           "   \"output\": {\"format\": \"csv\"}}]}",
           method);
  return json;
}

static void test_scenario_cone_writes_csv_with_wall_range(void **state) {
  (void)state;
  static const char *const methods[] = {"lines", "exact"};
  for (int m = 0; m < 2; m++) {
    sensim_scenario *scn = NULL;
    SENSIM_OK_OR_FAIL(sensim_scenario_load_string(wall_scenario(methods[m]), NULL, &scn));
    char dir[512];
    snprintf(dir, sizeof dir, "%s/cone_scenario_%s", SENSIM_TEST_TMP, methods[m]);
    sensim_run_summary sum;
    SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, dir, NULL, NULL, &sum));
    assert_int_equal(sum.frames[0], 6); /* t = 0, 0.1, ..., 0.5 */
    sensim_scenario_destroy(scn);

    char path[600];
    snprintf(path, sizeof path, "%s/cone/cone.csv", dir);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, fp));
    assert_memory_equal(line, "t_capture,detected,instance_id,class_id,range,azimuth,elevation,", 64);
    int rows = 0;
    while (fgets(line, sizeof line, fp)) {
      double t, det, inst, cls, range, az, el;
      assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &det, &inst, &cls, &range,
                              &az, &el), 7);
      assert_true(det == 1.0 && cls == 7.0);
      /* Mesh vertices are stored in single precision: 3.1 - 0.1 holds to
       * about 3.1 * 2^-24 = 1.8e-7 m. */
      assert_near(range, 3.0, 4e-7);
      assert_near(az, 0.0, 1e-9);
      assert_near(el, 0.0, 1e-9);
      rows++;
    }
    fclose(fp);
    assert_int_equal(rows, 6);
  }
}

static void test_scenario_cone_rejects_bad_keys_by_name(void **state) {
  (void)state;
  static const char *const bad[] = {
      "{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"cone\", \"theta_deg\": 180}]}",
      "{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"cone\", \"lines\": 1}]}",
      "{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"cone\", \"method\": \"guess\"}]}",
      "{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"cone\", \"width\": 3}]}",
      "{\"duration\": 1, \"sensors\": [{\"name\": \"c\", \"type\": \"cone\", \"output\": {\"format\": \"png\"}}]}",
  };
  static const char *const key[] = {"theta_deg", "lines", "method", "width", "format"};
  for (int i = 0; i < 5; i++) {
    sensim_scenario *scn = NULL;
    sensim_status st = sensim_scenario_load_string(bad[i], NULL, &scn);
    assert_true(st != SENSIM_OK);
    assert_null(scn);
    if (!strstr(sensim_last_error(), key[i])) fail_msg("case %d: '%s'", i, sensim_last_error());
  }
}

int sensim_test_cone_scenario(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_cone_writes_csv_with_wall_range),
      cmocka_unit_test(test_scenario_cone_rejects_bad_keys_by_name),
  };
  return cmocka_run_group_tests_name("cone_scenario", tests, NULL, NULL);
}
