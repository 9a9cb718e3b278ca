/* tests/inertial/mag_tests.c: the magnetometer (sensors/magnetometer.c),
 * its "mag_noise" filter, scenario keys and CSV rows. The dipole is
 * checked against closed forms at the poles and the equator and, anywhere,
 * against the spherical-component formulas of the IGRF degree-1 potential
 * rotated from geocentric to geodetic axes, a computation independent of
 * the library's ECEF-vector form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inertial/inertial_groups.h"
#include "core/payload.h"
#include "io/scenario_magnetometer.h"
#include "sensim/magnetometer.h"
#include "runtime/runtime_internal.h"
#include "filters/builtin.h"

static const double origin0[3] = {0, 0, 0};

static void test_mag_constant_field_is_rotated_into_sensor_frame(void **st) {
  (void)st;
  /* b_s = R^T b for a world-fixed sensor with mount yaw/pitch/roll: R from
   * the Z-Y-X angles written out (psi, theta, phi). */
  const double psi = 0.7, th = -0.3, ph = 1.1, b[3] = {1.2e-5, 2.1e-5, -4.3e-5};
  double cy = cos(psi), sy = sin(psi), cp = cos(th), sp_ = sin(th), cr = cos(ph), sr = sin(ph);
  const double R[9] = {cy * cp, cy * sp_ * sr - sy * cr, cy * sp_ * cr + sy * sr,
                       sy * cp, sy * sp_ * sr + cy * cr, sy * sp_ * cr - cy * sr,
                       -sp_,    cp * sr,                 cp * cr};
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20;
  sp.mount.rot = sensim_quat_from_ypr(psi, th, ph);
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  mp.model = SENSIM_MAG_CONSTANT;
  memcpy(mp.field_enu, b, sizeof b);
  sensim_sensor *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_magnetometer_create(w, &sp, &mp, &m));
  assert_int_equal(sensim_sensor_output_type(m), SENSIM_PAYLOAD_MAG);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.2));
  const sensim_frame *f = NULL;
  int n = 0;
  while (sensim_sensor_poll(m, &f) == SENSIM_OK && f) {
    const sensim_mag_sample *s = f->data;
    for (int i = 0; i < 3; i++)
      assert_near(s->field[i], R[i] * b[0] + R[3 + i] * b[1] + R[6 + i] * b[2], 1e-20);
    n++;
  }
  assert_int_equal(n, 5);
  sensim_world_destroy(w);
}

static void test_mag_on_yawing_body_with_window_averages_rotated_field(void **st) {
  (void)st;
  /* Body yawing at W with the constant field b = (0, B, 0) (north): in the
   * body frame (B sin Wt, B cos Wt, 0); its average over [t - T, t] is
   * (B / (W T)) (cos W(t-T) - cos Wt, sin Wt - sin W(t-T), 0). 1 kHz poses,
   * trapezoidal rule: error ~ (W h)^2 / 12 relative. */
  const double W = 2.0, B = 2e-5, T = 0.02;
  sensim_world *w = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *body = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &body));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = body;
  sp.rate = 50;
  sp.window = T;
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  mp.model = SENSIM_MAG_CONSTANT;
  mp.field_enu[0] = 0, mp.field_enu[1] = B, mp.field_enu[2] = 0;
  sensim_sensor *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_magnetometer_create(w, &sp, &mp, &m));
  int n = 0;
  for (int j = 0; j <= 500; j++) {
    double t = j / 1000.0;
    sensim_body_state s = {0};
    s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, W * t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(body, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(m, &f) == SENSIM_OK && f) {
      double tc = f->t_capture;
      if (tc - T < 0) continue;
      const sensim_mag_sample *s2 = f->data;
      double ex = B / (W * T) * (cos(W * (tc - T)) - cos(W * tc));
      double ey = B / (W * T) * (sin(W * tc) - sin(W * (tc - T)));
      assert_near(s2->field[0], ex, B * 1e-6);
      assert_near(s2->field[1], ey, B * 1e-6);
      n++;
    }
  }
  assert_int_equal(n, 25);
  sensim_world_destroy(w);
}

