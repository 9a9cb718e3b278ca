/* rt/trace.c: closest-hit and occlusion queries on a view, singly or in
 * coherent packets of 8. */
#include <math.h>
#include <string.h>
#include "core/vecmath.h"
#include "rt/rt_internal.h"

static float ray_time(const sensim_rt_view *v, double t) {
  if (!(v->t1 > v->t0)) return 0.0f;
  double s = (t - v->t0) / (v->t1 - v->t0);
  return (float)(s < 0 ? 0 : s > 1 ? 1 : s);
}

/* The body's rotation at ray time s, interpolated between its steps as
 * Embree does (slerp of the quaternion decomposition). */
static sensim_quat body_rot(const sensim_rt_view *v, int body, float s) {
  int ns = v->nsteps[body];
  const sensim_quat *r = v->rot + v->first[body];
  if (ns == 1) return r[0];
  double x = s * (ns - 1);
  int k = (int)floor(x);
  if (k >= ns - 1) return r[ns - 1];
  return sensim_quat_slerp(r[k], r[k + 1], x - k);
}

/* World-space unit normal of the hit: Embree gives the instanced mesh's
 * unnormalised geometric normal (front = counter-clockwise winding) in the
 * mesh frame; the body's rotation at the ray's time takes it to the world. */
static void finish_hit(const sensim_rt_view *v, int body, unsigned prim, float time, float ngx, float ngy,
                       float ngz, sensim_rt_hit *h) {
  sensim_vec3 n = v3(ngx, ngy, ngz);
  n = q_rotate(body_rot(v, body, time), v3_scale(n, 1.0 / v3_norm(n)));
  h->n[0] = (float)n.x;
  h->n[1] = (float)n.y;
  h->n[2] = (float)n.z;
  h->body = body;
  h->prim = prim;
}

static void miss(sensim_rt_hit *h) {
  h->t = INFINITY;
  h->n[0] = h->n[1] = h->n[2] = 0.0f;
  h->u = h->v = 0.0f;
  h->body = -1;
  h->prim = 0;
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
  rtcIntersect1(v->scene, ctx, &rh);
  if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) {
    miss(h);
    return;
  }
  h->t = rh.ray.tfar;
  h->u = rh.hit.u;
  h->v = rh.hit.v;
  finish_hit(v, (int)rh.hit.instID[0], rh.hit.primID, rh.ray.time, rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z, h);
}

static void intersect8(const sensim_rt_view *v, struct RTCIntersectContext *ctx, const sensim_rt_ray *r,
                       sensim_rt_hit *h, int n) {
  RTC_ALIGN(32) int valid[8];
  RTC_ALIGN(32) struct RTCRayHit8 rh;
  memset(&rh, 0, sizeof rh);
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
    rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0][i] = RTC_INVALID_GEOMETRY_ID;
  }
  rtcIntersect8(valid, v->scene, ctx, &rh);
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
  }
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
    rtcOccluded1(v->scene, &ctx, &r);
    occ[i] = r.tfar < 0.0f; /* Embree sets tfar = -inf on an occlusion */
  }
}
