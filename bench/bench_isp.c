/* bench/bench_isp.c: time per image-sensor and ISP filter.
 *
 * Renders one camera frame of the procedural town (town.h; 1280 x 720,
 * 4 samples per pixel, the sun of bench_kernel) through the public API,
 * then times each built-in filter's apply on a fresh copy of its input
 * frame, on this one thread, in the order of a typical chain (each stage's
 * input is the output of the stage before it in that chain). The filters
 * are looked up by name (sensim__filter_find, filters/chain.h) and called
 * directly, so each timing is the filter alone: no chain bookkeeping, no
 * copy (the copy is made before the clock starts). Three more rows run the
 * typical chain through sensim__chain_run: as sensim runs it (cfa moved
 * ahead of image_sensor and noise_emva1288, the same bits), in its written
 * order, and forked over one worker thread plus this one.
 *
 *   bench_isp [--quick] [--markdown] [--reps N]
 *
 * Reported: median and minimum wall time of N runs after one warm-up, and
 * ms per megapixel of the stage's input (numerically ns per pixel). See
 * docs/performance.md. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "core/internal.h"
#include "core/pool.h"
#include "filters/chain.h"
#include "sensim/sensim.h"
#include "town.h"

#define BENCH_PI 3.14159265358979323846
#define SEED 0x5EED15Full

typedef struct cfg {
  int quick, markdown, reps;
  uint32_t width, height;
  int samples;
} cfg;

/* One timed stage: `filter` with `params` on the output of stage `input`
 * (-1: the rendered radiance frame). fresh = 1 creates a new filter
 * instance for every run, so state kept from frame to frame (the fixed
 * pattern of noise_emva1288) is built inside the timed call: the cost of a
 * sensor's first frame. */
typedef struct stage {
  const char *label;
  const char *filter;
  const char *params;
  int input;
  int fresh;
} stage;

enum {
  ST_SRGB8, ST_IMAGE_NOISE, ST_SENSOR, ST_EMVA_FIRST, ST_EMVA, ST_INTENSITY, ST_CFA, ST_ADC, ST_RAW16,
  ST_DEMOSAIC_BIL, ST_DEMOSAIC_MHC, ST_WB, ST_CCM, ST_MATCH, ST_AE, ST_TONE, ST_QUANTIZE, ST_GRAY, ST_DOWN,
  ST_CFA_RAD, ST_SENSOR_RAW, ST_EMVA_RAW, ST_N
};

/* A camera CCM of the usual shape (rows sum to 1: grey stays grey); the
 * values do not change the cost. */
#define CCM "{\"matrix\": [1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5]}"

static const stage kStages[ST_N] = {
    [ST_SRGB8] = {"srgb8", "srgb8", NULL, -1, 0},
    [ST_IMAGE_NOISE] = {"image_noise", "image_noise", NULL, -1, 0},
    [ST_SENSOR] = {"image_sensor", "image_sensor", NULL, -1, 0},
    [ST_EMVA_FIRST] = {"noise_emva1288, first frame", "noise_emva1288", NULL, ST_SENSOR, 1},
    [ST_EMVA] = {"noise_emva1288, steady state", "noise_emva1288", NULL, ST_SENSOR, 0},
    [ST_INTENSITY] = {"noise_intensity", "noise_intensity", "{\"s1\": 1, \"s2\": 3}", ST_SENSOR, 0},
    [ST_CFA] = {"cfa", "cfa", NULL, ST_EMVA, 0},
    [ST_ADC] = {"adc", "adc", NULL, ST_CFA, 0},
    [ST_RAW16] = {"raw16", "raw16", NULL, ST_CFA, 0},
    [ST_DEMOSAIC_BIL] = {"demosaic bilinear", "demosaic", "{\"method\": \"bilinear\"}", ST_ADC, 0},
    [ST_DEMOSAIC_MHC] = {"demosaic mhc", "demosaic", "{\"method\": \"mhc\"}", ST_ADC, 0},
    [ST_WB] = {"white_balance gray_world", "white_balance", "{\"mode\": \"gray_world\"}", ST_DEMOSAIC_MHC, 0},
    [ST_CCM] = {"ccm", "ccm", CCM, ST_WB, 0},
    [ST_MATCH] = {"match_stats", "match_stats",
                  "{\"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": [0.2, 0.2, 0.2]}", ST_CCM, 0},
    [ST_AE] = {"auto_exposure", "auto_exposure", NULL, ST_CCM, 0},
    [ST_TONE] = {"tone srgb", "tone", "{\"curve\": \"srgb\"}", ST_CCM, 0},
    [ST_QUANTIZE] = {"quantize", "quantize", NULL, ST_TONE, 0},
    [ST_GRAY] = {"grayscale", "grayscale", NULL, ST_TONE, 0},
    [ST_DOWN] = {"downsample", "downsample", "{\"factor\": 2}", ST_TONE, 0},
    [ST_CFA_RAD] = {"cfa (on radiance)", "cfa", NULL, -1, 0},
    [ST_SENSOR_RAW] = {"image_sensor (on the mosaic)", "image_sensor", NULL, ST_CFA_RAD, 0},
    [ST_EMVA_RAW] = {"noise_emva1288, steady state (on the mosaic)", "noise_emva1288", NULL, ST_SENSOR_RAW, 0},
};

