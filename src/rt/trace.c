/* rt/trace.c: closest-hit and occlusion queries on a view, singly or in
 * coherent packets of 8. */
#include <math.h>
#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string.h>
#include "core/cpu.h"
#include "core/vecmath.h"
#include "rt/rt_internal.h"

_Static_assert(sizeof(sensim_rt_packet8) == sizeof(struct RTCRayHit8), "packet layout");
_Static_assert(offsetof(sensim_rt_packet8, tfar) == offsetof(struct RTCRayHit8, ray.tfar), "packet layout");
_Static_assert(offsetof(sensim_rt_packet8, ng_x) == offsetof(struct RTCRayHit8, hit.Ng_x), "packet layout");
_Static_assert(offsetof(sensim_rt_packet8, geom) == offsetof(struct RTCRayHit8, hit.geomID), "packet layout");
_Static_assert(offsetof(sensim_rt_packet8, body) == offsetof(struct RTCRayHit8, hit.instID), "packet layout");
_Static_assert(sizeof(sensim_rt_packet16) == sizeof(struct RTCRayHit16), "packet layout");
_Static_assert(offsetof(sensim_rt_packet16, tfar) == offsetof(struct RTCRayHit16, ray.tfar), "packet layout");
_Static_assert(offsetof(sensim_rt_packet16, ng_x) == offsetof(struct RTCRayHit16, hit.Ng_x), "packet layout");
_Static_assert(offsetof(sensim_rt_packet16, geom) == offsetof(struct RTCRayHit16, hit.geomID), "packet layout");
_Static_assert(offsetof(sensim_rt_packet16, body) == offsetof(struct RTCRayHit16, hit.instID), "packet layout");
_Static_assert(sizeof(sensim_rt_shadow16) == sizeof(struct RTCRay16), "packet layout");
_Static_assert(offsetof(sensim_rt_shadow16, tfar) == offsetof(struct RTCRay16, tfar), "packet layout");
_Static_assert(offsetof(sensim_rt_shadow16, flags) == offsetof(struct RTCRay16, flags), "packet layout");

static float ray_time(const sensim_rt_view *v, double t) {
  if (!(v->t1 > v->t0)) return 0.0f;
  double s = (t - v->t0) / (v->t1 - v->t0);
  return (float)(s < 0 ? 0 : s > 1 ? 1 : s);
}

/* The body's rotation at ray time s, interpolated between its steps as
 * Embree does (slerp of the quaternion decomposition). */
static sensim_quat body_rot(const sensim_rt_scene *sh, int body, float s) {
  int ns = sh->nsteps[body];
  const sensim_rt_step *r = sh->step + sh->first[body];
  double x = s * (ns - 1);
  int k = (int)floor(x);
  if (k >= ns - 1) return r[ns - 1].rot;
  return sensim_quat_slerp(r[k].rot, r[k + 1].rot, x - k);
}

/* World-space unit normal of the hit: Embree gives the instanced mesh's
 * unnormalised geometric normal (front = counter-clockwise winding) in the
 * mesh frame; the body's rotation at the ray's time takes it to the world.
 * A body with one step (static over the window) has its rotation as a
 * float matrix: the normal then carries float rounding, a few 1e-7 of its
 * unit length, as the float hit data it is computed from does. */
static void finish_hit(const sensim_rt_view *v, int body, unsigned prim, float time, float ngx, float ngy,
                       float ngz, sensim_rt_hit *h) {
  const sensim_rt_scene *sh = sensim__rt_part_of(v, (unsigned)body);
  if (sh->fixed[body].one_step) {
    const float *m = sh->fixed[body].m;
    float x = m[0] * ngx + m[1] * ngy + m[2] * ngz, y = m[3] * ngx + m[4] * ngy + m[5] * ngz,
          z = m[6] * ngx + m[7] * ngy + m[8] * ngz;
    float inv = 1.0f / sqrtf(x * x + y * y + z * z);
    h->n[0] = x * inv;
    h->n[1] = y * inv;
    h->n[2] = z * inv;
  } else {
    sensim_vec3 n = v3(ngx, ngy, ngz);
    n = q_rotate(body_rot(sh, body, time), v3_scale(n, 1.0 / v3_norm(n)));
    h->n[0] = (float)n.x;
    h->n[1] = (float)n.y;
    h->n[2] = (float)n.z;
  }
  h->body = body;
  h->prim = prim;
  h->elem = 0;
}

static void miss(sensim_rt_hit *h) {
  h->t = INFINITY;
  h->n[0] = h->n[1] = h->n[2] = 0.0f;
  h->u = h->v = 0.0f;
  h->body = -1;
  h->prim = 0;
  h->elem = 0;
}

