/* bench/bench_camera.c: the whole camera as a host runs it (issue 17).
 *
 * A 1280 x 720 pinhole camera (hfov 90 deg, 1 sample/px, one shadowed
 * sun) in the procedural town (town.h), with the typical chain of
 * docs/camera_pipeline.md (image_sensor, noise_emva1288, cfa, adc,
 * demosaic, white_balance, ccm, auto_exposure, tone, quantize, all at
 * their defaults), delivered through the real path: the host advances the
 * world one camera period at a time (20 Hz) and polls. Rows:
 *   - whole camera, world threads 0 (the host's core only), 1 and 2, with
 *     lag 0 (each advance waits for its frame) and lag 2 periods (frames
 *     pipeline: the render of k+1 overlaps the filtering of k);
 *   - render only (no chain), threads 0 and 2, lag 0;
 *   - 2 and 4 whole cameras in one world (yaw 0, 180 / 0, 90, 180, 270
 *     deg), threads 2, lag 0 and 2 periods: total and per camera.
 * frames/s = frames delivered / wall time, the clock running from the
 * WARM-th delivery of every camera to the (WARM + n)-th, so BVH
 * builds, the frame pool's first allocations and the pipeline fill are
 * left out. The process CPU time over the same span says how many cores
 * were busy. "new buffers/frame" is how many frame buffers the cameras'
 * frame pools had to allocate per frame over the span (0 in steady state
 * but for what filters free() behind the pool's back; tests/alloc/).
 * n is --frames (6; 3 with --quick) per camera, and 2 x frames / cameras
 * with more than 2 cameras, so each row times about as many frames and the
 * whole run stays under a minute on two idle cores.
 *
 *   bench_camera [--quick] [--markdown] [--reps N] [--frames N]
 *
 * The machine is shared in CI: wall-clock numbers are noisy there. See
 * docs/performance.md for how to read them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "runtime/runtime_internal.h"
#include "sensim/sensim.h"
#include "town.h"

#define BENCH_PI 3.14159265358979323846
#define PERIOD 0.05 /* s: the camera at 20 Hz */
#define WARM 2      /* deliveries per camera before the clock starts */
#define MAX_CAMS 4

#define SENSIM_CHECK(call) BENCH_CHECK("bench_camera", -1, call)

static const char *const kChain[] = {"image_sensor", "noise_emva1288", "cfa",           "adc",  "demosaic",
                                     "white_balance", "ccm",           "auto_exposure", "tone", "quantize"};
enum { CHAIN_N = sizeof kChain / sizeof kChain[0] };

typedef struct cfg {
  int quick, markdown, reps, frames;
  uint32_t width, height; /* px */
  double hfov;            /* rad */
  double height_above_street; /* m */
  sensim_vec3 sun;        /* direction the sunlight travels, unit */
} cfg;

typedef struct row_spec {
  const char *what;
  int threads, lag, cameras, chain; /* lag in periods */
} row_spec;

static const row_spec kRows[] = {
    {"whole camera", 0, 0, 1, 1}, {"whole camera", 0, 2, 1, 1}, {"whole camera", 1, 0, 1, 1},
    {"whole camera", 1, 2, 1, 1}, {"whole camera", 2, 0, 1, 1}, {"whole camera", 2, 2, 1, 1},
    {"render only", 0, 0, 1, 0},  {"render only", 2, 0, 1, 0},  {"2 whole cameras", 2, 0, 2, 1},
    {"2 whole cameras", 2, 2, 2, 1}, {"4 whole cameras", 2, 0, 4, 1}, {"4 whole cameras", 2, 2, 4, 1},
};
enum { ROWS_N = sizeof kRows / sizeof kRows[0] };

typedef struct row_out {
  double fps[BENCH_MAX_REPS]; /* all cameras together */
  double wall_ms[BENCH_MAX_REPS], cpu_ms[BENCH_MAX_REPS];
  size_t frames;              /* all cameras, per repetition */
  double new_buffers;         /* per frame, last repetition */
} row_out;

static int check_chain_names(void) {
  const char *const *names = sensim_filter_names();
  for (int i = 0; i < CHAIN_N; i++) {
    int found = 0;
    for (const char *const *n = names; *n && !found; n++) found = !strcmp(*n, kChain[i]);
    if (!found) {
      fprintf(stderr, "bench_camera: no built-in filter '%s'\n", kChain[i]);
      return -1;
    }
  }
  return 0;
}

