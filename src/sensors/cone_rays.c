/* sensors/cone_rays.c: the rays method: the cone sampled by a grid of rays
 * traced through the shared kernel (rt/rt.h), the nearest hit reported.
 *
 * Grid. With n rays per axis, node (i, j) is (u, v) = (-1 + 2i/(n-1),
 * -1 + 2j/(n-1)) on the normalised cross-section u^2 + v^2 <= 1; nodes
 * outside the unit disc are moved radially onto its rim (the nearest point
 * of the disc). The ray through (u, v) has cone-frame direction
 * (a u, b v, 1), a = tan(theta/2), b = tan(phi/2), and ends at the cap
 * plane z = r.
 *
 * Sampling error. Every point of the disc lies in a grid cell of side
 * h = 2/(n-1) whose nearest corner is within h/sqrt(2); moving a corner onto
 * the rim (a projection onto a convex set) brings it no farther. In the
 * plane z = 1 that offset is at most max(a, b) sqrt(2)/(n-1), and the map
 * from that plane to directions is 1-Lipschitz, so every direction in the
 * cone is within
 *   delta = max(a, b) sqrt(2) / (n - 1)  rad
 * of a ray. The reported point is a true surface point inside the cone,
 * hence never nearer than the true nearest point (up to the kernel's float
 * precision, ~1e-7 relative); for a true nearest point that is the foot of
 * the perpendicular on a face (the face seen square-on) the range is at
 * most R / cos(delta) and the point lies within R tan(delta) of the true
 * one. Near edges and grazing faces the range error has no such bound: a
 * ray may miss a thin part altogether. docs/cone.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/cone_internal.h"

sensim_status sensim__cone_rays_query(const sensim__cone *c, const sensim_rt_view *view,
                                      sensim_pose pose, double t, int skip, sensim__cone_hit *best) {
  const int n = c->p.rays;
  const size_t nr = (size_t)n * n;
  const double a = c->k.tan_h, b = c->k.tan_v, r = c->k.length;
  sensim_rt_ray *rays = calloc(nr, sizeof *rays);
  sensim_rt_hit *hits = malloc(nr * sizeof *hits);
  double *len = malloc(nr * sizeof *len);
  if (!rays || !hits || !len) {
    free(rays);
    free(hits);
    free(len);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu cone rays", nr);
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double u = -1.0 + 2.0 * i / (n - 1), v = -1.0 + 2.0 * j / (n - 1), rho = hypot(u, v);
      if (rho > 1.0) {
        u /= rho;
        v /= rho;
      }
      /* Sensor frame: X = cone z, Y = cone x, Z = cone y; unit length. */
      sensim_vec3 ds = v3(1.0, a * u, b * v);
      double l = v3_norm(ds);
      sensim_vec3 dw = q_rotate(pose.rot, v3_scale(ds, 1.0 / l));
      size_t k = (size_t)i * n + j;
      sensim_rt_ray *ry = &rays[k];
      ry->org[0] = (float)pose.pos.x;
      ry->org[1] = (float)pose.pos.y;
      ry->org[2] = (float)pose.pos.z;
      ry->dir[0] = (float)dw.x;
      ry->dir[1] = (float)dw.y;
      ry->dir[2] = (float)dw.z;
      ry->tnear = 0.0f;
      ry->tfar = (float)(r * l); /* to the cap plane: X = r along a unit ray */
      ry->time = t;
      len[k] = l;
    }
  }
  sensim__rt_intersect(view, rays, hits, nr, 1);
  for (size_t k = 0; k < nr; k++) {
    const sensim_rt_hit *h = &hits[k];
    if (h->body < 0 || h->body == skip || !(h->t < best->dist)) continue;
    /* The hit in the sensor frame from the ray's own (unit) direction. */
    size_t i = k / (size_t)n, j = k % (size_t)n;
    double u = -1.0 + 2.0 * (double)i / (n - 1), v = -1.0 + 2.0 * (double)j / (n - 1), rho = hypot(u, v);
    if (rho > 1.0) {
      u /= rho;
      v /= rho;
    }
    double s = h->t / len[k];
    double ps[3] = {s, s * a * u, s * b * v};
    best->dist = h->t;
    sensim_cone_from_sensor(ps, best->p);
    best->body = h->body;
    best->elem = h->elem;
  }
  free(rays);
  free(hits);
  free(len);
  return SENSIM_OK;
}
