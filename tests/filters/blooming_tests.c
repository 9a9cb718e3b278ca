/* tests/filters/blooming_tests.c: "blooming": the spill of a known
 * overexposure along its column against the full-well arithmetic (streak
 * length and the partly filled last pixel), charge conservation, the
 * anti-blooming drain and the up/down split, charge leaving the image,
 * mosaics with per-colour quantum efficiency, nothing changed without
 * saturation, the streak through "image_sensor", and bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/builtin.h"
#include "filters/chain.h"
#include "support/testutil.h"
#include "filters/image_sensor_fixtures.h"

/* Defaults: R = 3e6, t = 0.01 s, eta = 0.5: 15000 e- per radiance unit;
 * full well 10000 e-. */
#define SCALE 15000.0
#define FW 10000.0

static void *make(const char *json) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(sensim__filter_blooming.create(p, &user));
  cJSON_Delete(p);
  return user;
}

/* The context chain.c builds, with no exposure set yet. */
static sensim_status apply(void *user, sensim_frame *f) {
  harness h;
  memset(&h, 0, sizeof h);
  return fx_run(&sensim__filter_blooming, user, f, &h, 1, 0);
}

/* An rgb_f32 radiance frame W x H at background charge qb (e-), every
 * channel alike. */
static void column_frame(sensim_frame *f, uint32_t W, uint32_t H, double qb) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, SENSIM_PAYLOAD_RGB_F32, W, H));
  f->unit = SENSIM_UNIT_RADIANCE;
  float *v = f->data;
  for (size_t i = 0; i < 3 * f->count; i++) v[i] = (float)(qb / SCALE);
}

static double charge(const sensim_frame *f, uint32_t x, uint32_t y, int c) {
  return ((const float *)f->data)[3 * ((size_t)y * f->width + x) + c] * SCALE;
}

static void set_charge(sensim_frame *f, uint32_t x, uint32_t y, int c, double q) {
  ((float *)f->data)[3 * ((size_t)y * f->width + x) + c] = (float)(q / SCALE);
}

/* Relative float precision of the radiance round trip. */
#define REL 2e-6

static void test_blooming_spill_length_matches_full_well_arithmetic(void **state) {
  (void)state;
  /* Background 2000 e- (room 8000 per pixel); pixel (1, 30) of channel 0
   * collects 8 full wells = 80000 e-. Excess 70000, 35000 each way: 4 full
   * pixels (4 x 8000 = 32000) and 3000 into the fifth (5000 e-), above and
   * below. Channels 1 and 2 and the other columns are untouched. */
  sensim_frame f;
  column_frame(&f, 3, 64, 2000);
  set_charge(&f, 1, 30, 0, 8 * FW);
  double before = 0;
  for (uint32_t y = 0; y < 64; y++) before += charge(&f, 1, y, 0);
  void *u = make(NULL);
  SENSIM_OK_OR_FAIL(apply(u, &f));
  for (uint32_t y = 0; y < 64; y++) {
    int d = abs((int)y - 30);
    double want = d <= 4 ? FW : d == 5 ? 5000 : 2000;
    if (fabs(charge(&f, 1, y, 0) - want) > REL * FW) fail_msg("row %u: %g e-, want %g", y, charge(&f, 1, y, 0), want);
    assert_near(charge(&f, 0, y, 0), 2000, REL * FW);
    assert_near(charge(&f, 1, y, 1), 2000, REL * FW);
  }
  double after = 0;
  for (uint32_t y = 0; y < 64; y++) after += charge(&f, 1, y, 0);
  assert_near(after, before, 1e-6 * before);
  free(u);
  sensim__frame_release(&f);
}