static int new_world(const cfg *c, const bench_town *town, int threads, sensim_world **w, sensim_body **carrier) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = threads;
  SENSIM_CHECK(sensim_world_create(&wp, w));
  sensim_light light;
  sensim_light_init(&light);
  light.kind = SENSIM_LIGHT_DIRECTIONAL;
  light.direction = c->sun;
  light.intensity = 3.0f; /* as bench_kernel */
  light.cast_shadows = 1;
  SENSIM_CHECK(sensim_light_add(*w, &light));
  SENSIM_CHECK(bench_town_add_to_world(town, *w));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  SENSIM_CHECK(sensim_body_create(*w, &bp, carrier));
  return 0;
}

/* Camera i of n on the carrier at the crossing, yawed i / n of a turn. */
static int add_camera(const cfg *c, sensim_world *w, sensim_body *carrier, const row_spec *r, int i,
                      sensim_sensor **out) {
  char name[32];
  snprintf(name, sizeof name, "cam%d", i);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = name;
  sp.body = carrier;
  sp.mount.pos.z = c->height_above_street;
  double yaw = 2.0 * BENCH_PI * i / r->cameras;
  sp.mount.rot = (sensim_quat){cos(yaw / 2), 0, 0, sin(yaw / 2)};
  sp.rate = 1.0 / PERIOD;
  sp.lag = r->lag * PERIOD;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp); /* pinhole, fx = 0: intrinsics from hfov */
  cp.width = c->width, cp.height = c->height, cp.hfov = c->hfov, cp.samples = 1;
  SENSIM_CHECK(sensim_camera_create(w, &sp, &cp, out));
  for (int k = 0; r->chain && k < CHAIN_N; k++) SENSIM_CHECK(sensim_sensor_add_filter(*out, kChain[k], NULL));
  return 0;
}

static size_t pool_misses(const sensim_sensor *s) {
  size_t gets, misses;
  sensim__frame_pool_stats(s->frames, &gets, &misses);
  return misses;
}

/* One repetition of a row: a world of its own, stepped a period per
 * advance until every camera has delivered WARM + frames frames. */
static int run_row(const cfg *c, const bench_town *town, const row_spec *r, row_out *out, int rep) {
  sensim_world *w = NULL;
  sensim_body *carrier;
  sensim_sensor *cam[MAX_CAMS];
  if (new_world(c, town, r->threads, &w, &carrier)) return -1;
  for (int i = 0; i < r->cameras; i++)
    if (add_camera(c, w, carrier, r, i, &cam[i])) return -1;
  bench_span sp;
  int started = 0;
  size_t at_start = 0, misses0 = 0, got = 0;
  int n = r->cameras > 2 ? 2 * c->frames / r->cameras : c->frames;
  if (n < 1) n = 1;
  for (int k = 0; got < (size_t)(WARM + n); k++) {
    SENSIM_CHECK(sensim_world_advance(w, k * PERIOD + 1e-6));
    size_t least = (size_t)-1, total = 0;
    for (int i = 0; i < r->cameras; i++) {
      const sensim_frame *f;
      do SENSIM_CHECK(sensim_sensor_poll(cam[i], &f));
      while (f);
      size_t d = (size_t)sensim_sensor_frames_delivered(cam[i]);
      least = d < least ? d : least;
      total += d;
    }
    got = least;
    if (!started && got >= WARM) {
      started = 1;
      at_start = total;
      for (int i = 0; i < r->cameras; i++) misses0 += pool_misses(cam[i]);
      bench_span_start(&sp);
    } else if (started && got >= (size_t)(WARM + n)) {
      bench_span_stop(&sp);
      out->frames = total - at_start;
      size_t misses = 0;
      for (int i = 0; i < r->cameras; i++) misses += pool_misses(cam[i]);
      out->new_buffers = (double)(misses - misses0) / (double)out->frames;
    }
  }
  out->wall_ms[rep] = sp.wall;
  out->cpu_ms[rep] = sp.cpu;
  out->fps[rep] = 1e3 * (double)out->frames / sp.wall;
  sensim_world_destroy(w);
  return 0;
}

