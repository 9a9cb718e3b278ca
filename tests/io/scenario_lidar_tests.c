/* tests/io/scenario_lidar_tests.c: every lidar key of docs/scenario.md
 * reaches the lidar, bad keys fail naming the key, and the ply outputs
 * write one file per scan. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/scenario_internal.h"
#include "io/scenario_fixtures.h"
#include "sensors/lidar_internal.h"
#include "runtime/runtime_internal.h"

/* ---- lidar keys and the ply outputs ---------------------------------------- */

/* The lidar's configuration as sensim_lidar_create stored it. */
static const sensim_lidar *lidar_of(sensim_world *w, const char *name) {
  sensim_sensor *s = sensim_world_sensor_by_name(w, name);
  assert_non_null(s);
  assert_string_equal(s->kind->name, "lidar");
  return s->impl;
}

#define DEG_ (PI / 180)

/* Every lidar key of docs/scenario.md reaches the lidar's parameters with
 * its unit conversion; a preset fills what the other keys leave alone. */
static void test_lidar_keys_reach_the_params(void **state) {
  (void)state;
  const char *json = CAM_WRAP(
      "{\"name\": \"full\", \"type\": \"lidar\", \"pattern\": \"grid\", \"channels\": 3,"
      " \"elevations_deg\": [2, -10, 5], \"azimuth_offsets_deg\": [1, -1, 0.5],"
      " \"firing_offsets\": [0, 1e-6, 2.5e-6], \"columns\": 100, \"hfov_deg\": 120,"
      " \"start_azimuth_deg\": -60, \"clockwise\": true, \"min_range\": 0.5, \"max_range\": 80,"
      " \"divergence_deg\": [0.2, 0.1], \"beam_shape\": \"elliptical\", \"subrays\": 9,"
      " \"returns\": \"dual\", \"range_resolution\": 0.2, \"detection_range\": 120,"
      " \"intensity_bits\": 12, \"extinction\": 0.001, \"fog_visibility\": 500},"
      "{\"name\": \"vlp\", \"type\": \"lidar\", \"preset\": \"VLP-16\", \"columns\": 900,"
      " \"returns\": \"last\", \"divergence_deg\": 0.3, \"beam_shape\": \"rectangular\","
      " \"subrays\": 4},"
      "{\"name\": \"vlp_uniform\", \"type\": \"lidar\", \"preset\": \"VLP-16\","
      " \"elev_min_deg\": -10, \"elev_max_deg\": 20, \"clockwise\": false},"
      "{\"name\": \"vlp8\", \"type\": \"lidar\", \"preset\": \"VLP-16\", \"channels\": 2,"
      " \"elevations_deg\": [-1, 1], \"firing_offsets\": [0, 0.5e-6]},"
      "{\"name\": \"modes\", \"type\": \"lidar\", \"returns\": \"mean\", \"pattern\": \"spinning\"},"
      "{\"name\": \"plain\", \"type\": \"lidar\"}");
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  sensim_world *w = sensim_scenario_world(scn);

  const sensim_lidar *L = lidar_of(w, "full");
  assert_int_equal(L->p.pattern, SENSIM_LIDAR_GRID);
  assert_int_equal(L->p.channels, 3);
  const double el[3] = {2, -10, 5}, az[3] = {1, -1, 0.5}, fire[3] = {0, 1e-6, 2.5e-6};
  const uint16_t ring[3] = {1, 0, 2};
  for (int c = 0; c < 3; c++) {
    assert_near(L->elev[c], el[c] * DEG_, 1e-15);
    assert_near(L->az_off[c], az[c] * DEG_, 1e-15);
    assert_near(L->fire_off[c], fire[c], 0);
    assert_int_equal(L->ring[c], ring[c]);
  }
  assert_int_equal(L->p.columns, 100);
  assert_near(L->p.hfov, 120 * DEG_, 1e-15);
  assert_near(L->p.start_azimuth, -60 * DEG_, 1e-15);
  assert_int_equal(L->p.clockwise, 1);
  assert_near(L->p.min_range, 0.5, 0);
  assert_near(L->p.max_range, 80, 0);
  assert_near(L->p.div_h, 0.2 * DEG_, 1e-15);
  assert_near(L->p.div_v, 0.1 * DEG_, 1e-15);
  assert_int_equal(L->p.shape, SENSIM_BEAM_ELLIPTICAL);
  assert_int_equal(L->p.subrays, 9);
  assert_int_equal(L->p.returns, SENSIM_RETURN_DUAL);
  assert_int_equal(L->nret, 2);
  assert_near(L->p.range_resolution, 0.2, 0);
  assert_near(L->p.detection_range, 120, 0);
  assert_int_equal(L->p.intensity_bits, 12);
  assert_near(L->p.extinction, 0.001, 0);
  assert_near(L->p.fog_visibility, 500, 0);

  /* A preset, then the keys given on top of it. */
  sensim_lidar_params vlp;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &vlp));
  L = lidar_of(w, "vlp");
  assert_int_equal(L->p.channels, 16);
  assert_int_equal(L->p.columns, 900);
  assert_int_equal(L->p.clockwise, vlp.clockwise);
  assert_near(L->p.max_range, vlp.max_range, 0);
  assert_near(L->p.min_range, vlp.min_range, 0);
  for (int c = 0; c < 16; c++) {
    assert_near(L->elev[c], vlp.elevations[c], 0);
    assert_near(L->fire_off[c], vlp.firing_offsets ? vlp.firing_offsets[c] : 0, 0);
  }
  assert_int_equal(L->p.returns, SENSIM_RETURN_LAST);
  assert_near(L->p.div_h, 0.3 * DEG_, 1e-15);
  assert_near(L->p.div_v, 0.3 * DEG_, 1e-15);
  assert_int_equal(L->p.shape, SENSIM_BEAM_RECTANGULAR);
  assert_int_equal(L->p.subrays, 4);

  /* elev_min_deg / elev_max_deg replace the preset's table by a uniform one
   * and keep its other tables. */
  L = lidar_of(w, "vlp_uniform");
  for (int c = 0; c < 16; c++) {
    assert_near(L->elev[c], (-10 + 30.0 * c / 15) * DEG_, 1e-12);
    assert_near(L->fire_off[c], vlp.firing_offsets ? vlp.firing_offsets[c] : 0, 0);
  }
  assert_int_equal(L->p.clockwise, 0);

  /* Fewer channels than the preset, with every table it has given anew. */
  L = lidar_of(w, "vlp8");
  assert_int_equal(L->p.channels, 2);
  assert_near(L->elev[0], -1 * DEG_, 1e-15);
  assert_near(L->fire_off[1], 0.5e-6, 0);

  L = lidar_of(w, "modes");
  assert_int_equal(L->p.returns, SENSIM_RETURN_MEAN);
  assert_int_equal(L->p.pattern, SENSIM_LIDAR_SPINNING);
  assert_int_equal(L->nret, 1);

  /* No keys: the defaults of sensim_lidar_params_init. */
  sensim_lidar_params def;
  sensim_lidar_params_init(&def);
  L = lidar_of(w, "plain");
  assert_int_equal(L->p.pattern, def.pattern);
  assert_int_equal(L->p.channels, def.channels);
  assert_int_equal(L->p.columns, def.columns);
  assert_near(L->p.elev_min, def.elev_min, 0);
  assert_near(L->p.elev_max, def.elev_max, 0);
  assert_near(L->p.hfov, def.hfov, 0);
  assert_near(L->p.start_azimuth, def.start_azimuth, 0);
  assert_int_equal(L->p.clockwise, def.clockwise);
  assert_near(L->p.div_h, def.div_h, 0);
  assert_near(L->p.div_v, def.div_v, 0);
  assert_int_equal(L->p.shape, def.shape);
  assert_int_equal(L->p.subrays, def.subrays);
  assert_int_equal(L->p.returns, def.returns);
  assert_near(L->p.range_resolution, def.range_resolution, 0);
  assert_near(L->p.detection_range, def.detection_range, 0);
  assert_int_equal(L->p.intensity_bits, def.intensity_bits);
  assert_near(L->p.extinction, def.extinction, 0);
  assert_near(L->p.fog_visibility, def.fog_visibility, 0);
  sensim_scenario_destroy(scn);
}

