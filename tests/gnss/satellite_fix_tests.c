/* tests/gnss/satellite_fix_tests.c: the satellites mode's fixes through
 * the world API: the least-squares solution recovers the true antenna
 * without errors (to a millimetre, moving), the corrections remove exactly
 * the modelled delays, noise scatters the fixes as the reported covariance
 * says, the time scale follows utc_start and the leap seconds, and a fix
 * without satellites says so in the fix, in NMEA and in a NavSatFix. */
#include <stdlib.h>
#include <string.h>
#include "gnss/gnss_groups.h"
#include "sensim/nmea.h"
#include "sensim/record.h"
#include "sensors/gnss_sat.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/gnss_sat"
#define CIRCLE_R 50.0 /* m */
#define CIRCLE_W 0.2  /* rad/s: 10 m/s */

static const sensim_vec3 kMount = {0.5, 0.0, 1.6};

/* The car on its circle at t, heading along the track. */
static sensim_body_state car_state(double t) {
  const double a = CIRCLE_W * t;
  sensim_body_state s = test_state_xyzyaw(CIRCLE_R * cos(a), CIRCLE_R * sin(a), 0.0, a + M_PI / 2);
  s.flags = SENSIM_STATE_VELOCITY;
  s.lin_vel = (sensim_vec3){-CIRCLE_R * CIRCLE_W * sin(a), CIRCLE_R * CIRCLE_W * cos(a), 0.0};
  s.ang_vel = (sensim_vec3){0, 0, CIRCLE_W};
  return s;
}

/* The antenna's true position and velocity, world frame. */
static void antenna_truth(double t, double p[3], double v[3]) {
  const double a = CIRCLE_W * t, yaw = a + M_PI / 2;
  const double lx = cos(yaw) * kMount.x - sin(yaw) * kMount.y, ly = sin(yaw) * kMount.x + cos(yaw) * kMount.y;
  p[0] = CIRCLE_R * cos(a) + lx, p[1] = CIRCLE_R * sin(a) + ly, p[2] = kMount.z;
  v[0] = -CIRCLE_R * CIRCLE_W * sin(a) - CIRCLE_W * ly;
  v[1] = CIRCLE_R * CIRCLE_W * cos(a) + CIRCLE_W * lx;
  v[2] = 0.0;
}

/* A receiver on the circling car; the car pushed at 100 Hz up to each 1 Hz
 * fix. */
typedef struct rig {
  sensim_world *w;
  sensim_body *car;
  sensim_sensor *gnss;
  int step;
} rig;

static void rig_make(rig *r, const sensim_gnss_params *gp, int threads) {
  memset(r, 0, sizeof *r);
  r->w = gt_sat_world(threads);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  SENSIM_OK_OR_FAIL(sensim_body_create(r->w, &bp, &r->car));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "gps";
  sp.body = r->car;
  sp.rate = 1.0;
  sp.mount.pos = kMount;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(r->w, &sp, gp, &r->gnss));
}

static sensim_gnss_fix rig_fix(rig *r, int k) {
  for (; r->step <= 100 * k; r->step++) {
    sensim_body_state s = car_state(r->step / 100.0);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(r->car, r->step / 100.0, &s));
  }
  return gt_next_fix(r->w, r->gnss, k);
}

static double err3(const double a[3], const double b[3]) { return hypot(hypot(a[0] - b[0], a[1] - b[1]), a[2] - b[2]); }

/* Without noise and delays the pseudoranges are the true ranges, so the
 * solution is the true antenna: position and velocity of the moving car to
 * 1 mm and 1 mm/s, latitude and longitude those of the ENU position. With
 * the delays on and the receiver correcting them with the same models it
 * recovers the antenna as well; without the corrections it does not. */
