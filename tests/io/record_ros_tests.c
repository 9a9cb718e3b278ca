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

/* ---- depth: REP 118 values ------------------------------------------------ */

/* Skip an Image from after its header to its data; checks the size and
 * encoding. */
static const unsigned char *image_data(cdr_in *c, uint32_t w, uint32_t h, const char *encoding) {
  assert_int_equal(cdr_u32(c), h);
  assert_int_equal(cdr_u32(c), w);
  assert_string_equal(cdr_str(c), encoding);
  cdr_u8(c);
  uint32_t step = cdr_u32(c), n = cdr_u32(c);
  assert_int_equal(n, (size_t)step * h);
  return cdr_take(c, n, 1);
}

/* A camera sees a box against nothing: its depth plane (/cam/depth) and a
 * chain that ends in depth (/dcam/image_raw) are 32FC1 with each hit's
 * depth as the frame has it and +Inf wherever the frame says 0 (nothing
 * hit), none 0: what depth_image_proc reads as "no return" rather than a
 * point at the camera's origin. */
static void test_depth_no_hit_is_inf_not_zero(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 5);
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1, 6, 6}, (sensim_vec3){5, 0, 0});
  sensim_sensor *cams[2];
  const char *names[2] = {"cam", "dcam"};
  for (int i = 0; i < 2; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = names[i];
    sp.rate = 10;
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 32;
    cp.height = 24;
    cp.samples = 1;
    SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cams[i]));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cams[i], i ? "depth" : "srgb8", NULL));
  }
  const char *path = TMP "/depth.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0));
  float *want[2];
  for (int i = 0; i < 2; i++) {
    const sensim_frame *f;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cams[i], &f));
    assert_non_null(f);
    const float *d = i ? f->data : f->depth;
    assert_non_null(d);
    want[i] = malloc(32 * 24 * sizeof(float));
    memcpy(want[i], d, 32 * 24 * sizeof(float));
    SENSIM_OK_OR_FAIL(sensim_recorder_write(r, cams[i], f));
  }
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);
  const char *topics[2] = {"/cam/depth", "/dcam/image_raw"};
  for (int i = 0; i < 2; i++) {
    cdr_in c = cdr_open(nth(&mf, topics[i], 0));
    cdr_header(&c, NULL);
    const unsigned char *d = image_data(&c, 32, 24, "32FC1");
    size_t hits = 0, misses = 0;
    for (size_t k = 0; k < 32 * 24; k++) {
      float v;
      memcpy(&v, d + 4 * k, 4);
      assert_true(v != 0);
      if (want[i][k] == 0) {
        assert_true(isinf(v) && v > 0);
        misses++;
      } else {
        assert_true(v == want[i][k]);
        hits++;
      }
    }
    assert_true(hits > 50 && misses > 50);
    free(want[i]);
  }
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* ---- calibration of the pixels delivered --------------------------------- */

/* CameraInfo from after its header: size, model, D (up to 8), K. */
static void camera_info_read(cdr_in *c, uint32_t *w, uint32_t *h, const char **model, double d[8],
                             uint32_t *nd, double k[9]) {
  *h = cdr_u32(c);
  *w = cdr_u32(c);
  *model = cdr_str(c);
  *nd = cdr_u32(c);
  for (uint32_t i = 0; i < *nd; i++) {
    double v = cdr_f64(c);
    if (i < 8) d[i] = v;
  }
  for (int i = 0; i < 9; i++) k[i] = cdr_f64(c);
}

/* The reals of the "data: [...]" line after `key:` in a YAML text. */
static int yaml_data(const char *text, const char *key, double *out, int max) {
  const char *at = strstr(text, key);
  assert_non_null(at);
  at = strstr(at, "data: [");
  assert_non_null(at);
  at += 7;
  int n = 0;
  while (n < max && *at && *at != ']') {
    char *end;
    out[n++] = strtod(at, &end);
    assert_true(end != at);
    at = end;
    while (*at == ',' || *at == ' ') at++;
  }
  return n;
}

/* A 161 x 121 Brown-Conrady camera (hfov 90 deg: fx = 80.5, principal
 * point (80, 60)) downsampled by 2 delivers 80 x 60 pixels, each the mean
 * of a 2 x 2 block, the last column and row dropped: delivered pixel u
 * spans the camera's [2u - 0.5, 2u + 1.5]. Points of the scene projected
 * by the camera's own lens and mapped onto the delivered pixels by that
 * span land where the recorded calibration (CameraInfo and
 * camera_info.yaml: K and D for the delivered size) projects them, to
 * 0.01 px; the scaling by size (fx 80.5 x 80 / 161 = 40.0) was 0.25 px
 * off. */
