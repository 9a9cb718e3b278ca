/* scene/weather.h: the world's weather as optics sees it: extinction
 * coefficients of fog, rain and snow, and the size distributions of drops
 * and flakes the lidar's particle returns are drawn from
 * (scene/weather.c; docs/weather.md). Not installed. */
#ifndef SENSIM_SCENE_WEATHER_H
#define SENSIM_SCENE_WEATHER_H

#include "sensim/world.h"

/* Upper bounds of the weather's rates (sensim_weather). */
#define SENSIM_RAIN_RATE_MAX 300.0 /* mm/h */
#define SENSIM_SNOW_RATE_MAX 30.0  /* mm/h of melted water */

/* SENSIM_EINVAL naming `who` (e.g. "world.weather") and the field for a
 * value out of sensim_weather's ranges. */
sensim_status sensim__weather_check(const sensim_weather *w, const char *who);

/* An exponential size distribution N(D) = n0 exp(-lambda D) of one kind of
 * particle, and how its size D (the diameter of the drop, or of the flake
 * melted, mm) gives the particle's cross-section seen by a beam:
 * area(D) = area_k D^area_e, mm^2. */
typedef struct sensim_particles {
  double n0;      /* intercept, 1 / (m^3 mm) */
  double lambda;  /* slope, 1/mm */
  double area_k;  /* cross-section prefactor, mm^(2 - area_e) */
  double area_e;  /* cross-section exponent on D */
  double albedo;  /* Lambertian-equivalent reflectance at the lidar wavelength */
} sensim_particles;

/* Raindrops at `rate` mm/h (> 0): Marshall & Palmer (1948). */
void sensim__rain_particles(double rate, sensim_particles *p);
/* Snowflakes at `rate` mm/h of melted water (> 0): Gunn & Marshall (1958)
 * with Holroyd's (1971) flake density. */
void sensim__snow_particles(double rate, sensim_particles *p);

/* Extinction coefficient, 1/m, of particles large against the wavelength
 * (efficiency 2): 2 * integral of area(D) N(D) dD. 0 for a zero rate. */
double sensim__particles_beta(const sensim_particles *p);
double sensim__rain_beta(double rate);
double sensim__snow_beta(double rate);

/* The extinction a sensor sees, 1/m: fog (its own visibility if > 0,
 * else the weather's) plus rain and snow. */
double sensim__weather_beta(const sensim_weather *w, double sensor_fog_visibility);

#endif
