/* bench/bench_radar_town.c: the radar in the procedural town
 * (bench/town.h): scans per second on one core and detections per scan,
 * for the two ARS408-21 presets.
 *
 * A car drives along the street through the origin at 10 m/s with the
 * radar on its front bumper (0.5 m up, looking along +X); the car is
 * pushed and the world advanced once per scan (10 Hz; every capture builds
 * its view, since the car moves), 0 worker threads, push + advance + poll
 * timed.
 *
 *   bench_radar_town [--quick] [--reps N] [--scans N]
 *
 * Reported: median of N runs after one warm-up: scans per wall-clock
 * second, and the thread's CPU time per scan (steadier on a shared
 * machine; with 0 workers the scan runs on the calling thread). The same file builds
 * against any sensim since the radar first shipped (issue 30 compares the
 * facet model with the rays-only one this way: docs/performance.md).
 *
 * With the raw FMCW output (SENSIM_RADAR_FMCW) the far preset is also run
 * as "adc" (the cube: chirps x channels x samples complex samples),
 * "range_doppler" (the cube and the range and Doppler FFTs) and "adc" with
 * the "radar_fft" and "radar_cfar" filters, side by side in one run, so
 * the FFTs' share is range_doppler less adc over range_doppler. The cube's
 * matrix products go through OpenBLAS, whose own threads the thread CPU
 * time does not count: run with OPENBLAS_NUM_THREADS=1 for the whole
 * cost on one core (docs/performance.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sensim/sensim.h"
#include "town.h"

typedef struct result {
  double scans_per_s, cpu_ms, detections; /* scans per wall second, thread CPU ms per scan, detections per scan */
} result;

static void die(const char *what) {
  fprintf(stderr, "bench_radar_town: %s: %s\n", what, sensim_last_error());
  exit(1);
}

/* mode: 0 detections, 1 adc, 2 range_doppler, 3 adc + radar_fft + radar_cfar. */
static result run(const bench_town *town, const char *preset, int mode, int nscan) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
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
  sp.mount.pos = (sensim_vec3){2.0, 0.0, 0.5};
  sensim_radar_params rp;
  if (sensim_radar_preset(preset, &rp)) die("preset");
#ifdef SENSIM_RADAR_FMCW
  rp.output = mode == 2 ? SENSIM_RADAR_RANGE_DOPPLER : mode ? SENSIM_RADAR_ADC : SENSIM_RADAR_DETECTIONS;
#endif
  sensim_sensor *s = NULL;
  if (sensim_radar_create(w, &sp, &rp, &s)) die("radar");
  if (mode == 3 && (sensim_sensor_add_filter(s, "radar_fft", NULL) || sensim_sensor_add_filter(s, "radar_cfar", NULL)))
    die("filters");
  result r = {0, 0, 0};
  int got = 0;
  bench_span span;
  bench_span_start(&span);
  for (int k = 0; k < nscan; k++) {
    const double t = 0.1 * k;
    sensim_body_state st;
    memset(&st, 0, sizeof st);
    st.pose = sensim_pose_identity();
    st.pose.pos = (sensim_vec3){-100.0 + 10.0 * t, -2.0, 0.0};
    st.lin_vel = (sensim_vec3){10.0, 0.0, 0.0};
    st.flags = SENSIM_STATE_VELOCITY;
    if (sensim_body_push_state(car, t, &st)) die("push");
    if (sensim_world_advance(w, t)) die("advance");
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
      got++;
      r.detections += f->count;
    }
  }
  bench_span_stop(&span);
  sensim_world_destroy(w);
  if (got == 0) die("no scans");
  r.scans_per_s = got / (span.wall * 1e-3);
  r.cpu_ms = span.thread / got;
  r.detections /= got;
  return r;
}

int main(int argc, char **argv) {
  int quick = 0, reps = 3, nscan = 60;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--scans") == 0 && i + 1 < argc) nscan = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_radar_town [--quick] [--reps N] [--scans N]\n");
      return 2;
    }
  }
  if (reps < 1 || reps > BENCH_MAX_REPS - 1) reps = 3;
  if (nscan < 1) nscan = 60;
  if (quick) reps = 1, nscan = 5;
  bench_town_params tp;
  if (quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  if (bench_town_build(&tp, &town)) die("town build");
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_radar_town: %s, one thread, %zu instanced triangles, %d scans at 10 Hz, median of %d\n", cpu,
         bench_town_instanced_triangles(&town), nscan, reps);
  printf("%-16s %-22s %12s %14s %14s\n", "preset", "output", "scans/s", "CPU ms/scan", "elements");
  const char *presets[] = {"ARS408-21-far", "ARS408-21-near", "ARS408-21-far", "ARS408-21-far", "ARS408-21-far"};
  const int modes[] = {0, 0, 1, 2, 3};
  const char *names[] = {"detections", "detections", "adc (cube)", "range_doppler", "adc+radar_fft+radar_cfar"};
#ifdef SENSIM_RADAR_FMCW
  const int nrows = 5;
#else
  const int nrows = 2;
#endif
  for (int m = 0; m < nrows; m++) {
    double sps[BENCH_MAX_REPS], cpu[BENCH_MAX_REPS];
    result last = {0, 0, 0};
    for (int r = 0; r <= reps; r++) { /* r = 0: warm-up */
      last = run(&town, presets[m], modes[m], nscan);
      if (r) sps[r - 1] = last.scans_per_s, cpu[r - 1] = last.cpu_ms;
    }
    printf("%-16s %-22s %12.4g %14.2f %14.1f\n", presets[m], names[m], bench_median(sps, reps),
           bench_median(cpu, reps), last.detections);
  }
  bench_town_free(&town);
  return 0;
}
