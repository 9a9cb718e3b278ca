/* tests/radar/detect_tests.c: resolution cells and clustering (two targets
 * merge within a cell's reach and separate beyond it), the SNR threshold
 * against the radar equation's maximum range, the noise's statistics and
 * determinism, the presets' figures, and bad parameters. */
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"

#define C0 299792458.0

static size_t two_corners(sensim_vec3 a, sensim_vec3 b, sensim_radar_detection *d, size_t max) {
  sensim_world *w = test_world(0, 3);
  radar_corner(w, 0.1, a);
  radar_corner(w, 0.1, b);
  sensim_radar_params rp = radar_test_params();
  sensim_sensor *s = radar_test_sensor(w, &rp);
  size_t n = radar_capture(w, s, d, max);
  sensim_world_destroy(w);
  return n;
}

static void test_radar_targets_within_range_resolution_merge(void **state) {
  (void)state;
  /* dR = c / 2B = 1.79 m (the default far scan). Corners 0.3 m apart
   * across the line of sight (both in azimuth cell 0: +-0.29 deg against
   * a 1.6 deg resolution) and half a resolution apart in range: one
   * detection, between them. */
  sensim_radar_params rp = radar_test_params();
  const double dr = C0 / (2.0 * rp.bandwidth);
  sensim_radar_detection d[8];
  size_t n = two_corners((sensim_vec3){30.0, 0.15, 0.0}, (sensim_vec3){30.0 + 0.5 * dr, -0.15, 0.0}, d, 8);
  print_message("0.5 dR apart: %zu detection(s), first at %.3f m\n", n, d[0].range);
  assert_int_equal(n, 1);
  assert_true(d[0].range >= 30.0 - 1e-6 && d[0].range <= 30.0 + 0.5 * dr + 1e-6);
  assert_true(d[0].cells >= 1);
}

static void test_radar_targets_beyond_range_resolution_separate(void **state) {
  (void)state;
  /* Three resolutions apart in range: an empty cell lies between their
   * cells, two detections, each at its corner's range. */
  sensim_radar_params rp = radar_test_params();
  const double dr = C0 / (2.0 * rp.bandwidth);
  sensim_radar_detection d[8];
  size_t n = two_corners((sensim_vec3){30.0, 0.15, 0.0}, (sensim_vec3){30.0 + 3.0 * dr, -0.15, 0.0}, d, 8);
  assert_int_equal(n, 2);
  assert_true(fabs(d[0].range - 30.0) < dr);
  assert_true(fabs(d[1].range - 30.0 - 3.0 * dr) < dr);
  assert_true(d[0].azimuth > 0 && d[1].azimuth < 0); /* nearest first: (+0.15, then -0.15) */
}

static void test_radar_targets_two_azimuth_cells_apart_separate(void **state) {
  (void)state;
  /* Same range, +-1.3 deg: azimuth cells +1 and -1 of 1.6 deg, cell 0 empty. */
  const double th = 1.3 * M_PI / 180.0, R = 25.0;
  sensim_radar_detection d[8];
  size_t n = two_corners((sensim_vec3){R * cos(th), R * sin(th), 0.0}, (sensim_vec3){R * cos(th), -R * sin(th), 0.0},
                         d, 8);
  assert_int_equal(n, 2);
  assert_true(fabs(fabs(d[0].azimuth) - th) < 0.2 * M_PI / 180.0);
  assert_true(fabs(fabs(d[1].azimuth) - th) < 0.2 * M_PI / 180.0);
  assert_true(d[0].azimuth * d[1].azimuth < 0);
}

