/* tests/sensors/lidar_preset_tests.c: the lidar presets (VLP-16, HDL-32E,
 * HDL-64E, OS1-64, OS1-128). Elevations, firing and azimuth offsets,
 * columns, ranges and divergences against the datasheets, name lookup in
 * any case, the error for an unknown name, and a valid first frame from
 * every preset. */
#include <math.h>
#include <string.h>
#include "support/testutil.h"

#define DEG (M_PI / 180.0)

/* ---- presets ------------------------------------------------------------
 * Expected tables typed from the datasheets (not from the library's
 * arrays): elevations in firing order, degrees. */

/* VLP-16 User Manual 63-9243, table 9-1. */
static const double vlp16_deg[16] = {-15, 1, -13, 3, -11, 5, -9, 7, -7, 9, -5, 11, -3, 13, -1, 15};
/* HDL-32E User Manual, laser firing order and vertical angles. */
static const double hdl32_deg[32] = {-30.67, -9.33, -29.33, -8.00, -28.00, -6.67, -26.67, -5.33,
                                     -25.33, -4.00, -24.00, -2.67, -22.67, -1.33, -21.33, 0.00,
                                     -20.00, 1.33,  -18.67, 2.67,  -17.33, 4.00,  -16.00, 5.33,
                                     -14.67, 6.67,  -13.33, 8.00,  -12.00, 9.33,  -10.67, 10.67};
/* HDL-64E S3 manual, nominal: upper block +2 .. -8.33 (1/3 deg), lower
 * block -8.83 .. -24.33 (1/2 deg), each from the top down. */
static const double hdl64_deg[64] = {
    2.00, 1.67, 1.33, 1.00, 0.67, 0.33, 0.00, -0.33, -0.67, -1.00, -1.33,
    -1.67, -2.00, -2.33, -2.67, -3.00, -3.33, -3.67, -4.00, -4.33, -4.67, -5.00,
    -5.33, -5.67, -6.00, -6.33, -6.67, -7.00, -7.33, -7.67, -8.00, -8.33, -8.83,
    -9.33, -9.83, -10.33, -10.83, -11.33, -11.83, -12.33, -12.83, -13.33, -13.83, -14.33,
    -14.83, -15.33, -15.83, -16.33, -16.83, -17.33, -17.83, -18.33, -18.83, -19.33, -19.83,
    -20.33, -20.83, -21.33, -21.83, -22.33, -22.83, -23.33, -23.83, -24.33};

static void check_table(const char *name, const double *got, const double *want_deg, int n, double tol_deg) {
  for (int c = 0; c < n; c++)
    if (!(fabs(got[c] / DEG - want_deg[c]) <= tol_deg))
      fail_msg("%s channel %d: elevation %.4f deg, datasheet %.2f deg", name, c, got[c] / DEG, want_deg[c]);
}

static void test_lidar_presets_match_datasheet_tables(void **state) {
  (void)state;
  sensim_lidar_params p;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &p));
  assert_int_equal(p.channels, 16);
  assert_int_equal(p.pattern, SENSIM_LIDAR_SPINNING);
  check_table("VLP-16", p.elevations, vlp16_deg, 16, 1e-9);
  assert_non_null(p.firing_offsets);
  for (int c = 0; c < 16; c++) assert_near(p.firing_offsets[c], c * 2.304e-6, 1e-12); /* manual 8.1 */
  assert_int_equal(p.columns, 1800); /* 0.2 deg at 600 rpm (manual 8.3.1) */
  assert_near(p.max_range, 100.0, 0);
  assert_near(p.detection_range, 100.0, 0);
  assert_near(p.div_h, 3.0e-3, 1e-12);
  assert_near(p.div_v, 1.5e-3, 1e-12);
  assert_int_equal(p.intensity_bits, 8);
  assert_int_equal(p.clockwise, 1);
  assert_int_equal(p.subrays, 1);
  assert_near(p.hfov, 2 * M_PI, 1e-12);

  SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-32E", &p));
  assert_int_equal(p.channels, 32);
  check_table("HDL-32E", p.elevations, hdl32_deg, 32, 1e-9);
  for (int c = 0; c < 32; c++) assert_near(p.firing_offsets[c], c * 1.152e-6, 1e-12);
  /* One column per 46.08 us firing cycle at 10 Hz. */
  assert_int_equal(p.columns, (int)(0.1 / 46.08e-6));
  assert_null(p.azimuth_offsets);

  SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-64E", &p));
  assert_int_equal(p.channels, 64);
  check_table("HDL-64E", p.elevations, hdl64_deg, 64, 0.005);
  /* Upper and lower blocks fire together: laser k of each at one instant. */
  for (int c = 0; c < 32; c++) assert_near(p.firing_offsets[c], p.firing_offsets[c + 32], 0);
  assert_near(p.detection_range, 120.0, 0); /* 120 m for cars and foliage */

  const char *os1[2] = {"OS1-64", "OS1-128"};
  const int os1_n[2] = {64, 128};
  const double os1_step_deg[2] = {0.7, 0.35}; /* datasheet vertical resolution (rounded) */
  const double os1_fwhm_deg[2] = {0.13, 0.18}; /* datasheet beam divergence, FWHM */
  for (int k = 0; k < 2; k++) {
    SENSIM_OK_OR_FAIL(sensim_lidar_preset(os1[k], &p));
    int n = os1_n[k];
    assert_int_equal(p.channels, n);
    /* 45 deg vertical field, +22.5 .. -22.5 deg, uniform, channel 0 on top. */
    assert_near(p.elevations[0] / DEG, 22.5, 1e-9);
    assert_near(p.elevations[n - 1] / DEG, -22.5, 1e-9);
    for (int c = 1; c < n; c++)
      assert_near((p.elevations[c - 1] - p.elevations[c]) / DEG, os1_step_deg[k], 0.015);
    /* Flash column: every channel fires at once. */
    for (int c = 0; c < n; c++) assert_near(p.firing_offsets[c], 0.0, 0);
    /* Calibration beam_azimuth_angles +4.2, +1.4, -1.4, -4.2 deg (Ouster's
     * sign: subtracted from the encoder angle) repeat every 4 channels. */
    const double az_deg[4] = {4.2, 1.4, -1.4, -4.2};
    for (int c = 0; c < n; c++) assert_near(-p.azimuth_offsets[c] / DEG, az_deg[c % 4], 1e-9);
    assert_int_equal(p.columns, 1024);
    /* As the 1/e^2 full angle of a Gaussian beam: 1.699 FWHM. */
    assert_near(p.div_h / DEG, 1.6986 * os1_fwhm_deg[k], 1e-4);
    assert_near(p.min_range, 0.8, 0);
    assert_near(p.detection_range, 120.0, 0);
  }
}