static void test_blooming_drain_and_direction_shorten_and_steer_the_spill(void **state) {
  (void)state;
  sensim_frame f;
  /* Anti-blooming drain 0.9 (suppression x10): excess 7000, 3500 each way,
   * into the direct neighbours only (5500 e-). */
  column_frame(&f, 1, 32, 2000);
  set_charge(&f, 0, 10, 2, 8 * FW);
  void *u = make("{\"drain\": 0.9}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  free(u);
  assert_near(charge(&f, 0, 10, 2), FW, REL * FW);
  assert_near(charge(&f, 0, 9, 2), 5500, REL * FW);
  assert_near(charge(&f, 0, 11, 2), 5500, REL * FW);
  assert_near(charge(&f, 0, 8, 2), 2000, REL * FW);
  assert_near(charge(&f, 0, 12, 2), 2000, REL * FW);
  sensim__frame_release(&f);
  /* up = 0: all 70000 e- go down: 8 full pixels and 6000 into the ninth. */
  column_frame(&f, 1, 32, 2000);
  set_charge(&f, 0, 10, 0, 8 * FW);
  u = make("{\"up\": 0}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  free(u);
  assert_near(charge(&f, 0, 9, 0), 2000, REL * FW);
  for (uint32_t y = 11; y <= 18; y++) assert_near(charge(&f, 0, y, 0), FW, REL * FW);
  assert_near(charge(&f, 0, 19, 0), 8000, REL * FW);
  assert_near(charge(&f, 0, 20, 0), 2000, REL * FW);
  sensim__frame_release(&f);
  /* Near the bottom edge: 35000 down meets 2 rows (16000) and the rest
   * (19000) leaves the image; the upper half is as before. */
  column_frame(&f, 1, 32, 2000);
  set_charge(&f, 0, 29, 0, 8 * FW);
  u = make(NULL);
  SENSIM_OK_OR_FAIL(apply(u, &f));
  free(u);
  double sum = 0;
  for (uint32_t y = 0; y < 32; y++) sum += charge(&f, 0, y, 0);
  assert_near(sum, 31 * 2000 + 8 * FW - 19000, 1e-6 * sum);
  assert_near(charge(&f, 0, 31, 0), FW, REL * FW);
  assert_near(charge(&f, 0, 24, 0), 5000, REL * FW);
  sensim__frame_release(&f);
}

/* Without saturation the frame keeps every bit, negative and NaN
 * radiance included (blooming must not stand in for image_sensor's
 * clipping). */
static void test_blooming_leaves_unsaturated_frames_bit_identical(void **state) {
  (void)state;
  sensim_frame f;
  column_frame(&f, 5, 7, 9999);
  float *v = f.data;
  v[4] = -0.25f;
  v[17] = NAN;
  v[30] = 1e-30f;
  float *copy = malloc(3 * f.count * sizeof *copy);
  assert_non_null(copy);
  memcpy(copy, v, 3 * f.count * sizeof *copy);
  void *u = make(NULL);
  SENSIM_OK_OR_FAIL(apply(u, &f));
  assert_memory_equal(copy, f.data, 3 * f.count * sizeof *copy);
  free(u);
  free(copy);
  sensim__frame_release(&f);
}

/* A Bayer mosaic: the column alternates colours whose quantum efficiency
 * differs, and charge spills across colours (they share the column).
 * RGGB, column 1 alternates G (even rows) and B (odd rows): eta_G = 0.8,
 * eta_B = 0.4 give 24000 and 12000 e- per radiance unit. */
static void test_blooming_mosaic_spills_across_colours_with_their_qe(void **state) {
  (void)state;
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RAW_F32, 2, 16));
  f.unit = SENSIM_UNIT_RADIANCE;
  f.cfa = SENSIM_CFA_RGGB;
  float *v = f.data;
  const double sG = 3e6 * 0.01 * 0.8, sB = 3e6 * 0.01 * 0.4;
  for (uint32_t y = 0; y < 16; y++) v[2 * y + 1] = (float)(1000.0 / (y % 2 ? sB : sG)); /* 1000 e- */
  v[2 * 8 + 1] = (float)(3.7 * FW / sG); /* row 8 (G): 37000 e-, excess 27000, 13500 each way */
  void *u = make("{\"qe\": [0.6, 0.8, 0.4]}");
  SENSIM_OK_OR_FAIL(apply(u, &f));
  free(u);
  /* Room 9000 per pixel: one full pixel and 4500 into the next, each way. */
  const double want[16] = {1000, 1000, 1000, 1000, 1000, 1000, 5500, FW, FW, FW, 5500, 1000, 1000, 1000, 1000, 1000};
  for (uint32_t y = 0; y < 16; y++) {
    double q = v[2 * y + 1] * (y % 2 ? sB : sG);
    if (fabs(q - want[y]) > REL * FW) fail_msg("row %u: %g e-, want %g", y, q, want[y]);
  }
  sensim__frame_release(&f);
}

