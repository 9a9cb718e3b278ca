/* tests/io/scenario.c: the JSON scenario loader, scripted motion and the
 * scenario runner. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "filters/chain.h"
#include "io/scenario_internal.h"
#include "sensors/lidar_internal.h"
#include "runtime/runtime_internal.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/scenario"
#define EXAMPLES SENSIM_TEST_DATA "/../../examples"
#define PI 3.14159265358979323846

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* Width and height from a PNG's IHDR (bytes 16..23, big-endian). */
static void png_size(const char *path, uint32_t *w, uint32_t *h) {
  unsigned char b[24];
  FILE *fp = fopen(path, "rb");
  if (!fp) fail_msg("cannot open %s", path);
  assert_int_equal(fread(b, 1, 24, fp), 24);
  fclose(fp);
  *w = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
  *h = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
}

/* ---- loading ---------------------------------------------------------- */

/* Every example scenario loads, runs and writes its sensors' frames. */
static void test_examples_load_and_run(void **state) {
  (void)state;
  DIR *d = opendir(EXAMPLES);
  assert_non_null(d);
  struct dirent *e;
  int loaded = 0;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
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
  png_size(TMP "/inline/cam/frame_000001.png", &pw, &ph);
  assert_int_equal(pw, 32);
  assert_int_equal(ph, 24);
  assert_false(test_file_exists(TMP "/inline/cam/frame_000002.png"));
  char *csv = test_slurp(TMP "/inline/accel/accel.csv", NULL);
  assert_int_equal(count_lines(csv), 12);
  free(csv);
  csv = test_slurp(TMP "/inline/fix/fix.csv", NULL);
  assert_int_equal(count_lines(csv), 3);
  free(csv);
  csv = test_slurp(TMP "/inline/scan/scan.csv", NULL);
  assert_true(count_lines(csv) >= 1 && count_lines(csv) <= 1 + 2 * 8 * 90);
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

typedef struct bad_case {
  const char *json;
  sensim_status code;
  const char *message; /* must appear in sensim_last_error() */
} bad_case;

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
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
    const bad_case *c = &bad_cases[i];
    sensim_scenario *scn = (sensim_scenario *)&scn; /* must be reset to NULL */
    sensim_status st = sensim_scenario_load_string(c->json, SENSIM_TEST_DATA, &scn);
    if (st != c->code || !strstr(sensim_last_error(), c->message))
      fail_msg("case %zu: got %d '%s', expected %d containing '%s'", i, st, sensim_last_error(),
               c->code, c->message);
    assert_null(scn);
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

/* ---- motion ------------------------------------------------------------ */

static sensim_pose identity_pose(void) {
  sensim_pose p = {{0, 0, 0}, {1, 0, 0, 0}};
  return p;
}

static sensim__motion parse_motion(const char *json) {
  cJSON *j = cJSON_Parse(json);
  assert_non_null(j);
  sensim__motion m;
  SENSIM_OK_OR_FAIL(sensim__motion_parse(j, "motion", &m));
  cJSON_Delete(j);
  return m;
}

/* Velocity and acceleration against central differences of position and
 * velocity: the truncation error is |x'''| h^2 / 6, about 1e-8 here. */
static void check_derivatives(const sensim__motion *m, const sensim_pose *off, double t) {
  const double h = 1e-4;
  sensim_body_state a, b, c;
  sensim__motion_state(m, off, t - h, &a);
  sensim__motion_state(m, off, t, &b);
  sensim__motion_state(m, off, t + h, &c);
  assert_int_equal(b.flags, SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION);
  assert_near(b.lin_vel.x, (c.pose.pos.x - a.pose.pos.x) / (2 * h), 1e-6);
  assert_near(b.lin_vel.y, (c.pose.pos.y - a.pose.pos.y) / (2 * h), 1e-6);
  assert_near(b.lin_vel.z, (c.pose.pos.z - a.pose.pos.z) / (2 * h), 1e-6);
  assert_near(b.lin_acc.x, (c.lin_vel.x - a.lin_vel.x) / (2 * h), 1e-6);
  assert_near(b.lin_acc.y, (c.lin_vel.y - a.lin_vel.y) / (2 * h), 1e-6);
  /* Yaw rate from the rotation between the two neighbours. */
  double ya = 2 * atan2(a.pose.rot.z, a.pose.rot.w), yc = 2 * atan2(c.pose.rot.z, c.pose.rot.w);
  double dy = remainder(yc - ya, 2 * PI);
  assert_near(b.ang_vel.z, dy / (2 * h), 1e-6);
}

static void test_circle_motion_derivatives_are_exact(void **state) {
  (void)state;
  sensim__motion m = parse_motion("{\"type\": \"circle\", \"center\": [1, 2, 3], \"radius\": 2,"
                                  " \"speed\": 3, \"direction\": \"cw\", \"phase\": 0.5}");
  sensim_pose id = identity_pose();
  for (double t = 0; t < 5; t += 0.37) {
    check_derivatives(&m, &id, t);
    sensim_body_state s;
    sensim__motion_state(&m, &id, t, &s);
    assert_near(hypot(s.pose.pos.x - 1, s.pose.pos.y - 2), 2, 1e-12);
    assert_near(s.pose.pos.z, 3, 0);
    /* Centripetal a = v^2 / r; the body's X axis points along the velocity. */
    assert_near(hypot(s.lin_acc.x, s.lin_acc.y), 4.5, 1e-12);
    sensim_vec3 fwd = sensim_quat_rotate(s.pose.rot, (sensim_vec3){1, 0, 0});
    assert_near(fwd.x * 3, s.lin_vel.x, 1e-12);
    assert_near(fwd.y * 3, s.lin_vel.y, 1e-12);
    assert_near(s.ang_vel.z, -1.5, 1e-12); /* clockwise */
  }
  sensim_body_state s0;
  sensim__motion_state(&m, &id, 0, &s0);
  assert_near(s0.pose.pos.x, 1 + 2 * cos(0.5), 1e-12);
  assert_near(s0.pose.pos.y, 2 + 2 * sin(0.5), 1e-12);
  sensim__motion_free(&m);
}

static void test_stadium_motion_is_closed_and_exact(void **state) {
  (void)state;
  const double len = 8, r = 3, v = 2, per = 2 * len + 2 * PI * r;
  sensim__motion m = parse_motion("{\"type\": \"stadium\", \"center\": [0, 0, 0.2], "
                                  "\"length\": 8, \"radius\": 3, \"speed\": 2}");
  sensim_pose id = identity_pose();
  sensim_body_state s0, s1, prev;
  sensim__motion_state(&m, &id, 0, &s0);
  assert_near(s0.pose.pos.x, 0, 1e-12);
  assert_near(s0.pose.pos.y, -3, 1e-12);
  sensim__motion_state(&m, &id, per / v, &s1);
  assert_near(s1.pose.pos.x, s0.pose.pos.x, 1e-9);
  assert_near(s1.pose.pos.y, s0.pose.pos.y, 1e-9);
  /* Continuous path at constant speed, curvature 0 on straights and 1/r on
   * the turns. */
  prev = s0;
  const double dt = 1e-3;
  for (double t = dt; t < per / v; t += dt) {
    sensim_body_state s;
    sensim__motion_state(&m, &id, t, &s);
    assert_near(hypot(s.lin_vel.x, s.lin_vel.y), v, 1e-12);
    double a = hypot(s.lin_acc.x, s.lin_acc.y);
    assert_true(fabs(a) < 1e-12 || fabs(a - v * v / r) < 1e-12);
    assert_true(hypot(s.pose.pos.x - prev.pose.pos.x, s.pose.pos.y - prev.pose.pos.y) <=
                v * dt + 1e-9);
    prev = s;
  }
  /* Away from the four junctions, derivatives match finite differences. */
  double ts[] = {1.0, 3.5, 8.0, 11.0, 14.0, 17.0};
  for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) check_derivatives(&m, &id, ts[i]);
  /* Clockwise mirrors y. */
  sensim__motion cw = parse_motion("{\"type\": \"stadium\", \"length\": 8, \"radius\": 3, "
                                   "\"speed\": 2, \"direction\": \"cw\"}");
  sensim_body_state a, b;
  sensim__motion_state(&m, &id, 6.0, &a);
  sensim__motion_state(&cw, &id, 6.0, &b);
  assert_near(b.pose.pos.x, a.pose.pos.x, 1e-12);
  assert_near(b.pose.pos.y, -a.pose.pos.y, 1e-12);
  assert_near(b.ang_vel.z, -a.ang_vel.z, 1e-12);
  sensim__motion_free(&m);
  sensim__motion_free(&cw);
}

