/* tests/gnss/satellite_input_tests.c: what the satellites mode reads and
 * what it refuses: YUMA almanacs (made from the shipped broadcast set, so
 * their orbits are known), malformed RINEX and YUMA files (a clear
 * SENSIM_EPARSE naming file and line, never a crash, nothing created),
 * parameters out of range, and the scenario keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gnss/gnss_groups.h"
#include "sensors/gnss_sat.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/gnss_input"

static void fresh_tmp(void) {
  test_remove_tree(TMP);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
}

static void write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  fclose(f);
}

/* The shipped file's records as a YUMA almanac (week 1590 mod 1024 = 566),
 * every number printed in full so the almanac's orbit is the ephemeris's
 * without its harmonic corrections. */
static void write_yuma(const char *path) {
  sensim__gnss_nav nav;
  SENSIM_OK_OR_FAIL(sensim__gnss_nav_load(GT_BRDC, NAN, &nav));
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  for (size_t i = 0; i < nav.n; i++) {
    const sensim__gps_eph *e = &nav.eph[i];
    fprintf(f,
            "******** Week 566 almanac for PRN-%02d ********\n"
            "ID:                         %02d\n"
            "Health:                     %03d\n"
            "Eccentricity:               %.17g\n"
            "Time of Applicability(s):  %.4f\n"
            "Orbital Inclination(rad):   %.17g\n"
            "Rate of Right Ascen(r/s):  %.17g\n"
            "SQRT(A)  (m 1/2):           %.17g\n"
            "Right Ascen at Week(rad):   %.17g\n"
            "Argument of Perigee(rad):   %.17g\n"
            "Mean Anom(rad):            %.17g\n"
            "Af0(s):                     %.17g\n"
            "Af1(s/s):                   %.17g\n"
            "week:                        566\n\n",
            e->prn, e->prn, e->health, e->e, e->toe_sow, e->i0, e->omega_dot, e->sqrt_a, e->omega0, e->omega, e->m0,
            e->af0, e->af1);
  }
  fclose(f);
  sensim__gnss_nav_free(&nav);
}

/* A YUMA almanac: its 10-bit week placed by the hint (or in 2019-2038
 * without one), its orbit the ephemeris's with the corrections it does not
 * carry set to zero, and a receiver that uses it recovers its antenna;
 * an almanac has no ionosphere coefficients, so an ionosphere needs them
 * given. */
static void test_yuma_almanac_reads_and_fixes(void **state) {
  (void)state;
  fresh_tmp();
  write_yuma(TMP "/almanac.alm");
  const double toe = 1590.0 * 604800.0 + 345600.0;
  sensim__gnss_nav nav, eph;
  SENSIM_OK_OR_FAIL(sensim__gnss_nav_load(TMP "/almanac.alm", toe + 86400.0, &nav));
  SENSIM_OK_OR_FAIL(sensim__gnss_nav_load(GT_BRDC, NAN, &eph));
  assert_true(nav.almanac && !nav.has_iono && nav.leap_seconds == -1);
  assert_int_equal(nav.n, 31);
  for (size_t i = 0; i < nav.n; i++) {
    const sensim__gps_eph *a = &nav.eph[i];
    sensim__gps_eph e = eph.eph[i];
    assert_int_equal(a->prn, e.prn);
    assert_true(a->toe == toe && a->fit == 7 * 86400.0);
    e.cuc = e.cus = e.crc = e.crs = e.cic = e.cis = e.dn = e.idot = 0.0;
    for (double tk = -3600; tk <= 3600; tk += 1800) {
      double p[3], q[3];
      sensim__gps_orbit(a, tk, p, NULL);
      sensim__gps_orbit(&e, tk, q, NULL);
      for (int j = 0; j < 3; j++) assert_near(p[j], q[j], 1e-6);
    }
  }
  sensim__gnss_nav_free(&nav);
  sensim__gnss_nav_free(&eph);
  SENSIM_OK_OR_FAIL(sensim__gnss_nav_load(TMP "/almanac.alm", NAN, &nav));
  assert_true(nav.eph[0].toe == (566.0 + 2048.0) * 604800.0 + 345600.0);
  sensim__gnss_nav_free(&nav);

  sensim_world *w = gt_sat_world(0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){3, -4, 2};
  sensim_gnss_params gp;
  gt_sat_params(&gp, 1);
  gp.ephemeris = TMP "/almanac.alm";
  SENSIM_OK_OR_FAIL(sensim_utc_parse_iso8601("2010-07-01T00:10:00Z", &gp.utc_start));
  gp.ionosphere = 1;
  sensim_sensor *s = NULL;
  assert_int_equal(sensim_gnss_create(w, &sp, &gp, &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "iono_alpha"));
  memcpy(gp.iono_alpha, (double[4]){1e-8, 0, 0, 0}, sizeof gp.iono_alpha);
  memcpy(gp.iono_beta, (double[4]){9e4, 0, 0, 0}, sizeof gp.iono_beta);
  gp.correct_ionosphere = 1;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  sensim_gnss_params got;
  SENSIM_OK_OR_FAIL(sensim_gnss_params_get(s, &got));
  assert_int_equal(got.leap_seconds, SENSIM_GNSS_DEFAULT_LEAP_SECONDS);
  for (int k = 0; k < 3; k++) {
    const sensim_gnss_fix f = gt_next_fix(w, s, 0.1 * k);
    assert_int_equal(f.fix_type, 1);
    assert_near(f.enu[0], 3, 1e-3);
    assert_near(f.enu[1], -4, 1e-3);
    assert_near(f.enu[2], 2, 1e-3);
  }
  sensim_world_destroy(w);
}

