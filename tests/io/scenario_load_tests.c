/* tests/io/scenario_load_tests.c: the JSON scenario loader end to end:
 * every example loads and runs, an inline scenario builds what it says,
 * and bad scenarios, missing files and unwritable folders fail with a
 * code and a message naming the place. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/scenario_internal.h"
#include "io/scenario_fixtures.h"

/* ---- loading ---------------------------------------------------------- */

/* Every example scenario loads, runs and writes its sensors' frames
 * (examples/sweep*.json are sweeps of them, not scenarios). */
static void test_examples_load_and_run(void **state) {
  (void)state;
  DIR *d = opendir(EXAMPLES);
  assert_non_null(d);
  struct dirent *e;
  int loaded = 0;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
    /* Sweep files (docs/sweep.md) are not scenarios; the sweep tests run
     * them (tests/sweep_ranks/run.sh). */
    if (strncmp(e->d_name, "sweep", 5) == 0) continue;
    char path[512], out[512];
    snprintf(path, sizeof path, "%s/%s", EXAMPLES, e->d_name);
    snprintf(out, sizeof out, "%s/examples/%.*s", TMP, (int)(n - 5), e->d_name);
    sensim_scenario *scn = NULL;
    SENSIM_OK_OR_FAIL(sensim_scenario_load(path, &scn));
    sensim_world *w = sensim_scenario_world(scn);
    assert_non_null(w);
    assert_true(sensim_scenario_duration(scn) > 0);
    size_t ns = sensim_world_sensor_count(w);
    assert_true(ns > 0);
    sensim_run_summary sum;
    SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, out, NULL, NULL, &sum));
    assert_int_equal(sum.sensors, ns);
    for (size_t i = 0; i < ns; i++)
      if (sum.frames[i] == 0)
        fail_msg("%s: sensor %s delivered no frame", e->d_name,
                 sensim_sensor_name(sensim_world_sensor(w, i)));
    sensim_scenario_destroy(scn);
    loaded++;
  }
  closedir(d);
  assert_true(loaded >= 1);
}

/* The examples hold the parameters their files give. */
static void test_example_params_reach_the_world(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load(EXAMPLES "/cart.json", &scn));
  sensim_world *w = sensim_scenario_world(scn);
  const sensim_world_params *wp = sensim_world_params_get(w);
  assert_int_equal(wp->seed, 5);
  assert_near(wp->origin_lat, 37.4275, 0);
  assert_near(wp->origin_lon, -122.1697, 0);
  assert_near(sensim_scenario_duration(scn), 3.0, 0);
  assert_near(sensim_scenario_step(scn), 0.001, 0); /* default */
  sensim_sensor *lidar = sensim_world_sensor_by_name(w, "lidar");
  sensim_sensor *imu = sensim_world_sensor_by_name(w, "imu");
  assert_non_null(lidar);
  assert_non_null(imu);
  assert_near(sensim_sensor_params_get(lidar)->lag, 0.02, 0);
  assert_near(sensim_sensor_params_get(imu)->rate, 200, 0);
  assert_near(sensim_sensor_params_get(imu)->phase, 0.0025, 0);
  assert_int_equal(sensim_sensor_output_type(lidar), SENSIM_PAYLOAD_POINTS);
  assert_int_equal(scn->sensors[0].format, SENSIM__OUT_PCD_ASCII);
  assert_int_equal(scn->sensors[1].format, SENSIM__OUT_CSV); /* gnss default */
  sensim_scenario_destroy(scn);

  SENSIM_OK_OR_FAIL(sensim_scenario_load(EXAMPLES "/orbit.json", &scn));
  w = sensim_scenario_world(scn);
  assert_int_equal(sensim_world_sensor_count(w), 3);
  assert_int_equal(sensim_sensor_output_type(sensim_world_sensor_by_name(w, "rgb")),
                   SENSIM_PAYLOAD_RGBA8);
  assert_int_equal(sensim_sensor_output_type(sensim_world_sensor_by_name(w, "depth")),
                   SENSIM_PAYLOAD_DEPTH_F32);
  assert_int_equal(sensim_sensor_output_type(sensim_world_sensor_by_name(w, "labels")),
                   SENSIM_PAYLOAD_LABELS);
  assert_near(sensim_scenario_step(scn), 0.002, 0);
  sensim_scenario_destroy(scn);
}