static void test_lidar_preset_names_resolve_in_any_case(void **state) {
  (void)state;
  const char *const *names = sensim_lidar_preset_names();
  const char *want[] = {"VLP-16", "HDL-32E", "HDL-64E", "OS1-64", "OS1-128"};
  int n = 0;
  while (names[n]) {
    assert_true(n < 5);
    assert_string_equal(names[n], want[n]);
    sensim_lidar_params p;
    SENSIM_OK_OR_FAIL(sensim_lidar_preset(names[n], &p));
    n++;
  }
  assert_int_equal(n, 5);
  sensim_lidar_params a, b;
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("hdl-32e", &a));
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("HDL-32E", &b));
  assert_int_equal(a.channels, b.channels);
  assert_ptr_equal(a.elevations, b.elevations); /* the library's static table */
}

static void test_lidar_unknown_preset_is_enotfound_and_lists_names(void **state) {
  (void)state;
  sensim_lidar_params p, before;
  sensim_lidar_params_init(&p);
  p.channels = 7;
  before = p;
  assert_int_equal(sensim_lidar_preset("VLP-17", &p), SENSIM_ENOTFOUND);
  const char *msg = sensim_last_error();
  assert_non_null(strstr(msg, "VLP-17"));
  assert_non_null(strstr(msg, "VLP-16"));
  assert_non_null(strstr(msg, "OS1-128"));
  assert_memory_equal(&p, &before, sizeof p); /* untouched */
  assert_int_equal(sensim_lidar_preset("", &p), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_lidar_preset(NULL, &p), SENSIM_EINVAL);
  assert_int_equal(sensim_lidar_preset("VLP-16", NULL), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_lidar_preset("VLP-16", &p)); /* still usable */
}

/* Every preset builds a lidar whose first frame has the documented layout:
 * columns x channels beams, rings ranking the elevations (0 lowest). */
static void test_lidar_every_preset_creates_a_valid_lidar(void **state) {
  (void)state;
  for (const char *const *nm = sensim_lidar_preset_names(); *nm; nm++) {
    sensim_world *w = test_world(0, 1);
    sensim_lidar_params lp;
    SENSIM_OK_OR_FAIL(sensim_lidar_preset(*nm, &lp));
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = *nm;
    sensim_sensor *s = NULL;
    SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
    assert_non_null(f);
    assert_int_equal(f->type, SENSIM_PAYLOAD_BEAMS);
    assert_int_equal(f->returns, 1);
    assert_int_equal(f->count, (size_t)lp.columns * lp.channels);
    const sensim_beam *b = f->data;
    for (int c = 0; c < lp.channels; c++) {
      int rank = 0;
      for (int k = 0; k < lp.channels; k++) rank += lp.elevations[k] < lp.elevations[c];
      assert_int_equal(b[c].ring, rank);
      assert_near(b[c].elevation, lp.elevations[c], 1e-6);
    }
    for (size_t i = 0; i < f->count; i++) assert_true(b[i].time_offset <= 0 && b[i].time_offset >= -0.1 - 1e-6);
    sensim_world_destroy(w);
  }
}

int sensim_test_lidar_presets(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_presets_match_datasheet_tables),
      cmocka_unit_test(test_lidar_preset_names_resolve_in_any_case),
      cmocka_unit_test(test_lidar_unknown_preset_is_enotfound_and_lists_names),
      cmocka_unit_test(test_lidar_every_preset_creates_a_valid_lidar),
  };
  return cmocka_run_group_tests_name("lidar_presets", tests, NULL, NULL);
}
