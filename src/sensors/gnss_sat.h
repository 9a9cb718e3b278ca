/* sensors/gnss_sat.h: the GNSS receiver's satellites mode (sensim/gnss.h):
 * the navigation data it reads (gnss_nav.c, gnss_rinex.c, gnss_yuma.c),
 * the IS-GPS-200 orbit and clock (gnss_orbit.c), the signal's delays
 * (gnss_atmosphere.c), ray-traced visibility and multipath (gnss_sky.c),
 * the measurements of one epoch (gnss_observe.c), the least-squares fix
 * (gnss_solve.c) and the kind that ties them together
 * (gnss_satellites.c). docs/gnss.md, "Satellites mode", has every formula
 * and its source. Not installed. */
#ifndef SENSIM_SENSORS_GNSS_SAT_H
#define SENSIM_SENSORS_GNSS_SAT_H

#include <stddef.h>
#include "rt/rt.h"
#include "runtime/kind.h"
#include "sensim/gnss.h"

/* IS-GPS-200N, 20.3.3.3.3.1 and Table 20-IV: the values a GPS user
 * algorithm must use (mu and the Earth's rate are WGS 84's; pi is the
 * ICD's 3.1415926535898 only where it scales semicircles). */
#define SENSIM__GPS_MU 3.986005e14          /* m^3/s^2, Earth's gravitational constant */
#define SENSIM__GPS_OMEGA_E 7.2921151467e-5 /* rad/s, Earth's rotation rate */
#define SENSIM__GPS_F (-4.442807633e-10)    /* s/m^(1/2), relativistic constant -2 sqrt(mu) / c^2 */
#define SENSIM__GPS_C 299792458.0           /* m/s, speed of light */
#define SENSIM__GPS_PI 3.1415926535898      /* the ICD's pi, for semicircles */
#define SENSIM__GPS_WEEK 604800.0           /* s */
/* 1980-01-06T00:00:00Z, the GPS epoch, in POSIX seconds. */
#define SENSIM__GPS_EPOCH_POSIX 315964800.0
/* PRNs are 1..63 (IS-GPS-200 Table 3-Ia lists codes for 1..63). */
#define SENSIM__GPS_PRN_MAX 63

/* One broadcast ephemeris (RINEX) or almanac (YUMA) record. Times are GPS
 * seconds since the GPS epoch (week * 604800 + seconds of week), whole
 * numbers in the files, so exact in a double. */
typedef struct sensim__gps_eph {
  int prn;            /* 1..63 */
  int health;         /* 0: healthy (RINEX "SV health", YUMA "Health") */
  int line;           /* line of the record in its file, for messages */
  double toe;         /* s, time of ephemeris (an almanac's time of applicability) */
  double toe_sow;     /* s, the same as seconds of its GPS week (Omega_k needs it) */
  double toc;         /* s, clock reference time (an almanac's: toa) */
  double fit;         /* s, half the fit interval: the record is valid within it of toe */
  double af0, af1, af2; /* clock polynomial, s, s/s, s/s^2 */
  double tgd;         /* s, L1-L2 group delay (0 in an almanac) */
  double sqrt_a;      /* m^(1/2), square root of the semi-major axis */
  double e;           /* eccentricity */
  double i0, idot;    /* rad, rad/s: inclination at toe and its rate */
  double omega0;      /* rad, longitude of the ascending node at the week's start */
  double omega_dot;   /* rad/s, rate of right ascension */
  double omega;       /* rad, argument of perigee */
  double m0, dn;      /* rad, rad/s: mean anomaly at toe, mean motion difference */
  double cuc, cus;    /* rad, harmonic corrections of the argument of latitude */
  double crc, crs;    /* m, of the orbit radius */
  double cic, cis;    /* rad, of the inclination */
} sensim__gps_eph;

