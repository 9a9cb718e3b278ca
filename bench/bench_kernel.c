/* bench/bench_kernel.c: sensim's lidar and camera against bare Embree.
 *
 * Builds the procedural town (town.h) twice in one process: through sensim's
 * public API (one mesh per object kind, one static body per instance) and
 * directly in Embree (one RTCScene per mesh, instanced into a top-level
 * scene with the same transforms). It then times one lidar scan and one
 * camera frame delivered through the real path (sensim_world_advance ->
 * sensim_sensor_poll, world threads = 0) and the same rays cast by bare
 * Embree on one thread, and reports median times and their ratio.
 *
 *   bench_kernel [--quick] [--markdown] [--reps N]
 *
 * See docs/performance.md for how to read the numbers. */
#include <embree3/rtcore.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "sensim/sensim.h"
#include "town.h"

#define BENCH_PI 3.14159265358979323846
#define MAX_REPS 64

typedef struct cfg {
  int quick, markdown, reps;
  int channels, columns;          /* lidar */
  double elev_min, elev_max;      /* rad */
  double min_range, max_range;    /* m */
  uint32_t width, height;         /* camera, px */
  double hfov;                    /* rad */
  double height_above_street;     /* m */
  sensim_vec3 sun;                /* direction the sunlight travels, unit */
} cfg;

static double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
/* CPU time of the whole process (every thread) and of the calling thread:
 * their difference is work (or spinning) on Embree's and TBB's threads. */
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static double thread_cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Wall, process-CPU and thread-CPU milliseconds of one stretch of work. */
typedef struct span {
  double w0, c0, t0;
  double wall, cpu, thread;
} span;
static void span_start(span *s) { s->w0 = wall_s(), s->c0 = cpu_s(), s->t0 = thread_cpu_s(); }
static void span_stop(span *s) {
  s->wall = 1e3 * (wall_s() - s->w0);
  s->cpu = 1e3 * (cpu_s() - s->c0);
  s->thread = 1e3 * (thread_cpu_s() - s->t0);
}
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- bare Embree scene ------------------------------------------------- */

typedef struct bare {
  RTCDevice dev;
  RTCScene top;
  RTCScene *blas;
  size_t nblas;
  float (*rot)[9];  /* per instance: row-major rotation, to bring Ng to the world */
  int error;
} bare;

static void on_embree_error(void *user, enum RTCError code, const char *msg) {
  fprintf(stderr, "bench_kernel: Embree error %d: %s\n", (int)code, msg ? msg : "");
  ((bare *)user)->error = 1;
}

/* Row-major rotation matrix of a unit quaternion (Hamilton convention), the
 * standard formula, e.g. Shoemake, SIGGRAPH 1985, eq. for Rot(q). */
static void quat_matrix(sensim_quat q, double m[9]) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  m[0] = 1 - 2 * (y * y + z * z); m[1] = 2 * (x * y - w * z);     m[2] = 2 * (x * z + w * y);
  m[3] = 2 * (x * y + w * z);     m[4] = 1 - 2 * (x * x + z * z); m[5] = 2 * (y * z - w * x);
  m[6] = 2 * (x * z - w * y);     m[7] = 2 * (y * z + w * x);     m[8] = 1 - 2 * (x * x + y * y);
}

/* The top-level scene: one instance per town instance with its pose. sensim
 * builds the same kind of scene (its "view") for every capture. */
static int build_top(bare *b, const bench_town *t, RTCScene *out) {
  RTCScene top = rtcNewScene(b->dev);
  for (size_t i = 0; i < t->ninst; i++) {
    const bench_town_instance *in = &t->inst[i];
    double r[9];
    quat_matrix(in->pose.rot, r);
    for (int k = 0; k < 9; k++) b->rot[i][k] = (float)r[k];
    /* Column-major 3x4: the rotation's columns, then the translation. */
    float xf[12] = {(float)r[0], (float)r[3], (float)r[6], (float)r[1], (float)r[4], (float)r[7],
                    (float)r[2], (float)r[5], (float)r[8], (float)in->pose.pos.x,
                    (float)in->pose.pos.y, (float)in->pose.pos.z};
    RTCGeometry g = rtcNewGeometry(b->dev, RTC_GEOMETRY_TYPE_INSTANCE);
    rtcSetGeometryInstancedScene(g, b->blas[in->mesh]);
    rtcSetGeometryTransform(g, 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, xf);
    rtcCommitGeometry(g);
    unsigned id = rtcAttachGeometry(top, g);
    rtcReleaseGeometry(g);
    if (id != i) return -1; /* instance ids index `rot` */
  }
  rtcCommitScene(top);
  *out = top;
  return b->error ? -1 : 0;
}

