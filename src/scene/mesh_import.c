/* scene/mesh_import.c: mesh files through Assimp's C API, checked before
 * and after Assimp reads them (scene/mesh_check.h says why). */
#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/internal.h"
#include "scene/mesh_check.h"
#include "scene/mesh_gltf.h"
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

/* Assimp's C API keeps its last error in one process-wide string, which
 * a failed import writes and aiGetErrorString reads: imports on two
 * threads at once (a tile read in the background while the host loads a
 * mesh) take turns. */
static pthread_mutex_t assimp_lock = PTHREAD_MUTEX_INITIALIZER;

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
  pthread_mutex_lock(&assimp_lock);
  const struct aiScene *sc = aiImportFileEx(path, 0, sensim__mesh_file_io());
  if (!sc) st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': %s", path, aiGetErrorString());
  pthread_mutex_unlock(&assimp_lock);
  if (!sc) return st;
  /* Assimp allocated the scene for this import alone; the check only
   * rewrites primitive-type masks the steps read. */
  st = sensim__mesh_check_scene((struct aiScene *)sc, path);
  if (st) {
    aiReleaseImport(sc);
    return st;
  }
  /* On failure aiApplyPostProcessing has released the scene itself. */
  pthread_mutex_lock(&assimp_lock);
  sc = aiApplyPostProcessing(sc, STEPS);
  if (!sc) st = sensim__fail(SENSIM_EPARSE, "mesh file '%s': post-processing failed: %s", path, aiGetErrorString());
  pthread_mutex_unlock(&assimp_lock);
  if (!sc) return st;
  st = sensim__mesh_check_scene((struct aiScene *)sc, path);
  if (st) {
    aiReleaseImport(sc);
    return st;
  }
  *out = sc;
  return SENSIM_OK;
}

/* What a glTF file adds to the positions and uvs: vertex normals and
 * tangents where every triangle mesh has them, and per-triangle material
 * indices into the file's materials used by the meshes, compacted. */
typedef struct extras {
  float *normals, *tangents;
  uint32_t *tri_material;
  sensim_material *materials;
  size_t nmaterials;
} extras;

static void extras_free(extras *e) {
  free(e->normals);
  free(e->tangents);
  free(e->tri_material);
  free(e->materials);
}

static int tri_mesh(const struct aiMesh *m) { return (m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) != 0; }

/* Tangents of one aiMesh that has none in the file, into out (4 per
 * vertex), from its own positions, uvs (v flipped as sensim stores them)
 * and normals, as sensim_mesh_create generates them for a whole mesh. */
static sensim_status mesh_tangents(const struct aiMesh *m, float *out) {
  const size_t n = m->mNumVertices;
  if (!m->mTextureCoords[0]) { /* no uvs: no normal map can be read there */
    for (size_t j = 0; j < n; j++) out[4 * j] = 1, out[4 * j + 1] = out[4 * j + 2] = 0, out[4 * j + 3] = 1;
    return SENSIM_OK;
  }
  float *p = malloc(3 * n * sizeof *p), *uv = malloc(2 * n * sizeof *uv), *nr = malloc(3 * n * sizeof *nr);
  uint32_t *ix = malloc(3 * (size_t)m->mNumFaces * sizeof *ix);
  size_t nt = 0;
  float *t = NULL;
  if (p && uv && nr && ix) {
    for (size_t j = 0; j < n; j++) {
      p[3 * j] = m->mVertices[j].x, p[3 * j + 1] = m->mVertices[j].y, p[3 * j + 2] = m->mVertices[j].z;
      nr[3 * j] = m->mNormals[j].x, nr[3 * j + 1] = m->mNormals[j].y, nr[3 * j + 2] = m->mNormals[j].z;
      uv[2 * j] = m->mTextureCoords[0][j].x, uv[2 * j + 1] = 1.0f - m->mTextureCoords[0][j].y;
    }
    for (unsigned j = 0; j < m->mNumFaces; j++)
      if (proper_triangle(&m->mFaces[j])) {
        for (int k = 0; k < 3; k++) ix[3 * nt + k] = m->mFaces[j].mIndices[k];
        nt++;
      }
    t = sensim__mesh_tangents(p, uv, nr, n, ix, nt);
  }
  free(p), free(uv), free(nr), free(ix);
  if (!t) return sensim__fail(SENSIM_ENOMEM, "out of memory for tangents");
  memcpy(out, t, 4 * n * sizeof *t);
  free(t);
  return SENSIM_OK;
}

