/* tests/gnss/nmea_tests.c: NMEA 0183 GGA / RMC / GSA.
 *
 * The parser below is written from the NMEA 0183 v2.3 field definitions
 * (sentence "$" ... "*hh" CR LF, checksum the XOR of the characters between
 * "$" and "*"; latitude ddmm.mmmmm with N/S, longitude dddmm.mmmmm with
 * E/W; time hhmmss.ss; date ddmmyy; speed in knots) and shares nothing with
 * src/io/nmea.c. Its calendar counts days year by year and month by month,
 * independently of the library's Fliegel-Van Flandern arithmetic. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gnss/gnss_groups.h"
#include "sensim/nmea.h"
#include "support/testutil.h"

#define MAXF 24

typedef struct sentence {
  int n;
  char f[MAXF][32]; /* f[0] = address ("GPGGA") */
} sentence;

/* Parse and verify one sentence; fails the test if it is malformed. */
static void parse(const char *s, sentence *out) {
  size_t len = strlen(s);
  assert_true(len >= 11 && len <= 82);
  assert_true(s[0] == '$' && s[len - 2] == '\r' && s[len - 1] == '\n');
  const char *star = strchr(s, '*');
  assert_non_null(star);
  assert_true(star + 5 == s + len); /* "*hh\r\n" */
  unsigned x = 0;
  for (const char *p = s + 1; p < star; p++) {
    assert_true(*p >= 32 && *p < 127 && *p != '$' && *p != '*');
    x ^= (unsigned char)*p;
  }
  char hex[3] = {star[1], star[2], 0};
  assert_true(isxdigit((unsigned char)hex[0]) && isxdigit((unsigned char)hex[1]));
  assert_true(!islower((unsigned char)hex[0]) && !islower((unsigned char)hex[1]));
  assert_int_equal(strtoul(hex, NULL, 16), x);
  out->n = 0;
  const char *p = s + 1;
  while (p <= star) {
    const char *e = p;
    while (e < star && *e != ',') e++;
    assert_true(out->n < MAXF && e - p < 32);
    memcpy(out->f[out->n], p, (size_t)(e - p));
    out->f[out->n][e - p] = '\0';
    out->n++;
    p = e + 1;
  }
}

/* ddmm.mmmmm / dddmm.mmmmm and hemisphere to signed degrees. */
static double angle(const char *v, int deg_digits, const char *hemi) {
  assert_true(strlen(v) == (size_t)deg_digits + 8 && v[deg_digits + 2] == '.');
  char d[4] = {0};
  memcpy(d, v, (size_t)deg_digits);
  double deg = atof(d) + atof(v + deg_digits) / 60.0;
  assert_true(strlen(hemi) == 1);
  return (hemi[0] == 'S' || hemi[0] == 'W') ? -deg : deg;
}

