/* tests/gnss/satellite_models_tests.c: the satellites mode's signal and
 * geometry models: Klobuchar against its closed forms and a long-double
 * rewrite of IS-GPS-200's figure 20-4, the standard atmosphere and
 * Saastamoinen against published values, DOPs against a constellation
 * whose DOPs are known in closed form. */
#include <string.h>
#include "gnss/gnss_groups.h"
#include "sensors/gnss_sat.h"
#include "support/testutil.h"

#define DEG (M_PI / 180.0)
#define C 299792458.0

/* The broadcast coefficients of the shipped file (2010-07-01). */
static const double kAlpha[4] = {0.4657e-08, 0.1490e-07, -0.5960e-07, -0.1192e-06};
static const double kBeta[4] = {0.8192e+05, 0.8192e+05, -0.6554e+05, -0.5243e+06};

/* IS-GPS-200N figure 20-4, step by step in long double. */
static long double ref_klobuchar(long double lat, long double lon, long double el, long double az, long double t_gps) {
  const long double pi = 3.1415926535898L;
  const long double E = el / pi, phiu = lat / pi, lamu = lon / pi;
  const long double psi = 0.0137L / (E + 0.11L) - 0.022L;
  long double phii = phiu + psi * cosl(az);
  if (phii > 0.416L) phii = 0.416L;
  else if (phii < -0.416L) phii = -0.416L;
  const long double lami = lamu + psi * sinl(az) / cosl(phii * pi);
  const long double phim = phii + 0.064L * cosl((lami - 1.617L) * pi);
  long double t = 4.32e4L * lami + t_gps;
  while (t >= 86400.0L) t -= 86400.0L;
  while (t < 0.0L) t += 86400.0L;
  const long double F = 1.0L + 16.0L * (0.53L - E) * (0.53L - E) * (0.53L - E);
  long double amp = 0, per = 0, pw = 1;
  for (int n = 0; n < 4; n++, pw *= phim) {
    amp += kAlpha[n] * pw;
    per += kBeta[n] * pw;
  }
  if (amp < 0) amp = 0;
  if (per < 72000.0L) per = 72000.0L;
  const long double x = 2.0L * pi * (t - 50400.0L) / per;
  long double tiono = F * 5e-9L;
  if (fabsl(x) < 1.57L) tiono = F * (5e-9L + amp * (1.0L - x * x / 2.0L + x * x * x * x / 24.0L));
  return tiono * 299792458.0L;
}

/* At the pierce point's local midnight only the 5 ns floor is left, times
 * the obliquity F = 1 + 16 (0.53 - E)^3; at 14:00 local (x = 0) the
 * cosine's peak adds the amplitude; at high latitude the pierce point is
 * held at 0.416 semicircles; elsewhere the long-double rewrite agrees. */
static void test_klobuchar_closed_forms_and_reference(void **state) {
  (void)state;
  /* Zenith, longitude 0, azimuth 0: local time = GPS time of day. */
  const double fz = 1.0 + 16.0 * pow(0.53 - 0.5, 3);
  assert_near(sensim__klobuchar(kAlpha, kBeta, 0.3, 0.0, M_PI / 2, 0.0, 0.0), C * fz * 5e-9, 1e-9);
  assert_near(sensim__klobuchar(kAlpha, kBeta, 0.3, 0.0, M_PI / 2, 0.0, 86400.0 * 3), C * fz * 5e-9, 1e-9);
  /* 20 deg elevation at night: F = 1 + 16 (0.53 - 1/9)^3 = 2.1777. */
  const double f20 = 1.0 + 16.0 * pow(0.53 - 20.0 / 180.0, 3);
  assert_near(sensim__klobuchar(kAlpha, kBeta, 0.3, 0.0, 20 * DEG, 0.0, 0.0), C * f20 * 5e-9, 1e-6);
  /* The peak: phi_m = lat/pi + psi + 0.064 cos(-1.617 pi). */
  const double lat = 40 * DEG, psi = 0.0137 / (0.5 + 0.11) - 0.022;
  const double phim = lat / M_PI + psi + 0.064 * cos(-1.617 * M_PI);
  double amp = 0, pw = 1;
  for (int n = 0; n < 4; n++, pw *= phim) amp += kAlpha[n] * pw;
  assert_true(amp > 0);
  assert_near(sensim__klobuchar(kAlpha, kBeta, lat, 0.0, M_PI / 2, 0.0, 50400.0), C * fz * (5e-9 + amp), 1e-6);
  /* The clamp: 75 and 85 deg north both put the pierce point at 0.416. */
  assert_near(sensim__klobuchar(kAlpha, kBeta, 75 * DEG, 0.0, M_PI / 2, 0.0, 50400.0),
              sensim__klobuchar(kAlpha, kBeta, 85 * DEG, 0.0, M_PI / 2, 0.0, 50400.0), 0.0);
  /* Anywhere: the rewrite, to 1e-9 m. */
  double worst = 0, biggest = 0;
  for (int i = 0; i < 400; i++) {
    const double la = (-80 + 160 * ((i * 37) % 101) / 100.0) * DEG, lo = (-180 + 3.6 * ((i * 53) % 101)) * DEG;
    const double el = (5 + 85 * ((i * 11) % 23) / 22.0) * DEG, az = 2 * M_PI * ((i * 7) % 19) / 19.0;
    const double t = 1.0e9 + 217.0 * i;
    const double got = sensim__klobuchar(kAlpha, kBeta, la, lo, el, az, t);
    worst = fmax(worst, fabs(got - (double)ref_klobuchar(la, lo, el, az, t)));
    biggest = fmax(biggest, got);
  }
  if (worst > 1e-9) fail_msg("Klobuchar differs from the long-double rewrite by %g m", worst);
  assert_true(biggest > 3.0); /* 2010's quiet ionosphere: metres by day at low elevation */
}