/* Vertex attributes and materials of a glTF scene, nv vertices and nt
 * triangles as sensim_mesh_load counts them. */
static sensim_status gltf_extras(sensim_world *w, const struct aiScene *sc, const char *path, size_t nv, size_t nt,
                                 extras *e) {
  memset(e, 0, sizeof *e);
  /* Tangents where some primitive gives them: the others' are generated
   * mesh by mesh (as sensim_mesh_create would for the whole mesh). */
  int normals = 1, tangents = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!tri_mesh(m)) continue;
    normals &= m->mNormals != NULL;
    tangents |= m->mTangents && m->mBitangents;
  }
  tangents &= normals;
  sensim_material *all = NULL;
  sensim_status rc = sensim__gltf_materials(w, sc, path, &all);
  if (rc) return rc;
  /* Used materials only, in order of first use; sc's index -> compact. */
  uint32_t *remap = malloc((sc->mNumMaterials ? sc->mNumMaterials : 1) * sizeof *remap);
  e->materials = malloc((sc->mNumMaterials ? sc->mNumMaterials : 1) * sizeof *e->materials);
  e->tri_material = malloc(nt * sizeof *e->tri_material);
  e->normals = normals ? malloc(3 * nv * sizeof *e->normals) : NULL;
  e->tangents = tangents ? malloc(4 * nv * sizeof *e->tangents) : NULL;
  if (!remap || !e->materials || !e->tri_material || (normals && !e->normals) || (tangents && !e->tangents)) {
    free(remap);
    free(all);
    extras_free(e);
    return sensim__fail(SENSIM_ENOMEM, "out of memory loading '%s'", path);
  }
  for (unsigned i = 0; i < sc->mNumMaterials; i++) remap[i] = UINT32_MAX;
  size_t bv = 0, bt = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!tri_mesh(m)) continue;
    const unsigned mi = m->mMaterialIndex; /* in range: sensim__mesh_check_scene */
    if (remap[mi] == UINT32_MAX) {
      remap[mi] = (uint32_t)e->nmaterials;
      e->materials[e->nmaterials++] = all[mi];
    }
    for (unsigned j = 0; j < m->mNumFaces; j++)
      if (proper_triangle(&m->mFaces[j])) e->tri_material[bt++] = remap[mi];
    if (e->tangents && !(m->mTangents && m->mBitangents)) {
      rc = mesh_tangents(m, e->tangents + 4 * bv);
      if (rc) {
        free(remap);
        free(all);
        extras_free(e);
        return rc;
      }
    }
    for (unsigned j = 0; j < m->mNumVertices; j++) {
      float *n = e->normals ? e->normals + 3 * (bv + j) : NULL;
      if (n) {
        n[0] = m->mNormals[j].x, n[1] = m->mNormals[j].y, n[2] = m->mNormals[j].z;
        /* A zero or broken normal in the file: the flat one there. */
        if (!(isfinite(n[0]) && isfinite(n[1]) && isfinite(n[2])) || (n[0] == 0 && n[1] == 0 && n[2] == 0)) {
          free(e->normals), e->normals = NULL;
          free(e->tangents), e->tangents = NULL;
        }
      }
      float *t = e->tangents && m->mTangents && m->mBitangents ? e->tangents + 4 * (bv + j) : NULL;
      if (t) {
        const struct aiVector3D tt = m->mTangents[j], bb = m->mBitangents[j], nn = m->mNormals[j];
        t[0] = tt.x, t[1] = tt.y, t[2] = tt.z;
        /* Assimp keeps glTF's w as bitangent = w (n x t). */
        const float cx = nn.y * tt.z - nn.z * tt.y, cy = nn.z * tt.x - nn.x * tt.z, cz = nn.x * tt.y - nn.y * tt.x;
        t[3] = cx * bb.x + cy * bb.y + cz * bb.z < 0 ? -1.0f : 1.0f;
        if (!(isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2])) || (t[0] == 0 && t[1] == 0 && t[2] == 0)) {
          free(e->tangents), e->tangents = NULL; /* generated instead */
        }
      }
    }
    bv += m->mNumVertices;
  }
  free(remap);
  free(all);
  return SENSIM_OK;
}

