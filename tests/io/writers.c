/* tests/io/writers.c: PNG and CSV writers and sensim_mkdirs (PCD:
 * pcd_tests.c, PLY: ply_tests.c).
 *
 * Every writer is checked by reading its file back with an independent
 * reader (libpng for PNG, strtod for CSV) and comparing with what was
 * given. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/point_fixtures.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/writers"

/* A file name in the scratch folder (support/testutil.h's test_path). */
static const char *tmp_path(const char *name) { return test_path(TMP, name); }

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static sensim_frame image_frame(sensim_payload type, uint32_t w, uint32_t h, void *data) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = type;
  f.width = w;
  f.height = h;
  f.count = (size_t)w * h;
  f.data = data;
  f.pose.rot.w = 1;
  return f;
}

/* ---- PNG -------------------------------------------------------------- */

/* Raw rows as stored in the file (no transformations: 16-bit samples stay
 * big-endian), with the IHDR fields. */
typedef struct png_read {
  uint32_t w, h;
  int depth, color;
  unsigned char *pix; /* h rows of rowbytes */
  size_t rowbytes;
} png_read;

static void read_png(const char *path, png_read *r) {
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
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
  r->w = png_get_image_width(png, info);
  r->h = png_get_image_height(png, info);
  r->depth = png_get_bit_depth(png, info);
  r->color = png_get_color_type(png, info);
  r->rowbytes = png_get_rowbytes(png, info);
  r->pix = malloc(r->rowbytes * r->h);
  for (uint32_t y = 0; y < r->h; y++) png_read_row(png, r->pix + y * r->rowbytes, NULL);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  fclose(fp);
}

static void test_png_rgba8_round_trips_through_libpng(void **state) {
  (void)state;
  uint32_t w = 7, h = 5;
  uint8_t px[7 * 5 * 4];
  for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 37 + 11);
  sensim_frame f = image_frame(SENSIM_PAYLOAD_RGBA8, w, h, px);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("rgba.png"), &f));
  png_read r;
  read_png(tmp_path("rgba.png"), &r);
  assert_int_equal(r.w, w);
  assert_int_equal(r.h, h);
  assert_int_equal(r.depth, 8);
  assert_int_equal(r.color, PNG_COLOR_TYPE_RGB_ALPHA);
  assert_memory_equal(r.pix, px, sizeof px);
  free(r.pix);
  test_assert_no_temp_files(TMP);
}

static void test_png_gray8_round_trips(void **state) {
  (void)state;
  uint8_t px[3 * 4];
  for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(255 - 20 * i);
  sensim_frame f = image_frame(SENSIM_PAYLOAD_GRAY8, 3, 4, px);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("gray8.png"), &f));
  png_read r;
  read_png(tmp_path("gray8.png"), &r);
  assert_int_equal(r.depth, 8);
  assert_int_equal(r.color, PNG_COLOR_TYPE_GRAY);
  assert_memory_equal(r.pix, px, sizeof px);
  free(r.pix);
}

/* PNG stores 16-bit samples most significant byte first (ISO/IEC 15948
 * 7.1), whatever the host's byte order. */
static void test_png_gray16_is_stored_big_endian(void **state) {
  (void)state;
  uint16_t px[4] = {0x0102, 0xA0B0, 0, 0xFFFF};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_GRAY16, 2, 2, px);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("gray16.png"), &f));
  png_read r;
  read_png(tmp_path("gray16.png"), &r);
  assert_int_equal(r.depth, 16);
  assert_int_equal(r.color, PNG_COLOR_TYPE_GRAY);
  const unsigned char want[8] = {0x01, 0x02, 0xA0, 0xB0, 0, 0, 0xFF, 0xFF};
  assert_memory_equal(r.pix, want, 4);
  assert_memory_equal(r.pix + r.rowbytes, want + 4, 4);
  free(r.pix);
}