static void test_least_squares_recovers_the_true_antenna(void **state) {
  (void)state;
  for (int variant = 0; variant < 3; variant++) {
    sensim_gnss_params gp;
    gt_sat_params(&gp, 1);
    if (variant > 0) gp.ionosphere = gp.troposphere = 1;
    if (variant == 1) gp.correct_ionosphere = gp.correct_troposphere = 1;
    rig r;
    rig_make(&r, &gp, 0);
    double worst_p = 0, worst_v = 0, least = INFINITY;
    for (int k = 0; k <= 20; k++) {
      const sensim_gnss_fix f = rig_fix(&r, k);
      assert_int_equal(f.fix_type, 1);
      assert_true(f.satellites >= 8 && f.satellites <= 12);
      assert_true(f.hdop > 0.5 && f.hdop < 2.0 && f.vdop > 0.8 && f.vdop < 3.0);
      assert_near(f.pdop, hypot(f.hdop, f.vdop), 1e-12);
      double p[3], v[3], lat, lon, h;
      antenna_truth(k, p, v);
      worst_p = fmax(worst_p, err3(f.enu, p));
      least = fmin(least, err3(f.enu, p));
      worst_v = fmax(worst_v, err3(f.vel_enu, v));
      sensim_enu_to_geodetic(f.origin, f.enu, &lat, &lon, &h);
      assert_near(f.lat, lat, 1e-10);
      assert_near(f.lon, lon, 1e-10);
      assert_near(f.height, h, 1e-5);
    }
    if (variant < 2) {
      if (worst_p > 1e-3) fail_msg("variant %d: position %g m off", variant, worst_p);
      if (worst_v > 1e-3) fail_msg("variant %d: velocity %g m/s off", variant, worst_v);
    } else if (!(least > 1.0)) {
      fail_msg("uncorrected delays moved the fix by only %g m", least);
    }
    sensim_world_destroy(r.w);
  }
}

/* With white pseudorange noise sigma alone the solution's error has
 * covariance sigma^2 (H^T H)^-1, which the fix reports: each ENU error over
 * its reported standard deviation is N(0, 1) over 1500 independent fixes
 * (variance within 5 sqrt(2/N) = 18 %, mean within 5 / sqrt(N) = 0.13), and
 * the velocity's, with its own range-rate sigma, the same; and the
 * east-north cross term. */
