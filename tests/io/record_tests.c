/* tests/io/record_tests.c: ROS 2 recordings (sensim/record.h).
 *
 * Recordings are read back with a small reader written here from the MCAP
 * specification (mcap.dev/spec) alone: it walks the records from magic to
 * magic, checks every length, CRC and offset the file states against the
 * bytes, decompresses the chunks and checks the message indexes and the
 * summary against the messages it found. CDR layouts are checked against
 * bytes computed by hand from the ROS 2 message definitions and the CDR
 * alignment rule, not with the library's encoder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "io/mcap_writer.h" /* sensim__crc32, checked against known values below */
#include "io/mcap_read.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/record"

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static uint64_t ns(double t) { return (uint64_t)llround(t * 1e9); }

/* ---- fixtures ----------------------------------------------------------- */

static sensim_sensor *make_sensor(sensim_world *w, const char *kind, const char *name,
                                  sensim_body *body, double rate, double lag) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = name;
  sp.body = body;
  sp.rate = rate;
  sp.lag = lag;
  sp.mount.pos = (sensim_vec3){0.5, 0, 1.5};
  sensim_sensor *s = NULL;
  if (!strcmp(kind, "gnss")) {
    SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &s));
  } else if (!strcmp(kind, "imu")) {
    SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &s));
  } else if (!strcmp(kind, "mag")) {
    sensim_magnetometer_params mp;
    sensim_magnetometer_params_init(&mp);
    SENSIM_OK_OR_FAIL(sensim_magnetometer_create(w, &sp, &mp, &s));
  } else if (!strcmp(kind, "camera")) {
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 64;
    cp.height = 48;
    cp.samples = 1;
    SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "srgb8", NULL));
  } else {
    sensim_lidar_params lp;
    sensim_lidar_params_init(&lp);
    lp.channels = 4;
    lp.columns = 90;
    SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "points", NULL));
  }
  return s;
}

/* A frame of sensor s made by hand (the recorder reads only the header
 * fields and the payload). */
static sensim_frame hand_frame(const sensim_sensor *s, sensim_payload type, void *data, size_t count,
                               double t_capture, double t_deliver) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.sensor_id = sensim_sensor_id(s);
  f.t_capture = t_capture;
  f.t_deliver = t_deliver;
  f.pose = sensim_pose_identity();
  f.type = type;
  f.width = (uint32_t)count;
  f.height = 1;
  f.count = count;
  f.data = data;
  return f;
}

/* ---- tests ---------------------------------------------------------------- */

/* The library's CRC-32 is zlib's: the check value of "123456789" (the
 * catalogue's CRC-32/ISO-HDLC, 0xCBF43926) and of bytes split across calls. */
static void test_crc32_matches_the_standard_check_value(void **state) {
  (void)state;
  assert_int_equal(sensim__crc32(0, "123456789", 9), 0xCBF43926u);
  uint32_t c = sensim__crc32(0, "1234", 4);
  assert_int_equal(sensim__crc32(c, "56789", 5), 0xCBF43926u);
  unsigned char big[1000];
  for (int i = 0; i < 1000; i++) big[i] = (unsigned char)(i * 7);
  assert_int_equal(sensim__crc32(sensim__crc32(0, big, 333), big + 333, 667), sensim__crc32(0, big, 1000));
}

/* A moving car with a camera, lidar, GNSS, IMU and magnetometer, recorded
 * with small chunks so there are many: the file verifies from end to end,
 * each sensor's stamps are its frames' capture times (a lidar's: its
 * scan's start, the default lidar_time) and log times their
 * delivery times, /tf carries the car at tf_rate, and the summary's
 * counts are what was written. */