/* io.h: depth in millimetres, clamped to 65.535 m; no hit (0, NaN,
 * negative) is 0. */
static void test_png_depth_is_rounded_millimetres_clamped(void **state) {
  (void)state;
  float d[6] = {0.0f, 1.2346f, 70.0f, NAN, -1.0f, 0.0004f};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_DEPTH_F32, 3, 2, d);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("depth.png"), &f));
  png_read r;
  read_png(tmp_path("depth.png"), &r);
  assert_int_equal(r.depth, 16);
  uint16_t want[6] = {0, 1235, 65535, 0, 0, 0};
  for (int i = 0; i < 6; i++) {
    const unsigned char *p = r.pix + (i / 3) * r.rowbytes + 2 * (i % 3);
    assert_int_equal((p[0] << 8) | p[1], want[i]);
  }
  free(r.pix);
}

static void test_png_labels_store_class_ids(void **state) {
  (void)state;
  sensim_label l[3] = {{0, 0}, {7, 100}, {65535, 3}};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_LABELS, 3, 1, l);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("labels.png"), &f));
  png_read r;
  read_png(tmp_path("labels.png"), &r);
  const unsigned char want[6] = {0, 0, 0, 7, 0xFF, 0xFF};
  assert_memory_equal(r.pix, want, 6);
  free(r.pix);
}

static void test_png_refuses_non_image_payloads(void **state) {
  (void)state;
  sensim_point p[2];
  memset(p, 0, sizeof p);
  sensim_frame f = image_frame(SENSIM_PAYLOAD_POINTS, 2, 1, p);
  assert_int_equal(sensim_write_png(tmp_path("points.png"), &f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "points"));
  assert_false(test_file_exists(tmp_path("points.png")));
  float rgb[3] = {0, 0, 0};
  f = image_frame(SENSIM_PAYLOAD_RGB_F32, 1, 1, rgb);
  assert_int_equal(sensim_write_png(tmp_path("rgb.png"), &f), SENSIM_ETYPE);
  /* A frame whose count disagrees with its size is refused, not read past. */
  uint8_t px[4] = {0};
  f = image_frame(SENSIM_PAYLOAD_RGBA8, 1, 1, px);
  f.width = 3;
  assert_int_equal(sensim_write_png(tmp_path("bad.png"), &f), SENSIM_EINVAL);
  assert_false(test_file_exists(tmp_path("bad.png")));
  test_assert_no_temp_files(TMP);
}

/* rgb16: 16-bit RGB, each sample big-endian, R G B in that order. */
static void test_png_rgb16_is_16bit_rgb_big_endian(void **state) {
  (void)state;
  uint16_t px[2 * 2 * 3] = {0x0102, 0x0304, 0x0506, 0xFFFF, 0, 0x8000,
                            0x1234, 0xABCD, 0x00FF, 0xFF00, 1, 2};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_RGB16, 2, 2, px);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("rgb16.png"), &f));
  png_read r;
  read_png(tmp_path("rgb16.png"), &r);
  assert_int_equal(r.w, 2);
  assert_int_equal(r.h, 2);
  assert_int_equal(r.depth, 16);
  assert_int_equal(r.color, PNG_COLOR_TYPE_RGB);
  assert_int_equal(r.rowbytes, 12);
  for (int i = 0; i < 12; i++) {
    const unsigned char *p = r.pix + (i / 6) * r.rowbytes + 2 * (i % 6);
    assert_int_equal((p[0] << 8) | p[1], px[i]);
  }
  free(r.pix);
  test_assert_no_temp_files(TMP);
}

