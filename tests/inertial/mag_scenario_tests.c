/* tests/inertial/mag_scenario_tests.c: the magnetometer from a scenario
 * file, end to end: its keys, "mag_noise" in its chain, CSV output. */
#include <stdio.h>
#include <string.h>
#include "support/testutil.h"
#include "inertial/inertial_groups.h"

/* A world-fixed magnetometer yawed by 90 degrees (sensor X = world north)
 * in a constant field of (east 20, north 5, up -40) uT reads, in its own
 * frame (X north, Y west, Z up), (5, -20, -40) uT. */
static void test_scenario_magnetometer_csv_reads_rotated_constant_field(void **state) {
  (void)state;
  const char *json =
      "{\"world\": {\"threads\": 0}, \"duration\": 0.2, \"step\": 0.01,"
      " \"sensors\": [{\"name\": \"mag\", \"type\": \"magnetometer\", \"rate\": 50,"
      "   \"mount\": {\"rpy\": [0, 0, 1.5707963267948966]},"
      "   \"mag_model\": \"constant\", \"field_enu_ut\": [20, 5, -40],"
      "   \"filters\": [{\"name\": \"mag_noise\", \"params\": {}}],"
      "   \"output\": {\"format\": \"csv\"}}]}";
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  char dir[512];
  snprintf(dir, sizeof dir, "%s/mag_scenario", SENSIM_TEST_TMP);
  sensim_run_summary sum;
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, dir, NULL, NULL, &sum));
  assert_int_equal(sum.frames[0], 11); /* t = 0, 0.02, ..., 0.2 */
  sensim_scenario_destroy(scn);

  char path[600];
  snprintf(path, sizeof path, "%s/mag/mag.csv", dir);
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  char line[512];
  assert_non_null(fgets(line, sizeof line, fp));
  assert_string_equal(line, "t,bx,by,bz\n");
  int rows = 0;
  while (fgets(line, sizeof line, fp)) {
    double t, b[3];
    assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf", &t, &b[0], &b[1], &b[2]), 4);
    /* mag_noise's defaults add no error (docs/imu.md); the rotation by
     * pi/2 in double precision leaves ~1e-15 relative. */
    assert_near(b[0], 5e-6, 1e-18);
    assert_near(b[1], -20e-6, 1e-18);
    assert_near(b[2], -40e-6, 1e-18);
    rows++;
  }
  fclose(fp);
  assert_int_equal(rows, 11);
}

static void test_scenario_magnetometer_rejects_unknown_model_by_key(void **state) {
  (void)state;
  const char *json = "{\"duration\": 1, \"sensors\": [{\"name\": \"m\", \"type\": \"magnetometer\","
                     " \"mag_model\": \"igrf14\"}]}";
  sensim_scenario *scn = NULL;
  assert_true(sensim_scenario_load_string(json, NULL, &scn) != SENSIM_OK);
  assert_null(scn);
  assert_non_null(strstr(sensim_last_error(), "mag_model"));
}

int sensim_test_inertial_mag_scenario(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_magnetometer_csv_reads_rotated_constant_field),
      cmocka_unit_test(test_scenario_magnetometer_rejects_unknown_model_by_key),
  };
  return cmocka_run_group_tests_name("inertial_mag_scenario", tests, NULL, NULL);
}
