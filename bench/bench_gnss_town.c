/* bench/bench_gnss_town.c: the GNSS receiver's satellites mode in the
 * procedural town (bench/town.h): fixes per second on one core with
 * ray-traced visibility and multipath, beside the nominal mode and the
 * satellites mode without ray tracing, and what the town does to the fix
 * (satellites used, HDOP, fixes lost).
 *
 * A car drives along the street through the origin at 10 m/s with a
 * receiver 1.6 m up; the car is pushed and the world advanced once per
 * fix (10 Hz fixes; every capture builds its view, since the car moves),
 * 0 worker threads, push + advance + poll timed. A last row keeps the car
 * parked (the view of a static world is reused).
 *
 *   bench_gnss_town [--quick] [--reps N] [--fixes N]
 *
 * Reported: median of N runs after one warm-up. The ephemeris is the
 * test suite's (tests/data/gnss), found through SENSIM_TEST_DATA_DIR. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sensim/sensim.h"
#include "town.h"

typedef struct variant {
  const char *label;
  int satellites, visibility, multipath, moving;
} variant;

static const variant kVariants[] = {
    {"nominal mode", 0, 0, 0, 1},
    {"satellites, open sky (no rays)", 1, 0, 0, 1},
    {"satellites, line of sight", 1, 1, 0, 1},
    {"satellites, line of sight + multipath", 1, 1, 1, 1},
    {"same, car parked", 1, 1, 1, 0},
};
#define NVARIANTS (int)(sizeof kVariants / sizeof kVariants[0])

typedef struct result {
  double fixes_per_s;
  double mean_used, mean_hdop, lost; /* per fix; lost: share without a fix */
} result;

static void die(const char *what) {
  fprintf(stderr, "bench_gnss_town: %s: %s\n", what, sensim_last_error());
  exit(1);
}

static result run(const bench_town *town, const variant *v, int nfix) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.origin_lat = 47.3769;
  wp.origin_lon = 8.5417;
  wp.origin_height = 408.0;
  sensim_world *w = NULL;
  if (sensim_world_create(&wp, &w)) die("world");
  if (bench_town_add_to_world(town, w)) die("town");
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  if (sensim_body_create(w, &bp, &car)) die("car");
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sp.rate = 10.0;
  sp.mount.pos = (sensim_vec3){0.0, 0.0, 1.6};
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  if (v->satellites) {
    gp.mode = SENSIM_GNSS_SATELLITES;
    gp.ephemeris = SENSIM_TEST_DATA_DIR "/gnss/brdc1820.10_0000_gps.rnx";
    gp.visibility = v->visibility;
    gp.multipath = v->multipath;
  }
  sensim_sensor *s = NULL;
  if (sensim_gnss_create(w, &sp, &gp, &s)) die("gnss");
  result r = {0, 0, 0, 0};
  int got = 0;
  bench_span span;
  bench_span_start(&span);
  for (int k = 0; k < nfix; k++) {
    const double t = 0.1 * k, speed = v->moving ? 10.0 : 0.0;
    sensim_body_state st;
    memset(&st, 0, sizeof st);
    st.pose = sensim_pose_identity();
    st.pose.pos = (sensim_vec3){-100.0 + speed * t, 0.0, 0.0};
    st.lin_vel = (sensim_vec3){speed, 0.0, 0.0};
    st.flags = SENSIM_STATE_VELOCITY;
    if (sensim_body_push_state(car, t, &st)) die("push");
    if (sensim_world_advance(w, t)) die("advance");
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
      const sensim_gnss_fix *fix = f->data;
      got++;
      if (fix->fix_type == 0) r.lost += 1;
      r.mean_used += fix->satellites;
      r.mean_hdop += fix->hdop;
    }
  }
  bench_span_stop(&span);
  sensim_world_destroy(w);
  if (got == 0) die("no fixes");
  r.fixes_per_s = got / (span.wall * 1e-3);
  const double with_fix = got - r.lost;
  r.mean_used = with_fix > 0 ? r.mean_used / with_fix : 0;
  r.mean_hdop = with_fix > 0 ? r.mean_hdop / with_fix : 0;
  r.lost /= got;
  return r;
}

int main(int argc, char **argv) {
  int quick = 0, reps = 3, nfix = 400;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--fixes") == 0 && i + 1 < argc) nfix = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_gnss_town [--quick] [--reps N] [--fixes N]\n");
      return 2;
    }
  }
  if (reps < 1 || reps > BENCH_MAX_REPS - 1) reps = 3;
  if (nfix < 1) nfix = 400;
  if (quick) reps = 1, nfix = 20;
  bench_town_params tp;
  if (quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  if (bench_town_build(&tp, &town)) die("town build");
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_gnss_town: %s, one thread, %zu instanced triangles, %d fixes at 10 Hz, median of %d\n", cpu,
         bench_town_instanced_triangles(&town), nfix, reps);
  printf("%-40s %12s %10s %8s %8s\n", "receiver", "fixes/s", "sats used", "HDOP", "no fix");
  for (int m = 0; m < NVARIANTS; m++) {
    double fps[BENCH_MAX_REPS];
    result last = {0, 0, 0, 0};
    for (int r = 0; r <= reps; r++) { /* r = 0: warm-up */
      last = run(&town, &kVariants[m], nfix);
      if (r) fps[r - 1] = last.fixes_per_s;
    }
    printf("%-40s %12.4g %10.2f %8.2f %7.1f%%\n", kVariants[m].label, bench_median(fps, reps), last.mean_used,
           last.mean_hdop, 100.0 * last.lost);
  }
  bench_town_free(&town);
  return 0;
}
