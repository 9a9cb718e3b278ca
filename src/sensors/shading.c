/* sensors/shading.c: the camera's materials, lights and fog (the BRDF is
 * inline in shading.h, where the renderer's per-hit loop can see it). */
#include <math.h>
#include <string.h>
#include "core/vecmath.h"
#include "scene/scene.h"
#include "sensors/shading.h"

void sensim__surface_material(const sensim_snapshot *snap, int body, unsigned prim, float u, float v,
                              sensim_surface *s) {
  const sensim_mesh *m = snap->bodies[body].mesh;
  const sensim_material *mat = sensim__mesh_tri_material(m, prim);
  s->roughness = mat->roughness;
  s->metallic = mat->metallic;
  s->alpha = mat->alpha;
  for (int c = 0; c < 3; c++) s->base[c] = mat->base_color[c], s->emission[c] = mat->emission[c];
  float uv[2];
  if (!sensim__mesh_uv(m, prim, u, v, uv)) return;
  float t[4];
  if (mat->texture) {
    sensim__texture_sample4(mat->texture, uv[0], uv[1], SENSIM__TEX_COLOR, t);
    for (int k = 0; k < 3; k++) s->base[k] *= t[k];
    s->alpha *= t[3];
  }
  if (mat->metallic_roughness_texture) {
    /* glTF 2.0 sec. 3.9.2: roughness in G, metalness in B, linear. */
    sensim__texture_sample4(mat->metallic_roughness_texture, uv[0], uv[1], SENSIM__TEX_DATA, t);
    s->roughness *= t[1];
    s->metallic *= t[2];
  }
  if (mat->emissive_texture) {
    sensim__texture_sample4(mat->emissive_texture, uv[0], uv[1], SENSIM__TEX_COLOR, t);
    for (int k = 0; k < 3; k++) s->emission[k] *= t[k];
  }
}

static void normalize3f(float x[3]) {
  const float l = sqrtf(sensim__dot3f(x, x));
  if (l > 0) x[0] /= l, x[1] /= l, x[2] /= l;
}

static void cross3f(const float a[3], const float b[3], float out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Mesh-frame shading normal at the hit: interpolated vertex normals (or
 * the flat one, `flat`), bent by the normal map. */
static void mesh_normal(const sensim_mesh *m, const sensim_material *mat, unsigned prim, float u, float v,
                        const float flat[3], float n[3]) {
  const uint32_t *ix = m->indices + 3 * (size_t)prim;
  const float w[3] = {1.0f - u - v, u, v};
  if (m->normals) {
    n[0] = n[1] = n[2] = 0;
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) n[j] += w[k] * m->normals[3 * (size_t)ix[k] + j];
    normalize3f(n);
    if (!(sensim__dot3f(n, n) > 0.5f)) memcpy(n, flat, 3 * sizeof *n);
  } else {
    memcpy(n, flat, 3 * sizeof *n);
  }
  float uv[2];
  if (!mat->normal_texture || !m->tangents || !sensim__mesh_uv(m, prim, u, v, uv)) return;
  float T[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < 3; j++) T[j] += w[k] * m->tangents[4 * (size_t)ix[k] + j];
  const float hand = m->tangents[4 * (size_t)ix[0] + 3] < 0 ? -1.0f : 1.0f;
  /* Gram-Schmidt: T in the plane of the interpolated normal. */
  const float d = sensim__dot3f(T, n);
  for (int j = 0; j < 3; j++) T[j] -= n[j] * d;
  if (!(sensim__dot3f(T, T) > 1e-12f)) return;
  normalize3f(T);
  float B[3];
  cross3f(n, T, B);
  float t[4];
  sensim__texture_sample4(mat->normal_texture, uv[0], uv[1], SENSIM__TEX_DATA, t);
  const float x = (2.0f * t[0] - 1.0f) * mat->normal_scale, y = (2.0f * t[1] - 1.0f) * mat->normal_scale,
              z = 2.0f * t[2] - 1.0f;
  float b[3];
  for (int j = 0; j < 3; j++) b[j] = x * T[j] + y * hand * B[j] + z * n[j];
  normalize3f(b);
  if (sensim__dot3f(b, b) > 0.5f) memcpy(n, b, sizeof b);
}

void sensim__surface_at(const sensim_snapshot *snap, int body, unsigned prim, float u, float v, const float rot[9],
                        const float ng[3], const float view[3], sensim_surface *s) {
  sensim__surface_material(snap, body, prim, u, v, s);
  memcpy(s->v, view, sizeof s->v);
  sensim__surface_normal(snap, body, prim, u, v, rot, ng, view, s->n);
}

void sensim__surface_normal(const sensim_snapshot *snap, int body, unsigned prim, float u, float v,
                            const float rot[9], const float ng[3], const float view[3], float n[3]) {
  memcpy(n, ng, 3 * sizeof *n);
  const sensim_mesh *m = snap->bodies[body].mesh;
  const sensim_material *mat = sensim__mesh_tri_material(m, prim);
  if (!m->normals && !(mat->normal_texture && m->tangents && m->uvs)) return;
  const uint32_t *ix = m->indices + 3 * (size_t)prim;
  const float *p0 = m->vertices + 3 * (size_t)ix[0], *p1 = m->vertices + 3 * (size_t)ix[1],
              *p2 = m->vertices + 3 * (size_t)ix[2];
  const float e1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  const float e2[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
  float flat[3], nm[3], nw[3];
  cross3f(e1, e2, flat);
  normalize3f(flat);
  mesh_normal(m, mat, prim, u, v, flat, nm);
  for (int j = 0; j < 3; j++) nw[j] = rot[3 * j] * nm[0] + rot[3 * j + 1] * nm[1] + rot[3 * j + 2] * nm[2];
  normalize3f(nw);
  /* The front of the triangle faces the way ng does unless the viewer is
   * behind it: then the shading normal turns too (two-sided surfaces). */
  const float fw[3] = {rot[0] * flat[0] + rot[1] * flat[1] + rot[2] * flat[2],
                       rot[3] * flat[0] + rot[4] * flat[1] + rot[5] * flat[2],
                       rot[6] * flat[0] + rot[7] * flat[1] + rot[8] * flat[2]};
  if (sensim__dot3f(fw, ng) < 0) nw[0] = -nw[0], nw[1] = -nw[1], nw[2] = -nw[2];
  if (sensim__dot3f(nw, view) > 0) memcpy(n, nw, sizeof nw);
}

int sensim__surface_varies(const sensim_mesh *m) {
  if (m->normals || (m->materials && m->nmaterials > 1)) return 1;
  const sensim_material *mat = &m->material;
  if (mat->emission[0] > 0 || mat->emission[1] > 0 || mat->emission[2] > 0)
    return 1;
  return m->uvs && (mat->texture || mat->metallic_roughness_texture || mat->normal_texture || mat->emissive_texture);
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
