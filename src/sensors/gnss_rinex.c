/* sensors/gnss_rinex.c: the GPS records of a RINEX 3.00-3.05 navigation
 * file (IGS/RTCM, "RINEX: The Receiver Independent Exchange Format",
 * version 3.05, 2020, sec. 5.4 and table A6/A7 (GPS); the same layout
 * since 3.00). Header: "IONOSPHERIC CORR" lines GPSA / GPSB (Klobuchar
 * alpha and beta) and "LEAP SECONDS"; the rest of the header is skipped.
 * Records of other systems (R, E, C, J, S, I) are skipped with their
 * continuation lines. Numbers are Fortran D19.12 fields (E or D exponent),
 * read by column, so fields that touch ("-1.2E-05-3.4E-12") are split
 * where the format puts them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/gnss_sat.h"

typedef struct cursor {
  const char *p;   /* start of the next line */
  int line;        /* number of the line last returned */
} cursor;

/* The next line (without its CR LF) in *s, *len; 0 at the end. */
static int next_line(cursor *c, const char **s, size_t *len) {
  if (!*c->p) return 0;
  const char *a = c->p;
  size_t n = strcspn(a, "\n");
  c->p = a + n + (a[n] == '\n');
  if (n && a[n - 1] == '\r') n--;
  c->line++;
  *s = a;
  *len = n;
  return 1;
}

/* A fixed-width number at [col, col + w) of the line: 1 read, 0 blank (or
 * past the line's end), -1 malformed. Fortran's D exponent is read as E. */
static int field(const char *s, size_t len, size_t col, size_t w, double *v) {
  size_t a = col < len ? col : len, b = col + w < len ? col + w : len;
  while (a < b && s[a] == ' ') a++;
  while (b > a && s[b - 1] == ' ') b--;
  if (a == b) return 0;
  char buf[40];
  if (b - a >= sizeof buf) return -1;
  for (size_t i = a; i < b; i++) buf[i - a] = (s[i] == 'D' || s[i] == 'd') ? 'E' : s[i];
  buf[b - a] = '\0';
  char *end = NULL;
  double x = strtod(buf, &end);
  if (end != buf + (b - a) || !isfinite(x)) return -1;
  *v = x;
  return 1;
}

static const char *const orbit_names[7][4] = {
    {"IODE", "Crs", "Delta n", "M0"},
    {"Cuc", "e", "Cus", "sqrt(A)"},
    {"Toe", "Cic", "OMEGA0", "Cis"},
    {"i0", "Crc", "omega", "OMEGA DOT"},
    {"IDOT", "L2 codes", "GPS week", "L2P flag"},
    {"SV accuracy", "SV health", "TGD", "IODC"},
    {"transmission time", "fit interval", "spare", "spare"},
};
/* Fields a record may leave blank: IODE, L2 codes, L2P flag, SV accuracy,
 * IODC, transmission time, fit interval (then 4 h), spares. */
static const unsigned char optional[7][4] = {
    {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 1}, {1, 0, 0, 1}, {1, 1, 1, 1},
};

static sensim_status bad(const char *path, int line, const char *what) {
  return sensim__fail(SENSIM_EPARSE, "%s:%d: %s", path, line, what);
}

static sensim_status range_check(const char *path, int line, const char *name, double v, double lo, double hi) {
  if (v >= lo && v <= hi) return SENSIM_OK;
  return sensim__fail(SENSIM_EPARSE, "%s:%d: %s = %g is outside [%g, %g]", path, line, name, v, lo, hi);
}

