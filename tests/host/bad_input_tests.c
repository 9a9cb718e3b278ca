/* Bad input from a host loop: time going backwards, advancing to an earlier
 * time, destroying a body a sensor rides on. Each fails with a clear code
 * and message, and the world goes on as if the call had not been made. */
#include <string.h>
#include "host/host_groups.h"
#include "support/testutil.h"

static void run_steps(host_rig *r, int from, int to) {
  for (int i = from; i <= to; i++) {
    double t = i * 1e-3;
    sensim_body_state st = host_car_state(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(r->car, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(r->world, t));
  }
}

static void test_host_push_state_back_in_time_is_estate_and_changes_nothing(void **state) {
  (void)state;
  host_rig r;
  host_rig_build(&r, 2, 3, NULL, 0);
  run_steps(&r, 0, 100);
  size_t nk = sensim_body_keyframe_count(r.car);
  sensim_body_state st = host_car_state(0.05);
  /* Before the world's time, and not after the last keyframe. */
  assert_int_equal(sensim_body_push_state(r.car, 0.05, &st), SENSIM_ESTATE);
  assert_non_null(strstr(sensim_last_error(), "before the world's time"));
  assert_int_equal(sensim_body_push_state(r.car, 0.1, &st), SENSIM_ESTATE);
  assert_non_null(strstr(sensim_last_error(), "not after the previous"));
  st.pose.rot.w = NAN;
  assert_int_equal(sensim_body_push_state(r.car, 0.2, &st), SENSIM_EINVAL);
  assert_int_equal(sensim_body_push_state(r.car, NAN, &st), SENSIM_EINVAL);
  assert_int_equal(sensim_body_keyframe_count(r.car), nk);
  run_steps(&r, 101, 300); /* still usable */
  assert_int_equal(sensim_sensor_frames_captured(r.imu), 60); /* t_k = 0.0001 + k / 200 <= 0.3 */
  sensim_world_destroy(r.world);
}

static void test_host_advance_to_an_earlier_time_is_estate_and_keeps_the_clock(void **state) {
  (void)state;
  host_rig r;
  host_rig_build(&r, 2, 3, NULL, 0);
  run_steps(&r, 0, 200);
  uint64_t cap = sensim_sensor_frames_captured(r.imu);
  assert_int_equal(sensim_world_advance(r.world, 0.1), SENSIM_ESTATE);
  assert_non_null(strstr(sensim_last_error(), "before the world's time"));
  assert_int_equal(sensim_world_advance(r.world, NAN), SENSIM_EINVAL);
  assert_int_equal(sensim_world_advance(r.world, -INFINITY), SENSIM_EINVAL);
  assert_int_equal(sensim_world_reset(NULL), SENSIM_EINVAL);
  assert_true(sensim_world_time(r.world) == 0.2);
  assert_int_equal(sensim_sensor_frames_captured(r.imu), cap);
  SENSIM_OK_OR_FAIL(sensim_world_advance(r.world, 0.2)); /* the same time again is fine */
  run_steps(&r, 201, 300);
  assert_int_equal(sensim_sensor_frames_captured(r.imu), 60);
  sensim_world_destroy(r.world);
}

static void test_host_destroying_a_carrier_body_is_estate_then_other_bodies_go(void **state) {
  (void)state;
  host_rig r;
  host_rig_build(&r, 2, 3, NULL, 0);
  /* A box right in front of a world-fixed single-beam lidar at the origin. */
  sensim_world *w = r.world;
  sensim_material m;
  sensim_material_init(&m);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.5, 0.5, 0.5}, 0};
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.pose.pos = (sensim_vec3){3.0, -20.0, 2.0};
  sensim_body *box = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &box));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "beam";
  sp.rate = 10;
  sp.mount.pos = (sensim_vec3){0, -20.0, 2.0};
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0.0;
  lp.columns = 1;
  lp.hfov = 1e-3;
  lp.start_azimuth = 0.0;
  sensim_sensor *beam = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &beam));

  assert_int_equal(sensim_body_destroy(r.car), SENSIM_ESTATE);
  assert_non_null(strstr(sensim_last_error(), "carries sensor"));
  assert_int_equal(sensim_body_destroy(NULL), SENSIM_EINVAL);
  run_steps(&r, 0, 50); /* the car and its sensors go on */
  const sensim_frame *f;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(beam, &f));
  assert_non_null(f);
  const sensim_beam *b = f->data;
  assert_near(b[0].range, 2.75, 1e-4); /* the box's near face */

  SENSIM_OK_OR_FAIL(sensim_body_destroy(box)); /* nothing rides the box */
  run_steps(&r, 51, 150);
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(beam, &f));
  assert_non_null(f);
  b = f->data;
  assert_true(b[0].range == 0.0f); /* gone: the beam now flies to the sky */
  assert_true(sensim_sensor_frames_delivered(r.imu) > 0);
  sensim_world_destroy(w);
}

/* A host that failed to create a sensor may still report on it: every
 * accessor answers NULL with a neutral value, and poll with EINVAL. */
static void test_host_sensor_accessors_take_null(void **state) {
  (void)state;
  assert_int_equal(sensim_sensor_output_type(NULL), SENSIM_PAYLOAD_NONE);
  assert_int_equal(sensim_sensor_id(NULL), -1);
  assert_null(sensim_sensor_name(NULL));
  assert_null(sensim_sensor_params_get(NULL));
  assert_true(sensim_sensor_frames_captured(NULL) == 0);
  assert_true(sensim_sensor_frames_delivered(NULL) == 0);
  assert_true(sensim_sensor_frames_skipped(NULL) == 0);
  const sensim_frame *f = (const sensim_frame *)1;
  assert_int_equal(sensim_sensor_poll(NULL, &f), SENSIM_EINVAL);
}

int sensim_test_host_bad_input(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_push_state_back_in_time_is_estate_and_changes_nothing),
      cmocka_unit_test(test_host_advance_to_an_earlier_time_is_estate_and_keeps_the_clock),
      cmocka_unit_test(test_host_destroying_a_carrier_body_is_estate_then_other_bodies_go),
      cmocka_unit_test(test_host_sensor_accessors_take_null),
  };
  return cmocka_run_group_tests_name("host_bad_input", tests, NULL, NULL);
}
