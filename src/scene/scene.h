/* scene/scene.h: the world's insides, shared by the modules below cli.
 * Not installed. */
#ifndef SENSIM_SCENE_SCENE_H
#define SENSIM_SCENE_SCENE_H

#include <stdio.h>
#include "sensim/frame.h"
#include "sensim/world.h"

typedef struct sensim_keyframe {
  double t;               /* s */
  sensim_body_state s;    /* derivatives always filled: given or estimated */
  unsigned given;         /* SENSIM_STATE_* bits the host supplied */
} sensim_keyframe;

typedef struct sensim_track {
  sensim_keyframe *k;     /* time-ordered, strictly increasing t */
  size_t n, cap;
} sensim_track;

/* Triangles per culling sphere of a mesh (sensim_mesh.chunk_bounds). */
#define SENSIM__MESH_CHUNK 32

struct sensim_mesh {
  sensim_world *world;
  int index;              /* position in world->meshes */
  float *vertices;        /* 3 * nvert, mesh frame, m */
  float *uvs;             /* 2 * nvert texture coordinates, or NULL */
  float *tri_reflectance; /* ntri lidar reflectances, or NULL: the material's */
  uint32_t *indices;      /* 3 * ntri */
  size_t nvert, ntri;
  double radius;          /* largest distance of a vertex from the mesh origin, m */
  float *chunk_bounds;    /* per run of SENSIM__MESH_CHUNK consecutive triangles, a sphere
                             holding them: centre x, y, z and radius (mesh frame, m);
                             ceil(ntri / SENSIM__MESH_CHUNK) x 4. For culling (the radar's
                             facets): index order is usually spatially coherent. */
  sensim_material material; /* the mesh's own; materials[0] when there are several */
  float *normals;         /* 3 * nvert unit vertex normals, mesh frame, or NULL */
  float *tangents;        /* 4 * nvert unit tangents and handedness (+-1), or NULL */
  sensim_material *materials; /* nmaterials, or NULL: `material` everywhere */
  uint32_t *tri_material; /* ntri indices into materials, or NULL: materials[0] */
  size_t nmaterials;
};

/* A deforming body's vertex keyframes (scene/deform.c): n arrays of nvert
 * vertices (3 floats each, mesh frame) at strictly increasing times. */
typedef struct sensim_vtrack {
  double *t;              /* n times, s */
  float *v;               /* n x 3 x nvert */
  size_t n, cap, nvert;
} sensim_vtrack;

/* The material of triangle `prim` of m. */
static inline const sensim_material *sensim__mesh_tri_material(const sensim_mesh *m, unsigned prim) {
  if (!m->materials) return &m->material;
  return &m->materials[m->tri_material ? m->tri_material[prim] : 0];
}

/* Texture coordinates at barycentric (u, v) of triangle prim; 0 if the
 * mesh has none (scene/material_eval.c). */
int sensim__mesh_uv(const sensim_mesh *m, unsigned prim, float u, float v, float uv[2]);
/* The material's alpha there: its alpha times the base-colour texture's. */
float sensim__mesh_alpha(const sensim_mesh *m, unsigned prim, float u, float v);
/* Whether any material of m is alpha-masked or blended. */
int sensim__mesh_has_alpha(const sensim_mesh *m);

/* Per-vertex tangents for the normal maps of a mesh (scene/tangents.c),
 * MikkTSpace-compatible (Mikkelsen 2008): 4 * nvert floats, or NULL with
 * the error set when out of memory. `normals` may be NULL (area-weighted
 * face normals are used). */
float *sensim__mesh_tangents(const float *v, const float *uv, const float *normals, size_t nvert,
                             const uint32_t *ix, size_t ntri);

/* The placements of one mesh held by one static body
 * (sensim_body_create_instances, scene/instances.c). Immutable once made;
 * freed with the world, as snapshots in flight point to it. */
typedef struct sensim_instance_group {
  size_t n;                /* placements */
  float (*xf)[12];         /* per placement: mesh frame to world, row-major rotation
                              r00 r01 r02 r10 .. r22, then the translation x, y, z, m */
  uint16_t class_id;       /* every placement's class when class_ids is NULL */
  uint16_t *class_ids;     /* n, or NULL */
  uint32_t first_id;       /* placement k's instance id is first_id + k when instance_ids is NULL */
  uint32_t *instance_ids;  /* n, or NULL */
  float albedo_jitter, reflectance_jitter; /* sensim_instances_desc's */
  int fast_bvh;            /* sensim_instances_desc's */
  uint64_t seed;           /* the world's seed */
  uint32_t body_index;     /* the holding body's: names the variation's streams */
} sensim_instance_group;

