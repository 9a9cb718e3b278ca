/* io/nmea.c: NMEA 0183 GGA, RMC and GSA sentences of a GNSS fix.
 *
 * Layouts follow NMEA 0183 version 2.3 (National Marine Electronics
 * Association, 2001), as documented in receiver manuals (e.g. u-blox 8
 * receiver description UBX-13003221, sec. 31.2):
 *   GGA: time, lat ddmm.mmmmm, N/S, lon dddmm.mmmmm, E/W, quality, sats,
 *        HDOP, altitude, M, geoid separation, M, age of DGPS, station
 *   RMC: time, status A/V, lat, N/S, lon, E/W, speed (knots), course (deg
 *        true), date ddmmyy, magnetic variation, E/W, mode A/N
 *   GSA: mode A, fix 1/2/3, 12 satellite ids, PDOP, HDOP, VDOP
 * No geoid model is applied: GGA's altitude is the WGS84 ellipsoidal height
 * with a geoid separation of 0.00, so altitude + separation (what a parser
 * adds to get the ellipsoidal height) is the fix's height. sensim does not
 * simulate individual satellites: GSA lists placeholder ids 01..n for the
 * first min(n, 12) satellites used.
 *
 * Calendar: Julian Day Numbers and the Gregorian date by the integer
 * algorithms of H. F. Fliegel and T. C. Van Flandern, "A machine algorithm
 * for processing calendar dates", Comm. ACM 11(10), 1968, p. 657. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/nmea.h"

#define JDN_UNIX_EPOCH 2440588L   /* Julian Day Number of 1970-01-01 */
#define UTC_END 4102444800.0      /* 2100-01-01T00:00:00Z, POSIX s */
#define KNOT (1852.0 / 3600.0)    /* m/s per knot (international nautical mile) */

void sensim_nmea_params_init(sensim_nmea_params *p) {
  if (!p) return;
  p->utc_start = SENSIM_NMEA_DEFAULT_UTC_START;
  p->talker[0] = 'G';
  p->talker[1] = 'P';
  p->talker[2] = '\0';
}

/* Fliegel & Van Flandern (1968): Gregorian date -> JDN (C's truncating
 * division matches the Fortran of the paper). */
static long jdn_from_civil(long y, long m, long d) {
  return d - 32075 + 1461 * (y + 4800 + (m - 14) / 12) / 4 +
         367 * (m - 2 - (m - 14) / 12 * 12) / 12 - 3 * ((y + 4900 + (m - 14) / 12) / 100) / 4;
}

/* Fliegel & Van Flandern (1968): JDN -> Gregorian date. */
static void civil_from_jdn(long jd, int *y, int *m, int *d) {
  long l = jd + 68569;
  long n = 4 * l / 146097;
  l = l - (146097 * n + 3) / 4;
  long i = 4000 * (l + 1) / 1461001;
  l = l - 1461 * i / 4 + 31;
  long j = 80 * l / 2447;
  *d = (int)(l - 2447 * j / 80);
  l = j / 11;
  *m = (int)(j + 2 - 12 * l);
  *y = (int)(100 * (n - 49) + i + l);
}

sensim_status sensim_utc_from_civil(int year, int month, int day, int hour, int minute,
                                    double second, double *out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_utc_from_civil: NULL out");
  if (year < 1970 || year > 2099 || month < 1 || month > 12 || day < 1 || hour < 0 ||
      hour > 23 || minute < 0 || minute > 59 || !(second >= 0.0 && second < 60.0))
    return sensim__fail(SENSIM_EINVAL,
                        "UTC %04d-%02d-%02dT%02d:%02d:%g is out of range (years 1970 to 2099)",
                        year, month, day, hour, minute, second);
  long jd = jdn_from_civil(year, month, day);
  int y, m, d;
  civil_from_jdn(jd, &y, &m, &d);
  if (y != year || m != month || d != day)
    return sensim__fail(SENSIM_EINVAL, "UTC date %04d-%02d-%02d does not exist", year, month, day);
  *out = (double)(jd - JDN_UNIX_EPOCH) * 86400.0 + hour * 3600.0 + minute * 60.0 + second;
  return SENSIM_OK;
}