static void test_noise_scatters_as_the_reported_covariance(void **state) {
  (void)state;
  sensim_gnss_params gp;
  gt_sat_params(&gp, 1);
  gp.range_sigma = 3.0;
  gp.range_rate_sigma = 0.3;
  gp.visibility = 0;
  sensim_world *w = gt_sat_world(0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 2.0;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  enum { N = 1500 };
  double sum[6] = {0}, sum2[6] = {0}, en = 0, cov_en = 0, var_en = 0;
  for (int k = 0; k < N; k++) {
    const sensim_gnss_fix f = gt_next_fix(w, s, k / 2.0);
    assert_int_equal(f.fix_type, 1);
    for (int i = 0; i < 3; i++) {
      const double sd = sqrt(f.cov_enu[4 * i]);
      const double zp = f.enu[i] / sd, zv = f.vel_enu[i] / (sd * 0.1);
      sum[i] += zp, sum2[i] += zp * zp;
      sum[3 + i] += zv, sum2[3 + i] += zv * zv;
    }
    assert_near(f.cov_enu[1], f.cov_enu[3], 1e-12); /* symmetric */
    en += f.enu[0] * f.enu[1];
    cov_en += f.cov_enu[1];
    var_en += f.cov_enu[0] * f.cov_enu[4] + f.cov_enu[1] * f.cov_enu[1]; /* Var(e n) for a Gaussian pair */
  }
  for (int i = 0; i < 6; i++) {
    const double mean = sum[i] / N, var = sum2[i] / N - mean * mean;
    if (fabs(mean) > 5.0 / sqrt(N) || fabs(var - 1.0) > 5.0 * sqrt(2.0 / N))
      fail_msg("%s %c: normalised mean %.3f, variance %.3f", i < 3 ? "position" : "velocity", "ENUENU"[i], mean, var);
  }
  /* The east-north cross term is reported too: sum of e n against sum of
   * cov_en, within 5 standard deviations of the sum. */
  assert_near(en, cov_en, 5.0 * sqrt(var_en));
  assert_true(fabs(cov_en) > 2.0 * sqrt(var_en)); /* the term is not negligible */
  sensim_world_destroy(w);
}

/* utc_start 0 is the file's first toe (2010-07-01 00:00:00 GPS = 23:59:45
 * UTC the day before, 15 leap seconds from the file); a given utc_start
 * and leap_seconds set GPS time = UTC + leap. The Klobuchar coefficients
 * come from the file. */
static void test_time_scale_follows_utc_start_and_leap_seconds(void **state) {
  (void)state;
  const double toe = 1590.0 * 604800.0 + 345600.0;
  sensim_world *w = gt_sat_world(0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_gnss_params gp, got;
  gt_sat_params(&gp, 0);
  sensim_sensor *a = NULL, *b = NULL, *c = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &a));
  SENSIM_OK_OR_FAIL(sensim_gnss_params_get(a, &got));
  double utc;
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2010-06-30T23:59:45Z", &utc));
  assert_true(got.utc_start == utc);
  assert_int_equal(got.leap_seconds, 15);
  assert_true(got.iono_alpha[1] == 0.1490e-07 && got.iono_beta[2] == -0.6554e+05);
  assert_string_equal(got.ephemeris, GT_BRDC);
  assert_true(((const sensim__gnss_cfg *)sensim__sensor_impl(a))->gps0 == toe);
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2010-07-01T01:00:00Z", &gp.utc_start));
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &b));
  assert_true(((const sensim__gnss_cfg *)sensim__sensor_impl(b))->gps0 == toe + 3615.0);
  gp.leap_seconds = 18;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &c));
  assert_true(((const sensim__gnss_cfg *)sensim__sensor_impl(c))->gps0 == toe + 3618.0);
  /* Another kind is not a receiver. */
  sensim_imu_params ip;
  sensim_imu_params_init(&ip);
  sensim_sensor *imu = NULL;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, &ip, &imu));
  assert_int_equal(sensim_gnss_params_get(imu, &got), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

/* Records are used within 2 h of their toe: a start outside every record's
 * validity is refused at creation (nothing created, the message gives the
 * span), and a run that outlives the records loses its fix when they
 * expire (2010-07-01 02:00:00 GPS = 01:59:45 UTC). */
static void test_fix_ends_when_the_ephemeris_expires(void **state) {
  (void)state;
  sensim_world *w = gt_sat_world(0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "late";
  sensim_gnss_params gp;
  gt_sat_params(&gp, 1);
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2010-07-01T05:00:00Z", &gp.utc_start));
  sensim_sensor *s = NULL;
  assert_int_equal(sensim_gnss_create(w, &sp, &gp, &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "2010-07-01T05:00:00Z"));
  assert_non_null(strstr(sensim_last_error(), "2010-06-30T21:59:45Z to 2010-07-01T01:59:45Z"));
  assert_null(sensim_world_sensor_by_name(w, "late"));
  /* Five hours after toe it is valid with max_ephemeris_age 5.5 h. */
  gp.max_ephemeris_age = 5.5 * 3600.0;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2010-07-01T01:58:00Z", &gp.utc_start));
  gp.max_ephemeris_age = 0;
  sp.name = "expiring";
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  for (int k = 0; k <= 110; k += 10) {
    const sensim_gnss_fix f = gt_next_fix(w, s, k);
    if (k <= 100) { /* up to 01:59:40 UTC */
      assert_int_equal(f.fix_type, 1);
      continue;
    }
    assert_int_equal(f.fix_type, 0);
    assert_int_equal(f.satellites, 0);
    assert_true(isnan(f.lat) && isnan(f.enu[0]) && isnan(f.cov_enu[0]) && f.hdop == 0.0);
  }
  sensim_world_destroy(w);
}

/* Field i (0 = "$GPGGA") of a sentence, into buf. */
static const char *nmea_field(const char *s, int i, char *buf, size_t cap) {
  for (; i > 0 && s; i--) s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL;
  if (!s) return "";
  size_t n = strcspn(s, ",*");
  if (n >= cap) n = cap - 1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return buf;
}

/* An antenna inside a closed box sees no satellite: no fix (fix_type 0,
 * no position), GGA quality 0 with 00 satellites, and a recorded NavSatFix
 * with status -1 (STATUS_NO_FIX). The same box as the carrier's own mesh
 * blocks nothing: the receiver looks through its own vehicle. */
static void test_no_visible_satellite_gives_no_fix_everywhere(void **state) {
  (void)state;
  sensim_world *w = gt_sat_world(0);
  test_static_shape(w, SENSIM_SHAPE_BOX, (sensim_vec3){20, 20, 20}, (sensim_vec3){0, 0, 0});
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "boxed";
  sensim_gnss_params gp;
  gt_sat_params(&gp, 1);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.compress = 0;
  test_remove_tree(TMP);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  sensim_recorder *rec = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(TMP "/boxed.mcap", w, &rp, &rec));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  const sensim_gnss_fix *fix = f->data;
  assert_int_equal(fix->fix_type, 0);
  assert_int_equal(fix->satellites, 0);
  assert_true(isnan(fix->lat) && isnan(fix->height) && isnan(fix->vel_enu[2]));
  char gga[SENSIM_NMEA_MAX], buf[32];
  sensim_nmea_params np;
  sensim_nmea_params_init(&np);
  SENSIM_OK_OR_FAIL(sensim_nmea_gga(&np, fix, f->t_capture, gga, sizeof gga));
  assert_string_equal(nmea_field(gga, 6, buf, sizeof buf), "0");
  assert_string_equal(nmea_field(gga, 7, buf, sizeof buf), "00");
  SENSIM_OK_OR_FAIL(sensim_recorder_write(rec, s, f));
  SENSIM_OK_OR_FAIL(sensim_recorder_close(rec));
  /* NavSatFix in CDR: frame_id "boxed" (length 6 with its NUL), then
   * status.status, an int8: -1. The file is uncompressed. */
  size_t len = 0;
  char *bytes = test_slurp(TMP "/boxed.mcap", &len);
  static const unsigned char pat[] = {6, 0, 0, 0, 'b', 'o', 'x', 'e', 'd', 0, 0xFF};
  int found = 0;
  for (size_t i = 0; i + sizeof pat <= len && !found; i++) found = !memcmp(bytes + i, pat, sizeof pat);
  free(bytes);
  assert_true(found);
  sensim_world_destroy(w);

  /* The box is the carrier: looked through. */
  w = gt_sat_world(0);
  sensim_material m;
  sensim_material_init(&m);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {4, 2, 2}, 16};
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &sp.body));
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  const sensim_gnss_fix inside = gt_next_fix(w, s, 0.0);
  assert_int_equal(inside.fix_type, 1);
  assert_near(hypot(hypot(inside.enu[0], inside.enu[1]), inside.enu[2]), 0.0, 1e-3);
  sensim_world_destroy(w);
}

