/* tests/io/png_read_tests.c: sensim_read_png and sensim_image_stats_pngs.
 *
 * Files are written with libpng directly (not with sensim's writer) in
 * every colour type and bit depth of ISO/IEC 15948, so the reader is checked
 * against an independent encoder; expected values are code / (2^depth - 1)
 * as io.h states, exactly (the division rounded once to float). */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "support/testutil.h"

int sensim_test_png_read(void);

#define TMP SENSIM_TEST_TMP "/png_read"

static const char *tmp_path(const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", TMP, name);
  return buf[k];
}

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* A PNG written by libpng from packed rows as the file stores them
 * (16-bit samples big-endian, sub-byte samples packed MSB first). */
typedef struct png_spec {
  uint32_t w, h;
  int color, depth;
  int interlace;
  const png_color *palette;
  int npalette;
  const png_byte *trns; /* palette alpha, or NULL */
  int ntrns;
} png_spec;

static void write_raw_png(const char *path, const png_spec *sp, const uint8_t *pix, size_t rowbytes) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  assert_non_null(png);
  assert_non_null(info);
  if (setjmp(png_jmpbuf(png))) fail_msg("libpng failed writing %s", path);
  png_init_io(png, fp);
  png_set_IHDR(png, info, sp->w, sp->h, sp->depth, sp->color,
               sp->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (sp->palette) png_set_PLTE(png, info, sp->palette, sp->npalette);
  if (sp->trns) png_set_tRNS(png, info, sp->trns, sp->ntrns, NULL);
  png_write_info(png, info);
  png_bytep *rows = malloc(sp->h * sizeof *rows);
  for (uint32_t y = 0; y < sp->h; y++) rows[y] = (png_bytep)pix + y * rowbytes;
  png_write_image(png, rows);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(rows);
  fclose(fp);
}

static void read_ok(const char *path, sensim_image *img, uint32_t w, uint32_t h, int channels) {
  SENSIM_OK_OR_FAIL(sensim_read_png(path, img));
  assert_int_equal(img->width, w);
  assert_int_equal(img->height, h);
  assert_int_equal(img->channels, channels);
  assert_non_null(img->data);
}

/* 8-bit grey, grey + alpha, RGB and RGBA: the colour samples, scaled by
 * 1/255, alpha dropped. */
static void test_png_read_8bit_types_give_code_over_255(void **state) {
  (void)state;
  enum { W = 5, H = 3 };
  static const int colors[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                               PNG_COLOR_TYPE_RGB_ALPHA};
  static const int nch[] = {1, 2, 3, 4};
  for (int t = 0; t < 4; t++) {
    uint8_t pix[W * H * 4];
    for (int i = 0; i < W * H * nch[t]; i++) pix[i] = (uint8_t)(i * 37 + 11 * t);
    png_spec sp = {W, H, colors[t], 8, 0, NULL, 0, NULL, 0};
    write_raw_png(tmp_path("t8.png"), &sp, pix, (size_t)W * nch[t]);
    sensim_image img;
    int out_ch = nch[t] <= 2 ? 1 : 3;
    read_ok(tmp_path("t8.png"), &img, W, H, out_ch);
    for (int i = 0; i < W * H; i++)
      for (int c = 0; c < out_ch; c++)
        assert_true(img.data[i * out_ch + c] == (float)(pix[i * nch[t] + c] / 255.0));
    sensim_image_free(&img);
    assert_null(img.data);
  }
}

/* 16-bit samples are big-endian in the file: bytes (0x12, 0x34) are
 * 0x1234 / 65535. */
