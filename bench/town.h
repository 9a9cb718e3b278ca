/* bench/town.h: a procedural town for the kernel benchmark.
 *
 * Built by code, no files: a ground plane, a grid of city blocks with
 * buildings (boxes of varied heights, half of them with recessed windows on
 * subdivided facades), street lights, trees, parked cars and traffic cones.
 * Each kind of object is one mesh instanced many times, as a user would
 * build a scene. The layout is a pure function of the parameters and the
 * seed (sensim_rng), so both sides of the benchmark see the same geometry.
 *
 * World frame: Z up, the town centred on the origin, which lies on a street
 * crossing; streets run along X and Y. */
#ifndef SENSIM_BENCH_TOWN_H
#define SENSIM_BENCH_TOWN_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/sensim.h"

typedef struct bench_town_params {
  uint64_t seed;        /* key of the layout's random stream */
  int blocks;           /* city blocks along each axis, >= 1 */
  double block_size;    /* side of a block, m */
  double street_width;  /* kerb to kerb, m */
  int building_types;   /* distinct building meshes, >= 1 */
  double facade_cell;   /* facade cell width, m (smaller: more triangles) */
  int segments;         /* facets around round objects (poles, trees, cones) */
  double tree_spacing;  /* distance between trees along a kerb, m */
  double pole_spacing;  /* distance between street lights along a kerb, m */
  double ground_cell;   /* ground plane grid cell, m */
} bench_town_params;

/* The full town (about 2 million instanced triangles). */
void bench_town_params_full(bench_town_params *p);
/* A small town for the smoke test (tens of thousands of triangles). */
void bench_town_params_quick(bench_town_params *p);

typedef struct bench_town_mesh {
  const char *name;          /* kind of object, for the report */
  float *vertices;           /* 3 * nvert, mesh frame, m */
  uint32_t *indices;         /* 3 * ntri, counter-clockwise seen from outside */
  size_t nvert, ntri, cap_vert, cap_tri;
  sensim_material material;
  uint16_t class_id;
} bench_town_mesh;

typedef struct bench_town_instance {
  int mesh;                  /* index into meshes */
  sensim_pose pose;          /* mesh frame in the world */
} bench_town_instance;

typedef struct bench_town {
  bench_town_mesh *meshes;
  size_t nmeshes;
  bench_town_instance *inst;
  size_t ninst, cap_inst;
} bench_town;

/* Build the town's meshes and instances. Returns 0, or -1 on allocation
 * failure or bad parameters (the town is then empty and may be freed). */
int bench_town_build(const bench_town_params *p, bench_town *out);
void bench_town_free(bench_town *t);

/* Triangles of the unique meshes, and of all instances together. */
size_t bench_town_unique_triangles(const bench_town *t);
size_t bench_town_instanced_triangles(const bench_town *t);

/* Create the town's meshes in `world` (sensim_mesh_create) and one static
 * body per instance (sensim_body_create, is_static = 1). */
sensim_status bench_town_add_to_world(const bench_town *t, sensim_world *world);

#endif