static void test_line_and_offset_motion(void **state) {
  (void)state;
  sensim__motion m = parse_motion("{\"type\": \"line\", \"start\": [1, 2, 3], "
                                  "\"velocity\": [0, 2, 0.5]}");
  sensim_pose id = identity_pose();
  sensim_body_state s;
  sensim__motion_state(&m, &id, 2, &s);
  assert_near(s.pose.pos.x, 1, 1e-12);
  assert_near(s.pose.pos.y, 6, 1e-12);
  assert_near(s.pose.pos.z, 4, 1e-12);
  assert_near(2 * atan2(s.pose.rot.z, s.pose.rot.w), PI / 2, 1e-12);
  check_derivatives(&m, &id, 1.0);
  sensim__motion_free(&m);
  /* A body offset from its circling frame: v = v_frame + w x r,
   * a = a_frame + w x (w x r) (rigid-body kinematics). */
  m = parse_motion("{\"type\": \"circle\", \"radius\": 2, \"speed\": 1}");
  sensim_pose off = {{0.3, 0.5, 0.1}, {0.9238795325112867, 0, 0, 0.3826834323650898}};
  for (double t = 0.1; t < 6; t += 0.9) check_derivatives(&m, &off, t);
  sensim__motion_free(&m);
}

static void test_waypoints_interpolate_and_loop(void **state) {
  (void)state;
  sensim__motion m = parse_motion("{\"type\": \"waypoints\", \"loop\": true, \"points\": "
                                  "[[1, 0, 0, 0, 0], [3, 4, 2, 0, 1], [5, 0, 0, 0, 0]]}");
  sensim_pose id = identity_pose();
  sensim_body_state s;
  sensim__motion_state(&m, &id, 2, &s);
  assert_int_equal(s.flags, 0); /* poses only */
  assert_near(s.pose.pos.x, 2, 1e-12);
  assert_near(s.pose.pos.y, 1, 1e-12);
  assert_near(2 * atan2(s.pose.rot.z, s.pose.rot.w), 0.5, 1e-12);
  sensim__motion_state(&m, &id, 6, &s); /* wraps: 6 -> 2 */
  assert_near(s.pose.pos.x, 2, 1e-12);
  sensim__motion_state(&m, &id, 0, &s); /* wraps backwards: 0 -> 4 */
  assert_near(s.pose.pos.x, 2, 1e-12);
  sensim__motion_free(&m);
  m = parse_motion("{\"type\": \"waypoints\", \"points\": [[1, 0, 0, 0, 0], [2, 1, 0, 0, 0]]}");
  sensim__motion_state(&m, &id, 0, &s); /* held before the first */
  assert_near(s.pose.pos.x, 0, 0);
  sensim__motion_state(&m, &id, 9, &s); /* and after the last */
  assert_near(s.pose.pos.x, 1, 0);
  sensim__motion_free(&m);
}

