/* tests/io/golden_tests.c: CSV and PNG files of every payload that has a
 * CSV or PNG layout, compared with files written by an earlier build
 * (tests/data/golden/).
 *
 * The writers' layouts are an interface: scripts read these files by column
 * index and compare them across runs bit for bit. When the code that writes
 * them moves (the payload table), the bytes must not change. The frames
 * hold the cases where printing differs most easily: NaN of either sign,
 * -0, infinities, subnormals, doubles needing 17 digits, empty point
 * frames, depths on the rounding boundary and beyond 65.535 m.
 *
 * CSV files are compared byte for byte. PNG files are compared by their
 * IHDR fields and decoded rows: the compressed bytes belong to zlib, whose
 * version the golden files should not pin.
 *
 * SENSIM_GOLDEN_WRITE=1 in the environment writes the golden files instead
 * of comparing: only for a deliberate change of layout. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/golden"
#define GOLDEN SENSIM_TEST_DATA "/golden"

static char *path_in(const char *dir, const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static int setup(void **state) {
  (void)state;
  if (getenv("SENSIM_GOLDEN_WRITE") && sensim_mkdirs(GOLDEN) != SENSIM_OK) return -1;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static sensim_frame frame_of(sensim_payload type, uint32_t w, uint32_t h, void *data, double t) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = type;
  f.width = w;
  f.height = h;
  f.count = (size_t)w * h;
  f.data = data;
  f.t_capture = t;
  f.pose.rot.w = 1;
  return f;
}

/* In write mode, copy the fresh file to the golden folder; otherwise
 * return the golden file's bytes (the test fails if it is missing). */
static char *golden_or_write(const char *name, const char *fresh, size_t n, size_t *len) {
  if (getenv("SENSIM_GOLDEN_WRITE")) {
    FILE *fp = fopen(path_in(GOLDEN, name), "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(fresh, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
  }
  char *g = test_slurp_if(path_in(GOLDEN, name), len);
  if (!g) fail_msg("no golden file %s (SENSIM_GOLDEN_WRITE=1 writes it)", path_in(GOLDEN, name));
  return g;
}

static void compare_csv(const char *name) {
  size_t n = 0, gn = 0;
  char *fresh = test_slurp(path_in(TMP, name), &n);
  char *gold = golden_or_write(name, fresh, n, &gn);
  if (n != gn || memcmp(fresh, gold, n) != 0) {
    size_t i = 0;
    while (i < n && i < gn && fresh[i] == gold[i]) i++;
    fail_msg("%s differs from the golden file at byte %zu", name, i);
  }
  free(fresh);
  free(gold);
}

static void write_csv(const char *name, sensim_payload type, const sensim_frame *f, size_t n) {
  sensim_csv *csv = NULL;
  SENSIM_OK_OR_FAIL(sensim_csv_open(path_in(TMP, name), type, &csv));
  for (size_t i = 0; i < n; i++) SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &f[i]));
  SENSIM_OK_OR_FAIL(sensim_csv_close(csv));
  compare_csv(name);
}

static void test_csv_gnss_matches_golden(void **state) {
  (void)state;
  sensim_gnss_fix g[3];
  memset(g, 0, sizeof g);
  g[0].lat = 47.123456789012345, g[0].lon = 8.5 - 1.0 / 3.0, g[0].height = 400.25;
  for (int k = 0; k < 3; k++) g[0].enu[k] = 0.1 + k / 7.0, g[0].vel_enu[k] = -k * 0.3;
  g[0].cov_enu[0] = 1, g[0].cov_enu[4] = 2, g[0].cov_enu[8] = 4.5;
  g[0].speed = 0.1 + 0.2, g[0].course = 359.99999999999994, g[0].hdop = 0.9, g[0].vdop = 1.5;
  g[0].pdop = sqrt(0.81 + 2.25), g[0].satellites = 10, g[0].fix_type = 1;
  /* An outage: positions NaN, fix_type 0. */
  g[1] = g[0];
  g[1].lat = g[1].lon = g[1].height = NAN;
  for (int k = 0; k < 3; k++) g[1].enu[k] = g[1].vel_enu[k] = NAN;
  g[1].speed = g[1].course = NAN;
  g[1].fix_type = 0, g[1].satellites = 0;
  /* Printing's edge cases. */
  g[2].lat = -0.0, g[2].lon = 4.9e-324, g[2].height = -INFINITY, g[2].enu[0] = copysign(NAN, -1.0);
  g[2].enu[1] = 1e300, g[2].enu[2] = -2.2250738585072014e-308, g[2].hdop = INFINITY;
  sensim_frame f[3];
  for (int i = 0; i < 3; i++) f[i] = frame_of(SENSIM_PAYLOAD_GNSS, 1, 1, &g[i], 0.1 * (i + 1));
  write_csv("gnss.csv", SENSIM_PAYLOAD_GNSS, f, 3);
}

