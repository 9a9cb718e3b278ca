/* scene/mesh_gltf.h: glTF 2.0 materials of an imported scene
 * (scene/mesh_gltf.c). Not installed. */
#ifndef SENSIM_SCENE_MESH_GLTF_H
#define SENSIM_SCENE_MESH_GLTF_H

#include <assimp/scene.h>
#include "sensim/world.h"

/* Every material of `sc` (sc->mNumMaterials, indexed alike) mapped onto
 * sensim_material, their textures made in `w`. On failure (a missing or
 * unreadable image, a value out of range: SENSIM_EPARSE) the error names `path` and the material;
 * textures made so far stay in w: the caller takes them back with
 * sensim__texture_rollback. *out is malloc'd. */
sensim_status sensim__gltf_materials(sensim_world *w, const struct aiScene *sc, const char *path,
                                     sensim_material **out);

#endif
