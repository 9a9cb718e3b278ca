/* tests/runtime/handover_tests.c: handing frames to a host that keeps them
 * (sensim_sensor_take, sensim_frame_copy: what the Python package builds
 * its zero-copy frames on) and creating sensors from their scenario keys
 * (sensim_sensor_create_json, sensim_sensor_kinds/_kind_keys/_kind_name). */
#include <string.h>
#include "support/testutil.h"

/* A world with a body at rest carrying a 100 Hz IMU and a small camera. */
static sensim_world *rig(sensim_sensor **imu, sensim_sensor **cam) {
  sensim_world *w = test_world(0, 5);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sp.name = "imu";
  sp.rate = 100;
  SENSIM_OK_OR_FAIL(sensim_sensor_create_json(w, "imu", &sp, NULL, imu));
  sp.name = "cam";
  sp.rate = 10;
  SENSIM_OK_OR_FAIL(sensim_sensor_create_json(w, "camera", &sp, "{\"width\": 8, \"height\": 6}", cam));
  return w;
}

static void test_take_hands_over_the_buffers_and_keeps_order(void **state) {
  (void)state;
  sensim_sensor *imu = NULL, *cam = NULL;
  sensim_world *w = rig(&imu, &cam);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.025)); /* imu frames 0, 1, 2 */
  assert_int_equal(sensim_sensor_frames_queued(imu), 3);
  sensim_frame a, b;
  int got = -1;
  SENSIM_OK_OR_FAIL(sensim_sensor_take(imu, &a, &got));
  assert_int_equal(got, 1);
  assert_int_equal(a.index, 0);
  assert_int_equal(a.type, SENSIM_PAYLOAD_IMU);
  assert_non_null(a.data);
  const sensim_frame *p = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(imu, &p)); /* polling and taking mix */
  assert_int_equal(p->index, 1);
  SENSIM_OK_OR_FAIL(sensim_sensor_take(imu, &b, &got)); /* ends the polled frame's life */
  assert_int_equal(b.index, 2);
  assert_int_equal(sensim_sensor_frames_queued(imu), 0);
  /* The taken frames are the caller's: still intact after more captures and
   * after the world is gone (the sanitizer run checks the memory). */
  sensim_imu_sample first = *(const sensim_imu_sample *)a.data;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1));
  SENSIM_OK_OR_FAIL(sensim_world_reset(w));
  sensim_world_destroy(w);
  assert_memory_equal(&first, a.data, sizeof first);
  /* normal gravity at the default origin (0 deg, 0 m), NIMA TR8350.2 */
  assert_near(((const sensim_imu_sample *)b.data)->accel[2], 9.7803253359, 1e-9);
  sensim_frame_release(&a);
  sensim_frame_release(&b);
  assert_null(a.data);
}