static void test_radar_targets_resolved_by_velocity_alone(void **state) {
  (void)state;
  /* Same range and azimuth cell (lateral +-0.15 m at 30 m); radial
   * velocities 0 and 1 m/s are 9.7 velocity cells apart: two detections,
   * each at its velocity. 0 and 0.3 dv share a cell or touch: one. */
  sensim_radar_params rp = radar_test_params();
  const double dv = C0 / rp.frequency / (2.0 * rp.cpi);
  const double v2[2] = {1.0, 0.3 * dv};
  const size_t want[2] = {2, 1};
  for (int i = 0; i < 2; i++) {
    sensim_world *w = test_world(0, 3);
    radar_corner(w, 0.1, (sensim_vec3){30.0, 0.15, 0.0});
    radar_corner_moving(w, 0.1, (sensim_vec3){30.0, -0.15, 0.0}, (sensim_vec3){v2[i], 0.0, 0.0});
    sensim_sensor *s = radar_test_sensor(w, &rp);
    sensim_radar_detection d[8];
    size_t n = radar_capture(w, s, d, 8);
    sensim_world_destroy(w);
    assert_int_equal(n, want[i]);
    if (n == 2) {
      double lo = fmin(d[0].radial_velocity, d[1].radial_velocity);
      double hi = fmax(d[0].radial_velocity, d[1].radial_velocity);
      assert_true(fabs(lo) < 1e-6 && fabs(hi - 1.0) < 1e-3);
    }
  }
}

/* R_max from the radar equation: SNR(R) = P_t G^2 lambda^2 sigma cpi /
 * ((4 pi)^3 R^4 L k T0 F) equals the threshold. */
static double max_range_for(const sensim_radar_params *p, double sigma) {
  double lambda = C0 / p->frequency, g = pow(10.0, p->antenna_gain / 10.0);
  double num = p->tx_power * g * g * lambda * lambda * sigma * p->cpi;
  double den = pow(4.0 * M_PI, 3) * pow(10.0, (p->losses + p->noise_figure + p->snr_threshold) / 10.0) *
               1.380649e-23 * 290.0;
  return pow(num / den, 0.25);
}

static size_t corner_count(const sensim_radar_params *rp, double R) {
  sensim_world *w = test_world(0, 3);
  radar_corner(w, 0.1, (sensim_vec3){R, 0.0, 0.0});
  sensim_sensor *s = radar_test_sensor(w, rp);
  sensim_radar_detection d[4];
  size_t n = radar_capture(w, s, d, 4);
  sensim_world_destroy(w);
  return n;
}

static void test_radar_target_beyond_snr_threshold_range_is_not_detected(void **state) {
  (void)state;
  /* A threshold raised so that the 0.1 m trihedral's maximum range is 40 m;
   * at 0.8 R_max its SNR is 3.9 dB over the threshold, at 1.25 R_max 3.9
   * dB under it: margins wider than the model's 1 dB RCS tolerance. */
  sensim_radar_params rp = radar_test_params();
  const double sigma = radar_trihedral_rcs(0.1, rp.frequency);
  rp.snr_threshold += 40.0 * log10(max_range_for(&rp, sigma) / 40.0);
  assert_true(fabs(max_range_for(&rp, sigma) - 40.0) < 1e-9);
  assert_int_equal(corner_count(&rp, 0.8 * 40.0), 1);
  assert_int_equal(corner_count(&rp, 1.25 * 40.0), 0);
  /* Beyond max_range nothing, however strong. */
  rp = radar_test_params();
  rp.max_range = 20.0;
  assert_int_equal(corner_count(&rp, 25.0), 0);
}

