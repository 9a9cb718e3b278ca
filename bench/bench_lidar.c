/* bench/bench_lidar.c: sensim's lidar presets on the town against bare
 * Embree casting the same rays.
 *
 * The town (town.h) is built twice in one process: through sensim's public
 * API and directly in Embree (bare_embree.h). sensim's side is the real
 * capture path: a static carrier at the central street crossing, the lidar
 * 1.8 m above the street, sensim_world_advance to the capture then
 * sensim_sensor_poll. Measured:
 *
 *  - OS1-128 and HDL-32E (sensim_lidar_preset, one sub-ray per beam), raw
 *    beams and the "whole lidar" (filters "lidar_noise" then "points";
 *    for OS1-128 also each filter alone, to price them),
 *    world threads = 0, against bare Embree casting the same rays (channel
 *    tables, azimuth offsets, clockwise columns) singly, in coherent
 *    packets of 8 (sensim's calls) and of 16, on the same thread;
 *  - a sub-ray sweep: HDL-32E with a 3 mrad circular beam and 1, 4, 9, 16,
 *    25 sub-rays per beam, raw beams, against bare packets of 8 of the same
 *    sub-rays;
 *  - ratios both as a ratio of medians and "paired": the median (and
 *    range) over repetitions of sensim / bare within one repetition, where
 *    each preset's bare casts run right before its sensim captures;
 *  - the real-time factor: the whole lidar run as a host would run it,
 *    world threads 0 and 2, lag 3 periods (up to 4 frames in flight),
 *    RTF = (frames x period) / wall over the steady state.
 *
 *   bench_lidar [--quick] [--markdown] [--reps N] [--rtf-frames N]
 *   bench_lidar --profile os1-raw|os1-noise|os1-points|os1-whole|hdl-raw|hdl-whole|subN|bare-os1|bare-hdl
 *               [--frames N]
 *
 * --profile runs only that sensim case (no bare side, no RTF), or bare-*:
 * only the bare x8 casts of that preset's rays, for perf.
 * See docs/performance.md, "Lidar". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare_embree.h"
#include "bench_util.h"
#include "lidar_check.h"
#include "sensim/sensim.h"
#include "town.h"

#define PERIOD 0.1  /* s: every case runs at 10 Hz, both presets' factory rate */
#define HEIGHT 1.8  /* m: sensor above the street */
#define SWEEP_DIV 3e-3 /* rad: full divergence of the sweep's circular beam */
#define NSUB 5
static const int kSub[NSUB] = {1, 4, 9, 16, 25};
static const char *const kPreset[2] = {"OS1-128", "HDL-32E"};

typedef struct cfg {
  int quick, markdown, reps, rtf_frames, frames;
  const char *profile;
} cfg;

/* ---- cases ------------------------------------------------------------------- */

enum { S_OS1_RAW, S_OS1_NOISE, S_OS1_POINTS, S_OS1_WHOLE, S_HDL_RAW, S_HDL_WHOLE, S_SUB0, S_FIXED = S_SUB0 + NSUB,
       S_N };
enum { F_NOISE = 1, F_POINTS = 2, F_WHOLE = 3 }; /* filters after the generator */
enum { B_OS1_16, B_OS1_8, B_OS1_1, B_HDL_16, B_HDL_8, B_HDL_1, B_SUB0, B_N = B_SUB0 + NSUB };

typedef struct scase {
  char name[48], key[16];
  int preset, filters, subrays; /* preset: kPreset index, or 2 for the 1 x 1 lidar; filters: F_*;
                                   subrays 0: the preset's beam, one sub-ray */
  sensim_lidar_params lp;
  sensim_sensor *s;
  double phase;
  bench_meas m;
  bench_span first;    /* the warm-up capture: BVH builds happen here */
  size_t rays, returns; /* rays per scan; returns of the last raw scan */
  char check[5][BENCH_CELL]; /* returns, direction, detection, range, intensity */
} scase;

typedef struct brun {
  rayset *r;
  int N;
  bench_meas m;
} brun;

#define SENSIM_CHECK(call) BENCH_CHECK("bench_lidar", -1, call)

/* The preset's parameters; the sweep's beam is 3 mrad circular. --quick
 * cuts the columns so the smoke test takes a second. */