static void report(const cfg *c, const row_out *out) {
  static bench_row rows[ROWS_N];
  const char *h[] = {"case", "threads", "lag", "frames", "wall s", "frames/s", "frames/s per camera",
                     "ms/frame", "CPU s", "cores busy", "new buffers/frame"};
  for (int i = 0; i < ROWS_N; i++) {
    const row_spec *r = &kRows[i];
    const row_out *o = &out[i];
    double fps[BENCH_MAX_REPS], wall[BENCH_MAX_REPS], cpu[BENCH_MAX_REPS];
    memcpy(fps, o->fps, sizeof fps);
    memcpy(wall, o->wall_ms, sizeof wall);
    memcpy(cpu, o->cpu_ms, sizeof cpu);
    double f = bench_median(fps, c->reps), wm = bench_median(wall, c->reps), cm = bench_median(cpu, c->reps);
    bench_row *b = &rows[i];
    memset(b, 0, sizeof *b);
    snprintf(b->c[0], BENCH_CELL, "%s%s", r->what, r->chain ? "" : " (no chain)");
    snprintf(b->c[1], BENCH_CELL, "%d", r->threads);
    snprintf(b->c[2], BENCH_CELL, "%d", r->lag);
    snprintf(b->c[3], BENCH_CELL, "%zu", o->frames);
    snprintf(b->c[4], BENCH_CELL, "%.2f", wm / 1e3);
    snprintf(b->c[5], BENCH_CELL, "%.1f", f);
    snprintf(b->c[6], BENCH_CELL, "%.1f", f / r->cameras);
    snprintf(b->c[7], BENCH_CELL, "%.1f", 1e3 / f);
    snprintf(b->c[8], BENCH_CELL, "%.2f", cm / 1e3);
    snprintf(b->c[9], BENCH_CELL, "%.2f", cm / wm);
    snprintf(b->c[10], BENCH_CELL, "%.1f", o->new_buffers);
  }
  char title[160];
  snprintf(title, sizeof title, "whole camera %ux%u, 1 sample/px, 20 Hz, town; median of %d run(s) per row",
           c->width, c->height, c->reps);
  bench_print_table(c->markdown, title, h, 11, rows, ROWS_N);
}

static int parse_args(int argc, char **argv, cfg *c) {
  c->reps = 1;
  c->frames = c->quick ? 3 : 6;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) continue;
    if (!strcmp(argv[i], "--markdown")) c->markdown = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) c->reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) c->frames = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--quick] [--markdown] [--reps N (1..%d)] [--frames N]\n", argv[0], BENCH_MAX_REPS);
      return -1;
    }
  }
  if (c->reps < 1 || c->reps > BENCH_MAX_REPS || c->frames < 1) {
    fprintf(stderr, "bench_camera: --reps must be 1..%d, --frames >= 1\n", BENCH_MAX_REPS);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  cfg c = {0};
  for (int i = 1; i < argc; i++) c.quick |= !strcmp(argv[i], "--quick");
  if (parse_args(argc, argv, &c)) return 2;
  c.width = c.quick ? 160 : 1280, c.height = c.quick ? 120 : 720;
  c.hfov = 90.0 * BENCH_PI / 180;
  c.height_above_street = 1.8;
  double s = sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.866 * 0.866); /* sun about 60 deg high, as bench_kernel */
  c.sun = (sensim_vec3){-0.4 / s, -0.3 / s, -0.866 / s};
  if (check_chain_names()) return 1;
  bench_flush_denormals(); /* the host thread traces too (threads 0, jobs taken back) */
  bench_town_params tp;
  if (c.quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  if (bench_town_build(&tp, &town)) {
    fprintf(stderr, "bench_camera: building the town failed\n");
    return 1;
  }
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_camera: %s; town of %zu instanced triangles\n", cpu, bench_town_instanced_triangles(&town));
  static row_out out[ROWS_N];
  bench_span all;
  bench_span_start(&all);
  for (int i = 0; i < ROWS_N; i++)
    for (int rep = 0; rep < c.reps; rep++)
      if (run_row(&c, &town, &kRows[i], &out[i], rep)) return 1;
  bench_span_stop(&all);
  report(&c, out);
  printf("\nprocess CPU %.1f s over %.1f s of wall time for all rows (with world set-up)\n", all.cpu / 1e3,
         all.wall / 1e3);
  bench_town_free(&town);
  return 0;
}