static void test_csv_imu_and_mag_match_golden(void **state) {
  (void)state;
  sensim_imu_sample m[2] = {{.accel = {0.01, -0.02, 9.80665}, .gyro = {1e-3, 2e-3, -3e-3}},
                            {.accel = {1.0 / 3.0, -0.0, 1e-20}, .gyro = {NAN, INFINITY, 123456789.123456789}}};
  sensim_frame f[2];
  for (int i = 0; i < 2; i++) f[i] = frame_of(SENSIM_PAYLOAD_IMU, 1, 1, &m[i], 0.005 * (i + 1) + 0.1);
  write_csv("imu.csv", SENSIM_PAYLOAD_IMU, f, 2);

  sensim_mag_sample b[2] = {{.field = {2.1e-5, -3.3e-6, 4.5e-5}}, {.field = {1.0 / 7.0 * 1e-5, -0.0, NAN}}};
  for (int i = 0; i < 2; i++) f[i] = frame_of(SENSIM_PAYLOAD_MAG, 1, 1, &b[i], 0.01 * (i + 1));
  write_csv("mag.csv", SENSIM_PAYLOAD_MAG, f, 2);
}

static void test_csv_detection_matches_golden(void **state) {
  (void)state;
  sensim_detection d[2];
  memset(d, 0, sizeof d);
  d[0].detected = 1, d[0].instance_id = 4000000000u, d[0].class_id = 65535;
  d[0].range = 12.345678901234567, d[0].azimuth = -0.5, d[0].elevation = 1.0 / 3.0;
  d[0].point[0] = 1, d[0].point[1] = -2, d[0].point[2] = 0.1 + 0.2;
  d[0].speed_diff = -0.0, d[0].radial_speed = 1e-310;
  d[0].rel_vel[0] = INFINITY, d[0].rel_vel[1] = -INFINITY, d[0].rel_vel[2] = 3;
  d[0].speed = 0.25;
  /* Nothing detected: the unknowns are NaN, one of them negative (the cone
   * writer spells every NaN "nan"). */
  d[1].range = d[1].azimuth = d[1].elevation = NAN;
  d[1].speed_diff = copysign(NAN, -1.0), d[1].radial_speed = NAN, d[1].speed = NAN;
  for (int k = 0; k < 3; k++) d[1].point[k] = d[1].rel_vel[k] = NAN;
  sensim_frame f[2];
  for (int i = 0; i < 2; i++) f[i] = frame_of(SENSIM_PAYLOAD_DETECTION, 1, 1, &d[i], 0.05 * (i + 1));
  write_csv("detection.csv", SENSIM_PAYLOAD_DETECTION, f, 2);
}

static void test_csv_points_match_golden(void **state) {
  (void)state;
  sensim_point p[5];
  memset(p, 0, sizeof p);
  for (int i = 0; i < 5; i++) {
    p[i].x = 1.0f / (float)(i + 3);
    p[i].y = -2.5f * (float)i;
    p[i].z = 0.1f + (float)i * 1e-3f;
    p[i].intensity = 0.25f * (float)(i % 4);
    p[i].time_offset = -1e-4f * (float)i;
    p[i].ring = (uint16_t)(i * 16383);
    p[i].return_index = (uint8_t)(i % 2);
    p[i].class_id = (uint16_t)(i * 16383); /* up to the largest class id, 65535 */
    p[i].instance_id = (uint32_t)i * 1073741823u; /* up to 2^32 - 4 */
  }
  p[4].x = p[4].y = p[4].z = NAN; /* an organised cloud's missing point */
  p[4].class_id = 65535;
  p[3].y = -0.0f;
  sensim_frame f[3];
  f[0] = frame_of(SENSIM_PAYLOAD_POINTS, 3, 1, p, 0.1 + 0.2);
  f[1] = frame_of(SENSIM_PAYLOAD_POINTS, 0, 1, p, 0.4); /* an empty scan writes no row */
  f[2] = frame_of(SENSIM_PAYLOAD_POINTS, 1, 2, p + 3, 1e-9);
  write_csv("points.csv", SENSIM_PAYLOAD_POINTS, f, 3);
}