/* End to end: a noiseless IMU on a body circling at v = 2 m/s, r = 2 m
 * reads the centripetal acceleration v^2 / r = 2 m/s^2 along +Y (towards
 * the centre, to the left when turning counter-clockwise), +g on Z and a
 * yaw rate v / r = 1 rad/s, which holds only if the loader pushes the exact
 * derivatives. Tolerance 0.02 m/s^2: an implementation that rotates the
 * window average by the pose at either end of the 10 ms window is off by
 * half the turn, w T / 2 = 5 mrad, i.e. 0.01 m/s^2 across axes. */
static void test_run_imu_reads_centripetal_acceleration(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      "{\"world\": {\"threads\": 2}, \"duration\": 1.0,"
      " \"bodies\": [{\"name\": \"b\", \"motion\": {\"type\": \"circle\", \"radius\": 2,"
      " \"speed\": 2}}],"
      " \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"b\", \"rate\": 100}]}",
      NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/imu_circle", NULL, NULL, NULL));
  sensim_scenario_destroy(scn);
  char *csv = test_slurp(TMP "/imu_circle/imu/imu.csv", NULL);
  assert_int_equal(count_lines(csv), 102);
  const char *line = strchr(csv, '\n') + 1;
  for (int row = 0; *line; row++) {
    double v[7];
    int n = sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6]);
    assert_int_equal(n, 7);
    if (row >= 2) { /* the first window reaches before the track starts */
      assert_near(v[1], 0, 0.02);
      assert_near(v[2], 2.0, 0.02);
      assert_near(v[3], 9.80665, 0.02);
      assert_near(v[6], 1.0, 1e-6);
    }
    line = strchr(line, '\n') + 1;
  }
  free(csv);
}

