/* rt/rt.h: the ray-tracing kernel over Embree 3. One device per world, one
 * BLAS (Embree scene) per mesh, and per capture an immutable view: two
 * top-level scenes, one of the static bodies' instances (built once) and
 * one of the other bodies' instances carrying their motion over the
 * capture window as time steps (matrices for a body that only translates,
 * quaternion decompositions for one that turns), traced one after the
 * other. Not installed. */
#ifndef SENSIM_RT_RT_H
#define SENSIM_RT_RT_H

#include <stddef.h>
#include "scene/scene.h"

/* Make sure the world has a device and every mesh has its BLAS. Host thread
 * only (called from a sensor kind's prepare hook). */
sensim_status sensim__rt_sync(sensim_world *w);

/* What a capture job needs from the world's mutable rt state, taken on the
 * host thread: the BLAS of each snapshot body (retained). */
typedef struct sensim_rt_binding sensim_rt_binding;
sensim_status sensim__rt_bind(sensim_world *w, const sensim_snapshot *snap, sensim_rt_binding **out);
void sensim__rt_binding_free(void *binding);

typedef struct sensim_rt_view sensim_rt_view;
/* Build the view of a snapshot (worker thread), or reuse the world's last
 * top-level scene if its instances are the same. Bodies without a mesh are
 * left out. Motion over [t0, t1] is sampled at up to 64 evenly spaced steps
 * (one per keyframe in the window); Embree interpolates between steps,
 * translation linearly and rotation by slerp. */
sensim_status sensim__rt_view_create(const sensim_rt_binding *b, const sensim_snapshot *snap,
                                     sensim_rt_view **out);
void sensim__rt_view_destroy(sensim_rt_view *v);
/* Top-level scenes built so far by w's views: a view whose instances
 * (BLAS, step count, every step's pose, bit for bit) equal those of the
 * last scene built traces that scene instead of building its own. For
 * tests of the cache. */
unsigned long sensim__rt_scene_builds(const sensim_world *w);

/* For benchmarks that measure before and after in one run: SENSIM_RT_REBUILD
 * builds every moving part anew instead of updating the last one in
 * place, SENSIM_RT_WHOLE_WORLD keeps moving bodies beyond a capture's
 * reach in its view, SENSIM_RT_NO_READ_AHEAD reads each tile when it is
 * needed, not ahead on a thread. Frames are the same either way. Host
 * thread, before the world's first capture or between advances. */
enum { SENSIM_RT_REBUILD = 1, SENSIM_RT_WHOLE_WORLD = 2, SENSIM_RT_NO_READ_AHEAD = 4 };
sensim_status sensim__rt_set_tuning(sensim_world *w, unsigned flags);

typedef struct sensim_rt_ray {
  float org[3];   /* world, m */
  float dir[3];   /* world, need not be unit; t is in units of |dir| */
  float tnear, tfar;
  double time;    /* absolute time, s; clamped into the view's window */
} sensim_rt_ray;

typedef struct sensim_rt_hit {
  float t;        /* ray parameter of the hit; INFINITY on a miss */
  float n[3];     /* unit geometric normal in the world, facing the triangle's front */
  float u, v;     /* barycentric coordinates in the triangle */
  int body;       /* snapshot body index; -1 on a miss */
  unsigned prim;  /* triangle index in the body's mesh */
  unsigned elem;  /* the placement hit, of a body holding placements (sensim_body_snap.group);
                     0 for any other body */
} sensim_rt_hit;

/* Closest hits. `coherent` nonzero: the rays are neighbours (camera tile,
 * lidar column) and are traced in packets of 8. */
void sensim__rt_intersect(const sensim_rt_view *v, const sensim_rt_ray *rays, sensim_rt_hit *hits,
                          size_t n, int coherent);
/* Up to 8 rays and their hits in structure-of-arrays form, laid out as
 * Embree's RTCRayHit8 (asserted in rt/trace.c), for callers that make rays
 * a packet at a time (the lidar): they write the ray fields and read the
 * hit fields with no per-ray copy. */
typedef struct sensim_rt_packet8 {
  _Alignas(32) float org_x[8]; /* in: world, m */
  float org_y[8], org_z[8];
  float tnear[8];              /* in */
  float dir_x[8], dir_y[8], dir_z[8]; /* in: world, need not be unit */
  float time[8];               /* in: the view's ray time, sensim__rt_ray_time */
  float tfar[8];               /* in: ray extent; out: hit distance where hit */
  unsigned mask[8], id[8], flags[8]; /* set by sensim__rt_intersect8 */
  float ng_x[8], ng_y[8], ng_z[8];   /* out: unnormalised normal in the mesh frame (sensim__rt_packet_normal) */
  float u[8], v[8];                  /* out: barycentric coordinates */
  unsigned prim[8];                  /* out: triangle index in the body's mesh */
  unsigned geom[8];                  /* out: ~0u on a miss, else the placement hit (as sensim_rt_hit.elem) */
  unsigned body[8];                  /* out: snapshot body index, ~0u on a miss */
} sensim_rt_packet8;

