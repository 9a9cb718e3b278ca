/* tests/io/ply_tests.c: the PLY writer.
 *
 * Files are read back with a small independent PLY reader that knows only
 * the format (Turk 1994): it takes the property list and types from the
 * header and decodes the body by them, so a header that does not describe
 * its body fails the round trip. Assimp's PLY importer, a third-party
 * reader already linked for mesh import, checks the coordinates once more. */
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/ply"

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* ---- an independent reader -------------------------------------------- */

typedef struct ply_prop {
  char type[64], name[64];
  size_t size; /* bytes in binary */
} ply_prop;

typedef struct ply_file {
  int binary;           /* binary_little_endian */
  size_t nvert, cols, rows;
  ply_prop props[16];
  int nprops;
  char comments[4][160];
  int ncomments;
  sensim_point *pts;
} ply_file;

static size_t type_size(const char *t) {
  if (!strcmp(t, "float") || !strcmp(t, "float32") || !strcmp(t, "int") || !strcmp(t, "uint"))
    return 4;
  if (!strcmp(t, "ushort") || !strcmp(t, "uint16") || !strcmp(t, "short")) return 2;
  if (!strcmp(t, "uchar") || !strcmp(t, "uint8") || !strcmp(t, "char")) return 1;
  if (!strcmp(t, "double")) return 8;
  fail_msg("unknown PLY type '%s'", t);
  return 0;
}

static uint32_t le(const unsigned char *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}

static void set_field(sensim_point *pt, const ply_prop *pr, double num, uint32_t bits) {
  float f = 0;
  if (!strcmp(pr->type, "float")) {
    memcpy(&f, &bits, 4);
    if (!pr->size) f = (float)num; /* ascii */
  }
  if (!strcmp(pr->name, "x")) pt->x = f;
  else if (!strcmp(pr->name, "y")) pt->y = f;
  else if (!strcmp(pr->name, "z")) pt->z = f;
  else if (!strcmp(pr->name, "intensity")) pt->intensity = f;
  else if (!strcmp(pr->name, "time")) pt->time_offset = f;
  else if (!strcmp(pr->name, "ring")) pt->ring = (uint16_t)(pr->size ? bits : (uint32_t)num);
  else if (!strcmp(pr->name, "return")) pt->return_index = (uint8_t)(pr->size ? bits : (uint32_t)num);
  else if (!strcmp(pr->name, "label")) { /* a uint holding a 16-bit class id */
    const uint32_t v = pr->size ? bits : (uint32_t)num;
    if (v > 0xFFFFu) fail_msg("label %u is no class id", (unsigned)v);
    pt->class_id = (uint16_t)v;
  }
  else if (!strcmp(pr->name, "instance")) pt->instance_id = pr->size ? bits : (uint32_t)num;
  else fail_msg("unexpected property '%s'", pr->name);
}

