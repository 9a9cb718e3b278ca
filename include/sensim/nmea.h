/* sensim/nmea.h: NMEA 0183 sentences of GNSS fixes.
 *
 * GGA (fix data), RMC (recommended minimum data) and GSA (DOP and active
 * satellites), in the NMEA 0183 version 2.3 layout that receivers emit and
 * parsers accept ("$" + talker + type, comma-separated fields, "*" + two
 * upper-case hex digits of the XOR of every character between "$" and "*",
 * CR LF). Field layouts are listed in docs/gnss.md. A fix with fix_type 0
 * (or a position that is not finite, a latitude beyond +-90 deg, a
 * longitude beyond +-180 deg or |height| >= 1000 km) gives each sentence's
 * "no fix" form.
 *
 * Times: the sentences carry UTC. Simulation time t (s) maps to UTC as
 * utc_start + t, with utc_start in POSIX seconds (since
 * 1970-01-01T00:00:00Z, leap seconds not counted). */
#ifndef SENSIM_NMEA_H
#define SENSIM_NMEA_H

#include "sensim/export.h"

#include <stdio.h>
#include "sensim/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any sentence this API writes, CR LF and the final NUL included
 * (the standard's limit is 82 characters; sensim's sentences stay within it
 * for |height| < 100 km). */
#define SENSIM_NMEA_MAX 96

/* 2026-01-01T00:00:00Z in POSIX seconds. */
#define SENSIM_NMEA_DEFAULT_UTC_START 1767225600.0

typedef struct sensim_nmea_params {
  double utc_start; /* UTC at simulation time 0, POSIX s, [0, 4102444800) (before 2100)
                       [SENSIM_NMEA_DEFAULT_UTC_START] */
  char talker[3];   /* talker identifier, two letters A-Z: "GP" GPS, "GN" multi-GNSS ["GP"] */
} sensim_nmea_params;

/* Defaults: utc_start 2026-01-01T00:00:00Z, talker "GP". */
SENSIM_API void sensim_nmea_params_init(sensim_nmea_params *p);

/* POSIX time of a UTC calendar instant (proleptic Gregorian calendar,
 * years 1970 to 2099, second in [0, 60)). SENSIM_EINVAL out of range. */
SENSIM_API sensim_status sensim_utc_from_civil(int year, int month, int day, int hour, int minute,
                                    double second, double *out);
/* The same from ISO 8601 text "YYYY-MM-DDThh:mm:ss[.s...]Z". SENSIM_EINVAL
 * for any other form. */
SENSIM_API sensim_status sensim_utc_parse_iso8601(const char *text, double *out);

/* XOR of the n characters (those between "$" and "*"), 0..255. */
SENSIM_API unsigned sensim_nmea_checksum(const char *chars, size_t n);

/* One sentence, "$" to CR LF, into buf (cap >= SENSIM_NMEA_MAX is always
 * enough; SENSIM_EINVAL if cap is too small, nothing useful is written
 * then). t is the simulation time of the fix (frame->t_capture); GSA
 * carries no time. SENSIM_EINVAL for NULL arguments, bad params or a UTC
 * outside 1970..2099. */
SENSIM_API sensim_status sensim_nmea_gga(const sensim_nmea_params *p, const sensim_gnss_fix *fix, double t,
                              char *buf, size_t cap);
SENSIM_API sensim_status sensim_nmea_rmc(const sensim_nmea_params *p, const sensim_gnss_fix *fix, double t,
                              char *buf, size_t cap);
SENSIM_API sensim_status sensim_nmea_gsa(const sensim_nmea_params *p, const sensim_gnss_fix *fix, char *buf,
                              size_t cap);

/* Write a gnss frame's GGA, RMC and GSA sentences, in that order, to an
 * open stream (borrowed). SENSIM_ETYPE for another payload, SENSIM_EIO if
 * the stream reports an error. `p` may be NULL (defaults). */
SENSIM_API sensim_status sensim_nmea_write(FILE *fp, const sensim_nmea_params *p, const sensim_frame *frame);
/* The same, appended to the file at `path` (created if missing). */
SENSIM_API sensim_status sensim_nmea_append(const char *path, const sensim_nmea_params *p,
                                 const sensim_frame *frame);

#ifdef __cplusplus
}
#endif
#endif
