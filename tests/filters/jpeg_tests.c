/* tests/filters/jpeg_tests.c: "jpeg", compression artefacts through
 * libjpeg: PSNR falls with quality within measured ranges, 8 x 8 blocking
 * shows as larger steps across block boundaries than inside blocks, size,
 * format and alpha survive, chroma subsampling blurs colour edges only,
 * the result is deterministic, and bad parameters and payloads are
 * refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "support/testutil.h"

static void *make(const char *json) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(sensim__filter_jpeg.create(p, &user));
  cJSON_Delete(p);
  return user;
}

static sensim_status apply(void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  sensim_rng_init(&ctx.rng, 1, 0, f->index, 0x80000000u);
  return sensim__filter_jpeg.def.apply(user, f, &ctx);
}

/* A test card: smooth colour gradients, a low-frequency shading, a sharp
 * disc and a sharp bar (edges where blocking and ringing appear), and a
 * fine deterministic texture in blue; alpha varies so that keeping it is
 * seen. The grey card is the smooth part alone. */
static void card(sensim_frame *f, sensim_payload type, uint32_t W, uint32_t H) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim__frame_alloc_unset(f, type, W, H));
  uint8_t *px = f->data;
  const int ch = type == SENSIM_PAYLOAD_RGBA8 ? 4 : 1;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      double u = (x + 0.5) / W, v = (y + 0.5) / H;
      double shade = 0.15 * sin(2 * M_PI * (1.3 * u + 0.7 * v));
      double tex = 0.03 * sin(2.1 * x + 0.37 * y * y) * cos(1.7 * y + 0.11 * x * x);
      int disc = (u - 0.3) * (u - 0.3) + (v - 0.5) * (v - 0.5) < 0.04;
      int bar = u > 0.62 && u < 0.8 && v > 0.2 && v < 0.9;
      double rgb[3] = {0.2 + 0.6 * u + shade, 0.3 + 0.5 * v - shade, 0.6 - 0.4 * u * v + tex};
      if (disc) rgb[0] = 0.9, rgb[1] = 0.15, rgb[2] = 0.1;
      if (bar) rgb[0] = 0.1, rgb[1] = 0.2, rgb[2] = 0.85;
      uint8_t *p = px + ((size_t)y * W + x) * ch;
      if (ch == 1) { /* smooth: gradients and shading, whose steps are alike in every column mod 8 */
        p[0] = (uint8_t)lrint(255 * (0.2 + 0.5 * u + 0.1 * v + shade));
        continue;
      }
      for (int c = 0; c < 3; c++) p[c] = (uint8_t)lrint(255 * fmin(1, fmax(0, rgb[c])));
      p[3] = (uint8_t)((x * 7 + y * 3) & 0xff);
    }
}

static void copy(sensim_frame *dst, const sensim_frame *src) {
  memset(dst, 0, sizeof *dst);
  SENSIM_OK_OR_FAIL(sensim__frame_alloc_unset(dst, src->type, src->width, src->height));
  memcpy(dst->data, src->data, src->count * (src->type == SENSIM_PAYLOAD_RGBA8 ? 4 : 1));
}

/* PSNR over the colour channels (alpha left out), dB, peak 255. */
static double psnr(const sensim_frame *a, const sensim_frame *b) {
  const int ch = a->type == SENSIM_PAYLOAD_RGBA8 ? 4 : 1, nc = ch == 4 ? 3 : 1;
  const uint8_t *p = a->data, *q = b->data;
  double se = 0;
  for (size_t i = 0; i < a->count; i++)
    for (int c = 0; c < nc; c++) {
      double d = (double)p[i * ch + c] - q[i * ch + c];
      se += d * d;
    }
  double mse = se / ((double)a->count * nc);
  return mse == 0 ? INFINITY : 10 * log10(255.0 * 255.0 / mse);
}

static double psnr_at(const sensim_frame *orig, const char *json) {
  sensim_frame f;
  copy(&f, orig);
  void *u = make(json);
  SENSIM_OK_OR_FAIL(apply(u, &f));
  double r = psnr(orig, &f);
  free(u);
  sensim__frame_release(&f);
  return r;
}

