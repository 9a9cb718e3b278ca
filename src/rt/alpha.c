/* rt/alpha.c: alpha-masked and alpha-blended surfaces (glTF 2.0 alphaMode,
 * sec. 3.9.4) as Embree filter functions on the meshes' geometries, so
 * every query (camera, lidar, radar, shadow rays) sees the same holes.
 *
 * MASK: a hit whose alpha (material alpha x base-colour texture alpha at
 * the hit's uv) is below alpha_cutoff is no hit; the ray goes on. BLEND:
 * alpha is coverage, and a hit is kept with probability alpha (stochastic
 * transparency, Enderton, Sintorn, Shirley & Luebke, "Stochastic
 * transparency", I3D 2010): averaged over a pixel's samples, a camera sees
 * alpha of the surface and 1 - alpha of what lies behind, a lidar's beams
 * pass in proportion 1 - alpha. The draw is a Philox4x32-10 block keyed by
 * the world's seed and counted by the hit itself (triangle, barycentric
 * coordinates and the ray's direction, their bits), so one ray meets one
 * decision, the same for any thread count, banding or packet width, and
 * rays that differ (jittered samples, scan directions) draw independently. */
#include <Random123/philox.h>
#include <string.h>
#include "rt/rt_internal.h"

/* Embree's SoA ray and hit layouts (rtcore_ray.h: RTCRayN_* and RTCHitN_*
 * accessors, C++ only): field k of lane i at [k N + i]. */
enum { RAY_DIR_X = 4, RAY_DIR_Y = 5, RAY_DIR_Z = 6, HIT_U = 3, HIT_V = 4, HIT_PRIM = 5 };

static uint32_t bits(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

/* Whether lane i's hit stays a hit. */
static int keeps(const sensim_mesh *m, const struct RTCFilterFunctionNArguments *a, unsigned i) {
  const unsigned N = a->N;
  const float *ray = (const float *)(const void *)a->ray, *hit = (const float *)(const void *)a->hit;
  const unsigned prim = ((const unsigned *)(const void *)a->hit)[HIT_PRIM * N + i];
  const float u = hit[HIT_U * N + i], v = hit[HIT_V * N + i];
  const sensim_material *mat = sensim__mesh_tri_material(m, prim);
  if (mat->alpha_mode == SENSIM_ALPHA_OPAQUE) return 1;
  const float alpha = sensim__mesh_alpha(m, prim, u, v);
  if (mat->alpha_mode == SENSIM_ALPHA_MASK) return alpha >= mat->alpha_cutoff;
  if (alpha >= 1.0f) return 1;
  if (alpha <= 0.0f) return 0;
  const uint64_t seed = m->world->params.seed;
  const uint32_t dir = bits(ray[RAY_DIR_X * N + i]) ^ (bits(ray[RAY_DIR_Y * N + i]) * 0x9E3779B1u) ^
                       (bits(ray[RAY_DIR_Z * N + i]) * 0x85EBCA77u);
  philox4x32_ctr_t c = {{prim, bits(u), bits(v), dir}};
  philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32) ^ (uint32_t)m->index}};
  const philox4x32_ctr_t r = philox4x32(c, k);
  return ((double)r.v[0] + 0.5) * (1.0 / 4294967296.0) < alpha;
}

static void filter(const struct RTCFilterFunctionNArguments *a) {
  const sensim_mesh *m = a->geometryUserPtr;
  for (unsigned i = 0; i < a->N; i++)
    if (a->valid[i] && !keeps(m, a, i)) a->valid[i] = 0;
}

void sensim__rt_alpha_attach(RTCGeometry g, const sensim_mesh *m) {
  if (!sensim__mesh_has_alpha(m)) return;
  /* The mesh outlives its BLAS: the world frees meshes after its kernel. */
  rtcSetGeometryUserData(g, (void *)m);
  rtcSetGeometryIntersectFilterFunction(g, filter);
  rtcSetGeometryOccludedFilterFunction(g, filter);
}
