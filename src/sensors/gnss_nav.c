/* sensors/gnss_nav.c: a navigation file's GPS records: reading the file,
 * telling RINEX from YUMA, keeping the records in (PRN, toe) order, and
 * choosing the record a receiver uses at a given time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/gnss_sat.h"

/* A navigation file of a day of every GPS satellite is a few hundred kB;
 * 64 MiB bounds what a wrong path can make the library read. */
#define NAV_MAX_BYTES (64u << 20)

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant,
 * "chrono-compatible low-level date algorithms", days_from_civil). */
static long days_from_civil(long y, int m, int d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

double sensim__gps_from_civil(int year, int month, int day, int hour, int minute, double second) {
  const long days = days_from_civil(year, month, day) - days_from_civil(1980, 1, 6);
  return (double)days * 86400.0 + hour * 3600.0 + minute * 60.0 + second;
}

sensim_status sensim__gnss_nav_push(sensim__gnss_nav *nav, const sensim__gps_eph *e) {
  sensim_status st = sensim__grow((void **)&nav->eph, &nav->cap, nav->n + 1, sizeof *nav->eph);
  if (st != SENSIM_OK) return st;
  nav->eph[nav->n++] = *e;
  return SENSIM_OK;
}

static int by_prn_toe(const void *a, const void *b) {
  const sensim__gps_eph *x = a, *y = b;
  if (x->prn != y->prn) return x->prn < y->prn ? -1 : 1;
  if (x->toe != y->toe) return x->toe < y->toe ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

void sensim__gnss_nav_free(sensim__gnss_nav *nav) {
  if (!nav) return;
  free(nav->eph);
  memset(nav, 0, sizeof *nav);
}

/* The whole file, NUL-terminated; a NUL inside it is a parse error. */
static sensim_status read_text(const char *path, char **out) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return sensim__fail(errno == ENOENT ? SENSIM_ENOTFOUND : SENSIM_EIO, "gnss: cannot open ephemeris '%s': %s",
                        path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  sensim_status st = buf ? SENSIM_OK : sensim__fail(SENSIM_ENOMEM, "gnss: out of memory reading '%s'", path);
  while (st == SENSIM_OK) {
    if (n == cap) {
      if (cap >= NAV_MAX_BYTES) {
        st = sensim__fail(SENSIM_EINVAL, "gnss: ephemeris '%s' is larger than %u MiB", path, NAV_MAX_BYTES >> 20);
        break;
      }
      char *p = realloc(buf, 2 * cap + 1);
      if (!p) {
        st = sensim__fail(SENSIM_ENOMEM, "gnss: out of memory reading '%s'", path);
        break;
      }
      buf = p;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) st = sensim__fail(SENSIM_EIO, "gnss: error reading ephemeris '%s'", path);
      break;
    }
  }
  fclose(f);
  if (st == SENSIM_OK) {
    buf[n] = '\0';
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
      int line = 1;
      for (const char *c = buf; c < nul; c++) line += *c == '\n';
      st = sensim__fail(SENSIM_EPARSE, "%s:%d: a NUL byte: not a text file", path, line);
    }
  }
  if (st != SENSIM_OK) {
    free(buf);
    return st;
  }
  *out = buf;
  return SENSIM_OK;
}

/* ASCII case-insensitive search of `needle` in the first `len` chars of s. */
static int has_word(const char *s, size_t len, const char *needle) {
  size_t m = strlen(needle);
  for (size_t i = 0; i + m <= len; i++) {
    size_t k = 0;
    while (k < m && (s[i + k] | 0x20) == (needle[k] | 0x20)) k++;
    if (k == m) return 1;
  }
  return 0;
}

sensim_status sensim__gnss_nav_load(const char *path, double gps_hint, sensim__gnss_nav *out) {
  if (!path || !*path || !out) return sensim__fail(SENSIM_EINVAL, "gnss: no ephemeris file named");
  char *text = NULL;
  sensim_status st = read_text(path, &text);
  if (st != SENSIM_OK) return st;
  sensim__gnss_nav nav;
  memset(&nav, 0, sizeof nav);
  nav.leap_seconds = -1;
  size_t len = strcspn(text, "\r\n");
  if (len >= 80 && has_word(text + 60, len - 60, "RINEX VERSION / TYPE")) {
    st = sensim__gnss_read_rinex(text, path, &nav);
  } else if (text[0] == '*' && has_word(text, len, "almanac")) {
    nav.almanac = 1;
    st = sensim__gnss_read_yuma(text, path, gps_hint, &nav);
  } else {
    st = sensim__fail(SENSIM_EPARSE,
                      "%s:1: neither a RINEX navigation file (its first line ends in 'RINEX VERSION / TYPE') nor "
                      "a YUMA almanac (its first line is '******** Week N almanac for PRN-nn ********')",
                      path);
  }
  free(text);
  if (st == SENSIM_OK && nav.n == 0)
    st = sensim__fail(SENSIM_EPARSE, "%s: no GPS records in the file", path);
  if (st != SENSIM_OK) {
    sensim__gnss_nav_free(&nav);
    return st;
  }
  qsort(nav.eph, nav.n, sizeof *nav.eph, by_prn_toe);
  nav.first_toe = INFINITY;
  for (size_t i = 0; i < nav.n; i++) {
    const sensim__gps_eph *e = &nav.eph[i];
    if (nav.count[e->prn]++ == 0) nav.first[e->prn] = i;
    if (e->toe < nav.first_toe) nav.first_toe = e->toe;
  }
  *out = nav;
  return SENSIM_OK;
}

const sensim__gps_eph *sensim__gnss_nav_select(const sensim__gnss_nav *nav, int prn, double t, double max_age) {
  if (prn < 1 || prn > SENSIM__GPS_PRN_MAX) return NULL;
  const sensim__gps_eph *best = NULL;
  double best_d = INFINITY;
  for (size_t i = nav->first[prn], k = 0; k < nav->count[prn]; i++, k++) {
    const sensim__gps_eph *e = &nav->eph[i];
    const double d = fabs(t - e->toe), lim = max_age > 0.0 ? max_age : e->fit;
    /* Nearest toe; of two equally near, the later (the newer upload). */
    if (d <= lim && d <= best_d) {
      best = e;
      best_d = d;
    }
  }
  return best;
}