/* The same seed gives the same bits for 0 and 2 worker threads (noise keyed
 * by frame and PRN, rays traced per capture). */
static void test_fixes_are_identical_for_any_thread_count(void **state) {
  (void)state;
  sensim_gnss_fix a[12], b[12];
  for (int run = 0; run < 2; run++) {
    sensim_gnss_params gp;
    gt_sat_params(&gp, 0);
    rig r;
    rig_make(&r, &gp, run ? 2 : 0);
    test_static_shape(r.w, SENSIM_SHAPE_BOX, (sensim_vec3){200, 10, 40}, (sensim_vec3){0, 70, 20});
    for (int k = 0; k < 12; k++) (run ? b : a)[k] = rig_fix(&r, k);
    sensim_world_destroy(r.w);
  }
  assert_memory_equal(a, b, sizeof a);
}

int sensim_test_gnss_satellite_fixes(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_least_squares_recovers_the_true_antenna),
      cmocka_unit_test(test_noise_scatters_as_the_reported_covariance),
      cmocka_unit_test(test_time_scale_follows_utc_start_and_leap_seconds),
      cmocka_unit_test(test_fix_ends_when_the_ephemeris_expires),
      cmocka_unit_test(test_no_visible_satellite_gives_no_fix_everywhere),
      cmocka_unit_test(test_fixes_are_identical_for_any_thread_count),
  };
  return cmocka_run_group_tests_name("gnss_satellite_fixes", tests, NULL, NULL);
}
