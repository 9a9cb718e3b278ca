/* tests/io/scenario_api_tests.c: the io layer's calls for programs built on
 * the public API: all-or-nothing files (sensim_atomic_file_*), the
 * scenario dialect as strict JSON (sensim_json_strict), a camera's keys
 * from JSON (sensim_camera_params_from_json), loading edited text with
 * overrides (sensim_scenario_load_string_ex), and stepping a scenario by
 * hand (sensim_scenario_step_to, sensim_scenario_body_*). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/scenario_api"

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static void test_atomic_file_commits_whole_or_leaves_nothing(void **state) {
  (void)state;
  const char *path = TMP "/atomic.txt";
  remove(path);
  sensim_atomic_file *af = NULL;
  SENSIM_OK_OR_FAIL(sensim_atomic_file_open(path, &af));
  fprintf(sensim_atomic_file_stream(af), "first %d\n", 1);
  /* Nothing under the final name until the commit. */
  assert_false(test_file_exists(path));
  SENSIM_OK_OR_FAIL(sensim_atomic_file_commit(af));
  char *text = test_slurp(path, NULL);
  assert_string_equal(text, "first 1\n");
  free(text);

  /* An aborted rewrite leaves the old file and no temporary. */
  SENSIM_OK_OR_FAIL(sensim_atomic_file_open(path, &af));
  fputs("second\n", sensim_atomic_file_stream(af));
  sensim_atomic_file_abort(af);
  text = test_slurp(path, NULL);
  assert_string_equal(text, "first 1\n");
  free(text);
  test_assert_no_temp_files(TMP);

  af = (sensim_atomic_file *)&text;
  assert_int_equal(sensim_atomic_file_open(TMP "/no/such/folder/x.txt", &af), SENSIM_EIO);
  assert_null(af);
  assert_int_equal(sensim_atomic_file_open("", &af), SENSIM_EINVAL);
  assert_int_equal(sensim_atomic_file_open(NULL, &af), SENSIM_EINVAL);
  assert_null(sensim_atomic_file_stream(NULL));
  assert_int_equal(sensim_atomic_file_commit(NULL), SENSIM_EINVAL);
  sensim_atomic_file_abort(NULL);
}

static void test_json_strict_blanks_comments_and_keeps_positions(void **state) {
  (void)state;
  const char *text = "// head\n{\"a\": \"x // y\", /* b */ \"c\": [1,\n 2]}\n";
  char *out = NULL;
  SENSIM_OK_OR_FAIL(sensim_json_strict(text, "t.json", &out));
  assert_int_equal(strlen(out), strlen(text));
  for (size_t i = 0; text[i]; i++)
    if (text[i] == '\n') assert_int_equal(out[i], '\n');
  cJSON *root = cJSON_Parse(out);
  assert_non_null(root);
  assert_string_equal(cJSON_GetObjectItem(root, "a")->valuestring, "x // y");
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "c")), 2);
  cJSON_Delete(root);
  free(out);

  out = (char *)text;
  assert_int_equal(sensim_json_strict("{\n  \"a\": }", "bad.json", &out), SENSIM_EPARSE);
  assert_null(out);
  assert_non_null(strstr(sensim_last_error(), "bad.json:2:"));
  assert_int_equal(sensim_json_strict("{} /* open", NULL, &out), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "json"));
  assert_int_equal(sensim_json_strict(NULL, NULL, &out), SENSIM_EINVAL);
}

static void test_camera_params_from_json_applies_camera_keys_only(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  SENSIM_OK_OR_FAIL(sensim_camera_params_from_json(
      "{\"width\": 320, \"height\": 200, // a calibration\n"
      " \"fx\": 250, \"fy\": 251, \"cx\": 160.5, \"cy\": 99,\n"
      " \"lens\": \"brown_conrady\", \"dist\": [-0.1, 0.01], \"lateral_ca\": [1.001, 0, 0.999]}",
      "cal", &cp));
  assert_int_equal(cp.width, 320);
  assert_int_equal(cp.height, 200);
  assert_near(cp.fx, 250, 0);
  assert_near(cp.fy, 251, 0);
  assert_near(cp.cx, 160.5, 0);
  assert_near(cp.cy, 99, 0);
  assert_int_equal(cp.lens, SENSIM_LENS_BROWN_CONRADY);
  assert_near(cp.dist[0], -0.1, 0);
  assert_near(cp.dist[1], 0.01, 0);
  assert_near(cp.dist[4], 0, 0);
  assert_near(cp.lateral_ca[2], 0.999, 0);
  assert_int_equal(cp.samples, 4); /* not given: kept */

  /* Failures leave the parameters alone and name the source. */
  sensim_camera_params before = cp;
  assert_int_equal(sensim_camera_params_from_json("{\"rate\": 10}", "cal", &cp), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "cal.rate"));
  assert_int_equal(sensim_camera_params_from_json("{\"width\": 64, \"fx\": -1, \"fy\": 1}", "cal", &cp),
                   SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "cal.fx"));
  assert_int_equal(sensim_camera_params_from_json("{\"lens\": \"fisheye\"}", NULL, &cp), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "camera.lens"));
  assert_int_equal(sensim_camera_params_from_json("[1]", "cal", &cp), SENSIM_EPARSE);
  assert_int_equal(sensim_camera_params_from_json("{\"width\": ", "cal", &cp), SENSIM_EPARSE);
  assert_memory_equal(&before, &cp, sizeof cp);
  assert_int_equal(sensim_camera_params_from_json(NULL, "cal", &cp), SENSIM_EINVAL);
}