sensim_status sensim_utc_parse_iso8601(const char *text, double *out) {
  if (!text || !out) return sensim__fail(SENSIM_EINVAL, "sensim_utc_parse_iso8601: NULL argument");
  int y, mo, d, h, mi, n = 0;
  double s;
  /* Fixed-width digits are checked by position, not trusted to sscanf. */
  static const char shape[] = "dddd-dd-ddTdd:dd:dd";
  size_t len = strlen(text);
  int ok = len >= sizeof shape; /* the 19 characters and at least the 'Z' */
  for (size_t i = 0; ok && i + 1 < sizeof shape; i++)
    ok = shape[i] == 'd' ? (text[i] >= '0' && text[i] <= '9') : text[i] == shape[i];
  if (ok && sscanf(text, "%4d-%2d-%2dT%2d:%2d:%lf%n", &y, &mo, &d, &h, &mi, &s, &n) == 6)
    ok = n > 0 && (size_t)n == len - 1 && text[n] == 'Z' && (text[19] == '.' || text[19] == 'Z');
  else
    ok = 0;
  for (int i = 20; ok && i < n; i++) ok = text[i] >= '0' && text[i] <= '9';
  if (0)
    ok = 0;
  if (!ok)
    return sensim__fail(SENSIM_EINVAL, "UTC time '%s' is not YYYY-MM-DDThh:mm:ss[.s]Z", text);
  return sensim_utc_from_civil(y, mo, d, h, mi, s, out);
}

unsigned sensim_nmea_checksum(const char *chars, size_t n) {
  unsigned x = 0;
  for (size_t i = 0; i < n; i++) x ^= (unsigned char)chars[i];
  return x;
}

static sensim_status check_params(const sensim_nmea_params *p) {
  if (!(p->utc_start >= 0.0 && p->utc_start < UTC_END))
    return sensim__fail(SENSIM_EINVAL, "nmea: utc_start = %g s must be in [0, %.0f) (1970 to 2099)",
                        p->utc_start, UTC_END);
  for (int i = 0; i < 2; i++)
    if (p->talker[i] < 'A' || p->talker[i] > 'Z')
      return sensim__fail(SENSIM_EINVAL, "nmea: talker must be two letters A-Z");
  if (p->talker[2] != '\0') return sensim__fail(SENSIM_EINVAL, "nmea: talker must be two letters A-Z");
  return SENSIM_OK;
}

/* UTC of simulation time t as time of day "hhmmss.ss" and date "ddmmyy",
 * rounded to the field's 0.01 s, carrying into the date. */
static sensim_status utc_fields(const sensim_nmea_params *p, double t, char tod[32], char date[32]) {
  double u = p->utc_start + t;
  if (!(u >= 0.0 && u < UTC_END))
    return sensim__fail(SENSIM_EINVAL, "nmea: UTC of t = %g s falls outside 1970 to 2099", t);
  long long cs = llround(u * 100.0);
  long long day = cs / 8640000, rem = cs % 8640000;
  int y, m, d;
  civil_from_jdn((long)(day + JDN_UNIX_EPOCH), &y, &m, &d);
  int hh = (int)(rem / 360000), mm = (int)(rem / 6000 % 60), ss = (int)(rem / 100 % 60);
  int cc = (int)(rem % 100);
  snprintf(tod, 32, "%02d%02d%02d.%02d", hh, mm, ss, cc);
  snprintf(date, 32, "%02d%02d%02d", d, m, y % 100);
  return SENSIM_OK;
}

/* |angle| in deg as degrees and minutes with 5 decimals (units of 1e-5
 * minute, rounded once so 59.999995' carries into the degrees). */
static void angle_field(double deg, int deg_digits, char *out, size_t n) {
  long long u = llround(fabs(deg) * 60.0 * 1e5);
  long long dd = u / 6000000, mu = u % 6000000;
  snprintf(out, n, "%0*lld%02lld.%05lld", deg_digits, dd, mu / 100000, mu % 100000);
}

/* A position the sentences can hold: a latitude and longitude in range
 * and |height| < 1e6 m, which keeps every sentence within SENSIM_NMEA_MAX
 * (anything else is written as no fix). */
static int fix_valid(const sensim_gnss_fix *f) {
  return f->fix_type != 0 && fabs(f->lat) <= 90.0 && fabs(f->lon) <= 180.0 &&
         fabs(f->height) < 1e6;
}

