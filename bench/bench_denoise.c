/* bench/bench_denoise.c: what the "denoise" filter costs and buys on the
 * path integrator at a low sample count (issue 26, docs/performance.md).
 *
 * The procedural town (town.h) under the clear sky with the sun 40 deg up
 * (sensim_environment SKY), a 640 x 360 pinhole camera (hfov 90 deg) 1.8 m
 * above the crossing, path integrator, 4 samples per pixel, max_bounces 3,
 * world threads 2 (both cores), lag 0, 10 Hz: each advance waits for its
 * frame, so the wall time of advance + poll is the frame's time.
 *
 * Speed rows: the chain image_sensor (fixed exposure) -> adc -> tone srgb ->
 * quantize, without and with "denoise" first. frames/s = 1 / the median
 * wall time of --frames frames after a warm-up frame (BVH build, energy
 * tables); the process CPU time per frame over the same frames says what
 * the work costs when other programs share the cores. The denoiser's own share is timed inside the world's chain by
 * two user filters that read the clock around it (so with the bands it
 * runs on the world's workers), and once more alone on one thread through
 * a standalone chain.
 *
 * Quality row: the mean squared error of a 4-spp frame, raw and after
 * "denoise" (the same frame, so the same noise), against a --ref-spp
 * (256) frame of the same camera, in linear radiance and after a display
 * transform (exposure putting the reference's mean luminance at 0.18,
 * clipped to [0, 1], IEC 61966-2-1 sRGB curve). The reference's own noise
 * adds about 4/256 of the raw MSE to every row.
 *
 *   bench_denoise [--quick] [--frames N] [--ref-spp N (0: speed rows only)]
 *
 * --quick: the small town at 160 x 90, 2 frames, a 32-spp reference (the
 * smoke test). Nothing about speed is asserted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "sensim/sensim.h"
#include "town.h"

#define PROG "bench_denoise"
#define CHECK(call) BENCH_CHECK(PROG, 1, call)
#define MAX_FRAMES 64

/* Fixed exposure for the timed chains: about 0.2 of full scale on the
 * town's sunlit facades (radiance ~ 5 W/(sr m^2), image_sensor's default
 * responsivity 3e6 and quantum efficiency 0.5, full well 10000 e-). */
static const char kSensor[] = "{\"exposure_time\": 2e-4}";

typedef struct cfg {
  int quick, frames, ref_spp;
  uint32_t w, h;
  bench_town town;
} cfg;

/* Two user filters around "denoise": the first stamps the clock, the second
 * adds the time since to the total. */
typedef struct stamp {
  double t0, total; /* s */
  int frames;
} stamp;

static sensim_status stamp_begin(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)f, (void)ctx;
  ((stamp *)user)->t0 = bench_wall_s();
  return SENSIM_OK;
}

static sensim_status stamp_end(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  stamp *s = user;
  if (f->index > 0) s->total += bench_wall_s() - s->t0, s->frames++; /* frame 0 is the warm-up */
  return SENSIM_OK;
}

static double cpu_thread_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double cpu_process_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* A world with the town under the sky and nothing else. */
static int town_world(const cfg *c, sensim_world **out) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 2;
  wp.seed = 26;
  CHECK(sensim_world_create(&wp, out));
  sensim_environment env;
  sensim_environment_init(&env);
  env.type = SENSIM_ENVIRONMENT_SKY;
  env.sun_elevation = 40.0 * 3.14159265358979323846 / 180.0;
  env.sun_azimuth = 135.0 * 3.14159265358979323846 / 180.0;
  env.turbidity = 3.0;
  CHECK(sensim_world_set_environment(*out, &env));
  CHECK(bench_town_add_to_world(&c->town, *out));
  return 0;
}

static void camera_params(const cfg *c, int spp, sensim_camera_params *cp) {
  sensim_camera_params_init(cp);
  cp->width = c->w, cp->height = c->h, cp->hfov = 1.5707963267948966;
  cp->samples = spp, cp->integrator = SENSIM_INTEGRATOR_PATH, cp->max_bounces = 3;
}

static sensim_sensor_params sensor_params(const char *name) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = name;
  sp.mount = sensim_pose_identity();
  sp.mount.pos.z = 1.8;
  sp.rate = 10.0;
  return sp;
}

typedef struct speed {
  double ms, cpu_per_wall, cpu_ms, denoise_ms; /* cpu_ms: process CPU per frame */
} speed;