static int bare_build(const bench_town *t, bare *b) {
  memset(b, 0, sizeof *b);
  /* threads=1: the BVH builds run on this thread only, as sensim's do with
   * world threads = 0 only if its device is configured likewise. */
  b->dev = rtcNewDevice("threads=1");
  if (!b->dev) return -1;
  rtcSetDeviceErrorFunction(b->dev, on_embree_error, b);
  b->blas = calloc(t->nmeshes, sizeof *b->blas);
  b->rot = calloc(t->ninst ? t->ninst : 1, sizeof *b->rot);
  if (!b->blas || !b->rot) return -1;
  b->nblas = t->nmeshes;
  for (size_t i = 0; i < t->nmeshes; i++) {
    const bench_town_mesh *m = &t->meshes[i];
    RTCGeometry g = rtcNewGeometry(b->dev, RTC_GEOMETRY_TYPE_TRIANGLE);
    float *vb = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                        3 * sizeof(float), m->nvert);
    unsigned *ib = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                           3 * sizeof(unsigned), m->ntri);
    if (!vb || !ib) return -1;
    memcpy(vb, m->vertices, 3 * sizeof(float) * m->nvert);
    memcpy(ib, m->indices, 3 * sizeof(unsigned) * m->ntri);
    rtcCommitGeometry(g);
    b->blas[i] = rtcNewScene(b->dev);
    rtcAttachGeometry(b->blas[i], g);
    rtcReleaseGeometry(g);
    /* The quality sensim's rt/device.c asks for its mesh BVHs, so both sides
     * trace the same kind of tree. */
    rtcSetSceneBuildQuality(b->blas[i], RTC_BUILD_QUALITY_HIGH);
    rtcCommitScene(b->blas[i]);
  }
  return build_top(b, t, &b->top);
}

static void bare_free(bare *b) {
  if (b->top) rtcReleaseScene(b->top);
  for (size_t i = 0; b->blas && i < b->nblas; i++)
    if (b->blas[i]) rtcReleaseScene(b->blas[i]);
  free(b->blas);
  free(b->rot);
  if (b->dev) rtcReleaseDevice(b->dev);
}

/* ---- ray sets ------------------------------------------------------------ */

/* Rays from one origin, ordered so that every run of 8 or 16 is a coherent
 * packet (a lidar column's neighbouring channels; a camera tile). */
typedef struct rayset {
  size_t n;
  float org[3];
  float *dir;       /* 3n, unit, world frame */
  uint32_t *slot;   /* lidar: channel + channels * column; camera: pixel */
  float tfar;
  float *t;         /* per ray: hit distance of the last cast, INFINITY if none */
  uint32_t *inst;   /* per ray: instance hit by the last 1-ray cast, or ~0 */
} rayset;

static int rayset_alloc(rayset *r, size_t n) {
  r->n = n;
  r->dir = malloc(3 * n * sizeof *r->dir);
  r->slot = malloc(n * sizeof *r->slot);
  r->t = malloc(n * sizeof *r->t);
  r->inst = malloc(n * sizeof *r->inst);
  return r->dir && r->slot && r->t && r->inst ? 0 : -1;
}
static void rayset_free(rayset *r) {
  free(r->dir);
  free(r->slot);
  free(r->t);
  free(r->inst);
}

static void put_dir(rayset *r, size_t i, sensim_pose pose, sensim_vec3 d_sensor, uint32_t slot) {
  sensim_vec3 d = sensim_quat_rotate(pose.rot, d_sensor);
  double n = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  r->dir[3 * i] = (float)(d.x / n);
  r->dir[3 * i + 1] = (float)(d.y / n);
  r->dir[3 * i + 2] = (float)(d.z / n);
  r->slot[i] = slot;
}

/* The beams sensim_lidar casts, by the geometry lidar.h gives: channel c at
 * elevation elev_min + c (elev_max - elev_min) / (channels - 1), column j at
 * azimuth start + j hfov / columns, CCW from sensor +X about +Z. */
static int lidar_rays(const sensim_lidar_params *lp, sensim_pose pose, rayset *r) {
  if (rayset_alloc(r, (size_t)lp->channels * (size_t)lp->columns)) return -1;
  r->org[0] = (float)pose.pos.x, r->org[1] = (float)pose.pos.y, r->org[2] = (float)pose.pos.z;
  r->tfar = (float)lp->max_range;
  size_t i = 0;
  for (int j = 0; j < lp->columns; j++) {
    double az = lp->start_azimuth + j * lp->hfov / lp->columns;
    for (int c = 0; c < lp->channels; c++, i++) {
      double el = lp->channels > 1
                      ? lp->elev_min + c * (lp->elev_max - lp->elev_min) / (lp->channels - 1)
                      : lp->elev_min;
      sensim_vec3 d = {cos(el) * cos(az), cos(el) * sin(az), sin(el)};
      put_dir(r, i, pose, d, (uint32_t)(c + lp->channels * j));
    }
  }
  return 0;
}

/* Pinhole rays of camera.h: +X forward, columns towards -Y, rows towards -Z,
 * focal length (width / 2) / tan(hfov / 2) px. With s x s samples per pixel
 * each ray goes through its stratum's centre (sensim jitters inside it).
 * Order: 4 x 4 pixel tiles, pixels row-major in a tile, samples innermost. */
