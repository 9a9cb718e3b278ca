/* tests/filters/denoise_tests.c: "denoise", the edge-avoiding a-trous
 * wavelet (filters/denoise.h): a constant image is a fixed point; with the
 * edge stops off it is a linear filter whose noise reduction is the sum of
 * its squared impulse response; normal and depth edges stop it (and the
 * same image without guides bleeds, so the test can tell); the albedo
 * plane keeps texture; bad parameters and frames without guides are
 * refused with their reason. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "filters/denoise.h"
#include "support/testutil.h"
#include "sensim/sensim.h"

/* A deterministic N(0, 1) source for the tests: a 64-bit LCG (Knuth's
 * MMIX constants) and Box-Muller. */
typedef struct gauss {
  uint64_t s;
} gauss;
static double uniform(gauss *g) {
  g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
  return ((g->s >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static double normal(gauss *g) {
  double u = uniform(g), v = uniform(g);
  return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

typedef struct img {
  uint32_t w, h;
  float *c, *depth, *nrm;
} img;

static img make(uint32_t w, uint32_t h, float z, const float n[3]) {
  img m = {w, h, calloc((size_t)w * h * 3, 4), calloc((size_t)w * h, 4), calloc((size_t)w * h * 3, 4)};
  assert_non_null(m.c);
  for (size_t p = 0; p < (size_t)w * h; p++) {
    m.depth[p] = z;
    for (int k = 0; k < 3; k++) m.nrm[3 * p + k] = n[k];
  }
  return m;
}
static void drop(img *m) {
  free(m->c);
  free(m->depth);
  free(m->nrm);
}

static const float kNz[3] = {0, 0, -1}, kNx[3] = {-1, 0, 0};

static void test_denoise_constant_image_is_a_fixed_point(void **state) {
  (void)state;
  img m = make(37, 23, 4.0f, kNz);
  for (size_t i = 0; i < 37 * 23 * 3; i++) m.c[i] = (float)(0.25 + 0.5 * (i % 3));
  sensim_denoise_params p;
  sensim__denoise_params_init(&p);
  SENSIM_OK_OR_FAIL(sensim__denoise(m.c, 3, m.w, m.h, m.depth, m.nrm, NULL, &p));
  for (size_t i = 0; i < 37 * 23 * 3; i++) assert_near(m.c[i], 0.25 + 0.5 * (i % 3), 1e-6);
  drop(&m);
}

/* Mean and variance of column x of channel 0 over rows [y0, y1). */
static void column_stats(const img *m, uint32_t x, uint32_t y0, uint32_t y1, double *mean, double *var) {
  double s = 0, s2 = 0;
  for (uint32_t y = y0; y < y1; y++) {
    double v = m->c[3 * ((size_t)y * m->w + x)];
    s += v, s2 += v * v;
  }
  double n = y1 - y0;
  *mean = s / n;
  *var = s2 / n - *mean * *mean;
}

/* With every edge stop off the filter is linear and shift-invariant away
 * from the borders: white noise of variance s^2 comes out with variance
 * s^2 sum K^2, K its impulse response. */
static void test_denoise_linear_noise_reduction_is_the_impulse_response_energy(void **state) {
  (void)state;
  sensim_denoise_params p = {.iterations = 2, .sigma_luminance = 0, .sigma_normal = 0, .sigma_depth = 0};
  const uint32_t N = 41;
  img d = make(N, N, 3.0f, kNz);
  d.c[3 * (20 * N + 20)] = 1.0f;
  SENSIM_OK_OR_FAIL(sensim__denoise(d.c, 3, N, N, d.depth, d.nrm, NULL, &p));
  double k2 = 0, k1 = 0;
  for (size_t i = 0; i < (size_t)N * N; i++) k2 += (double)d.c[3 * i] * d.c[3 * i], k1 += d.c[3 * i];
  assert_near(k1, 1.0, 1e-6); /* weights are normalised */
  /* Two levels of the B3 spline at steps 1 and 2: sum K^2 is the product
   * of the 1-D sums squared; 1-D: the convolution of h1 with h1 dilated
   * by 2, worked out exactly: sum = 0.2287597656... */
  double h1[5] = {1 / 16., 4 / 16., 6 / 16., 4 / 16., 1 / 16.}, k[13] = {0};
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < 5; b++) k[a + 2 * b] += h1[a] * h1[b];
  double s1 = 0;
  for (int i = 0; i < 13; i++) s1 += k[i] * k[i];
  assert_near(k2, s1 * s1, 1e-6);
  drop(&d);

  const uint32_t W = 512, H = 512;
  img m = make(W, H, 3.0f, kNz);
  gauss g = {12345};
  for (size_t i = 0; i < (size_t)W * H; i++) m.c[3 * i] = m.c[3 * i + 1] = m.c[3 * i + 2] = (float)normal(&g);
  SENSIM_OK_OR_FAIL(sensim__denoise(m.c, 3, W, H, m.depth, m.nrm, NULL, &p));
  double s = 0, sq = 0, n = 0;
  for (uint32_t y = 8; y < H - 8; y++)
    for (uint32_t x = 8; x < W - 8; x++) {
      double v = m.c[3 * ((size_t)y * W + x)];
      s += v, sq += v * v, n++;
    }
  double var = sq / n - (s / n) * (s / n);
  /* The output is correlated over the 13 x 13 footprint: about n / 169
   * independent values, relative standard error of the variance
   * sqrt(2 / (n / 169)) = 3.7 %; 4 of them. */
  assert_true(fabs(var / (s1 * s1) - 1.0) < 0.15);
  drop(&m);
}

/* Two half-planes, value 1 and 3 plus noise of s = 0.3, told apart by
 * their normals (edge = 1) or their depths (edge = 2), or not at all. */
static img halves(int edge, gauss *g) {
  const uint32_t W = 128, H = 96;
  img m = make(W, H, 5.0f, kNz);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      size_t p = (size_t)y * W + x;
      int right = x >= W / 2;
      float v = (float)((right ? 3.0 : 1.0) + 0.3 * normal(g));
      m.c[3 * p] = m.c[3 * p + 1] = m.c[3 * p + 2] = v;
      if (right && edge == 1) memcpy(m.nrm + 3 * p, kNx, sizeof kNx);
      if (right && edge == 2) m.depth[p] = 9.0f;
    }
  return m;
}

static void test_denoise_stops_at_normal_and_depth_edges(void **state) {
  (void)state;
  sensim_denoise_params p;
  sensim__denoise_params_init(&p);
  for (int edge = 1; edge <= 2; edge++) {
    gauss g = {777u + (unsigned)edge};
    img m = halves(edge, &g);
    SENSIM_OK_OR_FAIL(sensim__denoise(m.c, 3, m.w, m.h, m.depth, m.nrm, NULL, &p));
    double mean, var;
    /* The columns either side of the edge keep their own level: the
     * filtered mean over 64 rows has a standard error below 0.3 / 8; 4 of
     * them is 0.15. */
    column_stats(&m, 63, 16, 80, &mean, &var);
    assert_true(fabs(mean - 1.0) < 0.15);
    column_stats(&m, 64, 16, 80, &mean, &var);
    assert_true(fabs(mean - 3.0) < 0.15);
    /* And the noise is down by well over 3 inside each half. */
    column_stats(&m, 30, 16, 80, &mean, &var);
    assert_true(sqrt(var) < 0.1);
    drop(&m);
  }
  /* Without anything telling the halves apart, and the luminance stop off,
   * the same filter blurs the step: the edge columns move by far more than
   * the tolerance above. */
  gauss g = {778};
  img m = halves(0, &g);
  p.sigma_luminance = 0;
  SENSIM_OK_OR_FAIL(sensim__denoise(m.c, 3, m.w, m.h, m.depth, m.nrm, NULL, &p));
  double mean, var;
  column_stats(&m, 63, 16, 80, &mean, &var);
  assert_true(mean - 1.0 > 0.5);
  drop(&m);
}

/* Radiance = albedo x irradiance: with the albedo plane the filter smooths
 * the irradiance and puts a fine checkerboard texture back untouched. */
static void test_denoise_albedo_keeps_texture(void **state) {
  (void)state;
  const uint32_t W = 64, H = 64;
  img m = make(W, H, 2.0f, kNz);
  float *alb = malloc((size_t)W * H * 3 * 4);
  gauss g = {4242};
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      size_t p = (size_t)y * W + x;
      float a = ((x ^ y) & 1) ? 0.8f : 0.2f;
      for (int k = 0; k < 3; k++) {
        alb[3 * p + k] = a;
        m.c[3 * p + k] = (float)(a * (2.0 + 0.2 * normal(&g)));
      }
    }
  sensim_denoise_params p;
  sensim__denoise_params_init(&p);
  SENSIM_OK_OR_FAIL(sensim__denoise(m.c, 3, W, H, m.depth, m.nrm, alb, &p));
  double worst = 0;
  for (uint32_t y = 8; y < H - 8; y++)
    for (uint32_t x = 8; x < W - 8; x++) {
      size_t p = (size_t)y * W + x;
      worst = fmax(worst, fabs(m.c[3 * p] / alb[3 * p] - 2.0));
    }
  /* Noise 0.2 per pixel before; the filtered irradiance is within 0.1. */
  assert_true(worst < 0.1);
  free(alb);
  drop(&m);
}

static void test_denoise_filter_parameters_and_frames_refused_with_reasons(void **state) {
  (void)state;
  sensim_filter_chain *ch = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &ch));
  static const char *bad[] = {"{\"iterations\": 0}",         "{\"iterations\": 11}",
                              "{\"iterations\": 2.5}",       "{\"sigma_luminance\": -1}",
                              "{\"sigma_depth\": 1e300}",    "{\"sigma_normal\": \"a\"}",
                              "{\"sigmas\": 1}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_true(sensim_filter_chain_add(ch, "denoise", bad[i]) < 0);
    assert_non_null(strstr(sensim_last_error(), "denoise"));
  }
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(ch, "denoise", "{\"iterations\": 3}"));
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGB_F32, 8, 8));
  assert_int_equal(sensim_filter_chain_run(ch, &f, 1, 0), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "neither a depth nor a normal plane"));
  /* With a depth plane it runs. */
  f.depth = calloc(64, sizeof(float));
  for (int i = 0; i < 64; i++) f.depth[i] = 1.0f;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_run(ch, &f, 1, 0));
  sensim_frame_release(&f);
  sensim_filter_chain_destroy(ch);
  /* Payloads it cannot take. */
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RAW_F32, &ch));
  assert_int_equal(sensim_filter_chain_add(ch, "denoise", NULL), SENSIM_ETYPE);
  sensim_filter_chain_destroy(ch);
}

int sensim_test_denoise(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_denoise_constant_image_is_a_fixed_point),
      cmocka_unit_test(test_denoise_linear_noise_reduction_is_the_impulse_response_energy),
      cmocka_unit_test(test_denoise_stops_at_normal_and_depth_edges),
      cmocka_unit_test(test_denoise_albedo_keeps_texture),
      cmocka_unit_test(test_denoise_filter_parameters_and_frames_refused_with_reasons),
  };
  return cmocka_run_group_tests_name("denoise", tests, NULL, NULL);
}