/* ---- camera keys, reference images, 16-bit outputs ------------------------ */

/* The camera's parameters as the loader handed them to sensim_camera_create. */
static const sensim_camera_params *camera_params_of(sensim_sensor *s) {
  static sensim_camera_params p;
  assert_non_null(s);
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(s, &p));
  return &p;
}

#define CAM_WRAP(body) "{\"duration\": 1, \"world\": {\"threads\": 0}, \"sensors\": [" body "]}"

/* Every camera key of docs/scenario.md reaches sensim_camera_params with
 * its unit conversion; a camera without the keys keeps the defaults. */
static void test_camera_keys_reach_the_params(void **state) {
  (void)state;
  const char *json = CAM_WRAP(
      "{\"name\": \"bc\", \"type\": \"camera\", \"width\": 64, \"height\": 48, \"hfov_deg\": 80,"
      " \"samples\": 9, \"fx\": 50.5, \"fy\": 51.25, \"cx\": 31.75, \"cy\": 23.5,"
      " \"lens\": \"brown_conrady\", \"dist\": [-0.05, 0.01, 0.001, -0.002, 0.003],"
      " \"vignetting\": true, \"vignetting_poly\": [-0.1, 0.02, -0.003],"
      " \"lateral_ca\": [1.002, 1, 0.998], \"exposure_time\": 0.004, \"line_time\": 2e-5,"
      " \"depth_along_ray\": true, \"max_bounces\": 3, \"fog_visibility\": 250},"
      "{\"name\": \"kb\", \"type\": \"camera\", \"width\": 40, \"height\": 40, \"hfov_deg\": 120,"
      " \"fx\": 12, \"fy\": 12, \"lens\": \"kannala_brandt\", \"dist\": [0.01, -0.002]},"
      "{\"name\": \"fov\", \"type\": \"camera\", \"width\": 32, \"height\": 24, \"lens\": \"fov\","
      " \"hfov_deg\": 100, \"vignetting\": false, \"depth_along_ray\": false, \"max_bounces\": 0},"
      "{\"name\": \"plain\", \"type\": \"camera\", \"width\": 16, \"height\": 12}");
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  sensim_world *w = sensim_scenario_world(scn);

  const sensim_camera_params *bc = camera_params_of(sensim_world_sensor_by_name(w, "bc"));
  assert_int_equal(bc->width, 64);
  assert_int_equal(bc->height, 48);
  assert_near(bc->hfov, 80 * PI / 180, 1e-15);
  assert_int_equal(bc->samples, 9);
  assert_near(bc->fx, 50.5, 0);
  assert_near(bc->fy, 51.25, 0);
  assert_near(bc->cx, 31.75, 0);
  assert_near(bc->cy, 23.5, 0);
  assert_int_equal(bc->lens, SENSIM_LENS_BROWN_CONRADY);
  const double dist[5] = {-0.05, 0.01, 0.001, -0.002, 0.003};
  for (int i = 0; i < 5; i++) assert_near(bc->dist[i], dist[i], 0);
  assert_int_equal(bc->vignetting, 1);
  assert_near(bc->vignetting_poly[0], -0.1, 0);
  assert_near(bc->vignetting_poly[1], 0.02, 0);
  assert_near(bc->vignetting_poly[2], -0.003, 0);
  assert_near(bc->lateral_ca[0], 1.002, 0);
  assert_near(bc->lateral_ca[1], 1, 0);
  assert_near(bc->lateral_ca[2], 0.998, 0);
  assert_near(bc->exposure_time, 0.004, 0);
  assert_near(bc->line_time, 2e-5, 0);
  assert_int_equal(bc->depth_along_ray, 1);
  assert_int_equal(bc->max_bounces, 3);
  assert_near(bc->fog_visibility, 250, 0);
  /* Behaviour too: the default window is exposure + (height - 1) line times
   * (camera.h). */
  assert_near(sensim_sensor_params_get(sensim_world_sensor_by_name(w, "bc"))->window,
              0.004 + 47 * 2e-5, 1e-15);

  /* fx/fy without cx/cy: the image centre ((w - 1) / 2, (h - 1) / 2);
   * missing trailing coefficients are 0 as in OpenCV. */
  const sensim_camera_params *kb = camera_params_of(sensim_world_sensor_by_name(w, "kb"));
  assert_int_equal(kb->lens, SENSIM_LENS_KANNALA_BRANDT);
  assert_near(kb->cx, 19.5, 0);
  assert_near(kb->cy, 19.5, 0);
  assert_near(kb->dist[0], 0.01, 0);
  assert_near(kb->dist[1], -0.002, 0);
  assert_near(kb->dist[2], 0, 0);
  assert_near(kb->dist[3], 0, 0);

  const sensim_camera_params *fov = camera_params_of(sensim_world_sensor_by_name(w, "fov"));
  assert_int_equal(fov->lens, SENSIM_LENS_FOV);
  assert_near(fov->hfov, 100 * PI / 180, 1e-15);
  assert_int_equal(fov->vignetting, 0);
  assert_int_equal(fov->depth_along_ray, 0);
  assert_int_equal(fov->max_bounces, 0);

  sensim_camera_params def;
  sensim_camera_params_init(&def);
  def.width = 16;
  def.height = 12;
  const sensim_camera_params *plain = camera_params_of(sensim_world_sensor_by_name(w, "plain"));
  assert_memory_equal(plain, &def, sizeof def);
  sensim_scenario_destroy(scn);
}

