/* tests/inertial/units_tests.c: the datasheet-unit conversions of
 * filters/imu_units.c against values computed by hand, and end to end
 * through "imu_noise". */
#include <math.h>
#include <string.h>
#include "filters/imu_units.h"
#include "inertial/inertial_groups.h"
#include "filters/builtin.h"

static double factor(const char *key, const char *base, sensim_unit_dim dim) {
  double f = -1.0;
  size_t n = sensim__unit_match(key, base, dim, &f);
  if (n != strlen(base)) fail_msg("%s: not matched for base %s", key, base);
  return f;
}

static void test_unit_factors_match_hand_computed_values(void **st) {
  (void)st;
  /* By hand: pi/180 = 0.0174532925199433; g0 = 9.80665 m/s^2; sqrt(h) = 60 sqrt(s). */
  const double d = 0.0174532925199433;
  assert_near(factor("x_dps_per_rthz", "x", SENSIM_DIM_GYRO_DENS), d, 1e-16);
  /* 1 deg/sqrt(h) = 0.0174533 rad / 60 sqrt(s) = 2.90888e-4 rad/s/sqrt(Hz) */
  assert_near(factor("x_deg_per_rth", "x", SENSIM_DIM_GYRO_DENS), 2.908882086657216e-4, 1e-18);
  assert_near(factor("x_deg_per_h_per_rthz", "x", SENSIM_DIM_GYRO_DENS), 4.84813681109536e-6, 1e-19);
  /* 1 deg/h = 4.84814e-6 rad/s; 1 deg/h/sqrt(h) = 4.84814e-6 / 60 = 8.08023e-8 rad/s^2/sqrt(Hz) */
  assert_near(factor("x_deg_per_h", "x", SENSIM_DIM_GYRO), 4.84813681109536e-6, 1e-19);
  assert_near(factor("x_deg_per_h_per_rth", "x", SENSIM_DIM_GYRO_WALK), 8.0802280184923e-8, 1e-20);
  assert_near(factor("x_dps", "x", SENSIM_DIM_GYRO), d, 1e-16);
  /* 1 ug/sqrt(Hz) = 9.80665e-6 m/s^2/sqrt(Hz); 1 m/s/sqrt(h) = 1/60 m/s^2/sqrt(Hz) */
  assert_near(factor("x_ug_per_rthz", "x", SENSIM_DIM_ACCEL_DENS), 9.80665e-6, 1e-20);
  assert_near(factor("x_mg_per_rthz", "x", SENSIM_DIM_ACCEL_DENS), 9.80665e-3, 1e-18);
  assert_near(factor("x_mps_per_rth", "x", SENSIM_DIM_ACCEL_DENS), 0.0166666666666667, 1e-16);
  assert_near(factor("x_mps2_per_rth", "x", SENSIM_DIM_ACCEL_WALK), 0.0166666666666667, 1e-16);
  assert_near(factor("x_ug_per_rth", "x", SENSIM_DIM_ACCEL_WALK), 1.63444166666667e-7, 1e-20);
  assert_near(factor("x_g", "x", SENSIM_DIM_ACCEL), 9.80665, 1e-15);
  assert_near(factor("x_mg", "x", SENSIM_DIM_ACCEL), 9.80665e-3, 1e-18);
  assert_near(factor("x_ug", "x", SENSIM_DIM_ACCEL), 9.80665e-6, 1e-20);
  assert_near(factor("x_ppm", "x", SENSIM_DIM_RATIO), 1e-6, 1e-22);
  assert_near(factor("x_percent", "x", SENSIM_DIM_RATIO), 1e-2, 1e-18);
  assert_near(factor("x_mrad", "x", SENSIM_DIM_ANGLE), 1e-3, 1e-19);
  assert_near(factor("x_deg", "x", SENSIM_DIM_ANGLE), d, 1e-16);
  assert_near(factor("x_h", "x", SENSIM_DIM_TIME), 3600.0, 0.0);
  assert_near(factor("x_ut", "x", SENSIM_DIM_FIELD), 1e-6, 1e-22);
  assert_near(factor("x_nt", "x", SENSIM_DIM_FIELD), 1e-9, 1e-25);
  assert_near(factor("x_gauss", "x", SENSIM_DIM_FIELD), 1e-4, 1e-20);
  assert_near(factor("x", "x", SENSIM_DIM_GYRO), 1.0, 0.0);
  /* A suffix of another dimension, or an unknown one, is no match. */
  double f = 0;
  assert_int_equal(sensim__unit_match("x_ug", "x", SENSIM_DIM_GYRO, &f), 0);
  assert_int_equal(sensim__unit_match("x_dps_per_rthz", "x", SENSIM_DIM_ACCEL_DENS, &f), 0);
  assert_int_equal(sensim__unit_match("x_furlongs", "x", SENSIM_DIM_ACCEL, &f), 0);
  assert_int_equal(sensim__unit_match("y_g", "x", SENSIM_DIM_ACCEL, &f), 0);
  assert_non_null(sensim__unit_suffixes(SENSIM_DIM_GYRO_DENS)[0]);
}