/* Placement k's ids. */
static inline uint16_t sensim__group_class(const sensim_instance_group *g, size_t k) {
  return g->class_ids ? g->class_ids[k] : g->class_id;
}
static inline uint32_t sensim__group_instance(const sensim_instance_group *g, size_t k) {
  return g->instance_ids ? g->instance_ids[k] : g->first_id + (uint32_t)k;
}
/* The ids a hit carries: placement `elem`'s of group g, or (g NULL) the
 * body's own `cls` and `inst`. Every sensor's labels go through here, so
 * the numbering is one across sensors. */
static inline void sensim__hit_ids(const sensim_instance_group *g, uint16_t cls, uint32_t inst, size_t elem,
                                   uint16_t *cls_out, uint32_t *inst_out) {
  *cls_out = g ? sensim__group_class(g, elem) : cls;
  *inst_out = g ? sensim__group_instance(g, elem) : inst;
}
/* Placement k's variation factors (sensim_instances_desc): albedo[3] and
 * the reflectance's; all 1 without jitter. */
void sensim__group_variation(const sensim_instance_group *g, size_t k, float albedo[3], float *reflectance);
void sensim__group_free(sensim_instance_group *g);

struct sensim_body {
  sensim_world *world;
  int index;              /* position in world->bodies */
  sensim_mesh *mesh;      /* may be NULL */
  uint16_t class_id;
  uint32_t instance_id;
  int is_static;
  int destroyed;          /* sensim_body_destroy'ed: kept only so handles held
                             elsewhere fail cleanly instead of reading freed memory */
  sensim_track track;     /* dynamic bodies; static ones hold one keyframe */
  sensim_pose pose0;      /* creation pose, where sensim_world_reset puts it back */
  sensim_vtrack deform;   /* pushed vertices; n = 0: the mesh's own (rigid) */
  sensim_instance_group *group; /* placements of `mesh` (sensim_body_create_instances), or NULL */
};

struct sensim_texture {
  sensim_world *world;
  uint32_t width, height;
  float *stored;          /* width x height x 4 RGBA as given, row 0 on top: sRGB-encoded
                             RGB if srgb, else linear; alpha always linear (1 where none) */
  float *linear;          /* the same with RGB decoded to linear light; == stored unless srgb */
  int srgb;               /* RGB was given sRGB-encoded (image files) */
  int has_alpha;          /* some texel's alpha is below 1 */
};

/* How a material uses a texture: colour (base colour, emission: decoded
 * to linear light) or data (metallic-roughness, normals: the values as
 * stored). glTF 2.0, sec. 3.9. */
enum { SENSIM__TEX_COLOR = 0, SENSIM__TEX_DATA = 1 };

/* Bilinear, wrapping texture lookup at (u, v) of RGBA for a use
 * (scene/texture.c). */
void sensim__texture_sample4(const sensim_texture *t, float u, float v, int use, float out[4]);
/* Colour use, RGB only. */
void sensim__texture_sample(const sensim_texture *t, float u, float v, float rgb[3]);
/* A texture from texels of nch channels (1 grey, 2 grey + alpha, 3 RGB, 4
 * RGBA) in [0, max] (1, or FLT_MAX for high-dynamic-range radiance),
 * copied; srgb: RGB is sRGB-encoded. */
sensim_status sensim__texture_make(sensim_world *w, uint32_t width, uint32_t height, const float *texels, int nch,
                                   int srgb, float max, sensim_texture **out);
/* A texture from PNG or JPEG bytes read from fp (scene/texture_image.c),
 * sRGB-encoded as image files are; `name` names it in errors. */
sensim_status sensim__texture_from_png(sensim_world *w, FILE *fp, const char *name, sensim_texture **out);
void sensim__texture_free(sensim_texture *t);
/* Free the textures made after the world held n (a failed import's). */
void sensim__texture_rollback(sensim_world *w, size_t n);
/* IEC 61966-2-1 sRGB decoding of one value in [0, 1]. */
float sensim__srgb_decode(float c);

