/* The limits of world.h and sensor.h: each test fails if the limit or its
 * derivation is wrong, at the boundary (the limit itself accepted, the
 * next representable value refused) and in use (a lidar at the limit still
 * measures to its stated precision). */
#include <float.h>
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "robust/robust_groups.h"
#include "support/testutil.h"

/* IEEE 754 binary32: below 2^24 floats are spaced <= 1 m, so a coordinate
 * rounds by at most half a metre; at 2^24 the spacing becomes 2 m. The
 * limit holds the Earth in ENU and is far below Embree's FLT_LARGE. */
static void test_coord_limit_is_where_binary32_still_rounds_within_half_a_metre(void **state) {
  (void)state;
  const float L = (float)SENSIM_COORD_MAX;
  assert_true((double)L == SENSIM_COORD_MAX); /* exactly representable */
  assert_true(L - nextafterf(L, 0.0f) == 1.0f);
  assert_true(nextafterf(L, INFINITY) - L == 2.0f);
  /* Every coordinate up to the limit, in steps that land between floats. */
  double worst = 0;
  for (double x = 0.3; x <= SENSIM_COORD_MAX; x = x * 1.37 + 0.11) worst = fmax(worst, fabs((double)(float)x - x));
  assert_true(worst <= 0.5);
  assert_true(fabs((double)(float)(SENSIM_COORD_MAX + 2.9) - (SENSIM_COORD_MAX + 2.9)) > 0.5);
  assert_true(SENSIM_COORD_MAX > 12742e3);            /* Earth's mean diameter, m */
  assert_true(SENSIM_COORD_MAX * 1e11 < 1.844e18);     /* Embree's FLT_LARGE */
}

static void test_coord_limit_is_accepted_and_the_next_double_refused_everywhere_it_enters(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const double L = SENSIM_COORD_MAX, past = nextafter(SENSIM_COORD_MAX, INFINITY);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  bp.pose.pos.x = -L;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  bp.pose.pos.x = -past;
  assert_int_equal(sensim_body_create(w, &bp, &b), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "16777216 m"));
  /* A meshed body: its position plus the mesh's radius. */
  sensim_shape sh = {SENSIM_SHAPE_SPHERE, {2, 0, 0}, 8};
  sensim_mesh *ball = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, NULL, &ball));
  bp.mesh = ball;
  bp.pose.pos.x = L - 2.0;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  bp.pose.pos.x = L - 1.0;
  assert_int_equal(sensim_body_create(w, &bp, &b), SENSIM_EINVAL);
  /* Pushed states, mounts and lights. */
  sensim_body_params_init(&bp);
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_body_state s = test_state_xyzyaw(0, 0, L, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.0, &s));
  s.pose.pos.z = past;
  assert_int_equal(sensim_body_push_state(b, 0.1, &s), SENSIM_EINVAL);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *imu = NULL;
  sp.mount.pos.y = past;
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  sp.mount.pos.y = L;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_POINT;
  l.position.x = L;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  l.position.x = past;
  assert_int_equal(sensim_light_add(w, &l), SENSIM_EINVAL);
  float v[9] = {0, 0, 0, 1, 0, 0, 0, (float)L, 0};
  uint32_t ix[3] = {0, 1, 2};
  sensim_mesh_desc d = test_mesh_desc(v, 3, ix, 1, NULL);
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  v[7] = nextafterf((float)L, INFINITY);
  assert_int_equal(sensim_mesh_create(w, &d, &m), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "mesh vertex 2"));
  sensim_world_destroy(w);
}

/* The reach of a pushed velocity: |p| + |v| T + |a| T^2 / 2 with T the
 * longest window, and at least 1 s. */
static void test_pushed_velocity_may_carry_a_body_up_to_the_limit_within_the_longest_window(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_body_state s = test_state_xyzyaw(-1e6, 0, 0, 0);
  s.lin_vel.x = -(SENSIM_COORD_MAX - 1e6); /* reaches the limit in 1 s exactly */
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.0, &s));
  s.lin_vel.x = nextafter(s.lin_vel.x, -INFINITY) * (1 + 1e-12);
  assert_int_equal(sensim_body_push_state(b, 0.1, &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "within 1 s"));
  s.lin_vel.x = 0;
  s.lin_acc.y = 2 * (SENSIM_COORD_MAX - 1e6); /* a T^2 / 2 */
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.2, &s));
  /* A 4 s window (a camera's long exposure) makes T = 4 s. */
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 0.25;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = cp.height = 4;
  cp.exposure_time = 4.0;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  s.lin_acc.y = 0;
  s.lin_vel.x = -(SENSIM_COORD_MAX - 1e6) / 4;
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.3, &s));
  s.lin_vel.x *= 1.000001;
  assert_int_equal(sensim_body_push_state(b, 0.4, &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "within 4 s"));
  sensim_world_destroy(w);
}

/* In use: a single-beam lidar and a wall near the limit (where Embree
 * used to abort beyond 1e18 m) still measure the range to within the
 * float spacing there, 1 m. */