static void init_ctx(struct RTCIntersectContext *ctx, int coherent) {
  rtcInitIntersectContext(ctx);
  ctx->flags = coherent ? RTC_INTERSECT_CONTEXT_FLAG_COHERENT : RTC_INTERSECT_CONTEXT_FLAG_INCOHERENT;
}

static void intersect1(const sensim_rt_view *v, struct RTCIntersectContext *ctx, const sensim_rt_ray *r,
                       sensim_rt_hit *h) {
  struct RTCRayHit rh;
  memset(&rh, 0, sizeof rh);
  rh.ray.org_x = r->org[0];
  rh.ray.org_y = r->org[1];
  rh.ray.org_z = r->org[2];
  rh.ray.dir_x = r->dir[0];
  rh.ray.dir_y = r->dir[1];
  rh.ray.dir_z = r->dir[2];
  rh.ray.tnear = r->tnear;
  rh.ray.tfar = r->tfar;
  rh.ray.time = ray_time(v, r->time);
  rh.ray.mask = 0xFFFFFFFFu; /* Debian's Embree is built with ray masks on */
  rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
  for (int k = 0; k < v->nscenes; k++) rtcIntersect1(v->scenes[k], ctx, &rh);
  if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) {
    miss(h);
    return;
  }
  h->t = rh.ray.tfar;
  h->u = rh.hit.u;
  h->v = rh.hit.v;
  finish_hit(v, (int)rh.hit.instID[0], rh.hit.primID, rh.ray.time, rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z, h);
  h->elem = rh.hit.geomID;
}

static void intersect8(const sensim_rt_view *v, struct RTCIntersectContext *ctx, const sensim_rt_ray *r,
                       sensim_rt_hit *h, int n) {
  RTC_ALIGN(32) int valid[8];
  RTC_ALIGN(32) struct RTCRayHit8 rh;
  /* Every field Embree reads is set below (ray, mask, id, flags, geomID,
   * instID[0]); the rest of the hit is written by Embree on a hit. */
  for (int i = 0; i < 8; i++) {
    valid[i] = i < n ? -1 : 0;
    const sensim_rt_ray *ri = &r[i < n ? i : 0];
    rh.ray.org_x[i] = ri->org[0];
    rh.ray.org_y[i] = ri->org[1];
    rh.ray.org_z[i] = ri->org[2];
    rh.ray.dir_x[i] = ri->dir[0];
    rh.ray.dir_y[i] = ri->dir[1];
    rh.ray.dir_z[i] = ri->dir[2];
    rh.ray.tnear[i] = ri->tnear;
    rh.ray.tfar[i] = ri->tfar;
    rh.ray.time[i] = ray_time(v, ri->time);
    rh.ray.mask[i] = 0xFFFFFFFFu;
    rh.ray.id[i] = 0;
    rh.ray.flags[i] = 0;
    rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0][i] = RTC_INVALID_GEOMETRY_ID;
  }
  for (int k = 0; k < v->nscenes; k++) rtcIntersect8(valid, v->scenes[k], ctx, &rh);
  for (int i = 0; i < n; i++) {
    if (rh.hit.geomID[i] == RTC_INVALID_GEOMETRY_ID) {
      miss(&h[i]);
      continue;
    }
    h[i].t = rh.ray.tfar[i];
    h[i].u = rh.hit.u[i];
    h[i].v = rh.hit.v[i];
    finish_hit(v, (int)rh.hit.instID[0][i], rh.hit.primID[i], rh.ray.time[i], rh.hit.Ng_x[i], rh.hit.Ng_y[i],
               rh.hit.Ng_z[i], &h[i]);
    h[i].elem = rh.hit.geomID[i];
  }
}

float sensim__rt_ray_time(const sensim_rt_view *v, double t) { return ray_time(v, t); }

void sensim__rt_body_matrix(const sensim_rt_view *v, int body, unsigned elem, float time, float m[9]) {
  const sensim_instance_group *g = v->snap->bodies[body].group;
  if (g) { /* the placement's rotation: the body's own is the identity */
    memcpy(m, g->xf[elem], 9 * sizeof *m);
    return;
  }
  const sensim_rt_scene *sh = sensim__rt_part_of(v, (unsigned)body);
  if (sh->fixed[body].one_step) {
    memcpy(m, sh->fixed[body].m, 9 * sizeof *m);
    return;
  }
  q_matrix_f(body_rot(sh, body, time), m);
}

