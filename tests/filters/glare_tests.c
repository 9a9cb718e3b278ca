/* tests/filters/glare_tests.c: "glare": the kernel against Spencer et
 * al.'s photopic PSF (closed form transcribed here) and its normalisation,
 * energy kept to 1e-6 for a point source, a point source's image being the
 * kernel, a uniform field unchanged away from the edges, the strength mix,
 * non-finite values, determinism over frame sizes, and bad input. */
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
  SENSIM_OK_OR_FAIL(sensim__filter_glare.create(p, &user));
  cJSON_Delete(p);
  return user;
}

static sensim_status apply(void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  return sensim__filter_glare.def.apply(user, f, &ctx);
}

static void image(sensim_frame *f, uint32_t W, uint32_t H, float fill) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, SENSIM_PAYLOAD_RGB_F32, W, H));
  f->unit = SENSIM_UNIT_RADIANCE;
  for (size_t i = 0; i < 3 * f->count; i++) ((float *)f->data)[i] = fill;
}

/* Spencer, Shirley, Zimmerman and Greenberg (SIGGRAPH 1995): the photopic
 * PSF, theta in degrees. */
static double psf(double theta) {
  double f0 = 2.61e6 * exp(-pow(theta / 0.02, 2)), f1 = 20.91 / pow(theta + 0.02, 3), f2 = 72.37 / pow(theta + 0.02, 2);
  return 0.384 * f0 + 0.478 * f1 + 0.138 * f2;
}

static void test_glare_kernel_follows_spencer_psf_and_sums_to_one(void **state) {
  (void)state;
  cJSON *p = cJSON_Parse("{\"deg_per_px\": 0.1, \"radius_px\": 40}");
  int R = 0;
  double *k = NULL;
  SENSIM_OK_OR_FAIL(sensim__glare_kernel(p, &R, &k));
  cJSON_Delete(p);
  assert_int_equal(R, 40);
  const int w = 2 * R + 1;
  double sum = 0;
  for (int i = 0; i < w * w; i++) sum += k[i];
  assert_near(sum, 1.0, 1e-12);
#define K(i, j) k[(size_t)((j) + R) * w + ((i) + R)]
  /* Symmetric, zero outside the disc, largest at the centre. */
  assert_near(K(-3, 7), K(7, 3), 1e-14 * K(7, 3));
  assert_near(K(-7, -3), K(7, 3), 1e-14 * K(7, 3));
  assert_true(K(40, 1) == 0 && K(29, 29) == 0 && K(40, 0) > 0);
  /* Away from the source the pixel average is the PSF at the pixel centre
   * to second order (the 1/theta^3 term's curvature over a 0.1 deg pixel:
   * 0.5 % at 1 deg, measured 0.9 % at 0.5 deg); ratios between radii test the shape, whatever the
   * normalisation. */
  const int r[] = {5, 10, 20, 35};
  for (int a = 0; a < 3; a++) {
    double got = K(r[a], 0) / K(r[a + 1], 0), want = psf(0.1 * r[a]) / psf(0.1 * r[a + 1]);
    if (fabs(got / want - 1) > 0.015) fail_msg("K(%d)/K(%d) = %g, PSF ratio %g", r[a], r[a + 1], got, want);
  }
  /* The centre pixel holds the core, 0.384 x 2.61e6 pi 0.02^2 = 1260 of the
   * PSF's integral, plus the near scattering: it dominates its neighbour. */
  assert_true(K(0, 0) > 10 * K(1, 0));
#undef K
  free(k);
}

/* A point source in the middle of a frame wider than the kernel: the total
 * radiance is kept, and the image is the kernel times the source. */