/* A small scenario written inline, with comments of both kinds, including
 * comment markers inside strings, which must stay. */
static const char *inline_json =
    "// a test scenario\n"
    "{\n"
    "  \"description\": \"markers in strings: http://x /* not a comment \\\" // still\",\n"
    "  \"world\": {\"seed\": 99, \"threads\": 1, \"origin\": [10, 20, 30], /* inline */\n"
    "            \"gravity\": 9.8, \"background\": [0.1, 0.2, 0.3], \"ambient\": 0.4},\n"
    "  \"duration\": 0.2, \"step\": 0.002,\n"
    "  \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},\n"
    "              \"material\": {\"base_color\": [1, 0, 0], \"reflectance\": 0.9}},\n"
    "             {\"name\": \"pyr\", \"file\": \".//pyramid.obj\"}],\n"
    "  \"lights\": [{\"kind\": \"point\", \"position\": [0, 0, 5], \"intensity\": 10}],\n"
    "  \"bodies\": [\n"
    "    {\"name\": \"block\", \"mesh\": \"box\", \"class_id\": 5, \"instance_id\": 77,\n"
    "     \"pose\": {\"position\": [3, 0, 0.5], \"rpy\": [0, 0, 0.3]}},\n"
    "    {\"name\": \"pyramid\", \"mesh\": \"pyr\", \"pose\": {\"position\": [-3, 0, 0]}},\n"
    "    {\"name\": \"rover\", \"motion\": {\"type\": \"circle\", \"center\": [0, 0, 0.5],\n"
    "     \"radius\": 1, \"speed\": 1}}\n"
    "  ],\n"
    "  \"sensors\": [\n"
    "    {\"name\": \"cam\", \"type\": \"camera\", \"body\": \"rover\", \"rate\": 10,\n"
    "     \"lag\": 0.01, \"width\": 32, \"height\": 24, \"hfov_deg\": 60, \"samples\": 1,\n"
    "     \"filters\": [{\"name\": \"srgb8\", \"params\": {\"exposure\": 2}}]},\n"
    "    {\"name\": \"scan\", \"type\": \"lidar\", \"body\": \"rover\", \"rate\": 10,\n"
    "     \"phase\": 0.05, \"channels\": 8, \"columns\": 90, \"max_range\": 20,\n"
    "     \"filters\": [{\"name\": \"points\"}], \"output\": {\"format\": \"csv\"}},\n"
    "    {\"name\": \"fix\", \"type\": \"gnss\", \"rate\": 5, \"window\": 0},\n"
    "    {\"name\": \"accel\", \"type\": \"imu\", \"body\": \"rover\", \"rate\": 50,\n"
    "     \"mount\": {\"position\": [0.1, 0, 0], \"quaternion\": [1, 0, 0, 0]}}\n"
    "  ]\n"
    "} // trailing comment\n";

static void count_progress(double t, double duration, void *user) {
  (void)t;
  (void)duration;
  (*(int *)user)++;
}

