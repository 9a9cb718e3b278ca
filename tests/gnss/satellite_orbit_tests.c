/* tests/gnss/satellite_orbit_tests.c: the satellites mode's navigation
 * data and orbits: the shipped RINEX file read back, the IS-GPS-200 user
 * algorithm against an independent long-double computation written from
 * the ICD's table, and the broadcast orbits and clocks against the IGS
 * final orbit of the same day (an independent product). */
#include <stdlib.h>
#include <string.h>
#include "gnss/gnss_groups.h"
#include "sensors/gnss_sat.h"
#include "support/testutil.h"

#define BRDC SENSIM_TEST_DATA "/gnss/brdc1820.10_0000_gps.rnx"
/* 2010-07-01 00:00:00 GPS: week 1590, 345600 s. */
#define TOE (1590.0 * 604800.0 + 345600.0)

static void load(sensim__gnss_nav *nav) { SENSIM_OK_OR_FAIL(sensim__gnss_nav_load(BRDC, NAN, nav)); }

/* The file's 31 records, its header and one record's fields as written. */
static void test_rinex_file_reads_back_every_record_and_header(void **state) {
  (void)state;
  sensim__gnss_nav nav;
  load(&nav);
  assert_int_equal(nav.n, 31);
  assert_int_equal(nav.count[9], 0); /* PRN 9 has no record at this epoch */
  for (int prn = 1; prn <= 32; prn++) assert_int_equal(nav.count[prn], prn != 9);
  assert_int_equal(nav.leap_seconds, 15);
  assert_true(nav.has_iono);
  assert_true(nav.alpha[0] == 0.4657e-08 && nav.alpha[3] == -0.1192e-06);
  assert_true(nav.beta[0] == 0.8192e+05 && nav.beta[3] == -0.5243e+06);
  assert_true(nav.first_toe == TOE);
  int unhealthy = 0;
  for (size_t i = 0; i < nav.n; i++) {
    const sensim__gps_eph *e = &nav.eph[i];
    assert_true(e->toe == TOE && e->toc == TOE && e->toe_sow == 345600.0);
    assert_true(e->fit == 7200.0); /* 4 h (or 0, read as 4 h) */
    if (e->health) unhealthy |= 1 << e->prn;
  }
  assert_int_equal(unhealthy, (1 << 1) | (1 << 25));
  /* PRN 17, every element as the file spells it. */
  const sensim__gps_eph *g = &nav.eph[nav.first[17]];
  assert_true(g->af0 == 0.159537419677e-03 && g->af1 == 0.204636307899e-11 && g->af2 == 0.0);
  assert_true(g->crs == -0.265625e+02 && g->dn == 0.439054002647e-08 && g->m0 == 0.285224602633e+01);
  assert_true(g->cuc == -0.146776437759e-05 && g->e == 0.548546435311e-02 && g->cus == 0.103190541267e-04);
  assert_true(g->sqrt_a == 0.515362988472e+04 && g->cic == -0.633299350738e-07);
  assert_true(g->omega0 == -0.228252868709e+01 && g->cis == -0.726431608200e-07);
  assert_true(g->i0 == 0.960315540380e+00 && g->crc == 0.178812500000e+03 && g->omega == -0.250044047009e+01);
  assert_true(g->omega_dot == -0.776782356103e-08 && g->idot == 0.839320675361e-10);
  assert_true(g->tgd == -0.102445483208e-07 && g->health == 0);
  /* Selection: within 2 h of toe, not beyond; a missing PRN has none. */
  assert_ptr_equal(sensim__gnss_nav_select(&nav, 17, TOE + 7200.0, 0), g);
  assert_null(sensim__gnss_nav_select(&nav, 17, TOE + 7200.5, 0));
  assert_null(sensim__gnss_nav_select(&nav, 17, TOE - 7201.0, 0));
  assert_ptr_equal(sensim__gnss_nav_select(&nav, 17, TOE - 9000.0, 3 * 3600.0), g);
  assert_null(sensim__gnss_nav_select(&nav, 9, TOE, 0));
  sensim__gnss_nav_free(&nav);
}

/* ---- IS-GPS-200N Table 20-IV in long double, written from the table ---- */

typedef long double ld;

