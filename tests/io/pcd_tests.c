/* tests/io/pcd_tests.c: the PCD writer (io/pcd.c), binary and ascii, read
 * back by a parser of the PCD v0.7 header (FIELDS, SIZE, TYPE, COUNT give
 * each field's name, bytes and type, as PCL reads them) and its packed
 * little-endian records or text lines; every field compared with what was
 * written, the semantic ids (label = class id, instance) included. Moved
 * from writers.c when the ids' reader made that file too long. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/point_fixtures.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/pcd"

/* A file name in the scratch folder (support/testutil.h's test_path). */
static const char *tmp_path(const char *name) { return test_path(TMP, name); }

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static const char *pcd_header_prefix =
    "# .PCD v0.7 - Point Cloud Data file format\n"
    "VERSION 0.7\n"
    "FIELDS x y z intensity ring time return label instance\n"
    "SIZE 4 4 4 4 2 4 1 4 4\n"
    "TYPE F F F F U F U U U\n"
    "COUNT 1 1 1 1 1 1 1 1 1\n"
    "WIDTH 5\n"
    "HEIGHT 1\n"
    "VIEWPOINT 1 -2 0.5 1 0 0 0\n"
    "POINTS 5\n";

static float le_f32(const unsigned char *b) {
  uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  float f;
  memcpy(&f, &v, 4);
  return f;
}

/* A PCD reader as PCL's works: the FIELDS, SIZE, TYPE and COUNT lines give
 * each field's name, bytes and type; a binary record is the fields packed
 * in that order, an ascii line their values in that order. */
typedef struct pcd_layout {
  int n;
  char name[16][16];
  int size[16];
  char type[16];
  int offset[16];
  int record;
} pcd_layout;

static const char *pcd_layout_read(const char *s, pcd_layout *L) {
  memset(L, 0, sizeof *L);
  const char *f = strstr(s, "\nFIELDS "), *z = strstr(s, "\nSIZE "), *t = strstr(s, "\nTYPE "),
             *c = strstr(s, "\nCOUNT "), *data = strstr(s, "\nDATA ");
  assert_true(f && z && t && c && data);
  f += 8, z += 6, t += 6, c += 7;
  for (; *f != '\n'; L->n++) {
    assert_true(L->n < 16);
    int used = 0, count = 0;
    assert_int_equal(sscanf(f, "%15s%n", L->name[L->n], &used), 1);
    f += used;
    assert_int_equal(sscanf(z, "%d%n", &L->size[L->n], &used), 1);
    z += used;
    assert_int_equal(sscanf(t, " %c%n", &L->type[L->n], &used), 1);
    t += used;
    assert_int_equal(sscanf(c, "%d%n", &count, &used), 1);
    c += used;
    assert_int_equal(count, 1);
    L->offset[L->n] = L->record;
    L->record += L->size[L->n];
  }
  return strchr(data + 1, '\n') + 1;
}

static int pcd_field(const pcd_layout *L, const char *name) {
  for (int k = 0; k < L->n; k++)
    if (!strcmp(L->name[k], name)) return k;
  fail_msg("PCD has no field '%s'", name);
  return -1;
}

static uint32_t le_u(const unsigned char *b, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint32_t)b[i] << (8 * i);
  return v;
}

/* The semantic ids as a labelled-cloud reader finds them: `label` a
 * 4-byte unsigned (PCL's PointXYZL) holding the class id, `instance` a
 * 4-byte unsigned. */
static void pcd_assert_id_fields(const pcd_layout *L) {
  const int l = pcd_field(L, "label"), n = pcd_field(L, "instance");
  assert_true(L->size[l] == 4 && L->type[l] == 'U');
  assert_true(L->size[n] == 4 && L->type[n] == 'U');
}

static void test_pcd_binary_round_trips(void **state) {
  (void)state;
  sensim_point p[5];
  io_sample_points(p, 5);
  sensim_frame f = io_points_frame(p, 5);
  SENSIM_OK_OR_FAIL(sensim_write_pcd(tmp_path("b.pcd"), &f, 1));
  size_t len;
  char *s = test_slurp(tmp_path("b.pcd"), &len);
  size_t hl = strlen(pcd_header_prefix);
  assert_memory_equal(s, pcd_header_prefix, hl);
  assert_memory_equal(s + hl, "DATA binary\n", 12);
  pcd_layout L;
  const unsigned char *b = (const unsigned char *)pcd_layout_read(s, &L);
  assert_ptr_equal(b, (const unsigned char *)s + hl + 12);
  assert_int_equal(L.record, 31);
  pcd_assert_id_fields(&L);
  assert_int_equal(len, hl + 12 + 5 * 31);
  const int o[9] = {L.offset[pcd_field(&L, "x")],      L.offset[pcd_field(&L, "y")],
                    L.offset[pcd_field(&L, "z")],      L.offset[pcd_field(&L, "intensity")],
                    L.offset[pcd_field(&L, "ring")],   L.offset[pcd_field(&L, "time")],
                    L.offset[pcd_field(&L, "return")], L.offset[pcd_field(&L, "label")],
                    L.offset[pcd_field(&L, "instance")]};
  for (int i = 0; i < 5; i++, b += L.record) {
    assert_true(le_f32(b + o[0]) == p[i].x);
    assert_true(le_f32(b + o[1]) == p[i].y);
    assert_true(le_f32(b + o[2]) == p[i].z);
    assert_true(le_f32(b + o[3]) == p[i].intensity);
    assert_int_equal(le_u(b + o[4], 2), p[i].ring);
    assert_true(le_f32(b + o[5]) == p[i].time_offset);
    assert_int_equal(b[o[6]], p[i].return_index);
    assert_int_equal(le_u(b + o[7], 4), p[i].class_id);
    assert_int_equal(le_u(b + o[8], 4), p[i].instance_id);
  }
  free(s);
}

