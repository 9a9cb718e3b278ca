/* bench/lidar_check.h: does sensim's lidar trace the scene bare Embree
 * traces? The lidar's return model applied to bare Embree's hits, and the
 * comparisons bench_lidar prints. Not part of the library. */
#ifndef SENSIM_BENCH_LIDAR_CHECK_H
#define SENSIM_BENCH_LIDAR_CHECK_H

#include <stddef.h>

#include "bare_embree.h"
#include "bench_util.h"

/* Per ray of r, cast singly: t[i] the hit distance (INFINITY on a miss)
 * and rc[i] = rho |cos theta| of the surface hit (the mesh's lidar
 * reflectance, the world normal from the instance's rotation). */
void lidar_check_truth(const bare *b, const bench_town *town, const rayset *r, float *t, float *rc);

/* One sub-ray per beam: frame f's beam i against ray i of r with truth
 * (t, rc). Writes five cells: returns (sensim vs expected), same
 * direction, same detection, same range, same quantised intensity. */
void lidar_check_beams(const sensim_frame *f, const sensim_lidar_params *lp, const rayset *r, const float *t,
                       const float *rc, char out[5][BENCH_CELL]);

/* Several sub-rays: every return of f must lie within the range span of
 * its beam's sub-ray hits in r->t (r in column, channel, sub-ray order).
 * Writes cells 0 (returns, beams with a hit) and 3 (share within span). */
void lidar_check_span(const sensim_frame *f, const sensim_lidar_params *lp, const rayset *r,
                      char out[5][BENCH_CELL]);

/* Beams of f (a beams frame) with a return; 0 for other payloads. */
size_t lidar_check_returns(const sensim_frame *f);

#endif