/* The shipped file's text with `from` (its first occurrence) replaced by
 * `to`; NULL from: the text cut after `cut` lines. */
static char *mutate(const char *from, const char *to, int cut) {
  size_t len = 0;
  char *text = test_slurp(GT_BRDC, &len);
  if (!from) {
    char *p = text;
    for (int i = 0; i < cut && p; i++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    if (p) *p = '\0';
    return text;
  }
  char *at = strstr(text, from);
  if (!at) fail_msg("test: '%s' is not in the file", from);
  char *out = malloc(len + strlen(to) + 1);
  size_t pre = (size_t)(at - text);
  memcpy(out, text, pre);
  strcpy(out + pre, to);
  strcat(out, at + strlen(from));
  free(text);
  return out;
}

typedef struct bad_case {
  const char *name;
  char *text;          /* owned; NULL: `file` names a path as is */
  const char *file;
  sensim_status st;
  const char *message; /* a part of the message */
} bad_case;

/* Each malformed file fails with its status and a message naming the file
 * (and line where there is one); no sensor is created and the world goes on. */
static void test_malformed_files_are_refused_with_file_and_line(void **state) {
  (void)state;
  fresh_tmp();
  bad_case cases[] = {
      {"empty", strdup(""), NULL, SENSIM_EPARSE, ":1: neither a RINEX"},
      {"version 2", mutate("     3.04           N", "     2.10           N", 0), NULL, SENSIM_EPARSE,
       ":1: RINEX version 2.10"},
      {"version 4", mutate("     3.04           N", "     4.01           N", 0), NULL, SENSIM_EPARSE,
       ":1: RINEX version 4.01"},
      {"observation file", mutate("N: GNSS NAV DATA", "O: OBSERVATION  ", 0), NULL, SENSIM_EPARSE,
       ":1: RINEX VERSION / TYPE: not a navigation file"},
      {"no end of header", mutate(NULL, NULL, 10), NULL, SENSIM_EPARSE, "no END OF HEADER"},
      {"no records", mutate(NULL, NULL, 11), NULL, SENSIM_EPARSE, "no GPS records"},
      {"letter in a number", mutate("5.154801397320E+03", "5.15480139X320E+03", 0), NULL, SENSIM_EPARSE,
       ":14: BROADCAST ORBIT - 2: sqrt(A) is not a number"},
      {"missing field", mutate(" 4.835282918070E-03", "                   ", 0), NULL, SENSIM_EPARSE,
       ":14: BROADCAST ORBIT - 2: e is missing"},
      {"cut record", mutate(NULL, NULL, 15), NULL, SENSIM_EPARSE, "ends before BROADCAST ORBIT - 4"},
      {"PRN 0", mutate("G01 2010", "G00 2010", 0), NULL, SENSIM_EPARSE, ":12: PRN = 0 is outside [1, 63]"},
      {"month 13", mutate("G01 2010 07", "G01 2010 13", 0), NULL, SENSIM_EPARSE, ":12: month = 13"},
      {"eccentricity", mutate("4.835282918070E-03", "1.500000000000E+00", 0), NULL, SENSIM_EPARSE,
       ":14: e = 1.5 is outside"},
      {"10-bit week", mutate("1.590000000000E+03", "5.660000000000E+02", 0), NULL, SENSIM_EPARSE,
       ":12: toc and toe (GPS week 566)"},
      {"short GPSA", mutate("  -.1192E-06       IONOSPHERIC", "                   IONOSPHERIC", 0), NULL,
       SENSIM_EPARSE, ":8: IONOSPHERIC CORR"},
      {"continuation first", mutate("G01 2010 07 01", "    2010 07 01", 0), NULL, SENSIM_EPARSE,
       ":12: a continuation line"},
      {"NUL byte", NULL, NULL, SENSIM_EPARSE, "a NUL byte"},
      {"missing file", NULL, TMP "/nothing.rnx", SENSIM_ENOTFOUND, "nothing.rnx"},
      {"a folder", NULL, TMP, SENSIM_EIO, "gnss_input"},
      {"YUMA without week", strdup("******** Week 566 almanac for PRN-01 ********\nID: 01\n"), NULL, SENSIM_EPARSE,
       ":1: the record has no 'health' line"},
      {"YUMA unknown label", strdup("******** Week 566 almanac for PRN-01 ********\nColour: 3\n"), NULL,
       SENSIM_EPARSE, ":2: unknown label 'colour'"},
      {"YUMA twice", strdup("******** Week 566 almanac for PRN-01 ********\nID: 01\nID: 02\n"), NULL,
       SENSIM_EPARSE, ":3: 'id' given twice"},
      {"YUMA bad number", strdup("******** Week 566 almanac for PRN-01 ********\nHealth: 0x0z\n"), NULL,
       SENSIM_EPARSE, ":2: 'health' is not a number"},
      {"YUMA no colon", strdup("******** Week 566 almanac for PRN-01 ********\nID 01\n"), NULL, SENSIM_EPARSE,
       ":2: expected 'Label: value'"},
  };
  /* The NUL byte: a whole good file with one zero byte inside. */
  size_t len = 0;
  char *good = test_slurp(GT_BRDC, &len);
  good[2000] = '\0';
  write_file(TMP "/nul.rnx", good, len);
  free(good);
  sensim_world *w = gt_sat_world(0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bad_case *c = &cases[i];
    char path[256];
    if (c->file) {
      snprintf(path, sizeof path, "%s", c->file);
    } else if (c->text) {
      snprintf(path, sizeof path, "%s/case%zu.txt", TMP, i);
      write_file(path, c->text, strlen(c->text));
    } else {
      snprintf(path, sizeof path, "%s/nul.rnx", TMP);
    }
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = "bad";
    sensim_gnss_params gp;
    gt_sat_params(&gp, 1);
    gp.ephemeris = path;
    sensim_sensor *s = NULL;
    const sensim_status st = sensim_gnss_create(w, &sp, &gp, &s);
    const char *msg = sensim_last_error();
    if (st != c->st || !strstr(msg, c->message) || !strstr(msg, c->file ? c->file : path))
      fail_msg("%s: status %d (want %d), message '%s' (want '%s')", c->name, st, c->st, msg, c->message);
    assert_null(sensim_world_sensor_by_name(w, "bad"));
    free(c->text);
  }
  /* The world is still usable: a good receiver fixes. */
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_gnss_params gp;
  gt_sat_params(&gp, 1);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &s));
  assert_int_equal(gt_next_fix(w, s, 0).fix_type, 1);
  sensim_world_destroy(w);
}