static const bad_case bad_camera_cases[] = {
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"fisheye\"}"), SENSIM_EINVAL,
     "sensors[0].lens: unknown lens 'fisheye'"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": 3}"), SENSIM_EPARSE,
     "sensors[0].lens"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"dist\": [0.1]}"), SENSIM_EINVAL,
     "sensors[0].dist: only the brown_conrady and kannala_brandt"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrady\", "
              "\"dist\": [0, 0, 0, 0, 0, 0]}"),
     SENSIM_EINVAL, "sensors[0].dist: 6 coefficients"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"kannala_brandt\", "
              "\"dist\": [0, 0, 0, 0, 0]}"),
     SENSIM_EINVAL, "at most 4"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrady\", "
              "\"dist\": [0.1, \"x\"]}"),
     SENSIM_EPARSE, "sensors[0].dist[1]"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrady\", "
              "\"dist\": 0.1}"),
     SENSIM_EPARSE, "sensors[0].dist"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fx\": 100}"), SENSIM_EINVAL,
     "sensors[0].fy: give fx and fy together"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"cx\": 100}"), SENSIM_EINVAL,
     "sensors[0].cx: the principal point needs fx and fy"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fx\": -100, \"fy\": 100}"),
     SENSIM_EINVAL, "sensors[0].fx: must be > 0"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fx\": 100, \"fy\": 0}"), SENSIM_EINVAL,
     "sensors[0].fy: must be > 0"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"vignetting\": 1}"), SENSIM_EPARSE,
     "sensors[0].vignetting"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"vignetting_poly\": [0.1, 0.2]}"),
     SENSIM_EPARSE, "sensors[0].vignetting_poly"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lateral_ca\": [1, -1, 1]}"),
     SENSIM_EINVAL, "sensors[0].lateral_ca[1]"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"exposure_time\": -0.001}"),
     SENSIM_EINVAL, "sensors[0].exposure_time"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"line_time\": -1e-5}"), SENSIM_EINVAL,
     "sensors[0].line_time"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"depth_along_ray\": \"yes\"}"),
     SENSIM_EPARSE, "sensors[0].depth_along_ray"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"max_bounces\": 9}"), SENSIM_EINVAL,
     "sensors[0].max_bounces"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"max_bounces\": 1.5}"), SENSIM_EPARSE,
     "sensors[0].max_bounces"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fog_visibility\": -10}"), SENSIM_EINVAL,
     "sensors[0].fog_visibility"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"focal_length\": 0.004}"), SENSIM_EPARSE,
     "sensors[0].focal_length: unknown key"},
    /* Values the loader passes on but the camera refuses: the camera's
     * message, prefixed with the sensor's path. */
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"width\": 64, \"height\": 48, "
              "\"lens\": \"brown_conrady\", \"dist\": [-3, 0, 0, 0, 0]}"),
     SENSIM_EINVAL, "sensors[0]"},
};

