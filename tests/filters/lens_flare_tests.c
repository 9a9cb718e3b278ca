/* tests/filters/lens_flare_tests.c: "lens_flare": a point light's ghosts
 * centred on the line through the principal point at t_k times the
 * light's offset, each carrying gain x tint x the light (energy to 1e-6),
 * spread as a uniform disc (second moment r^2 / 4 per axis), the
 * threshold, ghosts leaving the frame, a given principal point, and bad
 * input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "support/testutil.h"

static void *make(const char *json) {
  cJSON *p = cJSON_Parse(json);
  assert_non_null(p);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(sensim__filter_lens_flare.create(p, &user));
  cJSON_Delete(p);
  return user;
}

static sensim_status apply(void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  return sensim__filter_lens_flare.def.apply(user, f, &ctx);
}

static void dark(sensim_frame *f, uint32_t W, uint32_t H) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, SENSIM_PAYLOAD_RGB_F32, W, H));
  f->unit = SENSIM_UNIT_RADIANCE;
}

/* Sum, centroid and per-axis second central moments of channel c over the
 * window [x0, x1) x [y0, y1). */
typedef struct blob {
  double sum, mx, my, vx, vy;
} blob;

static blob measure(const sensim_frame *f, int c, uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) {
  const float *v = f->data;
  blob b = {0, 0, 0, 0, 0};
  double sx = 0, sy = 0, sxx = 0, syy = 0;
  for (uint32_t y = y0; y < y1; y++)
    for (uint32_t x = x0; x < x1; x++) {
      double w = v[3 * ((size_t)y * f->width + x) + c];
      b.sum += w, sx += w * x, sy += w * y, sxx += w * x * x, syy += w * y * y;
    }
  b.mx = sx / b.sum, b.my = sy / b.sum;
  b.vx = sxx / b.sum - b.mx * b.mx, b.vy = syy / b.sum - b.my * b.my;
  return b;
}

/* 121 x 101 image, principal point (60, 50); a light of 1000 at (30, 35),
 * offset (-30, -15). Ghost A: t = -0.6 -> centre (78, 59), r = 6, gain
 * 0.01, tint (1, 0.5, 0.25); ghost B: t = 0.4 -> (48, 44), r = 3, gain
 * 0.002. */