static int case_params(const cfg *c, scase *sc) {
  if (sc->preset == 2) { /* one beam: what a capture costs besides its rays */
    sensim_lidar_params_init(&sc->lp);
    sc->lp.channels = sc->lp.columns = 1;
    sc->lp.elev_min = sc->lp.elev_max = 0.0;
    sc->lp.max_range = 120.0;
    sc->rays = 1;
    return 0;
  }
  sensim_status st = sensim_lidar_preset(kPreset[sc->preset], &sc->lp);
  if (st) {
    fprintf(stderr, "bench_lidar: preset %s: %s\n", kPreset[sc->preset], sensim_last_error());
    return -1;
  }
  if (c->quick) sc->lp.columns = sc->preset == 0 ? 128 : 256;
  if (sc->subrays > 0) {
    sc->lp.shape = SENSIM_BEAM_CIRCULAR;
    sc->lp.div_h = sc->lp.div_v = SWEEP_DIV;
    sc->lp.subrays = sc->subrays;
  }
  sc->rays = (size_t)sc->lp.columns * sc->lp.channels * sc->lp.subrays;
  return 0;
}

static int init_cases(const cfg *c, scase *cs) {
  memset(cs, 0, S_N * sizeof *cs);
  for (int i = 0; i < S_N; i++) {
    scase *sc = &cs[i];
    if (i < S_SUB0) {
      sc->preset = i >= S_HDL_RAW;
      sc->filters = i == S_OS1_WHOLE || i == S_HDL_WHOLE ? F_WHOLE : i == S_OS1_NOISE ? F_NOISE
                    : i == S_OS1_POINTS                 ? F_POINTS
                                                        : 0;
      static const char *const what[4] = {"raw beams", "lidar_noise only", "points only",
                                          "whole lidar (noise + points)"};
      static const char *const key[4] = {"raw", "noise", "points", "whole"};
      snprintf(sc->name, sizeof sc->name, "%s, %s", kPreset[sc->preset], what[sc->filters]);
      snprintf(sc->key, sizeof sc->key, "%s-%s", sc->preset ? "hdl" : "os1", key[sc->filters]);
    } else if (i == S_FIXED) {
      sc->preset = 2;
      snprintf(sc->name, sizeof sc->name, "1 x 1 lidar (fixed cost of a capture)");
      snprintf(sc->key, sizeof sc->key, "fixed");
    } else {
      sc->preset = 1;
      sc->subrays = kSub[i - S_SUB0];
      snprintf(sc->name, sizeof sc->name, "HDL-32E 3 mrad, %d sub-ray%s", sc->subrays, sc->subrays > 1 ? "s" : "");
      snprintf(sc->key, sizeof sc->key, "sub%d", sc->subrays);
    }
    sc->phase = PERIOD * i / S_N; /* staggered: each advance captures one frame */
    if (case_params(c, sc)) return -1;
  }
  return 0;
}

/* ---- the sensim side ------------------------------------------------------------ */

static int new_world(const bench_town *town, int threads, sensim_world **w, sensim_body **carrier) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = threads;
  SENSIM_CHECK(sensim_world_create(&wp, w));
  SENSIM_CHECK(bench_town_add_to_world(town, *w));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  SENSIM_CHECK(sensim_body_create(*w, &bp, carrier));
  return 0;
}

/* A lidar on the carrier; the whole lidar adds "lidar_noise" (datasheet
 * defaults, requantised to the lidar's intensity bits) and "points". */
static int add_lidar(sensim_world *w, sensim_body *carrier, const scase *sc, double phase, double lag,
                     sensim_sensor **out) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = sc->name;
  sp.body = carrier;
  sp.mount.pos.z = HEIGHT;
  sp.rate = 1.0 / PERIOD;
  sp.phase = phase;
  sp.lag = lag;
  SENSIM_CHECK(sensim_lidar_create(w, &sp, &sc->lp, out));
  if (sc->filters & F_NOISE) {
    char js[64];
    snprintf(js, sizeof js, "{\"intensity_bits\": %d}", sc->lp.intensity_bits);
    SENSIM_CHECK(sensim_sensor_add_filter(*out, "lidar_noise", js));
  }
  if (sc->filters & F_POINTS) SENSIM_CHECK(sensim_sensor_add_filter(*out, "points", NULL));
  return 0;
}

/* Capture k of case sc: advance a hair past its time, then poll (lag 0:
 * the same advance delivers it). */
static int capture(sensim_world *w, scase *sc, int k, const sensim_frame **f, bench_span *sp) {
  double t = sc->phase + k * PERIOD + 1e-6;
  bench_span_start(sp);
  SENSIM_CHECK(sensim_world_advance(w, t));
  SENSIM_CHECK(sensim_sensor_poll(sc->s, f));
  bench_span_stop(sp);
  if (!*f) {
    fprintf(stderr, "bench_lidar: %s: no frame after advancing to %.6f s\n", sc->name, t);
    return -1;
  }
  return 0;
}