static void test_bad_camera_keys_fail_naming_the_key(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_camera_cases / sizeof bad_camera_cases[0]; i++) {
    const bad_case *c = &bad_camera_cases[i];
    sensim_scenario *scn = (sensim_scenario *)&scn;
    sensim_status st = sensim_scenario_load_string(c->json, NULL, &scn);
    if (st != c->code || !strstr(sensim_last_error(), c->message))
      fail_msg("case %zu: got %d '%s', expected %d containing '%s'", i, st, sensim_last_error(),
               c->code, c->message);
    assert_null(scn);
  }
}

/* Two 8-bit RGB reference images with different content and sizes. */
static void write_reference_pngs(void) {
  uint8_t a[20 * 10 * 4], b[8 * 6 * 4];
  for (int i = 0; i < 20 * 10; i++) {
    a[4 * i] = (uint8_t)(40 + i % 100), a[4 * i + 1] = (uint8_t)(90 + (i * 7) % 60);
    a[4 * i + 2] = (uint8_t)(20 + (i * 13) % 30), a[4 * i + 3] = 255;
  }
  for (int i = 0; i < 8 * 6; i++) {
    b[4 * i] = (uint8_t)(200 - i), b[4 * i + 1] = (uint8_t)(150 + i % 5);
    b[4 * i + 2] = (uint8_t)(10 + 3 * i), b[4 * i + 3] = 255;
  }
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_RGBA8;
  f.width = 20, f.height = 10, f.count = 200, f.data = a;
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/ref_a.png", &f));
  f.width = 8, f.height = 6, f.count = 48, f.data = b;
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/ref_b.png", &f));
}

/* A lit box in front of a camera, its frame taken at t = 0; FILTER is the
 * one filter of the chain. */
#define REF_SCENE(FILTER)                                                                      \
  "{\"duration\": 1, \"world\": {\"threads\": 0},"                                             \
  " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},"     \
  "   \"material\": {\"base_color\": [0.7, 0.4, 0.2]}}],"                                      \
  " \"lights\": [{\"kind\": \"point\", \"position\": [-2, 1, 2], \"intensity\": 6}],"          \
  " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"pose\": {\"rpy\": [0, 0, 0.5]}}],"  \
  " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"width\": 32, \"height\": 24,"    \
  "   \"samples\": 1, \"mount\": {\"position\": [-3, 0, 0.3]}, \"filters\": [" FILTER "]}]}"

static void frame_stats(sensim_scenario *scn, double mean[3], double sd[3], double *ymean,
                        double *ysd) {
  sensim_world *w = sensim_scenario_world(scn);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(sensim_world_sensor_by_name(w, "cam"), &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RGB_F32);
  const float *rgb = f->data;
  double s[4] = {0}, ss[4] = {0};
  for (size_t i = 0; i < f->count; i++) {
    double y = 0.2126 * rgb[3 * i] + 0.7152 * rgb[3 * i + 1] + 0.0722 * rgb[3 * i + 2];
    for (int c = 0; c < 4; c++) {
      double v = c < 3 ? rgb[3 * i + c] : y;
      s[c] += v, ss[c] += v * v;
    }
  }
  double n = (double)f->count;
  for (int c = 0; c < 3; c++) {
    mean[c] = s[c] / n;
    sd[c] = sqrt(fmax(ss[c] / n - mean[c] * mean[c], 0));
  }
  *ymean = s[3] / n;
  *ysd = sqrt(fmax(ss[3] / n - *ymean * *ymean, 0));
}

static int have_filter(const char *name) {
  if (sensim__filter_find(name)) return 1;
  print_message("note: no \"%s\" filter in this build; skipped\n", name);
  return 0;
}

/* "reference_images" become the statistics of those files: match_stats
 * then gives the frame exactly the reference's per-channel mean and
 * standard deviation (or its luminance's, with per_channel false), and
 * white_balance "reference" the reference's channel means. */
