/* rt/instances.c: a body's placements of one mesh (scene/instances.c) as
 * one Embree user geometry whose primitives are the placements.
 *
 * Embree 3 has no instance arrays (Embree 4's RTC_GEOMETRY_TYPE_INSTANCE_
 * ARRAY): an instance geometry per placement costs about 1 kB in Embree
 * alone. Here the placements' BVH is built once over their bounds (the
 * mesh's box carried by each transform) in a scene of its own, and its
 * callbacks carry the ray into the placement's frame and trace the shared
 * mesh's BVH with rtcIntersect1 / rtcOccluded1, which Embree 3 allows
 * inside a user geometry's callbacks (its "user_geometry" tutorial
 * instances scenes this way). The hit comes back as a body instance's
 * does: instID the holding body (the group's scene is instanced with the
 * identity in the view's static part), primID the mesh's triangle, Ng in
 * the world (the body's rotation is the identity), and geomID the
 * placement, which a body instance leaves at 0 (its mesh is geometry 0 of
 * its BLAS): sensim_rt_hit.elem, sensim_rt_packet8/16.geom. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "rt/rt_internal.h"

struct sensim_rt_group {
  RTCScene scene;                  /* the placements' BVH (user geometry 0) */
  RTCScene mesh;                   /* the mesh's BLAS, borrowed from the kernel */
  const sensim_instance_group *g;  /* the world's: lives as long as the world */
  float lo[3], hi[3];              /* the mesh's bounding box, mesh frame, m */
  float centre[3], radius;         /* a sphere holding that box (its centre, half its diagonal,
                                      widened for float rounding), mesh frame, m */
};

/* Embree's SoA layouts (rtcore_ray.h's RTCRayN_* and RTCHitN_* accessors,
 * C++ only): field k of lane i at [k N + i]; the hit follows the ray's 12
 * fields. */
enum {
  R_OX = 0, R_OY, R_OZ, R_TNEAR, R_DX, R_DY, R_DZ, R_TIME, R_TFAR, R_MASK, R_ID, R_FLAGS,
  H_NX = 12, H_NY, H_NZ, H_U, H_V, H_PRIM, H_GEOM, H_INST
};

/* Placement k's box in the world: its transform of the mesh's box's eight
 * corners, widened by float rounding of the transform (a few ulps of the
 * coordinates), so a hit the mesh's BVH finds is never outside it. */
static void bounds(const struct RTCBoundsFunctionArguments *a) {
  const struct sensim_rt_group *gr = a->geometryUserPtr;
  const float *x = gr->g->xf[a->primID];
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int c = 0; c < 8; c++) {
    const float p[3] = {c & 1 ? gr->hi[0] : gr->lo[0], c & 2 ? gr->hi[1] : gr->lo[1], c & 4 ? gr->hi[2] : gr->lo[2]};
    for (int r = 0; r < 3; r++) {
      const float w = x[3 * r] * p[0] + x[3 * r + 1] * p[1] + x[3 * r + 2] * p[2] + x[9 + r];
      lo[r] = fminf(lo[r], w), hi[r] = fmaxf(hi[r], w);
    }
  }
  for (int r = 0; r < 3; r++) {
    const float pad = 1e-5f * (hi[r] - lo[r]) + 1e-6f * fmaxf(fabsf(lo[r]), fabsf(hi[r])) + 1e-6f;
    lo[r] -= pad, hi[r] += pad;
  }
  struct RTCBounds *b = a->bounds_o;
  b->lower_x = lo[0], b->lower_y = lo[1], b->lower_z = lo[2];
  b->upper_x = hi[0], b->upper_y = hi[1], b->upper_z = hi[2];
}

/* Lane i of an SoA ray carried into placement x's frame: origin R^T (o - t),
 * direction R^T d (a rotation keeps the ray parameter, so tnear, tfar and
 * the hit distance are the world's). */
