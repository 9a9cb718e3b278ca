/* sensim/lidar.h: the spinning lidar.
 *
 * Channels fire together at each azimuth step; the head turns
 * counter-clockwise (seen from above) from azimuth `start_azimuth`, through
 * `hfov`, over the collection window, so each column is traced at its own
 * time and a scan taken while moving is distorted as a real one is.
 * Intensity = material reflectance x |cos(incidence)|. The raw payload is
 * beams, one per channel and column (range 0 where nothing returned); the
 * "points" filter turns them into a point cloud in the sensor frame.
 *
 * Default window: 1 / rate (one revolution per frame). */
#ifndef SENSIM_LIDAR_H
#define SENSIM_LIDAR_H

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SENSIM_LIDAR_MAX_CHANNELS 256

typedef struct sensim_lidar_params {
  int channels;           /* number of beams in a column, 1..256 */
  double elev_min;        /* lowest channel's elevation, rad (uniform table) */
  double elev_max;        /* highest channel's elevation, rad (uniform table) */
  const double *elevations; /* optional per-channel elevations, rad, ascending;
                             `channels` values, copied; NULL: uniform table */
  int columns;            /* azimuth steps per scan, >= 1 */
  double hfov;            /* horizontal field of view swept per scan, rad, (0, 2 pi] */
  double start_azimuth;   /* azimuth of the first column, rad, CCW from +X */
  double min_range;       /* m, returns nearer are dropped */
  double max_range;       /* m, returns farther are dropped */
} sensim_lidar_params;

/* Defaults: a 16-channel spinning lidar, -15..+15 deg, 1800 columns over
 * 360 deg starting at -pi, 0.1 .. 100 m. */
void sensim_lidar_params_init(sensim_lidar_params *p);

sensim_status sensim_lidar_create(sensim_world *world, const sensim_sensor_params *sp,
                                  const sensim_lidar_params *lp, sensim_sensor **out);

#ifdef __cplusplus
}
#endif
#endif
