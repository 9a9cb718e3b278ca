/* The bad-input matrix, part 4: the writers and readers given frames that
 * do not fit their format or whose header does not match their buffer,
 * and paths that cannot be written or read. Nothing may be left under the
 * target's name, and no temporary file in its folder. */
#include <stdio.h>
#include <string.h>
#include "robust/robust_groups.h"
#include "support/testutil.h"

#define DIR SENSIM_TEST_TMP "/matrix_io"

static const char *scratch(const char *name) {
  static char path[512];
  SENSIM_OK_OR_FAIL(sensim_mkdirs(DIR));
  snprintf(path, sizeof path, "%s/%s", DIR, name);
  remove(path);
  return path;
}

/* A frame of `type` with a w x h buffer, whose header the case then bends. */
static void make_frame(sensim_frame *f, sensim_payload type, uint32_t w, uint32_t h) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, type, w, h));
}

/* The writer named by c->value on a frame bent by the case's ptr word. */
static sensim_status write_bad(robust_fx *fx, const robust_case *c) {
  (void)fx;
  const char *how = c->ptr;
  int writer = (int)c->value; /* 0 png, 1 pcd, 2 ply, 3 csv append, 4 nmea append */
  static const sensim_payload type_of[5] = {SENSIM_PAYLOAD_RGBA8, SENSIM_PAYLOAD_POINTS, SENSIM_PAYLOAD_POINTS,
                                            SENSIM_PAYLOAD_IMU, SENSIM_PAYLOAD_GNSS};
  sensim_frame f;
  make_frame(&f, type_of[writer], writer <= 2 ? 4 : 1, writer == 0 ? 3 : 1);
  void *data = f.data;
  const char *path = scratch(writer == 0 ? "bad.png" : writer == 1 ? "bad.pcd" : writer == 2 ? "bad.ply"
                                                        : writer == 3 ? "bad.csv" : "bad.nmea");
  int null_frame = 0;
  if (strcmp(how, "null frame") == 0) null_frame = 1;
  else if (strcmp(how, "null path") == 0) path = NULL;
  else if (strcmp(how, "no folder") == 0) path = "/nonexistent/folder/bad.out";
  else if (strcmp(how, "no data") == 0) f.data = NULL;
  else if (strcmp(how, "wrong type") == 0) f.type = writer == 0 ? SENSIM_PAYLOAD_RGB_F32 : SENSIM_PAYLOAD_GRAY8;
  else if (strcmp(how, "count mismatch") == 0) f.count = 1000;
  else if (strcmp(how, "zero width") == 0) f.width = 0;
  else if (strcmp(how, "huge width") == 0) f.width = 0x80000000u, f.count = (size_t)f.width * f.height;
  else if (strcmp(how, "any type") == 0) f.type = SENSIM_PAYLOAD_ANY;
  const sensim_frame *fp = null_frame ? NULL : &f;
  sensim_status st;
  if (writer == 0) {
    st = sensim_write_png(path, fp);
  } else if (writer == 1) {
    st = sensim_write_pcd(path, fp, 1);
  } else if (writer == 2) {
    st = sensim_write_ply(path, fp, 0);
  } else if (writer == 3) {
    sensim_csv *csv = NULL;
    st = sensim_csv_open(path ? scratch("bad.csv") : NULL, SENSIM_PAYLOAD_IMU, &csv);
    if (st == SENSIM_OK) {
      st = sensim_csv_append(csv, fp);
      char msg[512];
      snprintf(msg, sizeof msg, "%s", sensim_last_error());
      sensim_csv_close(csv);
      sensim_error_set(st, "%s", msg);
    }
  } else {
    st = sensim_nmea_append(path, NULL, fp);
  }
  f.data = data;
  f.type = type_of[writer];
  sensim_frame_release(&f);
  if (st != SENSIM_OK && writer <= 2 && path && strncmp(path, DIR, strlen(DIR)) == 0 && test_file_exists(path))
    return sensim_error_set(SENSIM_EBACKEND, "a failed write left '%s'", path);
  test_assert_no_temp_files(DIR);
  return st;
}