/* ICAO standard atmosphere (Doc 7488; US Standard Atmosphere 1976 table
 * by geopotential height): 1013.25 hPa and 288.15 K at sea level, 898.746
 * hPa at 1000 m, 226.32 hPa and 216.65 K at 11 km; saturation vapour
 * pressure at 15 C 17.04 hPa (WMO tables: 17.05). The receiver's
 * ellipsoidal height is used as the geopotential height (0.16 m apart at
 * 1 km, 0.002 hPa). */
static void test_standard_atmosphere_matches_icao_table(void **state) {
  (void)state;
  double p, t, e;
  sensim__std_atmosphere(0.0, 1.0, &p, &t, &e);
  assert_near(p, 1013.25, 1e-9);
  assert_near(t, 288.15, 1e-9);
  assert_near(e, 17.05, 0.02);
  sensim__std_atmosphere(1000.0, 0.5, &p, &t, &e);
  assert_near(p, 898.746, 0.001);
  assert_near(t, 281.65, 1e-9);
  sensim__std_atmosphere(11000.0, 0.0, &p, &t, &e);
  assert_near(p, 226.32, 0.01);
  assert_near(t, 216.65, 1e-9);
  assert_near(e, 0.0, 0.0);
  double p2, t2, e2;
  sensim__std_atmosphere(20000.0, 0.0, &p2, &t2, &e2); /* held at 11 km */
  assert_true(p2 == p && t2 == t);
}

/* Saastamoinen worked by hand: at 45 deg and 0 m the gravity factor is 1,
 * so the zenith hydrostatic delay at 1013.25 hPa is 0.0022768 x 1013.25 =
 * 2.30697 m; at 60 deg and 2000 m, 0.0022768 p / (1 + 0.00133 - 0.00056);
 * the wet delay's closed form; the slant delay as zenith / sin(el), held
 * at 1 deg. */
static void test_saastamoinen_matches_hand_worked_values(void **state) {
  (void)state;
  double zhd, zwd;
  sensim__saastamoinen_zenith(45 * DEG, 0.0, 1013.25, 288.15, 10.0, &zhd, &zwd);
  assert_near(zhd, 2.3069676, 1e-7);
  sensim__saastamoinen_zenith(60 * DEG, 2000.0, 800.0, 275.15, 5.0, &zhd, &zwd);
  assert_near(zhd, 0.0022768 * 800.0 / 1.00077, 1e-12);
  sensim__saastamoinen_zenith(45 * DEG, 0.0, 1013.25, 288.15, 10.0, &zhd, &zwd);
  assert_near(zwd, 0.002277 * (1255.0 / 288.15 + 0.05) * 10.0, 1e-15);
  double p, t, e;
  sensim__std_atmosphere(400.0, 0.5, &p, &t, &e);
  sensim__saastamoinen_zenith(47 * DEG, 400.0, p, t, e, &zhd, &zwd);
  assert_near(sensim__saastamoinen(47 * DEG, 400.0, M_PI / 2, 0.5), zhd + zwd, 1e-12);
  assert_near(sensim__saastamoinen(47 * DEG, 400.0, 30 * DEG, 0.5), 2 * (zhd + zwd), 1e-12);
  assert_near(sensim__saastamoinen(47 * DEG, 400.0, 0.5 * DEG, 0.5), (zhd + zwd) / sin(1 * DEG), 1e-9);
  assert_true(zhd > 2.1 && zhd < 2.3 && zwd > 0.05 && zwd < 0.15); /* the familiar 2.3 m and ~0.1 m */
}