static void test_reference_images_become_reference_statistics(void **state) {
  (void)state;
  if (!have_filter("match_stats") || !have_filter("white_balance")) skip();
  write_reference_pngs();
  const char *refs[2] = {TMP "/ref_a.png", TMP "/ref_b.png"};
  double rm[3], rs[3], ym, ys;
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(refs, 2, rm, rs));
  const double w709[3] = {0.2126, 0.7152, 0.0722};
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs_weighted(refs, 2, w709, &ym, &ys));
  double mean[3], sd[3], fy, fys;
  sensim_scenario *scn = NULL;

  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": [\"" TMP
                "/ref_a.png\", \"" TMP "/ref_b.png\"]}}"),
      NULL, &scn));
  frame_stats(scn, mean, sd, &fy, &fys);
  for (int c = 0; c < 3; c++) {
    assert_near(mean[c], rm[c], 1e-5);
    assert_near(sd[c], rs[c], 1e-5);
  }
  sensim_scenario_destroy(scn);

  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"per_channel\": false, "
                "\"reference_images\": [\"" TMP "/ref_a.png\", \"" TMP "/ref_b.png\"]}}"),
      NULL, &scn));
  frame_stats(scn, mean, sd, &fy, &fys);
  assert_near(fy, ym, 1e-5);
  assert_near(fys, ys, 1e-5);
  sensim_scenario_destroy(scn);

  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"white_balance\", \"params\": {\"reference_images\": [\"" TMP
                "/ref_b.png\"]}}"),
      NULL, &scn));
  const char *one[1] = {TMP "/ref_b.png"};
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(one, 1, rm, rs));
  frame_stats(scn, mean, sd, &fy, &fys);
  for (int c = 0; c < 3; c++) assert_near(mean[c], rm[c], 1e-5);
  sensim_scenario_destroy(scn);
}

/* Relative names resolve against the scenario's folder (base_dir). */
static void test_reference_images_resolve_against_the_scenario_folder(void **state) {
  (void)state;
  if (!have_filter("match_stats")) skip();
  write_reference_pngs();
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": "
                "[\"ref_a.png\"]}}"),
      TMP, &scn));
  const char *one[1] = {TMP "/ref_a.png"};
  double rm[3], rs[3], mean[3], sd[3], fy, fys;
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(one, 1, rm, rs));
  frame_stats(scn, mean, sd, &fy, &fys);
  for (int c = 0; c < 3; c++) assert_near(mean[c], rm[c], 1e-5);
  sensim_scenario_destroy(scn);
}

static void test_bad_reference_images_fail_naming_the_path(void **state) {
  (void)state;
  if (!have_filter("match_stats")) skip();
  write_reference_pngs();
  static const bad_case cases[] = {
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": "
                 "[\"" TMP "/missing.png\"]}}"),
       SENSIM_ENOTFOUND, "sensors[0].filters[0].params.reference_images"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": []}}"),
       SENSIM_EINVAL, "reference_images: needs at least one image"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": [3]}}"),
       SENSIM_EPARSE, "reference_images[0]"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": \"a.png\"}}"),
       SENSIM_EPARSE, "reference_images: must be an array"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": [\"" TMP
                 "/ref_a.png\"], \"reference_mean\": [0.1, 0.1, 0.1]}}"),
       SENSIM_EINVAL, "not both"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": "
                 "[\"" TMP "/mesh_ref.json\"]}}"),
       SENSIM_EPARSE, "mesh_ref.json"},
      /* Other filters do not take the key. */
      {REF_SCENE("{\"name\": \"image_noise\", \"params\": {\"reference_images\": [\"a.png\"]}}"),
       SENSIM_EINVAL, "sensors[0].filters[0]"},
  };
  FILE *fp = fopen(TMP "/mesh_ref.json", "w");
  assert_non_null(fp);
  fputs("{}", fp);
  fclose(fp);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sensim_scenario *scn = (sensim_scenario *)&scn;
    sensim_status st = sensim_scenario_load_string(cases[i].json, NULL, &scn);
    if (st != cases[i].code || !strstr(sensim_last_error(), cases[i].message))
      fail_msg("case %zu: got %d '%s', expected %d containing '%s'", i, st, sensim_last_error(),
               cases[i].code, cases[i].message);
    assert_null(scn);
  }
}

/* Bit depth and colour type from a PNG's IHDR (bytes 24 and 25). */
static void png_depth_color(const char *path, int *depth, int *color) {
  unsigned char b[26];
  FILE *fp = fopen(path, "rb");
  if (!fp) fail_msg("cannot open %s", path);
  assert_int_equal(fread(b, 1, 26, fp), 26);
  fclose(fp);
  *depth = b[24];
  *color = b[25];
}