static sensim_status reader(robust_fx *fx, const robust_case *c) {
  sensim_image img;
  const char *not_png = scratch("not_a.png");
  FILE *fp = fopen(not_png, "wb");
  fputs("this is text, not a PNG\n", fp);
  fclose(fp);
  const char *paths[2] = {not_png, NULL};
  double mean[3], std[3], w[3] = {1, 0, 0}, m, s;
  sensim_texture *t = NULL;
  sensim_atomic_file *af = NULL;
  switch ((int)c->value) {
    case 0: return sensim_read_png("/nonexistent/robust.png", &img);
    case 1: return sensim_read_png(not_png, &img);
    case 2: return sensim_read_png(NULL, &img);
    case 3: return sensim_image_stats_pngs(paths, 0, mean, std);
    case 4: return sensim_image_stats_pngs(paths, 1, mean, std);
    case 5: return sensim_image_stats_pngs(paths + 1, 1, mean, std);
    case 6: return sensim_image_stats_pngs_weighted(paths, 1, w, &m, &s);
    case 7: return sensim_texture_load_png(fx->world, "/nonexistent/robust.png", &t);
    case 8: return sensim_texture_load_png(fx->world, not_png, &t);
    case 9: return sensim_mkdirs("");
    case 10: return sensim_mkdirs(NULL);
    case 11: return sensim_mkdirs(SENSIM_TEST_TMP "/matrix_io/not_a.png/sub");
    case 12: return sensim_atomic_file_open("", &af);
    case 13: return sensim_atomic_file_open("/nonexistent/folder/x.txt", &af);
    case 14: return sensim_atomic_file_open(NULL, &af);
    case 15: return sensim_atomic_file_commit(NULL);
    case 16: return sensim_csv_open(scratch("none.csv"), SENSIM_PAYLOAD_NONE, NULL);
    case 17: {
      sensim_csv *csv = NULL;
      return sensim_csv_open(scratch("rgb.csv"), SENSIM_PAYLOAD_RGB_F32, &csv);
    }
    case 18: return sensim_csv_append(NULL, NULL);
    case 19: return sensim_nmea_write(NULL, NULL, NULL);
    default: {
      char buf[8];
      sensim_gnss_fix fix;
      memset(&fix, 0, sizeof fix);
      return sensim_nmea_gga(NULL, &fix, 0.0, buf, sizeof buf);
    }
  }
}

#define W(writer, how, code, sub) {"writer " #writer " " how, write_bad, code, sub, 0, 0, 0, 0, writer, how}
#define R(v, code, sub) {"reader (" #v ")", reader, code, sub, 0, 0, 0, 0, v, NULL}
#define EINV SENSIM_EINVAL

const robust_case robust_io_cases[] = {
    W(0, "null frame", EINV, "NULL"),
    W(0, "null path", EINV, "NULL"),
    W(0, "no folder", SENSIM_EIO, "bad.out"),
    W(0, "no data", EINV, "no data"),
    W(0, "wrong type", SENSIM_ETYPE, "rgb_f32"),
    W(0, "count mismatch", EINV, "1000 elements"),
    W(0, "zero width", EINV, "0x3"),
    W(0, "huge width", EINV, "2147483648"),
    W(0, "any type", SENSIM_ETYPE, "any"),
    W(1, "null frame", EINV, "NULL"),
    W(1, "null path", EINV, "NULL"),
    W(1, "no folder", SENSIM_EIO, "bad.out"),
    W(1, "no data", EINV, "no data"),
    W(1, "wrong type", SENSIM_ETYPE, "gray8"),
    W(2, "null frame", EINV, "NULL"),
    W(2, "no folder", SENSIM_EIO, "bad.out"),
    W(2, "no data", EINV, "no data"),
    W(2, "wrong type", SENSIM_ETYPE, "gray8"),
    W(3, "null frame", EINV, "NULL"),
    W(3, "null path", EINV, "NULL"),
    W(3, "no data", EINV, "no data"),
    W(3, "wrong type", SENSIM_ETYPE, "gray8"),
    W(3, "count mismatch", EINV, "1000 elements"),
    W(4, "null frame", EINV, "NULL"),
    W(4, "no folder", SENSIM_EIO, "bad.out"),
    W(4, "wrong type", SENSIM_ETYPE, "gray8"),
    W(4, "no data", SENSIM_ETYPE, "one fix"),
    R(0, SENSIM_ENOTFOUND, "robust.png"),
    R(1, SENSIM_EPARSE, "not_a.png"),
    R(2, EINV, "NULL"),
    R(3, EINV, "n"),
    R(4, SENSIM_EPARSE, "not_a.png"),
    R(5, EINV, "NULL"),
    R(6, SENSIM_EPARSE, "not_a.png"),
    R(7, SENSIM_ENOTFOUND, "robust.png"),
    R(8, SENSIM_EPARSE, "not_a.png"),
    R(9, EINV, "empty"),
    R(10, EINV, "empty"),
    R(11, SENSIM_EIO, "not a folder"),
    R(12, EINV, "empty"),
    R(13, SENSIM_EIO, "x.txt"),
    R(14, EINV, "empty"),
    R(15, EINV, "NULL"),
    R(16, EINV, "NULL"),
    R(17, SENSIM_ETYPE, "rgb_f32"),
    R(18, EINV, "NULL"),
    R(19, EINV, "NULL"),
    R(20, EINV, "NULL"),
};
const size_t robust_io_case_count = sizeof robust_io_cases / sizeof robust_io_cases[0];