/* A navigation file's GPS content. */
typedef struct sensim__gnss_nav {
  sensim__gps_eph *eph; /* sorted by (prn, toe); owned */
  size_t n, cap;
  int almanac;          /* 1: a YUMA almanac */
  int has_iono;         /* the file gave Klobuchar alpha and beta */
  double alpha[4], beta[4];
  int leap_seconds;     /* the file's GPS - UTC, s; -1: not given */
  double first_toe;     /* s, the earliest toe of any record */
  size_t first[SENSIM__GPS_PRN_MAX + 1], count[SENSIM__GPS_PRN_MAX + 1]; /* each PRN's records */
} sensim__gnss_nav;

/* Read a RINEX 3.0x navigation file or a YUMA almanac (told apart by their
 * first line) into *out. `gps_hint` (GPS s, or NaN) places an almanac's
 * 10-bit week numbers: the 1024-week era nearest the hint, or without one
 * the era of 2019-04-07 to 2038-11-20. SENSIM_ENOTFOUND, SENSIM_EIO,
 * SENSIM_EPARSE ("path:line: ..."), SENSIM_ENOMEM; *out is untouched on
 * failure. */
sensim_status sensim__gnss_nav_load(const char *path, double gps_hint, sensim__gnss_nav *out);
void sensim__gnss_nav_free(sensim__gnss_nav *nav);
/* The parsers, over a whole file's text (NUL-terminated), appending to
 * `nav` (gnss_rinex.c, gnss_yuma.c); `path` names the file in messages. */
sensim_status sensim__gnss_read_rinex(const char *text, const char *path, sensim__gnss_nav *nav);
sensim_status sensim__gnss_read_yuma(const char *text, const char *path, double gps_hint,
                                     sensim__gnss_nav *nav);
/* Add one record to nav (grows the array). */
sensim_status sensim__gnss_nav_push(sensim__gnss_nav *nav, const sensim__gps_eph *e);
/* GPS seconds of a civil date and time read in GPS time (proleptic
 * Gregorian; days from civil by Hinnant's algorithm). */
double sensim__gps_from_civil(int year, int month, int day, int hour, int minute, double second);

/* The record of `prn` whose toe is nearest to t (GPS s), if |t - toe| is
 * within max_age (s; 0: the record's own fit), else NULL. */
const sensim__gps_eph *sensim__gnss_nav_select(const sensim__gnss_nav *nav, int prn, double t, double max_age);

/* ---- IS-GPS-200 user algorithm (gnss_orbit.c) ---- */

/* Satellite position in ECEF at the instant tk seconds after toe
 * (Table 20-IV: Kepler's equation by Newton's method, harmonic
 * corrections, Earth-fixed node longitude); *ek gets the eccentric
 * anomaly (for the relativistic clock term), may be NULL. */
void sensim__gps_orbit(const sensim__gps_eph *e, double tk, double pos[3], double *ek);
/* The same and the velocity, d pos / dt, by a central difference over
 * +-0.5 s (truncation error h^2 |x'''| / 6 < 2e-5 m/s for GPS orbits). */
void sensim__gps_orbit_vel(const sensim__gps_eph *e, double tk, double pos[3], double vel[3]);
/* Satellite clock offset for an L1 C/A user at tc seconds after toc
 * (20.3.3.3.3.1 and .3.2): af0 + af1 tc + af2 tc^2 + F e sqrt(A) sin(Ek) - TGD,
 * s, with Ek the eccentric anomaly at the same instant. */
double sensim__gps_clock(const sensim__gps_eph *e, double tc, double ek);
/* Its rate, s/s: af1 + 2 af2 tc (the relativistic term's rate, below
 * 1e-12 s/s, is left out). */
double sensim__gps_clock_rate(const sensim__gps_eph *e, double tc);
/* Rotate an ECEF vector by the Earth's rotation over tau seconds, from the
 * Earth-fixed frame of transmission to that of reception (R3(omega_e tau)). */
void sensim__gps_earth_rotate(double tau, const double in[3], double out[3]);

/* ---- signal delays (gnss_atmosphere.c) ---- */

/* Klobuchar ionospheric delay on L1, m (IS-GPS-200N 20.3.3.5.2.5, figure
 * 20-4): user geodetic latitude and longitude (rad), satellite elevation
 * and azimuth (rad), GPS time (s; of day modulo 86400 is taken). */