/* ---- real-time factor ---------------------------------------------------------- */

typedef struct rtf_row {
  char name[64];
  int threads;
  size_t frames, points; /* per sensor; points over all sensors */
  double wall_ms, cpu_ms;
} rtf_row;

#define RTF_LAG 3  /* periods: a frame is delivered 3 periods after its capture */
#define RTF_WARM 3 /* frames per sensor delivered before the clock starts */

/* The whole lidar of each preset in `which` (bit 0 OS1-128, bit 1
 * HDL-32E), phase 0, stepped one period per advance as a host at 10 Hz
 * would; the clock runs from the RTF_WARM-th delivery to the
 * (RTF_WARM + frames)-th, so BVH builds and pipeline fill are left out. */
static int run_rtf(const cfg *c, const bench_town *town, int which, int threads, rtf_row *row) {
  scase sc[2];
  sensim_sensor *s[2];
  int ns = 0;
  sensim_world *w = NULL;
  sensim_body *carrier;
  if (new_world(town, threads, &w, &carrier)) return -1;
  for (int p = 0; p < 2; p++) {
    if (!(which & (1 << p))) continue;
    memset(&sc[ns], 0, sizeof sc[ns]);
    sc[ns].preset = p, sc[ns].filters = F_WHOLE;
    snprintf(sc[ns].name, sizeof sc[ns].name, "%s whole lidar", kPreset[p]);
    if (case_params(c, &sc[ns]) || add_lidar(w, carrier, &sc[ns], 0.0, RTF_LAG * PERIOD, &s[ns])) return -1;
    ns++;
  }
  snprintf(row->name, sizeof row->name, "%s%s", which & 1 ? "OS1-128" : "", which == 3 ? " + HDL-32E" :
           which == 2 ? "HDL-32E" : "");
  row->threads = threads;
  size_t got = 0, points = 0;
  bench_span sp;
  int started = 0;
  for (int k = 0; got < (size_t)(RTF_WARM + c->rtf_frames); k++) {
    SENSIM_CHECK(sensim_world_advance(w, k * PERIOD + 1e-6));
    size_t least = (size_t)-1;
    for (int i = 0; i < ns; i++) {
      const sensim_frame *f;
      for (;;) {
        SENSIM_CHECK(sensim_sensor_poll(s[i], &f));
        if (!f) break;
        if (started) points += f->count;
      }
      size_t d = (size_t)sensim_sensor_frames_delivered(s[i]);
      least = d < least ? d : least;
    }
    got = least;
    if (!started && got >= RTF_WARM) {
      started = 1;
      bench_span_start(&sp);
    }
  }
  bench_span_stop(&sp);
  row->frames = (size_t)c->rtf_frames;
  row->points = points;
  row->wall_ms = sp.wall;
  row->cpu_ms = sp.cpu;
  sensim_world_destroy(w);
  return 0;
}

/* ---- report ------------------------------------------------------------------------ */

static void fmt(char *cell, const char *f, double v) { snprintf(cell, BENCH_CELL, f, v); }

/* Cells col, col + 1, ... of row r: n doubles, each in format f. */
static void nums(bench_row *r, int col, const char *f, int n, ...) {
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) fmt(r->c[col + i], f, va_arg(ap, double));
  va_end(ap);
}