/* A static box, a rover on a circle of radius 1 m at 1 m/s and an IMU on
 * the rover at 100 Hz. */
static const char *stepping_json =
    "{\"world\": {\"threads\": 2}, \"duration\": 1, \"step\": 0.01,\n"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]}}],\n"
    " \"bodies\": [{\"name\": \"block\", \"mesh\": \"box\", \"pose\": {\"position\": [3, 0, 0]}},\n"
    "            {\"name\": \"rover\", \"motion\": {\"type\": \"circle\", \"center\": [0, 0, 0],\n"
    "             \"radius\": 1, \"speed\": 1}}],\n"
    " \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"rover\", \"rate\": 100}]}\n";

static void test_load_string_ex_applies_overrides_and_names_the_source(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  sensim_scenario_overrides ov = {3};
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string_ex(stepping_json, "edited.json", NULL, &ov, &scn));
  assert_int_equal(sensim_world_params_get(sensim_scenario_world(scn))->threads, 3);
  sensim_scenario_destroy(scn);
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string_ex(stepping_json, NULL, NULL, NULL, &scn));
  assert_int_equal(sensim_world_params_get(sensim_scenario_world(scn))->threads, 2);
  sensim_scenario_destroy(scn);
  assert_int_equal(sensim_scenario_load_string_ex("{\n\"duration\": }", "edited.json", NULL, &ov, &scn),
                   SENSIM_EPARSE);
  assert_null(scn);
  assert_non_null(strstr(sensim_last_error(), "edited.json:2:"));
}

static void test_step_to_moves_scripted_bodies_and_delivers_frames(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(stepping_json, NULL, &scn));
  assert_int_equal(sensim_scenario_body_count(scn), 2);
  sensim_scenario_body_info bi;
  SENSIM_OK_OR_FAIL(sensim_scenario_body_get(scn, 0, &bi));
  assert_string_equal(bi.name, "block");
  assert_true(bi.is_static);
  assert_false(bi.has_motion);
  SENSIM_OK_OR_FAIL(sensim_scenario_body_get(scn, 1, &bi));
  assert_string_equal(bi.name, "rover");
  assert_false(bi.is_static);
  assert_true(bi.has_motion);
  assert_int_equal(sensim_scenario_body_get(scn, 2, &bi), SENSIM_EINVAL);
  assert_int_equal(sensim_scenario_body_count(NULL), 0);

  sensim_world *w = sensim_scenario_world(scn);
  sensim_sensor *imu = sensim_world_sensor_by_name(w, "imu");
  size_t frames = 0;
  for (int k = 0; k <= 50; k++) {
    SENSIM_OK_OR_FAIL(sensim_scenario_step_to(scn, 0.01 * k));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
      /* Centripetal specific force v^2 / r = 1 m/s^2 in the plane. */
      const sensim_imu_sample *s = f->data;
      assert_near(hypot(s->accel[0], s->accel[1]), 1.0, 1e-6);
      frames++;
    }
  }
  assert_int_equal(frames, 51);
  /* The rover is where its circle puts it at t = 0.5 s (angle 0.5 rad). */
  sensim_body_state s;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(bi.body, 0.5, &s));
  assert_near(s.pose.pos.x, cos(0.5), 1e-9);
  assert_near(s.pose.pos.y, sin(0.5), 1e-9);

  assert_int_equal(sensim_scenario_step_to(scn, 0.2), SENSIM_ESTATE);
  assert_int_equal(sensim_scenario_step_to(scn, NAN), SENSIM_EINVAL);
  assert_int_equal(sensim_scenario_run(scn, NULL, NULL, NULL, NULL), SENSIM_ESTATE);
  sensim_scenario_destroy(scn);

  /* Nor can a run scenario be stepped. */
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(stepping_json, NULL, &scn));
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, NULL, NULL, NULL, NULL));
  assert_int_equal(sensim_scenario_step_to(scn, 2.0), SENSIM_ESTATE);
  sensim_scenario_destroy(scn);
  assert_int_equal(sensim_scenario_step_to(NULL, 0), SENSIM_EINVAL);
}