static void test_recording_verifies_and_stamps_are_capture_times(void **state) {
  (void)state;
  sensim_world *w = test_world(2, 7);
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1, 20, 4}, (sensim_vec3){8, 0, 1});
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_sensor *s[5] = {
      make_sensor(w, "camera", "front cam", car, 10, 0.02), make_sensor(w, "lidar", "lidar", car, 10, 0.05),
      make_sensor(w, "gnss", "gps", car, 5, 0.1), make_sensor(w, "imu", "imu", car, 100, 0),
      make_sensor(w, "mag", "mag", NULL, 20, 0.01)};
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.chunk_size = 20000;
  rp.tf_rate = 20;
  const char *path = TMP "/drive.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, &rp, &r));
  SENSIM_OK_OR_FAIL(sensim_recorder_add_body(r, car, "base_link"));
  double cap[5][64], del[5][64];
  size_t nf[5] = {0};
  for (int k = 0; k <= 600; k++) {
    double t = k * 1e-3;
    sensim_body_state st = test_state_xyzyaw(2 * t, 0, 0, 0.1 * t);
    st.flags = SENSIM_STATE_VELOCITY;
    st.lin_vel = (sensim_vec3){2, 0, 0};
    st.ang_vel = (sensim_vec3){0, 0, 0.1};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    for (int i = 0; i < 5; i++) {
      const sensim_frame *f;
      while (sensim_sensor_poll(s[i], &f) == SENSIM_OK && f) {
        SENSIM_OK_OR_FAIL(sensim_recorder_write(r, s[i], f));
        /* A scan that began before time 0 has no stamp and is not
         * recorded (the default lidar_time, from the start). */
        if (i == 1 && f->t_capture < f->window) continue;
        if (nf[i] < 64) {
          cap[i][nf[i]] = f->t_capture;
          del[i][nf[i]++] = f->t_deliver;
        }
      }
    }
    SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, t));
  }
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  test_assert_no_temp_files(TMP);

  mcap_file mf;
  read_mcap(path, &mf);
  assert_true(mf.nchunks > 3);
  const char *topics[5] = {"/front_cam/image_raw", "/lidar/points", "/gps/fix", "/imu/imu", "/mag/mag"};
  const char *frames[5] = {"front_cam_optical", "lidar", "gps", "imu", "mag"};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(count_topic(&mf, topics[i]), nf[i]);
    assert_true(nf[i] >= 3);
    for (size_t k = 0; k < nf[i]; k++) {
      const rmsg *m = nth(&mf, topics[i], k);
      cdr_in c = cdr_open(m);
      const char *fid;
      /* The lidar's stamp is its scan's first firing (record_ros_tests.c),
       * never before the epoch. */
      double stamp = i == 1 ? cap[i][k] - 0.1 : cap[i][k];
      assert_int_equal(cdr_header(&c, &fid), ns(stamp));
      assert_string_equal(fid, frames[i]);
      assert_int_equal(m->log_time, ns(del[i][k]));
    }
  }
  assert_int_equal(count_topic(&mf, "/front_cam/camera_info"), nf[0]);
  assert_int_equal(count_topic(&mf, "/front_cam/depth"), nf[0]);
  /* /tf at 20 Hz over [0, 0.6]: ticks 0 .. 12, and odometry with each. */
  assert_int_equal(count_topic(&mf, "/tf"), 13);
  assert_int_equal(count_topic(&mf, "/base_link/odom"), 13);
  const rmsg *tf = nth(&mf, "/tf", 10);
  cdr_in c = cdr_open(tf);
  assert_int_equal(cdr_u32(&c), 2); /* REP 105: map -> odom (no drift: identity), odom -> body */
  const char *parent;
  assert_int_equal(cdr_header(&c, &parent), ns(0.5));
  assert_string_equal(parent, "map");
  assert_string_equal(cdr_str(&c), "odom");
  for (int i = 0; i < 7; i++) assert_true(cdr_f64(&c) == (i == 6 ? 1.0 : 0.0));
  assert_int_equal(cdr_header(&c, &parent), ns(0.5));
  assert_string_equal(parent, "odom");
  assert_string_equal(cdr_str(&c), "base_link");
  assert_near(cdr_f64(&c), 1.0, 1e-9); /* x = 2 t */
  /* Odometry's twist is in the body frame: 2 m/s along a car yawed 0.05 rad. */
  const rmsg *od = nth(&mf, "/base_link/odom", 10);
  c = cdr_open(od);
  cdr_header(&c, NULL);
  assert_string_equal(cdr_str(&c), "base_link");
  for (int k = 0; k < 7 + 36; k++) cdr_f64(&c);
  double vx = cdr_f64(&c), vy = cdr_f64(&c);
  assert_near(vx, 2 * cos(0.05), 1e-3);
  assert_near(vy, -2 * sin(0.05), 1e-3);
  /* /tf_static: one message per new sensor, each with every mount so far
   * (a late subscriber of a replay sees only the last); the mag rides on
   * the world, so "map". */
  assert_int_equal(count_topic(&mf, "/tf_static"), 5);
  int saw_map_mag = 0, saw_optical = 0;
  c = cdr_open(nth(&mf, "/tf_static", 4));
  assert_int_equal(cdr_u32(&c), 6);
  for (size_t k = 0; k < 6; k++) {
    const char *p;
    cdr_header(&c, &p);
    const char *child = cdr_str(&c);
    for (int i = 0; i < 7; i++) cdr_f64(&c);
    if (!strcmp(child, "mag")) saw_map_mag = !strcmp(p, "map");
    else if (!strcmp(child, "front_cam_optical")) saw_optical = !strcmp(p, "front_cam");
    else assert_string_equal(p, "base_link");
  }
  assert_true(saw_optical);
  assert_true(saw_map_mag);
  /* Schemas are ros2msg texts with their dependencies appended. */
  int saw_fix_schema = 0;
  for (int i = 1; i < 16; i++)
    if (!strcmp(mf.schema_names[i], "sensor_msgs/msg/NavSatFix")) {
      saw_fix_schema = 1;
      assert_non_null(strstr(mf.schema_text[i], "\n================================================================================\n"
                                                  "MSG: sensor_msgs/NavSatStatus\n"));
      assert_non_null(strstr(mf.schema_text[i], "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"));
    }
  assert_true(saw_fix_schema);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* NavSatFix and Imu byte for byte, laid out by hand from the ROS 2
 * definitions: offsets count from the end of the 4-byte encapsulation
 * header, and each primitive starts at a multiple of its size. */