/* In a chain before image_sensor (same defaults), the streak appears in
 * the electrons: full-well pixels above and below the light. */
static void test_blooming_streak_reaches_image_sensor_electrons(void **state) {
  (void)state;
  sensim_filter_chain *c = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &c));
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(c, "blooming", "{\"exposure_time\": 0.02}"));
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(c, "image_sensor", "{\"exposure_time\": 0.02}"));
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGB_F32, 3, 40));
  f.unit = SENSIM_UNIT_RADIANCE;
  float *v = f.data;
  /* 0.02 s: 30000 e- per radiance unit. Background 0; one pixel at 2.1
   * units = 63000 e-: excess 53000, 26500 each way = 2 full pixels and
   * 6500 e- in the third. */
  v[3 * (20 * 3 + 1)] = 2.1f;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_run(c, &f, 1, 0));
  assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
  for (uint32_t y = 0; y < 40; y++) {
    int d = abs((int)y - 20);
    double want = d <= 2 ? FW : d == 3 ? 6500 : 0;
    assert_near(v[3 * (y * 3 + 1)], want, REL * FW);
  }
  sensim_frame_release(&f);
  sensim_filter_chain_destroy(c);
}

static void test_blooming_refuses_bad_input(void **state) {
  (void)state;
  const char *bad[] = {"{\"drain\": 1.5}",      "{\"drain\": -0.1}",   "{\"up\": 2}",
                       "{\"full_well\": 0}",    "{\"qe\": [0.5, 0]}",  "{\"qe\": 1.2}",
                       "{\"responsivity\": -1}", "{\"exposure_time\": 0}", "{\"spill\": 0.5}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cJSON *p = cJSON_Parse(bad[i]);
    void *u = NULL;
    assert_int_equal(sensim__filter_blooming.create(p, &u), SENSIM_EINVAL);
    assert_null(u);
    cJSON_Delete(p);
  }
  sensim_frame f;
  column_frame(&f, 2, 2, 100);
  f.unit = SENSIM_UNIT_ELECTRONS;
  void *u = make(NULL);
  assert_int_equal(apply(u, &f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "before image_sensor"));
  sensim__frame_release(&f);
  /* A mosaic without a layout cannot take per-colour qe. */
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RAW_F32, 2, 2));
  f.unit = SENSIM_UNIT_RADIANCE;
  free(u);
  u = make("{\"qe\": [0.5, 0.6, 0.7]}");
  assert_int_equal(apply(u, &f), SENSIM_ETYPE);
  free(u);
  sensim__frame_release(&f);
}

int sensim_test_blooming(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_blooming_spill_length_matches_full_well_arithmetic),
      cmocka_unit_test(test_blooming_drain_and_direction_shorten_and_steer_the_spill),
      cmocka_unit_test(test_blooming_leaves_unsaturated_frames_bit_identical),
      cmocka_unit_test(test_blooming_mosaic_spills_across_colours_with_their_qe),
      cmocka_unit_test(test_blooming_streak_reaches_image_sensor_electrons),
      cmocka_unit_test(test_blooming_refuses_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