static int camera_rays(const sensim_camera_params *cp, sensim_pose pose, rayset *r) {
  int s = (int)floor(sqrt((double)cp->samples) + 0.5);
  if (s * s != cp->samples) s = 1; /* non-square counts: one ray per pixel here */
  size_t spp = (size_t)cp->samples;
  if (rayset_alloc(r, (size_t)cp->width * cp->height * spp)) return -1;
  r->org[0] = (float)pose.pos.x, r->org[1] = (float)pose.pos.y, r->org[2] = (float)pose.pos.z;
  r->tfar = INFINITY;
  double f = 0.5 * cp->width / tan(0.5 * cp->hfov);
  size_t i = 0;
  for (uint32_t ty = 0; ty < cp->height; ty += 4)
    for (uint32_t tx = 0; tx < cp->width; tx += 4)
      for (uint32_t y = ty; y < ty + 4 && y < cp->height; y++)
        for (uint32_t x = tx; x < tx + 4 && x < cp->width; x++)
          for (size_t k = 0; k < spp; k++, i++) {
            double sx = s > 1 ? ((double)(k % (size_t)s) + 0.5) / s : 0.5;
            double sy = s > 1 ? ((double)(k / (size_t)s) + 0.5) / s : 0.5;
            sensim_vec3 d = {f, -(x + sx - 0.5 * cp->width), -(y + sy - 0.5 * cp->height)};
            put_dir(r, i, pose, d, y * cp->width + x);
          }
  return 0;
}

/* ---- bare casting ----------------------------------------------------------- */

typedef struct cast_stats {
  size_t hits;
  size_t shadow_rays;
} cast_stats;

/* Lambert shading needs the world normal facing the viewer; a shadow ray is
 * cast only where the surface faces the light (n . L > 0), offset 1 mm along
 * n so it does not hit its own triangle. Embree 3 returns Ng in the instanced
 * mesh's frame, so it is rotated by the instance's rotation first. */
static int shadow_ray(const bare *b, const float org[3], const float d[3], float t, unsigned inst,
                      const float ng[3], const float L[3], float o[3]) {
  const float *m = b->rot[inst];
  float n[3] = {m[0] * ng[0] + m[1] * ng[1] + m[2] * ng[2], m[3] * ng[0] + m[4] * ng[1] + m[5] * ng[2],
                m[6] * ng[0] + m[7] * ng[1] + m[8] * ng[2]};
  float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0)) return 0;
  float sgn = (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) > 0 ? -1.0f / len : 1.0f / len;
  for (int k = 0; k < 3; k++) n[k] *= sgn;
  if (n[0] * L[0] + n[1] * L[1] + n[2] * L[2] <= 0) return 0;
  for (int k = 0; k < 3; k++) o[k] = org[k] + t * d[k] + 1e-3f * n[k];
  return 1;
}

static cast_stats cast1(const bare *b, rayset *r, const float *L) {
  cast_stats st = {0, 0};
  struct RTCIntersectContext ctx;
  rtcInitIntersectContext(&ctx);
  for (size_t i = 0; i < r->n; i++) {
    struct RTCRayHit rh;
    const float *d = r->dir + 3 * i;
    rh.ray.org_x = r->org[0], rh.ray.org_y = r->org[1], rh.ray.org_z = r->org[2];
    rh.ray.dir_x = d[0], rh.ray.dir_y = d[1], rh.ray.dir_z = d[2];
    rh.ray.tnear = 0.0f, rh.ray.tfar = r->tfar, rh.ray.time = 0.0f;
    rh.ray.mask = 0xFFFFFFFFu, rh.ray.id = 0, rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID, rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(b->top, &ctx, &rh);
    r->inst[i] = rh.hit.instID[0];
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) {
      r->t[i] = INFINITY;
      continue;
    }
    r->t[i] = rh.ray.tfar;
    st.hits++;
    float o[3], ng[3] = {rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z};
    if (L && shadow_ray(b, r->org, d, rh.ray.tfar, rh.hit.instID[0], ng, L, o)) {
      struct RTCRay sr = {o[0], o[1], o[2], 0.0f, L[0], L[1], L[2], 0.0f, INFINITY, 0xFFFFFFFFu, 0, 0};
      rtcOccluded1(b->top, &ctx, &sr);
      st.shadow_rays++;
    }
  }
  return st;
}

/* Packets of N = 8 or 16 in Embree's SoA layout: ray field f of lane i at
 * float f * N + i, hit field f at 12 N + f N + i (rtcore_ray.h). */
typedef union packet {
  struct RTCRayHit8 h8;
  struct RTCRayHit16 h16;
} packet;
typedef union shadow_packet {
  struct RTCRay8 r8;
  struct RTCRay16 r16;
} shadow_packet;
_Static_assert(offsetof(struct RTCRayHit8, hit) == 12 * 8 * sizeof(float), "SoA layout");
_Static_assert(offsetof(struct RTCRayHit16, hit) == 12 * 16 * sizeof(float), "SoA layout");

enum { F_OX, F_OY, F_OZ, F_TNEAR, F_DX, F_DY, F_DZ, F_TIME, F_TFAR, F_MASK, F_ID, F_FLAGS };
enum { H_NGX, H_NGY, H_NGZ, H_U, H_V, H_PRIM, H_GEOM, H_INST };

