/* io/scenario_cone.h: the cone sensor's keys in a scenario file. Not
 * installed. */
#ifndef SENSIM_IO_SCENARIO_CONE_H
#define SENSIM_IO_SCENARIO_CONE_H

#include <cjson/cJSON.h>
#include "sensim/cone.h"

/* The cone's own keys, NULL-terminated, for the sensor's key check:
 * "theta_deg", "phi_deg", "length", "method", "lines", "rays",
 * "published_speed". */
extern const char *const sensim__scenario_cone_keys[];

/* Read the cone's keys of sensor object `obj` at JSON path `path` into *cp
 * (already holding sensim_cone_params_init's defaults); absent keys keep
 * their value. The result is checked (sensim_cone_params_check) with the
 * path in the message. On failure *cp may be partly changed (the caller
 * discards it). */
sensim_status sensim__scenario_cone(const cJSON *obj, const char *path, sensim_cone_params *cp);

#endif
