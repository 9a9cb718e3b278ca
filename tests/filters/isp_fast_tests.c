/* tests/filters/isp_fast_tests.c: the ISP's shortcuts give the results of
 * the plain computation. The chain's early "cfa" (filters/chain.c) gives
 * the same bits as the chain in its written order, frame after frame
 * (auto exposure feeding back); the table-driven sRGB curve is within
 * 1e-7 of the formula over a dense sweep of [0, 1]; MHC demosaicing,
 * "adc" and "quantize" give the bits of their plain reference
 * formulas (the code before they were made fast) on random frames. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "filters/image_sensor_fixtures.h"
#include "support/testutil.h"

/* The typical chain of docs/camera_pipeline.md. */
static const char *const kTypical[][2] = {
    {"image_sensor", NULL},   {"noise_emva1288", NULL}, {"cfa", NULL},
    {"adc", NULL},            {"demosaic", "{\"method\": \"mhc\"}"},
    {"white_balance", NULL},  {"ccm", NULL},            {"auto_exposure", NULL},
    {"tone", NULL},           {"quantize", NULL},
};
#define NTYPICAL (sizeof kTypical / sizeof kTypical[0])

static void build_typical(sensim_chain *c) {
  sensim__chain_init(c, SENSIM_PAYLOAD_RGB_F32);
  for (size_t i = 0; i < NTYPICAL; i++)
    SENSIM_OK_OR_FAIL(sensim__chain_append_builtin(c, kTypical[i][0], kTypical[i][1], NULL));
}

/* A radiance frame with a gradient, texture, and the odd bad value. */
static void radiance_frame(sensim_frame *f, uint32_t w, uint32_t h, uint64_t index) {
  fx_image(f, SENSIM_PAYLOAD_RGB_F32, w, h, SENSIM_UNIT_RADIANCE, 0.0f, index);
  float *v = f->data;
  for (size_t i = 0; i < 3 * f->count; i++) {
    size_t p = i / 3, x = p % w, y = p / w;
    double r = 0.02 + 0.5 * (double)x / w * (1.0 + 0.3 * sin(0.7 * (double)y + (double)(i % 3)));
    v[i] = (float)(i % 1009 == 0 ? NAN : i % 997 == 0 ? -0.1 : i % 991 == 0 ? 10.0 : r);
  }
}

static void test_typical_chain_gives_same_bits_with_cfa_run_first(void **state) {
  (void)state;
  sensim_chain a, b;
  build_typical(&a);
  build_typical(&b);
  b.keep_order = 1;
  for (uint64_t k = 0; k < 4; k++) { /* auto exposure changes the exposure of later frames */
    sensim_frame fa, fb;
    radiance_frame(&fa, 67, 45, k);
    radiance_frame(&fb, 67, 45, k);
    SENSIM_OK_OR_FAIL(sensim__chain_run(&a, &fa, 77, 4));
    SENSIM_OK_OR_FAIL(sensim__chain_run(&b, &fb, 77, 4));
    assert_int_equal(fa.type, SENSIM_PAYLOAD_RGBA8);
    assert_int_equal(fb.type, SENSIM_PAYLOAD_RGBA8);
    assert_memory_equal(fa.data, fb.data, 4 * fa.count);
    assert_true(fa.exposure_time == fb.exposure_time && fa.gain == fb.gain);
    free(fa.data);
    free(fb.data);
  }
  sensim__chain_free(&a);
  sensim__chain_free(&b);
}

/* ---- tone srgb ---------------------------------------------------------- */

static double srgb_ref(double v) {
  if (!(v > 0)) return 0.0;
  if (v > 1) v = 1;
  return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
}