struct sensim_world {
  sensim_world_params params;
  /* The clock's time, -inf before the first advance. The runtime (which
   * owns the clock) alone writes it; scene reads it to refuse keyframes in
   * the past and to trim tracks. */
  double t;
  /* The longest collection window of any sensor, s: how much history
   * tracks keep behind the clock. Set by the runtime as sensors are made. */
  double max_window;
  sensim_mesh **meshes;
  size_t nmeshes, cap_meshes;
  sensim_body **bodies;
  size_t nbodies, cap_bodies;
  size_t *dynamic;              /* indices of the dynamic bodies, increasing: what per-advance upkeep visits */
  size_t ndynamic, cap_dynamic;
  /* Per body, its snapshot entry as far as it holds for every capture: a
   * static body's whole entry, a dynamic body's without keyframes. A
   * snapshot starts as a copy of it (scene/snapshot.c), instead of reading
   * 1 900 scattered bodies per capture. */
  struct sensim_body_snap *snap_base;
  size_t cap_snap_base;
  sensim_light *lights;
  size_t nlights, cap_lights;
  sensim_texture **textures;
  size_t ntextures, cap_textures;
  /* The environment (scene/environment.c): the one in use (NULL: none),
   * and every one built so far, kept until the world goes because
   * snapshots of captures in flight point to them. */
  const struct sensim_env *env;
  struct sensim_env **envs;
  size_t nenvs, cap_envs;
  uint32_t next_instance_id;
  int keep_beyond_reach;        /* benchmarks' "before" (rt/rt.h): captures keep bodies beyond reach */
  size_t *snap_win;             /* scratch of sensim__snapshot_take_into (host thread): per dynamic
                                   body, its window's first keyframe and count (SIZE_MAX: left out) */
  size_t cap_snap_win;
  struct sensim_tile **tiles;   /* declared tiles (scene/tiles.c), in the order added */
  size_t ntiles, cap_tiles;
  struct sensim_tile_reader *tile_reader; /* reads tiles ahead (scene/tile_reader.c); NULL until needed */
  int tile_read_ahead_off;      /* benchmarks' "before" (rt/rt.h): tiles read when needed only */
  /* The layers above scene attach their per-world state here on first use
   * and say how to free it: the runtime (sensors, workers; freed first, as
   * its jobs read meshes) and the ray-tracing kernel. */
  void *runtime;
  void (*runtime_release)(void *runtime);
  void *rt;
  void (*rt_release)(void *rt);
};

/* Validate a material's ranges and that its texture belongs to `w`
 * (scene/mesh.c). */
sensim_status sensim__material_check(const sensim_world *w, const sensim_material *m);

/* ---- keyframe tracks (scene/track.c) ---- */

/* Append a keyframe, estimating the derivatives the host did not give (and
 * refining the previous keyframe's estimate now that it has a successor). */
sensim_status sensim__track_push(sensim_track *tr, double t, const sensim_body_state *s);
/* State at t, interpolated between the keyframes around it (clamped). */
void sensim__track_state_at(const sensim_keyframe *k, size_t n, double t, sensim_body_state *out);
/* Drop keyframes older than t_keep, keeping the last one before it. */
void sensim__track_trim(sensim_track *tr, double t_keep);
void sensim__track_free(sensim_track *tr);
/* Make tr one keyframe at -inf: `pose`, at rest. How a body starts, and
 * where sensim_world_reset puts a dynamic body back; the host's first push
 * replaces it. Keeps the array's capacity. */
sensim_status sensim__track_start(sensim_track *tr, sensim_pose pose);
/* Trim every dynamic body's track to what unscheduled captures can need. */
void sensim__world_trim_tracks(sensim_world *w);

/* ---- bodies (scene/body.c) ---- */

/* The scene's part of sensim_body_destroy (the runtime first checks that no
 * sensor rides b): b keeps its slot, so body indices in snapshots and views
 * stay valid, but loses its mesh and becomes static. */
void sensim__body_retire(sensim_body *b);
/* Every dynamic body back at its creation pose, at rest (sensim_world_reset). */
void sensim__world_rewind_bodies(sensim_world *w);

/* ---- snapshots (scene/snapshot.c) ---- */

/* An immutable copy of what a capture job needs from the world: the
 * keyframes of every body covering [t0, t1], the lights and the world
 * parameters. Capture jobs read only this, so the host can keep stepping. */
typedef struct sensim_body_snap {
  const sensim_mesh *mesh;   /* meshes are immutable once created */
  int body_index;
  uint16_t class_id;
  uint32_t instance_id;
  int is_static;
  sensim_pose pose;          /* a static body's pose (it never changes), read with the body's other fields */
  size_t nk;
  const sensim_keyframe *k;  /* covering [t0, t1]: first <= t0, last >= t1 when held */
  size_t nvk, nvert;         /* a deforming body's vertex keyframes covering [t0, t1]
                                (0: rigid) and its vertex count */
  const double *vk_t;        /* nvk times */
  const float *vk_v;         /* nvk x 3 x nvert vertices, mesh frame */
  const sensim_instance_group *group; /* placements of `mesh` (hits name one by their element,
                                         sensim_rt_hit.elem), or NULL: one instance at `pose` */
} sensim_body_snap;

/* A box of world space, m: where a capture's rays can reach (a lidar's
 * positions over its window grown by its max range); lo = -inf and hi =
 * +inf: everywhere. */
typedef struct sensim_reach {
  double lo[3], hi[3];
} sensim_reach;