static void test_jpeg_psnr_falls_with_quality_within_measured_ranges(void **state) {
  (void)state;
  sensim_frame orig;
  card(&orig, SENSIM_PAYLOAD_RGBA8, 128, 96);
  const double q100 = psnr_at(&orig, "{\"quality\": 100, \"subsampling\": \"4:4:4\"}");
  const double q100s = psnr_at(&orig, "{\"quality\": 100}");
  const double q75 = psnr_at(&orig, NULL);
  const double q10 = psnr_at(&orig, "{\"quality\": 10}");
  print_message("jpeg PSNR: Q100 4:4:4 %.2f dB, Q100 4:2:0 %.2f, Q75 4:2:0 %.2f, Q10 4:2:0 %.2f\n", q100, q100s, q75,
                q10);
  /* Q100 4:4:4 quantises every DCT coefficient with step 1, so what is left
   * is the rounding of the colour conversion and of the integer DCT and
   * IDCT: errors of about a level, RMS < 1.3 levels, PSNR > 46 dB
   * (measured 50.57). Chroma subsampling (4:2:0) halves the colour
   * resolution: the card's sharp coloured disc and bar and its fine blue
   * texture lose colour whatever the quality (measured 28.74 dB at Q100,
   * 27.60 at Q75). Q10 scales the T.81 Annex K tables by 5 (luma DC step
   * 80): the card's gradients become flat blocks (measured 23.26 dB). The
   * ranges are the measured values +- 2 dB: libjpeg-turbo's accurate
   * integer DCT gives the same bits on every machine, and the margin
   * leaves room for another libjpeg's rounding, not for subsampling left
   * out (22 dB more) or applied at 4:4:4, nor for Q10 taken as Q75. */
  assert_true(q100 > 46 && q100 < 60);
  assert_true(q100s > 26.74 && q100s < 30.74);
  assert_true(q10 > 21.26 && q10 < 25.26);
  assert_true(q100 > q100s && q100s > q75 && q75 > q10);
  sensim__frame_release(&orig);
}

/* Blockiness (in the manner of H. R. Wu and M. Yuen, "A generalized
 * block-edge impairment metric for video coding", IEEE Signal Processing
 * Letters 4(11), 1997): the mean absolute step between horizontally
 * adjacent pixels across 8-pixel block boundaries over that inside blocks.
 * On the smooth grey card the steps are alike everywhere (ratio ~1); JPEG
 * codes each 8 x 8 block on its own, so at low quality the steps gather on
 * the boundaries. */
static double blockiness(const sensim_frame *f) {
  const uint8_t *p = f->data;
  double across = 0, inside = 0;
  size_t na = 0, ni = 0;
  for (uint32_t y = 0; y < f->height; y++)
    for (uint32_t x = 0; x + 1 < f->width; x++) {
      double d = fabs((double)p[(size_t)y * f->width + x + 1] - p[(size_t)y * f->width + x]);
      if (x % 8 == 7) across += d, na++;
      else inside += d, ni++;
    }
  return (across / na) / (inside / ni);
}