/* Sixteen rays and their hits, laid out as Embree's RTCRayHit16 (asserted in
 * rt/trace.c), for the camera, which traces 4 x 4 pixel tiles: it writes
 * the ray fields and reads the hits in place. */
typedef struct sensim_rt_packet16 {
  _Alignas(64) float org_x[16]; /* in: world, m */
  float org_y[16], org_z[16];
  float tnear[16];              /* in */
  float dir_x[16], dir_y[16], dir_z[16]; /* in: world, need not be unit */
  float time[16];               /* in: the view's ray time, sensim__rt_ray_time */
  float tfar[16];               /* in: ray extent; out: hit distance where hit */
  unsigned mask[16], id[16], flags[16]; /* set by sensim__rt_intersect16 */
  float ng_x[16], ng_y[16], ng_z[16];   /* out: unnormalised normal in the mesh frame */
  float u[16], v[16];                   /* out: barycentric coordinates */
  unsigned prim[16];                    /* out: triangle index in the body's mesh */
  unsigned geom[16];                    /* out: ~0u on a miss, else the placement hit (sensim_rt_hit.elem) */
  unsigned body[16];                    /* out: snapshot body index, ~0u on a miss */
} sensim_rt_packet16;

/* Sixteen occlusion rays, laid out as Embree's RTCRay16. */
typedef struct sensim_rt_shadow16 {
  _Alignas(64) float org_x[16]; /* in: world, m */
  float org_y[16], org_z[16];
  float tnear[16];
  float dir_x[16], dir_y[16], dir_z[16];
  float time[16];
  float tfar[16];               /* in: extent; out: -inf where occluded */
  unsigned mask[16], id[16], flags[16];
} sensim_rt_shadow16;

/* Closest hits of the lanes whose bit is set in `lanes` (bit i: lane i).
 * `coherent`: neighbouring rays (a camera tile), else scattered
 * (reflections). */
void sensim__rt_intersect16(const sensim_rt_view *v, sensim_rt_packet16 *pk, unsigned lanes, int coherent);
/* World-space unit normals (as sensim_rt_hit.n) of the hits among `lanes`;
 * other lanes get arbitrary values. */
void sensim__rt_packet16_normals(const sensim_rt_view *v, const sensim_rt_packet16 *pk, unsigned lanes,
                                 float nx[16], float ny[16], float nz[16]);
/* Occlusion of the lanes in `lanes`; returns the lanes that are occluded. */
unsigned sensim__rt_occluded16(const sensim_rt_view *v, sensim_rt_shadow16 *pk, unsigned lanes);

/* Rotation of snapshot body `body` (mesh frame to world, row-major) at ray
 * time `time`, as the hit normals are rotated: what turns a mesh's vertex
 * normals and tangents into the world. `elem`: the placement hit (a hit's
 * elem or geom), for a body holding placements. */
void sensim__rt_body_matrix(const sensim_rt_view *v, int body, unsigned elem, float time, float m[9]);

/* Absolute time t (s) as the view's ray time: [t0, t1] mapped to [0, 1],
 * clamped (what sensim_rt_ray.time becomes). */
float sensim__rt_ray_time(const sensim_rt_view *v, double t);
/* Closest hits of lanes 0 .. n-1 (n <= 8) of a coherent packet: the same
 * query as sensim__rt_intersect(..., coherent = 1) on those rays. */
void sensim__rt_intersect8(const sensim_rt_view *v, sensim_rt_packet8 *pk, int n);
/* World-space unit normals of the hits among lanes 0 .. n-1, as
 * sensim_rt_hit.n (the other lanes get arbitrary values). */
void sensim__rt_packet_normals(const sensim_rt_view *v, const sensim_rt_packet8 *pk, int n, float nx[8],
                               float ny[8], float nz[8]);
/* Nonzero if no instance of the view moves over its window: ray times then
 * change nothing and need not be computed. */
int sensim__rt_view_is_static(const sensim_rt_view *v);
/* sensim__rt_ray_time of n times. */
void sensim__rt_ray_times(const sensim_rt_view *v, const double *t, float *out, size_t n);

/* Any-hit occlusion: occluded[i] = 1 if something lies in (tnear, tfar). */
void sensim__rt_occluded(const sensim_rt_view *v, const sensim_rt_ray *rays, unsigned char *occluded,
                         size_t n, int coherent);

#endif
