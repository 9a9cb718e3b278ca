/* sensim/units.h: the datasheet units that the inertial and magnetic noise
 * filters accept in their parameters, with their SI factors (docs/imu.md,
 * "Units"; the derivations are in filters/imu_units.c).
 *
 * A filter parameter key is a base name followed by an optional unit
 * suffix: "gyro_noise_density" is SI (rad/s/sqrt(Hz)),
 * "gyro_noise_density_deg_per_rth" the same quantity as an angle random
 * walk in deg/sqrt(h). Each base name has a physical dimension, and a
 * suffix is accepted only for its own dimension. Programs that read or
 * print datasheet figures (an Allan-deviation report) convert with the
 * same factors through sensim_unit_factor. */
#ifndef SENSIM_UNITS_H
#define SENSIM_UNITS_H

#include "sensim/export.h"

#include "sensim/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_unit_dim {
  SENSIM_DIM_ACCEL = 0,   /* m/s^2: accelerometer bias, range, resolution, sigma */
  SENSIM_DIM_GYRO,        /* rad/s: gyroscope bias, range, resolution, sigma */
  SENSIM_DIM_ACCEL_DENS,  /* m/s^2/sqrt(Hz) = m/s/sqrt(s): velocity random walk */
  SENSIM_DIM_GYRO_DENS,   /* rad/s/sqrt(Hz) = rad/sqrt(s): angle random walk */
  SENSIM_DIM_ACCEL_WALK,  /* m/s^3/sqrt(Hz) = m/s^2/sqrt(s): accel bias random walk */
  SENSIM_DIM_GYRO_WALK,   /* rad/s^2/sqrt(Hz) = rad/s/sqrt(s): rate random walk */
  SENSIM_DIM_RATIO,       /* dimensionless: scale factor */
  SENSIM_DIM_ANGLE,       /* rad: misalignment (small angles) */
  SENSIM_DIM_TIME,        /* s: correlation and drift times */
  SENSIM_DIM_FIELD        /* T: magnetic flux density */
} sensim_unit_dim;

/* The SI factor of the unit `suffix` of dimension `dim`, the suffix as a
 * parameter key carries it without its leading '_' ("deg_per_rth",
 * "ug_per_rthz", "ppm"): a value in that unit times *factor is in SI. ""
 * is SI itself (factor 1). SENSIM_ENOTFOUND for a suffix not known for
 * `dim` (the message lists the known ones), SENSIM_EINVAL for NULL
 * arguments or a `dim` out of range. *factor is written only on success. */
SENSIM_API sensim_status sensim_unit_factor(sensim_unit_dim dim, const char *suffix, double *factor);

#ifdef __cplusplus
}
#endif
#endif