static void test_png_read_16bit_is_big_endian_over_65535(void **state) {
  (void)state;
  enum { W = 4, H = 2 };
  static const int colors[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                               PNG_COLOR_TYPE_RGB_ALPHA};
  static const int nch[] = {1, 2, 3, 4};
  for (int t = 0; t < 4; t++) {
    uint8_t pix[W * H * 4 * 2];
    for (int i = 0; i < W * H * nch[t] * 2; i++) pix[i] = (uint8_t)(i * 53 + 7 + t);
    png_spec sp = {W, H, colors[t], 16, 0, NULL, 0, NULL, 0};
    write_raw_png(tmp_path("t16.png"), &sp, pix, (size_t)W * nch[t] * 2);
    sensim_image img;
    int out_ch = nch[t] <= 2 ? 1 : 3;
    read_ok(tmp_path("t16.png"), &img, W, H, out_ch);
    for (int i = 0; i < W * H; i++)
      for (int c = 0; c < out_ch; c++) {
        const uint8_t *p = pix + 2 * (i * nch[t] + c);
        double want = (double)(p[0] << 8 | p[1]) / 65535.0;
        assert_near(img.data[i * out_ch + c], want, 1e-7);
      }
    sensim_image_free(&img);
  }
}

/* Palette images come out as their palette's RGB; a tRNS chunk (palette
 * alpha) is dropped. */
static void test_png_read_palette_expands_to_rgb(void **state) {
  (void)state;
  static const png_color pal[4] = {{0, 0, 0}, {255, 0, 10}, {3, 200, 9}, {90, 91, 92}};
  static const png_byte alpha[4] = {0, 128, 255, 7};
  enum { W = 6, H = 2 };
  uint8_t idx[W * H];
  for (int i = 0; i < W * H; i++) idx[i] = (uint8_t)((i * 3) % 4);
  for (int with_trns = 0; with_trns < 2; with_trns++) {
    png_spec sp = {W, H, PNG_COLOR_TYPE_PALETTE, 8, 0, pal, 4, with_trns ? alpha : NULL, 4};
    write_raw_png(tmp_path("pal.png"), &sp, idx, W);
    sensim_image img;
    read_ok(tmp_path("pal.png"), &img, W, H, 3);
    for (int i = 0; i < W * H; i++) {
      const png_color *c = &pal[idx[i]];
      assert_true(img.data[3 * i + 0] == (float)(c->red / 255.0));
      assert_true(img.data[3 * i + 1] == (float)(c->green / 255.0));
      assert_true(img.data[3 * i + 2] == (float)(c->blue / 255.0));
    }
    sensim_image_free(&img);
  }
}

/* Grey at 1, 2 and 4 bits: code k of depth d reads as k / (2^d - 1). */
static void test_png_read_low_bit_grey_scales_to_full_range(void **state) {
  (void)state;
  enum { W = 9, H = 2 };
  for (int depth = 1; depth <= 4; depth *= 2) {
    int levels = 1 << depth;
    size_t rowbytes = ((size_t)W * depth + 7) / 8;
    uint8_t pix[2 * 8];
    memset(pix, 0, sizeof pix);
    int codes[W * H];
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int k = (x + 3 * y) % levels;
        codes[y * W + x] = k;
        size_t bit = (size_t)x * depth;
        pix[y * rowbytes + bit / 8] |= (uint8_t)(k << (8 - depth - bit % 8));
      }
    png_spec sp = {W, H, PNG_COLOR_TYPE_GRAY, depth, 0, NULL, 0, NULL, 0};
    write_raw_png(tmp_path("low.png"), &sp, pix, rowbytes);
    sensim_image img;
    read_ok(tmp_path("low.png"), &img, W, H, 1);
    for (int i = 0; i < W * H; i++) assert_near(img.data[i], (double)codes[i] / (levels - 1), 1e-7);
    sensim_image_free(&img);
  }
}

