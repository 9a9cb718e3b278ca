/* bench/bare_embree.c: the town in bare Embree and the sensors' rays cast
 * by it (bare_embree.h). Every ray has mask 0xFFFFFFFF (Debian's Embree is
 * built with ray masks), tnear 0, flags 0, time 0. */
#include "bare_embree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_embree_error(void *user, enum RTCError code, const char *msg) {
  fprintf(stderr, "bench: Embree error %d: %s\n", (int)code, msg ? msg : "");
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
int bare_build_top(bare *b, const bench_town *t, RTCScene *out) {
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
    if (id != i) { /* instance ids index `rot` */
      rtcReleaseScene(top);
      return -1;
    }
  }
  rtcCommitScene(top);
  if (b->error) {
    rtcReleaseScene(top);
    return -1;
  }
  *out = top;
  return 0;
}

int bare_build(const bench_town *t, bare *b) {
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
  return bare_build_top(b, t, &b->top);
}

void bare_free(bare *b) {
  if (b->top) rtcReleaseScene(b->top);
  for (size_t i = 0; b->blas && i < b->nblas; i++)
    if (b->blas[i]) rtcReleaseScene(b->blas[i]);
  free(b->blas);
  free(b->rot);
  if (b->dev) rtcReleaseDevice(b->dev);
}

/* ---- ray sets ------------------------------------------------------------ */

