/* rt/rt.h: the ray-tracing kernel over Embree 3. One device per world, one
 * BLAS (Embree scene) per mesh, and per capture an immutable view: a
 * top-level scene with one instance per body carrying its motion over the
 * capture window as quaternion-decomposed time steps. Not installed. */
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
/* Build the view of a snapshot (worker thread). Bodies without a mesh are
 * left out. Motion over [t0, t1] is sampled at up to 64 evenly spaced steps
 * (one per keyframe in the window); Embree interpolates between steps,
 * translation linearly and rotation by slerp. */
sensim_status sensim__rt_view_create(const sensim_rt_binding *b, const sensim_snapshot *snap,
                                     sensim_rt_view **out);
void sensim__rt_view_destroy(sensim_rt_view *v);

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
} sensim_rt_hit;

/* Closest hits. `coherent` nonzero: the rays are neighbours (camera tile,
 * lidar column) and are traced in packets of 8. */
void sensim__rt_intersect(const sensim_rt_view *v, const sensim_rt_ray *rays, sensim_rt_hit *hits,
                          size_t n, int coherent);
/* Any-hit occlusion: occluded[i] = 1 if something lies in (tnear, tfar). */
void sensim__rt_occluded(const sensim_rt_view *v, const sensim_rt_ray *rays, unsigned char *occluded,
                         size_t n, int coherent);

#endif