/* Adam7-interlaced files give the same pixels as progressive ones. */
static void test_png_read_interlaced_matches_progressive(void **state) {
  (void)state;
  enum { W = 13, H = 11 };
  uint8_t pix[W * H * 3];
  for (int i = 0; i < W * H * 3; i++) pix[i] = (uint8_t)(i * 29 + 5);
  png_spec sp = {W, H, PNG_COLOR_TYPE_RGB, 8, 1, NULL, 0, NULL, 0};
  write_raw_png(tmp_path("adam7.png"), &sp, pix, W * 3);
  sensim_image img;
  read_ok(tmp_path("adam7.png"), &img, W, H, 3);
  for (int i = 0; i < W * H * 3; i++) assert_true(img.data[i] == (float)(pix[i] / 255.0));
  sensim_image_free(&img);
}

/* What sensim_write_png writes reads back: rgba8 (alpha dropped), gray16
 * and rgb16. */
static void test_png_read_round_trips_sensim_writer(void **state) {
  (void)state;
  enum { W = 7, H = 3 };
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.width = W;
  f.height = H;
  f.count = W * H;
  uint8_t rgba[W * H * 4];
  for (int i = 0; i < W * H * 4; i++) rgba[i] = (uint8_t)(i * 13);
  f.type = SENSIM_PAYLOAD_RGBA8;
  f.data = rgba;
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("w8.png"), &f));
  sensim_image img;
  read_ok(tmp_path("w8.png"), &img, W, H, 3);
  for (int i = 0; i < W * H; i++)
    for (int c = 0; c < 3; c++) assert_true(img.data[3 * i + c] == (float)(rgba[4 * i + c] / 255.0));
  sensim_image_free(&img);

  uint16_t g16[W * H], c16[W * H * 3];
  for (int i = 0; i < W * H; i++) g16[i] = (uint16_t)(i * 3001 + 1);
  for (int i = 0; i < W * H * 3; i++) c16[i] = (uint16_t)(65535 - i * 977);
  f.type = SENSIM_PAYLOAD_GRAY16;
  f.data = g16;
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("w16.png"), &f));
  read_ok(tmp_path("w16.png"), &img, W, H, 1);
  for (int i = 0; i < W * H; i++) assert_near(img.data[i], g16[i] / 65535.0, 1e-7);
  sensim_image_free(&img);
  f.type = SENSIM_PAYLOAD_RGB16;
  f.data = c16;
  SENSIM_OK_OR_FAIL(sensim_write_png(tmp_path("c16.png"), &f));
  read_ok(tmp_path("c16.png"), &img, W, H, 3);
  for (int i = 0; i < W * H * 3; i++) assert_near(img.data[i], c16[i] / 65535.0, 1e-7);
  sensim_image_free(&img);
}

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(data, 1, n, fp), n);
  fclose(fp);
}

static void expect_error(const char *path, sensim_status code, const char *message) {
  sensim_image img;
  memset(&img, 0xAB, sizeof img); /* must come back zeroed */
  sensim_status st = sensim_read_png(path, &img);
  if (st != code) fail_msg("%s: got %d (%s), expected %d", path, st, sensim_last_error(), code);
  if (message && !strstr(sensim_last_error(), message))
    fail_msg("message '%s' lacks '%s'", sensim_last_error(), message);
  assert_int_equal(img.width, 0);
  assert_int_equal(img.height, 0);
  assert_int_equal(img.channels, 0);
  assert_null(img.data);
}

/* Missing file, not a PNG, an empty file, a truncated and a corrupted PNG,
 * a folder: clear codes, *out zeroed, nothing leaked (ASan builds check). */
