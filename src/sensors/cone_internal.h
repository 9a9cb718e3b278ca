/* sensors/cone_internal.h: what the cone sensor's files share. Not
 * installed. Geometry is in the cone frame (cone.h: x = sensor Y,
 * y = sensor Z, z = sensor X). */
#ifndef SENSIM_SENSORS_CONE_INTERNAL_H
#define SENSIM_SENSORS_CONE_INTERNAL_H

#include "rt/rt.h"
#include "sensim/cone.h"
#include "runtime/kind.h"

typedef struct sensim__cone {
  sensim_cone_params p; /* validated copy */
  sensim_cone_shape k;
} sensim__cone;

/* The nearest point found so far. */
typedef struct sensim__cone_hit {
  double dist; /* m from the apex; INFINITY: nothing */
  double p[3]; /* cone frame, m */
  int body;    /* snapshot body index, -1: nothing */
  unsigned elem; /* the placement hit of a body holding placements (rays method), else 0 */
} sensim__cone_hit;

/* A body's mesh frame placed in the cone frame: p_cone = R v + t. */
typedef struct sensim__cone_xf {
  double R[3][3];
  double t[3];
} sensim__cone_xf;

static inline void sensim__cone_xf_apply(const sensim__cone_xf *x, const float *v, double out[3]) {
  for (int i = 0; i < 3; i++) out[i] = x->R[i][0] * v[0] + x->R[i][1] * v[1] + x->R[i][2] * v[2] + x->t[i];
}

/* 1 if the polygon v[0..n) lies wholly outside one face of the box-shaped
 * pyramid |x| <= tan_h z, |y| <= tan_v z, 0 <= z <= r that holds the cone:
 * then it cannot touch the cone. */
int sensim__cone_cull(const sensim_cone_shape *k, const double (*v)[3], int n);

/* Exact nearest point of a triangle in the cone, skipping the work when the
 * triangle cannot come closer than `bound` (m); INFINITY then. */
double sensim__cone_triangle_nearest_below(const sensim_cone_shape *k, const double v0[3],
                                           const double v1[3], const double v2[3], double bound,
                                           double out[3]);

/* The published method's order of candidates: nearer wins; of two equally
 * near ones (within 1e-12 relative, far above the rounding of the line
 * interpolation, far below any real difference), the upper one (larger
 * cone y = sensor Z). That is the tie rule the thesis's Table 2 shows: for
 * even N two lines are equally near the face's centre and its elevations
 * are positive. Without a fixed rule, which of the two wins flips with the
 * rounding from frame to frame, and Eq. 3.9's speed jumps by the line
 * spacing. */
static inline int sensim__cone_lines_better(double d, const double p[3], double best_d,
                                            const double best_p[3]) {
  if (!(d <= best_d * (1.0 + 1e-12))) return 0;
  if (d < best_d * (1.0 - 1e-12)) return 1;
  return p[1] > best_p[1];
}

/* Update *best with mesh m of snapshot body `body` placed by x. */
void sensim__cone_lines_mesh(const sensim_cone_shape *k, int n, const sensim_mesh *m,
                             const sensim__cone_xf *x, int body, sensim__cone_hit *best);
void sensim__cone_exact_mesh(const sensim_cone_shape *k, const sensim_mesh *m,
                             const sensim__cone_xf *x, int body, sensim__cone_hit *best);

/* The rays method at time t with the sensor at `pose` (world): the nearest
 * hit of the grid's rays, ignoring hits on snapshot body `skip` (-1: none). */
sensim_status sensim__cone_rays_query(const sensim__cone *c, const sensim_rt_view *view,
                                      sensim_pose pose, double t, int skip, sensim__cone_hit *best);

#endif
