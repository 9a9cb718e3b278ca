/* sensim/imu.h: the inertial measurement unit.
 *
 * An ideal strapdown IMU at the sensor's mount point: the accelerometer
 * reads specific force f = a_p - g (a_p the acceleration of the mount point,
 * g = (0, 0, -gravity)), the gyroscope the body's angular rate, both in the
 * sensor frame and both averaged over the collection window (trapezoidal
 * rule over the keyframes inside it). A level IMU at rest reads
 * (0, 0, +gravity). Noise is a filter ("imu_noise").
 *
 * Default window: 1 / rate (each sample averages its whole period, as an
 * IMU's decimation filter does); a window longer than 1 / rate is
 * SENSIM_EINVAL. Noise model, units and the magnetometer: docs/imu.md. */
#ifndef SENSIM_IMU_H
#define SENSIM_IMU_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

SENSIM_API sensim_status sensim_imu_create(sensim_world *world, const sensim_sensor_params *sp,
                                sensim_sensor **out);

#ifdef __cplusplus
}
#endif
#endif