static void test_navsatfix_and_imu_cdr_bytes_match_hand_layout(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 1);
  sensim_sensor *gps = make_sensor(w, "gnss", "gps", NULL, 10, 0);
  sensim_sensor *imu = make_sensor(w, "imu", "imu0", NULL, 10, 0);
  const char *path = TMP "/bytes.mcap";
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.compress = 0; /* the other branch of the writer */
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, &rp, &r));
  sensim_gnss_fix fix;
  memset(&fix, 0, sizeof fix);
  fix.lat = 48.1;
  fix.lon = 11.5;
  fix.height = 520.25;
  const double cov[9] = {0.04, 0.01, 0.002, 0.01, 0.05, 0.003, 0.002, 0.003, 0.09};
  memcpy(fix.cov_enu, cov, sizeof cov);
  fix.fix_type = 1;
  sensim_frame f = hand_frame(gps, SENSIM_PAYLOAD_GNSS, &fix, 1, 1.25, 1.5);
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, gps, &f));
  sensim_imu_sample smp = {.accel = {0.1, -0.2, 9.81}, .gyro = {0.01, 0.02, -0.03},
                           .accel_var = {0, 4e-4, 0}, .gyro_var = {1e-6, 2e-6, 3e-6}};
  f = hand_frame(imu, SENSIM_PAYLOAD_IMU, &smp, 1, 2.5, 2.5);
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, imu, &f));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);

  /* NavSatFix, frame "gps", stamp 1.25 s. */
  unsigned char want[4 + 121];
  memset(want, 0, sizeof want);
  unsigned char *p = want + 4;
  want[1] = 0x01;
  p[0] = 1;                                      /* 0: sec */
  p[4] = 0x80, p[5] = 0xB2, p[6] = 0xE6, p[7] = 0x0E; /* 4: nanosec 250000000 */
  p[8] = 4;                                      /* 8: frame_id length incl. NUL */
  memcpy(p + 12, "gps", 4);                      /* 12..15 */
  p[16] = 0;                                     /* 16: status.status STATUS_FIX */
  p[18] = 1;                                     /* 18: status.service (uint16, aligned 2) */
  memcpy(p + 24, &fix.lat, 8);                   /* 24: latitude (aligned 8) */
  memcpy(p + 32, &fix.lon, 8);
  memcpy(p + 40, &fix.height, 8);
  memcpy(p + 48, fix.cov_enu, 72);               /* 48..119 */
  p[120] = 3;                                    /* COVARIANCE_TYPE_KNOWN */
  const rmsg *m = nth(&mf, "/gps/fix", 0);
  assert_non_null(m);
  assert_int_equal(m->len, sizeof want);
  assert_memory_equal(m->data, want, sizeof want);

  /* Imu, frame "imu0" (5 bytes with NUL: 12..16, padding to 24). */
  unsigned char iw[4 + 320];
  memset(iw, 0, sizeof iw);
  p = iw + 4;
  iw[1] = 0x01;
  p[0] = 2;
  p[4] = 0x00, p[5] = 0x65, p[6] = 0xCD, p[7] = 0x1D; /* 500000000 */
  p[8] = 5;
  memcpy(p + 12, "imu0", 5);
  const double qw = 1, m1 = -1;
  memcpy(p + 48, &qw, 8);                /* 24: orientation x y z, 48: w */
  memcpy(p + 56, &m1, 8);                /* 56: orientation_covariance[0] = -1 */
  memcpy(p + 128, smp.gyro, 24);         /* 128: angular_velocity */
  for (int i = 0; i < 3; i++)            /* 152: its covariance, the variances on the diagonal */
    memcpy(p + 152 + 32 * i, &smp.gyro_var[i], 8);
  memcpy(p + 224, smp.accel, 24);        /* 224: linear_acceleration */
  const double exact = 1e-9;             /* 248: its covariance; 0 (exact) recorded as 1e-9 */
  memcpy(p + 248, &exact, 8);
  memcpy(p + 248 + 32, &smp.accel_var[1], 8);
  memcpy(p + 248 + 64, &exact, 8);
  m = nth(&mf, "/imu0/imu", 0);
  assert_non_null(m);
  assert_int_equal(m->len, sizeof iw);
  assert_memory_equal(m->data, iw, sizeof iw);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* A real lidar's points frame: PointCloud2 with the Velodyne fields
 * (x y z intensity float32, ring uint16, time float32, return uint8) and
 * the semantic ids after them (label = class id, instance, uint32),
 * point_step 32, row_step = width * 32, data decoding to the frame's
 * points (ids included: both boxes' instances appear), and times from the
 * scan's start inside [0, window]; with FROM_END the frame's own offsets. */
static void test_pointcloud2_is_velodyne_layout_and_decodes_to_points(void **state) {
  (void)state;
  for (int mode = 0; mode < 2; mode++) {
    sensim_world *w = test_world(1, 3);
    test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){20, 20, 0.2}, (sensim_vec3){0, 0, -1});
    test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){1, 20, 4}, (sensim_vec3){6, 0, 1});
    sensim_sensor *lid = make_sensor(w, "lidar", "velo", NULL, 10, 0);
    sensim_recorder_params rp;
    sensim_recorder_params_init(&rp);
    rp.lidar_time = mode ? SENSIM_LIDAR_TIME_FROM_END : SENSIM_LIDAR_TIME_FROM_START;
    const char *path = TMP "/cloud.mcap";
    sensim_recorder *r = NULL;
    SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, &rp, &r));
    /* The second scan (0.1 s): the first, at 0, began before the epoch,
     * where no stamp can go. */
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1));
    const sensim_frame *pf;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &pf));
    assert_non_null(pf);
    if (pf->t_capture < pf->window) SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &pf));
    assert_non_null(pf);
    assert_true(pf->t_capture >= pf->window);
    sensim_frame copy;
    SENSIM_OK_OR_FAIL(sensim_frame_copy(pf, &copy));
    assert_true(copy.count > 50);
    SENSIM_OK_OR_FAIL(sensim_recorder_write(r, lid, pf));
    SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
    mcap_file mf;
    read_mcap(path, &mf);
    const rmsg *m = nth(&mf, "/velo/points", 0);
    assert_non_null(m);
    cdr_in c = cdr_open(m);
    const char *fid;
    cdr_header(&c, &fid);
    assert_string_equal(fid, "velo");
    assert_int_equal(cdr_u32(&c), 1);                       /* height */
    assert_int_equal(cdr_u32(&c), copy.count);              /* width */
    static const struct { const char *name; uint32_t off; uint8_t type; } want[] = {
        {"x", 0, 7}, {"y", 4, 7}, {"z", 8, 7}, {"intensity", 12, 7},
        {"ring", 16, 4}, {"time", 18, 7}, {"return", 22, 2}, {"label", 24, 6}, {"instance", 28, 6}};
    assert_int_equal(cdr_u32(&c), 9);
    for (int i = 0; i < 9; i++) {
      assert_string_equal(cdr_str(&c), want[i].name);
      assert_int_equal(cdr_u32(&c), want[i].off);
      assert_int_equal(cdr_u8(&c), want[i].type);
      assert_int_equal(cdr_u32(&c), 1);
    }
    assert_int_equal(cdr_u8(&c), 0);                        /* is_bigendian */
    assert_int_equal(cdr_u32(&c), 32);                      /* point_step */
    assert_int_equal(cdr_u32(&c), 32 * copy.count);         /* row_step */
    uint32_t nbytes = cdr_u32(&c);
    assert_int_equal(nbytes, 32 * copy.count);
    const unsigned char *d = cdr_take(&c, nbytes, 1);
    const sensim_point *pts = copy.data;
    size_t per_instance[3] = {0, 0, 0};
    for (size_t i = 0; i < copy.count; i++, d += 32) {
      float x, y, z, in, t;
      uint16_t ring;
      memcpy(&x, d, 4), memcpy(&y, d + 4, 4), memcpy(&z, d + 8, 4), memcpy(&in, d + 12, 4);
      memcpy(&ring, d + 16, 2), memcpy(&t, d + 18, 4);
      assert_true(x == pts[i].x && y == pts[i].y && z == pts[i].z && in == pts[i].intensity);
      assert_int_equal(ring, pts[i].ring);
      assert_int_equal(d[22], pts[i].return_index);
      uint32_t label, inst;
      memcpy(&label, d + 24, 4), memcpy(&inst, d + 28, 4);
      assert_int_equal(label, pts[i].class_id);
      assert_int_equal(inst, pts[i].instance_id);
      assert_int_equal(label, 1); /* test_static_shape's class */
      assert_true(inst == 1 || inst == 2);
      per_instance[inst]++;
      if (mode == 0) {
        if (!(t >= 0 && t <= copy.window * (1 + 1e-6)))
          fail_msg("point %zu: time %.9g outside [0, %.9g] (offset %.9g)", i, t, copy.window, pts[i].time_offset);
        assert_near(t, fmax(0, pts[i].time_offset + copy.window), 1e-6);
      } else {
        assert_true(t == pts[i].time_offset);
      }
    }
    assert_true(per_instance[1] > 0 && per_instance[2] > 0);
    assert_int_equal(cdr_u8(&c), 1); /* is_dense */
    assert_int_equal(c.at, m->len);
    free_mcap(&mf);
    sensim_frame_release(&copy);
    sensim_world_destroy(w);
  }
}