static void test_png_read_bad_files_fail_cleanly(void **state) {
  (void)state;
  expect_error(tmp_path("no_such.png"), SENSIM_ENOTFOUND, "no_such.png");
  write_bytes(tmp_path("text.png"), "hello, this is not an image\n", 28);
  expect_error(tmp_path("text.png"), SENSIM_EPARSE, "not a PNG");
  write_bytes(tmp_path("empty.png"), "", 0);
  expect_error(tmp_path("empty.png"), SENSIM_EPARSE, "empty.png");

  /* A valid file cut short and one with a damaged data chunk. */
  enum { W = 32, H = 32 };
  uint8_t pix[W * H * 3];
  for (int i = 0; i < W * H * 3; i++) pix[i] = (uint8_t)(i * 7919 >> 3);
  png_spec sp = {W, H, PNG_COLOR_TYPE_RGB, 8, 0, NULL, 0, NULL, 0};
  write_raw_png(tmp_path("whole.png"), &sp, pix, W * 3);
  FILE *fp = fopen(tmp_path("whole.png"), "rb");
  assert_non_null(fp);
  static uint8_t bytes[65536];
  size_t n = fread(bytes, 1, sizeof bytes, fp);
  fclose(fp);
  assert_true(n > 100 && n < sizeof bytes);
  write_bytes(tmp_path("cut.png"), bytes, n / 2);
  expect_error(tmp_path("cut.png"), SENSIM_EPARSE, "cut.png");
  write_bytes(tmp_path("header_only.png"), bytes, 20);
  expect_error(tmp_path("header_only.png"), SENSIM_EPARSE, "header_only.png");
  for (size_t i = 60; i < n - 20; i += 3) bytes[i] ^= 0x5A;
  write_bytes(tmp_path("corrupt.png"), bytes, n);
  expect_error(tmp_path("corrupt.png"), SENSIM_EPARSE, "corrupt.png");

  expect_error(TMP, SENSIM_EIO, NULL);
  assert_int_equal(sensim_read_png(NULL, NULL), SENSIM_EINVAL);
  sensim_image img;
  assert_int_equal(sensim_read_png(NULL, &img), SENSIM_EINVAL);
  assert_null(img.data);
  sensim_image_free(NULL);
  /* A good file still reads after all of that. */
  read_ok(tmp_path("whole.png"), &img, W, H, 3);
  sensim_image_free(&img);
  sensim_image_free(&img); /* freed images are zeroed: a second free is harmless */
}

/* ---- reference statistics ---------------------------------------------- */

static void write_rgb8(const char *path, uint32_t w, uint32_t h, const uint8_t *rgb) {
  png_spec sp = {w, h, PNG_COLOR_TYPE_RGB, 8, 0, NULL, 0, NULL, 0};
  write_raw_png(path, &sp, rgb, (size_t)w * 3);
}

/* Mean and population standard deviation per channel over all pixels of
 * all files (files of different sizes; a grey file counts as R = G = B),
 * against direct sums. */
static void test_image_stats_pool_all_pixels_of_all_files(void **state) {
  (void)state;
  uint8_t a[4 * 3 * 3], b[2 * 5 * 3], g[3 * 2];
  for (size_t i = 0; i < sizeof a; i++) a[i] = (uint8_t)(i * 41 + 3);
  for (size_t i = 0; i < sizeof b; i++) b[i] = (uint8_t)(250 - i * 7);
  for (size_t i = 0; i < sizeof g; i++) g[i] = (uint8_t)(i * 50);
  write_rgb8(tmp_path("sa.png"), 4, 3, a);
  write_rgb8(tmp_path("sb.png"), 2, 5, b);
  png_spec sp = {3, 2, PNG_COLOR_TYPE_GRAY, 8, 0, NULL, 0, NULL, 0};
  write_raw_png(tmp_path("sg.png"), &sp, g, 3);
  const char *paths[3] = {tmp_path("sa.png"), tmp_path("sb.png"), tmp_path("sg.png")};
  double mean[3], sd[3];
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(paths, 3, mean, sd));
  for (int c = 0; c < 3; c++) {
    double s = 0, ss = 0;
    int n = 0;
    for (int i = 0; i < 12; i++, n++) s += a[3 * i + c] / 255.0, ss += pow(a[3 * i + c] / 255.0, 2);
    for (int i = 0; i < 10; i++, n++) s += b[3 * i + c] / 255.0, ss += pow(b[3 * i + c] / 255.0, 2);
    for (int i = 0; i < 6; i++, n++) s += g[i] / 255.0, ss += pow(g[i] / 255.0, 2);
    double m = s / n;
    assert_near(mean[c], m, 1e-7);
    assert_near(sd[c], sqrt(ss / n - m * m), 1e-7);
  }
  /* Rec. 709 luminance of the same files. */
  const double w[3] = {0.2126, 0.7152, 0.0722};
  double ym, ysd;
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs_weighted(paths, 3, w, &ym, &ysd));
  assert_near(ym, w[0] * mean[0] + w[1] * mean[1] + w[2] * mean[2], 1e-7);
  double s = 0, ss = 0;
  for (int i = 0; i < 12; i++) {
    double y = (w[0] * a[3 * i] + w[1] * a[3 * i + 1] + w[2] * a[3 * i + 2]) / 255.0;
    s += y, ss += y * y;
  }
  for (int i = 0; i < 10; i++) {
    double y = (w[0] * b[3 * i] + w[1] * b[3 * i + 1] + w[2] * b[3 * i + 2]) / 255.0;
    s += y, ss += y * y;
  }
  for (int i = 0; i < 6; i++) {
    double y = g[i] / 255.0;
    s += y, ss += y * y;
  }
  assert_near(ysd, sqrt(ss / 28 - (s / 28) * (s / 28)), 1e-7);
}