static void test_radar_noise_has_datasheet_sigmas_and_is_reproducible(void **state) {
  (void)state;
  /* n = 200 frames of a static corner: the sample standard deviation of
   * range and velocity is within 4 standard errors (sigma / sqrt(2 (n - 1)))
   * of the sigmas given, the mean within 4 sigma / sqrt(n) of the
   * noiseless range. */
  sensim_world *w = test_world(0, 11);
  radar_corner(w, 0.1, (sensim_vec3){20.0, 0.0, 0.0});
  sensim_radar_params rp = radar_test_params();
  rp.hfov = rp.vfov = 1.0 * M_PI / 180.0;
  rp.sigma_range = 0.2;
  rp.sigma_velocity = 0.05;
  sensim_sensor *s = radar_test_sensor(w, &rp);
  const int n = 200;
  double sr = 0, srr = 0, sv = 0, svv = 0, first = 0;
  for (int k = 0; k < n; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, k / 10.0));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
    assert_non_null(f);
    assert_int_equal(f->count, 1);
    const sensim_radar_detection *d = f->data;
    if (k == 0) first = d->range;
    sr += d->range;
    srr += d->range * d->range;
    sv += d->radial_velocity;
    svv += d->radial_velocity * d->radial_velocity;
  }
  double mr = sr / n, sdr = sqrt((srr - n * mr * mr) / (n - 1));
  double mv = sv / n, sdv = sqrt((svv - n * mv * mv) / (n - 1));
  double se = 1.0 / sqrt(2.0 * (n - 1));
  print_message("range sd %.4f (0.2), velocity sd %.4f (0.05), mean range %.4f\n", sdr, sdv, mr);
  assert_true(fabs(sdr / 0.2 - 1.0) < 4 * se);
  assert_true(fabs(sdv / 0.05 - 1.0) < 4 * se);
  assert_true(fabs(mr - 20.0) < 4 * 0.2 / sqrt(n) + 0.01);
  assert_true(fabs(mv) < 4 * 0.05 / sqrt(n));
  /* The same seed gives the same bits, with or without workers. */
  sensim_world *w2 = test_world(2, 11);
  radar_corner(w2, 0.1, (sensim_vec3){20.0, 0.0, 0.0});
  sensim_sensor *s2 = radar_test_sensor(w2, &rp);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w2, 0.0));
  const sensim_frame *f2 = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s2, &f2));
  assert_non_null(f2);
  assert_int_equal(f2->count, 1);
  assert_memory_equal(&((const sensim_radar_detection *)f2->data)->range, &first, sizeof first);
  sensim_world_destroy(w2);
  sensim_world_destroy(w);
}

static void test_radar_presets_hold_the_datasheet_figures(void **state) {
  (void)state;
  /* ARS 408-21: range resolution 1.79 / 0.39 m, velocity resolution
   * 0.37 / 0.43 km/h, fields of view 18 / 120 deg, ranges 250 / 70 m, and a
   * 10 dBsm target at the maximum range exactly at the threshold. */
  const char *names[2] = {"ARS408-21-far", "ARS408-21-near"};
  const double dr[2] = {1.79, 0.39}, dv[2] = {0.37 / 3.6, 0.43 / 3.6}, fov[2] = {18, 120}, rmax[2] = {250, 70};
  for (int i = 0; i < 2; i++) {
    sensim_radar_params p;
    SENSIM_OK_OR_FAIL(sensim_radar_preset(names[i], &p));
    SENSIM_OK_OR_FAIL(sensim_radar_params_check(&p));
    double lambda = C0 / p.frequency;
    assert_true(fabs(C0 / (2 * p.bandwidth) - dr[i]) < 1e-12);
    assert_true(fabs(lambda / (2 * p.cpi) - dv[i]) < 1e-12);
    assert_true(fabs(p.hfov * 180 / M_PI - fov[i]) < 1e-9);
    assert_true(fabs(p.max_range - rmax[i]) < 1e-12);
    assert_true(fabs(max_range_for(&p, 10.0) - rmax[i]) < 1e-6);
  }
  const char *const *list = sensim_radar_preset_names();
  assert_string_equal(list[0], names[0]);
  assert_string_equal(list[1], names[1]);
  assert_null(list[2]);
  sensim_radar_params p, keep;
  sensim_radar_params_init(&p);
  keep = p;
  assert_int_equal(sensim_radar_preset("ARS408", &p), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "ARS408-21-far"));
  assert_memory_equal(&p, &keep, sizeof p);
}

static void test_radar_bad_parameters_are_refused(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 3);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_radar_params good = radar_test_params(), p;
  sensim_sensor *s = NULL;
