/* bench/bench_instances.c: what one mesh placed K times costs, as K static
 * bodies and as one body holding K placements (sensim_body_create_instances,
 * with and without fast_bvh): resident memory after the first capture,
 * against one tree's world plus K transforms (the yardstick), and
 * an OS1-128 capture among the trees (docs/performance.md, "Instancing").
 *
 * The tree is a 64-segment sphere of radius 3 m (3 968 triangles) on an
 * 8 m grid, 3 m up; the OS1-128 (raw beams, 10 Hz) stands on a 2 m mast at
 * the origin. Every case runs in a process of its own (this program
 * started again with --case), so each memory figure starts from a fresh
 * heap. The world's pool is off and times are the calling thread's CPU
 * time (the machine is shared).
 *
 *   bench_instances [--trees K]     (default 100 000; --quick: 2 000) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sensim/sensim.h"

#define PROG "bench_instances"
#define SCANS 10 /* timed captures after the first */

enum { ONE_TREE, BODIES, GROUP, GROUP_FAST, NCASES };
static const char *const kCase[NCASES] = {"one", "bodies", "group", "group-fast"};

/* VmRSS of /proc/self/status, MiB. */
static double resident_mib(void) {
  char line[256];
  double kib = 0;
  FILE *fp = fopen("/proc/self/status", "r");
  while (fp && fgets(line, sizeof line, fp))
    if (sscanf(line, "VmRSS: %lf kB", &kib) == 1) break;
  if (fp) fclose(fp);
  return kib / 1024.0;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One case in this process: prints "rss_mib triangles median_ms first_ms". */
static int run_case(int which, int k) {
  const double before = resident_mib();
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  sensim_world *w = NULL;
  BENCH_CHECK(PROG, 1, sensim_world_create(&wp, &w));
  const sensim_shape crown = {SENSIM_SHAPE_SPHERE, {3.0, 0, 0}, 64};
  sensim_mesh *tree = NULL;
  BENCH_CHECK(PROG, 1, sensim_mesh_create_shape(w, &crown, NULL, &tree));
  const int n = which == ONE_TREE ? 1 : k, side = (int)ceil(sqrt((double)n));
  sensim_pose *at = malloc((size_t)n * sizeof *at);
  if (!at) return 1;
  for (int i = 0; i < n; i++)
    at[i] = (sensim_pose){{(i % side - 0.5 * side) * 8.0 + 4.0, (i / side - 0.5 * side) * 8.0 + 4.0, 3.0},
                          {1.0, 0.0, 0.0, 0.0}};
  sensim_body *b = NULL;
  if (which == GROUP || which == GROUP_FAST) {
    sensim_instances_desc d;
    sensim_instances_desc_init(&d);
    d.mesh = tree, d.n = (size_t)n, d.poses = at, d.class_id = 5, d.fast_bvh = which == GROUP_FAST;
    BENCH_CHECK(PROG, 1, sensim_body_create_instances(w, &d, &b));
  } else {
    for (int i = 0; i < n; i++) {
      sensim_body_params bp;
      sensim_body_params_init(&bp);
      bp.mesh = tree, bp.is_static = 1, bp.class_id = 5, bp.pose = at[i];
      BENCH_CHECK(PROG, 1, sensim_body_create(w, &bp, &b));
    }
  }
  free(at);
  sensim_body_params mp;
  sensim_body_params_init(&mp);
  mp.is_static = 1;
  mp.pose.pos.z = 2.0;
  sensim_body *mast = NULL;
  BENCH_CHECK(PROG, 1, sensim_body_create(w, &mp, &mast));
  sensim_lidar_params lp;
  BENCH_CHECK(PROG, 1, sensim_lidar_preset("OS1-128", &lp));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = mast, sp.rate = 10.0;
  sensim_sensor *os1 = NULL;
  BENCH_CHECK(PROG, 1, sensim_lidar_create(w, &sp, &lp, &os1));
  double ms[SCANS + 1];
  for (int s = 0; s <= SCANS; s++) {
    bench_span t;
    bench_span_start(&t);
    BENCH_CHECK(PROG, 1, sensim_world_advance(w, 0.1 * s));
    const sensim_frame *f = NULL;
    BENCH_CHECK(PROG, 1, sensim_sensor_poll(os1, &f));
    bench_span_stop(&t);
    if (!f) return 1;
    ms[s] = t.thread;
  }
  const double first = ms[0];
  qsort(ms + 1, SCANS, sizeof *ms, by_value);
  printf("%.3f %zu %.3f %.3f\n", resident_mib() - before, sensim_mesh_triangle_count(tree), ms[1 + SCANS / 2], first);
  sensim_world_destroy(w);
  return 0;
}

typedef struct result {
  double mib, ntri, ms, first_ms;
} result;

/* Case `which` in a new process of this program. */
static int spawn(const char *self, int which, int k, result *r) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' --case %s --trees %d", self, kCase[which], k);
  fflush(stdout);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  int got = fscanf(p, "%lf %lf %lf %lf", &r->mib, &r->ntri, &r->ms, &r->first_ms);
  return pclose(p) == 0 && got == 4 ? 0 : -1;
}