/* A flat image has std 0 exactly; errors leave the outputs alone. */
static void test_image_stats_flat_and_bad_input(void **state) {
  (void)state;
  uint8_t flat[8 * 8 * 3];
  for (int i = 0; i < 64; i++) flat[3 * i] = 200, flat[3 * i + 1] = 100, flat[3 * i + 2] = 0;
  write_rgb8(tmp_path("flat.png"), 8, 8, flat);
  const char *one[1] = {tmp_path("flat.png")};
  double mean[3], sd[3];
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(one, 1, mean, sd));
  assert_near(mean[0], 200 / 255.0, 1e-7);
  assert_near(mean[1], 100 / 255.0, 1e-7);
  assert_near(mean[2], 0, 0);
  for (int c = 0; c < 3; c++) assert_near(sd[c], 0, 1e-7);

  double keep[3] = {-1, -1, -1}, keep_sd[3] = {-1, -1, -1};
  const char *bad[2] = {tmp_path("flat.png"), tmp_path("missing.png")};
  assert_int_equal(sensim_image_stats_pngs(bad, 2, keep, keep_sd), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "missing.png"));
  assert_int_equal(sensim_image_stats_pngs(one, 0, keep, keep_sd), SENSIM_EINVAL);
  const char *null_path[1] = {NULL};
  assert_int_equal(sensim_image_stats_pngs(null_path, 1, keep, keep_sd), SENSIM_EINVAL);
  assert_int_equal(sensim_image_stats_pngs(NULL, 1, keep, keep_sd), SENSIM_EINVAL);
  for (int c = 0; c < 3; c++) assert_true(keep[c] == -1 && keep_sd[c] == -1);
}

int sensim_test_png_read(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_png_read_8bit_types_give_code_over_255),
      cmocka_unit_test(test_png_read_16bit_is_big_endian_over_65535),
      cmocka_unit_test(test_png_read_palette_expands_to_rgb),
      cmocka_unit_test(test_png_read_low_bit_grey_scales_to_full_range),
      cmocka_unit_test(test_png_read_interlaced_matches_progressive),
      cmocka_unit_test(test_png_read_round_trips_sensim_writer),
      cmocka_unit_test(test_png_read_bad_files_fail_cleanly),
      cmocka_unit_test(test_image_stats_pool_all_pixels_of_all_files),
      cmocka_unit_test(test_image_stats_flat_and_bad_input),
  };
  return cmocka_run_group_tests_name("png_read", tests, setup, NULL);
}
