/* io/scenario_magnetometer.h: a magnetometer's own keys in a scenario file
 * (io/scenario_magnetometer.c; docs/imu.md, "Scenario keys"). Not
 * installed. */
#ifndef SENSIM_IO_SCENARIO_MAGNETOMETER_H
#define SENSIM_IO_SCENARIO_MAGNETOMETER_H

#include <cjson/cJSON.h>
#include "sensim/magnetometer.h"

/* The kind's keys, NULL-terminated, for the sensor section's key check:
 * "mag_model" ("dipole" | "constant"), "field_enu" ([E, N, U] T),
 * "field_enu_ut" ([E, N, U] uT), "gauss_nt" ([g10, g11, h11] nT),
 * "ref_radius" (m). */
extern const char *const sensim__scenario_magnetometer_keys[];

/* Read those keys of sensor object `obj` (at JSON path `path`) into *mp,
 * which holds sensim_magnetometer_params_init's defaults or earlier
 * values. SENSIM_EPARSE for a wrong type, SENSIM_EINVAL for an unknown
 * model, non-finite values, both field_enu and field_enu_ut, a field given
 * with model "dipole" or Gauss coefficients with "constant". *mp is changed
 * only on success. */
sensim_status sensim__scenario_magnetometer(const cJSON *obj, const char *path,
                                            sensim_magnetometer_params *mp);

#endif
