/* scene/mesh_scene_check.c: the scene Assimp's reader built, checked
 * before any post-processing step runs on it.
 *
 * Assimp's steps (Triangulate, JoinIdenticalVertices, PreTransformVertices,
 * SortByPType) index vertex arrays by face indices, materials by mesh
 * material indices, meshes by node mesh indices and vertices by bone
 * weights, all without a bounds check: ValidateDataStructure is what
 * Assimp offers for that, and it reports by log message. A truncated binary
 * PLY gave faces of ten indices 0x0A0A0A0A over eight vertices, and
 * Triangulate read far past the array. Every such index is checked here,
 * with the file's name and the first fault in the message. */
#include <math.h>
#include <stdint.h>
#include "core/internal.h"
#include "scene/mesh_check.h"

#define FAIL(...) sensim__fail(SENSIM_EPARSE, __VA_ARGS__)

static int finite3(const struct aiVector3D *v) { return isfinite(v->x) && isfinite(v->y) && isfinite(v->z); }

static int finite_matrix(const struct aiMatrix4x4 *t) {
  const ai_real r[16] = {t->a1, t->a2, t->a3, t->a4, t->b1, t->b2, t->b3, t->b4,
                         t->c1, t->c2, t->c3, t->c4, t->d1, t->d2, t->d3, t->d4};
  for (int i = 0; i < 16; i++)
    if (!isfinite(r[i])) return 0;
  return 1;
}

/* Primitive types as the faces have them: steps pick meshes by this mask
 * and a reader may have left it wrong. */
static unsigned face_types(const struct aiMesh *m) {
  unsigned t = 0;
  for (unsigned j = 0; j < m->mNumFaces; j++) {
    unsigned k = m->mFaces[j].mNumIndices;
    t |= k == 1 ? aiPrimitiveType_POINT : k == 2 ? aiPrimitiveType_LINE
         : k == 3 ? aiPrimitiveType_TRIANGLE : aiPrimitiveType_POLYGON;
  }
  return t;
}

static sensim_status check_bones(const struct aiMesh *m, unsigned i, const char *path) {
  if (m->mNumBones && !m->mBones) return FAIL("mesh file '%s': mesh %u lists bones it does not hold", path, i);
  for (unsigned b = 0; b < m->mNumBones; b++) {
    const struct aiBone *bone = m->mBones[b];
    if (!bone || (bone->mNumWeights && !bone->mWeights))
      return FAIL("mesh file '%s': mesh %u bone %u is missing", path, i, b);
    for (unsigned k = 0; k < bone->mNumWeights; k++)
      if (bone->mWeights[k].mVertexId >= m->mNumVertices)
        return FAIL("mesh file '%s': mesh %u bone %u weighs vertex %u of %u", path, i, b,
                    bone->mWeights[k].mVertexId, m->mNumVertices);
  }
  /* Morph targets are indexed by the base mesh's vertex indices. */
  if (m->mNumAnimMeshes && !m->mAnimMeshes)
    return FAIL("mesh file '%s': mesh %u lists morph targets it does not hold", path, i);
  for (unsigned a = 0; a < m->mNumAnimMeshes; a++) {
    const struct aiAnimMesh *am = m->mAnimMeshes[a];
    if (!am || am->mNumVertices != m->mNumVertices || (am->mNumVertices && !am->mVertices))
      return FAIL("mesh file '%s': mesh %u morph target %u does not match its %u vertices", path, i, a,
                  m->mNumVertices);
  }
  return SENSIM_OK;
}