/* One sensor in a world without threads. */
#define ONE_SENSOR(body) "{\"duration\": 1, \"world\": {\"threads\": 0}, \"sensors\": [" body "]}"

typedef struct warn_case {
  const char *json;
  const char *warning; /* a substring of the only warning, or NULL for none */
} warn_case;

/* A camera or lidar whose frames no format writes warns, unless its
 * output says "none"; a range image PNG that clamps the lidar's ranges
 * warns; sensors that write what they make do not. */
static void test_warnings_name_sensors_that_write_nothing_useful(void **state) {
  (void)state;
  static const warn_case cases[] = {
      {ONE_SENSOR("{\"name\": \"l\", \"type\": \"lidar\"}"),
       "sensors[0] 'l': its lidar frames end in beams, which no output format writes"},
      {ONE_SENSOR("{\"name\": \"c\", \"type\": \"camera\", \"width\": 8, \"height\": 6}"),
       "sensors[0] 'c': its camera frames end in rgb_f32"},
      {ONE_SENSOR("{\"name\": \"c\", \"type\": \"camera\", \"width\": 8, \"height\": 6, "
                  "\"filters\": [{\"name\": \"cfa\"}]}"),
       "end in raw_f32"},
      {ONE_SENSOR("{\"name\": \"l\", \"type\": \"lidar\", \"max_range\": 120, "
                  "\"filters\": [{\"name\": \"range_image\"}]}"),
       "sensors[0] 'l': its range image PNGs hold ranges up to 65.535 m"},
      {ONE_SENSOR("{\"name\": \"l\", \"type\": \"lidar\", \"preset\": \"VLP-16\", "
                  "\"filters\": [{\"name\": \"range_image\"}]}"),
       "max_range is 100 m"},
      {ONE_SENSOR("{\"name\": \"l\", \"type\": \"lidar\", \"output\": {\"format\": \"none\"}}"), NULL},
      {ONE_SENSOR("{\"name\": \"l\", \"type\": \"lidar\", \"filters\": [{\"name\": \"points\"}]}"), NULL},
      {ONE_SENSOR("{\"name\": \"l\", \"type\": \"lidar\", \"max_range\": 60, "
                  "\"filters\": [{\"name\": \"range_image\"}]}"),
       NULL},
      {ONE_SENSOR("{\"name\": \"c\", \"type\": \"camera\", \"width\": 8, \"height\": 6, "
                  "\"filters\": [{\"name\": \"srgb8\"}]}"),
       NULL},
      {ONE_SENSOR("{\"name\": \"g\", \"type\": \"gnss\"}"), NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sensim_scenario *scn = NULL;
    SENSIM_OK_OR_FAIL(sensim_scenario_load_string(cases[i].json, NULL, &scn));
    size_t n = sensim_scenario_warning_count(scn);
    if (!cases[i].warning && n != 0)
      fail_msg("case %zu warns: %s", i, sensim_scenario_warning_get(scn, 0));
    if (cases[i].warning) {
      if (n != 1) fail_msg("case %zu has %zu warnings, expected 1", i, n);
      const char *w = sensim_scenario_warning_get(scn, 0);
      if (!strstr(w, cases[i].warning)) fail_msg("case %zu warns \"%s\", expected \"%s\"", i, w, cases[i].warning);
    }
    assert_null(sensim_scenario_warning_get(scn, n));
    sensim_scenario_destroy(scn);
  }
  assert_int_equal(sensim_scenario_warning_count(NULL), 0);
  assert_null(sensim_scenario_warning_get(NULL, 0));
}

int sensim_test_scenario_api(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_atomic_file_commits_whole_or_leaves_nothing),
      cmocka_unit_test(test_json_strict_blanks_comments_and_keeps_positions),
      cmocka_unit_test(test_camera_params_from_json_applies_camera_keys_only),
      cmocka_unit_test(test_load_string_ex_applies_overrides_and_names_the_source),
      cmocka_unit_test(test_step_to_moves_scripted_bodies_and_delivers_frames),
      cmocka_unit_test(test_warnings_name_sensors_that_write_nothing_useful),
  };
  return cmocka_run_group_tests_name("scenario_api", tests, setup, NULL);
}
