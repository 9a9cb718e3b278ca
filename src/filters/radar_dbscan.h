/* filters/radar_dbscan.h: density-based clustering of radar detections
 * (DBSCAN). A pure function; the radar's processing filters call it.
 * docs/radar.md, "CFAR and DBSCAN". Not installed. */
#ifndef SENSIM_FILTERS_RADAR_DBSCAN_H
#define SENSIM_FILTERS_RADAR_DBSCAN_H

#include <stddef.h>
#include "sensim/status.h"

/* DBSCAN (Ester, Kriegel, Sander, Xu, "A density-based algorithm for
 * discovering clusters in large spatial databases with noise", KDD 1996) on
 * n points of `dim` coordinates (row-major pts[i * dim + j]). Two points are
 * neighbours when sum_j ((a_j - b_j) / eps[j])^2 <= 1 (a per-axis scaled
 * eps: range, Doppler and angle in their own units). A point is a core
 * point when it has at least min_pts neighbours, itself counted. Clusters
 * are the sets of core points linked by neighbourhood, plus every border
 * point (not core, neighbour of a core point). label[i] = cluster 0..K-1,
 * or -1 for noise.
 *
 * Deterministic: clusters are numbered in the order of their first core
 * point by index, and a border point that neighbours core points of
 * several clusters joins the lowest-numbered of them.
 *
 * Returns K, or -1 with *status (if not NULL) set and label untouched:
 * SENSIM_EINVAL (dim < 1, an eps <= 0 or not finite, min_pts < 1, a
 * non-finite coordinate, n > INT_MAX, a NULL array with n > 0) or
 * SENSIM_ENOMEM; *status = SENSIM_OK on success. n = 0 gives 0.
 *
 * Cost: every point's neighbours by a linear scan, O(n^2 dim) time and
 * O(n) memory: fine for the few thousand detections of a radar frame (2000
 * points in 3-D: about 4 million distance tests), not for lidar clouds. */
int sensim__dbscan(const double *pts, size_t n, int dim, const double *eps, int min_pts, int *label,
                   sensim_status *status);

#endif