/* DOP as "x.xx", empty when not reported (0) or not finite. */
static void dop_field(double v, char *out, size_t n) {
  if (isfinite(v) && v > 0.0)
    snprintf(out, n, "%.2f", fmin(v, 999.99));
  else
    out[0] = '\0';
}

/* "$" + body + "*hh\r\n" into buf. */
static sensim_status finish(const char *body, char *buf, size_t cap) {
  size_t n = strlen(body);
  if (cap < n + 7) {
    if (cap) buf[0] = '\0';
    return sensim__fail(SENSIM_EINVAL, "nmea: buffer of %zu bytes is too small (need %zu)", cap,
                        n + 7);
  }
  snprintf(buf, cap, "$%s*%02X\r\n", body, sensim_nmea_checksum(body, n));
  return SENSIM_OK;
}

static sensim_status check_args(const sensim_nmea_params *p, const sensim_gnss_fix *fix,
                                const char *buf, const char *what) {
  if (!p || !fix || !buf) return sensim__fail(SENSIM_EINVAL, "sensim_nmea_%s: NULL argument", what);
  return check_params(p);
}

sensim_status sensim_nmea_gga(const sensim_nmea_params *p, const sensim_gnss_fix *fix, double t,
                              char *buf, size_t cap) {
  sensim_status st = check_args(p, fix, buf, "gga");
  char tod[32], date[32], body[256];
  if (st == SENSIM_OK) st = utc_fields(p, t, tod, date);
  if (st != SENSIM_OK) return st;
  int sats = fix->satellites < 0 ? 0 : fix->satellites > 99 ? 99 : fix->satellites;
  if (!fix_valid(fix)) {
    snprintf(body, sizeof body, "%sGGA,%s,,,,,0,%02d,,,,,,,", p->talker, tod, sats);
  } else {
    char lat[64], lon[64], hdop[16];
    angle_field(fix->lat, 2, lat, sizeof lat);
    angle_field(fix->lon, 3, lon, sizeof lon);
    dop_field(fix->hdop, hdop, sizeof hdop);
    int q = fix->fix_type > 0 && fix->fix_type <= 8 ? fix->fix_type : 1;
    snprintf(body, sizeof body, "%sGGA,%s,%s,%c,%s,%c,%d,%02d,%s,%.2f,M,0.00,M,,", p->talker, tod,
             lat, fix->lat < 0.0 ? 'S' : 'N', lon, fix->lon < 0.0 ? 'W' : 'E', q, sats, hdop,
             fix->height);
  }
  return finish(body, buf, cap);
}

sensim_status sensim_nmea_rmc(const sensim_nmea_params *p, const sensim_gnss_fix *fix, double t,
                              char *buf, size_t cap) {
  sensim_status st = check_args(p, fix, buf, "rmc");
  char tod[32], date[32], body[256];
  if (st == SENSIM_OK) st = utc_fields(p, t, tod, date);
  if (st != SENSIM_OK) return st;
  if (!fix_valid(fix)) {
    snprintf(body, sizeof body, "%sRMC,%s,V,,,,,,,%s,,,N", p->talker, tod, date);
  } else {
    char lat[64], lon[64], spd[24] = "", cog[24] = "";
    angle_field(fix->lat, 2, lat, sizeof lat);
    angle_field(fix->lon, 3, lon, sizeof lon);
    if (isfinite(fix->speed)) snprintf(spd, sizeof spd, "%.3f", fmin(fabs(fix->speed) / KNOT, 999999.999));
    if (isfinite(fix->course)) {
      /* Round first, then wrap, so 359.996 deg prints as 0.00, never 360.00. */
      double c = round(fix->course * 100.0) / 100.0;
      if (c >= 360.0 || c < 0.0) c = fmod(fmod(c, 360.0) + 360.0, 360.0);
      snprintf(cog, sizeof cog, "%.2f", c);
    }
    snprintf(body, sizeof body, "%sRMC,%s,A,%s,%c,%s,%c,%s,%s,%s,,,A", p->talker, tod, lat,
             fix->lat < 0.0 ? 'S' : 'N', lon, fix->lon < 0.0 ? 'W' : 'E', spd, cog, date);
  }
  return finish(body, buf, cap);
}