static void test_tone_srgb_within_1e7_of_formula_over_dense_sweep(void **state) {
  (void)state;
  /* Every 61st float in [2^-10, 1] (about 1.7e7 values, every segment of
   * the table many times) and the specials. Float rounding alone is 6e-8;
   * a wrong coefficient or an off-by-one segment is 1e-5 or more. */
  void *u = fx_make(&sensim__filter_tone, NULL);
  const uint32_t lo = 0x3A800000u, hi = 0x3F800000u; /* 2^-10 .. 1 */
  size_t n = (hi - lo) / 61 + 8;
  sensim_frame f;
  fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, (uint32_t)n, 1, SENSIM_UNIT_SIGNAL, 0.0f, 0);
  float *v = f.data, *in = malloc(n * sizeof *in);
  assert_non_null(in);
  size_t k = 0;
  for (uint32_t b = lo; b < hi && k < n - 8; b += 61, k++) memcpy(&v[k], &b, sizeof v[k]);
  const float specials[] = {0.0f, -0.0f, -1.0f, NAN, 1.0f, 2.0f, 0.0031308f, INFINITY};
  for (int j = 0; j < 8 && k < n; j++) v[k++] = specials[j];
  for (; k < n; k++) v[k] = 0.5f;
  memcpy(in, v, n * sizeof *in);
  run_ok(&sensim__filter_tone, u, &f);
#if defined(SENSIM_HAVE_AVX2_PATHS)
  { /* the plain path gives the same bits as the AVX2 one */
    sensim_frame g;
    fx_image(&g, SENSIM_PAYLOAD_GRAY_F32, (uint32_t)n, 1, SENSIM_UNIT_SIGNAL, 0.0f, 0);
    memcpy(g.data, in, n * sizeof *in);
    atomic_store(&sensim__cpu_avx2_off, 1);
    run_ok(&sensim__filter_tone, u, &g);
    atomic_store(&sensim__cpu_avx2_off, 0);
    assert_memory_equal(g.data, f.data, n * sizeof *in);
    free(g.data);
  }
#endif
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    double want = srgb_ref(in[i]);
    double err = want > 0 ? fabs(v[i] - want) / want : fabs(v[i]);
    if (err > worst) worst = err;
    if (!(in[i] > 0.0031308) || in[i] >= 1.0f) assert_true(v[i] == (float)want); /* exact outside the table */
  }
  if (!(worst <= 1e-7)) fail_msg("tone srgb: relative error %g", worst);
  free(in);
  free(f.data);
  fx_drop(&sensim__filter_tone, u);
}

/* ---- demosaic mhc --------------------------------------------------------- */

static long ref_reflect(long i, long n) {
  long p = 2 * (n - 1);
  i %= p;
  if (i < 0) i += p;
  return i < n ? i : p - i;
}

/* Malvar, He & Cutler 2004 as the filter computed it before its rows were
 * specialised: a padded copy, the 5 x 5 kernels with their zero taps
 * skipped, row-major sums in double. */
static const double kG[5][5] = {{0, 0, -1, 0, 0}, {0, 0, 2, 0, 0}, {-1, 2, 4, 2, -1}, {0, 0, 2, 0, 0}, {0, 0, -1, 0, 0}};
static const double kRow[5][5] = {
    {0, 0, 0.5, 0, 0}, {0, -1, 0, -1, 0}, {-1, 4, 5, 4, -1}, {0, -1, 0, -1, 0}, {0, 0, 0.5, 0, 0}};
static const double kCol[5][5] = {
    {0, 0, -1, 0, 0}, {0, -1, 4, -1, 0}, {0.5, 0, 5, 0, 0.5}, {0, -1, 4, -1, 0}, {0, 0, -1, 0, 0}};
static const double kDiag[5][5] = {
    {0, 0, -1.5, 0, 0}, {0, 2, 0, 2, 0}, {-1.5, 0, 6, 0, -1.5}, {0, 2, 0, 2, 0}, {0, 0, -1.5, 0, 0}};

static double ref_k5(const float *raw, long W, long H, long x, long y, const double k[5][5]) {
  double s = 0.0;
  for (int dy = 0; dy < 5; dy++)
    for (int dx = 0; dx < 5; dx++)
      if (k[dy][dx] != 0.0) s += k[dy][dx] * raw[ref_reflect(y + dy - 2, H) * W + ref_reflect(x + dx - 2, W)];
  return s * 0.125;
}