static void set_ray(float *p, int N, int i, const float o[3], const float d[3], float tfar) {
  p[F_OX * N + i] = o[0], p[F_OY * N + i] = o[1], p[F_OZ * N + i] = o[2];
  p[F_DX * N + i] = d[0], p[F_DY * N + i] = d[1], p[F_DZ * N + i] = d[2];
  p[F_TNEAR * N + i] = 0.0f, p[F_TIME * N + i] = 0.0f, p[F_TFAR * N + i] = tfar;
  unsigned *u = (unsigned *)p;
  u[F_MASK * N + i] = 0xFFFFFFFFu, u[F_ID * N + i] = 0, u[F_FLAGS * N + i] = 0;
}

/* single_shadow: shadow rays one by one with rtcOccluded1, as sensim's
 * camera does, instead of in packets. */
static cast_stats castN(const bare *b, rayset *r, const float *L, int N, int single_shadow) {
  cast_stats st = {0, 0};
  struct RTCIntersectContext ctx;
  rtcInitIntersectContext(&ctx);
  ctx.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
  struct RTCIntersectContext sctx;
  rtcInitIntersectContext(&sctx);
  packet pk;
  shadow_packet sp;
  float *p = (float *)&pk;
  unsigned *h = (unsigned *)(p + 12 * N);
  for (size_t base = 0; base < r->n; base += (size_t)N) {
    /* Embree reads the valid masks with aligned SIMD loads: 64 bytes for 16. */
    _Alignas(64) int valid[16];
    _Alignas(64) int svalid[16];
    int any = 0;
    for (int i = 0; i < N; i++) {
      size_t k = base + (size_t)i;
      valid[i] = k < r->n ? -1 : 0;
      set_ray(p, N, i, r->org, r->dir + 3 * (k < r->n ? k : base), r->tfar);
      h[H_GEOM * N + i] = RTC_INVALID_GEOMETRY_ID;
    }
    if (N == 8) rtcIntersect8(valid, b->top, &ctx, &pk.h8);
    else rtcIntersect16(valid, b->top, &ctx, &pk.h16);
    for (int i = 0; i < N; i++) {
      size_t k = base + (size_t)i;
      svalid[i] = 0;
      if (!valid[i]) continue;
      if (h[H_GEOM * N + i] == RTC_INVALID_GEOMETRY_ID) {
        r->t[k] = INFINITY;
        continue;
      }
      float t = p[F_TFAR * N + i];
      r->t[k] = t;
      st.hits++;
      float o[3], ng[3] = {((float *)h)[H_NGX * N + i], ((float *)h)[H_NGY * N + i],
                           ((float *)h)[H_NGZ * N + i]};
      if (L && shadow_ray(b, r->org, r->dir + 3 * k, t, h[H_INST * N + i], ng, L, o)) {
        st.shadow_rays++;
        if (single_shadow) {
          struct RTCRay sr = {o[0], o[1], o[2], 0.0f, L[0], L[1], L[2], 0.0f, INFINITY, 0xFFFFFFFFu, 0, 0};
          rtcOccluded1(b->top, &sctx, &sr);
          continue;
        }
        set_ray((float *)&sp, N, i, o, L, INFINITY);
        svalid[i] = -1;
        any = 1;
      }
    }
    if (any) {
      for (int i = 0; i < N; i++)
        if (!svalid[i]) set_ray((float *)&sp, N, i, r->org, L, 0.0f);
      /* Shadow packets share a direction but not an origin: traced without
       * the coherent flag. (With it, Debian's Embree 3.13.5 did not return
       * from rtcOccluded16 on these packets.) */
      if (N == 8) rtcOccluded8(svalid, b->top, &sctx, &sp.r8);
      else rtcOccluded16(svalid, b->top, &sctx, &sp.r16);
    }
  }
  return st;
}

/* ---- report ------------------------------------------------------------------ */

typedef struct row {
  char c[13][96];
} row;

/* Numbers (and "1.23 (x16)") are right-aligned, text left. */
static int numeric(const char *s) {
  return ((*s >= '0' && *s <= '9') || *s == '-') && (!strchr(s, ' ') || strstr(s, " (x"));
}

static void print_table(const cfg *c, const char *title, const char *const *head, int ncol,
                        const row *rows, int nrows) {
  int w[13] = {0};
  for (int j = 0; j < ncol; j++) {
    w[j] = (int)strlen(head[j]);
    for (int i = 0; i < nrows; i++)
      if ((int)strlen(rows[i].c[j]) > w[j]) w[j] = (int)strlen(rows[i].c[j]);
  }
  printf("\n%s%s\n\n", c->markdown ? "### " : "", title);
  const char *sep = c->markdown ? " | " : "  ";
  printf("%s", c->markdown ? "| " : "");
  for (int j = 0; j < ncol; j++) printf("%-*s%s", w[j], head[j], j + 1 < ncol ? sep : "");
  printf("%s\n", c->markdown ? " |" : "");
  printf("%s", c->markdown ? "|" : "");
  for (int j = 0; j < ncol; j++) {
    int right = c->markdown && nrows > 0 && numeric(rows[0].c[j]);
    for (int k = 0; k < w[j] + (c->markdown ? 2 : 0); k++) putchar(right && k == w[j] + 1 ? ':' : '-');
    printf("%s", c->markdown ? "|" : (j + 1 < ncol ? "  " : ""));
  }
  printf("\n");
  for (int i = 0; i < nrows; i++) {
    printf("%s", c->markdown ? "| " : "");
    for (int j = 0; j < ncol; j++)
      printf(numeric(rows[i].c[j]) ? "%*s%s" : "%-*s%s", w[j], rows[i].c[j],
             j + 1 < ncol ? sep : "");
    printf("%s\n", c->markdown ? " |" : "");
  }
}