static int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static int month_days(int y, int m) {
  static const int d[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return d[m - 1] + (m == 2 && is_leap(y));
}
/* Days since 1970-01-01 by counting. */
static long days_of(int y, int m, int d) {
  long n = 0;
  for (int yy = 1970; yy < y; yy++) n += 365 + is_leap(yy);
  for (int mm = 1; mm < m; mm++) n += month_days(y, mm);
  return n + d - 1;
}
/* UTC (POSIX s) of hhmmss.ss + ddmmyy (20yy). */
static double utc_of(const char *tod, const char *date) {
  assert_true(strlen(tod) == 9 && tod[6] == '.');
  assert_true(strlen(date) == 6);
  int hh, mi, dd, mo, yy;
  double ss;
  assert_int_equal(sscanf(tod, "%2d%2d%lf", &hh, &mi, &ss), 3);
  assert_int_equal(sscanf(date, "%2d%2d%2d", &dd, &mo, &yy), 3);
  assert_true(hh < 24 && mi < 60 && ss < 60.0 && mo >= 1 && mo <= 12 && dd >= 1);
  assert_true(dd <= month_days(2000 + yy, mo));
  return days_of(2000 + yy, mo, dd) * 86400.0 + hh * 3600.0 + mi * 60.0 + ss;
}

static void test_checksums_of_published_example_sentences(void **state) {
  (void)state;
  /* The classic examples of the NMEA 0183 literature (e.g. gpsd's "NMEA
   * Revealed"), with their published checksums. */
  const char *gga = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,";
  const char *rmc = "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W";
  const char *gsa = "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1";
  assert_int_equal(sensim_nmea_checksum(gga, strlen(gga)), 0x47);
  assert_int_equal(sensim_nmea_checksum(rmc, strlen(rmc)), 0x6A);
  assert_int_equal(sensim_nmea_checksum(gsa, strlen(gsa)), 0x39);
  assert_int_equal(sensim_nmea_checksum("", 0), 0);
}

static void make_fix(sensim_gnss_fix *f, double lat, double lon, double h, double speed,
                     double course, double hdop, int sats) {
  memset(f, 0, sizeof *f);
  f->lat = lat;
  f->lon = lon;
  f->height = h;
  f->speed = speed;
  f->course = course;
  f->hdop = hdop;
  f->vdop = 1.5 * hdop;
  f->pdop = hypot(hdop, 1.5 * hdop);
  f->satellites = sats;
  f->fix_type = 1;
}

/* Every field back to the precision it is written with: 1e-5 minute of
 * angle, 0.01 m, 0.01 s, 0.001 knot, 0.01 deg, 0.01 of DOP (half a unit of
 * the last digit after rounding, plus double rounding slack). */
static void test_sentences_round_trip_through_independent_parser(void **state) {
  (void)state;
  sensim_nmea_params p;
  sensim_nmea_params_init(&p);
  uint64_t s = 99;
  for (int i = 0; i < 3000; i++) {
    double r[8];
    for (int j = 0; j < 8; j++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      r[j] = (double)(s >> 11) / 9007199254740992.0;
    }
    sensim_gnss_fix fix;
    make_fix(&fix, -89.99 + 179.98 * r[0], -180.0 + 360.0 * r[1], -400.0 + 9400.0 * r[2],
             80.0 * r[3], 360.0 * r[4], 0.5 + 60.0 * r[5], (int)(30.0 * r[6]));
    double t = 4e6 * r[7];
    char buf[SENSIM_NMEA_MAX];
    sentence g, m, a;
    SENSIM_OK_OR_FAIL(sensim_nmea_gga(&p, &fix, t, buf, sizeof buf));
    parse(buf, &g);
    SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, t, buf, sizeof buf));
    parse(buf, &m);
    SENSIM_OK_OR_FAIL(sensim_nmea_gsa(&p, &fix, buf, sizeof buf));
    parse(buf, &a);
    assert_int_equal(g.n, 15);
    assert_int_equal(m.n, 13);
    assert_int_equal(a.n, 18);
    assert_string_equal(g.f[0], "GPGGA");
    assert_string_equal(m.f[0], "GPRMC");
    assert_string_equal(a.f[0], "GPGSA");
    const double tol_ang = 0.5e-5 / 60.0 + 1e-12;
    /* GGA */
    assert_near(angle(g.f[2], 2, g.f[3]), fix.lat, tol_ang);
    double dl = angle(g.f[4], 3, g.f[5]) - fix.lon;
    assert_near(fabs(dl) > 180.0 ? 360.0 - fabs(dl) : dl, 0.0, tol_ang);
    assert_string_equal(g.f[6], "1");
    assert_int_equal(atoi(g.f[7]), fix.satellites);
    assert_int_equal(strlen(g.f[7]), 2);
    assert_near(atof(g.f[8]), fix.hdop, 0.005 + 1e-9);
    assert_string_equal(g.f[10], "M");
    assert_string_equal(g.f[12], "M");
    assert_near(atof(g.f[9]) + atof(g.f[11]), fix.height, 0.005 + 1e-9); /* ellipsoidal */
    /* RMC: same time and position, valid, with the date. */
    assert_string_equal(m.f[1], g.f[1]);
    assert_string_equal(m.f[2], "A");
    assert_string_equal(m.f[3], g.f[2]);
    assert_string_equal(m.f[5], g.f[4]);
    double u = p.utc_start + t;
    assert_near(utc_of(m.f[1], m.f[9]), u, 0.005 + 1e-6);
    assert_near(atof(m.f[7]) * 1852.0 / 3600.0, fix.speed, 0.0005 * 1852.0 / 3600.0 + 1e-9);
    double dc = fabs(atof(m.f[8]) - fix.course);
    assert_near(fmin(dc, 360.0 - dc), 0.0, 0.005 + 1e-9);
    assert_true(atof(m.f[8]) < 360.0);
    assert_string_equal(m.f[12], "A");
    /* GSA: 3D fix, min(n, 12) satellites, DOPs. */
    assert_string_equal(a.f[1], "A");
    assert_string_equal(a.f[2], "3");
    int used = 0;
    for (int j = 3; j < 15; j++) used += a.f[j][0] != '\0';
    assert_int_equal(used, fix.satellites < 12 ? fix.satellites : 12);
    assert_near(atof(a.f[15]), fix.pdop, 0.005 + 1e-9);
    assert_near(atof(a.f[16]), fix.hdop, 0.005 + 1e-9);
    assert_near(atof(a.f[17]), fix.vdop, 0.005 + 1e-9);
  }
}

