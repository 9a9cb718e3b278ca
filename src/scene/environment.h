/* scene/environment.h: the world's environment as the renderer uses it:
 * radiance along an escaping ray, and directions sampled with their
 * density (solid angle) for next-event estimation. Built once when set,
 * immutable after, so capture jobs read it without locks. Not installed. */
#ifndef SENSIM_SCENE_ENVIRONMENT_H
#define SENSIM_SCENE_ENVIRONMENT_H

#include "sensim/environment.h"
#include "scene/scene.h"

typedef struct sensim_env {
  sensim_environment desc; /* what the host set */
} sensim_env;

/* A uniform environment of radiance L (no allocation; the path integrator
 * makes one from the world's background when the world has none). */
void sensim__env_uniform(sensim_env *e, const float L[3]);

/* Radiance arriving from unit world direction d (d points away from the
 * scene, along the escaping ray). */
void sensim__env_radiance(const sensim_env *e, const float d[3], float L[3]);

/* A unit direction d drawn from the uniforms (u1, u2) in [0, 1), its
 * radiance L and its density (1/sr); 0 when nothing could be drawn. */
float sensim__env_sample(const sensim_env *e, float u1, float u2, float d[3], float L[3]);

/* The density (1/sr) with which sensim__env_sample draws direction d. */
float sensim__env_pdf(const sensim_env *e, const float d[3]);

/* Free every environment the world built (sensim_world_destroy). */
void sensim__env_free_all(sensim_world *w);

#endif