static void read_ply(const char *path, ply_file *pf) {
  memset(pf, 0, sizeof *pf);
  size_t len;
  char *s = test_slurp(path, &len);
  char *end = strstr(s, "end_header\n");
  assert_non_null(end);
  size_t body = (size_t)(end - s) + strlen("end_header\n");
  char *save = NULL, *line = strtok_r(s, "\n", &save);
  assert_string_equal(line, "ply");
  int have_vertex = 0;
  for (line = strtok_r(NULL, "\n", &save); line && strcmp(line, "end_header");
       line = strtok_r(NULL, "\n", &save)) {
    char a[64], b[64];
    size_t n;
    if (!strncmp(line, "format ", 7)) {
      if (!strcmp(line, "format binary_little_endian 1.0")) pf->binary = 1;
      else if (strcmp(line, "format ascii 1.0")) fail_msg("bad format line '%s'", line);
    } else if (!strncmp(line, "comment ", 8)) {
      if (pf->ncomments < 4) snprintf(pf->comments[pf->ncomments++], 160, "%s", line + 8);
    } else if (sscanf(line, "obj_info num_cols %zu", &n) == 1) {
      pf->cols = n;
    } else if (sscanf(line, "obj_info num_rows %zu", &n) == 1) {
      pf->rows = n;
    } else if (sscanf(line, "element %63s %zu", a, &n) == 2) {
      assert_string_equal(a, "vertex");
      assert_false(have_vertex);
      have_vertex = 1;
      pf->nvert = n;
    } else if (sscanf(line, "property %63s %63s", a, b) == 2) {
      assert_true(have_vertex);
      assert_true(pf->nprops < 16);
      ply_prop *p = &pf->props[pf->nprops++];
      snprintf(p->type, sizeof p->type, "%s", a);
      snprintf(p->name, sizeof p->name, "%s", b);
      p->size = type_size(a);
    } else {
      fail_msg("unexpected header line '%s'", line);
    }
  }
  assert_true(have_vertex);
  pf->pts = calloc(pf->nvert ? pf->nvert : 1, sizeof *pf->pts);
  const unsigned char *p = (const unsigned char *)s + body;
  if (pf->binary) {
    size_t rec = 0;
    for (int k = 0; k < pf->nprops; k++) rec += pf->props[k].size;
    assert_int_equal(len - body, rec * pf->nvert);
    for (size_t i = 0; i < pf->nvert; i++)
      for (int k = 0; k < pf->nprops; k++) {
        set_field(&pf->pts[i], &pf->props[k], 0, le(p, pf->props[k].size));
        p += pf->props[k].size;
      }
  } else {
    char *c = (char *)p;
    for (size_t i = 0; i < pf->nvert; i++) {
      for (int k = 0; k < pf->nprops; k++) {
        char *e;
        /* strtof for float properties: the nearest float to the text, as
         * a reader of the declared type gets it. */
        double v = !strcmp(pf->props[k].type, "float") ? (double)strtof(c, &e) : strtod(c, &e);
        if (e == c) fail_msg("vertex %zu property %d is not a number", i, k);
        ply_prop ascii = pf->props[k];
        ascii.size = 0;
        set_field(&pf->pts[i], &ascii, v, 0);
        c = e;
        assert_true(*c == (k + 1 < pf->nprops ? ' ' : '\n'));
        c++;
      }
    }
    assert_int_equal(*c, '\0');
  }
  free(s);
}

/* ---- frames ----------------------------------------------------------- */

static sensim_frame points_frame(sensim_point *p, uint32_t w, uint32_t h) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_POINTS;
  f.width = w;
  f.height = h;
  f.count = (size_t)w * h;
  f.data = p;
  f.pose.pos.x = 1;
  f.pose.pos.y = -2;
  f.pose.pos.z = 0.5;
  f.pose.rot.w = 1;
  return f;
}

/* Values that stress a text round trip: extremes, subnormals, -0. */
static void sample_points(sensim_point *p, size_t n) {
  static const float odd[] = {FLT_MAX, -FLT_MIN, 1e-45f, -0.0f, 0.1f, 123456.789f};
  for (size_t i = 0; i < n; i++) {
    memset(&p[i], 0, sizeof p[i]);
    p[i].x = 1.0f / (float)(i + 3);
    p[i].y = odd[i % 6];
    p[i].z = -2.5f * (float)i + 1e-3f;
    p[i].intensity = 0.25f * (float)(i % 5);
    p[i].time_offset = -1e-4f * (float)i;
    p[i].ring = (uint16_t)(i * 13107u); /* reaches 65535 at i = 5 */
    p[i].return_index = (uint8_t)(i * 51u);
    p[i].class_id = (uint16_t)(65535u - i * 4099u); /* 65535 at i = 0 */
    p[i].instance_id = 0xF0000000u + (uint32_t)i * 0x01010101u; /* beyond 2^31 */
  }
}