static void report_timings(const cfg *c, const scase *cs, const brun *br, const bench_meas *tlas, bench_row *rows) {
  const char *h[] = {"run", "rays per scan", "median ms", "min ms", "median CPU ms", "Mrays/s"};
  int nr = 0;
  for (int i = 0; i < S_N + B_N; i++, nr++) {
    const bench_meas *m = i < S_N ? &cs[i].m : &br[i - S_N].m;
    size_t rays = i < S_N ? cs[i].rays : br[i - S_N].r->n;
    snprintf(rows[nr].c[0], BENCH_CELL, "%s%.47s", i < S_N ? "sensim " : "", m->name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%zu", rays);
    nums(&rows[nr], 2, "%.2f", 4, m->med_ms, m->min_ms, m->med_cpu, rays / (1e3 * m->med_ms));
  }
  snprintf(rows[nr].c[0], BENCH_CELL, "bare top-level scene build (sensim: one per capture)");
  snprintf(rows[nr].c[1], BENCH_CELL, "-");
  nums(&rows[nr], 2, "%.2f", 3, tlas->med_ms, tlas->min_ms, tlas->med_cpu);
  snprintf(rows[nr++].c[5], BENCH_CELL, "-");
  bench_print_table(c->markdown, "Timings per scan (wall; CPU = this thread only)", h, 6, rows, nr);
}

/* sensim against bare Embree on the same rays; "same calls" is the bare x8
 * run (rtcIntersect8, coherent flag, neighbouring channels of a column),
 * which is what src/rt/trace.c does for the lidar. Target: the whole lidar
 * within 1.25x of it (one sub-ray per beam). */
/* Per-repetition ratios sensim / bare of the same repetition (the two run
 * back to back), summarised by their median and range: on a shared
 * machine this moves less than a ratio of medians taken apart. */
static void paired(const bench_meas *s, const bench_meas *b, int reps, double *med, double *lo, double *hi) {
  double r[BENCH_MAX_REPS];
  for (int k = 0; k < reps; k++) r[k] = s->ms[k] / b->ms[k];
  *med = bench_median(r, reps); /* sorts r */
  *lo = r[0];
  *hi = r[reps - 1];
}

static void report_ratios(const cfg *c, const scase *cs, const brun *br, bench_row *rows) {
  const char *h[] = {"sensim case", "rays", "sensim ms", "bare x1 ms", "bare x8 ms", "bare x16 ms",
                     "sensim / x1", "sensim / x8 (same calls)", "same calls, CPU", "same calls, paired (range)",
                     "same calls, min / min", "sensim / x16", "target 1.25x (median and paired)"};
  int nr = 0;
  for (int i = 0; i < S_SUB0; i++, nr++) {
    const bench_meas *s = &cs[i].m;
    int b = cs[i].preset ? B_HDL_16 : B_OS1_16;
    const bench_meas *x16 = &br[b].m, *x8 = &br[b + 1].m, *x1 = &br[b + 2].m;
    double r8 = s->med_ms / x8->med_ms, pm, plo, phi;
    paired(s, x8, c->reps, &pm, &plo, &phi);
    snprintf(rows[nr].c[0], BENCH_CELL, "%.47s", cs[i].name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%zu", cs[i].rays);
    nums(&rows[nr], 2, "%.2f", 7, s->med_ms, x1->med_ms, x8->med_ms, x16->med_ms, s->med_ms / x1->med_ms, r8,
         s->med_cpu / x8->med_cpu);
    snprintf(rows[nr].c[9], BENCH_CELL, "%.2f (%.2f-%.2f)", pm, plo, phi);
    fmt(rows[nr].c[10], "%.2f", s->min_ms / x8->min_ms);
    fmt(rows[nr].c[11], "%.2f", s->med_ms / x16->med_ms);
    /* The verdict takes the worse of the two robust estimates; min / min
     * (each side's quietest repetition) is shown, not judged on. */
    const double worst = r8 > pm ? r8 : pm;
    if (cs[i].filters != F_WHOLE) snprintf(rows[nr].c[12], BENCH_CELL, "-");
    else if (worst <= 1.25) snprintf(rows[nr].c[12], BENCH_CELL, "met");
    else snprintf(rows[nr].c[12], BENCH_CELL, "missed by %.0f%%", 100.0 * (worst / 1.25 - 1.0));
  }
  bench_print_table(c->markdown, "sensim / bare Embree, same rays, one thread", h, 13, rows, nr);
}

/* Where the OS1-128 whole lidar's time goes, from differences of each
 * case's minimum over the repetitions (its quietest scan: on a shared
 * machine, differences of medians of separately timed cases came out
 * negative for a filter as cheap as "points"): a filter's price is its
 * case less the raw case; the fixed cost of a
 * capture (snapshot, binding, top-level scene, frame, delivery) is the
 * 1 x 1 lidar's time; the per-ray work beyond Embree is the rest of the
 * raw case after bare Embree's same calls. The top-level scene build,
 * timed on the bare side, is part of the fixed cost. */
static void report_parts(const cfg *c, const scase *cs, const brun *br, const bench_meas *tlas, bench_row *rows) {
  const char *h[] = {"part", "ms per scan", "share of the whole lidar", "ns each", "each"};
  const double raw = cs[S_OS1_RAW].m.min_ms, whole = cs[S_OS1_WHOLE].m.min_ms, x8 = br[B_OS1_8].m.min_ms;
  const double fixed = cs[S_FIXED].m.min_ms;
  const double beams = (double)cs[S_OS1_RAW].rays, ret = (double)(cs[S_OS1_RAW].returns ? cs[S_OS1_RAW].returns : 1);
  const struct {
    const char *what;
    double ms, per;
    const char *unit;
  } part[] = {
      {"Embree tracing (bare, same calls: x8 coherent)", x8, beams, "ray"},
      {"fixed cost of a capture (the 1 x 1 lidar)", fixed, 1.0, NULL},
      {"  of which the top-level scene build (bare timing)", tlas->min_ms, 1.0, NULL},
      {"per-ray work beyond Embree (raw beams - bare x8 - fixed)", raw - x8 - fixed, beams, "ray"},
      {"lidar_noise (its case - raw beams)", cs[S_OS1_NOISE].m.min_ms - raw, ret, "return"},
      {"points (its case - raw beams)", cs[S_OS1_POINTS].m.min_ms - raw, ret, "point"},
      {"sum of the parts", x8 + (raw - x8) + (cs[S_OS1_NOISE].m.min_ms - raw) + (cs[S_OS1_POINTS].m.min_ms - raw),
       beams, "ray"},
      {"whole lidar, measured", whole, beams, "ray"},
  };
  int nr = 0;
  for (size_t i = 0; i < sizeof part / sizeof part[0]; i++, nr++) {
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", part[i].what);
    fmt(rows[nr].c[1], "%.2f", part[i].ms);
    fmt(rows[nr].c[2], "%.0f%%", 100.0 * part[i].ms / whole);
    if (part[i].unit) fmt(rows[nr].c[3], "%.1f", 1e6 * part[i].ms / part[i].per);
    else snprintf(rows[nr].c[3], BENCH_CELL, "-");
    snprintf(rows[nr].c[4], BENCH_CELL, "%s", part[i].unit ? part[i].unit : "-");
  }
  bench_print_table(c->markdown, "Where the OS1-128 whole lidar's time goes (differences of minimums)", h, 5, rows,
                    nr);
}

static void report_sweep(const cfg *c, const scase *cs, const brun *br, bench_row *rows) {
  const char *h[] = {"sub-rays", "rays per scan", "sensim ms", "sensim min ms", "ns per ray", "us per beam",
                     "sensim growth vs 1", "bare x8 ms", "bare growth vs 1", "sensim / bare x8",
                     "sensim beyond bare, ns per beam"};
  int nr = 0;
  const double s1 = cs[S_SUB0].m.med_ms, b1 = br[B_SUB0].m.med_ms;
  for (int i = 0; i < NSUB; i++, nr++) {
    const scase *sc = &cs[S_SUB0 + i];
    const bench_meas *s = &sc->m, *b = &br[B_SUB0 + i].m;
    double beams = (double)sc->rays / sc->subrays;
    snprintf(rows[nr].c[0], BENCH_CELL, "%d", sc->subrays);
    snprintf(rows[nr].c[1], BENCH_CELL, "%zu", sc->rays);
    nums(&rows[nr], 2, "%.2f", 2, s->med_ms, s->min_ms);
    fmt(rows[nr].c[4], "%.1f", 1e6 * s->med_ms / sc->rays);
    fmt(rows[nr].c[5], "%.3f", 1e3 * s->med_ms / beams);
    nums(&rows[nr], 6, "%.2f", 4, s->med_ms / s1, b->med_ms, b->med_ms / b1, s->med_ms / b->med_ms);
    fmt(rows[nr].c[10], "%.0f", 1e6 * (s->med_ms - b->med_ms) / beams);
  }
  char title[160];
  snprintf(title, sizeof title, "Sub-ray sweep: HDL-32E (%d x %d beams), %.0f mrad circular beam, raw beams",
           cs[S_SUB0].lp.channels, cs[S_SUB0].lp.columns, SWEEP_DIV * 1e3);
  bench_print_table(c->markdown, title, h, 11, rows, nr);
}

static void report_rtf(const cfg *c, const scase *cs, const rtf_row *rt, int nrt, bench_row *rows) {
  const char *h[] = {"whole lidar", "world threads", "frames", "points per frame", "wall ms per frame",
                     "points/s (sensim)", "points/s (sensor)", "CPU / wall", "RTF"};
  int nr = 0;
  for (int i = 0; i < nrt; i++, nr++) {
    const rtf_row *r = &rt[i];
    double sim = r->frames * PERIOD, wall = 1e-3 * r->wall_ms;
    /* points / sim: what the real sensors deliver, points per frame at 10 Hz. */
    snprintf(rows[nr].c[0], BENCH_CELL, "%.63s", r->name);
    snprintf(rows[nr].c[1], BENCH_CELL, "%d", r->threads);
    snprintf(rows[nr].c[2], BENCH_CELL, "%zu", r->frames);
    fmt(rows[nr].c[3], "%.0f", (double)r->points / r->frames);
    fmt(rows[nr].c[4], "%.2f", r->wall_ms / r->frames);
    nums(&rows[nr], 5, "%.3g", 2, r->points / wall, r->points / sim);
    nums(&rows[nr], 7, "%.2f", 2, r->cpu_ms / r->wall_ms, sim / wall);
  }
  char title[200];
  snprintf(title, sizeof title, "Real-time factor at %.0f Hz: RTF = frames x %.0f ms / wall (lag %d periods, "
           "OS1-128 %dx%d, HDL-32E %dx%d)", 1.0 / PERIOD, PERIOD * 1e3, RTF_LAG, cs[S_OS1_RAW].lp.channels,
           cs[S_OS1_RAW].lp.columns, cs[S_HDL_RAW].lp.channels, cs[S_HDL_RAW].lp.columns);
  bench_print_table(c->markdown, title, h, 9, rows, nr);
}

static void report_checks(const cfg *c, const scase *cs, bench_row *rows) {
  const char *h[] = {"sensim case", "returns", "direction same", "detection same", "range same",
                     "intensity same (to 1 LSB)"};
  int nr = 0;
  for (int i = 0; i < S_N; i++, nr++) {
    snprintf(rows[nr].c[0], BENCH_CELL, "%.47s", cs[i].name);
    for (int k = 0; k < 5; k++)
      snprintf(rows[nr].c[1 + k], BENCH_CELL, "%.*s", BENCH_CELL - 1, cs[i].check[k][0] ? cs[i].check[k] : "-");
  }
  bench_print_table(c->markdown, "Checks (last frame against bare Embree's 1-ray cast; sweep: its x8 cast)", h, 6,
                    rows, nr);
}

/* ---- main ------------------------------------------------------------------------- */

static int parse_args(int argc, char **argv, cfg *c) {
  c->reps = c->quick ? 2 : 5;
  c->rtf_frames = c->quick ? 4 : 40;
  c->frames = 50;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) continue;
    if (!strcmp(argv[i], "--markdown")) c->markdown = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) c->reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rtf-frames") && i + 1 < argc) c->rtf_frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) c->frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--profile") && i + 1 < argc) c->profile = argv[++i];
    else {
      fprintf(stderr,
              "usage: %s [--quick] [--markdown] [--reps N (1..%d)] [--rtf-frames N]\n"
              "       %s [--quick] --profile os1-raw|os1-noise|os1-points|os1-whole|hdl-raw|hdl-whole|sub1..sub25|bare-os1|bare-hdl "
              "[--frames N]\n",
              argv[0], BENCH_MAX_REPS, argv[0]);
      return -1;
    }
  }
  if (c->reps < 1 || c->reps > BENCH_MAX_REPS || c->rtf_frames < 1 || c->frames < 1) {
    fprintf(stderr, "bench_lidar: --reps must be 1..%d, --rtf-frames and --frames >= 1\n", BENCH_MAX_REPS);
    return -1;
  }
  return 0;
}