static void ref_orbit(const sensim__gps_eph *eph, ld tk, ld out[3], ld *ek_out) {
  const ld mu = 3.986005e14L, omega_e = 7.2921151467e-5L;
  const ld A = (ld)eph->sqrt_a * (ld)eph->sqrt_a;
  const ld n0 = sqrtl(mu / (A * A * A));
  const ld n = n0 + (ld)eph->dn;
  const ld Mk = (ld)eph->m0 + n * tk;
  /* Kepler's equation by plain fixed-point iteration E = M + e sin E
   * (contraction factor e < 0.03: 200 steps reach long double's limit). */
  ld Ek = Mk;
  for (int i = 0; i < 200; i++) Ek = Mk + (ld)eph->e * sinl(Ek);
  const ld e = eph->e;
  /* The ICD's half-angle form of the true anomaly. */
  ld vk = 2.0L * atanl(sqrtl((1.0L + e) / (1.0L - e)) * tanl(Ek / 2.0L));
  const ld Phik = vk + (ld)eph->omega;
  const ld duk = (ld)eph->cus * sinl(2 * Phik) + (ld)eph->cuc * cosl(2 * Phik);
  const ld drk = (ld)eph->crs * sinl(2 * Phik) + (ld)eph->crc * cosl(2 * Phik);
  const ld dik = (ld)eph->cis * sinl(2 * Phik) + (ld)eph->cic * cosl(2 * Phik);
  const ld uk = Phik + duk;
  const ld rk = A * (1.0L - e * cosl(Ek)) + drk;
  const ld ik = (ld)eph->i0 + dik + (ld)eph->idot * tk;
  const ld xkp = rk * cosl(uk), ykp = rk * sinl(uk);
  const ld Omegak = (ld)eph->omega0 + ((ld)eph->omega_dot - omega_e) * tk - omega_e * (ld)eph->toe_sow;
  out[0] = xkp * cosl(Omegak) - ykp * cosl(ik) * sinl(Omegak);
  out[1] = xkp * sinl(Omegak) + ykp * cosl(ik) * cosl(Omegak);
  out[2] = ykp * sinl(ik);
  if (ek_out) *ek_out = Ek;
}

/* Every satellite of the file at times across its fit interval: the
 * library's double-precision algorithm (Newton's method, atan2) against
 * the long-double one (fixed point, half-angle), to 1e-5 m; the velocity
 * against a long-double central difference over 1 ms to 1e-4 m/s; the
 * clock with its relativistic term (F e sqrt(A) sin Ek) and TGD to 1e-15 s. */
static void test_orbits_match_long_double_is_gps_200(void **state) {
  (void)state;
  sensim__gnss_nav nav;
  load(&nav);
  const double tks[] = {-7200.0, -3000.5, 0.0, 1234.567, 7200.0};
  double worst = 0.0, worst_v = 0.0, worst_c = 0.0, max_rel = 0.0;
  for (size_t i = 0; i < nav.n; i++)
    for (size_t k = 0; k < sizeof tks / sizeof tks[0]; k++) {
      const sensim__gps_eph *e = &nav.eph[i];
      double p[3], v[3], pv[3], ek;
      ld r[3], a[3], b[3], rek;
      sensim__gps_orbit(e, tks[k], p, &ek);
      sensim__gps_orbit_vel(e, tks[k], pv, v);
      ref_orbit(e, tks[k], r, &rek);
      ref_orbit(e, tks[k] - 0.0005L, a, NULL);
      ref_orbit(e, tks[k] + 0.0005L, b, NULL);
      for (int j = 0; j < 3; j++) {
        worst = fmax(worst, fabs(p[j] - (double)r[j]));
        worst = fmax(worst, fabs(pv[j] - p[j]));
        worst_v = fmax(worst_v, fabs(v[j] - (double)((b[j] - a[j]) / 0.001L)));
      }
      const ld rel = -4.442807633e-10L * (ld)e->e * (ld)e->sqrt_a * sinl(rek);
      const ld tc = tks[k];
      const ld clk = (ld)e->af0 + (ld)e->af1 * tc + (ld)e->af2 * tc * tc + rel - (ld)e->tgd;
      worst_c = fmax(worst_c, fabs(sensim__gps_clock(e, tks[k], ek) - (double)clk));
      max_rel = fmax(max_rel, fabs((double)rel));
    }
  if (worst > 1e-5) fail_msg("position differs from the long-double ICD algorithm by %g m", worst);
  if (worst_v > 1e-4) fail_msg("velocity differs by %g m/s", worst_v);
  if (worst_c > 1e-15) fail_msg("clock differs by %g s", worst_c);
  /* The relativistic term is there: e up to 0.02 makes it tens of ns. */
  assert_true(max_rel > 2e-8 && max_rel < 5e-8);
  sensim__gnss_nav_free(&nav);
}

/* IGS final orbit igs15904.sp3 (GPS week 1590 day 4 = 2010-07-01, IGS05,
 * centre of mass, GPS time; km and microseconds), as redistributed in
 * RTKLIB's test data: eight satellites at 00:00 and 00:30. */