/* ---- measurements ------------------------------------------------------------ */

typedef struct meas {
  char name[48];
  size_t rays;               /* rays cast per run (primary + shadow) */
  double ms[MAX_REPS];       /* wall */
  double cpu[MAX_REPS];      /* CPU time of this thread: without time stolen by other work */
  double warm_ms, med_ms, min_ms, med_cpu;
} meas;

static void record(meas *m, int rep, const span *sp) {
  if (rep == 0) {
    m->warm_ms = sp->wall;
    return;
  }
  m->ms[rep - 1] = sp->wall;
  m->cpu[rep - 1] = sp->thread;
}

static void summarise(meas *m, int reps) {
  double tmp[MAX_REPS];
  memcpy(tmp, m->ms, (size_t)reps * sizeof *tmp);
  m->med_ms = median(tmp, reps);
  m->min_ms = tmp[0];
  memcpy(tmp, m->cpu, (size_t)reps * sizeof *tmp);
  m->med_cpu = median(tmp, reps);
}

/* One bare run: N = 1, 8 or 16 rays per call; N = -8: packets of 8 with
 * single shadow rays (sensim's calls). L: light direction, NULL for no
 * shadow rays. */
typedef struct bare_run {
  rayset *r;
  const float *L;
  int N;
  meas m;
} bare_run;

static void run_bare(const bare *b, bare_run *br, int rep) {
  span sp;
  span_start(&sp);
  cast_stats st = br->N == 1 ? cast1(b, br->r, br->L)
                             : castN(b, br->r, br->L, br->N < 0 ? -br->N : br->N, br->N < 0);
  span_stop(&sp);
  record(&br->m, rep, &sp);
  br->m.rays = br->r->n + st.shadow_rays;
}

typedef struct sensor_case {
  const char *name;
  sensim_sensor *s;
  double phase;        /* s; the cases are staggered so each advance captures one */
  int lidar, spp;
  meas m;
  span first;          /* the warm-up capture: BVH builds happen here */
  char check[96];
} sensor_case;

/* Beams against the bare rays: same direction (ring's elevation, column's
 * azimuth) and same range to 1 cm + 1e-4 relative (float rounding over
 * 200 m), or no return on both sides. */
static void check_lidar(const sensim_frame *f, const sensim_lidar_params *lp, const rayset *r,
                        char *out, size_t n) {
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
    double el = lp->channels > 1 ? lp->elev_min + b->ring * (lp->elev_max - lp->elev_min) /
                                                      (lp->channels - 1)
                                 : lp->elev_min;
    double az = lp->start_azimuth + col * step;
    if (fabs(b->elevation - el) < 1e-4 && fabs(remainder(b->azimuth - az, 2 * BENCH_PI)) < 1e-4)
      same_dir++;
    float t = r->t[k];
    int bare_ret = t >= lp->min_range && t <= lp->max_range;
    if (b->range > 0) returns++;
    if ((!bare_ret && b->range <= 0) ||
        (bare_ret && b->range > 0 && fabs(b->range - t) <= 0.01 + 1e-4 * t))
      same_range++;
  }
  snprintf(out, n, "returns %zu vs %zu; same ray %.2f%%, same range %.2f%%", returns,
           bare_returns, 100.0 * same_dir / (f->count ? f->count : 1),
           100.0 * same_range / (f->count ? f->count : 1));
}

/* Depth plane (distance along the optical axis) and label plane against the
 * bare pixel-centre rays. sensim jitters its sample inside the pixel, so
 * silhouettes and the grazing street near the horizon differ a little:
 * depth is counted as agreeing to 1 %, labels by class. */
static void check_camera(const sensim_frame *f, const rayset *r, const bench_town *town,
                         sensim_pose pose, char *out, size_t n) {
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
  snprintf(out, n, "class same at %.2f%% of pixels, depth within 1%% at %.2f%%",
           k * same_class, k * same_depth);
}

static void cpu_model(char *buf, size_t n) {
  snprintf(buf, n, "unknown");
  FILE *fp = fopen("/proc/cpuinfo", "r");
  if (!fp) return;
  char line[256];
  while (fgets(line, sizeof line, fp))
    if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
      snprintf(buf, n, "%s", strchr(line, ':') + 2);
      buf[strcspn(buf, "\n")] = 0;
      break;
    }
  fclose(fp);
}