/* Raw beams are converted: no-returns skipped, x y z from range,
 * azimuth and elevation. */
static void test_beams_become_points_without_no_returns(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  sensim_sensor *lid = make_sensor(w, "lidar", "velo", NULL, 10, 0);
  sensim_beam b[3] = {{10, 0.5f, 0.5f, 0.1f, -0.05f, 2, 0, 0, 12, 0, 70000},
                      {0, 0, 0, 0, -0.04f, 1, 0, 0, 0, 0, 0},
                      {4, 0.25f, -1.0f, -0.2f, -0.01f, 0, 1, 0, 65535, 0, 4000000000u}};
  const char *path = TMP "/beams.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  sensim_frame f = hand_frame(lid, SENSIM_PAYLOAD_BEAMS, b, 3, 0.1, 0.1);
  f.window = 0.1;
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, lid, &f));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);
  cdr_in c = cdr_open(nth(&mf, "/velo/points", 0));
  cdr_header(&c, NULL);
  assert_int_equal(cdr_u32(&c), 1);
  assert_int_equal(cdr_u32(&c), 2);
  uint32_t nf = cdr_u32(&c);
  for (uint32_t i = 0; i < nf; i++) cdr_str(&c), cdr_u32(&c), cdr_u8(&c), cdr_u32(&c);
  cdr_u8(&c), cdr_u32(&c), cdr_u32(&c);
  assert_int_equal(cdr_u32(&c), 64);
  const unsigned char *d = cdr_take(&c, 64, 1);
  const int src[2] = {0, 2};
  for (int i = 0; i < 2; i++, d += 32) {
    const sensim_beam *e = &b[src[i]];
    float x, y, z, t;
    memcpy(&x, d, 4), memcpy(&y, d + 4, 4), memcpy(&z, d + 8, 4), memcpy(&t, d + 18, 4);
    assert_near(x, e->range * cos(e->elevation) * cos(e->azimuth), 1e-5);
    assert_near(y, e->range * cos(e->elevation) * sin(e->azimuth), 1e-5);
    assert_near(z, e->range * sin(e->elevation), 1e-5);
    assert_near(t, e->time_offset + 0.1, 1e-7);
    assert_int_equal(d[22], e->return_index);
    uint32_t label, inst;
    memcpy(&label, d + 24, 4), memcpy(&inst, d + 28, 4);
    assert_int_equal(label, e->class_id);
    assert_int_equal(inst, e->instance_id);
  }
  free_mcap(&mf);
  sensim_world_destroy(w);
}


