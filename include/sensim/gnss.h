/* sensim/gnss.h: the GNSS receiver and WGS84 geodesy.
 *
 * The receiver reports the position of its antenna (the sensor origin) as
 * WGS84 latitude, longitude and ellipsoidal height, its ENU position and
 * velocity in the world frame (the world's local ENU frame at its origin:
 * world X east, Y north, Z up), speed over ground and course, the number of
 * satellites used and the dilutions of precision. Two modes:
 *
 *  - SENSIM_GNSS_NOMINAL: the antenna's true position with nominal
 *    satellites and DOPs; receiver errors are filters ("gnss_noise",
 *    "gnss_random_walk", "gnss_hdop", "gnss_gauss_markov", "gnss_outage";
 *    docs/gnss.md).
 *  - SENSIM_GNSS_SATELLITES: the fix a receiver computes from a GPS
 *    constellation. Satellite orbits and clocks come from a broadcast
 *    ephemeris (RINEX 3 navigation file) or a YUMA almanac at the
 *    simulated time (IS-GPS-200 user algorithm); each satellite's line of
 *    sight is ray-traced against the world's geometry (blocked: lost unless
 *    a specular reflection reaches the antenna, which then delays it);
 *    pseudoranges carry the Klobuchar ionosphere, the Saastamoinen
 *    troposphere, receiver noise and that multipath delay; an iterated
 *    least-squares solution gives position, receiver clock, velocity (from
 *    range rates), DOPs of the satellites used and the covariance. Fewer
 *    than 4 usable satellites: no fix (fix_type 0). docs/gnss.md has every
 *    formula and its source. The filters apply to either mode.
 *
 * Update rate, phase and lag are the sensor schedule's (sensor.h). The
 * schedule's window is the receiver's collection window: position and
 * velocity are the time averages over [t - window, t] (0, the default, is an
 * instantaneous fix). A window longer than the update period 1 / rate is
 * refused: a receiver forms one solution per epoch from the measurements of
 * that epoch, so consecutive fixes never share measurements. The satellites
 * mode measures at the capture instant and takes window 0 only. */
#ifndef SENSIM_GNSS_H
#define SENSIM_GNSS_H

#include "sensim/export.h"

#include "sensim/geodesy.h"
#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Below this speed over ground (m/s) the course is reported as 0: the
 * direction of a vanishing velocity is numerical noise. 1e-9 m/s is far
 * below the 0.001 knot (0.5 mm/s) resolution of the NMEA output. */
#define SENSIM_GNSS_COURSE_MIN_SPEED 1e-9

/* How the receiver forms its fix. */
typedef enum sensim_gnss_mode {
  SENSIM_GNSS_NOMINAL = 0,   /* true position, nominal satellites and DOPs */
  SENSIM_GNSS_SATELLITES = 1 /* least squares over a simulated GPS constellation */
} sensim_gnss_mode;

/* GPS time minus UTC when no file says otherwise: 18 s since 2017-01-01
 * (IERS Bulletin C 52; GPS time has no leap seconds since 1980-01-06). */
#define SENSIM_GNSS_DEFAULT_LEAP_SECONDS 18