/* raw16: the mosaic's digital numbers as 16-bit grey, unchanged. */
static void test_png_raw16_is_16bit_grey_of_the_numbers(void **state) {
  (void)state;
  uint16_t px[3 * 2] = {0, 4095, 0x0A0B, 65535, 17, 0x8001};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_RAW16, 3, 2, px);
  f.cfa = SENSIM_CFA_GRBG;
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("raw16.png"), &f));
  png_read r;
  read_png(tmp_path("raw16.png"), &r);
  assert_int_equal(r.depth, 16);
  assert_int_equal(r.color, PNG_COLOR_TYPE_GRAY);
  for (int i = 0; i < 6; i++) {
    const unsigned char *p = r.pix + (i / 3) * r.rowbytes + 2 * (i % 3);
    assert_int_equal((p[0] << 8) | p[1], px[i]);
  }
  free(r.pix);
}

/* Float images are not PNG payloads: SENSIM_ETYPE, no file. */
static void test_png_refuses_float_images(void **state) {
  (void)state;
  float v[6] = {0, 0.5f, 1, 0, 0.5f, 1};
  static const sensim_payload types[] = {SENSIM_PAYLOAD_GRAY_F32, SENSIM_PAYLOAD_RAW_F32,
                                         SENSIM_PAYLOAD_RGB_F32};
  for (int t = 0; t < 3; t++) {
    sensim_frame f = image_frame(types[t], t == 2 ? 2 : 6, 1, v);
    assert_int_equal(sensim_write_png(tmp_path("float.png"), &f), SENSIM_ETYPE);
    assert_non_null(strstr(sensim_last_error(), sensim_payload_name(types[t])));
    assert_false(test_file_exists(tmp_path("float.png")));
  }
  test_assert_no_temp_files(TMP);
}

static void test_png_unwritable_path_is_eio(void **state) {
  (void)state;
  uint8_t px[4] = {1, 2, 3, 4};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_RGBA8, 1, 1, px);
  assert_int_equal(sensim_write_png(TMP "/no/such/folder/x.png", &f), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "x.png"));
  /* A folder that is a file. */
  FILE *fp = fopen(tmp_path("plain_file"), "w");
  assert_non_null(fp);
  fclose(fp);
  assert_int_equal(sensim_write_png(TMP "/plain_file/x.png", &f), SENSIM_EIO);
}

/* A failed write leaves the previous file of that name untouched. */
static void test_png_failed_write_keeps_previous_file(void **state) {
  (void)state;
  uint8_t px[4] = {9, 8, 7, 6};
  sensim_frame f = image_frame(SENSIM_PAYLOAD_RGBA8, 1, 1, px);
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("keep.png"), &f));
  f.count = 0; /* inconsistent: refused */
  assert_int_not_equal(sensim_write_png(tmp_path("keep.png"), &f), SENSIM_OK);
  png_read r;
  read_png(tmp_path("keep.png"), &r);
  assert_memory_equal(r.pix, px, 4);
  free(r.pix);
  test_assert_no_temp_files(TMP);
}

/* ---- points (the CSV test's; PCD is tested in pcd_tests.c) ---------- */

/* ---- CSV -------------------------------------------------------------- */

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* Parse `n` comma-separated numbers of one line; returns the next line. */
static const char *parse_row(const char *s, double *v, int n) {
  for (int k = 0; k < n; k++) {
    char *end;
    v[k] = strtod(s, &end);
    assert_true(end > s);
    s = end;
    assert_int_equal(*s, k + 1 < n ? ',' : '\n');
    s++;
  }
  return s;
}

