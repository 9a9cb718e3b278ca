/* filters/imu_units.h: datasheet units of inertial and magnetic sensor
 * parameters and their SI values, in one place (filters/imu_units.c;
 * docs/imu.md, "Units"). Not installed.
 *
 * A parameter key is a base name followed by an optional unit suffix:
 * "gyro_noise_density" is in SI (rad/s/sqrt(Hz)), "gyro_noise_density_dps_per_rthz"
 * in (deg/s)/sqrt(Hz), "gyro_arw_deg_per_rth" ... Each base name has a
 * physical dimension; a suffix is accepted only for its own dimension. */
#ifndef SENSIM_FILTERS_IMU_UNITS_H
#define SENSIM_FILTERS_IMU_UNITS_H

#include <stddef.h>
#include "sensim/units.h"

/* Standard gravity g0, m/s^2 (CGPM 1901; ISO 80000-3), the g of "mg"/"ug". */
#define SENSIM__G0 9.80665

/* The SI factor of a key's unit suffix for dimension `dim`: on success
 * *factor is the number a value in that unit is multiplied by to give SI,
 * and the return is the length of the base name (key without the suffix).
 * A key equal to `base` exactly is SI (factor 1). Returns 0 when `key` is
 * not `base` followed by a suffix known for `dim`. */
size_t sensim__unit_match(const char *key, const char *base, sensim_unit_dim dim, double *factor);

/* The suffixes known for `dim`, NULL-terminated (for messages and docs). */
const char *const *sensim__unit_suffixes(sensim_unit_dim dim);

/* Allan-variance peak of a first-order Gauss-Markov process, as a fraction
 * of its variance: max over tau of AVAR(tau) / sigma^2 (see imu_units.c).
 * A datasheet bias instability BI (the flat floor of the Allan deviation)
 * is mapped to the GM sigma that peaks there: sigma = BI / sqrt(this). */
double sensim__gm_avar_peak(void);

/* AVAR(tau) / sigma^2 of a first-order Gauss-Markov process of correlation
 * time T, at x = tau / T > 0 (IEEE Std 952-1997, Annex C, exponentially
 * correlated noise). */
double sensim__gm_avar_ratio(double x);

#endif
