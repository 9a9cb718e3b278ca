/* scene/mesh.c: triangle meshes and materials. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

void sensim_material_init(sensim_material *m) {
  /* Padding bytes too: a default material compares equal byte for byte. */
  memset(m, 0, sizeof *m);
  m->base_color[0] = m->base_color[1] = m->base_color[2] = 0.5f;
  m->roughness = 0.5f;
  m->metallic = 0.0f;
  m->reflectance = 0.5f;
  /* Fresnel at normal incidence, ((sqrt(3.5) - 1) / (sqrt(3.5) + 1))^2 =
   * 0.093 (Balanis, "Advanced Engineering Electromagnetics", 2nd ed.,
   * 2012, sec. 5.3). */
  m->radar_specular = 0.1f;
  m->radar_diffuse = 0.05f;
  m->texture = NULL;
  m->emission[0] = m->emission[1] = m->emission[2] = 0.0f;
  m->ior = 1.5f;
  m->transmission = 0.0f;
  m->thin_walled = 0;
  m->metallic_roughness_texture = NULL;
  m->normal_texture = NULL;
  m->normal_scale = 1.0f;
  m->emissive_texture = NULL;
  m->alpha = 1.0f;
  m->alpha_mode = SENSIM_ALPHA_OPAQUE;
  m->alpha_cutoff = 0.5f;
  m->specular = 1.0f;
}

static sensim_status check_unit(float v, const char *what) {
  if (!(v >= 0.0f && v <= 1.0f)) return sensim__fail(SENSIM_EINVAL, "material %s = %g must be in [0, 1]", what, v);
  return SENSIM_OK;
}

static sensim_status check_texture(const sensim_world *w, const sensim_texture *t, const char *what) {
  if (t && t->world != w) return sensim__fail(SENSIM_EINVAL, "material %s belongs to another world", what);
  return SENSIM_OK;
}

sensim_status sensim__material_check(const sensim_world *w, const sensim_material *m) {
  if (check_texture(w, m->texture, "texture") ||
      check_texture(w, m->metallic_roughness_texture, "metallic_roughness_texture") ||
      check_texture(w, m->normal_texture, "normal_texture") ||
      check_texture(w, m->emissive_texture, "emissive_texture"))
    return SENSIM_EINVAL;
  static const char *emission[3] = {"emission[0]", "emission[1]", "emission[2]"};
  for (int i = 0; i < 3; i++)
    if (!(m->emission[i] >= 0.0f && isfinite(m->emission[i])))
      return sensim__fail(SENSIM_EINVAL, "material %s = %g must be finite and >= 0 (W/(sr m^2))", emission[i],
                          (double)m->emission[i]);
  if (!(m->ior > 0.0f && isfinite(m->ior)))
    return sensim__fail(SENSIM_EINVAL, "material ior = %g must be finite and > 0", (double)m->ior);
  if (!isfinite(m->normal_scale))
    return sensim__fail(SENSIM_EINVAL, "material normal_scale = %g must be finite", (double)m->normal_scale);
  if (m->alpha_mode != SENSIM_ALPHA_OPAQUE && m->alpha_mode != SENSIM_ALPHA_MASK &&
      m->alpha_mode != SENSIM_ALPHA_BLEND)
    return sensim__fail(SENSIM_EINVAL, "material alpha_mode = %d is not one of opaque (0), mask (1), blend (2)",
                        (int)m->alpha_mode);
  if (check_unit(m->transmission, "transmission") || check_unit(m->specular, "specular") || check_unit(m->alpha, "alpha") ||
      check_unit(m->alpha_cutoff, "alpha_cutoff"))
    return SENSIM_EINVAL;
  static const char *names[3] = {"base_color[0]", "base_color[1]", "base_color[2]"};
  for (int i = 0; i < 3; i++)
    if (check_unit(m->base_color[i], names[i])) return SENSIM_EINVAL;
  if (check_unit(m->roughness, "roughness") || check_unit(m->metallic, "metallic") ||
      check_unit(m->reflectance, "reflectance") || check_unit(m->radar_specular, "radar_specular") ||
      check_unit(m->radar_diffuse, "radar_diffuse"))
    return SENSIM_EINVAL;
  if (m->radar_specular + m->radar_diffuse > 1.0f)
    return sensim__fail(SENSIM_EINVAL, "material radar_specular + radar_diffuse = %g exceeds 1 (energy)",
                        (double)m->radar_specular + m->radar_diffuse);
  return SENSIM_OK;
}

