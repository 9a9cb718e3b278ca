/* sensors/shading.h: surface appearance and light for the camera: the GGX
 * microfacet BRDF, point/spot/directional lights and fog. Not installed. */
#ifndef SENSIM_SENSORS_SHADING_H
#define SENSIM_SENSORS_SHADING_H

#include "rt/rt.h"

typedef struct sensim_surface {
  sensim_vec3 p;     /* hit point, world, m */
  sensim_vec3 n;     /* unit geometric normal, turned towards the viewer */
  sensim_vec3 v;     /* unit direction from the point to the viewer */
  float base[3];     /* base colour, texture applied */
  float roughness;   /* perceptual roughness */
  float metallic;
} sensim_surface;

/* Surfaces whose roughness is below this also mirror the scene. */
#define SENSIM_MIRROR_ROUGHNESS 0.1f

/* The surface a ray hit: position, facing normal, material and texture. */
void sensim__surface_at(const sensim_snapshot *snap, const sensim_rt_ray *ray, const sensim_rt_hit *h,
                        sensim_surface *s);

/* Reflected radiance per unit irradiance arriving from unit direction l:
 * BRDF x cos(theta_l), Lambert diffuse plus Cook-Torrance GGX specular. */
void sensim__brdf_cos(const sensim_surface *s, sensim_vec3 l, float out[3]);

/* Diffuse albedo (what ambient light sees): (1 - metallic) x base. */
void sensim__diffuse_albedo(const sensim_surface *s, float out[3]);

/* Schlick's Fresnel reflectance at the viewing angle: the weight of a
 * mirror reflection. */
void sensim__fresnel_view(const sensim_surface *s, float out[3]);

/* Direction from point p to light l (unit), the irradiance it delivers
 * there on a surface facing it, and how far a shadow ray must go (INFINITY
 * for directional light). Returns 0 where the light sends nothing (behind a
 * spot's cone, zero distance). */
int sensim__light_at(const sensim_light *l, sensim_vec3 p, sensim_vec3 *to, double *irradiance, double *dist);

/* Koschmieder's extinction coefficient for a meteorological visibility V:
 * beta = -ln(0.02) / V = 3.912 / V (2 % contrast threshold); 0 for V = 0. */
double sensim__fog_beta(double visibility);

#endif