/* rgb16 and raw16 chains write 16-bit RGB and 16-bit grey PNGs, by default
 * and when asked; a float chain cannot ask for png. */
static void test_16bit_chains_write_16bit_pngs(void **state) {
  (void)state;
  if (!have_filter("quantize16") || !have_filter("image_sensor") || !have_filter("cfa") ||
      !have_filter("raw16"))
    skip();
  const char *json = CAM_WRAP(
      "{\"name\": \"c16\", \"type\": \"camera\", \"width\": 8, \"height\": 6, \"samples\": 1,"
      " \"filters\": [{\"name\": \"quantize16\"}]},"
      "{\"name\": \"raw\", \"type\": \"camera\", \"width\": 8, \"height\": 6, \"samples\": 1,"
      " \"filters\": [{\"name\": \"image_sensor\"}, {\"name\": \"cfa\"}, {\"name\": \"raw16\"}],"
      " \"output\": {\"format\": \"png\"}}");
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  assert_int_equal(scn->sensors[0].format, SENSIM__OUT_PNG);
  assert_int_equal(scn->sensors[1].format, SENSIM__OUT_PNG);
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/out16", NULL, NULL, NULL));
  sensim_scenario_destroy(scn);
  int depth, color;
  png_depth_color(TMP "/out16/c16/frame_000000.png", &depth, &color);
  assert_int_equal(depth, 16);
  assert_int_equal(color, 2); /* RGB */
  png_depth_color(TMP "/out16/raw/frame_000000.png", &depth, &color);
  assert_int_equal(depth, 16);
  assert_int_equal(color, 0); /* grey */

  scn = (sensim_scenario *)&scn;
  assert_int_equal(sensim_scenario_load_string(
                       CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"width\": 8, "
                                "\"height\": 6, \"output\": {\"format\": \"png\"}}"),
                       NULL, &scn),
                   SENSIM_ETYPE);
  assert_null(scn);
}

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
  for (size_t i = 0; i < sizeof bad_lidar_cases / sizeof bad_lidar_cases[0]; i++) {
    const bad_case *c = &bad_lidar_cases[i];
    sensim_scenario *scn = (sensim_scenario *)&scn;
    sensim_status st = sensim_scenario_load_string(c->json, NULL, &scn);
    if (st != c->code || !strstr(sensim_last_error(), c->message))
      fail_msg("case %zu: got %d '%s', expected %d containing '%s'", i, st, sensim_last_error(),
               c->code, c->message);
    assert_null(scn);
  }
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

int sensim_test_scenario(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_examples_load_and_run),
      cmocka_unit_test(test_example_params_reach_the_world),
      cmocka_unit_test(test_inline_scenario_builds_and_runs_what_it_says),
      cmocka_unit_test(test_bad_scenarios_fail_naming_the_path),
      cmocka_unit_test(test_scenario_files_report_missing_and_bad_files),
      cmocka_unit_test(test_run_into_unwritable_folder_is_eio),
      cmocka_unit_test(test_circle_motion_derivatives_are_exact),
      cmocka_unit_test(test_stadium_motion_is_closed_and_exact),
      cmocka_unit_test(test_line_and_offset_motion),
      cmocka_unit_test(test_waypoints_interpolate_and_loop),
      cmocka_unit_test(test_run_imu_reads_centripetal_acceleration),
      cmocka_unit_test(test_camera_keys_reach_the_params),
      cmocka_unit_test(test_bad_camera_keys_fail_naming_the_key),
      cmocka_unit_test(test_reference_images_become_reference_statistics),
      cmocka_unit_test(test_reference_images_resolve_against_the_scenario_folder),
      cmocka_unit_test(test_bad_reference_images_fail_naming_the_path),
      cmocka_unit_test(test_16bit_chains_write_16bit_pngs),
      cmocka_unit_test(test_lidar_keys_reach_the_params),
      cmocka_unit_test(test_bad_lidar_keys_fail_naming_the_key),
      cmocka_unit_test(test_ply_outputs_write_ply_scans),
  };
  return cmocka_run_group_tests_name("scenario", tests, setup, NULL);
}
