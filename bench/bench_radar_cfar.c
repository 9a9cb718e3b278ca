/* bench/bench_radar_cfar.c: the cost of the radar's CFAR detectors and
 * DBSCAN (src/filters/radar_cfar.h, radar_dbscan.h) on one core, for the
 * raw FMCW chain's budget per frame.
 *
 *   bench_radar_cfar [--quick] [--markdown] [--reps N]
 *
 * Rows: CA- and OS-CFAR (guard 1 x 1, training 6 range x 3 Doppler cells
 * on each side: N = 126, OS rank round(3N/4) = 95, pfa 1e-4) on
 * exponential noise maps of 128 x 256 and 256 x 512 (Doppler x range);
 * DBSCAN (eps 1 per axis, min_pts 4) on 500 and 2000 points in 3-D (20
 * Gaussian blobs of unit spread in a 60-unit cube and a uniform tenth).
 * Reported: median over N runs after one warm-up of the calling thread's
 * CPU time per call, and per cell or point. Nothing is asserted; see
 * docs/performance.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "filters/radar_cfar.h"
#include "filters/radar_dbscan.h"
#include "sensim/rng.h"
#include "sensim/sensim.h"

#include <math.h>

static float *noise_map(int nd, int nr) {
  float *m = malloc((size_t)nd * nr * sizeof *m);
  if (!m) return NULL;
  sensim_rng r;
  sensim_rng_init(&r, 7, 1, 0, 0);
  for (size_t i = 0; i < (size_t)nd * nr; i++) m[i] = (float)-log1p(-sensim_rng_uniform(&r));
  return m;
}

static double *points(size_t n) {
  double *p = malloc(3 * n * sizeof *p);
  if (!p) return NULL;
  sensim_rng r;
  sensim_rng_init(&r, 7, 2, 0, 0);
  double c[20][3];
  for (int k = 0; k < 20; k++)
    for (int j = 0; j < 3; j++) c[k][j] = 60.0 * sensim_rng_uniform(&r);
  for (size_t i = 0; i < n; i++)
    for (int j = 0; j < 3; j++)
      p[3 * i + j] = i % 10 == 9 ? 60.0 * sensim_rng_uniform(&r) : c[i % 20][j] + sensim_rng_normal(&r);
  return p;
}

int main(int argc, char **argv) {
  int quick = 0, markdown = 0, reps = 9;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--markdown") == 0) markdown = 1;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_radar_cfar [--quick] [--markdown] [--reps N]\n");
      return 2;
    }
  }
  if (reps < 1 || reps > BENCH_MAX_REPS - 1) reps = 9;
  if (quick) reps = 1;
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_radar_cfar: %s, one thread, median of %d after a warm-up\n", cpu, reps);

  bench_row rows[8];
  int nrows = 0;
  const int sizes[2][2] = {{128, 256}, {256, 512}};
  for (int s = 0; s < (quick ? 1 : 2); s++) {
    const int nd = sizes[s][0], nr = sizes[s][1];
    float *map = noise_map(nd, nr);
    uint8_t *hit = malloc((size_t)nd * nr);
    if (!map || !hit) return 1;
    for (int kind = 0; kind < 2; kind++) {
      sensim__cfar_params p = {kind ? SENSIM__CFAR_OS : SENSIM__CFAR_CA, 1, 1, 6, 3, 1e-4, 0};
      double t[BENCH_MAX_REPS];
      size_t hits = 0;
      for (int r = 0; r <= reps; r++) {
        bench_span sp;
        bench_span_start(&sp);
        BENCH_CHECK("bench_radar_cfar", 1, sensim__cfar_detect(map, nd, nr, &p, hit, &hits));
        bench_span_stop(&sp);
        if (r) t[r - 1] = sp.thread;
      }
      const double ms = bench_median(t, reps);
      bench_row *row = &rows[nrows++];
      snprintf(row->c[0], BENCH_CELL, "%s-CFAR %d x %d", kind ? "OS" : "CA", nd, nr);
      snprintf(row->c[1], BENCH_CELL, "%.3f", ms);
      snprintf(row->c[2], BENCH_CELL, "%.1f", 1e6 * ms / ((double)nd * nr));
      snprintf(row->c[3], BENCH_CELL, "%zu", hits);
    }
    free(map);
    free(hit);
  }
  const size_t npts[2] = {500, 2000};
  for (int s = 0; s < 2; s++) {
    const size_t n = npts[s];
    double *p = points(n);
    int *label = malloc(n * sizeof *label);
    if (!p || !label) return 1;
    const double eps[3] = {1.0, 1.0, 1.0};
    double t[BENCH_MAX_REPS];
    int k = 0;
    for (int r = 0; r <= reps; r++) {
      bench_span sp;
      sensim_status st = SENSIM_OK;
      bench_span_start(&sp);
      k = sensim__dbscan(p, n, 3, eps, 4, label, &st);
      bench_span_stop(&sp);
      if (k < 0) {
        fprintf(stderr, "bench_radar_cfar: dbscan failed: %s\n", sensim_last_error());
        return 1;
      }
      if (r) t[r - 1] = sp.thread;
    }
    const double ms = bench_median(t, reps);
    bench_row *row = &rows[nrows++];
    snprintf(row->c[0], BENCH_CELL, "DBSCAN %zu points, 3-D", n);
    snprintf(row->c[1], BENCH_CELL, "%.3f", ms);
    snprintf(row->c[2], BENCH_CELL, "%.1f", 1e6 * ms / (double)n);
    snprintf(row->c[3], BENCH_CELL, "%d clusters", k);
    free(p);
    free(label);
  }
  const char *head[] = {"case", "CPU ms/call", "ns per cell/point", "result"};
  bench_print_table(markdown, "radar CFAR and DBSCAN", head, 4, rows, nrows);
  return 0;
}
