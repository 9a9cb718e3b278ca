/* sensim/magnetometer.h: the three-axis magnetometer.
 *
 * Reads the Earth's magnetic flux density at the sensor, resolved in the
 * sensor frame, in tesla: b_s = R_sensor^T b_world, b_world in the world's
 * ENU frame (X east, Y north, Z up). Two field models:
 *   CONSTANT  a given world-frame (ENU) vector, the same everywhere;
 *   DIPOLE    the tilted centred dipole of the first-degree Gauss
 *             coefficients g10, g11, h11 (IGRF; default IGRF-13 at epoch
 *             2020.0, Alken et al. 2021, Earth Planets Space 73:49),
 *             evaluated at the sensor's WGS84 position (the world origin +
 *             the sensor's ENU position) and expressed in the world's ENU
 *             frame. docs/imu.md gives the equations.
 * Over a collection window > 0 the sample is the time average of the
 * sensor-frame readings (trapezoidal rule over the carrier's keyframes), as
 * for the IMU; the default window is 0 (an instantaneous reading). Noise,
 * hard and soft iron are the "mag_noise" filter. */
#ifndef SENSIM_MAGNETOMETER_H
#define SENSIM_MAGNETOMETER_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_mag_model {
  SENSIM_MAG_CONSTANT = 0, /* field_enu everywhere */
  SENSIM_MAG_DIPOLE = 1    /* tilted centred dipole from (g10, g11, h11) */
} sensim_mag_model;

typedef struct sensim_magnetometer_params {
  sensim_mag_model model;
  double field_enu[3]; /* CONSTANT: flux density in the world ENU frame, T */
  double g10, g11, h11; /* DIPOLE: Gauss coefficients, nT (Schmidt semi-normalised) */
  double ref_radius;    /* DIPOLE: reference radius a of the expansion, m (6371200) */
} sensim_magnetometer_params;

/* Defaults: DIPOLE with IGRF-13 at 2020.0: g10 = -29404.8, g11 = -1450.9,
 * h11 = 4652.5 nT, a = 6371.2 km; field_enu = (0, 2e-5, -4.5e-5) T
 * (a mid-latitude northern field, used when model is CONSTANT). */
SENSIM_API void sensim_magnetometer_params_init(sensim_magnetometer_params *p);

/* Create a magnetometer. `mp` is copied. SENSIM_EINVAL for NULL pointers,
 * an unknown model, non-finite numbers, a dipole with all coefficients 0 or
 * a reference radius <= 0, a window longer than the sample period
 * 1 / rate, and the schedule errors every sensor has. */
SENSIM_API sensim_status sensim_magnetometer_create(sensim_world *world, const sensim_sensor_params *sp,
                                         const sensim_magnetometer_params *mp,
                                         sensim_sensor **out);

/* The model's field in the world ENU frame, T, at the WGS84 position
 * (lat deg, lon deg, ellipsoidal height m) for a world whose ENU origin is
 * origin = (lat0 deg, lon0 deg, h0 m). SENSIM_EINVAL for NULL pointers,
 * non-finite input or latitudes outside [-90, 90]. */
SENSIM_API sensim_status sensim_magnetometer_field(const sensim_magnetometer_params *mp,
                                        const double origin[3], double lat, double lon,
                                        double height, double field_enu[3]);

#ifdef __cplusplus
}
#endif
#endif
