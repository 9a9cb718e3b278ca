/* tests/io/scenario.c: the JSON scenario loader, scripted motion and the
 * scenario runner. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "io/scenario_internal.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/scenario"
#define EXAMPLES SENSIM_TEST_DATA "/../../examples"
#define PI 3.14159265358979323846

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) fail_msg("cannot open %s", path);
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
  s[n] = '\0';
  fclose(fp);
  return s;
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
  assert_false(file_exists(TMP "/inline/cam/frame_000002.png"));
  char *csv = slurp(TMP "/inline/accel/accel.csv");
  assert_int_equal(count_lines(csv), 12);
  free(csv);
  csv = slurp(TMP "/inline/fix/fix.csv");
  assert_int_equal(count_lines(csv), 3);
  free(csv);
  csv = slurp(TMP "/inline/scan/scan.csv");
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
    {"{\"duration\": 1, \"lights\": [{\"kind\": \"spot\"}]}", SENSIM_EINVAL,
     "lights[0].kind: unknown light 'spot'"},
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
  char *csv = slurp(TMP "/imu_circle/imu/imu.csv");
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
  };
  return cmocka_run_group_tests_name("scenario", tests, setup, NULL);
}
