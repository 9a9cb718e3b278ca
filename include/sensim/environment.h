/* sensim/environment.h: the light that reaches the scene from infinitely
 * far away (the sky), as the path integrator sees it (docs/rendering.md).
 *
 * The world owns one environment. The path integrator samples it as a light
 * (next-event estimation) and adds it where rays escape; the direct
 * integrator keeps the world's background and ambient terms. Radiance is
 * in the camera's linear radiance units, W/(sr m^2) per RGB channel. */
#ifndef SENSIM_ENVIRONMENT_H
#define SENSIM_ENVIRONMENT_H

#include "sensim/export.h"

#include "sensim/status.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_environment_type {
  SENSIM_ENVIRONMENT_NONE = 0,   /* no environment: the path integrator sees the
                                    world's background as uniform radiance */
  SENSIM_ENVIRONMENT_UNIFORM = 1 /* the same radiance from every direction */
} sensim_environment_type;

typedef struct sensim_environment {
  sensim_environment_type type;
  float radiance[3]; /* UNIFORM: radiance, W/(sr m^2) per linear RGB channel,
                        each finite and >= 0 */
} sensim_environment;

/* Defaults: NONE, radiance 1 (what UNIFORM then gives). */
SENSIM_API void sensim_environment_init(sensim_environment *env);

/* Replace the world's environment (copied) for every capture that starts
 * at a later sensim_world_advance; captures already started keep theirs.
 * SENSIM_EINVAL naming the field, the environment unchanged, for NULL
 * arguments, an unknown type or a value out of range. */
SENSIM_API sensim_status sensim_world_set_environment(sensim_world *world, const sensim_environment *env);

/* The environment as last set (NONE if never set). SENSIM_EINVAL for NULL. */
SENSIM_API sensim_status sensim_world_get_environment(const sensim_world *world, sensim_environment *out);

/* The same from JSON text, the scenario's "world": {"environment": ...}
 * (docs/scenario.md): {"type": "none"} or {"type": "uniform",
 * "radiance": [r, g, b]}. `source` names the text in messages (NULL:
 * "environment"). SENSIM_EPARSE / SENSIM_EINVAL naming the key, the
 * environment unchanged, on bad input. */
SENSIM_API sensim_status sensim_world_set_environment_json(sensim_world *world, const char *json,
                                                           const char *source);

#ifdef __cplusplus
}
#endif
#endif