#define SENSIM_CHECK(call)                                                                 \
  do {                                                                                     \
    sensim_status st_ = (call);                                                            \
    if (st_ != SENSIM_OK) {                                                                \
      fprintf(stderr, "bench_kernel: %s failed: %s: %s\n", #call, sensim_status_str(st_), \
              sensim_last_error());                                                        \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

static int parse_args(int argc, char **argv, cfg *c) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) c->quick = 1;
    else if (!strcmp(argv[i], "--markdown")) c->markdown = 1;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) c->reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--quick] [--markdown] [--reps N (1..%d)]\n", argv[0], MAX_REPS);
      return -1;
    }
  }
  if (c->reps < 1 || c->reps > MAX_REPS) {
    fprintf(stderr, "bench_kernel: --reps must be 1..%d\n", MAX_REPS);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  cfg c = {0};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--quick")) c.quick = 1;
  c.reps = c.quick ? 2 : 5;
  if (parse_args(argc, argv, &c)) return 2;
  c.channels = c.quick ? 16 : 128;
  c.columns = c.quick ? 256 : 2048;
  c.elev_min = -25.0 * BENCH_PI / 180, c.elev_max = 15.0 * BENCH_PI / 180;
  c.min_range = 0.1, c.max_range = 200.0;
  c.width = c.quick ? 160 : 1280, c.height = c.quick ? 120 : 720;
  c.hfov = 90.0 * BENCH_PI / 180;
  c.height_above_street = 1.8;
  {
    double s = sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.866 * 0.866); /* sun about 60 deg high */
    c.sun = (sensim_vec3){-0.4 / s, -0.3 / s, -0.866 / s};
  }
#if defined(__x86_64__) || defined(__i386__)
  /* Flush-to-zero and denormals-are-zero (MXCSR bits 15 and 6, Intel SDM
   * vol. 1, 10.2.3), as Embree's documentation asks of every thread that
   * traces; both sides run on this thread. */
  _mm_setcsr(_mm_getcsr() | 0x8040);
