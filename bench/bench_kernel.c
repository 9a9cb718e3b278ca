/* bench/bench_kernel.c: sensim's lidar and camera against bare Embree.
 *
 * Builds the procedural town (town.h) twice in one process: through sensim's
 * public API (one mesh per object kind, one static body per instance) and
 * directly in Embree (bare_embree.h: one RTCScene per mesh, instanced into a
 * top-level scene with the same transforms). It then times lidar scans and
 * camera frames delivered through the real path (sensim_world_advance ->
 * sensim_sensor_poll, world threads = 0) and the same rays cast by bare
 * Embree on one thread, and reports median times, their ratio and the
 * camera's frames per second.
 *
 *   bench_kernel [--quick] [--markdown] [--reps N]
 *
 * See docs/performance.md for how to read the numbers. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare_embree.h"
#include "bench_util.h"
#include "sensim/sensim.h"
#include "town.h"

#define BENCH_PI 3.14159265358979323846

typedef struct cfg {
  int quick, markdown, reps;
  int channels, columns;       /* lidar */
  double elev_min, elev_max;   /* rad */
  double min_range, max_range; /* m */
  uint32_t width, height;      /* camera, px */
  double hfov;                 /* rad */
  double height_above_street;  /* m */
  sensim_vec3 sun;             /* direction the sunlight travels, unit */
} cfg;

/* One bare run: N = 1, 8 or 16 rays per call; N = -8: packets of 8 with
 * single shadow rays (sensim's calls). L: light direction, NULL for no
 * shadow rays. */
typedef struct bare_run {
  rayset *r;
  const float *L;
  int N;
  bench_meas m;
} bare_run;

static void run_bare(const bare *b, bare_run *br, int rep) {
  bench_span sp;
  bench_span_start(&sp);
  cast_stats st = bare_cast(b, br->r, br->L, br->N < 0 ? -br->N : br->N, br->N < 0);
  bench_span_stop(&sp);
  bench_record(&br->m, rep, &sp);
  br->m.rays = br->r->n + st.shadow_rays;
}

/* The bare runs, lidar then camera; in each set the 1-ray primary cast
 * runs last so r->t and r->inst hold it for the checks. */
enum { B_L16, B_L8, B_L1, B_C1_16, B_C1_8, B_C1_S16, B_C1_S8, B_C1_S8_1, B_C1_S1, B_C1_1,
       B_C4_16, B_C4_8, B_C4_S16, B_C4_S8, B_C4_S8_1, B_C4_S1, B_C4_1, B_N };

static void setup_bare_runs(bare_run *br, rayset *lr, rayset *r1, rayset *r4, const float *L) {
  static const struct { int shadow, N; const char *how; } runs[] = {
      {0, 16, "x16"}, {0, 8, "x8"}, {1, 16, "+shadow, x16"}, {1, 8, "+shadow, x8"},
      {1, -8, "+shadow, x8 + x1 shadows"}, {1, 1, "+shadow, x1"}, {0, 1, "x1"}};
  memset(br, 0, B_N * sizeof *br);
  for (int j = 0; j < 3; j++) {
    br[B_L16 + j].r = lr;
    br[B_L16 + j].N = j == 0 ? 16 : j == 1 ? 8 : 1;
    snprintf(br[B_L16 + j].m.name, sizeof br[0].m.name, "bare lidar, x%d", br[B_L16 + j].N);
  }
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 7; j++) {
      bare_run *x = &br[(k ? B_C4_16 : B_C1_16) + j];
      x->r = k ? r4 : r1;
      x->L = runs[j].shadow ? L : NULL;
      x->N = runs[j].N;
      snprintf(x->m.name, sizeof x->m.name, "bare camera %d spp %s", k ? 4 : 1, runs[j].how);
    }
}

/* The sensim sensors. The camera cases with max_bounces = 0 are the
 * like-for-like ones (bare Embree casts no reflection rays); the last keeps
 * the default max_bounces = 1 to show what reflections cost. */