static void test_inline_scenario_builds_and_runs_what_it_says(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(inline_json, SENSIM_TEST_DATA, &scn));
  sensim_world *w = sensim_scenario_world(scn);
  const sensim_world_params *wp = sensim_world_params_get(w);
  assert_int_equal(wp->seed, 99);
  assert_int_equal(wp->threads, 1);
  assert_near(wp->origin_lat, 10, 0);
  assert_near(wp->origin_lon, 20, 0);
  assert_near(wp->origin_height, 30, 0);
  assert_near(wp->gravity, 9.8, 0);
  assert_near(wp->background[2], 0.3f, 0);
  assert_near(wp->ambient, 0.4f, 0);
  assert_near(sensim_scenario_duration(scn), 0.2, 0);
  assert_near(sensim_scenario_step(scn), 0.002, 0);

  assert_int_equal(scn->nbodies, 3);
  assert_true(scn->bodies[0].is_static);  /* no motion: static by default */
  assert_false(scn->bodies[2].is_static); /* a motion: dynamic */
  sensim_body_state s;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(scn->bodies[0].body, 0, &s));
  assert_near(s.pose.pos.x, 3, 1e-12);
  assert_near(s.pose.pos.z, 0.5, 1e-12);
  assert_near(2 * atan2(s.pose.rot.z, s.pose.rot.w), 0.3, 1e-9);

  assert_int_equal(sensim_world_sensor_count(w), 4);
  const char *names[4] = {"cam", "scan", "fix", "accel"};
  sensim_payload types[4] = {SENSIM_PAYLOAD_RGBA8, SENSIM_PAYLOAD_POINTS, SENSIM_PAYLOAD_GNSS,
                             SENSIM_PAYLOAD_IMU};
  for (size_t i = 0; i < 4; i++) {
    sensim_sensor *sn = sensim_world_sensor(w, i);
    assert_string_equal(sensim_sensor_name(sn), names[i]);
    assert_int_equal(sensim_sensor_output_type(sn), types[i]);
  }
  const sensim_sensor_params *cam = sensim_sensor_params_get(sensim_world_sensor(w, 0));
  assert_near(cam->rate, 10, 0);
  assert_near(cam->lag, 0.01, 0);
  assert_near(sensim_sensor_params_get(sensim_world_sensor(w, 1))->phase, 0.05, 0);
  const sensim_sensor_params *acc = sensim_sensor_params_get(sensim_world_sensor(w, 3));
  assert_near(acc->mount.pos.x, 0.1, 0);
  assert_true(acc->body == scn->bodies[2].body);
  assert_null(sensim_sensor_params_get(sensim_world_sensor(w, 2))->body);

  int calls = 0;
  sensim_run_summary sum;
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/inline", count_progress, &calls, &sum));
  assert_int_equal(calls, 1); /* 0.2 s: only the final report */
  assert_near(sum.sim_time, 0.2, 1e-12);
  /* Camera at 0, 0.1 (0.2 is delivered at 0.21, after the end); lidar at
   * 0.05, 0.15; gnss at 0, 0.2; imu at 0, 0.02, ..., 0.2. */
  assert_int_equal(sum.frames[0], 2);
  assert_int_equal(sum.frames[1], 2);
  assert_int_equal(sum.frames[2], 2);
  assert_int_equal(sum.frames[3], 11);
  uint32_t pw, ph;
  scenario_png_size(TMP "/inline/cam/frame_000001.png", &pw, &ph);
  assert_int_equal(pw, 32);
  assert_int_equal(ph, 24);
  assert_false(test_file_exists(TMP "/inline/cam/frame_000002.png"));
  char *csv = test_slurp(TMP "/inline/accel/accel.csv", NULL);
  assert_int_equal(scenario_count_lines(csv), 12);
  free(csv);
  csv = test_slurp(TMP "/inline/fix/fix.csv", NULL);
  assert_int_equal(scenario_count_lines(csv), 3);
  free(csv);
  csv = test_slurp(TMP "/inline/scan/scan.csv", NULL);
  assert_true(scenario_count_lines(csv) >= 1 && scenario_count_lines(csv) <= 1 + 2 * 8 * 90);
  free(csv);

  /* Static bodies get no pushes; the scripted one follows its motion. */
  assert_int_equal(sensim_body_keyframe_count(scn->bodies[0].body), 1);
  assert_true(sensim_body_keyframe_count(scn->bodies[2].body) >= 1);
  SENSIM_OK_OR_FAIL(sensim_body_state_at(scn->bodies[2].body, 0.2, &s));
  assert_near(s.pose.pos.x, cos(0.2), 1e-9);
  assert_near(s.pose.pos.y, sin(0.2), 1e-9);

  /* A scenario runs once: its world's clock cannot go back. */
  assert_int_equal(sensim_scenario_run(scn, NULL, NULL, NULL, &sum), SENSIM_ESTATE);
  sensim_scenario_destroy(scn);
}

#define SENSOR_WRAP(body) "{\"duration\": 1, \"sensors\": [" body "]}"