static const char *kHeader =
    "ply\n"
    "format %s 1.0\n"
    "comment sensim lidar points in the sensor frame\n"
    "comment viewpoint 1 -2 0.5 1 0 0 0\n"
    "obj_info num_cols %u\n"
    "obj_info num_rows %u\n"
    "element vertex %u\n"
    "property float x\n"
    "property float y\n"
    "property float z\n"
    "property float intensity\n"
    "property ushort ring\n"
    "property float time\n"
    "property uchar return\n"
    "property uint label\n"
    "property uint instance\n"
    "end_header\n";

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void assert_same_point(const sensim_point *a, const sensim_point *b, int exact_nan, size_t i) {
  const float fa[5] = {a->x, a->y, a->z, a->intensity, a->time_offset};
  const float fb[5] = {b->x, b->y, b->z, b->intensity, b->time_offset};
  for (int k = 0; k < 5; k++) {
    int ok = same_bits(fa[k], fb[k]) || (!exact_nan && isnan(fa[k]) && isnan(fb[k]));
    if (!ok) fail_msg("point %zu field %d: wrote %.9g, read %.9g", i, k, fa[k], fb[k]);
  }
  assert_int_equal(a->ring, b->ring);
  assert_int_equal(a->return_index, b->return_index);
  assert_int_equal(a->class_id, b->class_id);
  assert_int_equal(a->instance_id, b->instance_id);
}

/* Header exactly as documented, body decoded by it equal to what was
 * written, bit for bit (binary) or to the same float (ascii). */
static void test_ply_round_trips_binary_and_ascii(void **state) {
  (void)state;
  sensim_point p[11];
  sample_points(p, 11);
  for (int binary = 0; binary < 2; binary++) {
    sensim_frame f = points_frame(p, 11, 1);
    const char *path = binary ? TMP "/b.ply" : TMP "/a.ply";
    SENSIM_OK_OR_FAIL(sensim_write_ply(path, &f, binary));
    size_t len;
    char *s = test_slurp(path, &len);
    char want[1024];
    snprintf(want, sizeof want, kHeader, binary ? "binary_little_endian" : "ascii", 11u, 1u, 11u);
    assert_memory_equal(s, want, strlen(want));
    if (binary) assert_int_equal(len, strlen(want) + 31 * 11);
    free(s);
    ply_file pf;
    read_ply(path, &pf);
    assert_int_equal(pf.binary, binary);
    assert_int_equal(pf.nvert, 11);
    for (size_t i = 0; i < 11; i++) assert_same_point(&p[i], &pf.pts[i], binary, i);
    free(pf.pts);
  }
  test_assert_no_temp_files(TMP);
}

/* An organised cloud keeps its grid in obj_info and every point, the NaN
 * ones marking missing returns included ("nan" in ascii). */
static void test_ply_organised_cloud_keeps_grid_and_nan_points(void **state) {
  (void)state;
  sensim_point p[12];
  sample_points(p, 12);
  for (int i = 1; i < 12; i += 3) p[i].x = p[i].y = p[i].z = NAN, p[i].intensity = 0;
  p[4].x = -NAN; /* glibc would print "-nan" */
  for (int binary = 0; binary < 2; binary++) {
    sensim_frame f = points_frame(p, 4, 3);
    const char *path = binary ? TMP "/ob.ply" : TMP "/oa.ply";
    SENSIM_OK_OR_FAIL(sensim_write_ply(path, &f, binary));
    ply_file pf;
    read_ply(path, &pf);
    assert_int_equal(pf.cols, 4);
    assert_int_equal(pf.rows, 3);
    assert_int_equal(pf.nvert, 12);
    for (size_t i = 0; i < 12; i++) assert_same_point(&p[i], &pf.pts[i], binary, i);
    free(pf.pts);
    if (!binary) {
      size_t len;
      char *s = test_slurp(path, &len);
      assert_non_null(strstr(s, "\nnan nan nan 0 "));
      assert_null(strstr(s, "-nan"));
      free(s);
    }
  }
}

/* No points: a valid file with element vertex 0 and an empty body. */
static void test_ply_empty_cloud_is_valid(void **state) {
  (void)state;
  for (int binary = 0; binary < 2; binary++) {
    sensim_frame f = points_frame(NULL, 0, 1);
    SENSIM_OK_OR_FAIL(sensim_write_ply(TMP "/empty.ply", &f, binary));
    size_t len;
    char *s = test_slurp(TMP "/empty.ply", &len);
    char want[1024];
    snprintf(want, sizeof want, kHeader, binary ? "binary_little_endian" : "ascii", 0u, 1u, 0u);
    assert_int_equal(len, strlen(want));
    assert_string_equal(s, want);
    free(s);
  }
}