static void test_camera_info_describes_downsampled_odd_images(void **state) {
  (void)state;
  const char *json =
      "{\"duration\": 0.05, \"world\": {\"threads\": 0},"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 10, \"width\": 161,"
      " \"height\": 121, \"hfov_deg\": 90, \"samples\": 1, \"lens\": \"brown_conrady\","
      " \"dist\": [-0.1, 0.02, 0.001, -0.002, 0.003],"
      " \"filters\": [{\"name\": \"downsample\", \"params\": {\"factor\": 2}}, {\"name\": \"srgb8\"}]}]}";
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  sensim_camera_params cp;
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(sensim_world_sensor(sensim_scenario_world(scn), 0), &cp));
  sensim_scenario_run_options o;
  sensim_scenario_run_options_init(&o);
  o.out_dir = TMP "/down";
  o.mcap = TMP "/down.mcap";
  test_remove_tree(o.out_dir);
  remove(o.mcap);
  SENSIM_OK_OR_FAIL(sensim_scenario_run_ex(scn, &o, NULL));
  sensim_scenario_destroy(scn);

  mcap_file mf;
  read_mcap(o.mcap, &mf);
  cdr_in c = cdr_open(nth(&mf, "/cam/camera_info", 0));
  cdr_header(&c, NULL);
  uint32_t w, h, nd;
  const char *model;
  double d[8], k[9];
  camera_info_read(&c, &w, &h, &model, d, &nd, k);
  assert_int_equal(w, 80);
  assert_int_equal(h, 60);
  assert_string_equal(model, "plumb_bob");
  char *yaml = test_slurp(TMP "/down/cam/camera_info.yaml", NULL);
  assert_non_null(strstr(yaml, "image_width: 80\n"));
  assert_non_null(strstr(yaml, "image_height: 60\n"));
  double yk[9], yd[8];
  assert_int_equal(yaml_data(yaml, "camera_matrix:", yk, 9), 9);
  assert_int_equal(yaml_data(yaml, "distortion_coefficients:", yd, 8), 5);
  free(yaml);
  for (int src = 0; src < 2; src++) {
    sensim_camera_params rec = cp;
    rec.width = 80, rec.height = 60;
    const double *kk = src ? yk : k, *dd = src ? yd : d;
    rec.fx = kk[0], rec.fy = kk[4], rec.cx = kk[2], rec.cy = kk[5];
    for (int i = 0; i < 5; i++) rec.dist[i] = dd[i];
    double worst = 0;
    for (int i = -4; i <= 4; i++)
      for (int j = -3; j <= 3; j++) {
        sensim_vec3 p = {5, -0.55 * i, -0.6 * j}; /* sensor frame: x forward, y left, z up */
        double u, v, ur, vr;
        SENSIM_OK_OR_FAIL(sensim_camera_project(&cp, p, &u, &v));
        SENSIM_OK_OR_FAIL(sensim_camera_project(&rec, p, &ur, &vr));
        /* camera pixel edges 2u' - 0.5 .. 2u' + 1.5 -> delivered u' - 0.5 .. u' + 0.5 */
        const double ud = (u + 0.5) / 2 - 0.5, vd = (v + 0.5) / 2 - 0.5;
        worst = fmax(worst, fmax(fabs(ur - ud), fabs(vr - vd)));
      }
    if (worst > 0.01) fail_msg("%s: the recorded calibration is %.4f px off the delivered pixels",
                               src ? "camera_info.yaml" : "CameraInfo", worst);
  }
  assert_near(k[0], 40.25, 1e-12);
  assert_near(k[4], 40.25, 1e-12);
  assert_near(k[2], 39.75, 1e-12);
  assert_near(k[5], 29.75, 1e-12);
  free_mcap(&mf);
}

int sensim_test_record_ros(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_stamp_plus_time_deskews_a_wall_from_the_start),
      cmocka_unit_test(test_lidar_stamp_plus_time_deskews_a_wall_from_the_end),
      cmocka_unit_test(test_depth_no_hit_is_inf_not_zero),
      cmocka_unit_test(test_camera_info_describes_downsampled_odd_images),
  };
  return cmocka_run_group_tests_name("record_ros", tests, setup, NULL);
}