double sensim__klobuchar(const double alpha[4], const double beta[4], double lat, double lon, double el, double az,
                         double gps_time);
/* The standard atmosphere at ellipsoidal height h (m; clamped to
 * [-500, 11000]): pressure hPa, temperature K (ICAO / US Standard
 * Atmosphere 1976 troposphere), and water vapour pressure hPa at relative
 * humidity rh (saturation by Bolton 1980). */
void sensim__std_atmosphere(double h, double rh, double *p_hpa, double *t_k, double *e_hpa);
/* Saastamoinen tropospheric delay, m: zenith hydrostatic (Saastamoinen
 * 1972 as refined by Davis et al. 1985) plus zenith wet (Saastamoinen
 * 1972), each times 1 / sin(el) (el below 1 deg taken as 1 deg), for the
 * standard atmosphere at (lat rad, h m). */
double sensim__saastamoinen(double lat, double h, double el, double rh);
/* Its zenith delays, m, for given pressure (hPa), temperature (K) and
 * water vapour pressure (hPa) at (lat rad, h m). */
void sensim__saastamoinen_zenith(double lat, double h, double p_hpa, double t_k, double e_hpa, double *zhd,
                                 double *zwd);

/* ---- the receiver's configuration ---- */

typedef struct sensim__gnss_cfg {
  sensim_gnss_params p; /* as resolved; p.ephemeris points at path */
  char *path;           /* owned copy of the ephemeris path (satellites mode) */
  sensim__gnss_nav nav; /* satellites mode */
  double gps0;          /* GPS seconds since the GPS epoch at world time 0 */
  double sigma_report;  /* m, the pseudorange sigma of the reported covariance */
} sensim__gnss_cfg;

/* Check gp, read its ephemeris and resolve what it leaves to the file
 * (sensim_gnss_create's rules; `sp` for the window and the first capture).
 * The nominal mode only copies gp. */
sensim_status sensim__gnss_cfg_make(const sensim_sensor_params *sp, const sensim_gnss_params *gp,
                                    sensim__gnss_cfg **out);
void sensim__gnss_cfg_free(void *cfg);

/* The antenna (the sensor origin) at world time t: position (m) and
 * velocity (m/s) in the world frame, p = x + R r_mount, v = v_c + w x (R r)
 * (sensors/gnss.c). */
void sensim__gnss_antenna(const sensim_capture_ctx *ctx, double t, sensim_vec3 *pos, sensim_vec3 *vel);
/* Rows east, north, up of the ECEF -> local ENU rotation at a geodetic
 * latitude and longitude (deg). */
void sensim__gnss_enu_axes(double lat_deg, double lon_deg, double r[3][3]);
/* The satellites mode's generator (gnss_satellites.c). */
sensim_status sensim__gnss_sat_generate(sensim_capture_ctx ctx, sensim_frame *frame);

/* ---- visibility and multipath (gnss_sky.c) ---- */

enum { SENSIM__GNSS_LOST = 0, SENSIM__GNSS_LOS = 1, SENSIM__GNSS_REFLECTED = 2 };
enum { SENSIM__GNSS_MAX_NORMALS = 32 };

/* What the antenna sees around it at one instant: the capture's view and
 * the distinct surface orientations its probe rays found. */
typedef struct sensim__gnss_sky {
  const sensim_rt_view *view; /* the capture's view, NULL: nothing blocks */
  sensim_vec3 antenna;    /* world, m */
  sensim_vec3 velocity;   /* world, m/s */
  double t;               /* s, ray time */
  int skip;               /* the carrier's body index (its own mesh does not block); -1 */
  int multipath;          /* look for reflections */
  int nnormals;           /* -1 until probed */
  sensim_vec3 normals[SENSIM__GNSS_MAX_NORMALS]; /* unit, world, facing the antenna */
} sensim__gnss_sky;