enum { S_LIDAR, S_POINTS, S_CAM1, S_CAM4, S_CAM1_B1, S_N };

typedef struct sensor_case {
  const char *name;
  sensim_sensor *s;
  double phase;        /* s; the cases are staggered so each advance captures one */
  int lidar, spp, bounces;
  bench_meas m;
  bench_span first;    /* the warm-up capture: BVH builds happen here */
  char check[96];
} sensor_case;

/* Beams against the bare rays: same direction (ring's elevation, column's
 * azimuth) and same range to 1 cm + 1e-4 relative (float rounding over
 * 200 m), or no return on both sides. */
static void check_lidar(const sensim_frame *f, const sensim_lidar_params *lp, const rayset *r, char *out, size_t n) {
  if (f->type != SENSIM_PAYLOAD_BEAMS) {
    snprintf(out, n, "%zu points (not compared)", f->count);
    return;
  }
  const sensim_beam *bm = f->data;
  double step = lp->hfov / lp->columns;
  size_t same_dir = 0, same_range = 0, returns = 0, bare_returns = 0;
  for (size_t i = 0; i < r->n; i++)
    if (r->t[i] >= lp->min_range && r->t[i] <= lp->max_range) bare_returns++;
  for (size_t i = 0; i < f->count; i++) {
    const sensim_beam *b = &bm[i];
    double da = remainder(b->azimuth - lp->start_azimuth, 2.0 * BENCH_PI);
    if (da < 0) da += 2.0 * BENCH_PI;
    long col = lround(da / step) % lp->columns;
    if (b->ring >= lp->channels) continue;
    size_t k = (size_t)b->ring + (size_t)lp->channels * (size_t)col;
    double el = lp->channels > 1 ? lp->elev_min + b->ring * (lp->elev_max - lp->elev_min) / (lp->channels - 1)
                                 : lp->elev_min;
    double az = lp->start_azimuth + col * step;
    if (fabs(b->elevation - el) < 1e-4 && fabs(remainder(b->azimuth - az, 2 * BENCH_PI)) < 1e-4) same_dir++;
    float t = r->t[k];
    int bare_ret = t >= lp->min_range && t <= lp->max_range;
    if (b->range > 0) returns++;
    if ((!bare_ret && b->range <= 0) || (bare_ret && b->range > 0 && fabs(b->range - t) <= 0.01 + 1e-4 * t))
      same_range++;
  }
  snprintf(out, n, "returns %zu vs %zu; same ray %.2f%%, same range %.2f%%", returns, bare_returns,
           100.0 * same_dir / (f->count ? f->count : 1), 100.0 * same_range / (f->count ? f->count : 1));
}

/* Depth plane (distance along the optical axis) and label plane against the
 * bare pixel-centre rays. sensim jitters its sample inside the pixel, so
 * silhouettes and the grazing street near the horizon differ a little:
 * depth is counted as agreeing to 1 %, labels by class. */
static void check_camera(const sensim_frame *f, const rayset *r, const bench_town *town, sensim_pose pose, char *out,
                         size_t n) {
  if (!f->depth || !f->labels) {
    snprintf(out, n, "no depth or label plane (not compared)");
    return;
  }
  sensim_vec3 fwd = sensim_quat_rotate(pose.rot, (sensim_vec3){1, 0, 0});
  size_t same_depth = 0, same_class = 0;
  for (size_t i = 0; i < r->n; i++) {
    const float *d = r->dir + 3 * i;
    double z = isfinite(r->t[i]) ? r->t[i] * (d[0] * fwd.x + d[1] * fwd.y + d[2] * fwd.z) : 0.0;
    double zs = f->depth[r->slot[i]];
    if ((z == 0 && zs == 0) || (z > 0 && fabs(zs - z) <= 0.01 * z)) same_depth++;
    unsigned cls = r->inst[i] < town->ninst ? town->meshes[town->inst[r->inst[i]].mesh].class_id : 0;
    if (f->labels[r->slot[i]].class_id == cls) same_class++;
  }
  double k = 100.0 / (double)(r->n ? r->n : 1);
  snprintf(out, n, "class same at %.2f%% of pixels, depth within 1%% at %.2f%%", k * same_class, k * same_depth);
}