typedef struct sensim_snapshot {
  double t0, t1;             /* the collection window, s */
  sensim_reach reach;        /* where the capture's rays can reach (the runtime sets it
                                after taking the snapshot; everywhere until then): bodies
                                wholly outside it can be left out of its view */
  sensim_world_params params;
  size_t nbodies;
  sensim_body_snap *bodies;  /* indexed like world->bodies */
  size_t nlights;
  sensim_light *lights;
  const struct sensim_env *env; /* the world's environment (NULL: none); lives as long as the world */
} sensim_snapshot;

/* b's entry in world->snap_base: its fields, and a static body's
 * keyframe (the world's own: static tracks never change). */
void sensim__body_snap_base(const sensim_body *b, sensim_body_snap *out);
/* Snapshot every body (all = 1) or only the body with index `only` (all = 0,
 * only >= 0; -1 for none), for sensors that need no geometry. */
sensim_status sensim__snapshot_take(sensim_world *w, double t0, double t1, int all,
                                    int only, sensim_snapshot **out);
void sensim__snapshot_free(sensim_snapshot *snap);
/* sensim__snapshot_take into a block the caller keeps from one capture to
 * the next (*block of *cap bytes, both 0 at first): it is reused when big
 * enough and replaced by a bigger one otherwise, so a sensor's captures
 * allocate no snapshot in steady state. The caller frees *block (free())
 * when done with it, never sensim__snapshot_free. On failure *block is
 * kept as it was. `reach` (NULL: everywhere) becomes the snapshot's; a
 * rigid moving body other than `only` whose window keyframes, grown by its
 * mesh's radius, stay outside it is left out (no mesh, no keyframes): no
 * ray of the capture can reach it. */
sensim_status sensim__snapshot_take_into(sensim_world *w, double t0, double t1, int all, int only,
                                         const sensim_reach *reach, void **block, size_t *cap,
                                         sensim_snapshot **out);
/* ---- reach (scene/reach.c) ---- */

/* The box of keyframes k[0 .. nk)'s positions grown by `grow` (m) on every
 * side; empty (lo > hi) for nk = 0. Positions between keyframes are
 * linear blends of theirs (track.c), so they stay inside it. */
void sensim__keys_box(const sensim_keyframe *k, size_t nk, double grow, sensim_reach *out);
/* Whether boxes a and b overlap (touching counts). */
int sensim__reach_meets(const sensim_reach *a, const sensim_reach *b);
void sensim__reach_everywhere(sensim_reach *r);
/* The keyframes of tr covering [t0, t1] (the last at or before t0, those
 * inside, the first at or after t1) as [*first, *first + *n) (snapshot.c). */
void sensim__track_window(const sensim_track *tr, double t0, double t1, size_t *first, size_t *n);

/* ---- mesh files in two halves (scene/mesh_import.c) ----
 * sensim_mesh_load is sensim__mesh_import (the file read and checked by
 * Assimp: no world, any thread) then sensim__mesh_from_import (the mesh,
 * and a glTF's textures, made in the world: host thread), so a file can be
 * read on another thread (scene/tiles.c). */
struct aiScene;
sensim_status sensim__mesh_import(const char *path, const struct aiScene **out);
/* Takes `sc` (released whatever happens). */
sensim_status sensim__mesh_from_import(sensim_world *w, const char *path, const struct aiScene *sc,
                                       const sensim_material *material, sensim_mesh **out);
/* Release an import not handed to sensim__mesh_from_import; NULL is a no-op. */
void sensim__mesh_import_free(const struct aiScene *sc);

/* ---- tiles (scene/tiles.c, sensim/tile.h) ---- */

/* Put in the captures' scene the loaded tiles that meet one of the n
 * reach boxes, loading those that meet one for the first time, and leave
 * the others out; start reading ahead, on the reader's thread, the files
 * of tiles that meet one of the n `ahead` boxes (NULL: none). Host
 * thread, before the step's snapshots. Returns the first load's failure
 * (its message naming the file), after selecting every tile. */
sensim_status sensim__tiles_select(sensim_world *w, const sensim_reach *reach, const sensim_reach *ahead, size_t n);
void sensim__tiles_free(sensim_world *w);

/* ---- deforming bodies (scene/deform.c) ---- */
void sensim__vtrack_trim(sensim_vtrack *vt, double t_keep);
void sensim__vtrack_free(sensim_vtrack *vt);
/* The keyframes covering [t0, t1], as window_of for poses. */
void sensim__vtrack_window(const sensim_vtrack *vt, double t0, double t1, size_t *first, size_t *n);
/* A deforming snapshot body's vertices at t (3 x nvert floats), linear
 * between its keyframes, clamped to the first and last. */
void sensim__snap_vertices_at(const sensim_body_snap *b, double t, float *out);

/* State of snapshot body i at time t. */
void sensim__snap_state_at(const sensim_snapshot *snap, size_t i, double t,
                           sensim_body_state *out);

#endif