int main(int argc, char **argv) {
  int k = 100000, which = -1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) k = 2000;
    else if (!strcmp(argv[i], "--trees") && i + 1 < argc && (k = atoi(argv[++i])) >= 1) continue;
    else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
      ++i;
      for (int c = 0; c < NCASES; c++)
        if (!strcmp(argv[i], kCase[c])) which = c;
      if (which < 0) return 2;
    } else {
      fprintf(stderr, "usage: %s [--quick] [--trees K]\n", PROG);
      return 2;
    }
  }
  bench_flush_denormals();
  if (which >= 0) return run_case(which, k);
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("%s on %s, 1 thread (the world's pool off), %d trees\n\n", PROG, cpu, k);
  result r[NCASES];
  for (int c = 0; c < NCASES; c++)
    if (spawn(argv[0], c, k, &r[c])) {
      fprintf(stderr, "%s: case %s failed\n", PROG, kCase[c]);
      return 1;
    }
  /* One tree's world plus K transforms (3 x 4 floats each): what no scheme
   * goes below. */
  const double floor_mib = r[ONE_TREE].mib + k * 48.0 / (1024.0 * 1024.0);
  const char *head[] = {"trees", "RSS after first capture, MiB", "per extra tree, bytes", "x (one tree + transforms)",
                        "OS1-128 capture ms", "x bodies' capture", "first capture ms"};
  bench_row rows[NCASES];
  for (int c = 0; c < NCASES; c++) {
    if (c == ONE_TREE) snprintf(rows[c].c[0], BENCH_CELL, "1 (%.0f triangles)", r[c].ntri);
    else snprintf(rows[c].c[0], BENCH_CELL, c == BODIES ? "%d static bodies" : c == GROUP ? "%d placements of one body"
                                                                                        : "%d placements, fast_bvh", k);
    snprintf(rows[c].c[1], BENCH_CELL, "%.1f", r[c].mib);
    snprintf(rows[c].c[2], BENCH_CELL, "%.0f", (r[c].mib - r[ONE_TREE].mib) * 1048576.0 / (k > 1 ? k - 1 : 1));
    snprintf(rows[c].c[3], BENCH_CELL, "%.2f", r[c].mib / floor_mib);
    snprintf(rows[c].c[4], BENCH_CELL, "%.2f", r[c].ms);
    snprintf(rows[c].c[5], BENCH_CELL, "%.2f", r[c].ms / r[BODIES].ms);
    snprintf(rows[c].c[6], BENCH_CELL, "%.1f", r[c].first_ms);
    if (c == ONE_TREE) strcpy(rows[c].c[2], "-"), strcpy(rows[c].c[3], "-"), strcpy(rows[c].c[5], "-");
  }
  bench_print_table(1, "One tree mesh placed as static bodies, and as placements of one body", head, 7, rows, NCASES);
  printf("\none tree + %d transforms: %.1f MiB\n", k, floor_mib);
  return 0;
}