#define LIDAR_WRAP(keys) CAM_WRAP("{\"name\": \"l\", \"type\": \"lidar\", " keys "}")

static const bad_case bad_lidar_cases[] = {
    {LIDAR_WRAP("\"preset\": \"HDL-99\""), SENSIM_ENOTFOUND, "sensors[0].preset: unknown lidar"},
    {LIDAR_WRAP("\"preset\": 16"), SENSIM_EPARSE, "sensors[0].preset"},
    {LIDAR_WRAP("\"pattern\": \"raster\""), SENSIM_EINVAL,
     "sensors[0].pattern: unknown value 'raster'"},
    {LIDAR_WRAP("\"beam_shape\": \"square\""), SENSIM_EINVAL, "sensors[0].beam_shape"},
    {LIDAR_WRAP("\"returns\": \"second\""), SENSIM_EINVAL, "sensors[0].returns: unknown value"},
    {LIDAR_WRAP("\"returns\": 2"), SENSIM_EPARSE, "sensors[0].returns"},
    {LIDAR_WRAP("\"clockwise\": \"yes\""), SENSIM_EPARSE, "sensors[0].clockwise"},
    {LIDAR_WRAP("\"divergence_deg\": -0.1"), SENSIM_EINVAL, "sensors[0].divergence_deg"},
    {LIDAR_WRAP("\"divergence_deg\": [0.1]"), SENSIM_EPARSE, "sensors[0].divergence_deg"},
    {LIDAR_WRAP("\"divergence_deg\": [0.1, 0.2, 0.3]"), SENSIM_EPARSE, "sensors[0].divergence_deg"},
    {LIDAR_WRAP("\"divergence_deg\": \"wide\""), SENSIM_EPARSE, "sensors[0].divergence_deg"},
    {LIDAR_WRAP("\"subrays\": 0"), SENSIM_EINVAL, "sensors[0].subrays"},
    {LIDAR_WRAP("\"subrays\": 2.5"), SENSIM_EPARSE, "sensors[0].subrays"},
    {LIDAR_WRAP("\"intensity_bits\": 17"), SENSIM_EINVAL, "sensors[0].intensity_bits"},
    {LIDAR_WRAP("\"range_resolution\": 0"), SENSIM_EINVAL, "sensors[0].range_resolution"},
    {LIDAR_WRAP("\"detection_range\": -100"), SENSIM_EINVAL, "sensors[0].detection_range"},
    {LIDAR_WRAP("\"extinction\": -1e-3"), SENSIM_EINVAL, "sensors[0].extinction"},
    {LIDAR_WRAP("\"fog_visibility\": -5"), SENSIM_EINVAL, "sensors[0].fog_visibility"},
    {LIDAR_WRAP("\"azimuth_offsets_deg\": [0, 1]"), SENSIM_EINVAL,
     "sensors[0].azimuth_offsets_deg: has 2 values for 16 channels"},
    {LIDAR_WRAP("\"channels\": 2, \"firing_offsets\": [-1e-6, 0]"), SENSIM_EINVAL,
     "sensors[0].firing_offsets[0]"},
    {LIDAR_WRAP("\"channels\": 2, \"elevations_deg\": [0, \"x\"]"), SENSIM_EINVAL,
     "sensors[0].elevations_deg[1]"},
    {LIDAR_WRAP("\"channels\": 2, \"elevations_deg\": [0, 1], \"elev_min_deg\": -5"),
     SENSIM_EINVAL, "sensors[0].elevations_deg: give either"},
    {LIDAR_WRAP("\"preset\": \"VLP-16\", \"channels\": 8"), SENSIM_EINVAL,
     "sensors[0].channels: 8 channels, but preset 'VLP-16' has tables for 16"},
    {LIDAR_WRAP("\"rpm\": 600"), SENSIM_EPARSE, "sensors[0].rpm: unknown key"},
    /* Values the loader passes on but the lidar refuses: its message,
     * prefixed with the sensor's path. */
    {LIDAR_WRAP("\"subrays\": 4"), SENSIM_EINVAL, "sensors[0]: "},
    {LIDAR_WRAP("\"divergence_deg\": 30, \"subrays\": 4"), SENSIM_EINVAL, "sensors[0]: "},
    /* Output formats: PLY holds points only. */
    {LIDAR_WRAP("\"output\": {\"format\": \"ply\"}"), SENSIM_ETYPE, "sensors[0].output.format"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"filters\": [{\"name\": \"srgb8\"}],"
              " \"output\": {\"format\": \"ply_ascii\"}}"),
     SENSIM_ETYPE, "sensors[0].output.format: ply_ascii cannot hold"},
    {LIDAR_WRAP("\"filters\": [{\"name\": \"points\"}], \"output\": {\"format\": \"las\"}"),
     SENSIM_EINVAL, "sensors[0].output.format: unknown format 'las'"},
};

