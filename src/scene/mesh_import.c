/* scene/mesh_import.c: mesh files through Assimp's C API. */
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
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

sensim_status sensim_mesh_load(sensim_world *w, const char *path, const sensim_material *material,
                               sensim_mesh **out) {
  if (!w || !path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_mesh_load: NULL argument");
  FILE *f = fopen(path, "rb");
  if (!f) return sensim__fail(SENSIM_ENOTFOUND, "mesh file '%s' cannot be opened", path);
  fclose(f);
  /* PreTransformVertices bakes the node hierarchy's transforms into the
   * vertices, which is what "merged with node transforms applied" means. */
  const struct aiScene *sc =
      aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                             aiProcess_PreTransformVertices | aiProcess_SortByPType);
  if (!sc) return sensim__fail(SENSIM_EPARSE, "mesh file '%s': %s", path, aiGetErrorString());
  size_t nv = 0, nt = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    nv += m->mNumVertices;
    for (unsigned j = 0; j < m->mNumFaces; j++) nt += m->mFaces[j].mNumIndices == 3;
  }
  if (nt == 0) {
    aiReleaseImport(sc);
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s' holds no triangles", path);
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
      if (fc->mNumIndices != 3) continue;
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