static void test_take_with_nothing_waiting_leaves_the_frame_alone(void **state) {
  (void)state;
  sensim_sensor *imu = NULL, *cam = NULL;
  sensim_world *w = rig(&imu, &cam);
  sensim_frame f;
  memset(&f, 0x5a, sizeof f);
  sensim_frame before = f;
  int got = -1;
  SENSIM_OK_OR_FAIL(sensim_sensor_take(imu, &f, &got));
  assert_int_equal(got, 0);
  assert_memory_equal(&before, &f, sizeof f);
  assert_int_equal(sensim_sensor_take(NULL, &f, &got), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_take(imu, NULL, &got), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_take(imu, &f, NULL), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

static void test_frame_copy_is_deep_and_equal(void **state) {
  (void)state;
  sensim_sensor *imu = NULL, *cam = NULL;
  sensim_world *w = rig(&imu, &cam);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_non_null(f);
  assert_non_null(f->depth);
  assert_non_null(f->labels);
  sensim_frame c;
  SENSIM_OK_OR_FAIL(sensim_frame_copy(f, &c));
  size_t px = (size_t)f->width * f->height;
  assert_true(c.data != f->data && c.depth != f->depth && c.labels != f->labels);
  assert_memory_equal(c.data, f->data, px * 3 * sizeof(float));
  assert_memory_equal(c.depth, f->depth, px * sizeof(float));
  assert_memory_equal(c.labels, f->labels, px * sizeof(sensim_label));
  assert_int_equal(c.index, f->index);
  assert_true(c.t_capture == f->t_capture);
  ((float *)c.data)[0] = -1.0f; /* independent of the library's frame */
  assert_true(((const float *)f->data)[0] != -1.0f);
  /* A new payload of the same size keeps the planes; a new size drops
   * them (they could not describe it, and a copy would read past them). */
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&c, SENSIM_PAYLOAD_GRAY_F32, f->width, f->height));
  assert_non_null(c.depth);
  assert_non_null(c.labels);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&c, SENSIM_PAYLOAD_GRAY_F32, 2 * f->width, f->height));
  assert_null(c.depth);
  assert_null(c.labels);
  assert_null(c.normals);
  sensim_frame d;
  SENSIM_OK_OR_FAIL(sensim_frame_copy(&c, &d));
  sensim_frame_release(&d);
  sensim_frame_release(&c);
  assert_int_equal(sensim_frame_copy(NULL, &c), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

static void test_create_json_takes_the_scenario_keys(void **state) {
  (void)state;
  sensim_sensor *imu = NULL, *cam = NULL;
  sensim_world *w = rig(&imu, &cam);
  assert_string_equal(sensim_sensor_kind_name(cam), "camera");
  assert_string_equal(sensim_sensor_kind_name(imu), "imu");
  assert_null(sensim_sensor_kind_name(NULL));
  sensim_camera_params cp;
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(cam, &cp));
  assert_int_equal(cp.width, 8);
  assert_int_equal(cp.height, 6);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "wide";
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_create_json(w, "camera", &sp, "{\"hfov_deg\": 120, \"width\": 4}", &s));
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(s, &cp));
  assert_near(cp.hfov, 120.0 * 3.14159265358979323846 / 180.0, 1e-12);
  assert_int_equal(cp.height, 480); /* the default for a key left out */
  /* Refusals name the fault and create nothing. */
  size_t n = sensim_world_sensor_count(w);
  sp.name = "bad";
  assert_int_equal(sensim_sensor_create_json(w, "camera", &sp, "{\"widht\": 4}", &s), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "width"));
  assert_int_equal(sensim_sensor_create_json(w, "camera", &sp, "{\"hfov_deg\": 200}", &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "hfov_deg"));
  assert_int_equal(sensim_sensor_create_json(w, "camra", &sp, NULL, &s), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "camera"));
  assert_int_equal(sensim_sensor_create_json(w, "lidar", &sp, "[1]", &s), SENSIM_EPARSE);
  assert_int_equal(sensim_sensor_create_json(w, "lidar", &sp, "{\"preset\": \"VLP-17\"}", &s),
                   SENSIM_ENOTFOUND);
  assert_int_equal(sensim_sensor_create_json(NULL, "imu", &sp, NULL, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_world_sensor_count(w), n);
  sensim_world_destroy(w);
}

static void test_every_kind_lists_its_keys(void **state) {
  (void)state;
  const char *const *kinds = sensim_sensor_kinds();
  size_t n = 0;
  for (; kinds[n]; n++) {
    const char *const *keys = sensim_sensor_kind_keys(kinds[n]);
    assert_non_null(keys);
    for (size_t i = 0; keys[i]; i++) assert_null(strchr(keys[i], ' '));
  }
  assert_int_equal(n, 7);
  assert_string_equal(sensim_sensor_kind_keys("imu")[0], "earth_rotation");
  assert_null(sensim_sensor_kind_keys("sonar"));
  assert_int_equal(sensim_sensor_kind_payload("camera"), SENSIM_PAYLOAD_RGB_F32);
  assert_int_equal(sensim_sensor_kind_payload("lidar"), SENSIM_PAYLOAD_BEAMS);
  assert_int_equal(sensim_sensor_kind_payload("magnetometer"), SENSIM_PAYLOAD_MAG);
  assert_int_equal(sensim_sensor_kind_payload("sonar"), SENSIM_PAYLOAD_NONE);
  assert_null(sensim_sensor_kind_keys(NULL));
}

int sensim_test_handover(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_take_hands_over_the_buffers_and_keeps_order),
      cmocka_unit_test(test_take_with_nothing_waiting_leaves_the_frame_alone),
      cmocka_unit_test(test_frame_copy_is_deep_and_equal),
      cmocka_unit_test(test_create_json_takes_the_scenario_keys),
      cmocka_unit_test(test_every_kind_lists_its_keys),
  };
  return cmocka_run_group_tests_name("handover", tests, NULL, NULL);
}
