/* tests/faults/enospc_tests.c: a full disk (issue 32). This binary runs
 * with tests/shim/enospc_shim.c preloaded (tests/CMakeLists.txt), which
 * fails writes under one folder with ENOSPC once a byte budget is spent.
 *   - A PNG and a PCD writer on a full disk: SENSIM_EIO naming the file
 *     and "No space left on device" (not a bare "input/output error"),
 *     nothing under the final name, no temporary file left.
 *   - A recording running into a full disk: the write fails with the
 *     same cause, the world goes on delivering frames, closing fails, no
 *     file is under the final name, and the whole chunks written before
 *     are kept as x.partial.mcap: a valid MCAP file (magic at both ends, a
 *     record sequence that parses to the end, a Footer, and every chunk's
 *     CRC right). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "io/mcap_writer.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/enospc"

static void disk_full_after(const char *dir, long bytes) {
  char b[32];
  snprintf(b, sizeof b, "%ld", bytes);
  setenv("SENSIM_ENOSPC_DIR", dir, 1);
  setenv("SENSIM_ENOSPC_BYTES", b, 1);
}
static void disk_free(void) {
  unsetenv("SENSIM_ENOSPC_DIR");
  unsetenv("SENSIM_ENOSPC_BYTES");
}

/* A fresh folder of its own per test (the shim's budget is per process:
 * each test uses a new folder and a budget counted from what it wrote). */
static void fresh(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  assert_int_equal(system(cmd), 0);
}

static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* No "*.tmp-*" left in dir. */
static void no_temp_files(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  for (struct dirent *e; (e = readdir(d));)
    if (strstr(e->d_name, ".tmp-")) fail_msg("temporary file left: %s/%s", dir, e->d_name);
  closedir(d);
}

static void test_writers_on_a_full_disk_say_so_and_leave_nothing(void **state) {
  (void)state;
  const char *dir = TMP "/writers";
  fresh(dir);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGBA8, 256, 256));
  uint8_t *px = f.data;
  uint64_t x = 88172645463325252ULL; /* xorshift64 (Marsaglia 2003): incompressible */
  for (size_t i = 0; i < 4 * f.count; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    px[i] = (uint8_t)(x >> 32);
  }
  /* Room for a fifth of the image. */
  disk_full_after(dir, 256L * 256 * 4 / 5);
  sensim_status st = sensim_write_png(TMP "/writers/a.png", &f);
  disk_free();
  assert_int_equal(st, SENSIM_EIO);
  assert_non_null(strstr(sensim_last_error(), "a.png"));
  assert_non_null(strstr(sensim_last_error(), "No space left on device"));
  assert_false(exists(TMP "/writers/a.png"));
  no_temp_files(dir);
  /* With room again the same call works. */
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/writers/a.png", &f));
  sensim_frame_release(&f);
  /* A CSV's rows: the append or the close names the cause. */
  sensim_imu_sample smp = {.accel = {0.1, 0.2, 9.8}, .gyro = {0.01, 0.02, 0.03}};
  sensim_frame g;
  memset(&g, 0, sizeof g);
  g.type = SENSIM_PAYLOAD_IMU;
  g.width = g.height = 1;
  g.count = 1;
  g.data = &smp;
  disk_full_after(dir, 4096);
  sensim_csv *csv = NULL;
  SENSIM_OK_OR_FAIL(sensim_csv_open(TMP "/writers/imu.csv", SENSIM_PAYLOAD_IMU, &csv));
  st = SENSIM_OK;
  for (int k = 0; k < 2000 && st == SENSIM_OK; k++) {
    g.t_capture = k * 0.01;
    st = sensim_csv_append(csv, &g);
  }
  if (st == SENSIM_OK) st = sensim_csv_close(csv);
  else sensim_csv_close(csv);
  disk_free();
  assert_int_equal(st, SENSIM_EIO);
  if (!strstr(sensim_last_error(), "No space left on device") || !strstr(sensim_last_error(), "imu.csv"))
    fail_msg("CSV on a full disk: '%s'", sensim_last_error());
  assert_false(exists(TMP "/writers/imu.csv"));
  no_temp_files(dir);
}

/* ---- a recording on a full disk ---- */

