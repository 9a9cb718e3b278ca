/* filters/radar_dbscan.c: DBSCAN with per-axis eps (filters/radar_dbscan.h). */
#include "filters/radar_dbscan.h"

#include <limits.h>
#include <math.h>
#include "core/internal.h"

#define UNSEEN (-2)
#define NOISE (-1)

static int fail(sensim_status *status, sensim_status st) {
  if (status) *status = st;
  return -1;
}

/* The neighbours of point i (itself included) into nb; their count. */
static size_t neighbours(const double *pts, size_t n, int dim, const double *inv_eps, size_t i, size_t *nb) {
  const double *a = pts + i * (size_t)dim;
  size_t m = 0;
  for (size_t q = 0; q < n; q++) {
    const double *b = pts + q * (size_t)dim;
    double s = 0.0;
    for (int j = 0; j < dim && s <= 1.0; j++) {
      double t = (a[j] - b[j]) * inv_eps[j];
      s += t * t;
    }
    if (s <= 1.0) nb[m++] = q;
  }
  return m;
}

int sensim__dbscan(const double *pts, size_t n, int dim, const double *eps, int min_pts, int *label,
                   sensim_status *status) {
  if (dim < 1) return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: dim %d must be >= 1", dim));
  if (!eps) return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: eps is NULL"));
  for (int j = 0; j < dim; j++)
    if (!(eps[j] > 0.0 && isfinite(eps[j])))
      return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: eps[%d] = %g must be finite and > 0", j, eps[j]));
  if (min_pts < 1) return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: min_pts %d must be >= 1", min_pts));
  if (n > (size_t)INT_MAX)
    return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: %zu points is more than %d", n, INT_MAX));
  if (n == 0) {
    if (status) *status = SENSIM_OK;
    return 0;
  }
  if (!pts || !label) return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: %s is NULL", pts ? "label" : "pts"));
  for (size_t k = 0; k < n * (size_t)dim; k++)
    if (!isfinite(pts[k]))
      return fail(status, sensim__fail(SENSIM_EINVAL, "dbscan: coordinate %d of point %zu is not finite",
                                       (int)(k % (size_t)dim), k / (size_t)dim));
  /* Working memory: the labels (written to `label` only at the end, so a
   * failure leaves it alone), the neighbour list, the expansion queue and
   * 1/eps. */
  size_t bytes = n * (sizeof(int) + 2 * sizeof(size_t)) + (size_t)dim * sizeof(double);
  char *mem = sensim__frame_buffer(bytes, 0);
  if (!mem) return fail(status, sensim__fail(SENSIM_ENOMEM, "dbscan: out of memory for %zu points", n));
  size_t *nb = (size_t *)mem, *queue = nb + n;
  double *inv_eps = (double *)(queue + n);
  int *lab = (int *)(inv_eps + dim);
  for (int j = 0; j < dim; j++) inv_eps[j] = 1.0 / eps[j];
  for (size_t i = 0; i < n; i++) lab[i] = UNSEEN;

  /* Ester et al.'s ExpandCluster, with a queue in which each point is put
   * at most once: a point is labelled the moment it is reached, so a
   * border point keeps the first (lowest-numbered) cluster that reaches it,
   * and a point first found to be noise becomes a border point when a
   * later cluster reaches it. */
  int k = 0;
  for (size_t i = 0; i < n; i++) {
    if (lab[i] != UNSEEN) continue;
    size_t m = neighbours(pts, n, dim, inv_eps, i, nb);
    if (m < (size_t)min_pts) {
      lab[i] = NOISE;
      continue;
    }
    size_t head = 0, tail = 0;
    lab[i] = k;
    queue[tail++] = i;
    while (head < tail) {
      size_t q = queue[head++];
      if (q != i) m = neighbours(pts, n, dim, inv_eps, q, nb);
      if (q != i && m < (size_t)min_pts) continue; /* a border point: not expanded */
      for (size_t t = 0; t < m; t++) {
        size_t o = nb[t];
        if (lab[o] == UNSEEN) {
          lab[o] = k;
          queue[tail++] = o;
        } else if (lab[o] == NOISE) {
          lab[o] = k;
        }
      }
    }
    k++;
  }
  for (size_t i = 0; i < n; i++) label[i] = lab[i];
  sensim__frame_buffer_free(mem);
  if (status) *status = SENSIM_OK;
  return k;
}
