/* sensors/gnss_config.c: a GNSS receiver's configuration, checked and
 * resolved once at creation: the parameters' ranges, and in the
 * satellites mode the navigation file, the time scale (UTC start, GPS -
 * UTC), the Klobuchar coefficients and the check that the first capture
 * lies inside the file's validity. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/gnss_sat.h"

/* 2100-01-01T00:00:00Z, as the NMEA writer's limit (RMC's two-digit year). */
#define UTC_MAX 4102444800.0

static sensim_status check_nominal(const sensim_gnss_params *gp) {
  if (gp->satellites < 0 || gp->satellites > 99)
    return sensim__fail(SENSIM_EINVAL, "gnss: satellites = %d must be in [0, 99]", gp->satellites);
  if (!(gp->hdop >= 0.0 && gp->hdop < 1000.0))
    return sensim__fail(SENSIM_EINVAL, "gnss: hdop = %g must be in [0, 1000)", gp->hdop);
  if (!(gp->vdop >= 0.0 && gp->vdop < 1000.0))
    return sensim__fail(SENSIM_EINVAL, "gnss: vdop = %g must be in [0, 1000)", gp->vdop);
  if (gp->mode != SENSIM_GNSS_NOMINAL && gp->mode != SENSIM_GNSS_SATELLITES)
    return sensim__fail(SENSIM_EINVAL, "gnss: mode = %d must be SENSIM_GNSS_NOMINAL (0) or SENSIM_GNSS_SATELLITES (1)",
                        (int)gp->mode);
  return SENSIM_OK;
}

static sensim_status in_range(const char *name, double v, double lo, double hi, const char *unit) {
  if (v >= lo && v <= hi) return SENSIM_OK;
  return sensim__fail(SENSIM_EINVAL, "gnss: %s = %g must be in [%g, %g]%s", name, v, lo, hi, unit);
}

static sensim_status check_satellites(const sensim_gnss_params *gp) {
  if (!gp->ephemeris || !*gp->ephemeris)
    return sensim__fail(SENSIM_EINVAL, "gnss: the satellites mode needs an ephemeris file (ephemeris: a RINEX 3 "
                                       "navigation file or a YUMA almanac)");
  sensim_status st = SENSIM_OK;
  if (!(gp->utc_start >= 0.0 && gp->utc_start < UTC_MAX))
    return sensim__fail(SENSIM_EINVAL, "gnss: utc_start = %g must be in [0, 4102444800) POSIX s (before 2100)",
                        gp->utc_start);
  if (gp->leap_seconds < -1 || gp->leap_seconds > 100)
    return sensim__fail(SENSIM_EINVAL, "gnss: leap_seconds = %d must be in [0, 100] s, or -1 (from the file)",
                        gp->leap_seconds);
  if (!(gp->elevation_mask >= 0.0 && gp->elevation_mask < M_PI / 2))
    return sensim__fail(SENSIM_EINVAL, "gnss: elevation_mask = %g rad must be in [0, pi/2)", gp->elevation_mask);
  if (st == SENSIM_OK) st = in_range("max_ephemeris_age", gp->max_ephemeris_age, 0.0, 1e8, " s (0: the file's)");
  if (st == SENSIM_OK) st = in_range("humidity", gp->humidity, 0.0, 1.0, "");
  if (st == SENSIM_OK) st = in_range("range_sigma", gp->range_sigma, 0.0, 1e6, " m");
  if (st == SENSIM_OK) st = in_range("range_rate_sigma", gp->range_rate_sigma, 0.0, 1e6, " m/s");
  if (st == SENSIM_OK && gp->reported_sigma != -1.0)
    st = in_range("reported_sigma", gp->reported_sigma, 0.0, 1e6, " m (or -1: range_sigma)");
  if (st != SENSIM_OK) return st;
  for (int i = 0; i < 4; i++) {
    if (isnan(gp->iono_alpha[i]) != isnan(gp->iono_alpha[0]) || isnan(gp->iono_beta[i]) != isnan(gp->iono_beta[0]))
      return sensim__fail(SENSIM_EINVAL, "gnss: iono_alpha and iono_beta are given whole (4 numbers each) or not at "
                                         "all");
    if (isinf(gp->iono_alpha[i]) || isinf(gp->iono_beta[i]))
      return sensim__fail(SENSIM_EINVAL, "gnss: iono_alpha[%d] / iono_beta[%d] must be finite", i, i);
  }
  if (isnan(gp->iono_alpha[0]) != isnan(gp->iono_beta[0]))
    return sensim__fail(SENSIM_EINVAL, "gnss: give iono_alpha and iono_beta together");
  return SENSIM_OK;
}

/* "YYYY-MM-DDThh:mm:ssZ" of POSIX time u (civil_from_days, H. Hinnant). */
static void iso_utc(double u, char *buf, size_t cap) {
  double fd = floor(u / 86400.0);
  long z = (long)fd + 719468, sec = (long)(u - fd * 86400.0);
  long era = (z >= 0 ? z : z - 146096) / 146097, doe = z - era * 146097;
  long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2);
  snprintf(buf, cap, "%04ld-%02ld-%02ldT%02ld:%02ld:%02ldZ", y, m, d, sec / 3600, sec / 60 % 60, sec % 60);
}