sensim_status sensim__mesh_import(const char *path, const struct aiScene **out) {
  return import_checked(path, out);
}

void sensim__mesh_import_free(const struct aiScene *sc) {
  if (sc) aiReleaseImport(sc);
}

sensim_status sensim_mesh_load(sensim_world *w, const char *path, const sensim_material *material,
                               sensim_mesh **out) {
  if (!w || !path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_mesh_load: NULL argument");
  const struct aiScene *sc = NULL;
  sensim_status st = import_checked(path, &sc);
  if (st) return st;
  return sensim__mesh_from_import(w, path, sc, material, out);
}

sensim_status sensim__mesh_from_import(sensim_world *w, const char *path, const struct aiScene *sc,
                                       const sensim_material *material, sensim_mesh **out) {
  sensim_status st = SENSIM_OK;
  size_t nv = 0, nt = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!tri_mesh(m)) continue;
    nv += m->mNumVertices;
    for (unsigned j = 0; j < m->mNumFaces; j++) nt += proper_triangle(&m->mFaces[j]);
  }
  if (nt == 0) {
    aiReleaseImport(sc);
    return sensim__fail(SENSIM_EPARSE, "mesh file '%s' holds no triangles (of three distinct vertices)", path);
  }
  const sensim__mesh_format fmt = sensim__mesh_format_of(path);
  const int gltf = (fmt == SENSIM__MESH_GLTF || fmt == SENSIM__MESH_GLB) && !material;
  const size_t textures_before = w->ntextures;
  extras ex;
  memset(&ex, 0, sizeof ex);
  if (gltf) {
    st = gltf_extras(w, sc, path, nv, nt, &ex);
    if (st) {
      sensim__texture_rollback(w, textures_before);
      aiReleaseImport(sc);
      return st;
    }
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
    extras_free(&ex);
    sensim__texture_rollback(w, textures_before);
    aiReleaseImport(sc);
    return sensim__fail(SENSIM_ENOMEM, "out of memory loading '%s'", path);
  }
  size_t bv = 0, bt = 0;
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    const struct aiMesh *m = sc->mMeshes[i];
    if (!tri_mesh(m)) continue;
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
  else if (!gltf) file_color(sc, mat.base_color);
  aiReleaseImport(sc);
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = v, d.uvs = uv, d.nvert = nv;
  d.indices = ix, d.ntri = nt;
  if (gltf) {
    d.materials = ex.materials, d.nmaterials = ex.nmaterials;
    d.tri_material = ex.nmaterials > 1 ? ex.tri_material : NULL;
    d.normals = ex.normals, d.tangents = ex.tangents;
  } else {
    d.material = &mat;
  }
  sensim_status rc = sensim_mesh_create(w, &d, out);
  free(v);
  free(ix);
  free(uv);
  extras_free(&ex);
  if (rc) {
    sensim__texture_rollback(w, textures_before);
    sensim__error_context("mesh file '%s'", path);
  }
  return rc;
}