static const bad_case bad_cases[] = {
    {"{\"duration\": 1,}", SENSIM_EPARSE, "scenario:1:"},
    {"{\"duration\": 1,\n \"world\": {\"seed\": 1 \"threads\": 2}}", SENSIM_EPARSE,
     "scenario:2:"},
    {"[1, 2]", SENSIM_EPARSE, "(root): must be an object"},
    {"{\"duration\": 1 /* never closed", SENSIM_EPARSE, "unterminated"},
    {"{}", SENSIM_EPARSE, "duration: missing"},
    {"{\"duration\": 1, \"sensor\": []}", SENSIM_EPARSE, "sensor: unknown key"},
    {"{\"duration\": 1, \"world\": {\"seed\": 1, \"seed\": 2}}", SENSIM_EPARSE,
     "world.seed: key given twice"},
    {"{\"duration\": -1}", SENSIM_EINVAL, "duration: must be > 0"},
    {"{\"duration\": 1, \"world\": {\"threads\": 1.5}}", SENSIM_EPARSE, "world.threads"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", \"rat\": 5}"), SENSIM_EPARSE,
     "sensors[0].rat: unknown key"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", \"rate\": \"fast\"}"), SENSIM_EPARSE,
     "sensors[0].rate: must be a number, not a string"},
    {SENSOR_WRAP("{\"name\": \"a\", \"type\": \"imu\"}, {\"name\": \"g\", \"type\": \"gnss\", "
                 "\"rate\": -5}"),
     SENSIM_EINVAL, "sensors[1].rate: must be > 0"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", \"rate\": 1e999}"), SENSIM_EINVAL,
     "sensors[0].rate: must be finite"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"sonar\"}"), SENSIM_EINVAL,
     "sensors[0].type: unknown sensor 'sonar'"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", \"filters\": [{\"name\": \"blur\"}]}"),
     SENSIM_ENOTFOUND, "sensors[0].filters[0].name: unknown filter 'blur'"},
    {SENSOR_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"width\": 8, \"height\": 8, "
                 "\"filters\": [{\"name\": \"points\"}]}"),
     SENSIM_ETYPE, "sensors[0].filters[0]"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", \"filters\": [{\"name\": "
                 "\"gnss_noise\", \"params\": {\"sigmaa\": 1}}]}"),
     SENSIM_EINVAL, "sensors[0].filters[0]"},
    {SENSOR_WRAP("{\"name\": \"l\", \"type\": \"lidar\", \"filters\": [{\"name\": \"points\"}], "
                 "\"output\": {\"format\": \"png\"}}"),
     SENSIM_ETYPE, "sensors[0].output.format"},
    {SENSOR_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"width\": 0}"), SENSIM_EINVAL,
     "sensors[0].width"},
    {SENSOR_WRAP("{\"name\": \"l\", \"type\": \"lidar\", \"channels\": 2, "
                 "\"elevations_deg\": [0, 1, 2]}"),
     SENSIM_EINVAL, "sensors[0].elevations_deg"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\"}, {\"name\": \"g\", \"type\": \"imu\"}"),
     SENSIM_EINVAL, "sensors[1].name: 'g' is already a sensor"},
    {SENSOR_WRAP("{\"name\": \"a/b\", \"type\": \"gnss\"}"), SENSIM_EINVAL, "sensors[0].name"},
    {SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", \"body\": \"car\"}"), SENSIM_ENOTFOUND,
     "sensors[0].body: no body named 'car'"},
    {"{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"file\": \"no_such_mesh.obj\"}]}",
     SENSIM_ENOTFOUND, "meshes[0].file"},
    {"{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"torus\", "
     "\"size\": [1, 1, 1]}}]}",
     SENSIM_EINVAL, "meshes[0].shape.kind: unknown shape 'torus'"},
    {"{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", "
     "\"size\": [1, 0, 1]}}]}",
     SENSIM_EINVAL, "meshes[0].shape.size"},
    {"{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", "
     "\"size\": [1, 1, 1]}, \"material\": {\"roughness\": 2}}]}",
     SENSIM_EINVAL, "meshes[0].material.roughness"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"mesh\": \"nope\"}]}", SENSIM_ENOTFOUND,
     "bodies[0].mesh: no mesh named 'nope'"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"class_id\": 70000}]}", SENSIM_EINVAL,
     "bodies[0].class_id"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"static\": true, \"motion\": "
     "{\"type\": \"line\", \"velocity\": [1, 0, 0]}}]}",
     SENSIM_EINVAL, "bodies[0].static"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"motion\": {\"type\": \"spiral\"}}]}",
     SENSIM_EINVAL, "bodies[0].motion.type: unknown motion 'spiral'"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"motion\": {\"type\": \"circel\"}}]}",
     SENSIM_EINVAL, "unknown motion 'circel'; did you mean 'circle'?"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"motion\": {\"type\": \"waypoints\", "
     "\"points\": [[0, 0, 0, 0, 0], [0, 1, 0, 0, 0]]}}]}",
     SENSIM_EINVAL, "bodies[0].motion.points[1][0]"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"motion\": {\"type\": \"circle\", "
     "\"radius\": 0, \"speed\": 1}}]}",
     SENSIM_EINVAL, "bodies[0].motion.radius"},
    {"{\"duration\": 1, \"bodies\": [{\"name\": \"b\", \"pose\": {\"rpy\": [0, 0, 0], "
     "\"quaternion\": [1, 0, 0, 0]}}]}",
     SENSIM_EINVAL, "bodies[0].pose"},
    {"{\"duration\": 1, \"lights\": [{\"kind\": \"laser\"}]}", SENSIM_EINVAL,
     "lights[0].kind: unknown light 'laser'"},
};