static void test_jpeg_blocks_show_across_8x8_boundaries(void **state) {
  (void)state;
  sensim_frame orig, f;
  card(&orig, SENSIM_PAYLOAD_GRAY8, 128, 96);
  const double b0 = blockiness(&orig);
  copy(&f, &orig);
  void *u = make("{\"quality\": 10}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  const double b10 = blockiness(&f);
  free(u);
  sensim__frame_release(&f);
  copy(&f, &orig);
  u = make("{\"quality\": 95}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  const double b95 = blockiness(&f);
  free(u);
  sensim__frame_release(&f);
  print_message("blockiness: original %.3f, Q95 %.3f, Q10 %.3f\n", b0, b95, b10);
  /* Measured 1.009, 1.115 and 5.48. */
  assert_true(fabs(b0 - 1) < 0.05);
  assert_true(b95 < 1.3);
  assert_true(b10 > 3.0);
  sensim__frame_release(&orig);
}

/* Size, payload and alpha survive on an image whose sides are no multiple
 * of 8 or 16 (JPEG pads the last blocks); 4:2:0 at Q100 changes a
 * uniform-colour image by at most a level; the same input gives the same
 * bytes. */
static void test_jpeg_keeps_size_format_alpha_and_is_deterministic(void **state) {
  (void)state;
  sensim_frame orig, a, b;
  card(&orig, SENSIM_PAYLOAD_RGBA8, 37, 29);
  copy(&a, &orig);
  copy(&b, &orig);
  void *u = make("{\"quality\": 30, \"subsampling\": \"4:2:2\"}");
  SENSIM_OK_OR_FAIL(apply(u, &a));
  SENSIM_OK_OR_FAIL(apply(u, &b));
  assert_int_equal(a.type, SENSIM_PAYLOAD_RGBA8);
  assert_int_equal(a.width, 37);
  assert_int_equal(a.height, 29);
  assert_int_equal(a.count, 37 * 29);
  assert_memory_equal(a.data, b.data, 4 * a.count);
  const uint8_t *pa = a.data, *po = orig.data;
  int changed = 0;
  for (size_t i = 0; i < a.count; i++) {
    assert_int_equal(pa[4 * i + 3], po[4 * i + 3]);
    changed |= pa[4 * i] != po[4 * i];
  }
  assert_true(changed);
  free(u);
  sensim__frame_release(&a);
  sensim__frame_release(&b);
  sensim__frame_release(&orig);
  /* Grey, 1 x 1. */
  memset(&a, 0, sizeof a);
  SENSIM_OK_OR_FAIL(sensim__frame_alloc_unset(&a, SENSIM_PAYLOAD_GRAY8, 1, 1));
  ((uint8_t *)a.data)[0] = 77;
  u = make("{\"quality\": 100}");
  SENSIM_OK_OR_FAIL(apply(u, &a));
  assert_true(abs(((uint8_t *)a.data)[0] - 77) <= 1);
  free(u);
  sensim__frame_release(&a);
}

/* 4:4:4 keeps colour edges that 4:2:0 smears: on a one-pixel-wide red line
 * on grey, Q100, the red channel at the line keeps its level with 4:4:4
 * and loses about half of it when chroma is averaged over 2 x 2. */
static void test_jpeg_chroma_subsampling_blurs_colour_only(void **state) {
  (void)state;
  sensim_frame f[2];
  const char *json[2] = {"{\"quality\": 100, \"subsampling\": \"4:4:4\"}", "{\"quality\": 100}"};
  int red[2];
  for (int k = 0; k < 2; k++) {
    memset(&f[k], 0, sizeof f[k]);
    SENSIM_OK_OR_FAIL(sensim__frame_alloc_unset(&f[k], SENSIM_PAYLOAD_RGBA8, 32, 32));
    uint8_t *p = f[k].data;
    for (size_t i = 0; i < f[k].count; i++) {
      int line = i % 32 == 13;
      p[4 * i] = line ? 230 : 128, p[4 * i + 1] = line ? 30 : 128, p[4 * i + 2] = line ? 30 : 128, p[4 * i + 3] = 255;
    }
    void *u = make(json[k]);
    SENSIM_OK_OR_FAIL(apply(u, &f[k]));
    free(u);
    red[k] = ((uint8_t *)f[k].data)[4 * (16 * 32 + 13)];
    sensim__frame_release(&f[k]);
  }
  print_message("red line: 4:4:4 %d, 4:2:0 %d (was 230 on 128)\n", red[0], red[1]);
  assert_true(abs(red[0] - 230) <= 2);
  assert_true(red[1] < 200);
}

static void test_jpeg_refuses_bad_parameters_and_payloads(void **state) {
  (void)state;
  const char *bad[] = {"{\"quality\": 0}",        "{\"quality\": 101}",          "{\"quality\": 50.5}",
                       "{\"quality\": \"high\"}", "{\"subsampling\": \"4:1:1\"}", "{\"subsampling\": 420}",
                       "{\"qualty\": 50}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cJSON *p = cJSON_Parse(bad[i]);
    void *u = NULL;
    assert_int_equal(sensim__filter_jpeg.create(p, &u), SENSIM_EINVAL);
    assert_null(u);
    assert_true(strlen(sensim_last_error()) > 0);
    cJSON_Delete(p);
  }
  /* A float image is not 8-bit: the chain refuses it at set-up; called
   * directly the filter refuses it too. */
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim__frame_alloc_unset(&f, SENSIM_PAYLOAD_RGB_F32, 8, 8));
  void *u = make(NULL);
  assert_int_equal(apply(u, &f), SENSIM_ETYPE);
  sensim__frame_release(&f);
  free(u);
  sensim_filter_chain *chain = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &chain));
  assert_int_equal(sensim_filter_chain_add(chain, "jpeg", NULL), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(chain, "srgb8", NULL));
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(chain, "jpeg", "{\"quality\": 50}"));
  assert_int_equal(sensim_filter_chain_output(chain), SENSIM_PAYLOAD_RGBA8);
  sensim_filter_chain_destroy(chain);
}

int sensim_test_jpeg(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_jpeg_psnr_falls_with_quality_within_measured_ranges),
      cmocka_unit_test(test_jpeg_blocks_show_across_8x8_boundaries),
      cmocka_unit_test(test_jpeg_keeps_size_format_alpha_and_is_deterministic),
      cmocka_unit_test(test_jpeg_chroma_subsampling_blurs_colour_only),
      cmocka_unit_test(test_jpeg_refuses_bad_parameters_and_payloads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
