/* io/scenario_radar.h: the radar's keys in a scenario file (docs/radar.md,
 * "Scenario keys"). Not installed. */
#ifndef SENSIM_IO_SCENARIO_RADAR_H
#define SENSIM_IO_SCENARIO_RADAR_H

#include <cjson/cJSON.h>
#include "sensim/radar.h"

/* The radar's own keys, NULL-terminated, for the sensor's key check. */
extern const char *const sensim__scenario_radar_keys[];

/* Read the radar's keys of sensor object `obj` at JSON path `path` into
 * *rp (holding sensim_radar_params_init's defaults): "preset" first, then
 * every other key overrides it; absent keys keep their value. The result
 * is checked (sensim_radar_params_check) with the path in the message. On
 * failure *rp may be partly changed (the caller discards it). */
sensim_status sensim__scenario_radar(const cJSON *obj, const char *path, sensim_radar_params *rp);

#endif
