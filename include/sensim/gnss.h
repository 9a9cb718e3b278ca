/* sensim/gnss.h: the GNSS receiver and WGS84 geodesy.
 *
 * The receiver reports the true position of its antenna (the sensor origin)
 * as WGS84 latitude, longitude and ellipsoidal height, its ENU position and
 * velocity in the world frame (the world's local ENU frame at its origin:
 * world X east, Y north, Z up). Noise is a filter ("gnss_noise").
 *
 * Default window: 0 (an instantaneous fix). */
#ifndef SENSIM_GNSS_H
#define SENSIM_GNSS_H

#include "sensim/geodesy.h"
#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

sensim_status sensim_gnss_create(sensim_world *world, const sensim_sensor_params *sp,
                                 sensim_sensor **out);

#ifdef __cplusplus
}
#endif
#endif
