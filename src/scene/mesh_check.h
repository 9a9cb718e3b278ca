/* scene/mesh_check.h: what sensim_mesh_load (scene/mesh_import.c) checks
 * before and after Assimp reads a file. Not installed.
 *
 * Assimp 5.2 (Debian 12) trusts its input: a truncated binary PLY hangs
 * its header parser or leaves faces indexing far past the vertex array,
 * and the post-processing steps then read out of bounds. sensim therefore
 * accepts only the formats it checks, checks the file's own structure where
 * Assimp's reader cannot be trusted with it (PLY counts against the file's
 * size, glTF's container and JSON), reads without post-processing, checks
 * the scene Assimp built, and only then runs the steps. */
#ifndef SENSIM_SCENE_MESH_CHECK_H
#define SENSIM_SCENE_MESH_CHECK_H

#include <assimp/scene.h>
#include <stdint.h>
#include <stdio.h>
#include "sensim/status.h"

typedef enum sensim__mesh_format {
  SENSIM__MESH_UNSUPPORTED = 0,
  SENSIM__MESH_OBJ,
  SENSIM__MESH_PLY,
  SENSIM__MESH_STL,
  SENSIM__MESH_GLTF, /* glTF 2.0 JSON (.gltf) */
  SENSIM__MESH_GLB   /* glTF 2.0 binary container (.glb) */
} sensim__mesh_format;

/* The format a path's extension names (case-insensitive), which is also
 * the reader Assimp will pick for it. */
sensim__mesh_format sensim__mesh_format_of(const char *path);

/* The file's structure, where Assimp's reader would otherwise run past its
 * data or hand the file to another reader: a PLY header and its element
 * counts against the file's length, an STL's grammar and an OBJ's face
 * indices (their readers leak what they allocated when they throw), a
 * glTF's JSON and GLB container. SENSIM_EPARSE naming `path` and what is
 * wrong; SENSIM_EIO if it cannot be read. */
sensim_status sensim__mesh_check_file(const char *path, sensim__mesh_format fmt);

/* The PLY part of sensim__mesh_check_file (scene/mesh_ply_check.c): `f`
 * open at its start, `size` its length in bytes. */
sensim_status sensim__mesh_check_ply(FILE *f, uint64_t size, const char *path);
/* The STL part (scene/mesh_stl_check.c), likewise. */
sensim_status sensim__mesh_check_stl(FILE *f, uint64_t size, const char *path);
/* The OBJ part (scene/mesh_obj_check.c), on the whole file's `size` bytes. */
sensim_status sensim__mesh_check_obj(const char *text, size_t size, const char *path);

/* Whether the n bytes at w are one whole number as Assimp's text readers
 * parse one without throwing: [+-]digits for an integer, else a decimal
 * [+-](digits[.digits]|.digits)[e[+-]digits]. Assimp's readers throw on
 * anything else after allocating what they were filling, and leak it. */
int sensim__mesh_number(const char *w, size_t n, int integer);

/* The scene as Assimp's reader left it, before any post-processing step:
 * every pointer the steps and sensim follow is set where its count says
 * so, every face index, material index, node mesh index and bone weight
 * is in range, every vertex and uv is finite, no mesh is empty, and the
 * node tree is at most SENSIM__MESH_MAX_DEPTH deep. Each mesh's primitive
 * types are recomputed from its faces (the steps select meshes by them).
 * SENSIM_EPARSE naming `path` and the first fault. Also run on the
 * processed scene, which must hold the same. */
sensim_status sensim__mesh_check_scene(struct aiScene *sc, const char *path);

/* The file access sensim_mesh_load gives Assimp (scene/mesh_io.c):
 * regular files, for reading, and nothing else. */
struct aiFileIO *sensim__mesh_file_io(void);

/* Deeper node trees are refused: Assimp's steps and sensim recurse per
 * level, and a hand-written file has no reason for more. */
#define SENSIM__MESH_MAX_DEPTH 256

#endif