/* The path of one satellite's signal. */
typedef struct sensim__gnss_path {
  int state;          /* SENSIM__GNSS_LOST, _LOS or _REFLECTED */
  double extra;       /* m, extra length of the reflected path over the direct one */
  double extra_rate;  /* m/s, its rate from the antenna's motion */
  sensim_vec3 normal; /* world: the reflecting surface's normal, facing the antenna */
  sensim_vec3 point;  /* world: the reflection point */
} sensim__gnss_path;

/* Set up the sky of one epoch (view may be NULL: open sky); the probe
 * rays run only once a satellite is found blocked. */
void sensim__gnss_sky_init(sensim__gnss_sky *sky, const sensim_rt_view *view, sensim_vec3 antenna, sensim_vec3 velocity,
                           double t, int skip, int multipath);
/* The paths to n satellites in world directions dir (unit). */
void sensim__gnss_sky_trace(sensim__gnss_sky *sky, const sensim_vec3 *dir, sensim__gnss_path *out, int n);

/* ---- one epoch's measurements (gnss_observe.c) ---- */

/* One satellite above the mask at one epoch. */
typedef struct sensim__gnss_obs {
  int prn;
  const sensim__gps_eph *eph; /* the record used (in the cfg's nav) */
  double el, az;              /* rad, at the true antenna (azimuth clockwise from north) */
  sensim_vec3 dir;            /* unit direction to the satellite, world frame */
  sensim__gnss_path path;     /* how the signal arrives */
  double rho;                 /* m, geometric range (reception frame) */
  double sat_pos[3];          /* m, ECEF of reception, at transmission */
  double sat_vel[3];          /* m/s, the same frame */
  double sat_clock;           /* s, the satellite clock offset at transmission */
  double iono, tropo;         /* m, delays in the pseudorange (0 when off) */
  double pseudorange;         /* m, as measured (NaN for a lost satellite) */
  double range_rate;          /* m/s, as measured (NaN for a lost satellite) */
} sensim__gnss_obs;

/* The true antenna (ECEF) and every satellite above the mask, traced and
 * measured, at the capture's time; `view` is the capture's (or NULL).
 * At most SENSIM__GPS_PRN_MAX satellites. */
sensim_status sensim__gnss_observe(const sensim_capture_ctx *ctx, const sensim_rt_view *view, sensim__gnss_obs *obs, int *n,
                                   double rx_ecef[3], double rx_vel[3]);

/* ---- the least-squares fix (gnss_solve.c) ---- */

typedef struct sensim__gnss_solution {
  int ok;                     /* 0: no fix (fewer than 4 satellites, singular or no convergence) */
  int used;                   /* satellites used */
  int iterations;
  double pos[3];              /* ECEF, m */
  double clock;               /* m, receiver clock bias times c */
  double vel[3];              /* ECEF, m/s */
  double drift;               /* m/s, clock drift times c */
  double q_enu[9];            /* (H^T H)^-1 position block in the local ENU frame at pos, row-major */
  double gdop, pdop, hdop, vdop, tdop;
} sensim__gnss_solution;

/* Dilutions of precision of unit lines of sight in a local ENU frame
 * (east, north, up components, n >= 4), from Q = (H^T H)^-1 with rows
 * H_i = [-los_i, 1] (Kaplan & Hegarty 2017, sec. 11.2). Fills the DOPs and
 * q_enu of *sol; 0 on success, -1 if H^T H is singular. */
int sensim__gnss_dops(const double (*los)[3], int n, sensim__gnss_solution *sol);
/* Solve position, clock, velocity and drift from the satellites of obs
 * that are not lost, as the receiver does: satellite positions from the
 * broadcast records at the transmission time its pseudoranges give, the
 * Earth's rotation over its own flight-time estimate, and the corrections
 * the cfg turns on; starts at x0 (ECEF). gps_rx: GPS time of reception. */
void sensim__gnss_solve(const sensim__gnss_cfg *cfg, double t_rx, const sensim__gnss_obs *obs, int n,
                        const double x0[3], sensim__gnss_solution *sol);

#endif