static void test_rounding_carries_into_degrees_and_date(void **state) {
  (void)state;
  sensim_nmea_params p;
  sensim_nmea_params_init(&p);
  sensim_gnss_fix fix;
  /* 10 deg 59.9999996' rounds to 11 deg 00.00000', not 10 deg 60.00000'. */
  make_fix(&fix, 10.0 + 59.9999996 / 60.0, -(179.0 + 59.9999996 / 60.0), 12.345, 0.0, 359.996,
           1.0, 9);
  char buf[SENSIM_NMEA_MAX];
  sentence g, m;
  /* 86399.996 s after the start rounds to the next day's 00:00:00.00. */
  SENSIM_OK_OR_FAIL(sensim_nmea_gga(&p, &fix, 86399.996, buf, sizeof buf));
  parse(buf, &g);
  assert_string_equal(g.f[1], "000000.00");
  assert_string_equal(g.f[2], "1100.00000");
  assert_string_equal(g.f[3], "N");
  assert_string_equal(g.f[4], "18000.00000");
  assert_string_equal(g.f[5], "W");
  assert_string_equal(g.f[9], "12.35");
  SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, 86399.996, buf, sizeof buf));
  parse(buf, &m);
  assert_string_equal(m.f[9], "020126");  /* 2 January 2026 */
  assert_string_equal(m.f[8], "0.00");    /* 359.996 deg rounds to 0, never 360.00 */
  assert_string_equal(m.f[7], "0.000");
  /* Leap day and year end. */
  double u;
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2028-02-29T23:59:59.5Z", &u));
  assert_near(u, days_of(2028, 2, 29) * 86400.0 + 86399.5, 1e-6);
  p.utc_start = u;
  SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, 0.25, buf, sizeof buf));
  parse(buf, &m);
  assert_string_equal(m.f[1], "235959.75");
  assert_string_equal(m.f[9], "290228");
  SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, 0.5, buf, sizeof buf));
  parse(buf, &m);
  assert_string_equal(m.f[9], "010328");
}