/* Median wall time per frame of the chain, with or without denoise. */
static int time_chain(const cfg *c, int denoise, speed *out) {
  sensim_world *world = NULL;
  if (town_world(c, &world)) return 1;
  sensim_camera_params cp;
  camera_params(c, 4, &cp);
  sensim_sensor_params sp = sensor_params("camera");
  sensim_sensor *cam = NULL;
  CHECK(sensim_camera_create(world, &sp, &cp, &cam));
  stamp st = {0, 0, 0};
  if (denoise) {
    const sensim_filter_def begin = {"stamp_begin", SENSIM_PAYLOAD_ANY, SENSIM_PAYLOAD_ANY, NULL, stamp_begin, NULL};
    const sensim_filter_def end = {"stamp_end", SENSIM_PAYLOAD_ANY, SENSIM_PAYLOAD_ANY, NULL, stamp_end, NULL};
    CHECK(sensim_sensor_add_user_filter(cam, &begin, &st));
    CHECK(sensim_sensor_add_filter(cam, "denoise", NULL));
    CHECK(sensim_sensor_add_user_filter(cam, &end, &st));
  }
  CHECK(sensim_sensor_add_filter(cam, "image_sensor", kSensor));
  CHECK(sensim_sensor_add_filter(cam, "adc", NULL));
  CHECK(sensim_sensor_add_filter(cam, "tone", "{\"curve\": \"srgb\"}"));
  CHECK(sensim_sensor_add_filter(cam, "quantize", NULL));
  double ms[MAX_FRAMES], cpu0 = 0, wall0 = 0;
  for (int k = 0; k <= c->frames; k++) {
    const sensim_frame *f = NULL;
    if (k == 1) cpu0 = cpu_process_s(), wall0 = bench_wall_s();
    const double t0 = bench_wall_s();
    CHECK(sensim_world_advance(world, 0.1 * k));
    CHECK(sensim_sensor_poll(cam, &f));
    if (!f) {
      fprintf(stderr, PROG ": frame %d was not delivered\n", k);
      sensim_world_destroy(world);
      return 1;
    }
    if (k > 0) ms[k - 1] = 1e3 * (bench_wall_s() - t0);
  }
  out->cpu_per_wall = (cpu_process_s() - cpu0) / (bench_wall_s() - wall0);
  out->cpu_ms = 1e3 * (cpu_process_s() - cpu0) / c->frames;
  out->ms = bench_median(ms, c->frames);
  out->denoise_ms = st.frames ? 1e3 * st.total / st.frames : 0.0;
  sensim_world_destroy(world);
  return 0;
}

static double luminance(const float *p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; }

static double srgb(double v) {
  v = v < 0 ? 0 : v > 1 ? 1 : v;
  return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

/* MSE of a against the reference r over n pixels x 3 channels: linear,
 * and after the display transform with exposure k. */
static void mse(const float *a, const float *r, size_t n, double k, double *lin, double *disp) {
  double sl = 0, sd = 0;
  for (size_t i = 0; i < 3 * n; i++) {
    const double d = (double)a[i] - r[i], e = srgb(k * a[i]) - srgb(k * r[i]);
    sl += d * d, sd += e * e;
  }
  *lin = sl / (3.0 * n), *disp = sd / (3.0 * n);
}

typedef struct quality {
  double mse_raw, mse_den, disp_raw, disp_den, ref_mean, alone_ms, alone_cpu_ms, ref_s;
} quality;

static int measure_quality(const cfg *c, quality *q) {
  sensim_world *world = NULL;
  if (town_world(c, &world)) return 1;
  sensim_camera_params cp;
  sensim_sensor_params sp = sensor_params("spp4");
  sensim_sensor *low = NULL, *ref = NULL;
  camera_params(c, 4, &cp);
  CHECK(sensim_camera_create(world, &sp, &cp, &low));
  sp = sensor_params("reference");
  camera_params(c, c->ref_spp, &cp);
  CHECK(sensim_camera_create(world, &sp, &cp, &ref));
  const double t0 = bench_wall_s();
  CHECK(sensim_world_advance(world, 0.0));
  q->ref_s = bench_wall_s() - t0;
  const sensim_frame *fl = NULL, *fr = NULL;
  CHECK(sensim_sensor_poll(low, &fl));
  CHECK(sensim_sensor_poll(ref, &fr));
  if (!fl || !fr) {
    fprintf(stderr, PROG ": the quality frames were not delivered\n");
    sensim_world_destroy(world);
    return 1;
  }
  sensim_frame den;
  CHECK(sensim_frame_copy(fl, &den));
  sensim_filter_chain *chain = NULL;
  CHECK(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &chain));
  CHECK(sensim_filter_chain_add(chain, "denoise", NULL));
  const double t1 = bench_wall_s(), c1 = cpu_thread_s();
  CHECK(sensim_filter_chain_run(chain, &den, 26, 0));
  q->alone_ms = 1e3 * (bench_wall_s() - t1), q->alone_cpu_ms = 1e3 * (cpu_thread_s() - c1);
  sensim_filter_chain_destroy(chain);
  const size_t n = fr->count;
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += luminance((const float *)fr->data + 3 * i);
  q->ref_mean = sum / n;
  const double k = q->ref_mean > 0 ? 0.18 / q->ref_mean : 1.0;
  mse(fl->data, fr->data, n, k, &q->mse_raw, &q->disp_raw);
  mse(den.data, fr->data, n, k, &q->mse_den, &q->disp_den);
  sensim_frame_release(&den);
  sensim_world_destroy(world);
  return 0;
}