static void to_local(const float *ray, unsigned N, unsigned i, const float *x, struct RTCRay *r) {
  const float o[3] = {ray[R_OX * N + i] - x[9], ray[R_OY * N + i] - x[10], ray[R_OZ * N + i] - x[11]};
  const float d[3] = {ray[R_DX * N + i], ray[R_DY * N + i], ray[R_DZ * N + i]};
  r->org_x = x[0] * o[0] + x[3] * o[1] + x[6] * o[2];
  r->org_y = x[1] * o[0] + x[4] * o[1] + x[7] * o[2];
  r->org_z = x[2] * o[0] + x[5] * o[1] + x[8] * o[2];
  r->dir_x = x[0] * d[0] + x[3] * d[1] + x[6] * d[2];
  r->dir_y = x[1] * d[0] + x[4] * d[1] + x[7] * d[2];
  r->dir_z = x[2] * d[0] + x[5] * d[1] + x[8] * d[2];
  r->tnear = ray[R_TNEAR * N + i];
  r->time = ray[R_TIME * N + i];
  r->tfar = ray[R_TFAR * N + i];
  const unsigned *u = (const unsigned *)(const void *)ray;
  r->mask = u[R_MASK * N + i];
  r->id = u[R_ID * N + i];
  r->flags = u[R_FLAGS * N + i];
}

/* Whether ray r (placement frame) meets the mesh's box within [tnear,
 * tfar] (slab test; Kay and Kajiya 1986). Embree calls a user geometry for
 * every primitive of a leaf the ray enters, not only those whose own box
 * it meets; this spares the mesh traversal for the others. */
static int meets_box(const struct sensim_rt_group *gr, const struct RTCRay *r) {
  const float o[3] = {r->org_x, r->org_y, r->org_z}, d[3] = {r->dir_x, r->dir_y, r->dir_z};
  float t0 = r->tnear, t1 = r->tfar;
  for (int k = 0; k < 3; k++) {
    const float inv = 1.0f / d[k]; /* +-inf for an axis-parallel ray: the slab is all or nothing */
    float a = (gr->lo[k] - o[k]) * inv, b = (gr->hi[k] - o[k]) * inv;
    if (a > b) {
      const float t = a;
      a = b, b = t;
    }
    t0 = a > t0 ? a : t0; /* NaN (0 x inf, a ray in the slab's plane) keeps the bound */
    t1 = b < t1 ? b : t1;
  }
  return t0 <= t1 * 1.000001f;
}

/* The bounding sphere's centre carried by placement x into the world. */
static void sphere_at(const struct sensim_rt_group *gr, const float *x, float cw[3]) {
  for (int r = 0; r < 3; r++)
    cw[r] = x[3 * r] * gr->centre[0] + x[3 * r + 1] * gr->centre[1] + x[3 * r + 2] * gr->centre[2] + x[9 + r];
}

/* Whether lane i's world ray passes through the placement's bounding
 * sphere (centre cw) within [tnear, tfar]: a dozen flops in the world
 * frame that spare the transform and the box test for most of the lanes
 * Embree hands a callback (it calls it for every placement of a leaf the
 * packet enters; profiling found the box test at 12 % of a scan). Only
 * for the memory-built BVH, whose loose leaves it serves (an OS1-128 scan
 * among 100 000 trees: 1.27x -> 1.20x the bodies'); the SAH tree of
 * fast_bvh hands over few lanes that miss, and the test cost it 1.08x ->
 * 1.16x (bench_instances, alternated builds).
 * Ray-sphere: |o + t d - c|^2 = r^2, t = (-b -+ sqrt(b^2 - |d|^2 k)) / |d|^2
 * with b = (o - c) . d, k = |o - c|^2 - r^2. */
static int meets_sphere(const struct sensim_rt_group *gr, const float cw[3], const float *f, unsigned N, unsigned i) {
  const float oc[3] = {f[R_OX * N + i] - cw[0], f[R_OY * N + i] - cw[1], f[R_OZ * N + i] - cw[2]};
  const float d[3] = {f[R_DX * N + i], f[R_DY * N + i], f[R_DZ * N + i]};
  const float dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], b = oc[0] * d[0] + oc[1] * d[1] + oc[2] * d[2];
  const float k = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - gr->radius * gr->radius;
  const float disc = b * b - dd * k;
  if (!(disc >= 0.0f)) return 0;
  const float root = sqrtf(disc);
  return (-b - root) <= f[R_TFAR * N + i] * dd && (-b + root) >= f[R_TNEAR * N + i] * dd;
}

/* Lane i of the packet's hit, from the mesh's hit in placement x's frame
 * (g: its normal there): the world's normal, the triangle, the placement
 * as geomID, the holding body as instID. */