void sensim_mesh_desc_init(sensim_mesh_desc *desc) {
  if (desc) memset(desc, 0, sizeof *desc);
}

sensim_status sensim_mesh_create(sensim_world *w, const sensim_mesh_desc *d, sensim_mesh **out) {
  if (!d) return sensim__fail(SENSIM_EINVAL, "sensim_mesh_create: NULL description");
  const float *vertices = d->vertices, *uvs = d->uvs, *trefl = d->tri_reflectance;
  const uint32_t *indices = d->indices;
  size_t nvert = d->nvert, ntri = d->ntri;
  const sensim_material *material = d->material;
  if (!w || !vertices || !indices || !out)
    return sensim__fail(SENSIM_EINVAL, "sensim_mesh_create: NULL argument");
  if (nvert < 3 || ntri < 1)
    return sensim__fail(SENSIM_EINVAL, "mesh needs at least 3 vertices and 1 triangle (got %zu, %zu)",
                        nvert, ntri);
  if (nvert > UINT32_MAX || ntri > UINT32_MAX / 3)
    return sensim__fail(SENSIM_EINVAL, "mesh too large (%zu vertices, %zu triangles)", nvert, ntri);
  /* The copies below, before the arrays are read (a wrong count would
   * read past the caller's arrays first). */
  double bytes = (double)nvert * (3 * sizeof(float) + (uvs ? 2 * sizeof(float) : 0)) +
                 (double)ntri * (3 * sizeof(uint32_t) + (trefl ? sizeof(float) : 0));
  char what[96];
  snprintf(what, sizeof what, "a mesh of %zu vertices and %zu triangles", nvert, ntri);
  sensim_status rc = sensim__check_bytes(bytes, what);
  if (rc) return rc;
  /* Vertices are world coordinates once a body places them (world.h,
   * SENSIM_COORD_MAX); a body's pose plus the mesh's radius is checked
   * where bodies are placed. */
  for (size_t i = 0; i < 3 * nvert; i++)
    if (!isfinite(vertices[i]))
      return sensim__fail(SENSIM_EINVAL, "mesh vertex %zu has a non-finite coordinate", i / 3);
  for (size_t i = 0; i < nvert; i++) {
    const float *p = vertices + 3 * i;
    if (fabsf(p[0]) <= SENSIM_COORD_MAX && fabsf(p[1]) <= SENSIM_COORD_MAX && fabsf(p[2]) <= SENSIM_COORD_MAX)
      continue;
    snprintf(what, sizeof what, "mesh vertex %zu", i);
    return sensim__check_coord((sensim_vec3){p[0], p[1], p[2]}, 0.0, what);
  }
  if (uvs)
    for (size_t i = 0; i < 2 * nvert; i++)
      if (!isfinite(uvs[i])) return sensim__fail(SENSIM_EINVAL, "mesh uv %zu is not finite", i / 2);
  if (trefl)
    for (size_t i = 0; i < ntri; i++)
      if (!(trefl[i] >= 0.0f && trefl[i] <= 1.0f))
        return sensim__fail(SENSIM_EINVAL, "mesh triangle %zu reflectance %g is not in [0, 1]", i, trefl[i]);
  for (size_t i = 0; i < 3 * ntri; i++)
    if (indices[i] >= nvert)
      return sensim__fail(SENSIM_EINVAL, "mesh triangle %zu indexes vertex %u of %zu", i / 3, indices[i], nvert);
  sensim_material mat;
  sensim_material_init(&mat);
  if (material) {
    if (sensim__material_check(w, material)) return SENSIM_EINVAL;
    mat = *material;
  }
  rc = sensim__grow((void **)&w->meshes, &w->cap_meshes, w->nmeshes + 1, sizeof *w->meshes);
  if (rc) return rc;
  sensim_mesh *m = calloc(1, sizeof *m);
  float *v = malloc(3 * nvert * sizeof *v);
  uint32_t *ix = malloc(3 * ntri * sizeof *ix);
  float *uv = uvs ? malloc(2 * nvert * sizeof *uv) : NULL;
  float *tr = trefl ? malloc(ntri * sizeof *tr) : NULL;
  float *cb = malloc(((ntri + SENSIM__MESH_CHUNK - 1) / SENSIM__MESH_CHUNK + 1) * 4 * sizeof *cb);
  if (!m || !v || !ix || (uvs && !uv) || (trefl && !tr) || !cb) {
    free(cb);
    free(m);
    free(v);
    free(ix);
    free(uv);
    free(tr);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a mesh of %zu triangles", ntri);
  }
  memcpy(v, vertices, 3 * nvert * sizeof *v);
  memcpy(ix, indices, 3 * ntri * sizeof *ix);
  if (uv) memcpy(uv, uvs, 2 * nvert * sizeof *uv);
  if (tr) memcpy(tr, trefl, ntri * sizeof *tr);
  m->uvs = uv;
  m->tri_reflectance = tr;
  m->world = w;
  m->index = (int)w->nmeshes;
  m->vertices = v;
  m->indices = ix;
  m->nvert = nvert;
  m->ntri = ntri;
  double r2 = 0.0;
  for (size_t i = 0; i < nvert; i++) {
    double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2], d = x * x + y * y + z * z;
    if (d > r2) r2 = d;
  }
  m->radius = sqrt(r2);
  /* A sphere per chunk: the centre of the chunk's box, the farthest
   * vertex from it. */
  const size_t nch = (ntri + SENSIM__MESH_CHUNK - 1) / SENSIM__MESH_CHUNK;
  for (size_t c = 0; c < nch; c++) {
    const size_t t0 = c * SENSIM__MESH_CHUNK, t1 = t0 + SENSIM__MESH_CHUNK < ntri ? t0 + SENSIM__MESH_CHUNK : ntri;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t k = 3 * t0; k < 3 * t1; k++)
      for (int a = 0; a < 3; a++) {
        const float x = v[3 * (size_t)ix[k] + (size_t)a];
        lo[a] = x < lo[a] ? x : lo[a];
        hi[a] = x > hi[a] ? x : hi[a];
      }
    double ctr[3], rr = 0.0;
    for (int a = 0; a < 3; a++) ctr[a] = 0.5 * ((double)lo[a] + hi[a]);
    for (size_t k = 3 * t0; k < 3 * t1; k++) {
      const float *p = &v[3 * (size_t)ix[k]];
      const double dx = p[0] - ctr[0], dy = p[1] - ctr[1], dz = p[2] - ctr[2], d = dx * dx + dy * dy + dz * dz;
      if (d > rr) rr = d;
    }
    for (int a = 0; a < 3; a++) cb[4 * c + (size_t)a] = (float)ctr[a];
    cb[4 * c + 3] = (float)(sqrt(rr) * (1.0 + 1e-6) + 1e-6); /* covers the float rounding */
  }
  m->chunk_bounds = cb;
  m->material = mat;
  w->meshes[w->nmeshes++] = m;
  *out = m;
  return SENSIM_OK;
}

size_t sensim_mesh_triangle_count(const sensim_mesh *m) { return m ? m->ntri : 0; }
