/* sensors/shading.c: the camera's surface and light models.
 *
 * BRDF: Lambert diffuse plus the Cook-Torrance microfacet specular with the
 * GGX distribution (Walter, Marschner, Li & Torrance 2007, "Microfacet
 * models for refraction through rough surfaces", EGSR), Smith's separable
 * masking-shadowing for GGX, and Schlick's Fresnel (Schlick 1994). The
 * metallic/roughness parametrisation (alpha = roughness^2, F0 = 0.04 for
 * dielectrics, the base colour for metals, diffuse scaled by 1 - metallic)
 * follows Burley 2012 / Karis 2013 and glTF 2.0's metallic-roughness
 * material. Energy lost to multiple scattering is not compensated. */
#include <math.h>
#include "core/vecmath.h"
#include "scene/scene.h"
#include "sensors/shading.h"

void sensim__surface_at(const sensim_snapshot *snap, const sensim_rt_ray *ray, const sensim_rt_hit *h,
                        sensim_surface *s) {
  const sensim_mesh *m = snap->bodies[h->body].mesh;
  const sensim_material *mat = &m->material;
  sensim_vec3 d = v3_normalize(v3(ray->dir[0], ray->dir[1], ray->dir[2]));
  sensim_vec3 o = v3(ray->org[0], ray->org[1], ray->org[2]);
  double dl = v3_norm(v3(ray->dir[0], ray->dir[1], ray->dir[2]));
  s->p = v3_add(o, v3_scale(d, h->t * dl));
  s->n = v3(h->n[0], h->n[1], h->n[2]);
  if (v3_dot(s->n, d) > 0) s->n = v3_scale(s->n, -1.0); /* two-sided surfaces */
  s->v = v3_scale(d, -1.0);
  s->roughness = mat->roughness;
  s->metallic = mat->metallic;
  for (int c = 0; c < 3; c++) s->base[c] = mat->base_color[c];
  if (mat->texture && m->uvs) {
    /* Barycentric interpolation of the triangle's UVs (Embree's u, v are
     * the weights of its second and third vertex). */
    const uint32_t *ix = m->indices + 3 * (size_t)h->prim;
    const float *a = m->uvs + 2 * (size_t)ix[0], *b = m->uvs + 2 * (size_t)ix[1], *c = m->uvs + 2 * (size_t)ix[2];
    float w0 = 1.0f - h->u - h->v;
    float tu = w0 * a[0] + h->u * b[0] + h->v * c[0];
    float tv = w0 * a[1] + h->u * b[1] + h->v * c[1];
    float tex[3];
    sensim__texture_sample(mat->texture, tu, tv, tex);
    for (int k = 0; k < 3; k++) s->base[k] *= tex[k];
  }
}

static double schlick(double f0, double cos_theta) {
  double m = 1.0 - cos_theta;
  double m2 = m * m;
  return f0 + (1.0 - f0) * m2 * m2 * m;
}

/* Smith G1 for GGX (Walter et al. 2007, eq. 34). */
static double smith_g1(double cos_theta, double a2) {
  return 2.0 * cos_theta / (cos_theta + sqrt(a2 + (1.0 - a2) * cos_theta * cos_theta));
}

void sensim__brdf_cos(const sensim_surface *s, sensim_vec3 l, float out[3]) {
  double nl = v3_dot(s->n, l), nv = v3_dot(s->n, s->v);
  if (nl <= 0 || nv <= 0) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  sensim_vec3 h = v3_normalize(v3_add(l, s->v));
  double nh = v3_dot(s->n, h), vh = v3_dot(s->v, h);
  /* alpha below 1e-3 turns the GGX lobe into a numerical spike; the mirror
   * reflection carries such surfaces instead. */
  double a = s->roughness * s->roughness;
  if (a < 1e-3) a = 1e-3;
  double a2 = a * a;
  double q = nh * nh * (a2 - 1.0) + 1.0;
  double D = a2 / (M_PI * q * q);
  double G = smith_g1(nl, a2) * smith_g1(nv, a2);
  double spec_common = D * G / (4.0 * nl * nv);
  for (int c = 0; c < 3; c++) {
    double f0 = 0.04 * (1.0 - s->metallic) + s->base[c] * s->metallic;
    double F = schlick(f0, vh);
    double diffuse = (1.0 - F) * (1.0 - s->metallic) * s->base[c] / M_PI;
    out[c] = (float)((diffuse + F * spec_common) * nl);
  }
}

void sensim__diffuse_albedo(const sensim_surface *s, float out[3]) {
  for (int c = 0; c < 3; c++) out[c] = (1.0f - s->metallic) * s->base[c];
}

void sensim__fresnel_view(const sensim_surface *s, float out[3]) {
  double nv = v3_dot(s->n, s->v);
  if (nv < 0) nv = 0;
  for (int c = 0; c < 3; c++) {
    double f0 = 0.04 * (1.0 - s->metallic) + s->base[c] * s->metallic;
    out[c] = (float)schlick(f0, nv);
  }
}

/* Hermite smoothstep between the spot's inner and outer half-angles, in
 * cosine: a common spot fall-off (e.g. glTF KHR_lights_punctual uses a
 * linear ramp in cosine; smoothstep removes its visible kink). */
static double spot_factor(const sensim_light *l, sensim_vec3 from_light) {
  double c = v3_dot(v3_normalize(l->direction), from_light);
  double ci = cos(l->spot_inner), co = cos(l->spot_outer);
  if (c >= ci) return 1.0;
  if (c <= co) return 0.0;
  double x = (c - co) / (ci - co);
  return x * x * (3.0 - 2.0 * x);
}

int sensim__light_at(const sensim_light *l, sensim_vec3 p, sensim_vec3 *to, double *irradiance, double *dist) {
  if (l->kind == SENSIM_LIGHT_DIRECTIONAL) {
    *to = v3_normalize(v3_scale(l->direction, -1.0));
    *irradiance = l->intensity;
    *dist = INFINITY;
    return l->intensity > 0;
  }
  sensim_vec3 dl = v3_sub(l->position, p);
  double d2 = v3_dot(dl, dl);
  if (!(d2 > 0)) return 0;
  double d = sqrt(d2);
  *to = v3_scale(dl, 1.0 / d);
  *dist = d;
  *irradiance = l->intensity / d2; /* inverse-square law */
  if (l->kind == SENSIM_LIGHT_SPOT) *irradiance *= spot_factor(l, v3_scale(*to, -1.0));
  return *irradiance > 0;
}

double sensim__fog_beta(double visibility) {
  /* Koschmieder 1924: V = -ln(eps) / beta with contrast threshold eps = 0.02
   * (WMO's meteorological optical range uses 0.05: beta = 3.0 / MOR). */
  return visibility > 0 ? 3.912023005428146 / visibility : 0.0;
}
