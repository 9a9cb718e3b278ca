/* bench/tile_city.c: the tile files of bench/tile_city.h. */
#include "tile_city.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUILDINGS 12  /* per tile edge */
#define MAX_HEIGHT 30.0 /* m, buildings' tallest */

const char *bench_tile_city_path(const bench_tile_city *c, int i, int j) {
  static char path[320];
  snprintf(path, sizeof path, "%s/tile_%d_%d.ply", c->dir, i, j);
  return path;
}

void bench_tile_city_bounds(const bench_tile_city *c, int i, int j, double lo[3], double hi[3]) {
  double x0 = (i - 0.5 * c->grid) * c->size, y0 = (j - 0.5 * c->grid) * c->size;
  lo[0] = x0, lo[1] = y0, lo[2] = -1.0;
  hi[0] = x0 + c->size, hi[1] = y0 + c->size, hi[2] = MAX_HEIGHT;
}

/* Ground height at (x, y): gentle bumps within +-0.5 m. */
static float ground(double x, double y) { return (float)(0.25 * sin(0.05 * x) + 0.25 * cos(0.07 * y)); }

static int write_tile(const bench_tile_city *c, int i, int j) {
  double lo[3], hi[3];
  bench_tile_city_bounds(c, i, j, lo, hi);
  const int n = c->cells, nb = 4 * BUILDINGS;
  const size_t nv = (size_t)(n + 1) * (n + 1) + 8 * (size_t)nb, nt = 2 * (size_t)n * n + 10 * (size_t)nb;
  FILE *f = fopen(bench_tile_city_path(c, i, j), "wb");
  if (!f) return -1;
  fprintf(f, "ply\nformat binary_little_endian 1.0\nelement vertex %zu\nproperty float x\nproperty float y\n"
             "property float z\nelement face %zu\nproperty list uchar int vertex_indices\nend_header\n", nv, nt);
  const double h = c->size / n;
  for (int b = 0; b <= n; b++)
    for (int a = 0; a <= n; a++) {
      float v[3] = {(float)(lo[0] + a * h), (float)(lo[1] + b * h), 0};
      v[2] = ground(v[0], v[1]);
      fwrite(v, sizeof v, 1, f);
    }
  /* Buildings: 12 per edge, 10 m deep, set 5 m in from it; heights vary. */
  const double w = c->size / BUILDINGS;
  for (int k = 0; k < nb; k++) {
    int edge = k / BUILDINGS, s = k % BUILDINGS;
    double along = s * w + 2.0, x, y, dx = w - 4.0, dy = 10.0;
    if (edge == 0) x = lo[0] + along, y = lo[1] + 5.0;
    else if (edge == 1) x = lo[0] + along, y = hi[1] - 15.0;
    else if (edge == 2) x = lo[0] + 5.0, y = lo[1] + along, dx = 10.0, dy = w - 4.0;
    else x = hi[0] - 15.0, y = lo[1] + along, dx = 10.0, dy = w - 4.0;
    double top = 8.0 + fmod(37.0 * (k + 7 * i + 13 * j), MAX_HEIGHT - 9.0);
    for (int q = 0; q < 8; q++) {
      float v[3] = {(float)(x + ((q & 1) ? dx : 0)), (float)(y + ((q & 2) ? dy : 0)), (float)((q & 4) ? top : 0)};
      fwrite(v, sizeof v, 1, f);
    }
  }
  unsigned char three = 3;
  for (int b = 0; b < n; b++)
    for (int a = 0; a < n; a++) {
      int32_t p = b * (n + 1) + a, t1[3] = {p, p + 1, p + n + 2}, t2[3] = {p, p + n + 2, p + n + 1};
      fwrite(&three, 1, 1, f), fwrite(t1, sizeof t1, 1, f);
      fwrite(&three, 1, 1, f), fwrite(t2, sizeof t2, 1, f);
    }
  /* Four walls and a roof per building (its floor is never seen). */
  static const int quad[5][4] = {{0, 1, 5, 4}, {1, 3, 7, 5}, {3, 2, 6, 7}, {2, 0, 4, 6}, {4, 5, 7, 6}};
  for (int k = 0; k < nb; k++) {
    int32_t base = (int32_t)((size_t)(n + 1) * (n + 1) + 8 * (size_t)k);
    for (int q = 0; q < 5; q++) {
      int32_t t1[3] = {base + quad[q][0], base + quad[q][1], base + quad[q][2]};
      int32_t t2[3] = {base + quad[q][0], base + quad[q][2], base + quad[q][3]};
      fwrite(&three, 1, 1, f), fwrite(t1, sizeof t1, 1, f);
      fwrite(&three, 1, 1, f), fwrite(t2, sizeof t2, 1, f);
    }
  }
  return fclose(f) == 0 ? 0 : -1;
}

int bench_tile_city_write(bench_tile_city *c, const char *dir, int grid, double size, int cells) {
  c->grid = grid, c->size = size, c->cells = cells;
  snprintf(c->dir, sizeof c->dir, "%s", dir);
  c->triangles = 2 * (size_t)cells * cells + 10 * 4 * BUILDINGS;
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
  for (int i = 0; i < grid; i++)
    for (int j = 0; j < grid; j++)
      if (write_tile(c, i, j)) return -1;
  return 0;
}

void bench_tile_city_remove(const bench_tile_city *c) {
  for (int i = 0; i < c->grid; i++)
    for (int j = 0; j < c->grid; j++) unlink(bench_tile_city_path(c, i, j));
  rmdir(c->dir);
}
