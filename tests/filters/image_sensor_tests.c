/* tests/filters/image_sensor_tests.c: the stages from radiance to a raw
 * image. "image_sensor" gives the electrons of the formula and follows the
 * chain's shared exposure, "cfa" puts each pattern's channel at each
 * cell, "adc" rounds with variance 1/12 DN^2 and saturates, and every
 * stage refuses bad parameters and frames in the wrong unit with a clear
 * message (also through world -> camera -> chain). The noise stages are
 * in image_noise_tests.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime_internal.h"
#include "support/testutil.h"
#include "filters/builtin.h"
#include "filters/image_sensor_fixtures.h"

/* ---- cfa ---------------------------------------------------------------- */

static void test_cfa_each_pattern_puts_right_channel_at_each_cell(void **state) {
  (void)state;
  /* frame.h: a pattern names its 2 x 2 cell left to right, top to bottom. */
  const char *names[4] = {"RGGB", "BGGR", "GRBG", "GBRG"};
  const sensim_cfa values[4] = {SENSIM_CFA_RGGB, SENSIM_CFA_BGGR, SENSIM_CFA_GRBG, SENSIM_CFA_GBRG};
  const char *cells[4] = {"RGGB", "BGGR", "GRBG", "GBRG"}; /* (0,0) (1,0) (0,1) (1,1) */
  for (int p = 0; p < 4; p++) {
    char json[64];
    snprintf(json, sizeof json, "{\"pattern\": \"%s\"}", names[p]);
    void *u = fx_make(&sensim__filter_cfa, json);
    sensim_frame f;
    fx_image(&f, SENSIM_PAYLOAD_RGB_F32, 6, 4, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
    float *rgb = f.data;
    for (size_t i = 0; i < f.count; i++)
      for (int c = 0; c < 3; c++) rgb[3 * i + c] = (float)(1000 * c + i); /* channel and pixel coded */
    float depth[24];
    for (int i = 0; i < 24; i++) depth[i] = (float)i;
    f.depth = depth;
    run_ok(&sensim__filter_cfa, u, &f);
    assert_int_equal(f.type, SENSIM_PAYLOAD_RAW_F32);
    assert_int_equal(f.cfa, values[p]);
    assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
    assert_true(f.width == 6 && f.height == 4 && f.count == 24 && f.depth == depth);
    const float *raw = f.data;
    for (uint32_t y = 0; y < 4; y++)
      for (uint32_t x = 0; x < 6; x++) {
        char want = cells[p][(x % 2) + 2 * (y % 2)];
        int c = want == 'R' ? 0 : want == 'G' ? 1 : 2;
        assert_true(raw[y * 6 + x] == (float)(1000 * c + y * 6 + x));
      }
    free(f.data);
    fx_drop(&sensim__filter_cfa, u);
  }
}

/* ---- adc ---------------------------------------------------------------- */

static void test_adc_rounding_error_of_ramp_has_variance_one_twelfth(void **state) {
  (void)state;
  /* A dense ramp over the full well: DN - K e is uniform on [-1/2, 1/2]
   * (EMVA 1288: sigma_q^2 = 1/12 DN^2); kappa2 = 1/12, kappa4 = -1/120. */
  void *u = fx_make(&sensim__filter_adc, NULL); /* 12 bits, K = 4095 / 10000 */
  const double K = 4095.0 / 10000.0;
  sensim_frame f;
  fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, 1000, 100, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
  float *v = f.data;
  double *e = malloc(f.count * sizeof *e);
  assert_non_null(e);
  for (size_t i = 0; i < f.count; i++) v[i] = (float)(9999.0 * (double)i / (double)f.count), e[i] = v[i];
  run_ok(&sensim__filter_adc, u, &f);
  assert_int_equal(f.unit, SENSIM_UNIT_SIGNAL);
  moments m = {0};
  for (size_t i = 0; i < f.count; i++) {
    double dn = v[i] * 4095.0;
    assert_near(dn, floor(dn + 0.5), 1e-3); /* an integer DN */
    double err = floor(dn + 0.5) - K * e[i];
    assert_true(fabs(err) <= 0.5 + 1e-9);
    mom_add(&m, err);
  }
  check_moments(&m, 0.0, 1.0 / 12.0, -1.0 / 120.0);
  free(e);
  free(f.data);
  /* Saturation, black, NaN, gain and an 8-bit converter. */
  const float in[5] = {20000.0f, 10000.0f, -50.0f, NAN, 2000.0f};
  const float want12[5] = {1.0f, 1.0f, 0.0f, 0.0f, (float)(819.0 / 4095.0)};
  fx_image(&f, SENSIM_PAYLOAD_GRAY_F32, 5, 1, SENSIM_UNIT_ELECTRONS, 0.0f, 0);
  memcpy(f.data, in, sizeof in);
  run_ok(&sensim__filter_adc, u, &f);
  for (int i = 0; i < 5; i++) assert_true(((float *)f.data)[i] == want12[i]);
  memcpy(f.data, in, sizeof in);
  f.unit = SENSIM_UNIT_ELECTRONS;
  f.gain = 2.0; /* K g: 2000 e- -> 1638 DN */
  run_ok(&sensim__filter_adc, u, &f);
  assert_true(((float *)f.data)[4] == (float)(1638.0 / 4095.0));
  fx_drop(&sensim__filter_adc, u);
  u = fx_make(&sensim__filter_adc, "{\"bits\": 8, \"full_well\": 5000}");
  memcpy(f.data, in, sizeof in);
  f.unit = SENSIM_UNIT_ELECTRONS;
  f.gain = 0.0; /* no image_sensor: unity */
  run_ok(&sensim__filter_adc, u, &f);
  assert_true(((float *)f.data)[4] == (float)(102.0 / 255.0)); /* 2000 x 255 / 5000 = 102 */
  free(f.data);
  fx_drop(&sensim__filter_adc, u);
}

/* ---- image_sensor ------------------------------------------------------- */

static void test_image_sensor_electrons_follow_formula_and_double_with_time(void **state) {
  (void)state;
  const double L[3] = {0.1, 0.2, 0.05}, qe[3] = {0.4, 0.6, 0.3}, R = 1e6;
  float e[2][3];
  for (int j = 0; j < 2; j++) {
    double t = j ? 0.008 : 0.004;
    char json[160];
    snprintf(json, sizeof json,
             "{\"exposure_time\": %g, \"responsivity\": 1e6, \"qe\": [0.4, 0.6, 0.3], \"full_well\": 20000}", t);
    void *u = fx_make(&sensim__filter_image_sensor, json);
    sensim_frame f;
    fx_image(&f, SENSIM_PAYLOAD_RGB_F32, 4, 2, SENSIM_UNIT_RADIANCE, 0.0f, 0);
    float *v = f.data;
    for (size_t i = 0; i < f.count; i++)
      for (int c = 0; c < 3; c++) v[3 * i + c] = (float)L[c];
    v[3] = 100.0f, v[4] = -1.0f, v[5] = NAN; /* pixel 1: saturates, and collects nothing */
    run_ok(&sensim__filter_image_sensor, u, &f);
    assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
    assert_true(f.exposure_time == t && f.gain == 1.0);
    for (int c = 0; c < 3; c++) {
      e[j][c] = v[c];
      assert_near(v[c], L[c] * t * R * qe[c], 1e-3);
    }
    assert_true(v[3] == 20000.0f && v[4] == 0.0f && v[5] == 0.0f);
    free(f.data);
    fx_drop(&sensim__filter_image_sensor, u);
  }
  for (int c = 0; c < 3; c++) assert_near(e[1][c] / e[0][c], 2.0, 1e-6);
  /* A mosaic takes the quantum efficiency of each site's colour. */
  void *u = fx_make(&sensim__filter_image_sensor, "{\"responsivity\": 1e6, \"qe\": [0.4, 0.6, 0.3]}");
  sensim_frame f;
  fx_image(&f, SENSIM_PAYLOAD_RAW_F32, 2, 2, SENSIM_UNIT_RADIANCE, 0.1f, 0);
  f.cfa = SENSIM_CFA_GRBG;
  run_ok(&sensim__filter_image_sensor, u, &f);
  const double want[4] = {0.6, 0.4, 0.3, 0.6}; /* G R / B G */
  for (int i = 0; i < 4; i++) assert_near(((float *)f.data)[i], 0.1 * 0.01 * 1e6 * want[i], 1e-3);
  free(f.data);
  fx_drop(&sensim__filter_image_sensor, u);
}

static void test_image_sensor_uses_shared_exposure_when_set(void **state) {
  (void)state;
  void *u = fx_make(&sensim__filter_image_sensor, "{\"exposure_time\": 0.001, \"gain\": 2, \"qe\": 1}");
  sensim_frame f;
  harness h;
  /* No exposure yet: this filter's own becomes the chain's. */
  memset(&h, 0, sizeof h);
  fx_image(&f, SENSIM_PAYLOAD_RGB_F32, 2, 2, SENSIM_UNIT_RADIANCE, 0.5f, 0);
  SENSIM_OK_OR_FAIL(fx_run(&sensim__filter_image_sensor, u, &f, &h, SEED, 0));
  assert_true(h.x.valid && h.x.current.time == 0.001 && h.x.current.gain == 2.0);
  assert_true(f.exposure_time == 0.001 && f.gain == 2.0);
  assert_near(((float *)f.data)[0], 0.5 * 0.001 * 3e6, 1e-3);
  free(f.data);
  /* An exposure in effect (e.g. from auto exposure) wins over the parameters. */
  h.x.current = (sensim_exposure){0.004, 3.0};
  fx_image(&f, SENSIM_PAYLOAD_RGB_F32, 2, 2, SENSIM_UNIT_RADIANCE, 0.5f, 1);
  SENSIM_OK_OR_FAIL(fx_run(&sensim__filter_image_sensor, u, &f, &h, SEED, 0));
  assert_true(f.exposure_time == 0.004 && f.gain == 3.0);
  assert_true(h.x.current.time == 0.004 && h.x.current.gain == 3.0);
  assert_near(((float *)f.data)[0], 0.5 * 0.004 * 3e6, 1e-3);
  free(f.data);
  fx_drop(&sensim__filter_image_sensor, u);
}

/* A user filter after "image_sensor" that asks for twice the exposure time
 * from frame 2 on, as an auto-exposure stage would. */
static sensim_status ask_double(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  if (f->index != 0) return SENSIM_OK;
  sensim_exposure e;
  int valid = 0;
  sensim_filter_exposure_get(ctx, &e, &valid);
  if (!valid) return SENSIM_ESTATE;
  e.time *= 2.0;
  return sensim_filter_exposure_request(ctx, 2, e);
}

static void test_image_sensor_follows_exposure_requests_through_the_chain(void **state) {
  (void)state;
  sensim_world *w = flat_world(SEED);
  sensim_sensor *cam = flat_camera(w);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "image_sensor", "{\"exposure_time\": 0.002}"));
  sensim_filter_def def = {"ask_double", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL, ask_double, NULL};
  SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(cam, &def, NULL));
  const double want_t[4] = {0.002, 0.002, 0.004, 0.004};
  for (int k = 0; k < 4; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 10.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_true(f->exposure_time == want_t[k]);
    assert_near(((const float *)f->data)[0], 0.25 * want_t[k] * 3e6 * 0.5, 1e-2);
  }
  sensim_world_destroy(w);
}