/* Record camera `cam`'s first frame (t = 0; in *frame unless NULL, valid
 * until the next poll) to `path` and read it back: the /cam/camera_info
 * message's reader, past its header (frame id in *fid); *mf holds the file
 * (free_mcap it). */
static cdr_in record_camera_info(sensim_world *w, sensim_sensor *cam, const char *path, mcap_file *mf,
                                 const char **fid, const sensim_frame **frame) {
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *pf;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &pf));
  assert_non_null(pf);
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, cam, pf));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  if (frame) *frame = pf;
  read_mcap(path, mf);
  cdr_in c = cdr_open(nth(mf, "/cam/camera_info", 0));
  cdr_header(&c, fid);
  return c;
}
/* CameraInfo of the rational lens is ROS's rational_polynomial with its
 * eight coefficients; of the division lens, "division" with D = [lambda]
 * and K the camera's own (no ROS model has Fitzgibbon's law, as none has
 * the FOV lens's). */
static void test_camera_info_of_rational_and_division_lenses(void **state) {
  (void)state;
  const double rat[8] = {0.25, 0.02, 4e-4, -6e-4, 0.001, 0.6, 0.05, 0.002};
  for (int div = 0; div < 2; div++) {
    sensim_world *w = test_world(1, 3);
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = "cam";
    sp.rate = 10;
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 64, cp.height = 48, cp.samples = 1;
    cp.fx = cp.fy = 40, cp.cx = 31, cp.cy = 24;
    cp.lens = div ? SENSIM_LENS_DIVISION : SENSIM_LENS_RATIONAL;
    if (div) cp.dist[0] = -0.2;
    else memcpy(cp.dist, rat, sizeof rat);
    sensim_sensor *cam = NULL;
    SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "srgb8", NULL));
    mcap_file mf;
    const char *fid;
    cdr_in c = record_camera_info(w, cam, div ? TMP "/cam_division.mcap" : TMP "/cam_rational.mcap", &mf, &fid,
                                  NULL);
    assert_int_equal(cdr_u32(&c), 48);
    assert_int_equal(cdr_u32(&c), 64);
    assert_string_equal(cdr_str(&c), div ? "division" : "rational_polynomial");
    assert_int_equal(cdr_u32(&c), div ? 1 : 8);
    for (int i = 0; i < (div ? 1 : 8); i++) assert_true(cdr_f64(&c) == (div ? -0.2 : rat[i]));
    const double k[9] = {40, 0, 31, 0, 40, 24, 0, 0, 1};
    for (int i = 0; i < 9; i++) assert_near(cdr_f64(&c), k[i], 1e-12);
    free_mcap(&mf);
    sensim_world_destroy(w);
  }
}

