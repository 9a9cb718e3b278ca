/* bench/tile_city.h: a city written as tile files, for bench_scale's tiles
 * section: a G x G grid of square tiles, each a binary PLY holding its
 * ground as a bumpy grid of quads and a row of buildings along each edge
 * (boxes), so a lidar in one tile sees its neighbours' buildings. */
#ifndef SENSIM_BENCH_TILE_CITY_H
#define SENSIM_BENCH_TILE_CITY_H

#include <stddef.h>

typedef struct bench_tile_city {
  int grid;           /* G: tiles per side */
  double size;        /* tile side, m; the city spans [-G size / 2, G size / 2]^2 */
  int cells;          /* ground quads per tile side */
  char dir[256];      /* folder holding tile_<i>_<j>.ply */
  size_t triangles;   /* per tile */
} bench_tile_city;

/* Write the tiles into `dir` (made if missing). 0, or -1 on an I/O error. */
int bench_tile_city_write(bench_tile_city *c, const char *dir, int grid, double size, int cells);
/* Tile (i, j)'s file (a static buffer) and its bounds (min x, y, z, max x, y, z). */
const char *bench_tile_city_path(const bench_tile_city *c, int i, int j);
void bench_tile_city_bounds(const bench_tile_city *c, int i, int j, double lo[3], double hi[3]);
/* Remove the files and the folder. */
void bench_tile_city_remove(const bench_tile_city *c);

#endif