static void test_mag_axial_dipole_magnitude_and_inclination_at_poles_and_equator(void **st) {
  (void)st;
  /* Untilted dipole (g11 = h11 = 0): |B| = B0 (a/r)^3 sqrt(1 + 3 sin^2 lat),
   * tan I = 2 tan lat (Campbell 2003, sec. 2.3); at the poles and the
   * equator geodetic and geocentric latitude agree, r is the WGS84 radius
   * there (equator 6378137 m, poles 6356752.314245 m). With g10 < 0 the
   * field points down (I = +90 deg) at the north pole, north at the
   * equator, up at the south pole. */
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  mp.g10 = -30000.0, mp.g11 = 0.0, mp.h11 = 0.0;
  const double a = 6371200.0, B0 = 30000e-9;
  const double lats[3] = {90, 0, -90}, r[3] = {6356752.314245, 6378137.0, 6356752.314245};
  for (int i = 0; i < 3; i++) {
    double org[3] = {lats[i], 30.0, 0.0}, b[3];
    SENSIM_OK_OR_FAIL(sensim_magnetometer_field(&mp, org, lats[i], 30.0, 0.0, b));
    double k = pow(a / r[i], 3.0), sl = sin(lats[i] * M_PI / 180.0);
    double mag = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    assert_near(mag / (B0 * k * sqrt(1.0 + 3.0 * sl * sl)), 1.0, 1e-9);
    double incl = atan2(-b[2], hypot(b[0], b[1])) * 180.0 / M_PI;
    assert_near(incl, lats[i], 1e-6);
    if (lats[i] == 0.0) assert_near(b[1], B0 * k, 1e-9 * B0);
  }
}

/* The IGRF degree-1 field from its spherical components (Alken et al.
 * 2021 eq. 1 differentiated; Campbell 2003 sec. 2.3), at geodetic
 * (lat, lon, h): north, east, down in geodetic axes, T. */
static void spherical_reference(double g10, double g11, double h11, double lat, double lon,
                                double h, double ned[3]) {
  double e[3];
  sensim_geodetic_to_ecef(lat, lon, h, e);
  double r = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  double latc = asin(e[2] / r), th = M_PI / 2 - latc, ph = lon * M_PI / 180.0;
  double k = pow(6371200.0 / r, 3.0) * 1e-9;
  double q = g11 * cos(ph) + h11 * sin(ph);
  double Br = 2.0 * k * (g10 * cos(th) + q * sin(th));
  double Bt = k * (g10 * sin(th) - q * cos(th));
  double Bp = k * (g11 * sin(ph) - h11 * cos(ph));
  double X = -Bt, Y = Bp, Z = -Br, psi = lat * M_PI / 180.0 - latc;
  ned[0] = X * cos(psi) + Z * sin(psi);
  ned[1] = Y;
  ned[2] = -X * sin(psi) + Z * cos(psi);
}

static void test_mag_tilted_dipole_matches_spherical_components_anywhere(void **st) {
  (void)st;
  /* With the world origin at the point itself, world ENU = local geodetic
   * ENU: (E, N, U) = (Y, X, -Z). IGRF-13 2020.0 coefficients. */
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  const double pts[5][3] = {{48.1, 11.6, 520}, {-33.9, 151.2, 40}, {64.1, -21.9, 0},
                            {1.3, 103.8, 15}, {-77.8, 166.7, 3000}};
  for (int i = 0; i < 5; i++) {
    double b[3], ned[3];
    SENSIM_OK_OR_FAIL(sensim_magnetometer_field(&mp, pts[i], pts[i][0], pts[i][1], pts[i][2], b));
    spherical_reference(mp.g10, mp.g11, mp.h11, pts[i][0], pts[i][1], pts[i][2], ned);
    assert_near(b[0], ned[1], 1e-14);
    assert_near(b[1], ned[0], 1e-14);
    assert_near(b[2], -ned[2], 1e-14);
    double mag = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    assert_true(mag > 20e-6 && mag < 70e-6); /* the Earth's field, 25 .. 65 uT */
  }
}