static void test_bad_scenarios_fail_naming_the_path(void **state) {
  (void)state;
  scenario_expect_bad_cases(bad_cases, sizeof bad_cases / sizeof bad_cases[0], SENSIM_TEST_DATA);
}

/* A near miss of a known key, sensor type, filter, filter parameter or
 * enum value names the one meant (core/suggest.c); a far one does not. */
#define GNSS_WITH(keys) SENSOR_WRAP("{\"name\": \"g\", \"type\": \"gnss\", " keys "}")
#define LIDAR_WITH(keys) SENSOR_WRAP("{\"name\": \"l\", \"type\": \"lidar\", " keys "}")
static const bad_case near_miss_cases[] = {
    {GNSS_WITH("\"rat\": 5"), SENSIM_EPARSE,
     "sensors[0].rat: unknown key; did you mean 'rate'? (known here:"},
    {"{\"duration\": 1, \"sensor\": []}", SENSIM_EPARSE, "sensor: unknown key; did you mean 'sensors'?"},
    {"{\"duration\": 1, \"wrold\": {}}", SENSIM_EPARSE, "wrold: unknown key; did you mean 'world'?"},
    {SENSOR_WRAP("{\"name\": \"l\", \"type\": \"lidr\"}"), SENSIM_EINVAL,
     "sensors[0].type: unknown sensor 'lidr'; did you mean 'lidar'?"},
    {GNSS_WITH("\"filters\": [{\"name\": \"gnss_noice\"}]"), SENSIM_ENOTFOUND,
     "sensors[0].filters[0].name: unknown filter 'gnss_noice'; did you mean 'gnss_noise'?"},
    {GNSS_WITH("\"filters\": [{\"name\": \"gnss_noise\", \"params\": {\"sigmaa\": 1}}]"), SENSIM_EINVAL,
     "filter 'gnss_noise' has no parameter 'sigmaa'; did you mean 'sigma'?"},
    {GNSS_WITH("\"output\": {\"format\": \"nmae\"}"), SENSIM_EINVAL,
     "sensors[0].output.format: unknown format 'nmae'; did you mean 'nmea'?"},
    {LIDAR_WITH("\"pattern\": \"spining\""), SENSIM_EINVAL,
     "sensors[0].pattern: unknown value 'spining'; did you mean 'spinning'?"},
    {LIDAR_WITH("\"preset\": \"VLP16\""), SENSIM_ENOTFOUND, "did you mean 'VLP-16'?"},
    {SENSOR_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrad\"}"),
     SENSIM_EINVAL, "sensors[0].lens: unknown lens 'brown_conrad'; did you mean 'brown_conrady'?"},
    {SENSOR_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"filters\": [{\"name\": \"tone\", "
                 "\"params\": {\"curve\": \"srbg\"}}]}"),
     SENSIM_EINVAL, "tone: unknown curve 'srbg'; did you mean 'srgb'?"},
    {SENSOR_WRAP("{\"name\": \"d\", \"type\": \"cone\", \"method\": \"exakt\"}"), SENSIM_EINVAL,
     "sensors[0].method: unknown cone method 'exakt'; did you mean 'exact'?"},
    {SENSOR_WRAP("{\"name\": \"m\", \"type\": \"magnetometer\", \"mag_model\": \"dipol\"}"),
     SENSIM_EINVAL, "unknown model 'dipol'; did you mean 'dipole'?"},
    {"{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"spehre\", "
     "\"size\": [1, 1, 1]}}]}",
     SENSIM_EINVAL, "meshes[0].shape.kind: unknown shape 'spehre'; did you mean 'sphere'?"},
    {"{\"duration\": 1, \"lights\": [{\"kind\": \"sopt\"}]}", SENSIM_EINVAL,
     "lights[0].kind: unknown light 'sopt'; did you mean 'spot'?"},
};