static void test_bad_lidar_keys_fail_naming_the_key(void **state) {
  (void)state;
  scenario_expect_bad_cases(bad_lidar_cases, sizeof bad_lidar_cases / sizeof bad_lidar_cases[0], NULL);
}

/* The first line of a file after the header's fixed lines. */
static char *ply_header_of(const char *path) {
  char *s = test_slurp(path, NULL);
  char *end = strstr(s, "end_header\n");
  if (!end) fail_msg("%s has no PLY header", path);
  end[0] = '\0';
  return s;
}

/* "ply" and "ply_ascii" write scan_%06d.ply files; an organised chain keeps
 * its grid (columns x rings) in the header. */
static void test_ply_outputs_write_ply_scans(void **state) {
  (void)state;
  const char *json = CAM_WRAP(
      "{\"name\": \"bin\", \"type\": \"lidar\", \"channels\": 4, \"columns\": 36,"
      " \"filters\": [{\"name\": \"points\"}], \"output\": {\"format\": \"ply\"}},"
      "{\"name\": \"txt\", \"type\": \"lidar\", \"channels\": 4, \"columns\": 36,"
      " \"filters\": [{\"name\": \"points\"}], \"output\": {\"format\": \"ply_ascii\"}},"
      "{\"name\": \"grid\", \"type\": \"lidar\", \"channels\": 4, \"columns\": 36,"
      " \"returns\": \"dual\", \"filters\": [{\"name\": \"organized\"}],"
      " \"output\": {\"format\": \"ply\"}}");
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/ply", NULL, NULL, NULL));
  sensim_scenario_destroy(scn);
  char *h = ply_header_of(TMP "/ply/bin/scan_000000.ply");
  assert_non_null(strstr(h, "ply\nformat binary_little_endian 1.0\n"));
  assert_non_null(strstr(h, "\nobj_info num_rows 1\n"));
  free(h);
  h = ply_header_of(TMP "/ply/txt/scan_000000.ply");
  assert_non_null(strstr(h, "ply\nformat ascii 1.0\n"));
  free(h);
  h = ply_header_of(TMP "/ply/grid/scan_000000.ply");
  assert_non_null(strstr(h, "\nobj_info num_cols 36\nobj_info num_rows 8\nelement vertex 288\n"));
  free(h);
  assert_false(test_file_exists(TMP "/ply/bin/scan_000000.pcd"));
}


int sensim_test_scenario_lidar(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_keys_reach_the_params),
      cmocka_unit_test(test_bad_lidar_keys_fail_naming_the_key),
      cmocka_unit_test(test_ply_outputs_write_ply_scans),
  };
  return cmocka_run_group_tests_name("scenario_lidar", tests, scenario_setup, NULL);
}
