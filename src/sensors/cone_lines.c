/* sensors/cone_lines.c: the published lines method.
 *
 * Each quadrilateral face v0..v3 (v0 v1 and v3 v2 opposite edges) is
 * covered by N segments L_i from v0 + (v3 - v0) i/(N-1) to
 * v1 + (v2 - v1) i/(N-1), i = 0..N-1, so L_0 = (v0, v1) and
 * L_{N-1} = (v3, v2). Each is clipped to the cone (cone_geometry.c) and its
 * point nearest the apex found by clamped projection; the nearest over all
 * segments of all faces is the detection (ties: the upper point,
 * sensim__cone_lines_better). Between two lines the true
 * nearest point can be missed by up to half the line spacing, which for a
 * face of half extent e seen square-on at distance d bounds the angular
 * error by atan(e / ((N - 1) d)) (docs/cone.md).
 *
 * Faces from triangle meshes. sensim's meshes are triangles, so quads are
 * rebuilt: triangles 2j and 2j+1 that share an edge, lie in one plane and
 * together form a convex quadrilateral are one face. With T1 = (t0, t1, t2)
 * rotated so that its vertex off the shared edge is t1, and o the other
 * triangle's vertex off the shared edge, the face is (v0, v1, v2, v3) =
 * (t0, t1, t2, o): a quad written as triangles (a, b, c), (a, c, d) becomes
 * (a, b, c, d), as sensim_mesh_create_shape writes box faces, so lines run
 * parallel to the face's first edge a b. Any other triangle (a, b, c) is the
 * degenerate quad (a, b, c, c): v3 = v2 = c, lines parallel to a b sweeping
 * to the point c, the last line shrunk to that point. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/cone_internal.h"

double sensim_cone_quad_nearest_lines(const sensim_cone_shape *k, const double v0[3],
                                      const double v1[3], const double v2[3], const double v3[3],
                                      int n, double out[3]) {
  if (!k || !v0 || !v1 || !v2 || !v3 || n < 2) return INFINITY;
  const double *v[4] = {v0, v1, v2, v3};
  for (int i = 0; i < 4; i++)
    if (!isfinite(v[i][0]) || !isfinite(v[i][1]) || !isfinite(v[i][2])) return INFINITY;
  double best = INFINITY, q[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < n; i++) {
    double a[3], b[3], p[3];
    if (i == 0) {
      memcpy(a, v[0], sizeof a);
      memcpy(b, v[1], sizeof b);
    } else if (i == n - 1) {
      memcpy(a, v[3], sizeof a);
      memcpy(b, v[2], sizeof b);
    } else {
      double u = (double)i / (n - 1);
      for (int j = 0; j < 3; j++) {
        a[j] = v[0][j] + (v[3][j] - v[0][j]) * u;
        b[j] = v[1][j] + (v[2][j] - v[1][j]) * u;
      }
    }
    double d = sensim_cone_segment_nearest(k, a, b, p);
    if (d < INFINITY && sensim__cone_lines_better(d, p, best, q)) {
      best = d;
      memcpy(q, p, sizeof p);
    }
  }
  if (out && best < INFINITY) memcpy(out, q, sizeof q);
  return best;
}

static void sub3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[0] - b[0];
  o[1] = a[1] - b[1];
  o[2] = a[2] - b[2];
}

static void cross3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Quad order (t0, t1, t2, o) of triangles t and u (mesh indices) if they
 * share an edge; 0 if not. */
static int pair_order(const uint32_t *t, const uint32_t *u, uint32_t q[4]) {
  for (int r = 0; r < 3; r++) {
    /* Rotation of t with t[r+1] off the shared edge (t[r], t[r+2]). */
    uint32_t a = t[r], b = t[(r + 1) % 3], c = t[(r + 2) % 3];
    int ha = -1, hc = -1;
    for (int j = 0; j < 3; j++) {
      if (u[j] == a) ha = j;
      if (u[j] == c) hc = j;
    }
    if (ha < 0 || hc < 0) continue;
    uint32_t o = u[3 - ha - hc];
    if (o == a || o == b || o == c) return 0;
    q[0] = a;
    q[1] = b;
    q[2] = c;
    q[3] = o;
    return 1;
  }
  return 0;
}

/* Planar (4th vertex within 1e-9 of the quad's size from the first
 * triangle's plane) and convex (turning the same way at every corner). */
static int planar_convex(const double (*v)[3]) {
  double e[4][3], nrm[3], c[3];
  for (int i = 0; i < 4; i++) sub3(v[(i + 1) % 4], v[i], e[i]);
  cross3(e[0], e[1], nrm);
  double nn = sqrt(dot3(nrm, nrm)), size = sqrt(dot3(e[0], e[0])) + sqrt(dot3(e[1], e[1]));
  if (!(nn > 0.0)) return 0;
  double w[3];
  sub3(v[3], v[0], w);
  if (fabs(dot3(w, nrm)) / nn > 1e-9 * size) return 0;
  for (int i = 0; i < 4; i++) {
    cross3(e[i], e[(i + 1) % 4], c);
    if (!(dot3(c, nrm) > 0.0)) return 0;
  }
  return 1;
}

void sensim__cone_lines_mesh(const sensim_cone_shape *k, int n, const sensim_mesh *m,
                             const sensim__cone_xf *x, int body, sensim__cone_hit *best) {
  const uint32_t *ix = m->indices;
  for (size_t f = 0; f < m->ntri;) {
    double v[4][3], p[3];
    uint32_t q[4];
    size_t used = 1;
    int quad = f + 1 < m->ntri && pair_order(ix + 3 * f, ix + 3 * (f + 1), q);
    if (quad) {
      for (int i = 0; i < 4; i++) sensim__cone_xf_apply(x, m->vertices + 3 * (size_t)q[i], v[i]);
      quad = planar_convex((const double (*)[3])v);
    }
    if (quad) {
      used = 2;
    } else {
      for (int i = 0; i < 3; i++) sensim__cone_xf_apply(x, m->vertices + 3 * (size_t)ix[3 * f + i], v[i]);
      memcpy(v[3], v[2], sizeof v[3]);
    }
    f += used;
    if (sensim__cone_cull(k, (const double (*)[3])v, 4)) continue;
    double d = sensim_cone_quad_nearest_lines(k, v[0], v[1], v[2], v[3], n, p);
    if (d < INFINITY && sensim__cone_lines_better(d, p, best->dist, best->p)) {
      best->dist = d;
      memcpy(best->p, p, sizeof p);
      best->body = body;
    }
  }
}