#define SENSIM_CHECK(call) BENCH_CHECK("bench_kernel", 1, call)

static int parse_args(int argc, char **argv, cfg *c) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) c->quick = 1;
    else if (!strcmp(argv[i], "--markdown")) c->markdown = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) c->reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--quick] [--markdown] [--reps N (1..%d)]\n", argv[0], BENCH_MAX_REPS);
      return -1;
    }
  }
  if (c->reps < 1 || c->reps > BENCH_MAX_REPS) {
    fprintf(stderr, "bench_kernel: --reps must be 1..%d\n", BENCH_MAX_REPS);
    return -1;
  }
  return 0;
}

static void config(cfg *c) {
  c->channels = c->quick ? 16 : 128;
  c->columns = c->quick ? 256 : 2048;
  c->elev_min = -25.0 * BENCH_PI / 180, c->elev_max = 15.0 * BENCH_PI / 180;
  c->min_range = 0.1, c->max_range = 200.0;
  c->width = c->quick ? 160 : 1280, c->height = c->quick ? 120 : 720;
  c->hfov = 90.0 * BENCH_PI / 180;
  c->height_above_street = 1.8;
  double s = sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.866 * 0.866); /* sun about 60 deg high */
  c->sun = (sensim_vec3){-0.4 / s, -0.3 / s, -0.866 / s};
}

/* sensim: the town through the public API, world threads = 0, one static
 * carrier at the crossing in the middle and the S_N sensors on it. */
static int build_world(const cfg *c, const bench_town *town, const sensim_lidar_params *lp,
                       const sensim_camera_params *cp1, const sensim_camera_params *cp4, sensor_case *cases,
                       sensim_world **out) {
  sensim_world *world = NULL;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  SENSIM_CHECK(sensim_world_create(&wp, &world));
  *out = world;
  sensim_light light;
  sensim_light_init(&light);
  light.kind = SENSIM_LIGHT_DIRECTIONAL;
  light.direction = c->sun;
  light.intensity = 3.0f;
  light.cast_shadows = 1;
  SENSIM_CHECK(sensim_light_add(world, &light));
  SENSIM_CHECK(bench_town_add_to_world(town, world));
  sensim_body *carrier;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  SENSIM_CHECK(sensim_body_create(world, &bp, &carrier));
  for (int i = 0; i < S_N; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = cases[i].name;
    sp.body = carrier;
    sp.mount.pos.z = c->height_above_street;
    sp.rate = 10.0;
    sp.phase = cases[i].phase;
    sp.lag = 0.0;
    if (cases[i].lidar) {
      SENSIM_CHECK(sensim_lidar_create(world, &sp, lp, &cases[i].s));
    } else {
      sensim_camera_params cp = cases[i].spp == 1 ? *cp1 : *cp4;
      cp.max_bounces = cases[i].bounces;
      SENSIM_CHECK(sensim_camera_create(world, &sp, &cp, &cases[i].s));
    }
    if (i == S_POINTS) SENSIM_CHECK(sensim_sensor_add_filter(cases[i].s, "points", NULL));
  }
  return 0;
}

/* ---- report ---------------------------------------------------------------- */

typedef struct results {
  const cfg *c;
  const bench_town *town;
  double town_ms, tlas_ms;
  bench_span bare_span, sim_span;
  sensor_case *cases;
  const bare_run *br;
  size_t lidar_rays, cam1_rays, cam4_rays;
} results;

