/* sensors/gnss_yuma.c: a GPS almanac in the YUMA format the U.S. Coast
 * Guard Navigation Center publishes (navcen.uscg.gov): per satellite a line
 * "******** Week N almanac for PRN-nn ********" and thirteen "Label: value"
 * lines (ID, Health, Eccentricity, Time of Applicability(s), Orbital
 * Inclination(rad), Rate of Right Ascen(r/s), SQRT(A)  (m 1/2), Right Ascen
 * at Week(rad), Argument of Perigee(rad), Mean Anom(rad), Af0(s),
 * Af1(s/s), week). Angles are radians and the inclination is the whole
 * inclination (not the SEM format's offset from 0.3 semicircles). The week
 * is the broadcast 10-bit week, placed in a 1024-week era by the caller's
 * hint. Labels are matched ignoring case and blanks; every one is
 * required, once per record. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/gnss_sat.h"

enum { L_ID, L_HEALTH, L_ECC, L_TOA, L_INC, L_OMDOT, L_SQRTA, L_OM0, L_ARGP, L_M0, L_AF0, L_AF1, L_WEEK, NLABELS };

/* Labels without blanks, lower case. */
static const char *const labels[NLABELS] = {
    "id",          "health", "eccentricity", "timeofapplicability(s)", "orbitalinclination(rad)",
    "rateofrightascen(r/s)", "sqrt(a)(m1/2)", "rightascenatweek(rad)", "argumentofperigee(rad)",
    "meananom(rad)", "af0(s)", "af1(s/s)", "week"};

/* An almanac is used within a week of its time of applicability unless
 * the receiver says otherwise (sensim's choice: the Coast Guard publishes
 * one a day and the orbit it describes drifts by kilometres in weeks). */
#define YUMA_VALID (7.0 * 86400.0)

/* Start of the 1024-week era 2019-04-07 .. 2038-11-20 (the second rollover). */
#define ERA2_WEEK 2048.0

static sensim_status bad(const char *path, int line, const char *msg) {
  return sensim__fail(SENSIM_EPARSE, "%s:%d: %s", path, line, msg);
}

/* The same about a label: "'<label>' <what>" or "<what> '<label>'". */
static sensim_status bad_label(const char *path, int line, const char *fmt, const char *label) {
  char msg[160];
  snprintf(msg, sizeof msg, fmt, label);
  return bad(path, line, msg);
}

/* Lower-case s[0, n) without blanks into out (cap bytes). */
static void squeeze(const char *s, size_t n, char *out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 1 < cap; i++)
    if (!isspace((unsigned char)s[i])) out[k++] = (char)tolower((unsigned char)s[i]);
  out[k] = '\0';
}

static int number(const char *s, size_t n, double *v) {
  char buf[64];
  size_t a = 0, b = n;
  while (a < b && isspace((unsigned char)s[a])) a++;
  while (b > a && isspace((unsigned char)s[b - 1])) b--;
  if (a == b || b - a >= sizeof buf) return 0;
  memcpy(buf, s + a, b - a);
  buf[b - a] = '\0';
  char *end = NULL;
  double x = strtod(buf, &end);
  if (end != buf + (b - a) || !isfinite(x)) return 0;
  *v = x;
  return 1;
}