/* A mixed file: records of other systems (a GLONASS record of 4 lines, a
 * Galileo record of 8) before and among the GPS ones are skipped. */
static void test_other_systems_records_are_skipped(void **state) {
  (void)state;
  fresh_tmp();
  static const char glo[] =
      "R01 2010 07 01 00 15 00-1.234567890123E-05 0.000000000000E+00 3.456000000000E+05\n"
      "     1.000000000000E+04 1.000000000000E+00 0.000000000000E+00 0.000000000000E+00\n"
      "     1.000000000000E+04 1.000000000000E+00 0.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+04 1.000000000000E+00 0.000000000000E+00 0.000000000000E+00\n";
  static const char gal[] =
      "E11 2010 07 01 00 00 00 1.000000000000E-04 0.000000000000E+00 0.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00 1.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00 1.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00 1.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00 1.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00 1.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00 1.000000000000E+00 1.000000000000E+00\n"
      "     1.000000000000E+00 1.000000000000E+00\n";
  char both[2048];
  snprintf(both, sizeof both, "%s\n%sG01 2010", glo, gal);
  char *text = mutate("G01 2010", both, 0);
  char *mixed = malloc(strlen(text) + 1);
  strcpy(mixed, text);
  char *at = strstr(mixed, "G: GPS    ");
  memcpy(at, "M: MIXED  ", 10);
  write_file(TMP "/mixed.rnx", mixed, strlen(mixed));
  free(text);
  free(mixed);
  sensim__gnss_nav nav;
  SENSIM_OK_OR_FAIL(sensim__gnss_nav_load(TMP "/mixed.rnx", NAN, &nav));
  assert_int_equal(nav.n, 31);
  assert_int_equal(nav.eph[0].prn, 1);
  sensim__gnss_nav_free(&nav);
}