static void report(float *f, unsigned N, unsigned i, const float *x, float tfar, const float g[3], float u, float v,
                   unsigned prim, unsigned elem, unsigned body) {
  unsigned *w = (unsigned *)(void *)f;
  f[R_TFAR * N + i] = tfar;
  f[H_NX * N + i] = x[0] * g[0] + x[1] * g[1] + x[2] * g[2];
  f[H_NY * N + i] = x[3] * g[0] + x[4] * g[1] + x[5] * g[2];
  f[H_NZ * N + i] = x[6] * g[0] + x[7] * g[1] + x[8] * g[2];
  f[H_U * N + i] = u;
  f[H_V * N + i] = v;
  w[H_PRIM * N + i] = prim;
  w[H_GEOM * N + i] = elem;
  w[H_INST * N + i] = body;
}

/* A packet of 4, 8 or 16 rays (the camera's tiles, the lidar's columns)
 * goes on into the mesh as a packet of the same width: Embree's packet
 * traversal of the mesh then serves it as it serves a body's instance,
 * where one rtcIntersect1 per lane cost a lidar scan 1.4x. */
static void intersect_packet(const struct RTCIntersectFunctionNArguments *a, const struct sensim_rt_group *gr,
                             const float *x) {
  const unsigned N = a->N;
  float *f = (float *)(void *)a->rayhit;
  RTC_ALIGN(64) struct RTCRayHit16 p; /* read with stride N: an RTCRayHit4/8 for N = 4/8 */
  RTC_ALIGN(64) int valid[16];
  float *q = (float *)(void *)&p;
  unsigned *qu = (unsigned *)(void *)&p;
  float cw[3];
  sphere_at(gr, x, cw);
  int any = 0, first = -1;
  for (unsigned i = 0; i < N; i++) {
    valid[i] = a->valid[i] && (gr->g->fast_bvh || meets_sphere(gr, cw, f, N, i));
    if (valid[i] && first < 0) first = (int)i;
  }
  if (first < 0) return;
  for (unsigned i = 0; i < N; i++) {
    struct RTCRay r;
    const int live = valid[i];
    valid[i] = 0;
    to_local(f, N, live ? i : (unsigned)first, x, &r); /* masked lanes copy a live one: garbage slows Embree */
    qu[H_GEOM * N + i] = RTC_INVALID_GEOMETRY_ID;
    qu[H_INST * N + i] = RTC_INVALID_GEOMETRY_ID;
    q[R_OX * N + i] = r.org_x, q[R_OY * N + i] = r.org_y, q[R_OZ * N + i] = r.org_z;
    q[R_DX * N + i] = r.dir_x, q[R_DY * N + i] = r.dir_y, q[R_DZ * N + i] = r.dir_z;
    q[R_TNEAR * N + i] = r.tnear, q[R_TIME * N + i] = r.time, q[R_TFAR * N + i] = r.tfar;
    qu[R_MASK * N + i] = r.mask, qu[R_ID * N + i] = r.id, qu[R_FLAGS * N + i] = r.flags;
    if (live && meets_box(gr, &r)) valid[i] = -1, any = 1;
  }
  if (!any) return;
  if (N == 4) rtcIntersect4(valid, gr->mesh, a->context, (struct RTCRayHit4 *)(void *)&p);
  else if (N == 8) rtcIntersect8(valid, gr->mesh, a->context, (struct RTCRayHit8 *)(void *)&p);
  else rtcIntersect16(valid, gr->mesh, a->context, &p);
  for (unsigned i = 0; i < N; i++) {
    if (!valid[i] || qu[H_GEOM * N + i] == RTC_INVALID_GEOMETRY_ID) continue;
    const float g[3] = {q[H_NX * N + i], q[H_NY * N + i], q[H_NZ * N + i]};
    report(f, N, i, x, q[R_TFAR * N + i], g, q[H_U * N + i], q[H_V * N + i], qu[H_PRIM * N + i], a->primID,
           a->context->instID[0]);
  }
}

static void intersect(const struct RTCIntersectFunctionNArguments *a) {
  const struct sensim_rt_group *gr = a->geometryUserPtr;
  const float *x = gr->g->xf[a->primID];
  const unsigned N = a->N;
  if (N == 4 || N == 8 || N == 16) {
    intersect_packet(a, gr, x);
    return;
  }
  float *f = (float *)(void *)a->rayhit;
  float cw[3];
  sphere_at(gr, x, cw);
  for (unsigned i = 0; i < N; i++) {
    if (!a->valid[i] || !(gr->g->fast_bvh || meets_sphere(gr, cw, f, N, i))) continue;
    struct RTCRayHit rh;
    to_local(f, N, i, x, &rh.ray);
    if (!meets_box(gr, &rh.ray)) continue;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(gr->mesh, a->context, &rh);
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) continue; /* nothing nearer than tfar */
    const float g[3] = {rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z};
    report(f, N, i, x, rh.ray.tfar, g, rh.hit.u, rh.hit.v, rh.hit.primID, a->primID, a->context->instID[0]);
  }
}