/* Checks and fills one record from its values; line is its star line. */
static sensim_status finish(const double *v, const char *path, int line, double gps_hint, sensim__gnss_nav *nav) {
  sensim__gps_eph e;
  memset(&e, 0, sizeof e);
  e.line = line;
  if (!(v[L_ID] >= 1 && v[L_ID] <= SENSIM__GPS_PRN_MAX && v[L_ID] == floor(v[L_ID])))
    return bad(path, line, "ID must be a PRN in 1..63");
  if (!(v[L_HEALTH] >= 0 && v[L_HEALTH] <= 255 && v[L_HEALTH] == floor(v[L_HEALTH])))
    return bad(path, line, "Health must be a whole number in 0..255");
  if (!(v[L_ECC] >= 0 && v[L_ECC] <= 0.9)) return bad(path, line, "Eccentricity must be in [0, 0.9]");
  if (!(v[L_SQRTA] >= 2000 && v[L_SQRTA] <= 8000))
    return bad(path, line, "SQRT(A) must be in [2000, 8000] m^(1/2)");
  if (!(v[L_TOA] >= 0 && v[L_TOA] < SENSIM__GPS_WEEK))
    return bad(path, line, "Time of Applicability must be in [0, 604800) s");
  if (!(v[L_WEEK] >= 0 && v[L_WEEK] <= 6000 && v[L_WEEK] == floor(v[L_WEEK])))
    return bad(path, line, "week must be a whole number in [0, 6000]");
  e.prn = (int)v[L_ID];
  e.health = (int)v[L_HEALTH];
  e.e = v[L_ECC];
  e.toe_sow = v[L_TOA];
  e.i0 = v[L_INC];
  e.omega_dot = v[L_OMDOT];
  e.sqrt_a = v[L_SQRTA];
  e.omega0 = v[L_OM0];
  e.omega = v[L_ARGP];
  e.m0 = v[L_M0];
  e.af0 = v[L_AF0];
  e.af1 = v[L_AF1];
  double week = v[L_WEEK];
  if (week < 1024.0) { /* a 10-bit week: the era nearest the hint */
    double base = ERA2_WEEK;
    if (isfinite(gps_hint)) {
      double k = floor((gps_hint / SENSIM__GPS_WEEK - week) / 1024.0 + 0.5);
      base = 1024.0 * (k < 0 ? 0 : k);
    }
    week += base;
  }
  e.toe = week * SENSIM__GPS_WEEK + e.toe_sow;
  e.toc = e.toe;
  e.fit = YUMA_VALID;
  return sensim__gnss_nav_push(nav, &e);
}

sensim_status sensim__gnss_read_yuma(const char *text, const char *path, double gps_hint, sensim__gnss_nav *nav) {
  const char *p = text;
  int line = 0, star = 0;
  double v[NLABELS];
  unsigned seen = 0;
  for (;;) {
    const char *s = p;
    size_t n = strcspn(s, "\n");
    const int eof = !*s;
    if (!eof) {
      p = s + n + (s[n] == '\n');
      line++;
    }
    size_t a = 0;
    while (a < n && isspace((unsigned char)s[a])) a++;
    const int blank = a == n;
    if (eof || (!blank && s[a] == '*')) {
      if (star) { /* close the record before */
        if (seen != (1u << NLABELS) - 1) {
          for (int k = 0; k < NLABELS; k++)
            if (!(seen & (1u << k))) return bad_label(path, star, "the record has no '%s' line", labels[k]);
        }
        sensim_status st = finish(v, path, star, gps_hint, nav);
        if (st != SENSIM_OK) return st;
      }
      if (eof) break;
      char low[160];
      squeeze(s, n, low, sizeof low);
      if (!strstr(low, "almanacforprn")) return bad(path, line, "expected '******** Week N almanac for PRN-nn ********'");
      star = line;
      seen = 0;
      continue;
    }
    if (blank) continue;
    if (!star) return bad(path, line, "a value before the first '******** Week N almanac ...' line");
    const char *colon = memchr(s, ':', n);
    if (!colon) return bad(path, line, "expected 'Label: value'");
    char key[64];
    squeeze(s, (size_t)(colon - s), key, sizeof key);
    int k = 0;
    while (k < NLABELS && strcmp(key, labels[k]) != 0) k++;
    if (k == NLABELS) return bad_label(path, line, "unknown label '%s'", key);
    if (seen & (1u << k)) return bad_label(path, line, "'%s' given twice in one record", key);
    if (!number(colon + 1, n - (size_t)(colon + 1 - s), &v[k])) return bad_label(path, line, "'%s' is not a number", key);
    seen |= 1u << k;
  }
  return SENSIM_OK;
}