sensim_status sensim_nmea_gsa(const sensim_nmea_params *p, const sensim_gnss_fix *fix, char *buf,
                              size_t cap) {
  sensim_status st = check_args(p, fix, buf, "gsa");
  if (st != SENSIM_OK) return st;
  char body[256];
  int valid = fix_valid(fix);
  int used = 0;
  int n = snprintf(body, sizeof body, "%sGSA,A,%d", p->talker, valid ? 3 : 1);
  int sats = valid ? (fix->satellites < 0 ? 0 : fix->satellites > 12 ? 12 : fix->satellites) : 0;
  for (int i = 0; i < 12; i++) {
    if (i < sats)
      n += snprintf(body + n, sizeof body - (size_t)n, ",%02d", ++used);
    else
      n += snprintf(body + n, sizeof body - (size_t)n, ",");
  }
  char pd[16] = "", hd[16] = "", vd[16] = "";
  if (valid) {
    dop_field(fix->pdop, pd, sizeof pd);
    dop_field(fix->hdop, hd, sizeof hd);
    dop_field(fix->vdop, vd, sizeof vd);
  }
  snprintf(body + n, sizeof body - (size_t)n, ",%s,%s,%s", pd, hd, vd);
  return finish(body, buf, cap);
}

sensim_status sensim_nmea_write(FILE *fp, const sensim_nmea_params *p, const sensim_frame *frame) {
  sensim_nmea_params def;
  sensim_nmea_params_init(&def);
  if (!p) p = &def;
  if (!fp || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_nmea_write: NULL argument");
  if (frame->type != SENSIM_PAYLOAD_GNSS || frame->count != 1 || !frame->data)
    return sensim__fail(SENSIM_ETYPE, "nmea: needs a gnss frame with one fix, not %s",
                        sensim_payload_name(frame->type));
  const sensim_gnss_fix *fix = frame->data;
  char gga[SENSIM_NMEA_MAX], rmc[SENSIM_NMEA_MAX], gsa[SENSIM_NMEA_MAX];
  sensim_status st = sensim_nmea_gga(p, fix, frame->t_capture, gga, sizeof gga);
  if (st == SENSIM_OK) st = sensim_nmea_rmc(p, fix, frame->t_capture, rmc, sizeof rmc);
  if (st == SENSIM_OK) st = sensim_nmea_gsa(p, fix, gsa, sizeof gsa);
  if (st != SENSIM_OK) return st;
  if (fputs(gga, fp) < 0 || fputs(rmc, fp) < 0 || fputs(gsa, fp) < 0 || ferror(fp))
    return sensim__fail(SENSIM_EIO, "nmea: write failed");
  return SENSIM_OK;
}

sensim_status sensim_nmea_append(const char *path, const sensim_nmea_params *p,
                                 const sensim_frame *frame) {
  if (!path) return sensim__fail(SENSIM_EINVAL, "sensim_nmea_append: NULL path");
  /* Check everything before touching the file, so bad input leaves it alone. */
  char probe[SENSIM_NMEA_MAX];
  sensim_nmea_params def;
  sensim_nmea_params_init(&def);
  if (!frame) return sensim__fail(SENSIM_EINVAL, "sensim_nmea_append: NULL frame");
  if (frame->type != SENSIM_PAYLOAD_GNSS || frame->count != 1 || !frame->data)
    return sensim__fail(SENSIM_ETYPE, "nmea '%s': needs a gnss frame with one fix, not %s", path,
                        sensim_payload_name(frame->type));
  sensim_status st = sensim_nmea_gga(p ? p : &def, frame->data, frame->t_capture, probe, sizeof probe);
  if (st != SENSIM_OK) return st;
  FILE *fp = fopen(path, "ab");
  if (!fp) return sensim__fail(SENSIM_EIO, "nmea '%s': cannot open for appending", path);
  st = sensim_nmea_write(fp, p, frame);
  if (fclose(fp) != 0 && st == SENSIM_OK)
    st = sensim__fail(SENSIM_EIO, "nmea '%s': write failed", path);
  if (st != SENSIM_OK) sensim__error_context("nmea '%s'", path);
  return st;
}