/* Lines of sight (east, north, up) at elevation el, azimuth az. */
static void los_at(double el, double az, double out[3]) {
  out[0] = cos(el) * sin(az);
  out[1] = cos(el) * cos(az);
  out[2] = sin(el);
}

/* One satellite at the zenith and three at elevation th, 120 deg apart:
 * H^T H = diag(3c^2/2, 3c^2/2, [[3s^2 + 1, -(3s + 1)], [-(3s + 1), 4]]) for
 * (E, N, U, clock), c = cos th, s = sin th, so HDOP = 2 / (sqrt(3) c),
 * VDOP = 2 / (sqrt(3) (1 - s)), TDOP^2 = (3s^2 + 1) / (3 (1 - s)^2). */
static void test_dops_match_closed_form_constellation(void **state) {
  (void)state;
  const double ths[] = {5 * DEG, 30 * DEG, 60 * DEG};
  for (int k = 0; k < 3; k++)
    for (int rot = 0; rot < 3; rot++) {
      const double th = ths[k], c = cos(th), s = sin(th), az0 = rot * 0.7;
      double l[4][3];
      los_at(M_PI / 2, 0.0, l[0]);
      for (int i = 0; i < 3; i++) los_at(th, az0 + i * 2 * M_PI / 3, l[i + 1]);
      sensim__gnss_solution sol;
      memset(&sol, 0, sizeof sol);
      assert_int_equal(sensim__gnss_dops((const double (*)[3])l, 4, &sol), 0);
      const double h = 2 / (sqrt(3) * c), v = 2 / (sqrt(3) * (1 - s)), t2 = (3 * s * s + 1) / (3 * (1 - s) * (1 - s));
      assert_near(sol.hdop, h, 1e-12 * h);
      assert_near(sol.vdop, v, 1e-12 * v);
      assert_near(sol.pdop, sqrt(h * h + v * v), 1e-12 * v);
      assert_near(sol.tdop, sqrt(t2), 1e-11 * sqrt(t2));
      assert_near(sol.gdop, sqrt(h * h + v * v + t2), 1e-11 * sol.gdop);
      assert_near(sol.q_enu[1], 0.0, 1e-12 * h * h);
      assert_near(sol.q_enu[0], sol.q_enu[4], 1e-12 * h * h); /* east and north alike */
    }
  /* A fifth satellite can only help. */
  double l[5][3];
  los_at(M_PI / 2, 0, l[0]);
  for (int i = 0; i < 3; i++) los_at(30 * DEG, i * 2 * M_PI / 3, l[i + 1]);
  los_at(10 * DEG, 1.0, l[4]);
  sensim__gnss_solution a, b;
  assert_int_equal(sensim__gnss_dops((const double (*)[3])l, 4, &a), 0);
  assert_int_equal(sensim__gnss_dops((const double (*)[3])l, 5, &b), 0);
  assert_true(b.pdop < a.pdop && b.gdop < a.gdop);
  /* Four at one elevation: height and clock cannot be told apart. */
  for (int i = 0; i < 4; i++) los_at(40 * DEG, i * M_PI / 2 + 0.1, l[i]);
  assert_int_equal(sensim__gnss_dops((const double (*)[3])l, 4, &a), -1);
  assert_int_equal(sensim__gnss_dops((const double (*)[3])l, 3, &a), -1);
}

int sensim_test_gnss_satellite_models(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_klobuchar_closed_forms_and_reference),
      cmocka_unit_test(test_standard_atmosphere_matches_icao_table),
      cmocka_unit_test(test_saastamoinen_matches_hand_worked_values),
      cmocka_unit_test(test_dops_match_closed_form_constellation),
  };
  return cmocka_run_group_tests_name("gnss_satellite_models", tests, NULL, NULL);
}
