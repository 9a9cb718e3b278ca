/* sensim/gnss.h: the GNSS receiver and WGS84 geodesy.
 *
 * The receiver reports the position of its antenna (the sensor origin) as
 * WGS84 latitude, longitude and ellipsoidal height, its ENU position and
 * velocity in the world frame (the world's local ENU frame at its origin:
 * world X east, Y north, Z up), speed over ground and course, the number of
 * satellites used and nominal dilutions of precision. Receiver errors are
 * filters ("gnss_noise", "gnss_random_walk", "gnss_hdop",
 * "gnss_gauss_markov", "gnss_outage"; docs/gnss.md).
 *
 * Update rate, phase and lag are the sensor schedule's (sensor.h). The
 * schedule's window is the receiver's collection window: position and
 * velocity are the time averages over [t - window, t] (0, the default, is an
 * instantaneous fix). A window longer than the update period 1 / rate is
 * refused: a receiver forms one solution per epoch from the measurements of
 * that epoch, so consecutive fixes never share measurements. */
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

typedef struct sensim_gnss_params {
  int satellites; /* satellites reported used in the fix, [0, 99] (0 = not reported) [10] */
  double hdop;    /* nominal horizontal DOP reported, [0, 1000) (0 = not reported) [0.9] */
  double vdop;    /* nominal vertical DOP reported, [0, 1000) (0 = not reported) [1.5];
                     PDOP is reported as sqrt(hdop^2 + vdop^2) (Kaplan & Hegarty,
                     "Understanding GPS/GNSS", 3rd ed., 2017, sec. 11.2) */
} sensim_gnss_params;

/* Defaults: 10 satellites, HDOP 0.9, VDOP 1.5 (open sky). */
SENSIM_API void sensim_gnss_params_init(sensim_gnss_params *p);

/* Create a receiver (`gp` is copied). SENSIM_EINVAL for NULL pointers, a
 * parameter out of its range (NaN included) or a window longer than
 * 1 / rate; on failure nothing is created. */
SENSIM_API sensim_status sensim_gnss_create(sensim_world *world, const sensim_sensor_params *sp,
                                            const sensim_gnss_params *gp, sensim_sensor **out);

/* Fill fix->speed (horizontal speed, m/s) and fix->course (deg clockwise
 * from true north, [0, 360); 0 below SENSIM_GNSS_COURSE_MIN_SPEED) from
 * fix->vel_enu. */
SENSIM_API void sensim_gnss_fill_speed_course(sensim_gnss_fix *fix);

#ifdef __cplusplus
}
#endif
#endif
