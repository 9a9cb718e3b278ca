/* io/scenario_gnss.h: a GNSS sensor's own keys in a scenario file.
 * Not installed. */
#ifndef SENSIM_IO_SCENARIO_GNSS_H
#define SENSIM_IO_SCENARIO_GNSS_H

#include <cjson/cJSON.h>
#include "sensim/gnss.h"

/* The receiver's keys (both modes'), NULL-terminated, for the sensor
 * object's list of known keys. */
extern const char *const sensim__scenario_gnss_keys[];

/* Read the receiver's keys of sensor object `obj` (at JSON path `path`)
 * into gp, which holds the defaults on entry; gp->ephemeris borrows the
 * string inside obj (the scenario loader has already made a relative name
 * relative to the scenario's folder). A key of the other mode, a wrong type
 * (SENSIM_EPARSE) or a value out of range (SENSIM_EINVAL) fails; gp is
 * changed only on success. Other keys of obj are not looked at. */
sensim_status sensim__scenario_gnss(const cJSON *obj, const char *path, sensim_gnss_params *gp);

#endif