static sensim_status check_mesh(struct aiMesh *m, unsigned i, unsigned nmat, const char *path) {
  if (!m) return FAIL("mesh file '%s': mesh %u is missing", path, i);
  if (m->mNumVertices == 0 || m->mNumFaces == 0 || !m->mVertices || !m->mFaces)
    return FAIL("mesh file '%s': mesh %u is empty (%u vertices, %u faces)", path, i, m->mNumVertices,
                m->mNumFaces);
  if (m->mMaterialIndex >= nmat)
    return FAIL("mesh file '%s': mesh %u uses material %u of %u", path, i, m->mMaterialIndex, nmat);
  for (unsigned j = 0; j < m->mNumVertices; j++)
    if (!finite3(&m->mVertices[j]))
      return FAIL("mesh file '%s': mesh %u vertex %u is not finite", path, i, j);
  if (m->mTextureCoords[0])
    for (unsigned j = 0; j < m->mNumVertices; j++)
      if (!finite3(&m->mTextureCoords[0][j]))
        return FAIL("mesh file '%s': mesh %u texture coordinate %u is not finite", path, i, j);
  for (unsigned j = 0; j < m->mNumFaces; j++) {
    const struct aiFace *f = &m->mFaces[j];
    if (f->mNumIndices == 0 || !f->mIndices)
      return FAIL("mesh file '%s': mesh %u face %u has no vertices", path, i, j);
    for (unsigned k = 0; k < f->mNumIndices; k++)
      if (f->mIndices[k] >= m->mNumVertices)
        return FAIL("mesh file '%s': mesh %u face %u uses vertex %u of %u", path, i, j, f->mIndices[k],
                    m->mNumVertices);
  }
  sensim_status st = check_bones(m, i, path);
  if (st) return st;
  m->mPrimitiveTypes = face_types(m);
  return SENSIM_OK;
}

/* Nodes: mesh indices in range, children present, depth bounded; the walk
 * keeps its own stack so a deep file cannot overflow the host's. */
static sensim_status check_nodes(const struct aiScene *sc, const char *path) {
  if (!sc->mRootNode) return FAIL("mesh file '%s' has no node tree", path);
  const struct aiNode *stack[SENSIM__MESH_MAX_DEPTH + 1];
  unsigned next[SENSIM__MESH_MAX_DEPTH + 1];
  int top = 0;
  stack[0] = sc->mRootNode;
  next[0] = 0;
  for (;;) {
    const struct aiNode *n = stack[top];
    if (next[top] == 0) {
      if (n->mNumMeshes && !n->mMeshes) return FAIL("mesh file '%s': a node lists meshes it does not hold", path);
      for (unsigned k = 0; k < n->mNumMeshes; k++)
        if (n->mMeshes[k] >= sc->mNumMeshes)
          return FAIL("mesh file '%s': a node uses mesh %u of %u", path, n->mMeshes[k], sc->mNumMeshes);
      if (!finite_matrix(&n->mTransformation))
        return FAIL("mesh file '%s': a node's transform is not finite", path);
      if (n->mNumChildren && !n->mChildren) return FAIL("mesh file '%s': a node lists children it does not hold", path);
    }
    if (next[top] < n->mNumChildren) {
      const struct aiNode *c = n->mChildren[next[top]++];
      if (!c) return FAIL("mesh file '%s': a node's child is missing", path);
      if (top == SENSIM__MESH_MAX_DEPTH)
        return FAIL("mesh file '%s': nodes nest more than %d deep", path, SENSIM__MESH_MAX_DEPTH);
      stack[++top] = c;
      next[top] = 0;
    } else if (top == 0) {
      return SENSIM_OK;
    } else {
      top--;
    }
  }
}

sensim_status sensim__mesh_check_scene(struct aiScene *sc, const char *path) {
  if (!sc->mNumMeshes || !sc->mMeshes) return FAIL("mesh file '%s' holds no meshes", path);
  if (sc->mNumMaterials && !sc->mMaterials) return FAIL("mesh file '%s' lists materials it does not hold", path);
  for (unsigned i = 0; i < sc->mNumMaterials; i++)
    if (!sc->mMaterials[i]) return FAIL("mesh file '%s': material %u is missing", path, i);
  for (unsigned i = 0; i < sc->mNumMeshes; i++) {
    sensim_status st = check_mesh(sc->mMeshes[i], i, sc->mNumMaterials, path);
    if (st) return st;
  }
  return check_nodes(sc, path);
}