#endif

  bench_town_params tp;
  if (c.quick) bench_town_params_quick(&tp);
  else bench_town_params_full(&tp);
  bench_town town;
  double w0 = wall_s();
  if (bench_town_build(&tp, &town)) {
    fprintf(stderr, "bench_kernel: building the town failed\n");
    return 1;
  }
  double town_ms = 1e3 * (wall_s() - w0);

  /* Bare Embree first, alone in the process: Embree sizes its shared task
   * scheduler to the largest thread count any live device asked for, so the
   * threads=1 device is built before sensim's device exists. */
  bare b;
  span bare_span, sim_span;
  span_start(&bare_span);
  if (bare_build(&town, &b)) {
    fprintf(stderr, "bench_kernel: building the bare Embree scene failed\n");
    return 1;
  }
  span_stop(&bare_span);
  double tlas[MAX_REPS];
  for (int k = 0; k < c.reps; k++) {
    RTCScene top;
    double t0 = wall_s();
    int bad = build_top(&b, &town, &top);
    tlas[k] = 1e3 * (wall_s() - t0);
    rtcReleaseScene(top);
    if (bad) return 1;
  }
  double tlas_ms = median(tlas, c.reps);

  /* sensim: the same town through the public API, world threads = 0. */
  sensim_world *world = NULL;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  span_start(&sim_span);
  SENSIM_CHECK(sensim_world_create(&wp, &world));
  sensim_light light;
  sensim_light_init(&light);
  light.kind = SENSIM_LIGHT_DIRECTIONAL;
  light.direction = c.sun;
  light.intensity = 3.0f;
  light.cast_shadows = 1;
  SENSIM_CHECK(sensim_light_add(world, &light));
  SENSIM_CHECK(bench_town_add_to_world(&town, world));
  sensim_body *carrier;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1; /* parked at the crossing in the middle of the town */
  SENSIM_CHECK(sensim_body_create(world, &bp, &carrier));

  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = c.channels, lp.columns = c.columns;
  lp.elev_min = c.elev_min, lp.elev_max = c.elev_max, lp.elevations = NULL;
  lp.hfov = 2.0 * BENCH_PI;
  lp.min_range = c.min_range, lp.max_range = c.max_range;
  sensim_camera_params cp1, cp4;
  sensim_camera_params_init(&cp1);
  cp1.width = c.width, cp1.height = c.height, cp1.hfov = c.hfov, cp1.samples = 1;
  cp4 = cp1;
  cp4.samples = 4;

  char lname[64], cname[64];
  snprintf(lname, sizeof lname, "lidar %dx%d", c.channels, c.columns);
  snprintf(cname, sizeof cname, "camera %ux%u", c.width, c.height);
  sensor_case cases[4] = {
      {.name = "lidar, raw beams", .phase = 0.00, .lidar = 1},
      {.name = "lidar + points filter", .phase = 0.02, .lidar = 1},
      {.name = "camera, 1 sample/px", .phase = 0.04, .spp = 1},
      {.name = "camera, 4 samples/px", .phase = 0.06, .spp = 4},
  };
  const double rate = 10.0;
  for (int i = 0; i < 4; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.name = cases[i].name;
    sp.body = carrier;
    sp.mount.pos.z = c.height_above_street;
    sp.rate = rate;
    sp.phase = cases[i].phase;
    sp.lag = 0.0;
    if (cases[i].lidar) SENSIM_CHECK(sensim_lidar_create(world, &sp, &lp, &cases[i].s));
    else SENSIM_CHECK(sensim_camera_create(world, &sp, cases[i].spp == 1 ? &cp1 : &cp4, &cases[i].s));
    if (i == 1) SENSIM_CHECK(sensim_sensor_add_filter(cases[i].s, "points", NULL));
  }
  span_stop(&sim_span);

  sensim_pose pose = sensim_pose_identity();
  pose.pos.z = c.height_above_street;
  rayset lr = {0}, r1 = {0}, r4 = {0};
  if (lidar_rays(&lp, pose, &lr) || camera_rays(&cp1, pose, &r1) || camera_rays(&cp4, pose, &r4)) {
    fprintf(stderr, "bench_kernel: out of memory for the ray sets\n");
    return 1;
  }

  /* The bare runs, lidar then camera; in each set the 1-ray primary cast
   * runs last so r->t and r->inst hold it for the checks. */
  const float L[3] = {(float)-c.sun.x, (float)-c.sun.y, (float)-c.sun.z};
  enum { B_L16, B_L8, B_L1, B_C1_16, B_C1_8, B_C1_S16, B_C1_S8, B_C1_S8_1, B_C1_S1, B_C1_1,
         B_C4_16, B_C4_8, B_C4_S16, B_C4_S8, B_C4_S8_1, B_C4_S1, B_C4_1, B_N };
  static bare_run br[B_N];
  static const struct { int shadow, N; const char *how; } runs[] = {
      {0, 16, "x16"}, {0, 8, "x8"}, {1, 16, "+shadow, x16"}, {1, 8, "+shadow, x8"},
      {1, -8, "+shadow, x8 + x1 shadows"}, {1, 1, "+shadow, x1"}, {0, 1, "x1"}};
  for (int j = 0; j < 3; j++) {
    br[B_L16 + j] = (bare_run){&lr, NULL, j == 0 ? 16 : j == 1 ? 8 : 1, {{0}, 0, {0}, {0}, 0, 0, 0, 0}};
    snprintf(br[B_L16 + j].m.name, sizeof br[0].m.name, "bare lidar, x%d", br[B_L16 + j].N);
  }
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 7; j++) {
      bare_run *x = &br[(k ? B_C4_16 : B_C1_16) + j];
      x->r = k ? &r4 : &r1;
      x->L = runs[j].shadow ? L : NULL;
      x->N = runs[j].N;
      snprintf(x->m.name, sizeof x->m.name, "bare camera %d spp %s", k ? 4 : 1, runs[j].how);
    }

  /* Each repetition runs every bare cast and then every sensim capture, so
   * slow drifts of the machine (other tenants, clock) hit both sides alike.
   * sensim: capture k of case i is at phase_i + k / rate; advancing a hair
   * past it captures that one frame (lag 0: delivered by the same advance). */
  for (int k = 0; k <= c.reps; k++) {
    for (int j = 0; j < B_N; j++) run_bare(&b, &br[j], k);
    for (int i = 0; i < 4; i++) {
      sensor_case *sc = &cases[i];
      double t = sc->phase + k / rate + 1e-6;
      const sensim_frame *f = NULL;
      span sp;
      span_start(&sp);
      SENSIM_CHECK(sensim_world_advance(world, t));
      SENSIM_CHECK(sensim_sensor_poll(sc->s, &f));
      span_stop(&sp);
      if (!f) {
        fprintf(stderr, "bench_kernel: %s: no frame after advancing to %.6f s\n", sc->name, t);
        return 1;
      }
      if (k == 0) sc->first = sp;
      record(&sc->m, k, &sp);
      if (k == c.reps) {
        if (sc->lidar) check_lidar(f, &lp, &lr, sc->check, sizeof sc->check);
        else if (sc->spp == 1) check_camera(f, &r1, &town, f->pose, sc->check, sizeof sc->check);
        else snprintf(sc->check, sizeof sc->check, "(4 jittered samples: not compared)");
      }
    }
  }
  meas bm[B_N];
  for (int j = 0; j < B_N; j++) {
    summarise(&br[j].m, c.reps);
    bm[j] = br[j].m;
  }
  for (int i = 0; i < 4; i++) summarise(&cases[i].m, c.reps);

  /* ---- report ---- */
  char cpu[128];
  cpu_model(cpu, sizeof cpu);
  printf("%sbench_kernel%s: %s, Embree %s, %s mode, median of %d after 1 warm-up\n",
         c.markdown ? "**" : "", c.markdown ? "**" : "", cpu, RTC_VERSION_STRING,
         c.quick ? "quick" : "full", c.reps);
  printf("%stown: %zu meshes, %zu instances, %zu unique triangles, %zu instanced triangles "
         "(generated in %.0f ms)\n",
         c.markdown ? "\n" : "", town.nmeshes, town.ninst, bench_town_unique_triangles(&town),
         bench_town_instanced_triangles(&town), town_ms);

  row rows[32];
  int nr = 0;
  const char *h1[] = {"set-up", "wall ms", "CPU ms, all threads", "CPU ms, this thread"};
  const span *spans[6] = {&bare_span, &sim_span, &cases[0].first, &cases[1].first,
                          &cases[2].first, &cases[3].first};
  for (int i = 0; i < 6; i++) {
    if (i == 0) snprintf(rows[nr].c[0], 96, "bare Embree: device (threads=1) + all BVHs");
    else if (i == 1) snprintf(rows[nr].c[0], 96, "sensim world set-up (meshes, bodies, sensors)");
    else snprintf(rows[nr].c[0], 96, "sensim first frame: %s", cases[i - 2].name);
    snprintf(rows[nr].c[1], 96, "%.1f", spans[i]->wall);
    snprintf(rows[nr].c[2], 96, "%.1f", spans[i]->cpu);
    snprintf(rows[nr++].c[3], 96, "%.1f", spans[i]->thread);
  }
  snprintf(rows[nr].c[0], 96, "bare Embree: top-level scene alone (sensim: every capture)");
  snprintf(rows[nr].c[1], 96, "%.1f", tlas_ms);
  snprintf(rows[nr].c[2], 96, "-");
  snprintf(rows[nr++].c[3], 96, "-");
  print_table(&c, "Scene set-up (BVH builds)", h1, 4, rows, nr);

  nr = 0;
  const char *h2[] = {"run", "rays", "median ms", "min ms", "median CPU ms", "Mrays/s"};
  for (int i = 0; i < 4 + B_N; i++) {
    meas *m = i < 4 ? &cases[i].m : &bm[i - 4];
    if (i < 4) {
      snprintf(m->name, sizeof m->name, "sensim %s", cases[i].name);
      m->rays = cases[i].lidar ? lr.n : cases[i].spp == 1 ? r1.n : r4.n;
    }
    snprintf(rows[nr].c[0], 48, "%s", m->name);
    snprintf(rows[nr].c[1], 48, "%zu", m->rays);
    snprintf(rows[nr].c[2], 48, "%.2f", m->med_ms);
    snprintf(rows[nr].c[3], 48, "%.2f", m->min_ms);
    snprintf(rows[nr].c[4], 48, "%.2f", m->med_cpu);
    snprintf(rows[nr++].c[5], 48, "%.2f", m->rays / (1e3 * m->med_ms));
  }
  print_table(&c, "Timings (wall; CPU = this thread only)", h2, 6, rows, nr);

  /* Ratios: each sensim case against the bare casts of the same rays. */
  /* `same`: the bare run making the Embree calls sensim makes (rt/trace.c:
   * rtcIntersect8 on neighbours, rtcOccluded1 per shadow ray), -1 if none. */
  struct { int sc; int b1, b8, b16, same; const char *what; } rt[] = {
      {0, B_L1, B_L8, B_L16, B_L8, "primary"},
      {1, B_L1, B_L8, B_L16, B_L8, "primary"},
      {2, B_C1_1, B_C1_8, B_C1_16, -1, "primary"},
      {2, B_C1_S1, B_C1_S8, B_C1_S16, B_C1_S8_1, "primary + shadow"},
      {3, B_C4_1, B_C4_8, B_C4_16, -1, "primary"},
      {3, B_C4_S1, B_C4_S8, B_C4_S16, B_C4_S8_1, "primary + shadow"},
  };
  nr = 0;
  const char *h3[] = {"sensim case", "bare casts", "rays", "sensim ms", "bare x1 ms",
                      "bare x8 ms", "bare x16 ms", "sensim / x1", "sensim / x8",
                      "sensim / x16", "sensim / same calls", "same, CPU time",
                      "sensim Mrays/s"};
  for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++) {
    const meas *s = &cases[rt[i].sc].m;
    const meas *bx[3] = {&bm[rt[i].b1], &bm[rt[i].b8], &bm[rt[i].b16]};
    snprintf(rows[nr].c[0], 96, "%s", cases[rt[i].sc].name);
    snprintf(rows[nr].c[1], 96, "%s", rt[i].what);
    snprintf(rows[nr].c[2], 96, "%zu", bx[0]->rays);
    snprintf(rows[nr].c[3], 96, "%.2f", s->med_ms);
    for (int k = 0; k < 3; k++) {
      snprintf(rows[nr].c[4 + k], 96, "%.2f", bx[k]->med_ms);
      snprintf(rows[nr].c[7 + k], 96, "%.2f", s->med_ms / bx[k]->med_ms);
    }
    if (rt[i].same >= 0) {
      snprintf(rows[nr].c[10], 96, "%.2f", s->med_ms / bm[rt[i].same].med_ms);
      snprintf(rows[nr].c[11], 96, "%.2f", s->med_cpu / bm[rt[i].same].med_cpu);
    } else {
      snprintf(rows[nr].c[10], 96, "-");
      snprintf(rows[nr].c[11], 96, "-");
    }
    snprintf(rows[nr++].c[12], 96, "%.2f", bx[0]->rays / (1e3 * s->med_ms));
  }
  char title[200];
  snprintf(title, sizeof title, "sensim / bare Embree, same rays (%s, %s)", lname, cname);
  print_table(&c, title, h3, 13, rows, nr);

  nr = 0;
  const char *h4[] = {"sensim case", "same rays as bare?"};
  for (int i = 0; i < 4; i++) {
    snprintf(rows[nr].c[0], 48, "%s", cases[i].name);
    snprintf(rows[nr++].c[1], 96, "%s", cases[i].check);
  }
  print_table(&c, "Checks (last frame against the bare 1-ray cast)", h4, 2, rows, nr);

  sensim_world_destroy(world);
  rayset_free(&lr);
  rayset_free(&r1);
  rayset_free(&r4);
  bare_free(&b);
  bench_town_free(&town);
  return 0;
}