/* ---- PNG -------------------------------------------------------------- */

/* IHDR fields then the decoded rows as stored (16-bit samples big-endian):
 * what the writer decides, whatever zlib makes of it. */
static unsigned char *png_content(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) fail_msg("cannot open %s", path);
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  assert_non_null(png);
  assert_non_null(info);
  if (setjmp(png_jmpbuf(png))) {
    fclose(fp);
    fail_msg("libpng could not read %s", path);
  }
  png_init_io(png, fp);
  png_read_info(png, info);
  uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  size_t rowbytes = png_get_rowbytes(png, info);
  unsigned char *buf = malloc(16 + rowbytes * h);
  assert_non_null(buf);
  int hdr[4] = {(int)w, (int)h, png_get_bit_depth(png, info), png_get_color_type(png, info)};
  memcpy(buf, hdr, sizeof hdr);
  for (uint32_t y = 0; y < h; y++) png_read_row(png, buf + 16 + y * rowbytes, NULL);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  fclose(fp);
  *len = 16 + rowbytes * h;
  return buf;
}

static void write_png(const char *name, sensim_payload type, uint32_t w, uint32_t h, void *data) {
  sensim_frame f = frame_of(type, w, h, data, 0);
  SENSIM_OK_OR_FAIL(sensim_write_png(path_in(TMP, name), &f));
  size_t n = 0, gn = 0;
  char *fresh = test_slurp(path_in(TMP, name), &n);
  char *gold = golden_or_write(name, fresh, n, &gn);
  free(fresh);
  free(gold);
  unsigned char *a = png_content(path_in(TMP, name), &n);
  unsigned char *b = png_content(path_in(GOLDEN, name), &gn);
  assert_int_equal(n, gn);
  assert_memory_equal(a, b, n);
  free(a);
  free(b);
}

static void test_png_every_image_payload_matches_golden(void **state) {
  (void)state;
  uint8_t u8[3 * 2 * 4];
  for (size_t i = 0; i < sizeof u8; i++) u8[i] = (uint8_t)(i * 37 + 5);
  write_png("rgba8.png", SENSIM_PAYLOAD_RGBA8, 3, 2, u8);
  write_png("gray8.png", SENSIM_PAYLOAD_GRAY8, 4, 3, u8);
  uint16_t u16[3 * 2 * 3];
  for (size_t i = 0; i < 18; i++) u16[i] = (uint16_t)(i * 3851 + 7);
  write_png("gray16.png", SENSIM_PAYLOAD_GRAY16, 3, 2, u16);
  write_png("raw16.png", SENSIM_PAYLOAD_RAW16, 2, 3, u16);
  write_png("rgb16.png", SENSIM_PAYLOAD_RGB16, 3, 2, u16);
  /* No hit (NaN, negative, 0), the half-millimetre boundary, beyond the
   * clamp. */
  float depth[8] = {NAN, -1.0f, 0.0f, 0.0004f, 0.0005f, 1.2345f, 65.535f, 70.0f};
  write_png("depth_f32.png", SENSIM_PAYLOAD_DEPTH_F32, 4, 2, depth);
  sensim_label labels[6] = {{0, 0}, {1, 7}, {65535, 1}, {300, 4000000000u}, {2, 2}, {0, 9}};
  write_png("labels.png", SENSIM_PAYLOAD_LABELS, 3, 2, labels);
}

int sensim_test_payload_golden(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_csv_gnss_matches_golden),
      cmocka_unit_test(test_csv_imu_and_mag_match_golden),
      cmocka_unit_test(test_csv_detection_matches_golden),
      cmocka_unit_test(test_csv_points_match_golden),
      cmocka_unit_test(test_png_every_image_payload_matches_golden),
  };
  return cmocka_run_group_tests_name("payload_golden", tests, setup, NULL);
}