static void test_lidar_near_the_coordinate_limit_measures_within_a_metre(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const double x0 = SENSIM_COORD_MAX - 40.0;
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1, 10, 10}, (sensim_vec3){x0 + 20.5, 0, 0});
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos.x = x0;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0;
  lp.columns = 1;
  lp.hfov = 1e-3;
  lp.start_azimuth = 0;
  sensim_sensor *lidar = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &lidar));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(lidar, &f));
  assert_non_null(f);
  const sensim_beam *beam = f->data;
  assert_near(beam[0].range, 20.0, 1.0);
  sensim_world_destroy(w);
}

/* IEEE 754 binary64: below 2^32 s times are spaced <= 2^-21 s, under half
 * the period of a 1 MHz sensor, so its capture times stay distinct. */
static void test_time_limit_keeps_a_1_MHz_sensors_captures_distinct_and_in_order(void **state) {
  (void)state;
  const double T = SENSIM_TIME_MAX;
  assert_true(T - nextafter(T, 0) == ldexp(1, -21));
  assert_true(ldexp(1, -21) < 0.5e-6);
  const double phase = T - 1e-3;
  double prev = -INFINITY;
  for (int k = 0; k <= 1000; k++) {
    double tk = phase + k / 1e6;
    assert_true(tk > prev);
    prev = tk;
  }
  /* A real 1 MHz IMU at the end of time. */
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 1e6;
  sp.phase = T - 1e-4;
  sensim_sensor *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, T));
  assert_int_equal(sensim_sensor_frames_delivered(imu), 101);
  assert_int_equal(sensim_world_advance(w, nextafter(T, INFINITY)), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "SENSIM_TIME_MAX"));
  sp.phase = nextafter(T, INFINITY);
  sp.name = "late";
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

static void test_lag_may_hold_at_most_65536_frames_for_delivery(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 100;
  sp.lag = SENSIM_SENSOR_MAX_WAITING / 100.0;
  sensim_sensor *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &imu));
  sp.name = "b";
  sp.lag = nextafter(sp.lag, INFINITY);
  assert_int_equal(sensim_imu_create(w, &sp, test_imu_defaults(), &imu), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "65537 frames"));
  sensim_world_destroy(w);
}

/* 2^20 captures of one sensor in one advance are started (a 1 MHz sensor
 * over 1.048575 s); one more is refused with nothing started. */
static void test_one_advance_starts_at_most_2_20_captures_of_a_sensor(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 1e6;
  sp.window = 0;
  sensim_sensor *mag = NULL;
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  SENSIM_OK_OR_FAIL(sensim_magnetometer_create(w, &sp, &mp, &mag));
  SENSIM_OK_OR_FAIL(sensim_sensor_set_overrun(mag, 1024, SENSIM_OVERRUN_WAIT));
  double t = (SENSIM_ADVANCE_MAX_CAPTURES - 1) / 1e6; /* captures 0 .. 2^20 - 1 */
  assert_int_equal(sensim_world_advance(w, t + 1.5e-6), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "1048577 captures"));
  assert_true(sensim_sensor_frames_captured(mag) == 0);
  assert_true(sensim_world_time(w) == -INFINITY);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
  assert_true(sensim_sensor_frames_captured(mag) == SENSIM_ADVANCE_MAX_CAPTURES);
  sensim_world_destroy(w);
}

/* Sizes that cannot be allocated are refused at creation, the same way on
 * every machine beyond 2^47 bytes, and beyond this machine's memory. */
static void test_sizes_beyond_memory_and_index_widths_are_refused_at_creation(void **state) {
  (void)state;
  assert_true(sensim__memory_limit() <= 140737488355328.0);
  assert_true(sensim__memory_limit() >= 1e8);
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  sensim_sensor *cam = NULL;
  cp.width = cp.height = 1000000; /* 3.6e13 bytes a frame */
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "1000000x1000000 camera frame needs 3.6e+13 bytes"));
  cp.width = 1u << 31;
  cp.height = 1;
  cp.samples = 2; /* 2^32 rays per row: the renderer's index is 32 bits */
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &cam), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "rays per row"));
  cp.width = 4096;
  cp.height = 4096;
  cp.samples = 1024; /* 600 MB a frame, 4 Mi rays a row: allowed */
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  sensim_world_destroy(w);
}

int sensim_test_robust_limits(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coord_limit_is_where_binary32_still_rounds_within_half_a_metre),
      cmocka_unit_test(test_coord_limit_is_accepted_and_the_next_double_refused_everywhere_it_enters),
      cmocka_unit_test(test_pushed_velocity_may_carry_a_body_up_to_the_limit_within_the_longest_window),
      cmocka_unit_test(test_lidar_near_the_coordinate_limit_measures_within_a_metre),
      cmocka_unit_test(test_time_limit_keeps_a_1_MHz_sensors_captures_distinct_and_in_order),
      cmocka_unit_test(test_lag_may_hold_at_most_65536_frames_for_delivery),
      cmocka_unit_test(test_one_advance_starts_at_most_2_20_captures_of_a_sensor),
      cmocka_unit_test(test_sizes_beyond_memory_and_index_widths_are_refused_at_creation),
  };
  return cmocka_run_group_tests_name("robust_limits", tests, NULL, NULL);
}