/* --profile: one sensim case alone, for perf record. */
static int profile(const cfg *c, const bench_town *town, scase *cs) {
  scase *sc = NULL;
  for (int i = 0; i < S_N; i++)
    if (!strcmp(cs[i].key, c->profile)) sc = &cs[i];
  if (!sc) {
    fprintf(stderr, "bench_lidar: no case '%s'\n", c->profile);
    return -1;
  }
  sensim_world *w = NULL;
  sensim_body *carrier;
  if (new_world(town, 0, &w, &carrier) || add_lidar(w, carrier, sc, sc->phase, 0.0, &sc->s)) return -1;
  double *ms = malloc((size_t)c->frames * sizeof *ms);
  if (!ms) return -1;
  for (int k = 0; k <= c->frames; k++) {
    const sensim_frame *f;
    bench_span sp;
    if (capture(w, sc, k, &f, &sp)) return -1;
    if (k) ms[k - 1] = sp.wall;
  }
  double lo = ms[0];
  for (int k = 1; k < c->frames; k++) lo = ms[k] < lo ? ms[k] : lo;
  printf("%s: %d frames after 1 warm-up, median %.2f ms per scan, min %.2f\n", sc->name, c->frames,
         bench_median(ms, c->frames), lo);
  free(ms);
  sensim_world_destroy(w);
  return 0;
}