/* The typical chain of docs/camera_pipeline.md, and the same with the
 * physical order (colour filters on the photodiodes: cfa first). */
static const int kTypical[] = {ST_SENSOR, ST_EMVA, ST_CFA, ST_ADC, ST_DEMOSAIC_MHC,
                               ST_WB, ST_CCM, ST_AE, ST_TONE, ST_QUANTIZE};
static const int kPhysical[] = {ST_CFA_RAD, ST_SENSOR_RAW, ST_EMVA_RAW, ST_ADC, ST_DEMOSAIC_MHC,
                                ST_WB, ST_CCM, ST_AE, ST_TONE, ST_QUANTIZE};
#define NTYPICAL (sizeof kTypical / sizeof kTypical[0])

#define CHECK(call)                                                                                        \
  do {                                                                                                     \
    sensim_status st_ = (call);                                                                            \
    if (st_ != SENSIM_OK) {                                                                                \
      fprintf(stderr, "bench_isp: %s failed: %s: %s\n", #call, sensim_status_str(st_), sensim_last_error()); \
      return 1;                                                                                            \
    }                                                                                                      \
  } while (0)

/* Deep copy of a frame's header and buffers into dst (whose buffers are
 * not freed). The copy touches every page, so the filter timed next finds
 * its input in memory, as it does after the stage before it. */
static int frame_clone(sensim_frame *dst, const sensim_frame *src) {
  *dst = *src;
  dst->data = dst->depth = NULL;
  dst->labels = NULL;
  dst->normals = NULL;
  size_t px = (size_t)src->width * src->height;
  size_t bytes = src->count * sensim_payload_elem_size(src->type);
  dst->data = malloc(bytes ? bytes : 1);
  if (!dst->data) return -1;
  memcpy(dst->data, src->data, bytes);
  if (src->depth && !(dst->depth = malloc(px * sizeof *dst->depth))) return -1;
  if (src->depth) memcpy(dst->depth, src->depth, px * sizeof *dst->depth);
  if (src->labels && !(dst->labels = malloc(px * sizeof *dst->labels))) return -1;
  if (src->labels) memcpy(dst->labels, src->labels, px * sizeof *dst->labels);
  if (src->normals && !(dst->normals = malloc(3 * px * sizeof *dst->normals))) return -1;
  if (src->normals) memcpy(dst->normals, src->normals, 3 * px * sizeof *dst->normals);
  return 0;
}

/* Render one frame of the town: world threads = 0, the sun of
 * bench_kernel, a static camera 1.8 m above the central crossing with the
 * default lens (pinhole, hfov 90 deg) and max_bounces. */
static int render(const cfg *c, sensim_frame *out, double *ms) {
  bench_town_params tp;
  if (c->quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  if (bench_town_build(&tp, &town)) {
    fprintf(stderr, "bench_isp: building the town failed\n");
    return 1;
  }
  sensim_world *w = NULL;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.seed = SEED;
  CHECK(sensim_world_create(&wp, &w));
  sensim_light light;
  sensim_light_init(&light);
  light.kind = SENSIM_LIGHT_DIRECTIONAL;
  double s = sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.866 * 0.866);
  light.direction = (sensim_vec3){-0.4 / s, -0.3 / s, -0.866 / s};
  light.intensity = 3.0f;
  light.cast_shadows = 1;
  CHECK(sensim_light_add(w, &light));
  CHECK(bench_town_add_to_world(&town, w));
  sensim_body *carrier;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  CHECK(sensim_body_create(w, &bp, &carrier));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "camera";
  sp.body = carrier;
  sp.mount.pos.z = 1.8;
  sp.rate = 10.0;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = c->width, cp.height = c->height, cp.samples = c->samples;
  sensim_sensor *cam;
  CHECK(sensim_camera_create(w, &sp, &cp, &cam));
  const sensim_frame *f = NULL;
  double t0 = bench_wall_s();
  CHECK(sensim_world_advance(w, 1e-6));
  CHECK(sensim_sensor_poll(cam, &f));
  *ms = 1e3 * (bench_wall_s() - t0);
  int bad = !f || f->type != SENSIM_PAYLOAD_RGB_F32 || frame_clone(out, f);
  sensim_world_destroy(w);
  bench_town_free(&town);
  if (bad) fprintf(stderr, "bench_isp: no radiance frame rendered\n");
  return bad;
}

static int make_filter(const stage *s, sensim_payload in, const sensim_builtin_filter **bf, void **user) {
  *bf = sensim__filter_find(s->filter);
  if (!*bf) {
    fprintf(stderr, "bench_isp: no built-in filter '%s'\n", s->filter);
    return 1;
  }
  cJSON *js = s->params ? cJSON_Parse(s->params) : NULL;
  if (s->params && !js) {
    fprintf(stderr, "bench_isp: bad parameters for '%s': %s\n", s->label, s->params);
    return 1;
  }
  *user = NULL;
  sensim_status rc = (*bf)->create(js, user);
  cJSON_Delete(js);
  CHECK(rc);
  if ((*bf)->def.init && (rc = (*bf)->def.init(*user, in))) {
    if ((*bf)->def.destroy) (*bf)->def.destroy(*user);
    CHECK(rc);
  }
  return 0;
}

static void free_filter(const sensim_builtin_filter *bf, void *user) {
  if (bf->def.destroy) bf->def.destroy(user);
}

static const char *unit_name(const sensim_frame *f) {
  if (f->type != SENSIM_PAYLOAD_RGB_F32 && f->type != SENSIM_PAYLOAD_RAW_F32 && f->type != SENSIM_PAYLOAD_GRAY_F32)
    return "";
  return f->unit == SENSIM_UNIT_RADIANCE ? " radiance" : f->unit == SENSIM_UNIT_ELECTRONS ? " e-" : " signal";
}

/* Time one stage; its output from the warm-up run is kept in *out. */
static int time_stage(const cfg *c, int idx, const sensim_frame *in, sensim_frame *out, bench_meas *m) {
  const stage *s = &kStages[idx];
  const sensim_builtin_filter *bf = NULL;
  void *user = NULL;
  if (!s->fresh && make_filter(s, in->type, &bf, &user)) return 1;
  for (int k = 0; k <= c->reps; k++) {
    sensim_frame f;
    if (frame_clone(&f, in)) {
      fprintf(stderr, "bench_isp: out of memory copying a frame\n");
      return 1;
    }
    f.index = (uint64_t)k;
    if (s->fresh && make_filter(s, in->type, &bf, &user)) return 1;
    /* As sensim__chain_run sets it up, with a fresh exposure state (so
     * auto_exposure's requests never pile up). */
    sensim_exposure_state xs;
    memset(&xs, 0, sizeof xs);
    xs.frame = f.index;
    sensim_filter_ctx ctx;
    ctx.seed = SEED;
    ctx.sensor_id = 0;
    ctx.slot = idx;
    ctx.exposure = &xs;
    sensim_rng_init(&ctx.rng, SEED, 0, f.index, 0x80000000u | (uint32_t)idx);
    bench_span sp;
    bench_span_start(&sp);
    sensim_status rc = bf->def.apply(user, &f, &ctx);
    bench_span_stop(&sp);
    if (rc) {
      fprintf(stderr, "bench_isp: %s failed: %s: %s\n", s->label, sensim_status_str(rc), sensim_last_error());
      return 1;
    }
    bench_record(m, k, &sp);
    if (s->fresh) free_filter(bf, user);
    if (k == 0) *out = f;
    else sensim__frame_release(&f);
  }
  if (!s->fresh) free_filter(bf, user);
  bench_summarise(m, c->reps);
  return 0;
}

/* How time_chain runs the chain. */
typedef enum chain_mode {
  CHAIN_ONE_THREAD,   /* sensim__chain_run: cfa moved before the per-value stages */
  CHAIN_AS_WRITTEN,   /* the same with keep_order: image_sensor and noise on rgb */
  CHAIN_TWO_THREADS,  /* sensim__chain_run_forked on a pool of one worker + this thread */
  CHAIN_NMODES
} chain_mode;

/* The typical chain as sensim runs it (sensim__chain_run), on copies of the
 * rendered frame, frame indices 0..reps in order. */
static int time_chain(const cfg *c, const sensim_frame *in, bench_meas *m, chain_mode mode) {
  sensim_chain ch;
  sensim__chain_init(&ch, SENSIM_PAYLOAD_RGB_F32);
  ch.keep_order = mode == CHAIN_AS_WRITTEN;
  sensim_fork fork = {NULL};
  if (mode == CHAIN_TWO_THREADS && sensim__pool_create(1, &fork.pool)) {
    fprintf(stderr, "bench_isp: no worker pool: %s\n", sensim_last_error());
    return 1;
  }
  int bad = 0;
  for (size_t i = 0; i < NTYPICAL && !bad; i++) {
    const sensim_builtin_filter *bf = sensim__filter_find(kStages[kTypical[i]].filter);
    cJSON *js = kStages[kTypical[i]].params ? cJSON_Parse(kStages[kTypical[i]].params) : NULL;
    void *user = NULL;
    sensim_status rc = bf ? bf->create(js, &user) : SENSIM_EINVAL;
    cJSON_Delete(js);
    if (!rc && (rc = sensim__chain_append(&ch, &bf->def, user))) free_filter(bf, user);
    bad = rc != SENSIM_OK;
  }
  for (int k = 0; k <= c->reps && !bad; k++) {
    sensim_frame f;
    if (frame_clone(&f, in)) bad = 1;
    f.index = (uint64_t)k;
    bench_span sp;
    bench_span_start(&sp);
    sensim_status rc = bad ? SENSIM_OK : sensim__chain_run_forked(&ch, &f, SEED, 0, fork);
    bench_span_stop(&sp);
    if (!bad) sensim__frame_release(&f);
    bad = bad || rc != SENSIM_OK;
    bench_record(m, k, &sp);
  }
  sensim__chain_free(&ch);
  if (fork.pool) sensim__pool_destroy(fork.pool);
  if (bad) {
    fprintf(stderr, "bench_isp: the typical chain failed: %s\n", sensim_last_error());
    return 1;
  }
  bench_summarise(m, c->reps);
  return 0;
}

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
    fprintf(stderr, "bench_isp: --reps must be 1..%d\n", BENCH_MAX_REPS);
    return -1;
  }
  return 0;
}

