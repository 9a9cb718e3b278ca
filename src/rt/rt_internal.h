/* rt/rt_internal.h: Embree handles behind the rt module's opaque types. */
#ifndef SENSIM_RT_RT_INTERNAL_H
#define SENSIM_RT_RT_INTERNAL_H

#include <embree3/rtcore.h>
#include "rt/rt.h"

typedef struct sensim_rt {
  RTCDevice device;
  RTCScene *blas;     /* indexed by mesh index */
  size_t nblas, cap;
} sensim_rt;

struct sensim_rt_binding {
  RTCDevice device;
  RTCScene *blas;     /* per snapshot body; NULL for bodies without a mesh */
  size_t nbodies;
};

#define SENSIM_RT_MAX_STEPS 64

struct sensim_rt_view {
  RTCScene scene;
  double t0, t1;                /* window mapped to ray time [0, 1] */
  const sensim_snapshot *snap;  /* borrowed: the capture owns it */
  /* The rotation of each body at each of its time steps, so hit normals
   * can be turned into the world exactly as Embree moved the instance. */
  int *nsteps;                  /* per snapshot body; 0 for bodies without mesh */
  size_t *first;                /* per body: index of its first step in rot */
  sensim_quat *rot;
};

#endif