/* The SV / epoch line "Gnn yyyy mm dd hh mm ss" and its three clock terms. */
static sensim_status epoch_line(const char *s, size_t len, const char *path, int line, sensim__gps_eph *e) {
  int f[7];
  static const size_t col[7] = {1, 4, 9, 12, 15, 18, 21};
  static const size_t wid[7] = {2, 4, 2, 2, 2, 2, 2};
  for (int k = 0; k < 7; k++) {
    if (col[k] + wid[k] > len) return bad(path, line, "SV / epoch line is cut short");
    int v = 0;
    for (size_t i = col[k]; i < col[k] + wid[k]; i++) {
      char ch = s[i];
      if (ch == ' ' && i + 1 < col[k] + wid[k]) continue; /* right-aligned */
      if (!isdigit((unsigned char)ch)) return bad(path, line, "SV / epoch line: expected 'Gnn yyyy mm dd hh mm ss'");
      v = 10 * v + (ch - '0');
    }
    f[k] = v;
  }
  sensim_status st = range_check(path, line, "PRN", f[0], 1, SENSIM__GPS_PRN_MAX);
  if (st == SENSIM_OK) st = range_check(path, line, "year", f[1], 1980, 2099);
  if (st == SENSIM_OK) st = range_check(path, line, "month", f[2], 1, 12);
  if (st == SENSIM_OK) st = range_check(path, line, "day", f[3], 1, 31);
  if (st == SENSIM_OK) st = range_check(path, line, "hour", f[4], 0, 23);
  if (st == SENSIM_OK) st = range_check(path, line, "minute", f[5], 0, 59);
  if (st == SENSIM_OK) st = range_check(path, line, "second", f[6], 0, 59);
  if (st != SENSIM_OK) return st;
  e->prn = f[0];
  e->toc = sensim__gps_from_civil(f[1], f[2], f[3], f[4], f[5], f[6]);
  static const char *const clk[3] = {"SV clock bias", "SV clock drift", "SV clock drift rate"};
  double *dst[3] = {&e->af0, &e->af1, &e->af2};
  for (int k = 0; k < 3; k++) {
    int r = field(s, len, 23 + 19 * (size_t)k, 19, dst[k]);
    if (r <= 0) {
      char msg[96];
      snprintf(msg, sizeof msg, "%s is %s", clk[k], r ? "not a number" : "missing");
      return bad(path, line, msg);
    }
  }
  return SENSIM_OK;
}

/* One GPS record: the epoch line s and its seven orbit lines. */
static sensim_status gps_record(cursor *c, const char *s, size_t len, const char *path, sensim__gnss_nav *nav) {
  sensim__gps_eph e;
  memset(&e, 0, sizeof e);
  e.line = c->line;
  sensim_status st = epoch_line(s, len, path, c->line, &e);
  if (st != SENSIM_OK) return st;
  double v[7][4];
  for (int l = 0; l < 7; l++) {
    const char *o;
    size_t olen;
    if (!next_line(c, &o, &olen) || olen < 4 || strncmp(o, "    ", 4) != 0)
      return sensim__fail(SENSIM_EPARSE, "%s:%d: the GPS record of line %d ends before BROADCAST ORBIT - %d", path,
                          c->line, e.line, l + 1);
    for (int k = 0; k < 4; k++) {
      v[l][k] = 0.0;
      int r = field(o, olen, 4 + 19 * (size_t)k, 19, &v[l][k]);
      if (r < 0 || (r == 0 && !optional[l][k])) {
        char msg[128];
        snprintf(msg, sizeof msg, "BROADCAST ORBIT - %d: %s is %s", l + 1, orbit_names[l][k],
                 r ? "not a number" : "missing");
        return bad(path, c->line, msg);
      }
    }
  }
  const int ln = e.line;
  e.crs = v[0][1], e.dn = v[0][2], e.m0 = v[0][3];
  e.cuc = v[1][0], e.e = v[1][1], e.cus = v[1][2], e.sqrt_a = v[1][3];
  e.toe_sow = v[2][0], e.cic = v[2][1], e.omega0 = v[2][2], e.cis = v[2][3];
  e.i0 = v[3][0], e.crc = v[3][1], e.omega = v[3][2], e.omega_dot = v[3][3];
  e.idot = v[4][0];
  const double week = v[4][2], health = v[5][1], fit_h = v[6][1];
  e.tgd = v[5][2];
  if ((st = range_check(path, ln + 2, "e", e.e, 0.0, 0.9)) != SENSIM_OK) return st;
  if ((st = range_check(path, ln + 2, "sqrt(A)", e.sqrt_a, 2000.0, 8000.0)) != SENSIM_OK) return st;
  if ((st = range_check(path, ln + 3, "Toe", e.toe_sow, 0.0, SENSIM__GPS_WEEK - 1.0)) != SENSIM_OK) return st;
  if ((st = range_check(path, ln + 5, "GPS week", week, 0.0, 6000.0)) != SENSIM_OK) return st;
  if (week != floor(week)) return bad(path, ln + 5, "GPS week is not a whole number");
  if ((st = range_check(path, ln + 6, "SV health", health, 0.0, 63.0)) != SENSIM_OK) return st;
  if ((st = range_check(path, ln + 7, "fit interval", fit_h, 0.0, 168.0)) != SENSIM_OK) return st;
  e.health = (int)health;
  e.toe = week * SENSIM__GPS_WEEK + e.toe_sow;
  /* Fit interval in hours; 0 (or blank) is the ICD's 4 h (20.3.3.4.3.1). */
  e.fit = 0.5 * 3600.0 * (fit_h > 0.0 ? fit_h : 4.0);
  if (fabs(e.toc - e.toe) > 0.5 * SENSIM__GPS_WEEK)
    return sensim__fail(SENSIM_EPARSE, "%s:%d: toc and toe (GPS week %.0f) are %.0f s apart: a wrong week?", path,
                        ln, week, e.toc - e.toe);
  return sensim__gnss_nav_push(nav, &e);
}