static void test_demosaic_mhc_gives_bits_of_plain_kernels(void **state) {
  (void)state;
  void *u = fx_make(&sensim__filter_demosaic, "{\"method\": \"mhc\"}");
  const uint32_t sizes[][2] = {{64, 48}, {33, 17}, {2, 2}, {5, 3}};
  const sensim_cfa cfas[] = {SENSIM_CFA_RGGB, SENSIM_CFA_BGGR, SENSIM_CFA_GRBG, SENSIM_CFA_GBRG};
  uint32_t seed = 12345;
  for (int si = 0; si < 4; si++)
    for (int ci = 0; ci < 4; ci++) {
      long W = sizes[si][0], H = sizes[si][1];
      sensim_frame f;
      fx_image(&f, SENSIM_PAYLOAD_RAW_F32, (uint32_t)W, (uint32_t)H, SENSIM_UNIT_SIGNAL, 0.0f, 0);
      f.cfa = cfas[ci];
      float *raw = malloc((size_t)(W * H) * sizeof *raw);
      assert_non_null(raw);
      for (long i = 0; i < W * H; i++) {
        seed = seed * 1664525u + 1013904223u;
        raw[i] = (float)(seed >> 8) / 16777216.0f * 1.2f - 0.1f;
      }
      memcpy(f.data, raw, (size_t)(W * H) * sizeof *raw);
      run_ok(&sensim__filter_demosaic, u, &f);
      const int *col = sensim__cfa_cell(cfas[ci]);
      const float *rgb = f.data;
      for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x++) {
          int own = col[(x & 1) + 2 * (y & 1)];
          double v[3];
          v[own] = raw[y * W + x];
          if (own == 1) {
            int horiz = col[((x + 1) & 1) + 2 * (y & 1)];
            v[horiz] = ref_k5(raw, W, H, x, y, kRow);
            v[2 - horiz] = ref_k5(raw, W, H, x, y, kCol);
          } else {
            v[1] = ref_k5(raw, W, H, x, y, kG);
            v[2 - own] = ref_k5(raw, W, H, x, y, kDiag);
          }
          for (int c = 0; c < 3; c++)
            if (memcmp(&rgb[3 * (y * W + x) + c], &(float){(float)v[c]}, sizeof(float)) != 0)
              fail_msg("%ldx%ld cfa %d: pixel (%ld, %ld) channel %d: %.9g, want %.9g", W, H, (int)cfas[ci], x, y, c,
                       rgb[3 * (y * W + x) + c], v[c]);
        }
      free(raw);
      free(f.data);
    }
  fx_drop(&sensim__filter_demosaic, u);
}

/* ---- adc and quantize ------------------------------------------------------ */

static void test_adc_and_quantize_give_bits_of_reference_formulas(void **state) {
  (void)state;
  /* adc (defaults: 12 bits, K = 4095 / 10000 DN/e-, black level 0) at gain
   * 1.5: DN = clamp(floor(K g min(e, 10000) + 0.5), 0, 4095), SIGNAL =
   * DN / 4095; quantize: floor(clamp(v, 0, 1) 255 + 0.5), NaN -> 0. */
  void *adc = fx_make(&sensim__filter_adc, NULL), *q = fx_make(&sensim__filter_quantize, NULL);
  sensim_frame f;
  fx_image(&f, SENSIM_PAYLOAD_RGB_F32, 101, 37, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
  f.gain = 1.5;
  float *v = f.data;
  size_t n = 3 * f.count;
  float *in = malloc(n * sizeof *in);
  assert_non_null(in);
  uint32_t seed = 99;
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = i % 101 == 0 ? NAN : i % 103 == 0 ? INFINITY : (float)((double)(seed >> 8) / 16777216.0 * 12000.0 - 500.0);
  }
  memcpy(in, v, n * sizeof *in);
  run_ok(&sensim__filter_adc, adc, &f);
  const double K = 4095.0 / 10000.0;
  for (size_t i = 0; i < n; i++) {
    double e = in[i] > 10000.0f ? 10000.0 : in[i];
    double dn = floor(K * 1.5 * e + 0.0 + 0.5);
    if (!(dn > 0)) dn = 0;
    if (dn > 4095) dn = 4095;
    assert_true(v[i] == (float)((dn - 0.0) / 4095.0));
  }
  for (size_t i = 0; i < n; i++) v[i] = (float)((double)(i % 1000) / 997.0 - 0.001), in[i] = v[i];
  v[7] = NAN, in[7] = NAN;
  run_ok(&sensim__filter_quantize, q, &f);
  const uint8_t *o = f.data;
  for (size_t p = 0; p < f.count; p++) {
    for (int c = 0; c < 3; c++) {
      float x = in[3 * p + c];
      int want = !(x > 0) ? 0 : x >= 1 ? 255 : (int)floor((double)x * 255.0 + 0.5);
      assert_int_equal(o[4 * p + c], want);
    }
    assert_int_equal(o[4 * p + 3], 255);
  }
  free(in);
  free(f.data);
  fx_drop(&sensim__filter_adc, adc);
  fx_drop(&sensim__filter_quantize, q);
}