static const struct {
  int prn;
  double t;         /* s after toe */
  double x, y, z;   /* km */
  double clk;       /* us */
} kIgs[] = {
    {2, 0, -14889.160729, -5131.952946, -21416.801336, 269.108429},
    {3, 0, 23137.793666, 7181.148924, 10900.702541, 575.503968},
    {5, 0, -25251.856884, 1285.343331, -8289.755668, -10.679384},
    {12, 0, -22010.104346, 12052.674963, -8418.142318, -98.434635},
    {17, 0, -13837.307352, -21531.470550, 7602.617955, 159.534051},
    {22, 0, 7698.718968, 14213.654084, 21251.655143, 168.503202},
    {28, 0, -4752.030104, -14485.932097, 22235.507058, -11.962682},
    {32, 0, 25089.304084, -7281.195178, -3273.692214, -27.596238},
    {2, 1800, -14035.020495, -9857.891985, -20396.129667, 269.114152},
    {3, 1800, 24479.810110, 8793.259734, 5832.123976, 575.514306},
    {5, 1800, -23092.684626, 18.520859, -13212.307897, -10.684100},
    {12, 1800, -23400.374669, 12042.094444, -2855.802005, -98.427150},
    {17, 1800, -11843.546103, -20339.231751, 12618.793169, 159.537610},
    {22, 1800, 3103.415047, 15734.778206, 21331.004574, 168.501942},
    {28, 1800, -125.181640, -15907.399049, 21704.302376, -11.960842},
    {32, 1800, 25401.822624, -6758.299942, 2458.261985, -27.611502},
};

/* Broadcast against precise: the orbit to 10 m (measured 6.2 m at worst:
 * broadcast orbit error plus the antenna-phase-centre offset), the clock
 * polynomial (IGS clocks, like the broadcast af0 af1 af2, leave out the
 * relativistic term) to 15 ns (measured 10.2 ns). A wrong element, sign or
 * Earth-rotation term would be off by kilometres. */
static void test_broadcast_orbits_agree_with_igs_final_orbits(void **state) {
  (void)state;
  sensim__gnss_nav nav;
  load(&nav);
  for (size_t i = 0; i < sizeof kIgs / sizeof kIgs[0]; i++) {
    const sensim__gps_eph *e = sensim__gnss_nav_select(&nav, kIgs[i].prn, TOE + kIgs[i].t, 0);
    assert_non_null(e);
    double p[3];
    sensim__gps_orbit(e, kIgs[i].t, p, NULL);
    const double d = hypot(hypot(p[0] - 1e3 * kIgs[i].x, p[1] - 1e3 * kIgs[i].y), p[2] - 1e3 * kIgs[i].z);
    if (d > 10.0) fail_msg("PRN %d at %+g s: %.2f m from the IGS orbit", kIgs[i].prn, kIgs[i].t, d);
    const double poly = e->af0 + e->af1 * kIgs[i].t + e->af2 * kIgs[i].t * kIgs[i].t;
    assert_near(poly * 1e6, kIgs[i].clk, 0.015);
  }
  sensim__gnss_nav_free(&nav);
}

/* Kepler's equation at a high eccentricity (Newton from E = M converges
 * for any e < 1): M = E - e sin E to 1e-14 rad. */
static void test_kepler_solution_satisfies_keplers_equation(void **state) {
  (void)state;
  sensim__gps_eph e;
  memset(&e, 0, sizeof e);
  e.sqrt_a = 5153.6;
  const double n = sqrt(SENSIM__GPS_MU) / (e.sqrt_a * e.sqrt_a * e.sqrt_a);
  for (int k = 0; k < 4; k++) {
    e.e = (double[]){0.0, 0.02, 0.3, 0.8}[k];
    for (double m = -3.0; m <= 3.0; m += 0.37) {
      double p[3], ek;
      sensim__gps_orbit(&e, m / n, p, &ek);
      assert_near(ek - e.e * sin(ek), m, 1e-14);
      /* r = a (1 - e cos E) with no corrections. */
      assert_near(hypot(hypot(p[0], p[1]), p[2]), e.sqrt_a * e.sqrt_a * (1 - e.e * cos(ek)), 1e-6);
    }
  }
}

/* The Earth's rotation over the flight: R3(w tau) turns x toward -y by
 * w tau, 7.29e-5 rad/s x 0.075 s, and keeps lengths and z. */
static void test_earth_rotation_over_the_flight_is_r3(void **state) {
  (void)state;
  const double in[3] = {2.6e7, 0.0, 1.0e6};
  double out[3];
  sensim__gps_earth_rotate(0.075, in, out);
  const double th = 7.2921151467e-5 * 0.075;
  assert_near(out[0], 2.6e7 * cos(th), 1e-7);
  assert_near(out[1], -2.6e7 * sin(th), 1e-7);
  assert_near(out[2], 1.0e6, 0.0);
  assert_near(out[1], -142.2, 0.1); /* the satellite moves 142 m in the frame */
}

int sensim_test_gnss_satellite_orbits(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rinex_file_reads_back_every_record_and_header),
      cmocka_unit_test(test_orbits_match_long_double_is_gps_200),
      cmocka_unit_test(test_broadcast_orbits_agree_with_igs_final_orbits),
      cmocka_unit_test(test_kepler_solution_satisfies_keplers_equation),
      cmocka_unit_test(test_earth_rotation_over_the_flight_is_r3),
  };
  return cmocka_run_group_tests_name("gnss_satellite_orbits", tests, NULL, NULL);
}