static void test_csv_gnss_rows_read_back_exactly(void **state) {
  (void)state;
  sensim_csv *csv = NULL;
  const char *path = tmp_path("gnss.csv");
  unlink(path);
  SENSIM_OK_OR_FAIL(sensim_csv_open(path, SENSIM_PAYLOAD_GNSS, &csv));
  sensim_gnss_fix g[3];
  memset(g, 0, sizeof g);
  for (int i = 0; i < 3; i++) {
    g[i].lat = 47.123456789012 + i * 1e-9;
    g[i].lon = 8.5 - i / 3.0;
    g[i].height = 400.25 + i;
    for (int k = 0; k < 3; k++) {
      g[i].enu[k] = 0.1 * i + k / 7.0;
      g[i].vel_enu[k] = -k * 0.3;
    }
    g[i].cov_enu[0] = 1, g[i].cov_enu[4] = 2, g[i].cov_enu[8] = 4.5;
    g[i].fix_type = 1;
    sensim_frame f;
    memset(&f, 0, sizeof f);
    f.type = SENSIM_PAYLOAD_GNSS;
    f.width = f.height = 1;
    f.count = 1;
    f.data = &g[i];
    f.t_capture = 0.1 * i;
    SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &f));
  }
  /* All or nothing: the file appears under its name only when closed. */
  assert_false(test_file_exists(path));
  SENSIM_OK_OR_FAIL(sensim_csv_close(csv));
  char *s = test_slurp(path, NULL);
  assert_int_equal(count_lines(s), 4);
  const char *hdr = "t_capture,lat,lon,height,east,north,up,vel_east,vel_north,vel_up,"
                    "cov_ee,cov_nn,cov_uu,fix_type,speed,course,hdop,vdop,pdop,satellites\n";
  assert_memory_equal(s, hdr, strlen(hdr));
  const char *line = s + strlen(hdr);
  for (int i = 0; i < 3; i++) {
    double v[20];
    line = parse_row(line, v, 20);
    assert_true(v[0] == 0.1 * i);
    assert_true(v[1] == g[i].lat && v[2] == g[i].lon && v[3] == g[i].height);
    for (int k = 0; k < 3; k++) {
      assert_true(v[4 + k] == g[i].enu[k]);
      assert_true(v[7 + k] == g[i].vel_enu[k]);
    }
    assert_true(v[10] == 1 && v[11] == 2 && v[12] == 4.5 && v[13] == 1);
    assert_true(v[14] == g[i].speed && v[15] == g[i].course && v[16] == g[i].hdop);
    assert_true(v[17] == g[i].vdop && v[18] == g[i].pdop && v[19] == g[i].satellites);
  }
  free(s);
}

static void test_csv_imu_and_points_layouts(void **state) {
  (void)state;
  sensim_csv *csv = NULL;
  SENSIM_OK_OR_FAIL(sensim_csv_open(tmp_path("imu.csv"), SENSIM_PAYLOAD_IMU, &csv));
  sensim_imu_sample m = {.accel = {0.01, -0.02, 9.80665}, .gyro = {1e-3, 2e-3, -3e-3}};
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_IMU;
  f.width = f.height = 1;
  f.count = 1;
  f.data = &m;
  f.t_capture = 0.005;
  SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &f));
  SENSIM_OK_OR_FAIL(sensim_csv_close(csv));
  char *s = test_slurp(tmp_path("imu.csv"), NULL);
  assert_memory_equal(s, "t,ax,ay,az,gx,gy,gz\n", 20);
  double v[7];
  parse_row(s + 20, v, 7);
  assert_true(v[0] == 0.005 && v[3] == 9.80665 && v[6] == -3e-3);
  free(s);

  /* Points: one row per point, frames appended one after another. */
  SENSIM_OK_OR_FAIL(sensim_csv_open(tmp_path("pts.csv"), SENSIM_PAYLOAD_POINTS, &csv));
  sensim_point p[5];
  io_sample_points(p, 5);
  sensim_frame a = io_points_frame(p, 3), b = io_points_frame(p + 3, 2);
  b.t_capture = 1.6;
  SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &a));
  SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &b));
  SENSIM_OK_OR_FAIL(sensim_csv_close(csv));
  s = test_slurp(tmp_path("pts.csv"), NULL);
  assert_int_equal(count_lines(s), 6);
  const char *hdr = "t_capture,x,y,z,intensity,ring,time,return,label,instance\n";
  assert_memory_equal(s, hdr, strlen(hdr));
  const char *line = s + strlen(hdr);
  for (int i = 0; i < 5; i++) {
    double r[10];
    line = parse_row(line, r, 10);
    assert_true(r[0] == (i < 3 ? 1.5 : 1.6));
    assert_true((float)r[1] == p[i].x && (float)r[2] == p[i].y && (float)r[3] == p[i].z);
    assert_true(r[5] == p[i].ring && r[7] == p[i].return_index);
    assert_true(r[8] == p[i].class_id && r[9] == p[i].instance_id);
  }
  free(s);
}