/* camera_info of a 64 x 48 pinhole camera with hfov 90 deg and fx = 0:
 * K from the field of view (fx = fy = 32, centre (31.5, 23.5)), plumb_bob
 * with zero D, R identity, P = [K | 0]; images in the optical frame, whose
 * /tf_static rotation takes the optical axes to the camera's (x_opt =
 * -Y, y_opt = -Z, z_opt = X). */
static void test_camera_info_from_fov_and_optical_frame(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  sensim_sensor *cam = make_sensor(w, "camera", "cam", NULL, 10, 0);
  mcap_file mf;
  const char *fid;
  const sensim_frame *pf;
  cdr_in c = record_camera_info(w, cam, TMP "/cam.mcap", &mf, &fid, &pf);
  assert_string_equal(fid, "cam_optical");
  assert_int_equal(cdr_u32(&c), 48);
  assert_int_equal(cdr_u32(&c), 64);
  assert_string_equal(cdr_str(&c), "plumb_bob");
  assert_int_equal(cdr_u32(&c), 5);
  for (int i = 0; i < 5; i++) assert_true(cdr_f64(&c) == 0);
  const double k[9] = {32, 0, 31.5, 0, 32, 23.5, 0, 0, 1};
  for (int i = 0; i < 9; i++) assert_near(cdr_f64(&c), k[i], 1e-9);
  for (int i = 0; i < 9; i++) assert_true(cdr_f64(&c) == (i % 4 == 0));
  const double p[12] = {32, 0, 31.5, 0, 0, 32, 23.5, 0, 0, 0, 1, 0};
  for (int i = 0; i < 12; i++) assert_near(cdr_f64(&c), p[i], 1e-9);

  c = cdr_open(nth(&mf, "/cam/image_raw", 0));
  cdr_header(&c, &fid);
  assert_string_equal(fid, "cam_optical");
  assert_int_equal(cdr_u32(&c), 48);
  assert_int_equal(cdr_u32(&c), 64);
  assert_string_equal(cdr_str(&c), "rgb8"); /* a camera's rgba8, as drivers publish it */
  assert_int_equal(cdr_u8(&c), 0);
  assert_int_equal(cdr_u32(&c), 64 * 3);
  assert_int_equal(cdr_u32(&c), 64 * 48 * 3);
  const unsigned char *rgb = cdr_take(&c, 64 * 48 * 3, 1), *rgba = pf->data;
  for (int i = 0; i < 64 * 48; i++) {
    assert_memory_equal(rgb + 3 * i, rgba + 4 * i, 3);
    assert_int_equal(rgba[4 * i + 3], 255); /* nothing was lost with the alpha */
  }

  c = cdr_open(nth(&mf, "/tf_static", 0));
  assert_int_equal(cdr_u32(&c), 2);
  for (int t = 0; t < 2; t++) {
    const char *parent;
    cdr_header(&c, &parent);
    const char *child = cdr_str(&c);
    double v[7];
    for (int i = 0; i < 7; i++) v[i] = cdr_f64(&c);
    if (t == 1) {
      assert_string_equal(parent, "cam");
      assert_string_equal(child, "cam_optical");
      sensim_quat q = {v[6], v[3], v[4], v[5]};
      sensim_vec3 xo = sensim_quat_rotate(q, (sensim_vec3){1, 0, 0});
      sensim_vec3 yo = sensim_quat_rotate(q, (sensim_vec3){0, 1, 0});
      sensim_vec3 zo = sensim_quat_rotate(q, (sensim_vec3){0, 0, 1});
      assert_near(xo.y, -1, 1e-12);
      assert_near(yo.z, -1, 1e-12);
      assert_near(zo.x, 1, 1e-12);
    } else {
      assert_string_equal(parent, "map");
      assert_string_equal(child, "cam");
      assert_near(v[0], 0.5, 1e-12);
      assert_near(v[2], 1.5, 1e-12);
    }
  }
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* Frames handed over out of log-time order across sensors come out
 * sorted; a frame older than what was already written is refused. */
static void test_messages_from_several_sensors_come_out_sorted(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  sensim_sensor *a = make_sensor(w, "imu", "a", NULL, 10, 0);
  sensim_sensor *b = make_sensor(w, "imu", "b", NULL, 10, 0);
  sensim_sensor *g = make_sensor(w, "gnss", "g", NULL, 10, 0);
  const char *path = TMP "/sorted.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  sensim_imu_sample smp = {.accel = {0, 0, 9.8}, .gyro = {0, 0, 0}};
  sensim_gnss_fix fix;
  memset(&fix, 0, sizeof fix);
  const double td[6] = {0.30, 0.10, 0.20, 0.25, 0.05, 0.15};
  sensim_sensor *who[6] = {b, a, g, a, g, b};
  for (int i = 0; i < 6; i++) {
    sensim_frame f = hand_frame(who[i], who[i] == g ? SENSIM_PAYLOAD_GNSS : SENSIM_PAYLOAD_IMU,
                                who[i] == g ? (void *)&fix : (void *)&smp, 1, td[i] - 0.01, td[i]);
    SENSIM_OK_OR_FAIL(sensim_recorder_write(r, who[i], &f));
  }
  SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, 0.22));
  sensim_frame late = hand_frame(a, SENSIM_PAYLOAD_IMU, &smp, 1, 0.1, 0.12);
  assert_int_equal(sensim_recorder_write(r, a, &late), SENSIM_ESTATE);
  sensim_frame det = hand_frame(a, SENSIM_PAYLOAD_DETECTION, &smp, 1, 0.5, 0.5);
  assert_int_equal(sensim_recorder_write(r, a, &det), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf); /* asserts the order */
  size_t data = 0;
  double last = 0;
  for (size_t i = 0; i < mf.nmsgs; i++) {
    if (!strcmp(topic_of(&mf, &mf.msgs[i]), "/tf_static")) continue;
    assert_true(mf.msgs[i].log_time >= ns(last));
    last = mf.msgs[i].log_time * 1e-9;
    data++;
  }
  assert_int_equal(data, 6);
  /* The last /tf_static (by log time) names every sensor, whatever the
   * order their first frames came in. */
  size_t nst = count_topic(&mf, "/tf_static");
  assert_int_equal(nst, 3);
  cdr_in c = cdr_open(nth(&mf, "/tf_static", nst - 1));
  assert_int_equal(cdr_u32(&c), 3);
  c = cdr_open(nth(&mf, "/tf_static", 0));
  assert_int_equal(cdr_u32(&c), 1);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* A recording that does not finish leaves nothing at its path: aborted,
 * or closed after a write failed; a folder that does not exist is EIO. */
