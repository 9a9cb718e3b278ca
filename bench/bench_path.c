/* bench/bench_path.c: the path integrator on the procedural town against
 * bare Embree casting the same kinds of rays (docs/performance.md).
 *
 * sensim: a 1280 x 720 path-tracing camera (1 sample per pixel, max_bounces
 * 3, next-event estimation towards a sun or a uniform sky, one picked per
 * vertex) through the public API, world threads 0, median of 5 frames.
 *
 * bare: the same frame as a bare-Embree path tracer on the calling
 * thread: the camera's pinhole rays in 4 x 4 tile packets
 * (rtcIntersect16, coherent), then for every hit one shadow ray (sun or a
 * uniform-sphere sky direction, picked half and half, skipped below the
 * surface, as sensim skips it) and one cosine-distributed bounce ray; each
 * bounce's live rays compacted and cast as incoherent rtcIntersect16
 * packets, each packet's shadow rays as one rtcOccluded16 packet, the
 * last continuation kept with probability 1/2 (sensim's Russian roulette
 * keeps about that many on the town's albedos). No shading at all: the
 * floor of what any path tracer casting these rays can cost. The ray
 * counts of the bare side are printed; sensim's follow the same rules.
 *
 * --quick: a small town and a 160 x 120 camera (the smoke test). */
#include <embree3/rtcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bare_embree.h"
#include "bench_util.h"
#include "town.h"

