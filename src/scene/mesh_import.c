/* scene/mesh_import.c: mesh files through Assimp's C API, checked before
 * and after Assimp reads them (scene/mesh_check.h says why). */
#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/internal.h"
#include "scene/mesh_check.h"
#include "scene/scene.h"

/* Diffuse colour of the first mesh's material, clamped to [0, 1]. The
 * material list itself may start with Assimp's own default material (OBJ
 * files do), which no mesh uses. */
static int file_color(const struct aiScene *sc, float rgb[3]) {
  for (unsigned m = 0; m < sc->mNumMeshes; m++) {
    unsigned i = sc->mMeshes[m]->mMaterialIndex;
    struct aiColor4D c;
    struct aiString name;
    /* Files without a material get Assimp's white default; sensim's own
     * default (mid grey) is the better guess for an unknown surface. */
    if (i < sc->mNumMaterials &&
        aiGetMaterialString(sc->mMaterials[i], AI_MATKEY_NAME, &name) == aiReturn_SUCCESS &&
        strcmp(name.data, AI_DEFAULT_MATERIAL_NAME) == 0)
      continue;
    if (i < sc->mNumMaterials &&
        aiGetMaterialColor(sc->mMaterials[i], AI_MATKEY_COLOR_DIFFUSE, &c) == aiReturn_SUCCESS) {
      float v[3] = {c.r, c.g, c.b};
      for (int k = 0; k < 3; k++) rgb[k] = isfinite(v[k]) ? fminf(fmaxf(v[k], 0.0f), 1.0f) : 0.5f;
      return 1;
    }
  }
  return 0;
}

/* A triangle with a repeated corner has no area and no ray can hit it;
 * after JoinIdenticalVertices that includes corners at the same place.
 * Dropped, so a file of nothing else holds no triangles (SENSIM_EPARSE). */
static int proper_triangle(const struct aiFace *f) {
  const unsigned *i = f->mIndices;
  return f->mNumIndices == 3 && i[0] != i[1] && i[1] != i[2] && i[0] != i[2];
}

/* Assimp's steps that make sensim's mesh: polygons into triangles, shared
 * vertices joined, node transforms baked into the vertices
 * (PreTransformVertices: "merged with node transforms applied"), and
 * meshes split by primitive type so points and lines can be left out. */
#define STEPS (aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices | \
               aiProcess_SortByPType)

/* Read `path` into a scene that has passed sensim__mesh_check_scene before
 * and after the steps; on failure nothing is left to release. */
static sensim_status import_checked(const char *path, const struct aiScene **out) {
  struct stat sb;
  if (stat(path, &sb) != 0) {
    int e = errno;
    return sensim__fail(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO,
                        "mesh file '%s' cannot be opened: %s", path, strerror(e));
  }
  /* A FIFO or device would block or never end. */
  if (!S_ISREG(sb.st_mode)) return sensim__fail(SENSIM_EIO, "mesh file '%s' is not a regular file", path);
  sensim__mesh_format fmt = sensim__mesh_format_of(path);
  if (fmt == SENSIM__MESH_UNSUPPORTED)
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s': not a format sensim reads (.obj, .ply, .stl, .gltf, "
                        ".glb)", path);
  sensim_status st = sensim__mesh_check_file(path, fmt);
  if (st) return st;
  /* The reader alone first: its scene is checked before a step indexes
   * through it. */
  const struct aiScene *sc = aiImportFileEx(path, 0, sensim__mesh_file_io());
  if (!sc) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': %s", path, aiGetErrorString());
  /* Assimp allocated the scene for this import alone; the check only
   * rewrites primitive-type masks the steps read. */
  st = sensim__mesh_check_scene((struct aiScene *)sc, path);
  if (st) {
    aiReleaseImport(sc);
    return st;
  }
  /* On failure aiApplyPostProcessing has released the scene itself. */
  sc = aiApplyPostProcessing(sc, STEPS);
  if (!sc) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': post-processing failed: %s", path, aiGetErrorString());
  st = sensim__mesh_check_scene((struct aiScene *)sc, path);
  if (st) {
    aiReleaseImport(sc);
    return st;
  }
  *out = sc;
  return SENSIM_OK;
}

sensim_status sensim_mesh_load(sensim_world *w, const char *path, const sensim_material *material,
                               sensim_mesh **out) {
  if (!w || !path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_mesh_load: NULL argument");
  const struct aiScene *sc = NULL;
  sensim_status st = import_checked(path, &sc);
  if (st) return st;
  size_t nv = 0, nt = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    nv += m->mNumVertices;
    for (unsigned j = 0; j < m->mNumFaces; j++) nt += proper_triangle(&m->mFaces[j]);
  }
  if (nt == 0) {
    aiReleaseImport(sc);
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s' holds no triangles (of three distinct vertices)", path);
  }
  /* Texture coordinates from each mesh's first UV channel, where any mesh
   * has one (meshes without get (0, 0)). */
  int any_uv = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) any_uv |= sc->mMeshes[i]->mTextureCoords[0] != NULL;
  float *v = malloc(3 * nv * sizeof *v);
  uint32_t *ix = malloc(3 * nt * sizeof *ix);
  float *uv = any_uv ? calloc(2 * nv, sizeof *uv) : NULL;
  if (!v || !ix || (any_uv && !uv)) {
    free(v);
    free(ix);
    free(uv);
    aiReleaseImport(sc);
    return sensim__fail(SENSIM_ENOMEM, "out of memory loading '%s'", path);
  }
  size_t bv = 0, bt = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    for (unsigned j = 0; j < m->mNumVertices; j++) {
      v[3 * (bv + j)] = m->mVertices[j].x;
      v[3 * (bv + j) + 1] = m->mVertices[j].y;
      v[3 * (bv + j) + 2] = m->mVertices[j].z;
      if (uv && m->mTextureCoords[0]) {
        /* Assimp's v runs up from the image's bottom row (OpenGL); sensim's
         * textures, like glTF, count v down from the top row. */
        uv[2 * (bv + j)] = m->mTextureCoords[0][j].x;
        uv[2 * (bv + j) + 1] = 1.0f - m->mTextureCoords[0][j].y;
      }
    }
    for (unsigned j = 0; j < m->mNumFaces; j++) {
      const struct aiFace *fc = &m->mFaces[j];
      if (!proper_triangle(fc)) continue;
      for (int k = 0; k < 3; k++) ix[3 * bt + k] = (uint32_t)(bv + fc->mIndices[k]);
      bt++;
    }
    bv += m->mNumVertices;
  }
  sensim_material mat;
  sensim_material_init(&mat);
  if (material) mat = *material;
  else file_color(sc, mat.base_color);
  aiReleaseImport(sc);
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = v, d.uvs = uv, d.nvert = nv;
  d.indices = ix, d.ntri = nt, d.material = &mat;
  sensim_status rc = sensim_mesh_create(w, &d, out);
  free(v);
  free(ix);
  free(uv);
  if (rc) sensim__error_context("mesh file '%s'", path);
  return rc;
}
