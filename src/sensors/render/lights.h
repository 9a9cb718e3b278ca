/* sensors/render/lights.h: every light of a capture behind one interface,
 * for the path integrator's next-event estimation: pick a light, draw a
 * direction towards it, and say with what density (PBRT-v4's
 * Light::SampleLi / PDF_Li split). Not installed.
 *
 * Lights: the world's point, spot and directional lights (delta
 * distributions: no density, no multiple importance sampling) and the
 * environment. One light is picked per vertex, uniformly. */
#ifndef SENSIM_RENDER_LIGHTS_H
#define SENSIM_RENDER_LIGHTS_H

#include "scene/environment.h"
#include "scene/scene.h"

typedef struct sensim_light_set {
  const sensim_light *lights; /* the snapshot's */
  size_t nlights;
  const sensim_env *env;      /* NULL: no environment light */
  float p_pick;               /* 1 / (lights to pick from) */
} sensim_light_set;

typedef struct sensim_light_sample {
  float wi[3];  /* unit direction from the point to the light, world */
  float dist;   /* how far the shadow ray goes (INFINITY: to infinity) */
  float L[3];   /* radiance (delta lights: irradiance at normal incidence)
                   over the density of the pick and the direction */
  float pdf;    /* density of wi (1/sr) with the pick; 0: a delta light */
  int shadow;   /* nonzero: occlusion is traced (the light casts shadows) */
} sensim_light_sample;

/* The lights of a snapshot and an environment (NULL or black: none). */
void sensim__light_set_init(sensim_light_set *ls, const sensim_snapshot *snap, const sensim_env *env);

/* A light sample seen from point p from the uniforms u[0..2]; 0 if the
 * drawn light sends nothing to p. */
int sensim__light_set_sample(const sensim_light_set *ls, const float p[3], const float u[3], sensim_light_sample *out);

/* The density (1/sr, pick included) with which sensim__light_set_sample
 * draws direction d towards the environment. */
float sensim__light_set_env_pdf(const sensim_light_set *ls, const float d[3]);

#endif
