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

/* The vertex attributes beyond positions and uvs: finite, nonzero normals
 * and tangents, handedness +-1. */
static sensim_status check_attributes(const sensim_mesh_desc *d) {
  if (d->normals)
    for (size_t i = 0; i < d->nvert; i++) {
      const float *n = d->normals + 3 * i;
      if (!(isfinite(n[0]) && isfinite(n[1]) && isfinite(n[2])) || (n[0] == 0 && n[1] == 0 && n[2] == 0))
        return sensim__fail(SENSIM_EINVAL, "mesh normal %zu is not finite and nonzero", i);
    }
  if (d->tangents)
    for (size_t i = 0; i < d->nvert; i++) {
      const float *t = d->tangents + 4 * i;
      if (!(isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2])) || (t[0] == 0 && t[1] == 0 && t[2] == 0))
        return sensim__fail(SENSIM_EINVAL, "mesh tangent %zu is not finite and nonzero", i);
      if (t[3] != 1.0f && t[3] != -1.0f)
        return sensim__fail(SENSIM_EINVAL, "mesh tangent %zu has handedness w = %g, not +1 or -1", i, (double)t[3]);
    }
  if (d->nmaterials) {
    if (!d->materials) return sensim__fail(SENSIM_EINVAL, "mesh nmaterials = %zu with NULL materials", d->nmaterials);
    if (d->material)
      return sensim__fail(SENSIM_EINVAL, "mesh has both a material and %zu materials: set one", d->nmaterials);
    if (d->tri_material)
      for (size_t i = 0; i < d->ntri; i++)
        if (d->tri_material[i] >= d->nmaterials)
          return sensim__fail(SENSIM_EINVAL, "mesh triangle %zu uses material %u of %zu", i, d->tri_material[i],
                              d->nmaterials);
  } else if (d->tri_material || d->materials) {
    return sensim__fail(SENSIM_EINVAL, "mesh materials or tri_material given with nmaterials = 0");
  }
  return SENSIM_OK;
}

/* A copy of `bytes` bytes of src, or NULL for NULL src; *fail set when
 * out of memory. */
static void *dup_array(const void *src, size_t bytes, int *fail) {
  if (!src) return NULL;
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    *fail = 1;
    return NULL;
  }
  memcpy(p, src, bytes);
  return p;
}

static void normalise3(float *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    float *p = v + 3 * i;
    double l = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
    for (int k = 0; k < 3; k++) p[k] = (float)(p[k] / l);
  }
}

/* Whether any material of the mesh has a normal map. */
static int wants_tangents(const sensim_material *one, const sensim_material *many, size_t nmany) {
  if (!many) return one->normal_texture != NULL;
  for (size_t i = 0; i < nmany; i++)
    if (many[i].normal_texture) return 1;
  return 0;
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
  if (nvert > UINT32_MAX || ntri > UINT32_MAX / 3 || d->nmaterials > UINT32_MAX)
    return sensim__fail(SENSIM_EINVAL, "mesh too large (%zu vertices, %zu triangles, %zu materials)", nvert, ntri,
                        d->nmaterials);
  /* The copies below, before the arrays are read (a wrong count would
   * read past the caller's arrays first). */
  double bytes = (double)nvert * (3 * sizeof(float) + (uvs ? 2 * sizeof(float) : 0) +
                                  (d->normals ? 3 * sizeof(float) : 0) + 4 * sizeof(float)) +
                 (double)ntri * (3 * sizeof(uint32_t) + (trefl ? sizeof(float) : 0) +
                                 (d->tri_material ? sizeof(uint32_t) : 0)) +
                 (double)d->nmaterials * sizeof(sensim_material);
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
  rc = check_attributes(d);
  if (rc) return rc;
  sensim_material mat;
  sensim_material_init(&mat);
  if (material) {
    if (sensim__material_check(w, material)) return SENSIM_EINVAL;
    mat = *material;
  }
  for (size_t i = 0; i < d->nmaterials; i++)
    if (sensim__material_check(w, &d->materials[i])) {
      sensim__error_context("mesh materials[%zu]", i);
      return SENSIM_EINVAL;
    }
  if (d->nmaterials) mat = d->materials[0];
  rc = sensim__grow((void **)&w->meshes, &w->cap_meshes, w->nmeshes + 1, sizeof *w->meshes);
  if (rc) return rc;
  int fail = 0;
  sensim_mesh *m = calloc(1, sizeof *m);
  fail |= !m;
  float *v = dup_array(vertices, 3 * nvert * sizeof *v, &fail);
  uint32_t *ix = dup_array(indices, 3 * ntri * sizeof *ix, &fail);
  float *uv = dup_array(uvs, 2 * nvert * sizeof *uv, &fail);
  float *tr = dup_array(trefl, ntri * sizeof *tr, &fail);
  float *nrm = dup_array(d->normals, 3 * nvert * sizeof *nrm, &fail);
  float *tan = dup_array(d->tangents, 4 * nvert * sizeof *tan, &fail);
  sensim_material *mats = dup_array(d->nmaterials ? d->materials : NULL, d->nmaterials * sizeof *mats, &fail);
  uint32_t *tm = dup_array(d->tri_material, ntri * sizeof *tm, &fail);
  float *cb = malloc(((ntri + SENSIM__MESH_CHUNK - 1) / SENSIM__MESH_CHUNK + 1) * 4 * sizeof *cb);
  fail |= !cb;
  /* Normal maps need a tangent frame; where the caller gave none it is
   * generated from the uvs (a normal map without uvs cannot be read). */
  if (!fail && !tan && uv && wants_tangents(&mat, mats, d->nmaterials)) {
    tan = sensim__mesh_tangents(v, uv, d->normals, nvert, ix, ntri);
    fail |= !tan;
  }
  if (fail) {
    free(m), free(v), free(ix), free(uv), free(tr), free(nrm), free(tan), free(mats), free(tm), free(cb);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a mesh of %zu triangles", ntri);
  }
  if (nrm) normalise3(nrm, nvert);
  if (tan && d->tangents)
    for (size_t i = 0; i < nvert; i++) {
      float *t = tan + 4 * i;
      double l = sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
      for (int k = 0; k < 3; k++) t[k] = (float)(t[k] / l);
    }
  m->uvs = uv;
  m->tri_reflectance = tr;
  m->normals = nrm;
  m->tangents = tan;
  m->materials = mats;
  m->tri_material = tm;
  m->nmaterials = d->nmaterials;
  m->world = w;
  m->index = (int)w->nmeshes;
  m->vertices = v;
  m->indices = ix;
  m->nvert = nvert;
  m->ntri = ntri;
  double r2 = 0.0;
  for (size_t i = 0; i < nvert; i++) {
    double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2], dd = x * x + y * y + z * z;
    if (dd > r2) r2 = dd;
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