/* At least one healthy record valid at GPS time t. */
static sensim_status check_validity(const sensim__gnss_cfg *c, double t, double phase) {
  for (int prn = 1; prn <= SENSIM__GPS_PRN_MAX; prn++) {
    const sensim__gps_eph *e = sensim__gnss_nav_select(&c->nav, prn, t, c->p.max_ephemeris_age);
    if (e && e->health == 0) return SENSIM_OK;
  }
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < c->nav.n; i++) {
    const sensim__gps_eph *e = &c->nav.eph[i];
    const double w = c->p.max_ephemeris_age > 0 ? c->p.max_ephemeris_age : e->fit;
    if (e->toe - w < lo) lo = e->toe - w;
    if (e->toe + w > hi) hi = e->toe + w;
  }
  char at[96], a[96], b[96];
  const double leap = c->p.leap_seconds;
  iso_utc(c->p.utc_start + phase, at, sizeof at);
  iso_utc(lo + SENSIM__GPS_EPOCH_POSIX - leap, a, sizeof a);
  iso_utc(hi + SENSIM__GPS_EPOCH_POSIX - leap, b, sizeof b);
  return sensim__fail(SENSIM_EINVAL,
                      "gnss: no healthy GPS record of '%s' is valid at the first capture, UTC %s (utc_start + phase); "
                      "its records cover UTC %s to %s (each within %s of its toe)",
                      c->path, at, a, b, c->p.max_ephemeris_age > 0 ? "max_ephemeris_age" : "half its fit interval");
}

static sensim_status make_satellites(const sensim_sensor_params *sp, sensim__gnss_cfg *c) {
  sensim_gnss_params *p = &c->p;
  if (sp->window > 0.0)
    return sensim__fail(SENSIM_EINVAL, "gnss: window = %g s: the satellites mode measures at the capture instant "
                                       "(window 0)", sp->window);
  sensim_status st = check_satellites(p);
  if (st != SENSIM_OK) return st;
  if (!(c->path = sensim__strdup(p->ephemeris))) return SENSIM_ENOMEM;
  p->ephemeris = c->path;
  const int leap_hint = p->leap_seconds >= 0 ? p->leap_seconds : SENSIM_GNSS_DEFAULT_LEAP_SECONDS;
  const double hint = p->utc_start > 0 ? p->utc_start - SENSIM__GPS_EPOCH_POSIX + leap_hint : NAN;
  if ((st = sensim__gnss_nav_load(c->path, hint, &c->nav)) != SENSIM_OK) return st;
  if (p->leap_seconds < 0)
    p->leap_seconds = c->nav.leap_seconds >= 0 ? c->nav.leap_seconds : SENSIM_GNSS_DEFAULT_LEAP_SECONDS;
  if (p->utc_start == 0.0) { /* the file's first toe */
    c->gps0 = c->nav.first_toe;
    p->utc_start = c->gps0 + SENSIM__GPS_EPOCH_POSIX - p->leap_seconds;
  } else {
    c->gps0 = p->utc_start - SENSIM__GPS_EPOCH_POSIX + p->leap_seconds;
  }
  if (isnan(p->iono_alpha[0]) && c->nav.has_iono) {
    memcpy(p->iono_alpha, c->nav.alpha, sizeof p->iono_alpha);
    memcpy(p->iono_beta, c->nav.beta, sizeof p->iono_beta);
  }
  if ((p->ionosphere || p->correct_ionosphere) && isnan(p->iono_alpha[0]))
    return sensim__fail(SENSIM_EINVAL, "gnss: '%s' has no GPS ionosphere coefficients (GPSA / GPSB lines); give "
                                       "iono_alpha and iono_beta, or turn ionosphere and correct_ionosphere off",
                        c->path);
  c->sigma_report = p->reported_sigma < 0 ? p->range_sigma : p->reported_sigma;
  const double phase = sp->phase > 0 ? sp->phase : 0.0;
  return check_validity(c, c->gps0 + phase, phase);
}

sensim_status sensim__gnss_cfg_make(const sensim_sensor_params *sp, const sensim_gnss_params *gp,
                                    sensim__gnss_cfg **out) {
  sensim_status st = check_nominal(gp);
  if (st != SENSIM_OK) return st;
  sensim__gnss_cfg *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "gnss: out of memory");
  c->p = *gp;
  if (gp->mode == SENSIM_GNSS_SATELLITES) {
    st = make_satellites(sp, c);
  } else {
    c->p.ephemeris = NULL; /* ignored, and not kept */
    /* One solution per epoch (gnss.h); the relative slack forgives the
     * rounding of window = 1 / rate computed by the caller. */
    if (sp->rate > 0.0 && isfinite(sp->window) && sp->window > (1.0 + 1e-12) / sp->rate)
      st = sensim__fail(SENSIM_EINVAL, "gnss: window = %g s is longer than the update period 1 / rate = %g s",
                        sp->window, 1.0 / sp->rate);
  }
  if (st != SENSIM_OK) {
    sensim__gnss_cfg_free(c);
    return st;
  }
  *out = c;
  return SENSIM_OK;
}

void sensim__gnss_cfg_free(void *cfg) {
  sensim__gnss_cfg *c = cfg;
  if (!c) return;
  sensim__gnss_nav_free(&c->nav);
  free(c->path);
  free(c);
}