static uint64_t u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
static uint32_t u32(const unsigned char *p) { return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Parse an MCAP file record by record; count chunks (checking each one's
 * CRC: the recording is uncompressed) and messages in them; require the
 * Footer and the magic at both ends. */
static void check_mcap(const char *path, int *chunks, int *messages) {
  size_t n = 0;
  unsigned char *b = (unsigned char *)test_slurp(path, &n);
  static const unsigned char magic[8] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};
  assert_true(n >= 16);
  assert_memory_equal(b, magic, 8);
  assert_memory_equal(b + n - 8, magic, 8);
  size_t at = 8;
  int footer = 0;
  *chunks = *messages = 0;
  while (at < n - 8) {
    assert_true(at + 9 <= n - 8);
    unsigned op = b[at];
    uint64_t len = u64(b + at + 1);
    assert_true(len <= n - 8 - (at + 9));
    const unsigned char *r = b + at + 9;
    if (op == 0x06) { /* Chunk */
      uint32_t crc = u32(r + 24);
      uint32_t clen = u32(r + 28);
      assert_int_equal(clen, 0); /* no compression */
      uint64_t rl = u64(r + 32);
      const unsigned char *recs = r + 40;
      assert_int_equal(sensim__crc32(0, recs, rl), crc);
      for (uint64_t k = 0; k < rl;) {
        *messages += recs[k] == 0x05;
        k += 9 + u64(recs + k + 1);
      }
      (*chunks)++;
    }
    if (op == 0x02) footer = 1;
    at += 9 + len;
  }
  assert_int_equal(at, n - 8);
  assert_true(footer);
  free(b);
}

static void test_recording_on_a_full_disk_keeps_its_whole_chunks(void **state) {
  (void)state;
  const char *dir = TMP "/rec";
  fresh(dir);
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  sensim_mesh *box = NULL;
  sensim_shape sh = {.kind = SENSIM_SHAPE_BOX, .size = {1, 1, 1}, .segments = 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, NULL, &box));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = box;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){4, 0, 0};
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_sensor *cam = NULL;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "cam";
  sp.rate = 20;
  SENSIM_OK_OR_FAIL(sensim_sensor_create_json(w, "camera", &sp, "{\"width\": 64, \"height\": 48, \"samples\": 1}", &cam));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "image_noise", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "quantize", NULL));
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.compress = 0;
  rp.chunk_size = 16 * 1024;
  sensim_recorder *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(TMP "/rec/run.mcap", w, &rp, &rec));
  /* Each image is 12 kB: the budget holds about ten of them. */
  disk_full_after(dir, 128 * 1024);
  sensim_status failed = SENSIM_OK;
  int frames_after = 0;
  for (int k = 0; k <= 60; k++) {
    double t = k * 0.05;
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(cam, &f) == SENSIM_OK && f) {
      if (failed) {
        frames_after++;
        continue;
      }
      sensim_status st = sensim_recorder_write(rec, cam, f);
      if (!st) st = sensim_recorder_advance(rec, t);
      if (st) {
        failed = st;
        assert_int_equal(st, SENSIM_EIO);
        assert_non_null(strstr(sensim_last_error(), "No space left on device"));
        assert_non_null(strstr(sensim_last_error(), "run.mcap"));
      }
    }
  }
  assert_int_equal(failed, SENSIM_EIO);
  /* The world kept delivering after the recording failed. */
  assert_true(frames_after > 10);
  assert_true(sensim_recorder_close(rec) < 0);
  disk_free();
  assert_false(exists(TMP "/rec/run.mcap"));
  assert_true(exists(TMP "/rec/run.partial.mcap"));
  no_temp_files(dir);
  int chunks, messages;
  check_mcap(TMP "/rec/run.partial.mcap", &chunks, &messages);
  assert_true(chunks >= 3);
  assert_true(messages >= 3);
  struct stat st;
  assert_int_equal(stat(TMP "/rec/run.partial.mcap", &st), 0);
  assert_true(st.st_size <= 128 * 1024);
  sensim_world_destroy(w);
}

int sensim_test_enospc(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writers_on_a_full_disk_say_so_and_leave_nothing),
      cmocka_unit_test(test_recording_on_a_full_disk_keeps_its_whole_chunks),
  };
  return cmocka_run_group_tests_name("enospc", tests, NULL, NULL);
}