/* ---- bands on the world's workers ------------------------------------------ */

/* The typical chain on a camera of a world with `threads` workers: the
 * rgba8 frames of three captures (the third after auto exposure has acted),
 * and the same chain standalone on the camera's first radiance frame. */
static void typical_frames(int threads, uint8_t *out[3], size_t *bytes) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.seed = 4242;
  p.background[0] = 0.1f, p.background[1] = 0.25f, p.background[2] = 0.4f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 96;
  cp.height = 64; /* 64 rows: 12 bands with two workers */
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  for (size_t i = 0; i < NTYPICAL; i++) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, kTypical[i][0], kTypical[i][1]));
  for (int k = 0; k < 3; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 10.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_int_equal(f->type, SENSIM_PAYLOAD_RGBA8);
    *bytes = 4 * f->count;
    out[k] = malloc(*bytes);
    assert_non_null(out[k]);
    memcpy(out[k], f->data, *bytes);
  }
  sensim_world_destroy(w);
}

static void test_typical_chain_same_bits_for_zero_one_and_two_workers(void **state) {
  (void)state;
  /* Noise, demosaic, tone and quantize split their rows over the world's
   * workers inside the capture; every row is computed from its own inputs
   * and keyed by position, so the frames do not depend on the count. */
  uint8_t *f0[3], *f1[3], *f2[3];
  size_t n0 = 0, n1 = 0, n2 = 0;
  typical_frames(0, f0, &n0);
  typical_frames(1, f1, &n1);
  typical_frames(2, f2, &n2);
  assert_true(n0 == n1 && n0 == n2 && n0 == 4u * 96 * 64);
  for (int k = 0; k < 3; k++) {
    assert_memory_equal(f0[k], f1[k], n0);
    assert_memory_equal(f0[k], f2[k], n0);
    free(f0[k]);
    free(f1[k]);
    free(f2[k]);
  }
}

static void test_typical_chain_same_bits_on_plain_and_avx2_paths(void **state) {
  (void)state;
  /* Every stage with an AVX2 copy (noise, adc, white balance, ccm, tone,
   * quantize) does the plain path's IEEE operations in the same order. */
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (!sensim__cpu_has_avx2()) skip();
  sensim_chain a, b;
  build_typical(&a);
  build_typical(&b);
  for (uint64_t k = 0; k < 2; k++) {
    sensim_frame fa, fb;
    radiance_frame(&fa, 203, 61, k);
    radiance_frame(&fb, 203, 61, k);
    SENSIM_OK_OR_FAIL(sensim__chain_run(&a, &fa, 5, 1));
    atomic_store(&sensim__cpu_avx2_off, 1);
    SENSIM_OK_OR_FAIL(sensim__chain_run(&b, &fb, 5, 1));
    atomic_store(&sensim__cpu_avx2_off, 0);
    assert_memory_equal(fa.data, fb.data, 4 * fa.count);
    free(fa.data);
    free(fb.data);
  }
  sensim__chain_free(&a);
  sensim__chain_free(&b);
#else
  skip();
#endif
}

int sensim_test_isp_fast(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_typical_chain_gives_same_bits_with_cfa_run_first),
      cmocka_unit_test(test_tone_srgb_within_1e7_of_formula_over_dense_sweep),
      cmocka_unit_test(test_demosaic_mhc_gives_bits_of_plain_kernels),
      cmocka_unit_test(test_adc_and_quantize_give_bits_of_reference_formulas),
      cmocka_unit_test(test_typical_chain_same_bits_for_zero_one_and_two_workers),
      cmocka_unit_test(test_typical_chain_same_bits_on_plain_and_avx2_paths),
  };
  return cmocka_run_group_tests_name("isp_fast", tests, NULL, NULL);
}