static void test_interrupted_recording_leaves_no_file(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  sensim_sensor *a = make_sensor(w, "imu", "a", NULL, 10, 0);
  const char *path = TMP "/aborted.mcap";
  remove(path);
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  sensim_imu_sample smp = {.accel = {0, 0, 9.8}, .gyro = {0, 0, 0}};
  sensim_frame f = hand_frame(a, SENSIM_PAYLOAD_IMU, &smp, 1, 0.1, 0.1);
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, a, &f));
  SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, 1));
  sensim_recorder_abort(r);
  assert_false(test_file_exists(path));
  test_assert_no_temp_files(TMP);

  r = NULL;
  assert_int_equal(sensim_recorder_open(TMP "/no/such/folder/x.mcap", w, NULL, &r), SENSIM_EIO);
  assert_null(r);
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.tf_rate = 0;
  assert_int_equal(sensim_recorder_open(path, w, &rp, &r), SENSIM_EINVAL);
  sensim_recorder_params_init(&rp);
  rp.zstd_level = 40;
  assert_int_equal(sensim_recorder_open(path, w, &rp, &r), SENSIM_EINVAL);
  assert_int_equal(sensim_recorder_close(NULL), SENSIM_OK);
  sensim_recorder_abort(NULL);
  assert_false(test_file_exists(path));

  /* A write that fails at the end (the folder vanished under the
   * temporary file, so the rename fails): EIO, and nothing remains. */
  const char *gone = TMP "/gone";
  SENSIM_OK_OR_FAIL(sensim_mkdirs(gone));
  SENSIM_OK_OR_FAIL(sensim_recorder_open(TMP "/gone/x.mcap", w, NULL, &r));
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, a, &f));
  test_remove_tree(gone);
  assert_int_equal(sensim_recorder_close(r), SENSIM_EIO);
  assert_false(test_file_exists(TMP "/gone/x.mcap"));
  test_assert_no_temp_files(TMP);
  sensim_world_destroy(w);
}

/* A recording with nothing recorded (advanced before any frame, then
 * closed) is still a complete, valid file: the empty queue and summary
 * paths are walked too (the sanitizer run once caught a qsort of a NULL
 * array there). */
static void test_empty_recording_is_a_valid_file(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  const char *path = TMP "/empty.mcap";
  remove(path);
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, 0.5));
  SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, 1.0));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);
  assert_int_equal(mf.nmsgs, 0);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* An organised cloud keeps its rows (height x width, row_step = width x
 * 32) and its NaN points, and says it is not dense. */