/* Nothing near: the message offers no guess. */
static const char *const far_miss_cases[] = {
    SENSOR_WRAP("{\"name\": \"g\", \"type\": \"sonar\"}"),
    GNSS_WITH("\"filters\": [{\"name\": \"blur\"}]"),
    GNSS_WITH("\"velocity\": 5"),
    "{\"duration\": 1, \"lights\": [{\"kind\": \"laser\"}]}",
};

static void test_near_misses_suggest_the_known_name(void **state) {
  (void)state;
  scenario_expect_bad_cases(near_miss_cases, sizeof near_miss_cases / sizeof near_miss_cases[0],
                            SENSIM_TEST_DATA);
  for (size_t i = 0; i < sizeof far_miss_cases / sizeof far_miss_cases[0]; i++) {
    sensim_scenario *scn = NULL;
    assert_int_not_equal(sensim_scenario_load_string(far_miss_cases[i], NULL, &scn), SENSIM_OK);
    if (strstr(sensim_last_error(), "did you mean"))
      fail_msg("case %zu suggests a far name: %s", i, sensim_last_error());
  }
}

static void test_scenario_files_report_missing_and_bad_files(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  assert_int_equal(sensim_scenario_load(TMP "/does_not_exist.json", &scn), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "does_not_exist.json"));
  assert_null(scn);
  assert_int_equal(sensim_scenario_load(SENSIM_TEST_DATA "/bad_rate.json", &scn), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "sensors[1].rate"));
  /* A relative mesh path resolves against the scenario's folder, not the
   * current one: write a scenario next to a copy of no mesh at all. */
  FILE *fp = fopen(TMP "/mesh_ref.json", "w");
  assert_non_null(fp);
  fputs("{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"file\": \"pyramid.obj\"}]}", fp);
  fclose(fp);
  assert_int_equal(sensim_scenario_load(TMP "/mesh_ref.json", &scn), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), TMP "/pyramid.obj"));
}

static void test_run_into_unwritable_folder_is_eio(void **state) {
  (void)state;
  FILE *fp = fopen(TMP "/a_file", "w");
  assert_non_null(fp);
  fclose(fp);
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      "{\"duration\": 0.01, \"sensors\": [{\"name\": \"i\", \"type\": \"imu\"}]}", NULL, &scn));
  assert_int_equal(sensim_scenario_run(scn, TMP "/a_file/out", NULL, NULL, NULL), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "a_file"));
  sensim_scenario_destroy(scn);
}


int sensim_test_scenario(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_examples_load_and_run),
      cmocka_unit_test(test_example_params_reach_the_world),
      cmocka_unit_test(test_inline_scenario_builds_and_runs_what_it_says),
      cmocka_unit_test(test_bad_scenarios_fail_naming_the_path),
      cmocka_unit_test(test_near_misses_suggest_the_known_name),
      cmocka_unit_test(test_scenario_files_report_missing_and_bad_files),
      cmocka_unit_test(test_run_into_unwritable_folder_is_eio),
  };
  return cmocka_run_group_tests_name("scenario", tests, scenario_setup, NULL);
}