static void report_setup(const results *R, bench_row *rows) {
  int nr = 0;
  const char *h[] = {"set-up", "wall ms", "CPU ms, all threads", "CPU ms, this thread"};
  const bench_span *spans[2 + S_N] = {&R->bare_span, &R->sim_span};
  for (int i = 0; i < S_N; i++) spans[2 + i] = &R->cases[i].first;
  for (int i = 0; i < 2 + S_N; i++) {
    if (i == 0) snprintf(rows[nr].c[0], BENCH_CELL, "bare Embree: device (threads=1) + all BVHs");
    else if (i == 1) snprintf(rows[nr].c[0], BENCH_CELL, "sensim world set-up (meshes, bodies, sensors)");
    else snprintf(rows[nr].c[0], BENCH_CELL, "sensim first frame: %s", R->cases[i - 2].name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%.1f", spans[i]->wall);
    snprintf(rows[nr].c[2], BENCH_CELL, "%.1f", spans[i]->cpu);
    snprintf(rows[nr++].c[3], BENCH_CELL, "%.1f", spans[i]->thread);
  }
  snprintf(rows[nr].c[0], BENCH_CELL, "bare Embree: top-level scene alone (sensim: every capture)");
  snprintf(rows[nr].c[1], BENCH_CELL, "%.1f", R->tlas_ms);
  snprintf(rows[nr].c[2], BENCH_CELL, "-");
  snprintf(rows[nr++].c[3], BENCH_CELL, "-");
  bench_print_table(R->c->markdown, "Scene set-up (BVH builds)", h, 4, rows, nr);
}

static void report_timings(const results *R, bench_row *rows) {
  int nr = 0;
  const char *h[] = {"run", "rays", "median ms", "min ms", "median CPU ms", "Mrays/s"};
  for (int i = 0; i < S_N + B_N; i++) {
    const sensor_case *sc = i < S_N ? &R->cases[i] : NULL;
    const bench_meas *m = sc ? &sc->m : &R->br[i - S_N].m;
    size_t rays = !sc ? m->rays : sc->lidar ? R->lidar_rays : sc->spp == 1 ? R->cam1_rays : R->cam4_rays;
    if (sc) snprintf(rows[nr].c[0], BENCH_CELL, "sensim %s", sc->name);
    else snprintf(rows[nr].c[0], BENCH_CELL, "%s", m->name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%zu", rays);
    snprintf(rows[nr].c[2], BENCH_CELL, "%.2f", m->med_ms);
    snprintf(rows[nr].c[3], BENCH_CELL, "%.2f", m->min_ms);
    snprintf(rows[nr].c[4], BENCH_CELL, "%.2f", m->med_cpu);
    snprintf(rows[nr++].c[5], BENCH_CELL, "%.2f", rays / (1e3 * m->med_ms));
  }
  bench_print_table(R->c->markdown, "Timings (wall; CPU = this thread only)", h, 6, rows, nr);
}

/* Each sensim case against the bare casts of the same rays; `same` is the
 * bare run making the Embree calls sensim makes, -1 if none: for the lidar
 * rtcIntersect8 on neighbouring channels; for the camera rtcIntersect16 on
 * 4 x 4 tiles and rtcOccluded16 on their shadow rays (rt/trace.c), which
 * is also bare Embree's best packets. */
static const struct {
  int sc;
  int b1, b8, b16, same;
  const char *what;
} kRatios[] = {
    {S_LIDAR, B_L1, B_L8, B_L16, B_L8, "primary"},
    {S_POINTS, B_L1, B_L8, B_L16, B_L8, "primary"},
    {S_CAM1, B_C1_1, B_C1_8, B_C1_16, -1, "primary"},
    {S_CAM1, B_C1_S1, B_C1_S8, B_C1_S16, B_C1_S16, "primary + shadow"},
    {S_CAM4, B_C4_1, B_C4_8, B_C4_16, -1, "primary"},
    {S_CAM4, B_C4_S1, B_C4_S8, B_C4_S16, B_C4_S16, "primary + shadow"},
    {S_CAM1_B1, B_C1_S1, B_C1_S8, B_C1_S16, B_C1_S16, "primary + shadow"},
};

static void report_ratios(const results *R, bench_row *rows) {
  int nr = 0;
  const char *h[] = {"sensim case", "bare casts", "rays", "sensim ms", "bare x1 ms", "bare x8 ms", "bare x16 ms",
                     "sensim / x1", "sensim / x8", "sensim / x16", "sensim / same calls", "same, CPU time",
                     "sensim Mrays/s"};
  for (size_t i = 0; i < sizeof kRatios / sizeof kRatios[0]; i++) {
    const bench_meas *s = &R->cases[kRatios[i].sc].m;
    const bench_meas *bx[3] = {&R->br[kRatios[i].b1].m, &R->br[kRatios[i].b8].m, &R->br[kRatios[i].b16].m};
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", R->cases[kRatios[i].sc].name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%s", kRatios[i].what);
    snprintf(rows[nr].c[2], BENCH_CELL, "%zu", bx[0]->rays);
    snprintf(rows[nr].c[3], BENCH_CELL, "%.2f", s->med_ms);
    for (int k = 0; k < 3; k++) {
      snprintf(rows[nr].c[4 + k], BENCH_CELL, "%.2f", bx[k]->med_ms);
      snprintf(rows[nr].c[7 + k], BENCH_CELL, "%.2f", s->med_ms / bx[k]->med_ms);
    }
    if (kRatios[i].same >= 0) {
      const bench_meas *same = &R->br[kRatios[i].same].m;
      snprintf(rows[nr].c[10], BENCH_CELL, "%.2f", s->med_ms / same->med_ms);
      snprintf(rows[nr].c[11], BENCH_CELL, "%.2f", s->med_cpu / same->med_cpu);
    } else {
      snprintf(rows[nr].c[10], BENCH_CELL, "-");
      snprintf(rows[nr].c[11], BENCH_CELL, "-");
    }
    snprintf(rows[nr++].c[12], BENCH_CELL, "%.2f", bx[0]->rays / (1e3 * s->med_ms));
  }
  char title[200];
  snprintf(title, sizeof title, "sensim / bare Embree, same rays (lidar %dx%d, camera %ux%u)", R->c->channels,
           R->c->columns, R->c->width, R->c->height);
  bench_print_table(R->c->markdown, title, h, 13, rows, nr);
}

/* Frames per second on this one thread: 1000 / median ms, for sensim and
 * for bare Embree's primary plus shadow rays (sensim's calls, which are
 * the best packets: x16 tiles, x16 shadow packets). */
static void report_fps(const results *R, bench_row *rows) {
  static const struct { int sc, same, best; } k[] = {
      {S_CAM1, B_C1_S16, B_C1_S16}, {S_CAM4, B_C4_S16, B_C4_S16}, {S_CAM1_B1, B_C1_S16, B_C1_S16}};
  const char *h[] = {"camera case",         "sensim ms",          "sensim frames/s", "sensim frames/s at min",
                     "bare same calls ms", "bare same calls frames/s", "bare x16 ms", "bare x16 frames/s",
                     "sensim / same calls"};
  int nr = 0;
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    const bench_meas *s = &R->cases[k[i].sc].m, *same = &R->br[k[i].same].m, *best = &R->br[k[i].best].m;
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", R->cases[k[i].sc].name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%.1f", s->med_ms);
    snprintf(rows[nr].c[2], BENCH_CELL, "%.2f", 1e3 / s->med_ms);
    snprintf(rows[nr].c[3], BENCH_CELL, "%.2f", 1e3 / s->min_ms);
    snprintf(rows[nr].c[4], BENCH_CELL, "%.1f", same->med_ms);
    snprintf(rows[nr].c[5], BENCH_CELL, "%.2f", 1e3 / same->med_ms);
    snprintf(rows[nr].c[6], BENCH_CELL, "%.1f", best->med_ms);
    snprintf(rows[nr].c[7], BENCH_CELL, "%.2f", 1e3 / best->med_ms);
    snprintf(rows[nr++].c[8], BENCH_CELL, "%.2f", s->med_ms / same->med_ms);
  }
  char title[160];
  snprintf(title, sizeof title, "Camera frames per second (%ux%u, one thread, primary + shadow rays)", R->c->width,
           R->c->height);
  bench_print_table(R->c->markdown, title, h, 9, rows, nr);
}