void sensim__rt_intersect8(const sensim_rt_view *v, sensim_rt_packet8 *pk, int n) {
  RTC_ALIGN(32) int valid[8];
  struct RTCIntersectContext ctx;
  init_ctx(&ctx, 1);
  for (int i = 0; i < 8; i++) {
    valid[i] = i < n ? -1 : 0;
    pk->mask[i] = 0xFFFFFFFFu; /* Debian's Embree is built with ray masks on */
    pk->id[i] = 0;
    pk->flags[i] = 0;
    pk->geom[i] = RTC_INVALID_GEOMETRY_ID;
    pk->body[i] = RTC_INVALID_GEOMETRY_ID;
  }
  for (int k = 0; k < v->nscenes; k++) rtcIntersect8(valid, v->scenes[k], &ctx, (struct RTCRayHit8 *)pk);
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* Body by body: the lanes that hit one static body take its matrix
 * broadcast, so a coherent packet (a few bodies among eight lanes: the
 * street, a wall, a car) costs a few vector passes, not eight matrix loads
 * and products. Returns the lanes on moving bodies. */
__attribute__((target("avx2"))) static int body_normals8(const sensim_rt_view *v, const sensim_rt_packet8 *pk, int n,
                                                         float nx[8], float ny[8], float nz[8]) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), none = _mm256_set1_epi32(-1);
  const __m256i geom = _mm256_load_si256((const __m256i *)pk->geom), body = _mm256_load_si256((const __m256i *)pk->body);
  const __m256i hit = _mm256_andnot_si256(_mm256_cmpeq_epi32(geom, none), _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane));
  const __m256 gx = _mm256_load_ps(pk->ng_x), gy = _mm256_load_ps(pk->ng_y), gz = _mm256_load_ps(pk->ng_z);
  __m256 x = _mm256_set1_ps(1.0f), y = _mm256_setzero_ps(), z = _mm256_setzero_ps(); /* lanes without a static hit */
  int left = _mm256_movemask_ps(_mm256_castsi256_ps(hit)), moving = 0;
  while (left) {
    const unsigned b = pk->body[__builtin_ctz((unsigned)left)];
    const __m256 mine = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(body, _mm256_set1_epi32((int)b))),
                                      _mm256_castsi256_ps(hit));
    const int bits = _mm256_movemask_ps(mine);
    left &= ~bits;
    const sensim_rt_body_rot *br = &sensim__rt_part_of(v, b)->fixed[b];
    if (!br->one_step) {
      moving |= bits;
      continue;
    }
    const float *m = br->m;
    __m256 r[9];
    for (int k = 0; k < 9; k++) r[k] = _mm256_set1_ps(m[k]);
    x = _mm256_blendv_ps(x, _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(r[0], gx), _mm256_mul_ps(r[1], gy)), _mm256_mul_ps(r[2], gz)), mine);
    y = _mm256_blendv_ps(y, _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(r[3], gx), _mm256_mul_ps(r[4], gy)), _mm256_mul_ps(r[5], gz)), mine);
    z = _mm256_blendv_ps(z, _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(r[6], gx), _mm256_mul_ps(r[7], gy)), _mm256_mul_ps(r[8], gz)), mine);
  }
  const __m256 len2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z));
  const __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(len2));
  _mm256_storeu_ps(nx, _mm256_mul_ps(x, inv));
  _mm256_storeu_ps(ny, _mm256_mul_ps(y, inv));
  _mm256_storeu_ps(nz, _mm256_mul_ps(z, inv));
  return moving;
}
#endif

/* The normals of hits on one-step (static) bodies, rotated and normalised
 * eight at a time: x = (m0 gx + m1 gy) + m2 gz and so on, then
 * n = x / sqrt((x x + y y) + z z), the same correctly rounded float
 * operations in the same order as finish_hit's one-by-one path, so the same
 * bits on every path. Lanes without a static hit get (1, 0, 0). Returns the
 * lanes (bit i) whose hit is on a moving body: finish_hit's interpolated
 * path takes those. */