#define SENSIM_CHECK_RC(x)                                                      \
  do {                                                                          \
    sensim_status rc_ = (x);                                                    \
    if (rc_) {                                                                  \
      fprintf(stderr, "%s: %s\n", #x, sensim_last_error());                     \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

/* CPU time of the calling thread, s: both sides run on it (world threads
 * 0), and on a shared machine wall time would count the neighbours' work. */
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* xorshift32: the bare side's random numbers (no need to match sensim's). */
static float rnd(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13, x ^= x >> 17, x ^= x << 5;
  *s = x;
  return (float)(x >> 8) * 0x1p-24f;
}

typedef struct bray {
  float o[3], d[3];
} bray;

static void cosine_dir(const float n[3], uint32_t *s, float d[3]) {
  const float u1 = rnd(s), u2 = rnd(s), r = sqrtf(u1), ph = 6.2831853f * u2;
  const float x = r * cosf(ph), y = r * sinf(ph), z = sqrtf(fmaxf(0.0f, 1.0f - u1));
  const float sg = copysignf(1.0f, n[2]), a = -1.0f / (sg + n[2]), b = n[0] * n[1] * a;
  const float t[3] = {1.0f + sg * n[0] * n[0] * a, sg * b, -sg * n[0]}, bb[3] = {b, sg + n[1] * n[1] * a, -n[1]};
  for (int k = 0; k < 3; k++) d[k] = t[k] * x + bb[k] * y + n[k] * z;
}

typedef struct counts {
  size_t primary, bounce, shadow;
} counts;

/* Cast n rays of `in` (coherent: camera tiles), shadow rays for the hits,
 * and write the continuation rays to `out`. */
static size_t wave(const bare *b, const bray *in, size_t n, int coherent, int last, const float sun[3], uint32_t *rs,
                   bray *out, counts *c) {
  struct RTCIntersectContext ctx, sctx;
  rtcInitIntersectContext(&ctx);
  if (coherent) ctx.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
  rtcInitIntersectContext(&sctx);
  size_t nout = 0;
  for (size_t base = 0; base < n; base += 16) {
    _Alignas(64) struct RTCRayHit16 rh;
    _Alignas(64) struct RTCRay16 sr;
    _Alignas(64) int valid[16], svalid[16];
    for (int i = 0; i < 16; i++) {
      const size_t k = base + (size_t)i < n ? base + (size_t)i : base;
      valid[i] = base + (size_t)i < n ? -1 : 0;
      rh.ray.org_x[i] = in[k].o[0], rh.ray.org_y[i] = in[k].o[1], rh.ray.org_z[i] = in[k].o[2];
      rh.ray.dir_x[i] = in[k].d[0], rh.ray.dir_y[i] = in[k].d[1], rh.ray.dir_z[i] = in[k].d[2];
      rh.ray.tnear[i] = 0.0f, rh.ray.tfar[i] = INFINITY, rh.ray.time[i] = 0.0f;
      rh.ray.mask[i] = 0xFFFFFFFFu, rh.ray.id[i] = 0, rh.ray.flags[i] = 0;
      rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
      rh.hit.instID[0][i] = RTC_INVALID_GEOMETRY_ID;
    }
    rtcIntersect16(valid, b->top, &ctx, &rh);
    int any = 0;
    for (int i = 0; i < 16; i++) {
      svalid[i] = 0;
      sr.org_x[i] = sr.org_y[i] = sr.org_z[i] = 0.0f;
      sr.dir_x[i] = sr.dir_y[i] = 0.0f, sr.dir_z[i] = 1.0f;
      sr.tnear[i] = 0.0f, sr.tfar[i] = 0.0f, sr.time[i] = 0.0f;
      sr.mask[i] = 0xFFFFFFFFu, sr.id[i] = 0, sr.flags[i] = 0;
      if (!valid[i] || rh.hit.geomID[i] == RTC_INVALID_GEOMETRY_ID) continue;
      const float *m = b->rot[rh.hit.instID[0][i]];
      const float gx = rh.hit.Ng_x[i], gy = rh.hit.Ng_y[i], gz = rh.hit.Ng_z[i];
      float nrm[3] = {m[0] * gx + m[1] * gy + m[2] * gz, m[3] * gx + m[4] * gy + m[5] * gz,
                      m[6] * gx + m[7] * gy + m[8] * gz};
      const float il = 1.0f / sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
      const float dx = rh.ray.dir_x[i], dy = rh.ray.dir_y[i], dz = rh.ray.dir_z[i], t = rh.ray.tfar[i];
      float sgn = nrm[0] * dx + nrm[1] * dy + nrm[2] * dz > 0.0f ? -il : il;
      for (int k = 0; k < 3; k++) nrm[k] *= sgn;
      const float p[3] = {rh.ray.org_x[i] + dx * t, rh.ray.org_y[i] + dy * t, rh.ray.org_z[i] + dz * t};
      const float off = 1e-4f * (1.0f + sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
      const float po[3] = {p[0] + nrm[0] * off, p[1] + nrm[1] * off, p[2] + nrm[2] * off};
      /* Next-event estimation: the sun or a sky direction. */
      float l[3];
      if (rnd(rs) < 0.5f) {
        memcpy(l, sun, sizeof l);
      } else {
        const float z = 1.0f - 2.0f * rnd(rs), r = sqrtf(fmaxf(0.0f, 1.0f - z * z)), ph = 6.2831853f * rnd(rs);
        l[0] = r * cosf(ph), l[1] = r * sinf(ph), l[2] = z;
      }
      if (l[0] * nrm[0] + l[1] * nrm[1] + l[2] * nrm[2] > 0.0f) {
        sr.org_x[i] = po[0], sr.org_y[i] = po[1], sr.org_z[i] = po[2];
        sr.dir_x[i] = l[0], sr.dir_y[i] = l[1], sr.dir_z[i] = l[2];
        sr.tfar[i] = INFINITY;
        svalid[i] = -1;
        any = 1;
        c->shadow++;
      }
      if (last && rnd(rs) < 0.5f) continue;
      if (out) {
        memcpy(out[nout].o, po, sizeof po);
        cosine_dir(nrm, rs, out[nout].d);
        nout++;
      }
    }
    if (any) rtcOccluded16(svalid, b->top, &sctx, &sr);
  }
  return nout;
}

static size_t bare_frame(const bare *b, const rayset *cam, const float sun[3], bray *w0, bray *w1, counts *c) {
  uint32_t rs = 0x9E3779B9u;
  for (size_t i = 0; i < cam->n; i++) {
    memcpy(w0[i].o, cam->org, sizeof w0[i].o);
    memcpy(w0[i].d, cam->dir + 3 * i, sizeof w0[i].d);
  }
  c->primary += cam->n;
  size_t n = wave(b, w0, cam->n, 1, 0, sun, &rs, w1, c);
  for (int bounce = 1; bounce <= 3 && n; bounce++) {
    c->bounce += n;
    bray *t = w0;
    w0 = w1, w1 = t;
    n = wave(b, w0, n, 0, bounce == 2, sun, &rs, bounce < 3 ? w1 : NULL, c);
  }
  return n;
}

int main(int argc, char **argv) {
  const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  bench_flush_denormals();
  bench_town_params tp;
  if (quick)
    bench_town_params_quick(&tp);
  else
    bench_town_params_full(&tp);
  bench_town town;
  if (bench_town_build(&tp, &town)) return 1;
  bare b;
  if (bare_build(&town, &b)) return 1;
  const uint32_t W = quick ? 160 : 1280, H = quick ? 120 : 720;
  const double s = sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.866 * 0.866);
  const float sun[3] = {(float)(0.4 / s), (float)(0.3 / s), (float)(0.866 / s)}; /* towards the sun */
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = W, cp.height = H, cp.hfov = 1.5707963267948966, cp.samples = 1;
  cp.integrator = SENSIM_INTEGRATOR_PATH;
  cp.max_bounces = 3;
  sensim_pose pose = sensim_pose_identity();
  pose.pos.z = 1.8;
  rayset cam = {0};
  if (bare_camera_rays(&cp, pose, &cam)) return 1;

  /* sensim */
  sensim_world *world = NULL;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  SENSIM_CHECK_RC(sensim_world_create(&wp, &world));
  sensim_light light;
  sensim_light_init(&light);
  light.direction = (sensim_vec3){-sun[0], -sun[1], -sun[2]};
  light.intensity = 3.0f;
  SENSIM_CHECK_RC(sensim_light_add(world, &light));
  sensim_environment env;
  sensim_environment_init(&env);
  env.type = SENSIM_ENVIRONMENT_UNIFORM;
  env.radiance[0] = 0.5f, env.radiance[1] = 0.6f, env.radiance[2] = 0.8f;
  SENSIM_CHECK_RC(sensim_world_set_environment(world, &env));
  SENSIM_CHECK_RC(bench_town_add_to_world(&town, world));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount = pose;
  sp.rate = 10.0;
  sensim_sensor *camera = NULL;
  SENSIM_CHECK_RC(sensim_camera_create(world, &sp, &cp, &camera));
  cp.integrator = SENSIM_INTEGRATOR_DIRECT;
  cp.max_bounces = 0;
  sensim_sensor *direct = NULL;
  sp.name = "direct";
  sp.phase = 0.05;
  SENSIM_CHECK_RC(sensim_camera_create(world, &sp, &cp, &direct));

  const int reps = quick ? 2 : 5;
  double t_path[8], t_direct[8], t_bare[8];
  for (int r = -1; r < reps; r++) { /* r = -1: warm-up (BVH build, tables) */
    const sensim_frame *f = NULL;
    double t0 = cpu_s();
    SENSIM_CHECK_RC(sensim_world_advance(world, 0.1 * (r + 1)));
    double t1 = cpu_s();
    SENSIM_CHECK_RC(sensim_sensor_poll(camera, &f));
    SENSIM_CHECK_RC(sensim_world_advance(world, 0.1 * (r + 1) + 0.05));
    double t2 = cpu_s();
    SENSIM_CHECK_RC(sensim_sensor_poll(direct, &f));
    if (r >= 0) t_path[r] = t1 - t0, t_direct[r] = t2 - t1;
  }
  bray *w0 = malloc(cam.n * sizeof *w0), *w1 = malloc(cam.n * sizeof *w1);
  if (!w0 || !w1) return 1;
  counts c = {0, 0, 0};
  for (int r = -1; r < reps; r++) {
    counts cr = {0, 0, 0};
    double t0 = cpu_s();
    bare_frame(&b, &cam, sun, w0, w1, &cr);
    if (r >= 0) t_bare[r] = cpu_s() - t0, c = cr;
  }
  const double mp = bench_median(t_path, reps), md = bench_median(t_direct, reps), mb = bench_median(t_bare, reps);
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_path: %ux%u, 1 spp, max_bounces 3, NEE (sun or sky), one thread; %s\n", W, H, cpu);
  printf("bare Embree rays per frame: %zu primary, %zu bounce, %zu shadow\n", c.primary, c.bounce, c.shadow);
  printf("| case | CPU ms per frame (median of %d) | / bare |\n|---|---|---|\n", reps);
  printf("| bare Embree, same rays (packets of 16) | %.1f | 1.00 |\n", mb * 1e3);
  printf("| sensim path integrator | %.1f | %.2f |\n", mp * 1e3, mp / mb);
  printf("| sensim direct integrator (max_bounces 0, for scale) | %.1f | %.2f |\n", md * 1e3, md / mb);
  free(w0);
  free(w1);
  rayset_free(&cam);
  sensim_world_destroy(world);
  bare_free(&b);
  bench_town_free(&town);
  return 0;
}
