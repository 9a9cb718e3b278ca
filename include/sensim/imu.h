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
 * SENSIM_EINVAL. Noise model, units and the magnetometer: docs/imu.md.
 *
 * The world frame is taken as inertial unless earth_rotation is set: then
 * the world is the local ENU frame at the origin's latitude phi, turning
 * with the Earth at Omega = 7.292115e-5 rad/s (WGS84), Omega_enu =
 * Omega (0, cos phi, sin phi). The gyroscope adds Omega_enu to the body's
 * rate, and the accelerometer the Coriolis term 2 Omega_enu x v_p for the
 * mount point's velocity v_p relative to the world (Titterton & Weston,
 * "Strapdown Inertial Navigation Technology", 2nd ed., sec. 3.5). The
 * centrifugal term belongs to the world's gravity (local plumb-line
 * gravity, as measured); its change across the world, 5e-6 m/s^2 per km,
 * is neglected. */
#ifndef SENSIM_IMU_H
#define SENSIM_IMU_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_imu_params {
  int earth_rotation; /* 1: the Earth's rate and the Coriolis term are sensed; 0: inertial world [0] */
} sensim_imu_params;

/* Defaults: an inertial world (earth_rotation 0), as most robot simulations
 * treat it; set 1 for navigation-grade gyros, which sense the Earth's
 * 15 deg/h. */
SENSIM_API void sensim_imu_params_init(sensim_imu_params *p);

/* Create an IMU (`ip` is copied). SENSIM_EINVAL for NULL pointers,
 * earth_rotation other than 0 or 1, a window longer than 1 / rate, and the
 * schedule errors every sensor has. */
SENSIM_API sensim_status sensim_imu_create(sensim_world *world, const sensim_sensor_params *sp,
                                           const sensim_imu_params *ip, sensim_sensor **out);

#ifdef __cplusplus
}
#endif
#endif