static void test_ply_refuses_wrong_payload_and_bad_path(void **state) {
  (void)state;
  uint8_t px[4] = {0};
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_RGBA8;
  f.width = f.height = 1;
  f.count = 1;
  f.data = px;
  assert_int_equal(sensim_write_ply(TMP "/img.ply", &f, 1), SENSIM_ETYPE);
  assert_false(test_file_exists(TMP "/img.ply"));
  f.type = SENSIM_PAYLOAD_BEAMS;
  assert_int_equal(sensim_write_ply(TMP "/beams.ply", &f, 0), SENSIM_ETYPE);
  assert_false(test_file_exists(TMP "/beams.ply"));
  sensim_point p[2];
  sample_points(p, 2);
  f = points_frame(p, 2, 1);
  assert_int_equal(sensim_write_ply(TMP "/missing/dir/x.ply", &f, 1), SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "x.ply"));
  assert_int_equal(sensim_write_ply(NULL, &f, 1), SENSIM_EINVAL);
  assert_int_equal(sensim_write_ply(TMP "/x.ply", NULL, 1), SENSIM_EINVAL);
  /* A refused write leaves the previous file of that name as it was. */
  SENSIM_OK_OR_FAIL(sensim_write_ply(TMP "/keep.ply", &f, 1));
  size_t n0, n1;
  char *before = test_slurp(TMP "/keep.ply", &n0);
  f.data = NULL; /* 2 points and no data */
  assert_int_equal(sensim_write_ply(TMP "/keep.ply", &f, 1), SENSIM_EINVAL);
  char *after = test_slurp(TMP "/keep.ply", &n1);
  assert_int_equal(n0, n1);
  assert_memory_equal(before, after, n0);
  free(before);
  free(after);
  test_assert_no_temp_files(TMP);
}

/* Assimp reads both encodings as a point cloud with the same vertices, in
 * order, NaN points included: bit for bit from binary; from ascii to within
 * its text parser's accuracy (fast_atof is not correctly rounded: a few
 * units in the last place, bounded here by 1e-6 relative). */
static void test_ply_reads_back_through_assimp(void **state) {
  (void)state;
  sensim_point p[12];
  sample_points(p, 12);
  p[5].x = p[5].y = p[5].z = NAN;
  for (int binary = 0; binary < 2; binary++) {
    sensim_frame f = points_frame(p, 4, 3);
    const char *path = binary ? TMP "/assimp_b.ply" : TMP "/assimp_a.ply";
    SENSIM_OK_OR_FAIL(sensim_write_ply(path, &f, binary));
    const struct aiScene *sc = aiImportFile(path, 0);
    if (!sc) fail_msg("assimp cannot read %s: %s", path, aiGetErrorString());
    assert_int_equal(sc->mNumMeshes, 1);
    const struct aiMesh *m = sc->mMeshes[0];
    assert_int_equal(m->mNumVertices, 12);
    for (unsigned i = 0; i < 12; i++) {
      const float got[3] = {m->mVertices[i].x, m->mVertices[i].y, m->mVertices[i].z};
      const float want[3] = {p[i].x, p[i].y, p[i].z};
      for (int k = 0; k < 3; k++)
        if (!(same_bits(got[k], want[k]) || (isnan(got[k]) && isnan(want[k])) ||
              (!binary && fabs((double)got[k] - want[k]) <= 1e-6 * fabs((double)want[k]) + 1e-44)))
          fail_msg("%s vertex %u axis %d: %.9g, wrote %.9g", path, i, k, got[k], want[k]);
    }
    aiReleaseImport(sc);
  }
}

int sensim_test_ply(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ply_round_trips_binary_and_ascii),
      cmocka_unit_test(test_ply_organised_cloud_keeps_grid_and_nan_points),
      cmocka_unit_test(test_ply_empty_cloud_is_valid),
      cmocka_unit_test(test_ply_reads_back_through_assimp),
      cmocka_unit_test(test_ply_refuses_wrong_payload_and_bad_path),
  };
  return cmocka_run_group_tests_name("ply", tests, setup, NULL);
}