/* Parameters out of their range: SENSIM_EINVAL naming the parameter,
 * nothing created. */
static void test_bad_satellite_parameters_are_refused(void **state) {
  (void)state;
  sensim_world *w = gt_sat_world(0);
  for (int i = 0;; i++) {
    sensim_gnss_params gp;
    gt_sat_params(&gp, 0);
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = "bad";
    const char *want = NULL;
    switch (i) {
      case 0: gp.ephemeris = NULL, want = "needs an ephemeris"; break;
      case 1: gp.ephemeris = "", want = "needs an ephemeris"; break;
      case 2: gp.utc_start = -1, want = "utc_start"; break;
      case 3: gp.utc_start = 5e9, want = "utc_start"; break;
      case 4: gp.leap_seconds = -2, want = "leap_seconds"; break;
      case 5: gp.elevation_mask = M_PI / 2, want = "elevation_mask"; break;
      case 6: gp.elevation_mask = NAN, want = "elevation_mask"; break;
      case 7: gp.humidity = 1.5, want = "humidity"; break;
      case 8: gp.range_sigma = -1, want = "range_sigma"; break;
      case 9: gp.range_rate_sigma = INFINITY, want = "range_rate_sigma"; break;
      case 10: gp.reported_sigma = -0.5, want = "reported_sigma"; break;
      case 11: gp.max_ephemeris_age = -1, want = "max_ephemeris_age"; break;
      case 12: gp.iono_alpha[0] = 1e-8, want = "iono_alpha"; break; /* the other three NaN */
      case 13: memset(gp.iono_alpha, 0, sizeof gp.iono_alpha), want = "together"; break;
      case 14: gp.mode = (sensim_gnss_mode)7, want = "mode"; break;
      case 15: sp.window = 0.05, want = "window"; break;
      default: break;
    }
    if (!want) break;
    sensim_sensor *s = NULL;
    assert_int_equal(sensim_gnss_create(w, &sp, &gp, &s), SENSIM_EINVAL);
    if (!strstr(sensim_last_error(), want)) fail_msg("case %d: '%s' lacks '%s'", i, sensim_last_error(), want);
    assert_null(sensim_world_sensor_by_name(w, "bad"));
  }
  sensim_world_destroy(w);
}

/* The scenario keys: a receiver in the satellites mode from a scenario
 * file whose ephemeris is named relative to the file's folder, with an
 * NMEA output that takes the receiver's UTC (23:59:45 for the file's toe);
 * keys of the other mode, unknown modes, bad values and types refused with
 * the key's path. */