static void report(const results *R) {
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  const cfg *c = R->c;
  printf("%sbench_kernel%s: %s, Embree %s, %s mode, median of %d after 1 warm-up\n", c->markdown ? "**" : "",
         c->markdown ? "**" : "", cpu, RTC_VERSION_STRING, c->quick ? "quick" : "full", c->reps);
  printf("%stown: %zu meshes, %zu instances, %zu unique triangles, %zu instanced triangles (generated in %.0f ms)\n",
         c->markdown ? "\n" : "", R->town->nmeshes, R->town->ninst, bench_town_unique_triangles(R->town),
         bench_town_instanced_triangles(R->town), R->town_ms);
  static bench_row rows[32];
  report_setup(R, rows);
  report_timings(R, rows);
  report_ratios(R, rows);
  report_fps(R, rows);
  int nr = 0;
  const char *h[] = {"sensim case", "same rays as bare?"};
  for (int i = 0; i < S_N; i++) {
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", R->cases[i].name);
    snprintf(rows[nr++].c[1], BENCH_CELL, "%s", R->cases[i].check);
  }
  bench_print_table(c->markdown, "Checks (last frame against the bare 1-ray cast)", h, 2, rows, nr);
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv) {
  cfg c = {0};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--quick")) c.quick = 1;
  c.reps = c.quick ? 2 : 5;
  if (parse_args(argc, argv, &c)) return 2;
  config(&c);
  /* Both sides trace on this thread. */
  bench_flush_denormals();

  results R;
  memset(&R, 0, sizeof R);
  R.c = &c;
  bench_town_params tp;
  if (c.quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  double w0 = bench_wall_s();
  if (bench_town_build(&tp, &town)) {
    fprintf(stderr, "bench_kernel: building the town failed\n");
    return 1;
  }
  R.town = &town;
  R.town_ms = 1e3 * (bench_wall_s() - w0);

  /* Bare Embree first, alone in the process: Embree sizes its shared task
   * scheduler to the largest thread count any live device asked for, so the
   * threads=1 device is built before sensim's device exists. */
  bare b;
  bench_span_start(&R.bare_span);
  if (bare_build(&town, &b)) {
    fprintf(stderr, "bench_kernel: building the bare Embree scene failed\n");
    return 1;
  }
  bench_span_stop(&R.bare_span);
  double tlas[BENCH_MAX_REPS];
  for (int k = 0; k < c.reps; k++) {
    RTCScene top;
    double t0 = bench_wall_s();
    if (bare_build_top(&b, &town, &top)) return 1;
    tlas[k] = 1e3 * (bench_wall_s() - t0);
    rtcReleaseScene(top);
  }
  R.tlas_ms = bench_median(tlas, c.reps);

  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = c.channels, lp.columns = c.columns;
  lp.elev_min = c.elev_min, lp.elev_max = c.elev_max, lp.elevations = NULL;
  lp.hfov = 2.0 * BENCH_PI;
  lp.min_range = c.min_range, lp.max_range = c.max_range;
  /* The bare side has no detection threshold: put sensim's far beyond the
   * scene so both report every surface within max_range (bench_lidar
   * measures the radiometric lidar). */
  lp.detection_range = 1e5;
  lp.intensity_bits = 16;
  sensim_camera_params cp1, cp4;
  sensim_camera_params_init(&cp1); /* pinhole, fx = 0: intrinsics from hfov */
  cp1.width = c.width, cp1.height = c.height, cp1.hfov = c.hfov, cp1.samples = 1;
  cp4 = cp1;
  cp4.samples = 4;
  static sensor_case cases[S_N] = {
      {.name = "lidar, raw beams", .phase = 0.00, .lidar = 1},
      {.name = "lidar + points filter", .phase = 0.02, .lidar = 1},
      {.name = "camera, 1 sample/px", .phase = 0.04, .spp = 1, .bounces = 0},
      {.name = "camera, 4 samples/px", .phase = 0.06, .spp = 4, .bounces = 0},
      {.name = "camera, 1 sample/px, max_bounces 1", .phase = 0.08, .spp = 1, .bounces = 1},
  };
  R.cases = cases;
  sensim_world *world = NULL;
  bench_span_start(&R.sim_span);
  if (build_world(&c, &town, &lp, &cp1, &cp4, cases, &world)) return 1;
  bench_span_stop(&R.sim_span);

  sensim_pose pose = sensim_pose_identity();
  pose.pos.z = c.height_above_street;
  rayset lr = {0}, r1 = {0}, r4 = {0};
  if (bare_lidar_rays(&lp, pose, &lr) || bare_camera_rays(&cp1, pose, &r1) || bare_camera_rays(&cp4, pose, &r4)) {
    fprintf(stderr, "bench_kernel: out of memory for the ray sets\n");
    return 1;
  }
  R.lidar_rays = lr.n, R.cam1_rays = r1.n, R.cam4_rays = r4.n;
  const float L[3] = {(float)-c.sun.x, (float)-c.sun.y, (float)-c.sun.z};
  static bare_run br[B_N];
  setup_bare_runs(br, &lr, &r1, &r4, L);
  R.br = br;

  /* Each repetition runs every bare cast and then every sensim capture, so
   * slow drifts of the machine (other tenants, clock) hit both sides alike.
   * sensim: capture k of case i is at phase_i + k / rate; advancing a hair
   * past it captures that one frame (lag 0: delivered by the same advance). */
  for (int k = 0; k <= c.reps; k++) {
    for (int j = 0; j < B_N; j++) run_bare(&b, &br[j], k);
    for (int i = 0; i < S_N; i++) {
      sensor_case *sc = &cases[i];
      double t = sc->phase + k / 10.0 + 1e-6;
      const sensim_frame *f = NULL;
      bench_span sp;
      bench_span_start(&sp);
      SENSIM_CHECK(sensim_world_advance(world, t));
      SENSIM_CHECK(sensim_sensor_poll(sc->s, &f));
      bench_span_stop(&sp);
      if (!f) {
        fprintf(stderr, "bench_kernel: %s: no frame after advancing to %.6f s\n", sc->name, t);
        return 1;
      }
      if (k == 0) sc->first = sp;
      bench_record(&sc->m, k, &sp);
      if (k < c.reps) continue;
      if (sc->lidar) check_lidar(f, &lp, &lr, sc->check, sizeof sc->check);
      else if (sc->spp == 1) check_camera(f, &r1, &town, f->pose, sc->check, sizeof sc->check);
      else snprintf(sc->check, sizeof sc->check, "(4 jittered samples: not compared)");
    }
  }
  for (int j = 0; j < B_N; j++) bench_summarise(&br[j].m, c.reps);
  for (int i = 0; i < S_N; i++) bench_summarise(&cases[i].m, c.reps);
  report(&R);

  sensim_world_destroy(world);
  rayset_free(&lr);
  rayset_free(&r1);
  rayset_free(&r4);
  bare_free(&b);
  bench_town_free(&town);
  return 0;
}