static void test_mag_sensor_far_from_origin_reads_field_at_its_own_position(void **st) {
  (void)st;
  /* World origin Munich; the sensor 30 km east, 20 km north, 500 m up:
   * the reading is the field at that point in the world's ENU axes, as
   * sensim_magnetometer_field gives it for the point's geodetic position. */
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.origin_lat = 48.137, wp.origin_lon = 11.575, wp.origin_height = 520;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){30000, 20000, 500};
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  sensim_sensor *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_magnetometer_create(w, &sp, &mp, &m));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(m, &f));
  assert_non_null(f);
  const double org[3] = {48.137, 11.575, 520}, enu[3] = {30000, 20000, 500};
  double lat, lon, h, b[3], b0[3];
  sensim_enu_to_geodetic(org, enu, &lat, &lon, &h);
  SENSIM_OK_OR_FAIL(sensim_magnetometer_field(&mp, org, lat, lon, h, b));
  SENSIM_OK_OR_FAIL(sensim_magnetometer_field(&mp, org, org[0], org[1], org[2], b0));
  const sensim_mag_sample *s = f->data;
  for (int i = 0; i < 3; i++) assert_near(s->field[i], b[i], 1e-15);
  /* ... and it differs from the origin's field by more than rounding. */
  assert_true(fabs(b[2] - b0[2]) > 1e-8);
  sensim_world_destroy(w);
}

static void test_mag_bad_input_is_rejected_and_world_stays_usable(void **st) {
  (void)st;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  sensim_sensor *m = NULL;
  assert_int_equal(sensim_magnetometer_create(NULL, &sp, &mp, &m), SENSIM_EINVAL);
  assert_int_equal(sensim_magnetometer_create(w, NULL, &mp, &m), SENSIM_EINVAL);
  assert_int_equal(sensim_magnetometer_create(w, &sp, NULL, &m), SENSIM_EINVAL);
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, NULL), SENSIM_EINVAL);
  mp.model = (sensim_mag_model)7;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  mp.model = SENSIM_MAG_CONSTANT;
  mp.field_enu[1] = NAN;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  sensim_magnetometer_params_init(&mp);
  mp.g10 = mp.g11 = mp.h11 = 0;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  sensim_magnetometer_params_init(&mp);
  mp.h11 = INFINITY;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  sensim_magnetometer_params_init(&mp);
  mp.ref_radius = 0;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  sensim_magnetometer_params_init(&mp);
  sp.rate = 10, sp.window = 0.2;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "period"));
  sp.window = -1;
  sp.rate = -1;
  assert_int_equal(sensim_magnetometer_create(w, &sp, &mp, &m), SENSIM_EINVAL);
  sp.rate = 10;
  double b[3];
  assert_int_equal(sensim_magnetometer_field(&mp, origin0, 91.0, 0, 0, b), SENSIM_EINVAL);
  assert_int_equal(sensim_magnetometer_field(&mp, origin0, -90.5, 0, 0, b), SENSIM_EINVAL);
  const double bad_org[3] = {95, 0, 0};
  assert_int_equal(sensim_magnetometer_field(&mp, bad_org, 0, 0, 0, b), SENSIM_EINVAL);
  assert_int_equal(sensim_magnetometer_field(&mp, origin0, NAN, 0, 0, b), SENSIM_EINVAL);
  assert_int_equal(sensim_magnetometer_field(&mp, NULL, 0, 0, 0, b), SENSIM_EINVAL);
  assert_null(m);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  SENSIM_OK_OR_FAIL(sensim_magnetometer_create(w, &sp, &mp, &m));
  assert_int_equal(sensim_sensor_add_filter(m, "imu_noise", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_sensor_add_filter(m, "mag_noise", "{\"sigma\": -1}"), SENSIM_EINVAL);
  assert_int_equal(m->chain.n, 0);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(m, "mag_noise", "{\"sigma_nt\": 50}"));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(m, &f));
  assert_non_null(f);
  sensim_world_destroy(w);
}