static void test_pcd_ascii_round_trips_exactly(void **state) {
  (void)state;
  sensim_point p[5];
  io_sample_points(p, 5);
  sensim_frame f = io_points_frame(p, 5);
  SENSIM_OK_OR_FAIL(sensim_write_pcd(tmp_path("a.pcd"), &f, 0));
  char *s = test_slurp(tmp_path("a.pcd"), NULL);
  size_t hl = strlen(pcd_header_prefix);
  assert_memory_equal(s, pcd_header_prefix, hl);
  assert_memory_equal(s + hl, "DATA ascii\n", 11);
  pcd_layout L;
  char *line = (char *)pcd_layout_read(s, &L);
  assert_ptr_equal(line, s + hl + 11);
  pcd_assert_id_fields(&L);
  for (int i = 0; i < 5; i++) {
    char *end;
    double v[16];
    for (int k = 0; k < L.n; k++) {
      /* floats as a float reader gets them; unsigned fields as integers */
      v[k] = L.type[k] == 'F' ? (double)strtof(line, &end) : (double)strtoul(line, &end, 10);
      assert_true(end > line);
      line = end;
    }
    assert_int_equal(*line, '\n');
    line++;
    assert_true(v[pcd_field(&L, "x")] == p[i].x && v[pcd_field(&L, "y")] == p[i].y && v[pcd_field(&L, "z")] == p[i].z);
    assert_true(v[pcd_field(&L, "intensity")] == p[i].intensity && v[pcd_field(&L, "time")] == p[i].time_offset);
    assert_int_equal((int)v[pcd_field(&L, "ring")], p[i].ring);
    assert_int_equal((int)v[pcd_field(&L, "return")], p[i].return_index);
    assert_true(v[pcd_field(&L, "label")] == p[i].class_id);
    assert_true(v[pcd_field(&L, "instance")] == p[i].instance_id);
  }
  assert_int_equal(*line, '\0');
  free(s);
}

static void test_pcd_empty_cloud_is_valid(void **state) {
  (void)state;
  sensim_frame f = io_points_frame(NULL, 0);
  SENSIM_OK_OR_FAIL(sensim_write_pcd(tmp_path("empty.pcd"), &f, 1));
  char *s = test_slurp(tmp_path("empty.pcd"), NULL);
  assert_non_null(strstr(s, "\nPOINTS 0\nDATA binary\n"));
  free(s);
}

static void test_pcd_keeps_an_organised_grid(void **state) {
  (void)state;
  sensim_point p[6];
  io_sample_points(p, 6);
  sensim_frame f = io_points_frame(p, 6);
  f.width = 3; /* columns x rows, as "organized" gives them */
  f.height = 2;
  SENSIM_OK_OR_FAIL(sensim_write_pcd(tmp_path("grid.pcd"), &f, 1));
  char *s = test_slurp(tmp_path("grid.pcd"), NULL);
  assert_non_null(strstr(s, "\nWIDTH 3\nHEIGHT 2\n"));
  assert_non_null(strstr(s, "\nPOINTS 6\n"));
  free(s);
}

static void test_pcd_refuses_wrong_payload_and_bad_path(void **state) {
  (void)state;
  uint8_t px[4] = {0};
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_RGBA8;
  f.width = f.height = 1;
  f.count = 1;
  f.data = px;
  assert_int_equal(sensim_write_pcd(tmp_path("img.pcd"), &f, 1), SENSIM_ETYPE);
  assert_false(test_file_exists(tmp_path("img.pcd")));
  sensim_point p[1];
  io_sample_points(p, 1);
  f = io_points_frame(p, 1);
  assert_int_equal(sensim_write_pcd(TMP "/missing/dir/x.pcd", &f, 1), SENSIM_EIO);
  test_assert_no_temp_files(TMP);
}

int sensim_test_pcd(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pcd_binary_round_trips),
      cmocka_unit_test(test_pcd_keeps_an_organised_grid),
      cmocka_unit_test(test_pcd_ascii_round_trips_exactly),
      cmocka_unit_test(test_pcd_empty_cloud_is_valid),
      cmocka_unit_test(test_pcd_refuses_wrong_payload_and_bad_path),
  };
  return cmocka_run_group_tests_name("pcd", tests, setup, NULL);
}