#define REFUSE(field, stmt)                                                  \
  do {                                                                       \
    p = good;                                                                \
    stmt;                                                                    \
    assert_int_equal(sensim_radar_create(w, &sp, &p, &s), SENSIM_EINVAL);    \
    assert_null(s);                                                          \
    assert_non_null(strstr(sensim_last_error(), field));                     \
  } while (0)
  REFUSE("frequency", p.frequency = NAN);
  REFUSE("frequency", p.frequency = 0);
  REFUSE("tx_power", p.tx_power = -1);
  REFUSE("tx_power", p.tx_power = INFINITY);
  REFUSE("antenna_gain", p.antenna_gain = NAN);
  REFUSE("losses", p.losses = -1);
  REFUSE("noise_figure", p.noise_figure = NAN);
  REFUSE("bandwidth", p.bandwidth = 0);
  REFUSE("cpi", p.cpi = 0);
  REFUSE("hfov", p.hfov = M_PI);
  REFUSE("vfov", p.vfov = 0);
  REFUSE("azimuth_resolution", p.azimuth_resolution = -1);
  REFUSE("ray_spacing", p.ray_spacing = p.azimuth_resolution);
  REFUSE("ray_spacing", p.ray_spacing = 0);
  REFUSE("min_range", p.min_range = -1);
  REFUSE("max_range", p.max_range = p.min_range);
  REFUSE("min_velocity", p.min_velocity = NAN);
  REFUSE("max_velocity", p.max_velocity = p.min_velocity);
  REFUSE("snr_threshold", p.snr_threshold = NAN);
  REFUSE("max_bounces", p.max_bounces = 0);
  REFUSE("max_bounces", p.max_bounces = 9);
  REFUSE("sigma_range", p.sigma_range = -0.1);
  REFUSE("sigma_azimuth", p.sigma_azimuth = NAN);
  REFUSE("sigma_elevation", p.sigma_elevation = INFINITY);
  REFUSE("sigma_velocity", p.sigma_velocity = -1);
  REFUSE("2^22", (p.hfov = p.vfov = 3.0, p.azimuth_resolution = 0.002, p.ray_spacing = 0.001));
#undef REFUSE
  assert_int_equal(sensim_radar_create(NULL, &sp, &good, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_radar_create(w, NULL, &good, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_radar_create(w, &sp, NULL, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_radar_create(w, &sp, &good, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_radar_params_check(NULL), SENSIM_EINVAL);
  assert_null(s);
  /* Materials: each in [0, 1], and their sum at most 1. */
  sensim_material m;
  sensim_material_init(&m);
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  m.radar_specular = 0.7f;
  m.radar_diffuse = 0.4f;
  assert_int_equal(sensim_mesh_create_shape(w, &sh, &m, &mesh), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "exceeds 1"));
  m.radar_specular = NAN;
  assert_int_equal(sensim_mesh_create_shape(w, &sh, &m, &mesh), SENSIM_EINVAL);
  assert_null(mesh);
  /* The world still works: a good radar sees an empty scene. */
  s = radar_test_sensor(w, &good);
  sensim_radar_detection d[1];
  assert_int_equal(radar_capture(w, s, d, 1), 0);
  sensim_world_destroy(w);
}

int sensim_test_radar_detect(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_radar_targets_within_range_resolution_merge),
      cmocka_unit_test(test_radar_targets_beyond_range_resolution_separate),
      cmocka_unit_test(test_radar_targets_two_azimuth_cells_apart_separate),
      cmocka_unit_test(test_radar_targets_resolved_by_velocity_alone),
      cmocka_unit_test(test_radar_target_beyond_snr_threshold_range_is_not_detected),
      cmocka_unit_test(test_radar_noise_has_datasheet_sigmas_and_is_reproducible),
      cmocka_unit_test(test_radar_presets_hold_the_datasheet_figures),
      cmocka_unit_test(test_radar_bad_parameters_are_refused),
  };
  return cmocka_run_group_tests_name("radar_detect", tests, NULL, NULL);
}
