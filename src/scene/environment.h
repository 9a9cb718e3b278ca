/* scene/environment.h: the world's environment as the renderer uses it:
 * radiance along an escaping ray, directions sampled with their density
 * (solid angle) for next-event estimation, and the sun's disc, which the
 * renderer samples as a light of its own. Built once when set, immutable
 * after, so capture jobs read it without locks. Not installed. */
#ifndef SENSIM_SCENE_ENVIRONMENT_H
#define SENSIM_SCENE_ENVIRONMENT_H

#include "core/distrib.h"
#include "sensim/environment.h"
#include "scene/scene.h"

typedef struct sensim_env {
  sensim_environment desc; /* what the host set */
  /* SKY (scene/sky.c): Preetham's model at the zenith and its Perez
   * coefficients for luminance Y and chromaticity x, y. */
  int up;                  /* the sun is above the horizon (else all dark) */
  double zen[3];           /* Y (W/(sr m^2), luminance / 683), x, y at the zenith */
  double perez[3][5];      /* A..E of Y, x, y */
  double f0[3];            /* the Perez function at the zenith, per quantity */
  double sun_dir[3];       /* unit direction towards the sun, world */
  /* The sun's disc: radiance (each channel) within the cone cos >= sun_cos. */
  int has_sun;
  float sun_to[3], sun_L[3], sun_cos;
  float sun_omega;         /* the disc's solid angle, 4 pi sin^2(h / 2) (in double: 1 - cos h
                              is 1e-5, below float's resolution near 1) */
  /* Directions drawn in proportion to a tabulated luminance x sin(theta)
   * over an equirectangular grid (u = azimuth from +x towards +y / 2 pi,
   * v = zenith angle / pi); tabulated = 0: uniform over the sphere. */
  int tabulated;
  sensim_distrib2d dist;
} sensim_env;

/* A uniform environment of radiance L (no allocation; the path integrator
 * makes one from the world's background when the world has none). */
void sensim__env_uniform(sensim_env *e, const float L[3]);

/* Radiance arriving from unit world direction d (d points away from the
 * scene, along the escaping ray), the sun's disc excluded. */
void sensim__env_radiance(const sensim_env *e, const float d[3], float L[3]);

/* A unit direction d drawn from the uniforms (u1, u2) in [0, 1), its
 * radiance L and its density (1/sr); 0 when nothing could be drawn. */
float sensim__env_sample(const sensim_env *e, float u1, float u2, float d[3], float L[3]);

/* The density (1/sr) with which sensim__env_sample draws direction d. */
float sensim__env_pdf(const sensim_env *e, const float d[3]);

/* Fill the sky's model fields of e from e->desc (scene/sky.c). */
void sensim__sky_init(sensim_env *e);
/* The sky's radiance (sun excluded) towards unit direction d. */
void sensim__sky_radiance(const sensim_env *e, const float d[3], float L[3]);

/* Tabulate e's radiance for sampling (SKY). SENSIM_ENOMEM. */
sensim_status sensim__env_tabulate(sensim_env *e);

/* Free every environment the world built (sensim_world_destroy). */
void sensim__env_free_all(sensim_world *w);

#endif