static int static_normals(const sensim_rt_view *v, const sensim_rt_packet8 *pk, int n, float nx[8], float ny[8],
                          float nz[8]) {
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) return body_normals8(v, pk, n, nx, ny, nz);
#endif
  _Alignas(16) float x[8], y[8], z[8];
  int moving = 0;
  for (int i = 0; i < 8; i++) {
    x[i] = 1.0f, y[i] = z[i] = 0.0f; /* lanes without a static hit: a harmless unit vector */
    if (i >= n || pk->geom[i] == RTC_INVALID_GEOMETRY_ID) continue;
    const sensim_rt_body_rot *br = &sensim__rt_part_of(v, pk->body[i])->fixed[pk->body[i]];
    if (!br->one_step) {
      moving |= 1 << i;
      continue;
    }
    const float *m = br->m;
    const float gx = pk->ng_x[i], gy = pk->ng_y[i], gz = pk->ng_z[i];
    x[i] = m[0] * gx + m[1] * gy + m[2] * gz;
    y[i] = m[3] * gx + m[4] * gy + m[5] * gz;
    z[i] = m[6] * gx + m[7] * gy + m[8] * gz;
  }
#if defined(__SSE2__)
  for (int i = 0; i < 8; i += 4) {
    __m128 X = _mm_load_ps(x + i), Y = _mm_load_ps(y + i), Z = _mm_load_ps(z + i);
    __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(X, X), _mm_mul_ps(Y, Y)), _mm_mul_ps(Z, Z));
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
    _mm_storeu_ps(nx + i, _mm_mul_ps(X, inv));
    _mm_storeu_ps(ny + i, _mm_mul_ps(Y, inv));
    _mm_storeu_ps(nz + i, _mm_mul_ps(Z, inv));
  }
#else
  for (int i = 0; i < 8; i++) {
    float inv = 1.0f / sqrtf(x[i] * x[i] + y[i] * y[i] + z[i] * z[i]);
    nx[i] = x[i] * inv, ny[i] = y[i] * inv, nz[i] = z[i] * inv;
  }
#endif
  return moving;
}

void sensim__rt_packet_normals(const sensim_rt_view *v, const sensim_rt_packet8 *pk, int n, float nx[8],
                               float ny[8], float nz[8]) {
  int moving = static_normals(v, pk, n, nx, ny, nz);
  for (int i = 0; moving; i++, moving >>= 1) {
    if (!(moving & 1)) continue;
    sensim_rt_hit h;
    finish_hit(v, (int)pk->body[i], pk->prim[i], pk->time[i], pk->ng_x[i], pk->ng_y[i], pk->ng_z[i], &h);
    nx[i] = h.n[0];
    ny[i] = h.n[1];
    nz[i] = h.n[2];
  }
}

void sensim__rt_ray_times(const sensim_rt_view *v, const double *t, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = ray_time(v, t[i]);
}

void sensim__rt_intersect(const sensim_rt_view *v, const sensim_rt_ray *rays, sensim_rt_hit *hits, size_t n,
                          int coherent) {
  struct RTCIntersectContext ctx;
  init_ctx(&ctx, coherent);
  if (!coherent) {
    for (size_t i = 0; i < n; i++) intersect1(v, &ctx, &rays[i], &hits[i]);
    return;
  }
  for (size_t i = 0; i < n; i += 8) intersect8(v, &ctx, rays + i, hits + i, n - i < 8 ? (int)(n - i) : 8);
}

void sensim__rt_occluded(const sensim_rt_view *v, const sensim_rt_ray *rays, unsigned char *occ, size_t n,
                         int coherent) {
  struct RTCIntersectContext ctx;
  init_ctx(&ctx, coherent);
  for (size_t i = 0; i < n; i++) {
    struct RTCRay r;
    memset(&r, 0, sizeof r);
    r.org_x = rays[i].org[0];
    r.org_y = rays[i].org[1];
    r.org_z = rays[i].org[2];
    r.dir_x = rays[i].dir[0];
    r.dir_y = rays[i].dir[1];
    r.dir_z = rays[i].dir[2];
    r.tnear = rays[i].tnear;
    r.tfar = rays[i].tfar;
    r.time = ray_time(v, rays[i].time);
    r.mask = 0xFFFFFFFFu;
    for (int k = 0; k < v->nscenes && !(r.tfar < 0.0f); k++) rtcOccluded1(v->scenes[k], &ctx, &r);
    occ[i] = r.tfar < 0.0f; /* Embree sets tfar = -inf on an occlusion */
  }
}

/* Lane `from` of a 16-wide ray's nine leading float arrays (origin, tnear,
 * direction, time, tfar: the same layout in RTCRayHit16 and RTCRay16)
 * copied to lane `to`. */
_Static_assert(offsetof(sensim_rt_packet16, tfar) == 8 * 16 * sizeof(float), "nine leading float arrays");
_Static_assert(offsetof(sensim_rt_shadow16, tfar) == 8 * 16 * sizeof(float), "nine leading float arrays");
static void copy_lane16(float *arrays /* the packet, read as floats */, int from, int to) {
  for (int k = 0; k < 9; k++) arrays[16 * k + to] = arrays[16 * k + from];
}