static void test_lens_flare_ghosts_lie_on_the_line_with_their_energy_and_disc(void **state) {
  (void)state;
  sensim_frame f;
  dark(&f, 121, 101);
  float *v = f.data;
  for (int c = 0; c < 3; c++) v[3 * (35 * 121 + 30) + c] = 1000.0f;
  void *u = make("{\"ghosts\": [{\"scale\": -0.6, \"radius_px\": 6, \"gain\": 0.01, \"tint\": [1, 0.5, 0.25]},"
                 " {\"scale\": 0.4, \"radius_px\": 3, \"gain\": 0.002}]}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  /* The light itself is kept (ghosts add light). */
  assert_near(v[3 * (35 * 121 + 30)], 1000.0, 1e-3);
  const double tint[3] = {1, 0.5, 0.25};
  for (int c = 0; c < 3; c++) {
    blob a = measure(&f, c, 70, 87, 51, 68);
    assert_near(a.sum, 1000 * 0.01 * tint[c], 1e-6 * 10);
    assert_near(a.mx, 78, 1e-3);
    assert_near(a.my, 59, 1e-3);
    /* A uniform disc of radius r: r^2 / 4 per axis, plus 1/12 for binning
     * it into pixels (Sheppard's correction): 9.083 for r = 6, 2.333 for
     * r = 3; 1 % for the 8 x 8 coverage sampling. */
    assert_near(a.vx, 9.0 + 1.0 / 12, 0.09);
    assert_near(a.vy, 9.0 + 1.0 / 12, 0.09);
    blob b = measure(&f, c, 44, 53, 40, 49);
    assert_near(b.sum, 1000 * 0.002, 1e-6 * 2);
    assert_near(b.mx, 48, 1e-3);
    assert_near(b.my, 44, 1e-3);
    assert_near(b.vx, 2.25 + 1.0 / 12, 0.023);
  }
  /* Nothing anywhere else: the whole frame holds the light and the two
   * ghosts. */
  blob all = measure(&f, 0, 0, 121, 0, 101);
  assert_near(all.sum, 1000 + 10 + 2, 1e-6 * 1012);
  sensim__filter_lens_flare.def.destroy(u);
  sensim__frame_release(&f);
}

/* A sub-pixel ghost position: the bilinear splat keeps the centroid. A
 * given principal point moves the line. */
static void test_lens_flare_subpixel_centre_and_principal_point(void **state) {
  (void)state;
  sensim_frame f;
  dark(&f, 80, 60);
  ((float *)f.data)[3 * (10 * 80 + 13) + 1] = 50.0f;
  /* cx, cy = (40.3, 29.8): offset (-27.3, -19.8), t = -1.1 -> (70.33, 51.58). */
  void *u = make("{\"cx\": 40.3, \"cy\": 29.8, \"ghosts\": [{\"scale\": -1.1, \"radius_px\": 4, \"gain\": 0.1}]}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  blob b = measure(&f, 1, 60, 80, 42, 60);
  assert_near(b.sum, 5.0, 1e-5);
  assert_near(b.mx, 70.33, 2e-3);
  assert_near(b.my, 51.58, 2e-3);
  sensim__filter_lens_flare.def.destroy(u);
  sensim__frame_release(&f);
}

/* Only light above the threshold makes ghosts, and only its excess; a
 * ghost beyond the frame's edge leaves it; NaN stays and makes none. */
static void test_lens_flare_threshold_edges_and_nan(void **state) {
  (void)state;
  sensim_frame f;
  dark(&f, 64, 48);
  float *v = f.data;
  for (size_t i = 0; i < 3 * f.count; i++) v[i] = 0.5f; /* below the threshold */
  v[3 * (20 * 64 + 20)] = 3.0f;                         /* 2 above it */
  v[3 * (5 * 64 + 5) + 2] = NAN;
  void *u = make("{\"threshold\": 1, \"ghosts\": [{\"scale\": -1, \"radius_px\": 2, \"gain\": 0.05}]}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  /* Centre (31.5, 23.5): the ghost of (20, 20) at (43, 27) holds 0.05 x 2. */
  double ghost = 0;
  for (uint32_t y = 22; y < 33; y++)
    for (uint32_t x = 38; x < 49; x++) ghost += v[3 * (y * 64 + x)] - 0.5;
  assert_near(ghost, 0.1, 1e-5);
  assert_near(v[3 * (20 * 64 + 20) + 1], 0.5, 0); /* other channels untouched */
  assert_true(isnan(v[3 * (5 * 64 + 5) + 2]));
  sensim__filter_lens_flare.def.destroy(u);
  sensim__frame_release(&f);
  /* Light near a corner, t = -1.5: the ghost's centre lies outside. */
  dark(&f, 64, 48);
  v = f.data;
  v[3 * (2 * 64 + 2)] = 100.0f;
  u = make("{\"ghosts\": [{\"scale\": -1.5, \"radius_px\": 3, \"gain\": 0.1}]}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  double sum = 0;
  for (size_t i = 0; i < f.count; i++) sum += v[3 * i];
  assert_near(sum, 100.0, 1e-4);
  sensim__filter_lens_flare.def.destroy(u);
  sensim__frame_release(&f);
}

static void test_lens_flare_refuses_bad_input(void **state) {
  (void)state;
  const char *bad[] = {"{}",
                       "{\"ghosts\": []}",
                       "{\"ghosts\": [{\"scale\": 0, \"radius_px\": 2, \"gain\": 0.1}]}",
                       "{\"ghosts\": [{\"scale\": -5, \"radius_px\": 2, \"gain\": 0.1}]}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 0.1, \"gain\": 0.1}]}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2, \"gain\": 1.5}]}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2}]}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2, \"gain\": 0.1, \"tint\": [1, 2, 1]}]}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2, \"gain\": 0.1, \"colour\": [1, 1, 1]}]}",
                       "{\"ghosts\": [3]}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2, \"gain\": 0.1}], \"threshold\": -1}",
                       "{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2, \"gain\": 0.1}], \"cx\": 3}",
                       "{\"ghost\": []}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cJSON *p = cJSON_Parse(bad[i]);
    assert_non_null(p);
    void *u = NULL;
    if (sensim__filter_lens_flare.create(p, &u) != SENSIM_EINVAL) fail_msg("accepted: %s", bad[i]);
    assert_null(u);
    cJSON_Delete(p);
  }
  assert_non_null(strstr(sensim_last_error(), "ghost"));
  sensim_frame f;
  dark(&f, 4, 4);
  f.unit = SENSIM_UNIT_SIGNAL;
  void *u = make("{\"ghosts\": [{\"scale\": 0.5, \"radius_px\": 2, \"gain\": 0.1}]}");
  assert_int_equal(apply(u, &f), SENSIM_ETYPE);
  sensim__filter_lens_flare.def.destroy(u);
  sensim__frame_release(&f);
}

int sensim_test_lens_flare(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lens_flare_ghosts_lie_on_the_line_with_their_energy_and_disc),
      cmocka_unit_test(test_lens_flare_subpixel_centre_and_principal_point),
      cmocka_unit_test(test_lens_flare_threshold_edges_and_nan),
      cmocka_unit_test(test_lens_flare_refuses_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