/* ---- bad input ---------------------------------------------------------- */

static void expect_einval(const sensim_builtin_filter *b, const char *json) {
  void *u = NULL;
  sensim_status rc = try_make(b, json, &u);
  if (rc != SENSIM_EINVAL) fail_msg("%s %s -> %d, expected EINVAL", b->def.name, json, rc);
  assert_true(strlen(sensim_last_error()) > 0);
}

static void test_bad_parameters_are_refused_with_a_message(void **state) {
  (void)state;
  expect_einval(&sensim__filter_cfa, "{\"pattern\": \"RGBG\"}");
  expect_einval(&sensim__filter_cfa, "{\"pattern\": \"rggb\"}");
  expect_einval(&sensim__filter_cfa, "{\"pattern\": 3}");
  expect_einval(&sensim__filter_cfa, "{\"layout\": \"RGGB\"}");
  assert_non_null(strstr(sensim_last_error(), "layout"));
  expect_einval(&sensim__filter_adc, "{\"bits\": 20}");
  assert_non_null(strstr(sensim_last_error(), "bits"));
  expect_einval(&sensim__filter_adc, "{\"bits\": 7}");
  expect_einval(&sensim__filter_adc, "{\"bits\": 12.5}");
  expect_einval(&sensim__filter_adc, "{\"full_well\": -10000}");
  expect_einval(&sensim__filter_adc, "{\"system_gain\": 0}");
  expect_einval(&sensim__filter_adc, "{\"black_level\": 4095}");
  expect_einval(&sensim__filter_raw16, "{\"bits\": 17}");
  expect_einval(&sensim__filter_image_sensor, "{\"full_well\": -5}");
  assert_non_null(strstr(sensim_last_error(), "full_well"));
  expect_einval(&sensim__filter_image_sensor, "{\"qe\": 1.5}");
  expect_einval(&sensim__filter_image_sensor, "{\"qe\": [0.5, 0.5]}");
  expect_einval(&sensim__filter_image_sensor, "{\"qe\": \"high\"}");
  expect_einval(&sensim__filter_image_sensor, "{\"exposure_time\": 0}");
  expect_einval(&sensim__filter_image_sensor, "{\"gain\": -1}");
  expect_einval(&sensim__filter_image_sensor, "{\"responsivity\": 0}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"full_well\": -1}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"prnu\": 1.2}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"read_noise\": -1}");
  expect_einval(&sensim__filter_noise_emva1288, "{\"shot_noise\": 0.5}");
  expect_einval(&sensim__filter_noise_intensity, "{\"s1\": -1}");
  expect_einval(&sensim__filter_noise_intensity, "{\"sigma\": 1}");
}

