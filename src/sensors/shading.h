/* sensors/shading.h: surface appearance and light for the camera: the GGX
 * microfacet BRDF, point/spot/directional lights and fog. Single precision:
 * the renderer shades 16 hits at a time from float hit data, and radiance
 * leaves it as float. Not installed.
 *
 * BRDF: Lambert diffuse plus the Cook-Torrance microfacet specular with the
 * GGX distribution (Walter, Marschner, Li & Torrance 2007, "Microfacet
 * models for refraction through rough surfaces", EGSR), Smith's separable
 * masking-shadowing for GGX, and Schlick's Fresnel (Schlick 1994). The
 * metallic/roughness parametrisation (alpha = roughness^2, F0 = 0.04 for
 * dielectrics, the base colour for metals, diffuse scaled by 1 - metallic)
 * follows Burley 2012 / Karis 2013 and glTF 2.0's metallic-roughness
 * material. Energy lost to multiple scattering is not compensated. */
#ifndef SENSIM_SENSORS_SHADING_H
#define SENSIM_SENSORS_SHADING_H

#include "core/vecmath.h"
#include "rt/rt.h"
#include <math.h>

typedef struct sensim_surface {
  float n[3];      /* unit shading normal on the viewer's side: the geometric normal,
                      or the interpolated vertex normals bent by the normal map
                      (sensim__surface_at) */
  float v[3];      /* unit direction from the point to the viewer */
  float base[3];   /* base colour, texture applied */
  float roughness; /* perceptual roughness, metallic-roughness texture applied */
  float metallic;
  float emission[3]; /* emitted radiance, W/(sr m^2), emissive texture applied */
  float alpha;     /* coverage: material alpha x base-colour texture alpha */
} sensim_surface;

/* Surfaces whose roughness is below this also mirror the scene. */
#define SENSIM_MIRROR_ROUGHNESS 0.1f

/* The material of the hit on snapshot body `body`, triangle `prim` at
 * barycentric (u, v), through the mesh's UVs (glTF 2.0 sec. 3.9): base
 * colour x base-colour texture (decoded to linear), roughness x the
 * metallic-roughness texture's G and metallic x its B (stored values),
 * emission x emissive texture (decoded), alpha. n and v are left alone. */
void sensim__surface_material(const sensim_snapshot *snap, int body, unsigned prim, float u, float v,
                              sensim_surface *s);
/* sensim__surface_material and the shading normal: the triangle's vertex
 * normals interpolated (its flat normal where the mesh has none), bent by
 * the material's normal map in the tangent frame (glTF 2.0 sec. 3.9.3:
 * n = normalize((2 t - 1) x (scale, scale, 1)) in (T, w (N x T), N)),
 * taken to the world by `rot` (the body's mesh-to-world rotation,
 * row-major) and put on the side of `ng` (unit world geometric normal,
 * towards the viewer, which is `view`). Where the result faces away from
 * the viewer, ng is used. */
void sensim__surface_at(const sensim_snapshot *snap, int body, unsigned prim, float u, float v, const float rot[9],
                        const float ng[3], const float view[3], sensim_surface *s);
/* The shading normal of sensim__surface_at alone, into n. */
void sensim__surface_normal(const sensim_snapshot *snap, int body, unsigned prim, float u, float v,
                            const float rot[9], const float ng[3], const float view[3], float n[3]);
/* Whether a mesh's appearance varies over it (textures with uvs, vertex
 * normals, emission, alpha, several materials): its hits then need
 * sensim__surface_at rather than one colour per body. */
int sensim__surface_varies(const sensim_mesh *m);

static inline float sensim__dot3f(const float a[3], const float b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline float sensim__schlick(float f0, float cos_theta) {
  float m = 1.0f - cos_theta, m2 = m * m;
  return f0 + (1.0f - f0) * m2 * m2 * m;
}

/* Smith G1 for GGX (Walter et al. 2007, eq. 34). */
static inline float sensim__smith_g1(float cos_theta, float a2) {
  return 2.0f * cos_theta / (cos_theta + sqrtf(a2 + (1.0f - a2) * cos_theta * cos_theta));
}

/* Reflected radiance per unit irradiance arriving from unit direction l:
 * BRDF x cos(theta_l), Lambert diffuse plus Cook-Torrance GGX specular.
 * Zero where l or the viewer is below the surface. */
static inline void sensim__brdf_cos(const sensim_surface *s, const float l[3], float out[3]) {
  float nl = sensim__dot3f(s->n, l), nv = sensim__dot3f(s->n, s->v);
  if (nl <= 0 || nv <= 0) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  float h[3] = {l[0] + s->v[0], l[1] + s->v[1], l[2] + s->v[2]};
  float ih = 1.0f / sqrtf(sensim__dot3f(h, h));
  float nh = sensim__dot3f(s->n, h) * ih, vh = sensim__dot3f(s->v, h) * ih;
  /* alpha below 1e-3 turns the GGX lobe into a numerical spike; the mirror
   * reflection carries such surfaces instead. */
  float a = s->roughness * s->roughness;
  if (a < 1e-3f) a = 1e-3f;
  float a2 = a * a;
  float q = nh * nh * (a2 - 1.0f) + 1.0f;
  float D = a2 / ((float)M_PI * q * q);
  float G = sensim__smith_g1(nl, a2) * sensim__smith_g1(nv, a2);
  float spec_common = D * G / (4.0f * nl * nv);
  for (int c = 0; c < 3; c++) {
    float f0 = 0.04f * (1.0f - s->metallic) + s->base[c] * s->metallic;
    float F = sensim__schlick(f0, vh);
    float diffuse = (1.0f - F) * (1.0f - s->metallic) * s->base[c] * (float)(1.0 / M_PI);
    out[c] = (diffuse + F * spec_common) * nl;
  }
}

/* Diffuse albedo (what ambient light sees): (1 - metallic) x base. */
static inline void sensim__diffuse_albedo(const sensim_surface *s, float out[3]) {
  for (int c = 0; c < 3; c++) out[c] = (1.0f - s->metallic) * s->base[c];
}

/* Schlick's Fresnel reflectance at the viewing angle: the weight of a
 * mirror reflection. */
static inline void sensim__fresnel_view(const sensim_surface *s, float out[3]) {
  float nv = sensim__dot3f(s->n, s->v);
  if (nv < 0) nv = 0;
  for (int c = 0; c < 3; c++) out[c] = sensim__schlick(0.04f * (1.0f - s->metallic) + s->base[c] * s->metallic, nv);
}

/* Direction from point p to light l (unit), the irradiance it delivers
 * there on a surface facing it, and how far a shadow ray must go (INFINITY
 * for directional light). Returns 0 where the light sends nothing (behind a
 * spot's cone, zero distance). */
int sensim__light_at(const sensim_light *l, const float p[3], float to[3], float *irradiance, float *dist);

/* Koschmieder's extinction coefficient for a meteorological visibility V:
 * beta = -ln(0.02) / V = 3.912 / V (2 % contrast threshold); 0 for V = 0. */
double sensim__fog_beta(double visibility);

#endif
