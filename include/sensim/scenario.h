/* sensim/scenario.h: JSON scenario files.
 *
 * A scenario describes a world, its meshes and bodies with scripted motion,
 * its sensors with their filter chains, and what to write; docs/scenario.md
 * documents every key. Comments (// and slash-star) are allowed. */
#ifndef SENSIM_SCENARIO_H
#define SENSIM_SCENARIO_H

#include "sensim/export.h"

#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_scenario sensim_scenario;

/* Load and build a scenario from a file. Relative mesh paths are resolved
 * against the file's folder. On failure nothing is left allocated and
 * sensim_last_error() names the key at fault. */
SENSIM_API sensim_status sensim_scenario_load(const char *path, sensim_scenario **out);
/* What a caller may override in the file (a command line's --threads). */
typedef struct sensim_scenario_overrides {
  int threads; /* worker threads; < 0: as the file says */
} sensim_scenario_overrides;

/* sensim_scenario_load() with overrides; `ov` may be NULL. */
SENSIM_API sensim_status sensim_scenario_load_ex(const char *path, const sensim_scenario_overrides *ov,
                                      sensim_scenario **out);

/* The same from a JSON text; relative paths resolve against `base_dir`
 * (NULL: the current folder). */
SENSIM_API sensim_status sensim_scenario_load_string(const char *json, const char *base_dir,
                                          sensim_scenario **out);
SENSIM_API void sensim_scenario_destroy(sensim_scenario *scn);

/* The scenario's world (owned by the scenario). */
SENSIM_API sensim_world *sensim_scenario_world(sensim_scenario *scn);
/* Simulated duration and host step from the file, s. */
SENSIM_API double sensim_scenario_duration(const sensim_scenario *scn);
SENSIM_API double sensim_scenario_step(const sensim_scenario *scn);

typedef struct sensim_run_summary {
  double sim_time;        /* simulated seconds run */
  double wall_time;       /* wall-clock seconds taken */
  size_t sensors;         /* number of sensors */
  uint64_t frames[64];    /* frames delivered per sensor (first 64 sensors) */
} sensim_run_summary;

/* Step the scenario's scripted bodies from t = 0 to its duration, advancing
 * the world each step and writing every delivered frame under out_dir, one
 * folder per sensor (NULL: write nothing). `progress`, if not NULL, is called
 * about once per simulated second with the simulation time. */
SENSIM_API sensim_status sensim_scenario_run(sensim_scenario *scn, const char *out_dir,
                                  void (*progress)(double t, double duration, void *user),
                                  void *user, sensim_run_summary *summary);

#ifdef __cplusplus
}
#endif
#endif