int main(int argc, char **argv) {
  cfg c = {0};
  c.frames = 5, c.ref_spp = 256;
  int frames_set = 0, ref_set = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) {
      c.quick = 1;
    } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
      c.frames = atoi(argv[++i]), frames_set = 1;
    } else if (strcmp(argv[i], "--ref-spp") == 0 && i + 1 < argc) {
      c.ref_spp = atoi(argv[++i]), ref_set = 1;
    } else {
      fprintf(stderr, "usage: " PROG " [--quick] [--frames N (1..%d)] [--ref-spp N (>= 4; 0: speed only)]\n", MAX_FRAMES);
      return 2;
    }
  }
  if (c.quick && !frames_set) c.frames = 2;
  if (c.quick && !ref_set) c.ref_spp = 32;
  if (c.frames < 1 || c.frames > MAX_FRAMES || (c.ref_spp < 4 && c.ref_spp != 0)) {
    fprintf(stderr, PROG ": --frames must be in 1..%d and --ref-spp >= 4 (0: no quality rows)\n", MAX_FRAMES);
    return 2;
  }
  c.w = c.quick ? 160 : 640, c.h = c.quick ? 90 : 360;
  bench_flush_denormals();
  bench_town_params tp;
  if (c.quick)
    bench_town_params_quick(&tp);
  else
    bench_town_params_full(&tp);
  if (bench_town_build(&tp, &c.town)) {
    fprintf(stderr, PROG ": building the town failed\n");
    return 1;
  }
  speed plain, den;
  quality q;
  int rc = time_chain(&c, 0, &plain);
  if (!rc) rc = time_chain(&c, 1, &den);
  memset(&q, 0, sizeof q);
  if (!rc && c.ref_spp) rc = measure_quality(&c, &q);
  bench_town_free(&c.town);
  if (rc) return rc;

  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf(PROG ": town under the sky (sun 40 deg), %ux%u, path integrator 4 spp, max_bounces 3, world threads 2,"
         " median of %d frames; %s\n\n",
         c.w, c.h, c.frames, cpu);
  printf("| chain after the render | wall ms per frame | frames/s | CPU ms per frame | CPU / wall |"
         " denoise wall ms (share) |\n");
  printf("|---|---|---|---|---|---|\n");
  printf("| image_sensor, adc, tone, quantize | %.1f | %.2f | %.1f | %.2f | - |\n", plain.ms, 1e3 / plain.ms,
         plain.cpu_ms, plain.cpu_per_wall);
  printf("| denoise, image_sensor, adc, tone, quantize | %.1f | %.2f | %.1f | %.2f | %.1f (%.0f %%) |\n", den.ms,
         1e3 / den.ms, den.cpu_ms, den.cpu_per_wall, den.denoise_ms, 100.0 * den.denoise_ms / den.ms);
  if (c.ref_spp)
    printf("| denoise alone, standalone chain, 1 thread | %.1f | | %.1f | | |\n", q.alone_ms, q.alone_cpu_ms);
  printf("\n");
  if (!c.ref_spp) return 0;
  printf("Quality against %d spp (reference mean luminance %.3g W/(sr m^2); its frame took %.1f s with the 4-spp"
         " one):\n\n",
         c.ref_spp, q.ref_mean, q.ref_s);
  printf("| 4 spp | MSE, linear radiance | relative RMSE | MSE, display (sRGB, 0..1) | PSNR, display dB |\n");
  printf("|---|---|---|---|---|\n");
  const double m2 = q.ref_mean * q.ref_mean;
  printf("| raw | %.4g | %.3f | %.3g | %.1f |\n", q.mse_raw, sqrt(q.mse_raw / m2), q.disp_raw,
         -10 * log10(q.disp_raw));
  printf("| + denoise | %.4g | %.3f | %.3g | %.1f |\n", q.mse_den, sqrt(q.mse_den / m2), q.disp_den,
         -10 * log10(q.disp_den));
  return 0;
}