static void test_scenario_keys_load_run_and_refuse(void **state) {
  (void)state;
  fresh_tmp();
  size_t len = 0;
  char *eph = test_slurp(GT_BRDC, &len);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/nav"));
  write_file(TMP "/nav/brdc.rnx", eph, len);
  free(eph);
  static const char scn_text[] =
      "{\"world\": {\"threads\": 0, \"origin\": [47.3769, 8.5417, 408]},\n"
      " \"duration\": 2, \"step\": 0.1,\n"
      " \"sensors\": [{\"name\": \"gps\", \"type\": \"gnss\", \"rate\": 1, \"mode\": \"satellites\",\n"
      "   \"ephemeris\": \"nav/brdc.rnx\", \"elevation_mask_deg\": 10, \"range_sigma\": 0.3,\n"
      "   \"iono_alpha\": [1e-8, 0, 0, 0], \"iono_beta\": [9e4, 0, 0, 0], \"humidity\": 0.4,\n"
      "   \"output\": {\"format\": \"nmea\"}}]}\n";
  write_file(TMP "/scn.json", scn_text, strlen(scn_text));
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load(TMP "/scn.json", &scn));
  sensim_gnss_params got;
  SENSIM_OK_OR_FAIL(sensim_gnss_params_get(sensim_world_sensor_by_name(sensim_scenario_world(scn), "gps"), &got));
  assert_int_equal(got.mode, SENSIM_GNSS_SATELLITES);
  assert_near(got.elevation_mask, 10 * M_PI / 180, 1e-15);
  assert_true(got.range_sigma == 0.3 && got.humidity == 0.4 && got.iono_alpha[0] == 1e-8);
  sensim_run_summary sum;
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/out", NULL, NULL, &sum));
  sensim_scenario_destroy(scn);
  char *nmea = test_slurp_if(TMP "/out/gps/gps.nmea", NULL);
  if (!nmea) nmea = test_slurp(TMP "/out/gps.nmea", NULL);
  assert_non_null(strstr(nmea, "$GPGGA,235945.00,"));
  assert_non_null(strstr(nmea, "$GPGGA,235946.00,"));
  assert_null(strstr(nmea, ",0,00,")); /* every fix has a solution */
  free(nmea);

  static const struct {
    const char *keys;
    sensim_status st;
    const char *message;
  } bad[] = {
      {"\"mode\": \"satelites\"", SENSIM_EINVAL, "did you mean 'satellites'"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/brdc.rnx\", \"hdop\": 1", SENSIM_EINVAL,
       "sensors[0].hdop: only the nominal mode"},
      {"\"ephemeris\": \"nav/brdc.rnx\"", SENSIM_EINVAL, "sensors[0].ephemeris: only the satellites mode"},
      {"\"mode\": \"satellites\"", SENSIM_EPARSE, "ephemeris"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/brdc.rnx\", \"utc_start\": \"yesterday\"", SENSIM_EINVAL,
       "sensors[0].utc_start"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/brdc.rnx\", \"elevation_mask_deg\": 90", SENSIM_EINVAL,
       "elevation_mask_deg"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/brdc.rnx\", \"multipath\": 1", SENSIM_EPARSE, "multipath"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/brdc.rnx\", \"iono_alpha\": [1, 2, 3, 4]", SENSIM_EINVAL,
       "iono_beta"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/brdc.rnx\", \"leap_seconds\": 101", SENSIM_EINVAL,
       "leap_seconds"},
      {"\"mode\": \"satellites\", \"ephemeris\": \"nav/missing.rnx\"", SENSIM_ENOTFOUND, "nav/missing.rnx"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char json[1024];
    snprintf(json, sizeof json,
             "{\"world\": {\"threads\": 0}, \"duration\": 1, \"step\": 0.1, \"sensors\": [{\"name\": \"gps\", "
             "\"type\": \"gnss\", %s}]}",
             bad[i].keys);
    scn = NULL;
    const sensim_status st = sensim_scenario_load_string(json, TMP, &scn);
    if (st != bad[i].st || !strstr(sensim_last_error(), bad[i].message))
      fail_msg("%s: status %d (want %d), '%s'", bad[i].keys, st, bad[i].st, sensim_last_error());
    assert_null(scn);
  }
}

int sensim_test_gnss_satellite_inputs(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yuma_almanac_reads_and_fixes),
      cmocka_unit_test(test_malformed_files_are_refused_with_file_and_line),
      cmocka_unit_test(test_other_systems_records_are_skipped),
      cmocka_unit_test(test_bad_satellite_parameters_are_refused),
      cmocka_unit_test(test_scenario_keys_load_run_and_refuse),
  };
  return cmocka_run_group_tests_name("gnss_satellite_inputs", tests, NULL, NULL);
}