void sensim__rt_intersect16(const sensim_rt_view *v, sensim_rt_packet16 *pk, unsigned lanes, int coherent) {
  RTC_ALIGN(64) int valid[16];
  struct RTCIntersectContext ctx;
  init_ctx(&ctx, coherent);
  if (!lanes) return;
  const int first = __builtin_ctz(lanes);
  for (int i = 0; i < 16; i++) {
    valid[i] = (lanes >> i) & 1 ? -1 : 0;
    if (!valid[i]) copy_lane16((float *)(void *)pk, first, i); /* garbage in masked lanes slows the traversal */
    pk->mask[i] = 0xFFFFFFFFu; /* Debian's Embree is built with ray masks on */
    pk->id[i] = 0;
    pk->flags[i] = 0;
    pk->geom[i] = RTC_INVALID_GEOMETRY_ID;
    pk->body[i] = RTC_INVALID_GEOMETRY_ID;
  }
  for (int k = 0; k < v->nscenes; k++) rtcIntersect16(valid, v->scenes[k], &ctx, (struct RTCRayHit16 *)pk);
}

/* Body by body: the lanes that hit one static body take its matrix in one
 * vectorised pass (rt/normals16.c); lanes on moving bodies take
 * finish_hit's interpolated path. Either way the bits of finish_hit. */
void sensim__rt_packet16_normals(const sensim_rt_view *v, const sensim_rt_packet16 *pk, unsigned lanes,
                                 float nx[16], float ny[16], float nz[16]) {
  unsigned left = 0;
  for (int i = 0; i < 16; i++)
    if (((lanes >> i) & 1) && pk->geom[i] != RTC_INVALID_GEOMETRY_ID) left |= 1u << i;
  while (left) {
    const unsigned b = pk->body[__builtin_ctz(left)];
    unsigned mine = 0;
    for (int i = 0; i < 16; i++)
      if (((left >> i) & 1) && pk->body[i] == b) mine |= 1u << i;
    left &= ~mine;
    const sensim_rt_body_rot *br = &sensim__rt_part_of(v, b)->fixed[b];
    if (br->one_step) {
      sensim__rt_body_normals16(br->m, pk->ng_x, pk->ng_y, pk->ng_z, mine, nx, ny, nz);
      continue;
    }
    for (int i = 0; i < 16; i++) {
      if (!((mine >> i) & 1)) continue;
      sensim_rt_hit h;
      finish_hit(v, (int)b, pk->prim[i], pk->time[i], pk->ng_x[i], pk->ng_y[i], pk->ng_z[i], &h);
      nx[i] = h.n[0], ny[i] = h.n[1], nz[i] = h.n[2];
    }
  }
}

/* Shadow packets share a direction (or a light) but not an origin: they are
 * traced without the coherent flag. With it, Debian's Embree 3.13.5 does not
 * return from rtcOccluded16 on such packets (bench/bare_embree.c found the
 * same); lanes left out get a copy of a valid lane's ray of zero extent, as
 * garbage in masked lanes slows Embree's packet traversal. */
unsigned sensim__rt_occluded16(const sensim_rt_view *v, sensim_rt_shadow16 *pk, unsigned lanes) {
  RTC_ALIGN(64) int valid[16];
  struct RTCIntersectContext ctx;
  init_ctx(&ctx, 0);
  if (!lanes) return 0;
  const int first = __builtin_ctz(lanes);
  for (int i = 0; i < 16; i++) {
    valid[i] = (lanes >> i) & 1 ? -1 : 0;
    if (!valid[i]) {
      copy_lane16((float *)(void *)pk, first, i);
      pk->tnear[i] = pk->tfar[i] = 0.0f; /* and of zero extent */
    }
    pk->mask[i] = 0xFFFFFFFFu;
    pk->id[i] = 0;
    pk->flags[i] = 0;
  }
  for (int k = 0; k < v->nscenes; k++) {
    if (k > 0) /* lanes the static part occluded are done */
      for (int i = 0; i < 16; i++)
        if (pk->tfar[i] < 0.0f) valid[i] = 0;
    rtcOccluded16(valid, v->scenes[k], &ctx, (struct RTCRay16 *)pk);
  }
  unsigned occ = 0;
  for (int i = 0; i < 16; i++)
    if (((lanes >> i) & 1) && pk->tfar[i] < 0.0f) occ |= 1u << i; /* Embree sets tfar = -inf on an occlusion */
  return occ;
}