static void *mag_make(const char *json) {
  cJSON *p = cJSON_Parse(json);
  void *u = NULL;
  SENSIM_OK_OR_FAIL(sensim__filter_mag_noise.create(p, &u));
  cJSON_Delete(p);
  return u;
}

static sensim_mag_sample mag_step(void *u, uint64_t k, const double b[3]) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  sensim_mag_sample s;
  memset(&s, 0, sizeof s);
  memcpy(s.field, b, sizeof s.field);
  f.type = SENSIM_PAYLOAD_MAG;
  f.count = f.width = f.height = 1;
  f.data = &s;
  f.index = k;
  SENSIM_OK_OR_FAIL(inertial_apply(&sensim__filter_mag_noise, u, &f, 8, 2));
  return s;
}

static void test_mag_noise_hard_soft_iron_resolution_and_white_noise(void **st) {
  (void)st;
  /* y = A b + h exactly; then quantised to 0.1 uT and clamped to 50 uT;
   * white sigma 80 nT: variance within 5 sqrt(2 / n) for n = 20000. */
  void *u = mag_make("{\"soft_iron\": [1.05, 0.02, 0, 0.02, 0.97, 0.01, 0, 0.01, 1.1],"
                     " \"hard_iron_ut\": [12, -5, 3]}");
  const double b[3] = {2e-5, -1e-5, -4e-5}, A[9] = {1.05, 0.02, 0, 0.02, 0.97, 0.01, 0, 0.01, 1.1};
  const double h[3] = {12e-6, -5e-6, 3e-6};
  sensim_mag_sample s = mag_step(u, 0, b);
  for (int i = 0; i < 3; i++)
    assert_near(s.field[i], A[3 * i] * b[0] + A[3 * i + 1] * b[1] + A[3 * i + 2] * b[2] + h[i], 1e-20);
  for (int i = 0; i < 3; i++) assert_true(s.field_var[i] == 0.0); /* no noise: exact */
  sensim__filter_mag_noise.def.destroy(u);
  /* Reported variance: sigma^2 + q^2 / 12 (80 nT, 0.1 uT LSB), by hand. */
  u = mag_make("{\"sigma_nt\": 80, \"resolution_ut\": 0.1}");
  s = mag_step(u, 0, b);
  for (int i = 0; i < 3; i++) assert_near(s.field_var[i], 80e-9 * 80e-9 + 1e-7 * 1e-7 / 12.0, 1e-28);
  sensim__filter_mag_noise.def.destroy(u);
  u = mag_make("{\"resolution_ut\": 0.1, \"range_ut\": 50}");
  const double big[3] = {2.0123e-5, 9e-5, -7e-5};
  s = mag_step(u, 0, big);
  assert_near(s.field[0], 2.01e-5, 1e-19);
  assert_near(s.field[1], 50e-6, 1e-20);
  assert_near(s.field[2], -50e-6, 1e-20);
  sensim__filter_mag_noise.def.destroy(u);
  u = mag_make("{\"sigma_nt\": 80}");
  const int n = 20000;
  double s2[3] = {0};
  for (int k = 0; k < n; k++) {
    s = mag_step(u, (uint64_t)k, b);
    for (int i = 0; i < 3; i++) s2[i] += (s.field[i] - b[i]) * (s.field[i] - b[i]);
  }
  for (int i = 0; i < 3; i++) assert_near(s2[i] / n / (80e-9 * 80e-9), 1.0, 5.0 * sqrt(2.0 / n));
  sensim__filter_mag_noise.def.destroy(u);
  const char *bad[] = {"{\"sigma\": -1e-9}", "{\"resolution\": [0, -1, 0]}", "{\"soft_iron\": [1, 0, 0]}",
                       "{\"hard\": 1}", "{\"soft_iron_ppm\": [1, 0, 0, 0, 1, 0, 0, 0, 1]}", "{\"sigma\": 1e-9, \"sigma_nt\": 1}", "{\"range\": \"x\"}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cJSON *p = cJSON_Parse(bad[i]);
    void *v = NULL;
    assert_int_equal(sensim__filter_mag_noise.create(p, &v), SENSIM_EINVAL);
    assert_null(v);
    cJSON_Delete(p);
  }
}