/* apply() refuses a frame in the wrong unit and leaves it unchanged. */
static void expect_unit_error(const sensim_builtin_filter *b, const char *json, sensim_payload type,
                              sensim_image_unit unit, const char *says) {
  void *u = fx_make(b, json);
  sensim_frame f;
  fx_image(&f, type, 4, 4, unit, 0.5f, 0);
  harness h;
  memset(&h, 0, sizeof h);
  assert_int_equal(fx_run(b, u, &f, &h, SEED, 0), SENSIM_ETYPE);
  if (!strstr(sensim_last_error(), says)) fail_msg("%s: '%s' does not say '%s'", b->def.name, sensim_last_error(), says);
  assert_int_equal(f.type, type);
  assert_int_equal(f.unit, unit);
  for (size_t i = 0; i < f.count; i++) assert_true(((float *)f.data)[i] == 0.5f);
  free(f.data);
  fx_drop(b, u);
}

static void test_wrong_unit_at_apply_time_is_a_clear_type_error(void **state) {
  (void)state;
  expect_unit_error(&sensim__filter_noise_emva1288, NULL, SENSIM_PAYLOAD_RGB_F32, SENSIM_UNIT_RADIANCE, "electrons");
  expect_unit_error(&sensim__filter_adc, NULL, SENSIM_PAYLOAD_RAW_F32, SENSIM_UNIT_RADIANCE, "electrons");
  expect_unit_error(&sensim__filter_adc, NULL, SENSIM_PAYLOAD_RAW_F32, SENSIM_UNIT_SIGNAL, "electrons");
  expect_unit_error(&sensim__filter_image_sensor, NULL, SENSIM_PAYLOAD_RGB_F32, SENSIM_UNIT_ELECTRONS, "radiance");
  expect_unit_error(&sensim__filter_raw16, NULL, SENSIM_PAYLOAD_RAW_F32, SENSIM_UNIT_RADIANCE, "radiance");
  /* A mosaic without a layout cannot take per-channel quantum efficiencies. */
  expect_unit_error(&sensim__filter_image_sensor, "{\"qe\": [0.4, 0.5, 0.3]}", SENSIM_PAYLOAD_RAW_F32,
                    SENSIM_UNIT_RADIANCE, "CFA");

  /* Through a world: the chain is refused at set-up where payloads do not
   * fit, and a unit error at frame time is reported by advance(). */
  sensim_world *w = flat_world(SEED);
  sensim_sensor *cam = flat_camera(w);
  assert_int_equal(sensim_sensor_add_filter(cam, "cfa", "{\"pattern\": \"XYZW\"}"), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "XYZW"));
  assert_int_equal(cam->chain.n, 0);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "cfa", "{\"pattern\": \"BGGR\"}"));
  assert_int_equal(sensim_sensor_add_filter(cam, "cfa", NULL), SENSIM_ETYPE); /* raw_f32 is not rgb_f32 */
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "noise_emva1288", NULL));  /* no image_sensor before it */
  assert_int_equal(cam->chain.n, 2);
  assert_int_equal(sensim_world_advance(w, 0.0), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "electrons"));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_null(f); /* the frame was dropped */
  sensim_world_destroy(w);
}

int sensim_test_image_sensor(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cfa_each_pattern_puts_right_channel_at_each_cell),
      cmocka_unit_test(test_adc_rounding_error_of_ramp_has_variance_one_twelfth),
      cmocka_unit_test(test_image_sensor_electrons_follow_formula_and_double_with_time),
      cmocka_unit_test(test_image_sensor_uses_shared_exposure_when_set),
      cmocka_unit_test(test_image_sensor_follows_exposure_requests_through_the_chain),
      cmocka_unit_test(test_bad_parameters_are_refused_with_a_message),
      cmocka_unit_test(test_wrong_unit_at_apply_time_is_a_clear_type_error),
  };
  return cmocka_run_group_tests_name("image_sensor", tests, NULL, NULL);
}