static void test_csv_refuses_wrong_types_and_stays_usable(void **state) {
  (void)state;
  sensim_csv *csv = NULL;
  assert_int_equal(sensim_csv_open(tmp_path("x.csv"), SENSIM_PAYLOAD_RGBA8, &csv), SENSIM_ETYPE);
  assert_null(csv);
  assert_int_equal(sensim_csv_open(TMP "/nowhere/x.csv", SENSIM_PAYLOAD_IMU, &csv), SENSIM_EIO);
  assert_null(csv);
  SENSIM_OK_OR_FAIL(sensim_csv_open(tmp_path("imu2.csv"), SENSIM_PAYLOAD_IMU, &csv));
  sensim_gnss_fix g;
  memset(&g, 0, sizeof g);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_GNSS;
  f.count = 1;
  f.data = &g;
  assert_int_equal(sensim_csv_append(csv, &f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "gnss"));
  sensim_imu_sample m = {.accel = {1, 2, 3}, .gyro = {4, 5, 6}};
  f.type = SENSIM_PAYLOAD_IMU;
  f.data = &m;
  SENSIM_OK_OR_FAIL(sensim_csv_append(csv, &f));
  SENSIM_OK_OR_FAIL(sensim_csv_close(csv));
  char *s = test_slurp(tmp_path("imu2.csv"), NULL);
  assert_int_equal(count_lines(s), 2);
  free(s);
  assert_int_equal(sensim_csv_close(NULL), SENSIM_OK);
  test_assert_no_temp_files(TMP);
}

/* ---- mkdirs ----------------------------------------------------------- */

static void test_mkdirs_creates_nested_folders_and_rejects_files(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/deep/a/b//c/"));
  struct stat st;
  assert_int_equal(stat(TMP "/deep/a/b/c", &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/deep/a/b/c")); /* existing: fine */
  FILE *fp = fopen(TMP "/deep/file", "w");
  assert_non_null(fp);
  fclose(fp);
  assert_int_equal(sensim_mkdirs(TMP "/deep/file/sub"), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "deep/file"));
  assert_int_equal(sensim_mkdirs(""), SENSIM_EINVAL);
  assert_int_equal(sensim_mkdirs(NULL), SENSIM_EINVAL);
}

int sensim_test_writers(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_png_rgba8_round_trips_through_libpng),
      cmocka_unit_test(test_png_gray8_round_trips),
      cmocka_unit_test(test_png_gray16_is_stored_big_endian),
      cmocka_unit_test(test_png_depth_is_rounded_millimetres_clamped),
      cmocka_unit_test(test_png_labels_store_class_ids),
      cmocka_unit_test(test_png_refuses_non_image_payloads),
      cmocka_unit_test(test_png_rgb16_is_16bit_rgb_big_endian),
      cmocka_unit_test(test_png_raw16_is_16bit_grey_of_the_numbers),
      cmocka_unit_test(test_png_refuses_float_images),
      cmocka_unit_test(test_png_unwritable_path_is_eio),
      cmocka_unit_test(test_png_failed_write_keeps_previous_file),
      cmocka_unit_test(test_csv_gnss_rows_read_back_exactly),
      cmocka_unit_test(test_csv_imu_and_points_layouts),
      cmocka_unit_test(test_csv_refuses_wrong_types_and_stays_usable),
      cmocka_unit_test(test_mkdirs_creates_nested_folders_and_rejects_files),
  };
  return cmocka_run_group_tests_name("writers", tests, setup, NULL);
}
