/* sensors/shading.c: the camera's materials, lights and fog (the BRDF is
 * inline in shading.h, where the renderer's per-hit loop can see it). */
#include <math.h>
#include "core/vecmath.h"
#include "scene/scene.h"
#include "sensors/shading.h"

void sensim__surface_material(const sensim_snapshot *snap, int body, unsigned prim, float u, float v,
                              sensim_surface *s) {
  const sensim_mesh *m = snap->bodies[body].mesh;
  const sensim_material *mat = &m->material;
  s->roughness = mat->roughness;
  s->metallic = mat->metallic;
  for (int c = 0; c < 3; c++) s->base[c] = mat->base_color[c];
  if (mat->texture && m->uvs) {
    /* Barycentric interpolation of the triangle's UVs (Embree's u, v are
     * the weights of its second and third vertex). */
    const uint32_t *ix = m->indices + 3 * (size_t)prim;
    const float *a = m->uvs + 2 * (size_t)ix[0], *b = m->uvs + 2 * (size_t)ix[1], *c = m->uvs + 2 * (size_t)ix[2];
    float w0 = 1.0f - u - v;
    float tu = w0 * a[0] + u * b[0] + v * c[0];
    float tv = w0 * a[1] + u * b[1] + v * c[1];
    float tex[3];
    sensim__texture_sample(mat->texture, tu, tv, tex);
    for (int k = 0; k < 3; k++) s->base[k] *= tex[k];
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

int sensim__light_at(const sensim_light *l, const float p[3], float to[3], float *irradiance, float *dist) {
  if (l->kind == SENSIM_LIGHT_DIRECTIONAL) {
    sensim_vec3 d = v3_normalize(v3_scale(l->direction, -1.0));
    to[0] = (float)d.x, to[1] = (float)d.y, to[2] = (float)d.z;
    *irradiance = l->intensity;
    *dist = INFINITY;
    return l->intensity > 0;
  }
  sensim_vec3 dl = v3_sub(l->position, v3(p[0], p[1], p[2]));
  double d2 = v3_dot(dl, dl);
  if (!(d2 > 0)) return 0;
  double d = sqrt(d2);
  to[0] = (float)(dl.x / d), to[1] = (float)(dl.y / d), to[2] = (float)(dl.z / d);
  *dist = (float)d;
  double irr = l->intensity / d2; /* inverse-square law */
  if (l->kind == SENSIM_LIGHT_SPOT) irr *= spot_factor(l, v3_scale(dl, -1.0 / d));
  if (l->kind == SENSIM_LIGHT_RECT || l->kind == SENSIM_LIGHT_DISC) {
    /* Seen from afar, a Lambertian emitter of radiance L and area A is a
     * point of intensity L A cos(theta) (Lambert's cosine law), theta from
     * its normal; it sends nothing behind it. */
    sensim_vec3 nrm;
    double area;
    if (l->kind == SENSIM_LIGHT_RECT) {
      nrm = v3_cross(l->edge_u, l->edge_v);
      area = v3_norm(nrm);
    } else {
      nrm = l->direction;
      area = M_PI * (double)l->radius * l->radius;
    }
    const double c = -v3_dot(v3_normalize(nrm), dl) / d;
    irr = c > 0 ? irr * area * c : 0.0;
  }
  *irradiance = (float)irr;
  return irr > 0;
}

double sensim__fog_beta(double visibility) {
  /* Koschmieder 1924: V = -ln(eps) / beta with contrast threshold eps = 0.02
   * (WMO's meteorological optical range uses 0.05: beta = 3.0 / MOR). */
  return visibility > 0 ? 3.912023005428146 / visibility : 0.0;
}