static void occluded(const struct RTCOccludedFunctionNArguments *a) {
  const struct sensim_rt_group *gr = a->geometryUserPtr;
  const float *x = gr->g->xf[a->primID];
  const unsigned N = a->N;
  float *f = (float *)(void *)a->ray;
  float cw[3];
  sphere_at(gr, x, cw);
  for (unsigned i = 0; i < N; i++) {
    if (!a->valid[i] || !(gr->g->fast_bvh || meets_sphere(gr, cw, f, N, i))) continue;
    struct RTCRay r;
    to_local(f, N, i, x, &r);
    if (!meets_box(gr, &r)) continue;
    rtcOccluded1(gr->mesh, a->context, &r);
    if (r.tfar < 0.0f) f[R_TFAR * N + i] = -INFINITY; /* Embree's mark of an occlusion */
  }
}

sensim_status sensim__rt_group_build(RTCDevice dev, RTCScene mesh_blas, const sensim_mesh *m,
                                     const sensim_instance_group *g, struct sensim_rt_group **out) {
  struct sensim_rt_group *gr = calloc(1, sizeof *gr);
  if (!gr) return sensim__fail(SENSIM_ENOMEM, "out of memory for a group of %zu placements", g->n);
  gr->mesh = mesh_blas;
  gr->g = g;
  for (int r = 0; r < 3; r++) gr->lo[r] = INFINITY, gr->hi[r] = -INFINITY;
  for (size_t v = 0; v < m->nvert; v++)
    for (int r = 0; r < 3; r++) {
      gr->lo[r] = fminf(gr->lo[r], m->vertices[3 * v + r]);
      gr->hi[r] = fmaxf(gr->hi[r], m->vertices[3 * v + r]);
    }
  float h2 = 0.0f;
  for (int r = 0; r < 3; r++) {
    gr->centre[r] = 0.5f * (gr->lo[r] + gr->hi[r]);
    h2 += 0.25f * (gr->hi[r] - gr->lo[r]) * (gr->hi[r] - gr->lo[r]);
  }
  /* Widened as the bounds are: the hits the mesh's BVH finds lie inside. */
  gr->radius = sqrtf(h2) * (1.0f + 1e-5f) + 1e-5f * (fabsf(gr->centre[0]) + fabsf(gr->centre[1]) + fabsf(gr->centre[2])) + 1e-6f;
  gr->scene = rtcNewScene(dev);
  RTCGeometry geo = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_USER);
  if (!gr->scene || !geo) {
    if (geo) rtcReleaseGeometry(geo);
    sensim__rt_group_free(gr);
    return sensim__fail(SENSIM_EBACKEND, "Embree: could not create a group of %zu placements", g->n);
  }
  rtcSetGeometryUserPrimitiveCount(geo, (unsigned)g->n);
  rtcSetGeometryUserData(geo, gr);
  rtcSetGeometryBoundsFunction(geo, bounds, NULL);
  rtcSetGeometryIntersectFunction(geo, intersect);
  rtcSetGeometryOccludedFunction(geo, occluded);
  rtcCommitGeometry(geo);
  rtcAttachGeometryByID(gr->scene, geo, 0);
  rtcReleaseGeometry(geo);
  /* Embree's LOW (Morton) builder keeps about 30 bytes per placement,
   * its HIGH (binned SAH) one about 116; HIGH's tree costs a lidar scan
   * among 100 000 trees 1.04x what bodies cost, LOW's 1.2-1.3x
   * (bench/bench_scale.c, docs/performance.md). */
  rtcSetSceneBuildQuality(gr->scene, g->fast_bvh ? RTC_BUILD_QUALITY_HIGH : RTC_BUILD_QUALITY_LOW);
  rtcCommitScene(gr->scene);
  if (rtcGetDeviceError(dev) != RTC_ERROR_NONE) {
    sensim__rt_group_free(gr);
    return sensim__fail(SENSIM_EBACKEND, "Embree: building the BVH of %zu placements failed", g->n);
  }
  *out = gr;
  return SENSIM_OK;
}

RTCScene sensim__rt_group_scene(const struct sensim_rt_group *gr) { return gr->scene; }

void sensim__rt_group_free(struct sensim_rt_group *gr) {
  if (!gr) return;
  if (gr->scene) rtcReleaseScene(gr->scene);
  free(gr);
}
