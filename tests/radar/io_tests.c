/* tests/radar/io_tests.c: the radar from a scenario file, end to end (its
 * keys over a preset, a metal box's detections in the CSV written by
 * sensim_scenario_run), from JSON keys as the Python package makes it, and
 * refused keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"

/* A metal box whose near face (1 x 1 m) is at x = 20 m, seen by an
 * ARS408-21-near radar at the origin with `extra` keys. */
static const char *box_scenario(const char *extra) {
  static char json[2048];
  snprintf(json, sizeof json,
           "{\"world\": {\"threads\": 0}, \"duration\": 0.3, \"step\": 0.01,"
           " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},"
           "               \"material\": {\"radar_specular\": 1, \"radar_diffuse\": 0}}],"
           " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"class_id\": 5, \"static\": true,"
           "               \"pose\": {\"position\": [20.5, 0, 0]}}],"
           " \"sensors\": [{\"name\": \"radar\", \"type\": \"radar\", \"rate\": 10,"
           "   %s \"hfov_deg\": 20, \"ray_spacing_deg\": 0.05,"
           "   \"sigma_range\": 0, \"sigma_azimuth_deg\": 0, \"sigma_velocity\": 0 %s,"
           "   \"output\": {\"format\": \"csv\"}}]}",
           strstr(extra, "preset") ? "" : "\"preset\": \"ARS408-21-near\",", extra);
  return json;
}

/* Run the scenario into `name` and return the CSV's data rows, checking
 * each against the box's face. */
static int run_rows(const char *extra, const char *name) {
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(box_scenario(extra), NULL, &scn));
  char dir[512];
  snprintf(dir, sizeof dir, "%s/%s", SENSIM_TEST_TMP, name);
  sensim_run_summary sum;
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, dir, NULL, NULL, &sum));
  assert_int_equal(sum.frames[0], 4); /* t = 0, 0.1, 0.2, 0.3 */
  sensim_scenario_destroy(scn);
  char path[600];
  snprintf(path, sizeof path, "%s/radar/radar.csv", dir);
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  char line[1024];
  assert_non_null(fgets(line, sizeof line, fp));
  assert_string_equal(line, "t_capture,range,azimuth,elevation,radial_velocity,x,y,z,rcs,power,snr,"
                            "instance_id,class_id,cells\n");
  int rows = 0;
  while (fgets(line, sizeof line, fp)) {
    double t, r, az, el, v, x, y, z, rcs, pw, snr;
    unsigned inst, cls, cells;
    assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%u,%u,%u", &t, &r, &az, &el, &v, &x,
                            &y, &z, &rcs, &pw, &snr, &inst, &cls, &cells),
                     14);
    /* The face at 20 m, within the near scan's 0.39 m resolution. */
    assert_true(fabs(r - 20.0) < 0.39);
    assert_true(fabs(v) < 1e-9 && cls == 5 && cells >= 1 && snr >= 12.0);
    assert_true(fabs(x - r * cos(el) * cos(az)) < 1e-9);
    rows++;
  }
  fclose(fp);
  return rows;
}

static void test_scenario_radar_writes_csv_of_the_box_face(void **state) {
  (void)state;
  int rows = run_rows("", "radar_scenario");
  print_message("box face: %d rows over 4 frames\n", rows);
  assert_true(rows >= 4);
  /* A key over the preset: max_range 15 m leaves the face out. */
  assert_int_equal(run_rows(", \"max_range\": 15", "radar_scenario_short"), 0);
}

static void test_scenario_radar_refuses_bad_keys(void **state) {
  (void)state;
  static const char *const bad[] = {", \"preset\": \"ARS409\"", ", \"vfov_deg\": 180", ", \"max_bounces\": 0",
                                    ", \"cpi\": \"long\"",      ", \"rays\": 3",         ", \"bandwidth\": -1"};
  static const char *const key[] = {"ARS408-21-far", "vfov", "max_bounces", "cpi", "rays", "bandwidth"};
  for (int i = 0; i < 6; i++) {
    sensim_scenario *scn = NULL;
    sensim_status st = sensim_scenario_load_string(box_scenario(bad[i]), NULL, &scn);
    assert_true(st != SENSIM_OK);
    assert_null(scn);
    if (!strstr(sensim_last_error(), key[i])) fail_msg("case %d: '%s'", i, sensim_last_error());
  }
  /* Materials' radar keys are checked too. */
  const char *m = "{\"duration\": 0.1, \"meshes\": [{\"name\": \"b\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},"
                  " \"material\": {\"radar_specular\": 0.8, \"radar_diffuse\": 0.5}}]}";
  sensim_scenario *scn = NULL;
  assert_int_equal(sensim_scenario_load_string(m, NULL, &scn), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "exceeds 1"));
}

static void test_radar_from_json_keys_as_bindings_make_it(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_create_json(w, "radar", &sp, "{\"preset\": \"ARS408-21-far\"}", &s));
  assert_non_null(s);
  assert_int_equal(sensim_sensor_kind_payload("radar"), SENSIM_PAYLOAD_RADAR);
  int found = 0;
  for (const char *const *k = sensim_sensor_kinds(); *k; k++) found |= strcmp(*k, "radar") == 0;
  assert_true(found);
  s = NULL;
  assert_int_equal(sensim_sensor_create_json(w, "radar", &sp, "{\"vfov_deg\": 0}", &s), SENSIM_EINVAL);
  assert_null(s);
  sensim_payload t;
  SENSIM_OK_OR_FAIL(sensim_payload_from_name("radar", &t));
  assert_int_equal(t, SENSIM_PAYLOAD_RADAR);
  sensim_world_destroy(w);
}

int sensim_test_radar_io(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_radar_writes_csv_of_the_box_face),
      cmocka_unit_test(test_scenario_radar_refuses_bad_keys),
      cmocka_unit_test(test_radar_from_json_keys_as_bindings_make_it),
  };
  return cmocka_run_group_tests_name("radar_io", tests, NULL, NULL);
}