static void test_no_fix_gives_the_no_fix_forms(void **state) {
  (void)state;
  sensim_nmea_params p;
  sensim_nmea_params_init(&p);
  sensim_gnss_fix fix;
  make_fix(&fix, NAN, NAN, NAN, NAN, NAN, 0.0, 0);
  fix.fix_type = 0;
  char buf[SENSIM_NMEA_MAX];
  sentence g, m, a;
  SENSIM_OK_OR_FAIL(sensim_nmea_gga(&p, &fix, 12.0, buf, sizeof buf));
  parse(buf, &g);
  assert_int_equal(g.n, 15);
  assert_string_equal(g.f[1], "000012.00");
  for (int j = 2; j <= 5; j++) assert_string_equal(g.f[j], "");
  assert_string_equal(g.f[6], "0");
  assert_string_equal(g.f[7], "00");
  assert_string_equal(g.f[9], "");
  SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, 12.0, buf, sizeof buf));
  parse(buf, &m);
  assert_int_equal(m.n, 13);
  assert_string_equal(m.f[2], "V");
  assert_string_equal(m.f[3], "");
  assert_string_equal(m.f[9], "010126");
  assert_string_equal(m.f[12], "N");
  SENSIM_OK_OR_FAIL(sensim_nmea_gsa(&p, &fix, buf, sizeof buf));
  parse(buf, &a);
  assert_int_equal(a.n, 18);
  assert_string_equal(a.f[2], "1");
  for (int j = 3; j < 18; j++) assert_string_equal(a.f[j], "");
  /* A fix_type 1 whose position is not finite or out of range is not
   * written as valid (and never overflows a field). */
  const double pos[][3] = {{NAN, 8.0, 400.0},  {1e300, 8.0, 400.0}, {47.0, -1e300, 400.0},
                           {47.0, 8.0, 2e6},   {47.0, 8.0, INFINITY}, {90.5, 8.0, 0.0}};
  for (int i = 0; i < 6; i++) {
    make_fix(&fix, pos[i][0], pos[i][1], pos[i][2], 1e300, 1e300, 1e300, 1000);
    SENSIM_OK_OR_FAIL(sensim_nmea_gga(&p, &fix, 0.0, buf, sizeof buf));
    parse(buf, &g);
    assert_string_equal(g.f[6], "0");
    SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, 0.0, buf, sizeof buf));
    parse(buf, &m);
    assert_string_equal(m.f[2], "V");
  }
  /* Valid position, absurd speed, course and DOP: clamped, still parseable. */
  make_fix(&fix, -89.0, 179.0, -999999.0, 1e300, 1e300, 1e300, 1000);
  SENSIM_OK_OR_FAIL(sensim_nmea_gga(&p, &fix, 0.0, buf, sizeof buf));
  parse(buf, &g);
  assert_string_equal(g.f[7], "99");
  assert_string_equal(g.f[8], "999.99");
  SENSIM_OK_OR_FAIL(sensim_nmea_rmc(&p, &fix, 0.0, buf, sizeof buf));
  parse(buf, &m);
  assert_string_equal(m.f[7], "999999.999");
  assert_true(atof(m.f[8]) >= 0.0 && atof(m.f[8]) < 360.0);
  SENSIM_OK_OR_FAIL(sensim_nmea_gsa(&p, &fix, buf, sizeof buf));
  parse(buf, &a);
}

static void test_utc_conversion_and_iso8601(void **state) {
  (void)state;
  double u;
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2026-01-01T00:00:00Z", &u));
  assert_true(u == SENSIM_NMEA_DEFAULT_UTC_START);
  assert_true(u == days_of(2026, 1, 1) * 86400.0);
  SENSIM_OK_OR_FAIL(sensim_utc_from_civil(1999, 12, 31, 23, 59, 59.25, &u));
  assert_near(u, days_of(1999, 12, 31) * 86400.0 + 86399.25, 1e-6);
  SENSIM_OK_OR_FAIL(sensim_utc_from_civil(1970, 1, 1, 0, 0, 0.0, &u));
  assert_true(u == 0.0);
  const char *bad[] = {"2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01 00:00:00Z",
                       "2026-01-01T00:00:00",  "2026-01-01T24:00:00Z", "2026-01-01T00:00:60Z",
                       "1969-12-31T23:59:59Z", "2100-01-01T00:00:00Z", "2026-1-01T00:00:00Z",
                       "2026-01-01T00:00:00.Z5", "",                    "2026-01-01T00:00:00Zx"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    u = -7.0;
    if (sensim_utc_parse_iso8601(bad[i], &u) != SENSIM_EINVAL) fail_msg("accepted '%s'", bad[i]);
    assert_true(u == -7.0);
  }
  assert_int_equal(sensim_utc_parse_iso8601(NULL, &u), SENSIM_EINVAL);
  assert_int_equal(sensim_utc_from_civil(2026, 4, 31, 0, 0, 0, &u), SENSIM_EINVAL);
  assert_int_equal(sensim_utc_from_civil(2026, 1, 1, 0, 0, NAN, &u), SENSIM_EINVAL);
}