/* The public lookup (units.h) gives the factors the filters use. */
static void test_public_unit_factor_matches_the_filters_table(void **st) {
  (void)st;
  double f = 0;
  SENSIM_OK_OR_FAIL(sensim_unit_factor(SENSIM_DIM_GYRO_DENS, "deg_per_rth", &f));
  assert_near(f, factor("x_deg_per_rth", "x", SENSIM_DIM_GYRO_DENS), 0.0);
  assert_near(f, 2.908882086657216e-4, 1e-18);
  SENSIM_OK_OR_FAIL(sensim_unit_factor(SENSIM_DIM_GYRO_WALK, "deg_per_h_per_rth", &f));
  assert_near(f, 8.0802280184923e-8, 1e-20);
  SENSIM_OK_OR_FAIL(sensim_unit_factor(SENSIM_DIM_ACCEL_WALK, "mps2_per_rth", &f));
  assert_near(f, 1.0 / 60.0, 1e-16);
  SENSIM_OK_OR_FAIL(sensim_unit_factor(SENSIM_DIM_FIELD, "", &f));
  assert_near(f, 1.0, 0.0);
  f = 42;
  assert_int_equal(sensim_unit_factor(SENSIM_DIM_GYRO, "ug", &f), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "dps"));
  assert_int_equal(sensim_unit_factor(SENSIM_DIM_GYRO, "_dps", &f), SENSIM_ENOTFOUND);
  assert_near(f, 42, 0.0);
  assert_int_equal(sensim_unit_factor((sensim_unit_dim)99, "dps", &f), SENSIM_EINVAL);
  assert_int_equal(sensim_unit_factor((sensim_unit_dim)-1, "dps", &f), SENSIM_EINVAL);
  assert_int_equal(sensim_unit_factor(SENSIM_DIM_GYRO, NULL, &f), SENSIM_EINVAL);
  assert_int_equal(sensim_unit_factor(SENSIM_DIM_GYRO, "dps", NULL), SENSIM_EINVAL);
}

static void test_gm_allan_peak_is_0_3811_sigma2_at_1_89_tau(void **st) {
  (void)st;
  /* Max over x = tau / T of (2/x)[1 - (3 - 4 e^-x + e^-2x)/(2x)]: 0.381139
   * at x = 1.8926 (computed by hand with a fine golden-section search); the
   * ADEV peak is 0.6174 sigma. Small-x branch continuous at 1e-3 and equal
   * to the slope 2x/3 of a rate random walk K^2 tau / 3 with K^2 = 2 sigma^2 / T. */
  assert_near(sensim__gm_avar_peak(), 0.38113865810245, 1e-12);
  assert_near(sensim__gm_avar_ratio(1.892617797645221), 0.38113865810245, 1e-12);
  assert_near(sensim__gm_avar_ratio(0.999e-3) / sensim__gm_avar_ratio(1.001e-3), 0.998, 1e-5);
  assert_near(sensim__gm_avar_ratio(1e-5), 2e-5 / 3.0, 1e-9);
  assert_near(sensim__gm_avar_ratio(1e4) * 1e4 / 2.0, 1.0, 2e-4); /* -> 2 / x: white */
}

static void test_datasheet_units_reach_the_output_converted(void **st) {
  (void)st;
  /* Turn-on biases given as 36 deg/h and 2 mg appear as 1.745329e-4 rad/s
   * and 0.0196133 m/s^2; an ARW of 0.5 deg/sqrt(h) averaged over 10 ms is
   * white noise of std 0.5 * 2.908882e-4 / sqrt(0.01) = 1.454441e-3 rad/s
   * (variance within 5 sqrt(2 / n), n = 20000). */
  const sensim_builtin_filter *F = &sensim__filter_imu_noise;
  cJSON *p = cJSON_Parse("{\"gyro_turn_on_bias_deg_per_h\": [36, 0, 0], \"accel_turn_on_bias_mg\": 2,"
                         " \"accel_noise_density\": 0, \"accel_bias_walk\": 0, \"gyro_bias_walk\": 0,"
                         " \"gyro_arw_deg_per_rth\": [0, 0.5, 0]}");
  void *u = NULL;
  SENSIM_OK_OR_FAIL(F->create(p, &u));
  cJSON_Delete(p);
  const int n = 20000;
  double s2 = 0;
  for (int k = 0; k < n; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    inertial_imu_frame(&f, &s, (uint64_t)k, 0.01 * k, 0.01);
    memset(&s, 0, sizeof s);
    SENSIM_OK_OR_FAIL(inertial_apply(F, u, &f, 4, 0));
    assert_near(s.gyro[0], 1.74532925199433e-4, 1e-17);
    assert_near(s.gyro[2], 0.0, 0.0);
    for (int i = 0; i < 3; i++) assert_near(s.accel[i], 0.0196133, 1e-17);
    s2 += s.gyro[1] * s.gyro[1];
  }
  const double sd = 1.454441043328608e-3;
  assert_near(s2 / n / (sd * sd), 1.0, 5.0 * sqrt(2.0 / n));
  F->def.destroy(u);
}

int sensim_test_inertial_units(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unit_factors_match_hand_computed_values),
      cmocka_unit_test(test_public_unit_factor_matches_the_filters_table),
      cmocka_unit_test(test_gm_allan_peak_is_0_3811_sigma2_at_1_89_tau),
      cmocka_unit_test(test_datasheet_units_reach_the_output_converted),
  };
  return cmocka_run_group_tests_name("inertial_units", tests, NULL, NULL);
}
