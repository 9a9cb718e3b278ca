/* tests/io/record_ros_tests.c: recordings as ROS 2 consumers read them
 * (docs/recording.md, "Conventions and their consumers"): lidar stamps
 * and point times as LIO-SAM and FAST-LIO de-skew, depth images as
 * depth_image_proc reads them (REP 118), CameraInfo of the pixels
 * delivered, every lens kind recorded, covariances as robot_localization
 * reads them, and the REP 105 frame tree. Recordings are read back with
 * the tests' own reader (mcap_read.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/mcap_read.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/record_ros"

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static double sec(uint64_t ns) { return (double)ns * 1e-9; }

/* Skip a PointCloud2 from after its header to its data: returns the data
 * and the point count; the layout is the one docs/recording.md states. */
static const unsigned char *cloud_points(cdr_in *c, size_t *n) {
  uint32_t h = cdr_u32(c), w = cdr_u32(c);
  uint32_t nf = cdr_u32(c);
  for (uint32_t i = 0; i < nf; i++) cdr_str(c), cdr_u32(c), cdr_u8(c), cdr_u32(c);
  cdr_u8(c);
  assert_int_equal(cdr_u32(c), 32);
  cdr_u32(c);
  uint32_t bytes = cdr_u32(c);
  assert_int_equal(bytes, 32u * h * w);
  *n = (size_t)h * w;
  return cdr_take(c, bytes, 1);
}

/* ---- lidar: stamp + time is each point's firing time --------------------- */

/* A car drives at 1.5 m/s towards a wall whose face is at x = 8 m, its
 * lidar (10 Hz, 0.1 s a scan) mounted 0.5 m ahead of the body. A
 * consumer that de-skews as LIO-SAM and FAST-LIO do (the sensor's pose at
 * header.stamp + time applied to the point) puts every wall point on the
 * wall to 1 cm, for both time conventions; a stamp at the scan's end with
 * times from its start would put them 1.5 x 0.1 = 0.15 m short. */
static void wall_deskews(sensim_lidar_time conv) {
  sensim_world *w = test_world(2, 11);
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1, 40, 10}, (sensim_vec3){8.5, 0, 1});
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "lidar";
  sp.body = car;
  sp.rate = 10;
  sp.mount.pos = (sensim_vec3){0.5, 0, 1.0};
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 8;
  lp.columns = 360;
  sensim_sensor *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &lid));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(lid, "points", NULL));
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.lidar_time = conv;
  const char *path = conv == SENSIM_LIDAR_TIME_FROM_START ? TMP "/wall_start.mcap" : TMP "/wall_end.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, &rp, &r));
  const double v = 1.5;
  for (int k = 0; k <= 500; k++) {
    double t = k * 1e-3;
    sensim_body_state st = test_state_xyzyaw(v * t, 0, 0, 0);
    st.flags = SENSIM_STATE_VELOCITY;
    st.lin_vel = (sensim_vec3){v, 0, 0};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f;
    while (sensim_sensor_poll(lid, &f) == SENSIM_OK && f) SENSIM_OK_OR_FAIL(sensim_recorder_write(r, lid, f));
    SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, t));
  }
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);
  size_t nscans = count_topic(&mf, "/lidar/points"), on_wall = 0;
  assert_true(nscans >= 3);
  double worst = 0, tmin = 1e9, tmax = -1e9;
  for (size_t k = 1; k < nscans; k++) { /* scan 0 may start before the first state */
    cdr_in c = cdr_open(nth(&mf, "/lidar/points", k));
    const double stamp = sec(cdr_header(&c, NULL));
    size_t n;
    const unsigned char *d = cloud_points(&c, &n);
    for (size_t i = 0; i < n; i++, d += 32) {
      float x, y, z, t;
      memcpy(&x, d, 4), memcpy(&y, d + 4, 4), memcpy(&z, d + 8, 4), memcpy(&t, d + 18, 4);
      if (!(isfinite(x) && x > 1 && fabs(y) < 3)) continue;
      tmin = fmin(tmin, t), tmax = fmax(tmax, t);
      const double fired = stamp + t, sensor_x = v * fired + 0.5;
      worst = fmax(worst, fabs(sensor_x + x - 8.0));
      on_wall++;
    }
  }
  assert_true(on_wall > 100);
  if (worst > 0.01) fail_msg("%s: a de-skewed wall point lies %.4f m off the wall", path, worst);
  if (conv == SENSIM_LIDAR_TIME_FROM_START) assert_true(tmin >= 0 && tmax <= 0.1);
  else assert_true(tmin >= -0.1 && tmax <= 0);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

static void test_lidar_stamp_plus_time_deskews_a_wall_from_the_start(void **state) {
  (void)state;
  wall_deskews(SENSIM_LIDAR_TIME_FROM_START);
}

static void test_lidar_stamp_plus_time_deskews_a_wall_from_the_end(void **state) {
  (void)state;
  wall_deskews(SENSIM_LIDAR_TIME_FROM_END);
}

int sensim_test_record_ros(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_stamp_plus_time_deskews_a_wall_from_the_start),
      cmocka_unit_test(test_lidar_stamp_plus_time_deskews_a_wall_from_the_end),
  };
  return cmocka_run_group_tests_name("record_ros", tests, setup, NULL);
}