/* "IONOSPHERIC CORR": "GPSA" or "GPSB" and four D12.4 numbers. */
static sensim_status iono_line(const char *s, size_t len, const char *path, int line, sensim__gnss_nav *nav,
                               int *seen) {
  int which = strncmp(s, "GPSA", 4) == 0 ? 0 : strncmp(s, "GPSB", 4) == 0 ? 1 : -1;
  if (which < 0) return SENSIM_OK; /* another system's model */
  double *dst = which ? nav->beta : nav->alpha;
  for (int k = 0; k < 4; k++)
    if (field(s, len < 60 ? len : 60, 5 + 12 * (size_t)k, 12, &dst[k]) != 1)
      return bad(path, line, "IONOSPHERIC CORR: expected four numbers after GPSA / GPSB");
  *seen |= 1 << which;
  return SENSIM_OK;
}

sensim_status sensim__gnss_read_rinex(const char *text, const char *path, sensim__gnss_nav *nav) {
  cursor c = {text, 0};
  const char *s;
  size_t len;
  next_line(&c, &s, &len);
  double version = 0.0;
  if (field(s, len, 0, 9, &version) != 1 || len < 21 || s[20] != 'N')
    return bad(path, 1, "RINEX VERSION / TYPE: not a navigation file (type 'N' in column 21)");
  if (!(version >= 3.0 && version < 4.0))
    return sensim__fail(SENSIM_EPARSE, "%s:1: RINEX version %.2f: only navigation files of version 3.00 to 3.05 are "
                                       "read (convert with gfzrnx or teqc)", path, version);
  int iono = 0, ended = 0;
  while (!ended && next_line(&c, &s, &len)) {
    const char *label = len > 60 ? s + 60 : "";
    sensim_status st = SENSIM_OK;
    if (strncmp(label, "END OF HEADER", 13) == 0) {
      ended = 1;
    } else if (strncmp(label, "IONOSPHERIC CORR", 16) == 0) {
      st = iono_line(s, len, path, c.line, nav, &iono);
    } else if (strncmp(label, "LEAP SECONDS", 12) == 0) {
      double ls = 0;
      if (field(s, len, 0, 6, &ls) != 1 || ls != floor(ls) || !(ls >= 0 && ls <= 100))
        st = bad(path, c.line, "LEAP SECONDS: expected a whole number of seconds in [0, 100]");
      nav->leap_seconds = (int)ls;
    }
    if (st != SENSIM_OK) return st;
  }
  if (!ended) return bad(path, c.line, "no END OF HEADER line");
  nav->has_iono = iono == 3;
  while (next_line(&c, &s, &len)) {
    size_t k = 0;
    while (k < len && s[k] == ' ') k++;
    if (k == len) continue; /* blank line */
    if (k > 0) return bad(path, c.line, "a continuation line where a record's SV / epoch line should be");
    if (!isupper((unsigned char)s[0]) || len < 3 || !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[2]))
      return bad(path, c.line, "expected an SV / epoch line ('Gnn yyyy mm dd ...')");
    if (s[0] == 'G') {
      sensim_status st = gps_record(&c, s, len, path, nav);
      if (st != SENSIM_OK) return st;
      continue;
    }
    /* Another system's record: skip its continuation lines. */
    cursor peek = c;
    const char *o;
    size_t olen;
    while (next_line(&peek, &o, &olen) && olen > 0 && o[0] == ' ') c = peek;
  }
  return SENSIM_OK;
}
