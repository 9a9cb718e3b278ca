/* bench/bench_cone.c: cost per query of the cone sensor's methods.
 *
 * Scenes of 1, 5 and 10 obstacles (thin boxes, 1 m x 1 m faces, 12
 * triangles = 6 quads each) spread over the cone (90 x 90 deg, 12 m) at
 * 3 to 8 m, every one inside it, measured with the lines method at 10, 100
 * and 1000 lines, the exact method and the rays method (65 x 65 and
 * 257 x 257 rays). Each query is one capture through the public API
 * (world with no worker threads, so the capture runs inside advance;
 * published_speed off, so a capture is one query): snapshot, query and
 * frame, as a host sees it. Reported: median over reps of the mean time per
 * capture of `frames` captures, after one warm-up run, on this one thread,
 * and the ratio to the 1-obstacle, 10-line case.
 *
 *   bench_cone [--quick] [--markdown] [--reps N] [--frames N]
 *
 * See docs/cone.md and docs/performance.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sensim/cone.h"
#include "sensim/sensim.h"

#define PI 3.14159265358979323846

typedef struct cfg {
  int quick, markdown, reps, frames;
} cfg;

static int fail(const char *what) {
  fprintf(stderr, "bench_cone: %s: %s\n", what, sensim_last_error());
  return 1;
}

/* Obstacle i of n: a face turned to the sensor at range 3..8 m, spread in
 * azimuth and elevation within +-30 deg (inside the 45 deg half angles). */
static int add_obstacles(sensim_world *w, int n) {
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.02, 1.0, 1.0}, 0};
  sensim_mesh *m = NULL;
  if (sensim_mesh_create_shape(w, &sh, NULL, &m)) return fail("mesh");
  for (int i = 0; i < n; i++) {
    double u = n > 1 ? (double)i / (n - 1) : 0.5;
    double r = 3.0 + 5.0 * u, az = (-30.0 + 60.0 * u) * PI / 180, el = (20.0 - 40.0 * fmod(3.7 * u, 1.0)) * PI / 180;
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = m;
    bp.is_static = 1;
    bp.pose.pos = (sensim_vec3){r * cos(el) * cos(az), r * cos(el) * sin(az), r * sin(el)};
    bp.pose.rot = sensim_quat_from_ypr(az, -el, 0.0);
    sensim_body *b = NULL;
    if (sensim_body_create(w, &bp, &b)) return fail("body");
  }
  return 0;
}

/* Mean wall time per capture, us (median over reps), or -1 on failure. */
static double time_case(const cfg *c, int obstacles, sensim_cone_method method, int n) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  sensim_world *w = NULL;
  if (sensim_world_create(&wp, &w)) return fail("world"), -1.0;
  if (add_obstacles(w, obstacles)) return sensim_world_destroy(w), -1.0;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 1000.0;
  sensim_cone_params cp;
  sensim_cone_params_init(&cp);
  cp.theta = cp.phi = 0.5 * PI;
  cp.length = 12.0;
  cp.method = method;
  cp.lines = n;
  cp.rays = n;
  cp.published_speed = 0;
  sensim_sensor *s = NULL;
  if (sensim_cone_create(w, &sp, &cp, &s)) return fail("cone"), sensim_world_destroy(w), -1.0;
  double per[BENCH_MAX_REPS];
  long k = 0;
  int detected = 1;
  for (int rep = 0; rep <= c->reps; rep++) {
    double t0 = bench_wall_s();
    for (int f = 0; f < c->frames; f++, k++) {
      const sensim_frame *fr = NULL;
      if (sensim_world_advance(w, k * 1e-3)) return fail("advance"), sensim_world_destroy(w), -1.0;
      if (sensim_sensor_poll(s, &fr) || !fr) return fail("poll"), sensim_world_destroy(w), -1.0;
      detected &= ((const sensim_detection *)fr->data)->detected;
    }
    if (rep > 0) per[rep - 1] = (bench_wall_s() - t0) / c->frames * 1e6;
  }
  sensim_world_destroy(w);
  if (!detected) fprintf(stderr, "bench_cone: a capture detected nothing (scene set-up?)\n");
  return bench_median(per, c->reps);
}

int main(int argc, char **argv) {
  cfg c = {0, 0, 5, 100};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) c.quick = 1;
    else if (!strcmp(argv[i], "--markdown")) c.markdown = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) c.reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) c.frames = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--quick] [--markdown] [--reps N (1..%d)] [--frames N]\n", argv[0],
              BENCH_MAX_REPS);
      return 2;
    }
  }
  if (c.quick) {
    c.reps = 1;
    c.frames = 5;
  }
  if (c.reps < 1 || c.reps > BENCH_MAX_REPS || c.frames < 1) {
    fprintf(stderr, "bench_cone: reps must be in 1..%d and frames >= 1\n", BENCH_MAX_REPS);
    return 2;
  }
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_cone: %s; %d reps x %d captures, one thread\n", cpu, c.reps, c.frames);
  typedef struct col {
    const char *name;
    sensim_cone_method m;
    int n;
  } col;
  const col cols[] = {{"lines 10", SENSIM_CONE_LINES, 10},    {"lines 100", SENSIM_CONE_LINES, 100},
                      {"lines 1000", SENSIM_CONE_LINES, 1000}, {"exact", SENSIM_CONE_EXACT, 2},
                      {"rays 65^2", SENSIM_CONE_RAYS, 65},     {"rays 257^2", SENSIM_CONE_RAYS, 257}};
  const int ncol = 6, obst[3] = {1, 5, 10};
  const char *head[7] = {"obstacles"};
  for (int j = 0; j < ncol; j++) head[j + 1] = cols[j].name;
  bench_row rows[3], ratio[3];
  double base = 0.0;
  for (int i = 0; i < 3; i++) {
    snprintf(rows[i].c[0], BENCH_CELL, "%d", obst[i]);
    snprintf(ratio[i].c[0], BENCH_CELL, "%d", obst[i]);
    for (int j = 0; j < ncol; j++) {
      double us = time_case(&c, obst[i], cols[j].m, cols[j].n);
      if (us < 0) return 1;
      if (i == 0 && j == 0) base = us;
      snprintf(rows[i].c[j + 1], BENCH_CELL, "%.1f", us);
      snprintf(ratio[i].c[j + 1], BENCH_CELL, "%.2f", us / base);
    }
  }
  bench_print_table(c.markdown, "Cone sensor: wall time per capture, us", head, ncol + 1, rows, 3);
  bench_print_table(c.markdown, "Ratio to 1 obstacle, 10 lines", head, ncol + 1, ratio, 3);
  return 0;
}
