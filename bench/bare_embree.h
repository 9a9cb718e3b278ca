/* bench/bare_embree.h: the benchmark's reference side: the town built
 * directly in Embree (one RTCScene per mesh, instanced into a top-level
 * scene) and the rays sensim's lidar and camera cast, cast by bare Embree
 * on the calling thread, singly or in packets of 8 or 16. Not part of the
 * library. */
#ifndef SENSIM_BENCH_BARE_EMBREE_H
#define SENSIM_BENCH_BARE_EMBREE_H

#include <embree3/rtcore.h>
#include <stddef.h>
#include <stdint.h>

#include "sensim/sensim.h"
#include "town.h"

typedef struct bare {
  RTCDevice dev;
  RTCScene top;
  RTCScene *blas;
  size_t nblas;
  float (*rot)[9]; /* per instance: row-major rotation, to bring Ng to the world */
  int error;       /* set by Embree's error callback */
} bare;

/* Device with "threads=1", one BVH (build quality HIGH, as src/rt/device.c
 * asks) per town mesh, and the top-level scene. 0 on success; on failure
 * bare_free releases what was built. */
int bare_build(const bench_town *t, bare *b);
/* A new top-level scene of every town instance (what sensim builds for
 * every capture). 0 on success. */
int bare_build_top(bare *b, const bench_town *t, RTCScene *out);
void bare_free(bare *b);

/* Rays from one origin, ordered so that every run of 8 or 16 is a coherent
 * packet (a lidar column's neighbouring channels; a camera tile). */
typedef struct rayset {
  size_t n;
  float org[3];
  float *dir;     /* 3n, unit, world frame */
  uint32_t *slot; /* lidar: channel + channels * column; camera: pixel */
  float tfar;
  float *t;       /* per ray: hit distance of the last cast, INFINITY if none */
  uint32_t *inst; /* per ray: instance hit by the last 1-ray cast, or ~0 */
} rayset;
void rayset_free(rayset *r);

/* The rays sensim_lidar casts from `pose` for a sensor whose collection
 * window is `window` s (the default: 1 / rate): per column, channel and
 * footprint sub-ray, with the channel tables (elevations, azimuth offsets,
 * firing delays), the spinning direction and the footprint of lp, by the
 * conventions of src/sensors/lidar.c and lidar_beam.c. Order: column,
 * channel, sub-ray; slot = channel + channels * column. */
int bare_lidar_rays_window(const sensim_lidar_params *lp, double window, sensim_pose pose, rayset *r);
/* The same for a 10 Hz sensor with the default window (0.1 s). */
int bare_lidar_rays(const sensim_lidar_params *lp, sensim_pose pose, rayset *r);
/* The pinhole rays of a camera (camera.h, OpenCV pixel convention) through
 * each pixel's centre, or each stratum's centre for n x n samples. -1 for
 * lens models other than the pinhole. */
int bare_camera_rays(const sensim_camera_params *cp, sensim_pose pose, rayset *r);

typedef struct cast_stats {
  size_t hits;
  size_t shadow_rays;
} cast_stats;

/* Cast every ray of r with rtcIntersect1 (N = 1) or in packets of N = 8 or
 * 16 (coherent flag); with L (unit direction towards the light) non-NULL,
 * one shadow ray per hit whose surface faces the light, in packets of N
 * (single_shadow = 0) or one by one with rtcOccluded1 (single_shadow = 1,
 * as sensim does). Records r->t; the 1-ray cast also r->inst. */
cast_stats bare_cast(const bare *b, rayset *r, const float *L, int N, int single_shadow);

#endif