static sensim_status scn(const char *json, sensim_magnetometer_params *mp) {
  cJSON *o = cJSON_Parse(json);
  if (!o) fail_msg("bad test JSON %s", json);
  sensim_status st = sensim__scenario_magnetometer(o, "sensors[0]", mp);
  cJSON_Delete(o);
  return st;
}

static void test_mag_scenario_keys_and_csv_rows(void **st) {
  (void)st;
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  SENSIM_OK_OR_FAIL(scn("{\"field_enu_ut\": [1, 20, -45]}", &mp));
  assert_int_equal(mp.model, SENSIM_MAG_CONSTANT);
  assert_near(mp.field_enu[2], -45e-6, 1e-20);
  sensim_magnetometer_params_init(&mp);
  SENSIM_OK_OR_FAIL(scn("{\"mag_model\": \"dipole\", \"gauss_nt\": [-29000, -1500, 4600], \"ref_radius\": 6371000}", &mp));
  assert_true(mp.model == SENSIM_MAG_DIPOLE && mp.g11 == -1500 && mp.ref_radius == 6371000);
  sensim_magnetometer_params keep = mp;
  assert_int_equal(scn("{\"mag_model\": \"igrf14\"}", &mp), SENSIM_EINVAL);
  assert_int_equal(scn("{\"mag_model\": \"dipole\", \"field_enu\": [0, 1e-5, 0]}", &mp), SENSIM_EINVAL);
  assert_int_equal(scn("{\"field_enu\": [0, 1e-5, 0], \"field_enu_ut\": [0, 10, 0]}", &mp), SENSIM_EINVAL);
  assert_int_equal(scn("{\"mag_model\": \"constant\", \"gauss_nt\": [1, 2, 3]}", &mp), SENSIM_EINVAL);
  assert_int_equal(scn("{\"ref_radius\": -1}", &mp), SENSIM_EINVAL);
  assert_int_equal(scn("{\"gauss_nt\": [1, 2]}", &mp), SENSIM_EPARSE);
  assert_int_equal(scn("{\"mag_model\": 3}", &mp), SENSIM_EPARSE);
  assert_memory_equal(&keep, &mp, sizeof mp);
  assert_string_equal(sensim__scenario_magnetometer_keys[0], "mag_model");

  FILE *fp = tmpfile();
  assert_non_null(fp);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  sensim_mag_sample s = {.field = {2.5e-5, -1e-7, 0.1}};
  f.type = SENSIM_PAYLOAD_MAG;
  f.count = 1;
  f.data = &s;
  f.t_capture = 0.3;
  const sensim__payload_desc *desc = sensim__payload_desc_of(SENSIM_PAYLOAD_MAG);
  fputs(desc->csv_header, fp);
  desc->csv_rows(fp, &f);
  rewind(fp);
  char text[128] = {0};
  assert_true(fread(text, 1, sizeof text - 1, fp) > 0);
  fclose(fp);
  assert_string_equal(text, "t,bx,by,bz\n0.3,2.5e-05,-1e-07,0.1\n");
}

int sensim_test_inertial_mag(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mag_constant_field_is_rotated_into_sensor_frame),
      cmocka_unit_test(test_mag_on_yawing_body_with_window_averages_rotated_field),
      cmocka_unit_test(test_mag_axial_dipole_magnitude_and_inclination_at_poles_and_equator),
      cmocka_unit_test(test_mag_tilted_dipole_matches_spherical_components_anywhere),
      cmocka_unit_test(test_mag_sensor_far_from_origin_reads_field_at_its_own_position),
      cmocka_unit_test(test_mag_bad_input_is_rejected_and_world_stays_usable),
      cmocka_unit_test(test_mag_noise_hard_soft_iron_resolution_and_white_noise),
      cmocka_unit_test(test_mag_scenario_keys_and_csv_rows),
  };
  return cmocka_run_group_tests_name("inertial_mag", tests, NULL, NULL);
}
