/* scene/material_eval.c: what a material is at a point of a mesh: its
 * texture coordinates and its alpha (coverage). The ray-tracing kernel's
 * alpha filters and the shading both read these. */
#include "scene/scene.h"

int sensim__mesh_uv(const sensim_mesh *m, unsigned prim, float u, float v, float uv[2]) {
  if (!m->uvs) return 0;
  /* Barycentric interpolation of the triangle's uvs (Embree's u, v are the
   * weights of its second and third vertex). */
  const uint32_t *ix = m->indices + 3 * (size_t)prim;
  const float *a = m->uvs + 2 * (size_t)ix[0], *b = m->uvs + 2 * (size_t)ix[1], *c = m->uvs + 2 * (size_t)ix[2];
  const float w0 = 1.0f - u - v;
  uv[0] = w0 * a[0] + u * b[0] + v * c[0];
  uv[1] = w0 * a[1] + u * b[1] + v * c[1];
  return 1;
}

float sensim__mesh_alpha(const sensim_mesh *m, unsigned prim, float u, float v) {
  const sensim_material *mat = sensim__mesh_tri_material(m, prim);
  float a = mat->alpha, uv[2];
  if (mat->texture && mat->texture->has_alpha && sensim__mesh_uv(m, prim, u, v, uv)) {
    float c[4];
    sensim__texture_sample4(mat->texture, uv[0], uv[1], SENSIM__TEX_COLOR, c);
    a *= c[3];
  }
  return a;
}

int sensim__mesh_has_alpha(const sensim_mesh *m) {
  if (!m->materials) return m->material.alpha_mode != SENSIM_ALPHA_OPAQUE;
  for (size_t i = 0; i < m->nmaterials; i++)
    if (m->materials[i].alpha_mode != SENSIM_ALPHA_OPAQUE) return 1;
  return 0;
}