typedef struct sensim_gnss_params {
  /* ---- nominal mode ---- */
  int satellites; /* satellites reported used in the fix, [0, 99] (0 = not reported) [10] */
  double hdop;    /* nominal horizontal DOP reported, [0, 1000) (0 = not reported) [0.9] */
  double vdop;    /* nominal vertical DOP reported, [0, 1000) (0 = not reported) [1.5];
                     PDOP is reported as sqrt(hdop^2 + vdop^2) (Kaplan & Hegarty,
                     "Understanding GPS/GNSS", 3rd ed., 2017, sec. 11.2) */
  sensim_gnss_mode mode; /* [SENSIM_GNSS_NOMINAL] */

  /* ---- satellites mode (ignored in the nominal mode) ---- */
  const char *ephemeris;    /* path of a RINEX 3.0x navigation file (its GPS records) or a
                               YUMA almanac, told apart by content; read when the sensor is
                               created (borrowed for the call) [NULL] */
  double utc_start;         /* UTC at world time 0, POSIX s, [0, 4102444800) (before 2100);
                               0: the toe of the file's first GPS record [0] */
  int leap_seconds;         /* GPS time - UTC, s, [0, 100]; -1: the file's LEAP SECONDS, else
                               SENSIM_GNSS_DEFAULT_LEAP_SECONDS [-1] */
  double max_ephemeris_age; /* s, a record is used within this of its toe (toa); 0: half the
                               record's fit interval (RINEX; 2 h for the usual 4 h), 7 days for
                               an almanac [0] */
  double elevation_mask;    /* rad, [0, pi/2): satellites lower than this are not tracked
                               [5 deg = 0.0872665] */
  int visibility;           /* ray-trace each line of sight against the world's geometry [1] */
  int multipath;            /* with visibility: a blocked satellite is tracked over a
                               single specular reflection when one reaches the antenna,
                               delayed by the extra path [1] */
  int ionosphere;           /* pseudoranges carry the Klobuchar ionospheric delay (L1) [1] */
  int troposphere;          /* pseudoranges carry the Saastamoinen tropospheric delay [1] */
  int correct_ionosphere;   /* the receiver removes the broadcast Klobuchar model [0] */
  int correct_troposphere;  /* the receiver removes the Saastamoinen model [0] */
  double iono_alpha[4];     /* Klobuchar alpha_0..3, s, s/semicircle, s/sc^2, s/sc^3; NaN:
                               the file's GPSA line [NaN] */
  double iono_beta[4];      /* Klobuchar beta_0..3, s, s/sc, s/sc^2, s/sc^3; NaN: the file's
                               GPSB line [NaN] */
  double humidity;          /* relative humidity of the standard atmosphere, [0, 1] [0.5] */
  double range_sigma;       /* m, >= 0: white noise on each pseudorange [0.5] */
  double range_rate_sigma;  /* m/s, >= 0: white noise on each range rate (Doppler) [0.05] */
  double reported_sigma;    /* m, >= 0: pseudorange standard deviation the receiver's
                               reported covariance assumes (cov = sigma^2 (H^T H)^-1);
                               0: no covariance reported; -1: range_sigma [-1] */
} sensim_gnss_params;

/* Defaults: nominal mode, 10 satellites, HDOP 0.9, VDOP 1.5 (open sky);
 * the satellites mode's fields as marked above. */
SENSIM_API void sensim_gnss_params_init(sensim_gnss_params *p);

/* Create a receiver (`gp` is copied; in the satellites mode the ephemeris
 * file is read now). SENSIM_EINVAL for NULL pointers, a parameter out of
 * its range (NaN included), a window longer than 1 / rate (satellites
 * mode: any window), a satellites mode without an ephemeris, without
 * ionosphere coefficients while an ionosphere option is on, or whose first
 * capture (utc_start + phase) no healthy GPS record is valid for;
 * SENSIM_ENOTFOUND / SENSIM_EIO for a file that cannot be read,
 * SENSIM_EPARSE (message "file:line: ...") for a malformed one. On failure
 * nothing is created. */
SENSIM_API sensim_status sensim_gnss_create(sensim_world *world, const sensim_sensor_params *sp,
                                            const sensim_gnss_params *gp, sensim_sensor **out);

/* The receiver's parameters as resolved at creation (utc_start,
 * leap_seconds and the Klobuchar coefficients filled in from the file
 * where they were left to it; ephemeris points at the sensor's own copy of
 * the path, valid while the sensor lives; NULL in the nominal mode).
 * SENSIM_EINVAL for NULL arguments or a sensor of another kind. */
SENSIM_API sensim_status sensim_gnss_params_get(const sensim_sensor *sensor, sensim_gnss_params *out);

/* Fill fix->speed (horizontal speed, m/s) and fix->course (deg clockwise
 * from true north, [0, 360); 0 below SENSIM_GNSS_COURSE_MIN_SPEED) from
 * fix->vel_enu. */
SENSIM_API void sensim_gnss_fill_speed_course(sensim_gnss_fix *fix);

#ifdef __cplusplus
}
#endif
#endif