static void test_organised_cloud_keeps_rows_and_is_not_dense(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  sensim_sensor *lid = make_sensor(w, "lidar", "ouster", NULL, 10, 0);
  sensim_point p[6];
  memset(p, 0, sizeof p);
  for (int i = 0; i < 6; i++) {
    p[i].x = (float)i;
    p[i].ring = (uint16_t)(i / 3);
    p[i].time_offset = -0.01f * (float)i;
  }
  p[4].x = p[4].y = p[4].z = NAN;
  const char *path = TMP "/organised.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  sensim_frame f = hand_frame(lid, SENSIM_PAYLOAD_POINTS, p, 6, 0.1, 0.1);
  f.width = 3;
  f.height = 2;
  f.window = 0.1;
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, lid, &f));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);
  const rmsg *m = nth(&mf, "/ouster/points", 0);
  cdr_in c = cdr_open(m);
  cdr_header(&c, NULL);
  assert_int_equal(cdr_u32(&c), 2);
  assert_int_equal(cdr_u32(&c), 3);
  uint32_t nf = cdr_u32(&c);
  for (uint32_t i = 0; i < nf; i++) cdr_str(&c), cdr_u32(&c), cdr_u8(&c), cdr_u32(&c);
  cdr_u8(&c);
  assert_int_equal(cdr_u32(&c), 32);
  assert_int_equal(cdr_u32(&c), 96);
  assert_int_equal(cdr_u32(&c), 192);
  const unsigned char *d = cdr_take(&c, 192, 1);
  for (int i = 0; i < 6; i++) {
    float x;
    memcpy(&x, d + 32 * i, 4);
    if (i == 4) assert_true(isnan(x));
    else assert_true(x == (float)i);
    assert_int_equal(rd16(d + 32 * i + 16), i / 3);
  }
  assert_int_equal(cdr_u8(&c), 0); /* is_dense */
  free_mcap(&mf);
  sensim_world_destroy(w);
}

/* A label image becomes two: class ids as 16UC1 and instance ids as
 * 32SC1, pixel for pixel, in the camera's optical frame. */
static void test_labels_become_class_and_instance_images(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 3);
  sensim_sensor *cam = make_sensor(w, "camera", "seg", NULL, 10, 0);
  sensim_label lab[6];
  for (int i = 0; i < 6; i++) lab[i] = (sensim_label){(uint16_t)(10 + i), (uint32_t)(70000 + 3 * i)};
  const char *path = TMP "/labels.mcap";
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, NULL, &r));
  sensim_frame f = hand_frame(cam, SENSIM_PAYLOAD_LABELS, lab, 6, 0.1, 0.1);
  f.width = 3;
  f.height = 2;
  SENSIM_OK_OR_FAIL(sensim_recorder_write(r, cam, &f));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  mcap_file mf;
  read_mcap(path, &mf);
  assert_int_equal(count_topic(&mf, "/seg/image_raw"), 0);
  const char *topics[2] = {"/seg/class_ids", "/seg/instance_ids"};
  const char *enc[2] = {"16UC1", "32SC1"};
  for (int k = 0; k < 2; k++) {
    cdr_in c = cdr_open(nth(&mf, topics[k], 0));
    const char *fid;
    cdr_header(&c, &fid);
    assert_string_equal(fid, "seg_optical");
    assert_int_equal(cdr_u32(&c), 2);
    assert_int_equal(cdr_u32(&c), 3);
    assert_string_equal(cdr_str(&c), enc[k]);
    cdr_u8(&c);
    const uint32_t bpp = k ? 4 : 2;
    assert_int_equal(cdr_u32(&c), 3 * bpp);
    assert_int_equal(cdr_u32(&c), 6 * bpp);
    const unsigned char *d = cdr_take(&c, 6 * bpp, 1);
    for (int i = 0; i < 6; i++)
      assert_int_equal(k ? rd32(d + 4 * i) : rd16(d + 2 * i), k ? lab[i].instance_id : lab[i].class_id);
  }
  /* camera_info follows the frame's size (3 x 2), scaled from 64 x 48. */
  cdr_in c = cdr_open(nth(&mf, "/seg/camera_info", 0));
  cdr_header(&c, NULL);
  assert_int_equal(cdr_u32(&c), 2);
  assert_int_equal(cdr_u32(&c), 3);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

int sensim_test_record(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_crc32_matches_the_standard_check_value),
      cmocka_unit_test(test_recording_verifies_and_stamps_are_capture_times),
      cmocka_unit_test(test_navsatfix_and_imu_cdr_bytes_match_hand_layout),
      cmocka_unit_test(test_pointcloud2_is_velodyne_layout_and_decodes_to_points),
      cmocka_unit_test(test_beams_become_points_without_no_returns),
      cmocka_unit_test(test_organised_cloud_keeps_rows_and_is_not_dense),
      cmocka_unit_test(test_labels_become_class_and_instance_images),
      cmocka_unit_test(test_camera_info_from_fov_and_optical_frame),
      cmocka_unit_test(test_camera_info_of_rational_and_division_lenses),
      cmocka_unit_test(test_messages_from_several_sensors_come_out_sorted),
      cmocka_unit_test(test_interrupted_recording_leaves_no_file),
      cmocka_unit_test(test_empty_recording_is_a_valid_file),
  };
  return cmocka_run_group_tests_name("record", tests, setup, NULL);
}