static int rayset_alloc(rayset *r, size_t n) {
  r->n = n;
  r->dir = malloc(3 * n * sizeof *r->dir);
  r->slot = malloc(n * sizeof *r->slot);
  r->t = malloc(n * sizeof *r->t);
  r->inst = malloc(n * sizeof *r->inst);
  return r->dir && r->slot && r->t && r->inst ? 0 : -1;
}
void rayset_free(rayset *r) {
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

/* Sub-ray offsets of a beam's footprint, rad, by the rules of
 * src/sensors/lidar_beam.c (docs/lidar.md, "Beam model"), rounded to float
 * as sensim stores them. Gaussian (circular, elliptical): sub-ray k of n
 * on Vogel's spiral (Vogel, Math. Biosci. 44, 1979) at u_k = (k + 1/2) / n
 * of the half-angle disc, polar angle k x the golden angle, sub-ray 0 on
 * the axis. Rectangular: rows = round(sqrt(n div_v / div_h)), n split over
 * the rows as evenly as possible, each sub-ray at its cell's centre. */
static void footprint(const sensim_lidar_params *lp, int n, float *dh, float *dv) {
  if (n == 1) {
    dh[0] = dv[0] = 0.0f;
    return;
  }
  if (lp->shape == SENSIM_BEAM_RECTANGULAR) {
    int rows = (int)lround(sqrt(n * lp->div_v / lp->div_h));
    rows = rows < 1 ? 1 : rows > n ? n : rows;
    double y0 = -0.5 * lp->div_v;
    for (int i = 0, k = 0; i < rows; i++) {
      int ni = n / rows + (i < n % rows);
      double hi = lp->div_v * ni / n;
      for (int j = 0; j < ni; j++, k++) {
        dh[k] = (float)(-0.5 * lp->div_h + lp->div_h * (j + 0.5) / ni);
        dv[k] = (float)(y0 + 0.5 * hi);
      }
      y0 += hi;
    }
    return;
  }
  const double golden = 3.14159265358979323846 * (3.0 - sqrt(5.0));
  double ah = 0.5 * lp->div_h, av = lp->shape == SENSIM_BEAM_CIRCULAR ? ah : 0.5 * lp->div_v;
  for (int k = 0; k < n; k++) {
    double u = k == 0 ? 0.0 : (k + 0.5) / n, rr = sqrt(u), phi = golden * k;
    dh[k] = (float)(ah * rr * cos(phi));
    dv[k] = (float)(av * rr * sin(phi));
  }
}

/* The rays sensim_lidar casts, by the conventions of src/sensors/lidar.c:
 * channel c at elevation elevations[c] (or uniform over
 * elev_min..elev_max) and azimuth offset azimuth_offsets[c] (or 0); its
 * sub-ray k at angular offsets (dh_k, dv_k) in the beam's frame (axis f,
 * horizontal h towards increasing azimuth, up u):
 * d0 = normalise(f + tan(dh) h + tan(dv) u), kept in float as sensim keeps
 * its table; column j turns d0 about +Z by start_azimuth + hfov j / columns
 * (minus for a clockwise head), then by the sensor's rotation. A spinning
 * head keeps turning while a column's channels fire, so channel c's
 * azimuth also trails by hfov / window x firing_offsets[c]. Order: column,
 * channel, sub-ray (sensim's packets of 8 are runs of this order within a
 * column); slot = channel + channels * column. */
int bare_lidar_rays(const sensim_lidar_params *lp, sensim_pose pose, rayset *r) {
  return bare_lidar_rays_window(lp, 0.1, pose, r);
}

int bare_lidar_rays_window(const sensim_lidar_params *lp, double window, sensim_pose pose, rayset *r) {
  const int C = lp->channels, N = lp->columns, S = lp->subrays < 1 ? 1 : lp->subrays;
  float *dh = malloc(2 * (size_t)S * sizeof *dh);
  float(*d0)[3] = malloc((size_t)C * S * sizeof *d0);
  if (!dh || !d0 || rayset_alloc(r, (size_t)C * N * S)) {
    free(dh);
    free(d0);
    return -1;
  }
  float *dv = dh + S;
  footprint(lp, S, dh, dv);
  for (int c = 0; c < C; c++) {
    double e = lp->elevations ? lp->elevations[c]
               : C == 1       ? lp->elev_min
                              : lp->elev_min + (lp->elev_max - lp->elev_min) * c / (C - 1);
    double a = lp->azimuth_offsets ? lp->azimuth_offsets[c] : 0.0;
    if (lp->pattern == SENSIM_LIDAR_SPINNING && window > 0 && lp->firing_offsets)
      a += (lp->clockwise ? -1.0 : 1.0) * lp->hfov / window * lp->firing_offsets[c];
    double f[3] = {cos(e) * cos(a), cos(e) * sin(a), sin(e)};
    double h[3] = {-sin(a), cos(a), 0.0};
    double u[3] = {-sin(e) * cos(a), -sin(e) * sin(a), cos(e)};
    for (int k = 0; k < S; k++) {
      double th = tan(dh[k]), tv = tan(dv[k]), d[3], n = 0.0;
      for (int i = 0; i < 3; i++) d[i] = f[i] + th * h[i] + tv * u[i], n += d[i] * d[i];
      for (int i = 0; i < 3; i++) d0[(size_t)c * S + k][i] = (float)(d[i] / sqrt(n));
    }
  }
  r->org[0] = (float)pose.pos.x, r->org[1] = (float)pose.pos.y, r->org[2] = (float)pose.pos.z;
  r->tfar = (float)lp->max_range;
  size_t i = 0;
  for (int j = 0; j < N; j++) {
    double step = lp->hfov * j / N, az = lp->start_azimuth + (lp->clockwise ? -step : step);
    double ca = cos(az), sa = sin(az);
    for (int c = 0; c < C; c++)
      for (int k = 0; k < S; k++, i++) {
        const float *e = d0[(size_t)c * S + k];
        sensim_vec3 d0j = {ca * e[0] - sa * e[1], sa * e[0] + ca * e[1], e[2]};
        sensim_vec3 d = sensim_quat_rotate(pose.rot, d0j);
        r->dir[3 * i] = (float)d.x;
        r->dir[3 * i + 1] = (float)d.y;
        r->dir[3 * i + 2] = (float)d.z;
        r->slot[i] = (uint32_t)(c + C * j);
      }
  }
  free(dh);
  free(d0);
  return 0;
}

/* Pinhole rays of camera.h in its OpenCV pixel convention: pixel (x, y) is
 * centred at (x, y) and spans [x - 0.5, x + 0.5]; with fx = 0 the
 * intrinsics are fx = fy = (width / 2) / tan(hfov / 2),
 * cx = (width - 1) / 2, cy = (height - 1) / 2 (src/sensors/optics.c). The
 * optical frame (x right, y down, z forward) maps to the sensor frame as
 * X = z, Y = -x, Z = -y. With s x s samples per pixel each ray goes through
 * its stratum's centre, u = x - 0.5 + (i + 0.5) / s (sensim jitters inside
 * the stratum). Order: 4 x 4 pixel tiles, pixels row-major in a tile,
 * samples innermost. */
int bare_camera_rays(const sensim_camera_params *cp, sensim_pose pose, rayset *r) {
  if (cp->lens != SENSIM_LENS_PINHOLE || cp->samples < 1) return -1;
  int s = (int)floor(sqrt((double)cp->samples) + 0.5);
  if (s * s != cp->samples) s = 1; /* non-square counts: one ray per pixel here */
  size_t spp = (size_t)cp->samples;
  if (rayset_alloc(r, (size_t)cp->width * cp->height * spp)) return -1;
  r->org[0] = (float)pose.pos.x, r->org[1] = (float)pose.pos.y, r->org[2] = (float)pose.pos.z;
  r->tfar = INFINITY;
  double fx = cp->fx, fy = cp->fy, cx = cp->cx, cy = cp->cy;
  if (fx == 0) {
    fx = fy = 0.5 * cp->width / tan(0.5 * cp->hfov);
    cx = 0.5 * (cp->width - 1.0);
    cy = 0.5 * (cp->height - 1.0);
  }
  size_t i = 0;
  for (uint32_t ty = 0; ty < cp->height; ty += 4)
    for (uint32_t tx = 0; tx < cp->width; tx += 4)
      for (uint32_t y = ty; y < ty + 4 && y < cp->height; y++)
        for (uint32_t x = tx; x < tx + 4 && x < cp->width; x++)
          for (size_t k = 0; k < spp; k++, i++) {
            double u = x - 0.5 + (s > 1 ? ((double)(k % (size_t)s) + 0.5) / s : 0.5);
            double v = y - 0.5 + (s > 1 ? ((double)(k / (size_t)s) + 0.5) / s : 0.5);
            double xo = (u - cx) / fx, yo = (v - cy) / fy;
            sensim_vec3 d = {1.0, -xo, -yo};
            put_dir(r, i, pose, d, y * cp->width + x);
          }
  return 0;
}

/* ---- bare casting ----------------------------------------------------------- */

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

cast_stats bare_cast(const bare *b, rayset *r, const float *L, int N, int single_shadow) {
  if (N == 8 || N == 16) return castN(b, r, L, N, single_shadow);
  return cast1(b, r, L);
}