static void test_bad_nmea_input_is_refused(void **state) {
  (void)state;
  sensim_nmea_params p;
  sensim_gnss_fix fix;
  make_fix(&fix, 47.0, 8.0, 400.0, 1.0, 10.0, 1.0, 9);
  char buf[SENSIM_NMEA_MAX];
  sensim_nmea_params_init(&p);
  assert_int_equal(sensim_nmea_gga(&p, &fix, 0.0, buf, 20), SENSIM_EINVAL);
  assert_int_equal(sensim_nmea_gga(NULL, &fix, 0.0, buf, sizeof buf), SENSIM_EINVAL);
  assert_int_equal(sensim_nmea_rmc(&p, NULL, 0.0, buf, sizeof buf), SENSIM_EINVAL);
  assert_int_equal(sensim_nmea_gsa(&p, &fix, NULL, sizeof buf), SENSIM_EINVAL);
  assert_int_equal(sensim_nmea_gga(&p, &fix, NAN, buf, sizeof buf), SENSIM_EINVAL);
  assert_int_equal(sensim_nmea_rmc(&p, &fix, 3e9, buf, sizeof buf), SENSIM_EINVAL); /* > 2099 */
  const double starts[] = {-1.0, NAN, 5e9, INFINITY};
  for (int i = 0; i < 4; i++) {
    p.utc_start = starts[i];
    assert_int_equal(sensim_nmea_gga(&p, &fix, 0.0, buf, sizeof buf), SENSIM_EINVAL);
  }
  const char *talkers[] = {"gp", "G1", "G"};
  for (int i = 0; i < 3; i++) {
    sensim_nmea_params_init(&p);
    memcpy(p.talker, talkers[i], strlen(talkers[i]) + 1);
    assert_int_equal(sensim_nmea_gsa(&p, &fix, buf, sizeof buf), SENSIM_EINVAL);
  }
  sensim_nmea_params_init(&p);
  memcpy(p.talker, "GN", 3);
  SENSIM_OK_OR_FAIL(sensim_nmea_gsa(&p, &fix, buf, sizeof buf));
  assert_memory_equal(buf, "$GNGSA,", 7);
}

static void test_writer_appends_three_sentences_per_frame(void **state) {
  (void)state;
  char path[512];
  sensim_mkdirs(SENSIM_TEST_TMP);
  snprintf(path, sizeof path, "%s/fixes.nmea", SENSIM_TEST_TMP);
  unlink(path);
  sensim_gnss_fix fix;
  make_fix(&fix, -33.86, 151.21, 40.0, 12.0, 271.5, 1.2, 11);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_GNSS;
  f.width = f.height = 1;
  f.count = 1;
  f.data = &fix;
  f.t_capture = 0.2;
  SENSIM_OK_OR_FAIL(sensim_nmea_append(path, NULL, &f));
  fix.fix_type = 0;
  f.t_capture = 0.4;
  SENSIM_OK_OR_FAIL(sensim_nmea_append(path, NULL, &f));
  /* Bad input leaves the file alone. */
  sensim_nmea_params p;
  sensim_nmea_params_init(&p);
  p.utc_start = -5.0;
  assert_int_equal(sensim_nmea_append(path, &p, &f), SENSIM_EINVAL);
  sensim_frame wrong = f;
  wrong.type = SENSIM_PAYLOAD_IMU;
  assert_int_equal(sensim_nmea_append(path, NULL, &wrong), SENSIM_ETYPE);
  assert_int_equal(sensim_nmea_append(SENSIM_TEST_TMP "/no/such/dir/x.nmea", NULL, &f), SENSIM_EIO);
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  char line[128];
  const char *types[6] = {"GPGGA", "GPRMC", "GPGSA", "GPGGA", "GPRMC", "GPGSA"};
  int n = 0;
  while (fgets(line, sizeof line, fp)) {
    assert_true(n < 6);
    sentence s;
    parse(line, &s);
    assert_string_equal(s.f[0], types[n]);
    if (n == 0) assert_string_equal(s.f[1], "000000.20");
    if (n == 4) assert_string_equal(s.f[2], "V");
    n++;
  }
  fclose(fp);
  assert_int_equal(n, 6);
}

int sensim_test_gnss_nmea(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_checksums_of_published_example_sentences),
      cmocka_unit_test(test_sentences_round_trip_through_independent_parser),
      cmocka_unit_test(test_rounding_carries_into_degrees_and_date),
      cmocka_unit_test(test_no_fix_gives_the_no_fix_forms),
      cmocka_unit_test(test_utc_conversion_and_iso8601),
      cmocka_unit_test(test_bad_nmea_input_is_refused),
      cmocka_unit_test(test_writer_appends_three_sentences_per_frame),
  };
  return cmocka_run_group_tests_name("gnss_nmea", tests, NULL, NULL);
}
