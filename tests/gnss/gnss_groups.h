/* tests/gnss/gnss_groups.h: the GNSS test binary's groups and the helpers
 * they share (tests/gnss/gnss_util.c). */
#ifndef SENSIM_TESTS_GNSS_GROUPS_H
#define SENSIM_TESTS_GNSS_GROUPS_H

#include <stdint.h>
#include "sensim/sensim.h"

int sensim_test_gnss_geodesy(void);
int sensim_test_gnss_receiver(void);
int sensim_test_gnss_noise_models(void);
int sensim_test_gnss_hdop_outage(void);
int sensim_test_gnss_nmea(void);
int sensim_test_gnss_outputs(void);
int sensim_test_gnss_satellite_orbits(void);
int sensim_test_gnss_satellite_models(void);
int sensim_test_gnss_satellite_fixes(void);
int sensim_test_gnss_satellite_sky(void);
int sensim_test_gnss_satellite_inputs(void);

/* A built-in filter's user struct from JSON text (NULL: defaults); fails the
 * test on error. */
void *gt_filter(const char *name, const char *json);
/* create() of a filter with parameters as text; returns its status (the
 * user struct, if any, is destroyed). */
sensim_status gt_filter_status(const char *name, const char *json);
/* create() with a cJSON object built by the test. */
sensim_status gt_filter_status_obj(const char *name, const void *cjson);
/* create() with {key: NaN} (NaN cannot be written in JSON text). */
sensim_status gt_filter_status_nan(const char *name, const char *key);
/* Run the filter's apply() on f with the context a chain gives, the stream
 * keyed by (seed, stream, f->index). */
void gt_apply(const char *name, void *user, sensim_frame *f, uint32_t stream);
void gt_filter_free(const char *name, void *user);

/* A one-fix frame at time t holding the true ENU position `enu` at the
 * origin used by these tests, speed/course filled, fix_type 1. */
void gt_frame(sensim_frame *f, sensim_gnss_fix *fix, uint64_t index, double t,
              const double enu[3]);
extern const double gt_origin[3];

/* ---- the satellites mode (tests/gnss/satellite_*.c) ---- */

/* The shipped broadcast ephemeris (tests/data/gnss/README.md). */
#define GT_BRDC SENSIM_TEST_DATA "/gnss/brdc1820.10_0000_gps.rnx"
/* A world at gt_origin with `threads` workers; fails the test on error. */
sensim_world *gt_sat_world(int threads);
/* Defaults in the satellites mode over GT_BRDC; `exact` nonzero turns off
 * every error (noise, ionosphere, troposphere). */
void gt_sat_params(sensim_gnss_params *gp, int exact);
/* Frame k's fix of a sensor after advancing to its capture (polls every
 * frame due; the fix is copied). */
sensim_gnss_fix gt_next_fix(sensim_world *w, sensim_sensor *s, double t);

#endif
