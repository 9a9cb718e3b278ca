/* sensors/render/lights.h: every light of a capture behind one interface,
 * for the path integrator's next-event estimation: pick a light, draw a
 * direction towards it, and say with what density (PBRT-v4's
 * Light::SampleLi / PDF_Li split). Not installed.
 *
 * Lights (formulas in docs/rendering.md):
 *  - point and spot: a delta, or with a radius a uniformly bright sphere of
 *    the same intensity I (radiance I / (pi R^2)), sampled uniformly in the
 *    cone it subtends;
 *  - directional: a delta, or with an angular diameter a disc of the sky of
 *    radiance E / (pi sin^2(half-angle)) (so that it delivers E at normal
 *    incidence), sampled uniformly in its cone;
 *  - rect and disc: Lambertian emitters sampled uniformly by area;
 *  - emissive triangles of the snapshot's meshes, one light together:
 *    a triangle picked in proportion to its area x luminance of emission,
 *    a point uniform on it;
 *  - the environment, and its sun as a disc of its own.
 * Rays that bounce off surfaces never hit the analytic lights (they have no
 * geometry): their samples carry no multiple-importance weight. Emissive
 * triangles and the environment are hit too: theirs are weighed by the
 * power heuristic. One light is picked per vertex, uniformly. */
#ifndef SENSIM_RENDER_LIGHTS_H
#define SENSIM_RENDER_LIGHTS_H

#include "scene/environment.h"
#include "scene/scene.h"

/* The snapshot's emissive triangles, in the world at the end of the
 * capture window (a moving emitter is sampled where it is then). */
typedef struct sensim_emitters {
  size_t n;
  float (*v)[9];    /* per triangle: its three vertices, world */
  float (*le)[3];   /* emitted radiance: its material's factor (the sampling density's) */
  double *cdf;      /* cumulative area x luminance, cdf[n - 1] = total */
  double total;     /* sum of area x luminance of emission */
  int *body;        /* per triangle: snapshot body, and */
  unsigned *prim;   /* triangle in its mesh, where an emissive texture varies le over it; body -1 elsewhere */
  const sensim_snapshot *snap; /* what body indexes */
} sensim_emitters;

/* Collect the emissive triangles of snap (none: n = 0, nothing
 * allocated). SENSIM_ENOMEM. */
sensim_status sensim__emitters_build(const sensim_snapshot *snap, sensim_emitters *e);
void sensim__emitters_free(sensim_emitters *e);

typedef struct sensim_light_set {
  const sensim_light *lights; /* the snapshot's */
  size_t nlights;
  const sensim_env *env;      /* NULL: no environment light */
  const sensim_emitters *em;  /* NULL: no emissive triangles */
  const sensim_env *sun;      /* the environment's sun disc (NULL: none) */
  size_t n;                   /* lights to pick from */
  float p_pick;               /* 1 / n */
} sensim_light_set;

typedef struct sensim_light_sample {
  float wi[3];  /* unit direction from the point to the light, world */
  float dist;   /* how far the shadow ray goes (INFINITY: to infinity) */
  float L[3];   /* radiance (delta lights: irradiance at normal incidence)
                   over the density of the pick and the direction */
  float pdf;    /* density of wi (1/sr) with the pick where BSDF sampling can
                   also find the light (multiple importance sampling); 0: it
                   cannot (deltas, analytic lights) */
  int shadow;   /* nonzero: occlusion is traced (the light casts shadows) */
} sensim_light_sample;

/* The lights of a snapshot, an environment (NULL or black: none) and the
 * emissive triangles (NULL or empty: none). */
void sensim__light_set_init(sensim_light_set *ls, const sensim_snapshot *snap, const sensim_env *env,
                            const sensim_emitters *em);

/* A light sample seen from point p from the uniforms u[0..2]; 0 if the
 * drawn light sends nothing to p. */
int sensim__light_set_sample(const sensim_light_set *ls, const float p[3], const float u[3], sensim_light_sample *out);

/* The density (1/sr, pick included) with which sensim__light_set_sample
 * draws direction d towards the environment. */
float sensim__light_set_env_pdf(const sensim_light_set *ls, const float d[3]);

/* The density (1/sr, pick included) with which it draws the point of an
 * emissive triangle of emission le at distance t along a ray meeting it
 * at |cos| = cos_l with its normal. */
float sensim__light_set_emitter_pdf(const sensim_light_set *ls, const float le[3], float t, float cos_l);

/* Radiance of the directional lights with an angular diameter (sun discs)
 * along escaping direction d, added to L: what a camera ray or a mirror's
 * ray sees (no light sample could have found it). */
void sensim__light_set_discs(const sensim_light_set *ls, const float d[3], float L[3]);

#endif