int main(int argc, char **argv) {
  cfg c = {0};
  for (int i = 1; i < argc; i++) c.quick |= !strcmp(argv[i], "--quick");
  if (parse_args(argc, argv, &c)) return 2;
  bench_flush_denormals(); /* both sides trace on this thread */
  static scase cs[S_N];
  if (init_cases(&c, cs)) return 1;
  bench_town_params tp;
  if (c.quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  if (bench_town_build(&tp, &town)) {
    fprintf(stderr, "bench_lidar: building the town failed\n");
    return 1;
  }
  if (c.profile && strncmp(c.profile, "bare-", 5) != 0) {
    int rc = profile(&c, &town, cs);
    bench_town_free(&town);
    return rc ? 1 : 0;
  }

  /* Bare Embree first: its threads=1 device must exist before sensim's
   * (bench_kernel.c says why). */
  bare b;
  if (bare_build(&town, &b)) {
    fprintf(stderr, "bench_lidar: building the bare Embree scene failed\n");
    return 1;
  }
  sensim_pose pose = sensim_pose_identity();
  pose.pos.z = HEIGHT;
  static rayset rs[2 + NSUB];
  static brun br[B_N];
  for (int i = 0; i < 2 + NSUB; i++) {
    const scase *sc = &cs[i < 2 ? (i ? S_HDL_RAW : S_OS1_RAW) : S_SUB0 + i - 2];
    if (bare_lidar_rays_window(&sc->lp, PERIOD, pose, &rs[i])) {
      fprintf(stderr, "bench_lidar: out of memory for the rays\n");
      return 1;
    }
  }
  for (int i = 0; i < B_N; i++) {
    int set = i < B_HDL_16 ? 0 : i < B_SUB0 ? 1 : 2 + i - B_SUB0;
    br[i].r = &rs[set];
    br[i].N = i >= B_SUB0 ? 8 : (int[]){16, 8, 1}[i % 3];
    if (i < B_SUB0) snprintf(br[i].m.name, sizeof br[i].m.name, "bare %s, x%d", kPreset[set], br[i].N);
    else snprintf(br[i].m.name, sizeof br[i].m.name, "bare HDL-32E 3 mrad, %d sub-rays, x8", kSub[i - B_SUB0]);
  }

  if (c.profile) { /* bare-os1 | bare-hdl: its x8 casts alone, for perf */
    int j = !strcmp(c.profile, "bare-os1") ? B_OS1_8 : !strcmp(c.profile, "bare-hdl") ? B_HDL_8 : -1;
    if (j < 0) {
      fprintf(stderr, "bench_lidar: no case '%s'\n", c.profile);
      return 1;
    }
    double *ms = malloc((size_t)c.frames * sizeof *ms), lo = INFINITY;
    if (!ms) return 1;
    for (int k = 0; k <= c.frames; k++) {
      bench_span sp;
      bench_span_start(&sp);
      bare_cast(&b, br[j].r, NULL, br[j].N, 0);
      bench_span_stop(&sp);
      if (k) ms[k - 1] = sp.wall, lo = sp.wall < lo ? sp.wall : lo;
    }
    printf("%s: %d casts after 1 warm-up, median %.2f ms per scan, min %.2f\n", br[j].m.name, c.frames,
           bench_median(ms, c.frames), lo);
    free(ms);
    bare_free(&b);
    bench_town_free(&town);
    return 0;
  }
  sensim_world *w = NULL;
  sensim_body *carrier;
  if (new_world(&town, 0, &w, &carrier)) return 1;
  for (int i = 0; i < S_N; i++) {
    if (add_lidar(w, carrier, &cs[i], cs[i].phase, 0.0, &cs[i].s)) return 1;
    memcpy(cs[i].m.name, cs[i].name, sizeof cs[i].m.name); /* both char[48], terminated */
  }

  /* Each repetition runs every bare cast, then every sensim capture, so
   * slow drifts of the machine hit both sides alike. */
  const sensim_frame *last[S_N] = {0};
  static bench_meas tlas;
  /* Each group's bare casts run right before its sensim captures, so the
   * two sides of a ratio are timed within a few hundred ms of each other
   * (the sensim cases stay in phase order: the world's clock only moves
   * forward). */
  static const struct {
    int b0, b1, s0, s1;
  } grp[3] = {{B_OS1_16, B_HDL_16, S_OS1_RAW, S_HDL_RAW},
              {B_HDL_16, B_SUB0, S_HDL_RAW, S_SUB0},
              {B_SUB0, B_N, S_SUB0, S_N}};
  for (int k = 0; k <= c.reps; k++) {
    bench_span sp;
    for (int g = 0; g < 3; g++) {
      for (int j = grp[g].b0; j < grp[g].b1; j++) {
        bench_span_start(&sp);
        bare_cast(&b, br[j].r, NULL, br[j].N, 0);
        bench_span_stop(&sp);
        bench_record(&br[j].m, k, &sp);
      }
      for (int i = grp[g].s0; i < grp[g].s1; i++) {
        if (capture(w, &cs[i], k, &last[i], &sp)) return 1;
        if (k == 0) cs[i].first = sp;
        bench_record(&cs[i].m, k, &sp);
      }
    }
    RTCScene top;
    bench_span_start(&sp);
    if (bare_build_top(&b, &town, &top)) return 1;
    rtcReleaseScene(top);
    bench_span_stop(&sp);
    bench_record(&tlas, k, &sp);
  }
  for (int j = 0; j < B_N; j++) bench_summarise(&br[j].m, c.reps);
  bench_summarise(&tlas, c.reps);
  for (int i = 0; i < S_N; i++) bench_summarise(&cs[i].m, c.reps);

  /* Checks on the last frames (the sweep's against its x8 cast, which ran
   * last for its ray set). */
  for (int p = 0; p < 2; p++) {
    rayset *r = &rs[p];
    float *t = malloc(r->n * sizeof *t), *rc = malloc(r->n * sizeof *rc);
    if (!t || !rc) return 1;
    lidar_check_truth(&b, &town, r, t, rc);
    int raw = p ? S_HDL_RAW : S_OS1_RAW;
    lidar_check_beams(last[raw], &cs[raw].lp, r, t, rc, cs[raw].check);
    free(t);
    free(rc);
    /* The filtered cases keep every return: as many points, or as many
     * beams with a return, as the raw scan. */
    size_t nret = lidar_check_returns(last[raw]);
    cs[raw].returns = nret;
    for (int i = raw + 1; i < (p ? S_SUB0 : S_HDL_RAW); i++) {
      const sensim_frame *f = last[i];
      int pts = f->type == SENSIM_PAYLOAD_POINTS;
      size_t n = pts ? f->count : lidar_check_returns(f);
      snprintf(cs[i].check[0], BENCH_CELL, "%zu %s (%s the raw scan's %zu)", n, pts ? "points" : "returns",
               n == nret && (pts || f->count == last[raw]->count) ? "=" : "NOT equal to", nret);
    }
  }
  for (int i = 0; i < NSUB; i++)
    lidar_check_span(last[S_SUB0 + i], &cs[S_SUB0 + i].lp, &rs[2 + i], cs[S_SUB0 + i].check);
  snprintf(cs[S_FIXED].check[0], BENCH_CELL, "%zu beam (not compared)", last[S_FIXED]->count);
  sensim_world_destroy(w);
  bare_free(&b); /* before the threads = 2 worlds: Embree's task scheduler */

  static const int which[] = {1, 2, 3};
  rtf_row rt[6];
  int nrt = 0;
  for (int i = 0; i < 3; i++)
    for (int th = 0; th <= 2; th += 2)
      if (run_rtf(&c, &town, which[i], th, &rt[nrt++])) return 1;

  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("%sbench_lidar%s: %s, Embree %s, %s mode, median of %d after 1 warm-up\n", c.markdown ? "**" : "",
         c.markdown ? "**" : "", cpu, RTC_VERSION_STRING, c.quick ? "quick" : "full", c.reps);
  printf("%stown: %zu meshes, %zu instances, %zu instanced triangles; first scans (BVH builds): %.0f ms (%s)\n",
         c.markdown ? "\n" : "", town.nmeshes, town.ninst, bench_town_instanced_triangles(&town),
         cs[0].first.wall, cs[0].name);
  static bench_row rows[32];
  report_timings(&c, cs, br, &tlas, rows);
  report_ratios(&c, cs, br, rows);
  report_parts(&c, cs, br, &tlas, rows);
  report_sweep(&c, cs, br, rows);
  report_rtf(&c, cs, rt, nrt, rows);
  report_checks(&c, cs, rows);
  for (int i = 0; i < 2 + NSUB; i++) rayset_free(&rs[i]);
  bench_town_free(&town);
  return 0;
}