static void test_glare_point_source_keeps_energy_and_draws_the_kernel(void **state) {
  (void)state;
  sensim_frame f;
  image(&f, 151, 131, 0.0f);
  float *v = f.data;
  const size_t cx = 75, cy = 65;
  v[3 * (cy * 151 + cx) + 1] = 1000.0f;
  void *u = make("{\"deg_per_px\": 0.1, \"radius_px\": 40}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  double sum[3] = {0, 0, 0};
  for (size_t i = 0; i < f.count; i++)
    for (int c = 0; c < 3; c++) sum[c] += v[3 * i + c];
  assert_near(sum[1], 1000.0, 1e-6 * 1000.0);
  assert_true(fabs(sum[0]) < 1e-9 && fabs(sum[2]) < 1e-9);
  cJSON *p = cJSON_Parse("{\"deg_per_px\": 0.1, \"radius_px\": 40}");
  int R;
  double *k;
  SENSIM_OK_OR_FAIL(sensim__glare_kernel(p, &R, &k));
  cJSON_Delete(p);
  const int offs[][2] = {{0, 0}, {1, 0}, {0, -3}, {10, 4}, {-25, 17}, {39, 0}, {41, 0}};
  for (size_t t = 0; t < sizeof offs / sizeof offs[0]; t++) {
    int i = offs[t][0], j = offs[t][1];
    double want = abs(i) <= R && abs(j) <= R ? 1000.0 * k[(size_t)(j + R) * (2 * R + 1) + (i + R)] : 0;
    assert_near(v[3 * ((cy + j) * 151 + cx + i) + 1], want, 1e-9 * 1000 + 1e-6 * want);
  }
  free(k);
  sensim__frame_release(&f);
  /* Near the edge light leaves the frame: less is kept. */
  image(&f, 151, 131, 0.0f);
  v = f.data;
  v[3 * (2 * 151 + 2)] = 1000.0f;
  SENSIM_OK_OR_FAIL(apply(u, &f));
  double edge = 0;
  for (size_t i = 0; i < f.count; i++) edge += v[3 * i];
  assert_true(edge < 999.0 && edge > 500.0);
  sensim__filter_glare.def.destroy(u);
  sensim__frame_release(&f);
}

/* A uniform field: every pixel at least radius_px from the edges receives
 * the whole kernel and keeps its value; the corners lose light. strength
 * mixes linearly; 0 changes nothing; a NaN stays where it is. */
static void test_glare_uniform_field_strength_and_nan(void **state) {
  (void)state;
  sensim_frame f;
  image(&f, 100, 90, 0.25f);
  void *u = make("{\"deg_per_px\": 0.05, \"radius_px\": 20}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  const float *v = f.data;
  for (size_t y = 20; y < 70; y++)
    for (size_t x = 20; x < 80; x++) assert_near(v[3 * (y * 100 + x) + 2], 0.25, 1e-6);
  assert_true(v[0] < 0.25f && v[0] > 0.25f * 0.25f);
  float corner = v[0];
  sensim__filter_glare.def.destroy(u);
  sensim__frame_release(&f);
  image(&f, 100, 90, 0.25f);
  u = make("{\"deg_per_px\": 0.05, \"radius_px\": 20, \"strength\": 0.4}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  assert_near(((float *)f.data)[0], 0.6 * 0.25 + 0.4 * corner, 1e-6);
  sensim__filter_glare.def.destroy(u);
  sensim__frame_release(&f);
  image(&f, 30, 20, 0.5f);
  ((float *)f.data)[3 * 45] = NAN;
  float *copy = malloc(3 * f.count * sizeof *copy);
  assert_non_null(copy);
  memcpy(copy, f.data, 3 * f.count * sizeof *copy);
  u = make("{\"deg_per_px\": 0.05, \"strength\": 0}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  assert_memory_equal(copy, f.data, 3 * f.count * sizeof *copy);
  sensim__filter_glare.def.destroy(u);
  u = make("{\"deg_per_px\": 0.05, \"radius_px\": 4}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  assert_true(isnan(((float *)f.data)[3 * 45]));
  for (size_t i = 0; i < 3 * f.count; i++)
    if (i != 3 * 45) assert_true(isfinite(((float *)f.data)[i]));
  sensim__filter_glare.def.destroy(u);
  free(copy);
  sensim__frame_release(&f);
}

/* One filter over frames of two sizes (its cached kernel transform is
 * rebuilt) gives each the bits a fresh filter gives. */
static void test_glare_is_deterministic_across_frame_sizes(void **state) {
  (void)state;
  void *shared = make("{\"deg_per_px\": 0.2, \"radius_px\": 8}");
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t W = 20; W <= 33; W += 13) {
      sensim_frame a, b;
      image(&a, W, 17, 0.0f);
      image(&b, W, 17, 0.0f);
      ((float *)a.data)[3 * 40] = ((float *)b.data)[3 * 40] = 5.0f;
      void *fresh = make("{\"deg_per_px\": 0.2, \"radius_px\": 8}");
      SENSIM_OK_OR_FAIL(apply(shared, &a));
      SENSIM_OK_OR_FAIL(apply(fresh, &b));
      assert_memory_equal(a.data, b.data, 3 * a.count * sizeof(float));
      sensim__filter_glare.def.destroy(fresh);
      sensim__frame_release(&a);
      sensim__frame_release(&b);
    }
  sensim__filter_glare.def.destroy(shared);
}

static void test_glare_refuses_bad_input(void **state) {
  (void)state;
  const char *bad[] = {NULL,
                       "{\"deg_per_px\": 0}",
                       "{\"deg_per_px\": 11}",
                       "{\"deg_per_px\": 0.1, \"radius_px\": 0}",
                       "{\"deg_per_px\": 0.1, \"radius_px\": 2.5}",
                       "{\"deg_per_px\": 0.1, \"radius_px\": 2000}",
                       "{\"deg_per_px\": 0.1, \"strength\": 1.5}",
                       "{\"deg_per_px\": 0.1, \"radius\": 5}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cJSON *p = bad[i] ? cJSON_Parse(bad[i]) : NULL;
    void *u = NULL;
    assert_int_equal(sensim__filter_glare.create(p, &u), SENSIM_EINVAL);
    assert_null(u);
    cJSON_Delete(p);
  }
  assert_non_null(strstr(sensim_last_error(), "no parameter 'radius'"));
  sensim_frame f;
  image(&f, 4, 4, 1.0f);
  f.unit = SENSIM_UNIT_ELECTRONS;
  void *u = make("{\"deg_per_px\": 0.1}");
  assert_int_equal(apply(u, &f), SENSIM_ETYPE);
  sensim__filter_glare.def.destroy(u);
  sensim__frame_release(&f);
}

int sensim_test_glare(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_glare_kernel_follows_spencer_psf_and_sums_to_one),
      cmocka_unit_test(test_glare_point_source_keeps_energy_and_draws_the_kernel),
      cmocka_unit_test(test_glare_uniform_field_strength_and_nan),
      cmocka_unit_test(test_glare_is_deterministic_across_frame_sizes),
      cmocka_unit_test(test_glare_refuses_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