/* What decides noise_emva1288's cost: values under 10 e- draw by inversion,
 * at or above by PTRS, saturated ones draw nothing. */
static void electron_stats(const sensim_frame *f, char *buf, size_t n) {
  const float *v = f->data;
  size_t nv = f->count * (f->type == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1), low = 0, sat = 0;
  double sum = 0;
  for (size_t i = 0; i < nv; i++) {
    sum += v[i];
    low += v[i] < 10.0f;
    sat += v[i] >= 10000.0f;
  }
  snprintf(buf, n, "mean %.0f e-, %.1f%% of values below 10 e-, %.1f%% at the 10000 e- full well",
           nv ? sum / nv : 0.0, 100.0 * low / (nv ? nv : 1), 100.0 * sat / (nv ? nv : 1));
}

int main(int argc, char **argv) {
  cfg c = {0};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--quick")) c.quick = 1;
  c.reps = c.quick ? 2 : 9;
  if (parse_args(argc, argv, &c)) return 2;
  c.width = c.quick ? 160 : 1280, c.height = c.quick ? 120 : 720;
  c.samples = 4;
  bench_flush_denormals();

  sensim_frame radiance;
  double render_ms = 0;
  if (render(&c, &radiance, &render_ms)) return 1;
  static sensim_frame outs[ST_N];
  static bench_meas meas[ST_N];
  for (int i = 0; i < ST_N; i++) {
    const sensim_frame *in = kStages[i].input < 0 ? &radiance : &outs[kStages[i].input];
    if (time_stage(&c, i, in, &outs[i], &meas[i])) return 1;
  }
  bench_meas chain[CHAIN_NMODES];
  memset(&chain, 0, sizeof chain);
  for (int mode = 0; mode < CHAIN_NMODES; mode++)
    if (time_chain(&c, &radiance, &chain[mode], (chain_mode)mode)) return 1;

  char cpu[128], stats[160];
  bench_cpu_model(cpu, sizeof cpu);
  electron_stats(&outs[ST_SENSOR], stats, sizeof stats);
  const char *b = c.markdown ? "**" : "";
  printf("%sbench_isp%s: %s, %s mode, one thread, median of %d after 1 warm-up\n", b, b, cpu,
         c.quick ? "quick" : "full", c.reps);
  printf("%sinput: a %ux%u rgb_f32 radiance frame of the town (%d samples/px, rendered in %.0f ms); after "
         "image_sensor: %s\n",
         c.markdown ? "\n" : "", c.width, c.height, c.samples, render_ms, stats);

  static bench_row rows[ST_N + 2 + CHAIN_NMODES];
  const char *h[] = {"stage", "parameters", "takes -> gives", "median ms", "min ms", "median CPU ms",
                     "ms per megapixel"};
  int nr = 0;
  for (int i = 0; i < ST_N; i++) {
    const sensim_frame *in = kStages[i].input < 0 ? &radiance : &outs[kStages[i].input];
    double mp = 1e-6 * (double)in->width * in->height;
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", kStages[i].label);
    snprintf(rows[nr].c[1], BENCH_CELL, "%s", kStages[i].params ? kStages[i].params : "(defaults)");
    if (i == ST_CCM) snprintf(rows[nr].c[1], BENCH_CELL, "3x3 matrix");
    if (i == ST_MATCH) snprintf(rows[nr].c[1], BENCH_CELL, "per channel, reference mean 0.4, std 0.2");
    snprintf(rows[nr].c[2], BENCH_CELL, "%s%s -> %s%s", sensim_payload_name(in->type), unit_name(in),
             sensim_payload_name(outs[i].type), unit_name(&outs[i]));
    snprintf(rows[nr].c[3], BENCH_CELL, "%.2f", meas[i].med_ms);
    snprintf(rows[nr].c[4], BENCH_CELL, "%.2f", meas[i].min_ms);
    snprintf(rows[nr].c[5], BENCH_CELL, "%.2f", meas[i].med_cpu);
    snprintf(rows[nr++].c[6], BENCH_CELL, "%.2f", meas[i].med_ms / mp);
  }
  double mp = 1e-6 * (double)c.width * c.height;
  const int *lists[2] = {kTypical, kPhysical};
  const char *names[2] = {"sum: typical chain (docs/camera_pipeline.md order)",
                          "sum: the same, physical order (cfa first)"};
  for (int l = 0; l < 2; l++) {
    double med = 0, mn = 0, cpu_ms = 0;
    for (size_t i = 0; i < NTYPICAL; i++) {
      med += meas[lists[l][i]].med_ms;
      mn += meas[lists[l][i]].min_ms;
      cpu_ms += meas[lists[l][i]].med_cpu;
    }
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", names[l]);
    snprintf(rows[nr].c[2], BENCH_CELL, "rgb_f32 radiance -> rgba8");
    snprintf(rows[nr].c[3], BENCH_CELL, "%.2f", med);
    snprintf(rows[nr].c[4], BENCH_CELL, "%.2f", mn);
    snprintf(rows[nr].c[5], BENCH_CELL, "%.2f", cpu_ms);
    snprintf(rows[nr++].c[6], BENCH_CELL, "%.2f", med / mp);
  }
  const char *chain_names[CHAIN_NMODES] = {
      "typical chain run by sensim__chain_run",
      "the same in its written order (no early cfa)",
      "the same on 2 threads (forked; CPU: this thread)",
  };
  for (int mode = 0; mode < CHAIN_NMODES; mode++) {
    snprintf(rows[nr].c[0], BENCH_CELL, "%s", chain_names[mode]);
    snprintf(rows[nr].c[2], BENCH_CELL, "rgb_f32 radiance -> rgba8");
    snprintf(rows[nr].c[3], BENCH_CELL, "%.2f", chain[mode].med_ms);
    snprintf(rows[nr].c[4], BENCH_CELL, "%.2f", chain[mode].min_ms);
    snprintf(rows[nr].c[5], BENCH_CELL, "%.2f", chain[mode].med_cpu);
    snprintf(rows[nr++].c[6], BENCH_CELL, "%.2f", chain[mode].med_ms / mp);
  }
  char title[120];
  snprintf(title, sizeof title, "ISP stages on a %ux%u frame (ms per megapixel = ns per pixel)", c.width, c.height);
  bench_print_table(c.markdown, title, h, 7, rows, nr);

  for (int i = 0; i < ST_N; i++) sensim__frame_release(&outs[i]);
  sensim__frame_release(&radiance);
  return 0;
}
