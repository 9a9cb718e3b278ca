/* sensors/cone_exact.c: the exact nearest point of a triangle clipped to
 * the cone.
 *
 * Problem: minimise |p| over C = T n K, T the triangle, K the cone (f <= 0,
 * 0 <= z <= r; convex for full angles below 180 deg). |p| is strictly
 * convex, so C has one minimiser p*. Method (exact up to rounding, no
 * iteration beyond bisection of polynomial roots to full precision):
 *
 * 1. q = the point of T nearest the apex (Ericson, "Real-Time Collision
 *    Detection", 2005, sec. 5.1.5). If q is in K, p* = q.
 * 2. Otherwise the constraint K is active at p* (were it not, p* would be a
 *    local, hence global, minimiser over T, i.e. q), so p* lies on the
 *    boundary of C inside the boundary of K. That boundary is made of
 *    (a) the triangle's edges clipped to K, where the nearest point is the
 *        clamped projection (cone_geometry.c), which also covers every
 *        corner of C where an edge meets the cone or the cap;
 *    (b) the segment T n {z = r} clipped to K (the end cap);
 *    (c) the conic arc T n {f = 0}.
 *    p* is the nearest of the candidates of (a), (b), (c), every candidate
 *    being a point of C.
 * 3. The arc (c). The generator of the lateral surface at polar angle psi
 *    has direction d(psi) = (a cos psi, b sin psi, 1) and meets the plane
 *    n.p = h of T at p = (h / L) d, L = n.d (a point of the forward nappe
 *    when h / L > 0). |p|^2 = h^2 |d|^2 / L^2, whose stationary points solve
 *      g(psi) = (d.d') L - |d|^2 L' = (b^2 - a^2) s c L - (1 + a^2 c^2 + b^2 s^2) L' = 0
 *    (c = cos psi, s = sin psi, L' = -n_x a s + n_y b c): the derivative of
 *    |d|^2 / L^2 is 2 g / L^3. With t = tan(psi / 2) (c = (1 - t^2)/(1 + t^2),
 *    s = 2t/(1 + t^2)) times (1 + t^2)^3, g is a polynomial of degree <= 6.
 *    Each half turn is mapped onto t in [-1, 1] (psi and psi + pi, the
 *    latter by flipping n_x, n_y), searched over [-1.25, 1.25] so that a
 *    root at a quarter turn (t = +-1) lies inside both searches rather than
 *    on their ends, where rounding could hide its sign change; the real
 *    roots there are isolated
 *    by the derivative sequence (between consecutive roots of p' the
 *    polynomial p is monotone, so each interval holds at most one root,
 *    found by bisection to the last bit). Only sign changes matter: a root
 *    of even multiplicity is no extremum. Every stationary point whose p
 *    lies in T (barycentric coordinates >= -1e-12) and has z <= r is a
 *    candidate; the arc's end points lie on edges or on the cap and are
 *    candidates of (a) and (b).
 *    A plane through the apex (h = 0) meets the cone in generators, along
 *    which |p| grows from the apex, so their nearest points are again on
 *    the edges: (c) is skipped then. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/cone_internal.h"

#define MAXDEG 6

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void sub3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[0] - b[0];
  o[1] = a[1] - b[1];
  o[2] = a[2] - b[2];
}

/* Ericson's closest point on triangle (a, b, c) to the origin; 0 if the
 * triangle is degenerate in a way that makes the Voronoi test divide by 0. */
static int closest_on_triangle(const double a[3], const double b[3], const double c[3], double q[3]) {
  double ab[3], ac[3], bc[3];
  sub3(b, a, ab);
  sub3(c, a, ac);
  sub3(c, b, bc);
  double ap[3] = {-a[0], -a[1], -a[2]}, bp[3] = {-b[0], -b[1], -b[2]}, cp[3] = {-c[0], -c[1], -c[2]};
  double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    memcpy(q, a, 3 * sizeof *q);
    return 1;
  }
  double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) {
    memcpy(q, b, 3 * sizeof *q);
    return 1;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    double v = d1 / (d1 - d3);
    for (int i = 0; i < 3; i++) q[i] = a[i] + v * ab[i];
    return 1;
  }
  double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) {
    memcpy(q, c, 3 * sizeof *q);
    return 1;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    double w = d2 / (d2 - d6);
    for (int i = 0; i < 3; i++) q[i] = a[i] + w * ac[i];
    return 1;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int i = 0; i < 3; i++) q[i] = b[i] + w * bc[i];
    return 1;
  }
  double den = va + vb + vc;
  if (!(den != 0.0) || !isfinite(den)) return 0;
  double v = vb / den, w = vc / den;
  for (int i = 0; i < 3; i++) q[i] = a[i] + ab[i] * v + ac[i] * w;
  return 1;
}

/* ---- polynomials: coefficient i multiplies t^i ---- */

typedef struct poly {
  double c[MAXDEG + 1];
  int deg;
} poly;

static poly pmul(poly a, poly b) {
  poly r;
  memset(&r, 0, sizeof r);
  r.deg = a.deg + b.deg;
  for (int i = 0; i <= a.deg; i++)
    for (int j = 0; j <= b.deg; j++) r.c[i + j] += a.c[i] * b.c[j];
  return r;
}

static poly padd(poly a, poly b, double sb) {
  poly r = a.deg >= b.deg ? a : b;
  if (a.deg >= b.deg) {
    for (int i = 0; i <= b.deg; i++) r.c[i] += sb * b.c[i];
  } else {
    for (int i = 0; i <= b.deg; i++) r.c[i] = sb * b.c[i] + (i <= a.deg ? a.c[i] : 0.0);
  }
  return r;
}

static poly pscale(poly a, double s) {
  for (int i = 0; i <= a.deg; i++) a.c[i] *= s;
  return a;
}

static double peval(const double *c, int deg, double t) {
  double v = c[deg];
  for (int i = deg - 1; i >= 0; i--) v = v * t + c[i];
  return v;
}

/* Real roots of sign change of c (degree deg) in [lo, hi], ascending. */
static int roots_in(const double *c, int deg, double lo, double hi, double *out) {
  while (deg > 0 && c[deg] == 0.0) deg--;
  if (deg <= 0) return 0;
  if (deg == 1) {
    double r = -c[0] / c[1];
    if (r >= lo && r <= hi) {
      out[0] = r;
      return 1;
    }
    return 0;
  }
  double dc[MAXDEG], crit[MAXDEG];
  for (int i = 1; i <= deg; i++) dc[i - 1] = i * c[i];
  int nc = roots_in(dc, deg - 1, lo, hi, crit), n = 0;
  double a = lo, fa = peval(c, deg, lo);
  for (int j = 0; j <= nc; j++) {
    double b = j < nc ? crit[j] : hi, fb = peval(c, deg, b);
    if (fa == 0.0) {
      if (n == 0 || out[n - 1] != a) out[n++] = a;
    } else if ((fa < 0.0 && fb > 0.0) || (fa > 0.0 && fb < 0.0)) {
      double x0 = a, x1 = b, f0 = fa;
      for (int it = 0; it < 200; it++) {
        double m = 0.5 * (x0 + x1);
        if (m <= x0 || m >= x1) break;
        double fm = peval(c, deg, m);
        if (fm == 0.0) {
          x0 = x1 = m;
          break;
        }
        if ((fm < 0.0) == (f0 < 0.0)) {
          x0 = m;
          f0 = fm;
        } else {
          x1 = m;
        }
      }
      out[n++] = 0.5 * (x0 + x1);
    }
    a = b;
    fa = fb;
  }
  if (fa == 0.0 && (n == 0 || out[n - 1] != a)) out[n++] = a;
  return n;
}

/* g(psi) (1 + t^2)^3 as a polynomial in t = tan(psi / 2), for the normal
 * components (nx, ny, nz) of T's plane and the cone's a, b. */
static poly arc_poly(double a, double b, double nx, double ny, double nz) {
  poly C = {{1, 0, -1}, 2}, S = {{0, 2}, 1}, W = {{1, 0, 1}, 2};
  poly Lw = padd(padd(pscale(C, nx * a), S, ny * b), W, nz);
  poly Lp = padd(pscale(S, -nx * a), C, ny * b);
  poly D2 = padd(padd(pmul(W, W), pmul(C, C), a * a), pmul(S, S), b * b);
  poly t1 = pscale(pmul(pmul(S, C), Lw), b * b - a * a);
  return padd(t1, pmul(D2, Lp), -1.0);
}

/* Barycentric membership of a point of T's plane, with slack eps. */
static int in_triangle(const double a[3], const double b[3], const double c[3], const double p[3], double eps) {
  double e0[3], e1[3], e2[3];
  sub3(b, a, e0);
  sub3(c, a, e1);
  sub3(p, a, e2);
  double d00 = dot3(e0, e0), d01 = dot3(e0, e1), d11 = dot3(e1, e1), d20 = dot3(e2, e0), d21 = dot3(e2, e1);
  double den = d00 * d11 - d01 * d01;
  if (!(den > 0.0)) return 0;
  double v = (d11 * d20 - d01 * d21) / den, w = (d00 * d21 - d01 * d20) / den;
  return v >= -eps && w >= -eps && 1.0 - v - w >= -eps;
}

static void keep(double d, const double p[3], double *best, double out[3]) {
  if (d < *best) {
    *best = d;
    memcpy(out, p, 3 * sizeof *out);
  }
}

/* Candidates on the conic arc T n {f = 0}. */
static void arc_candidates(const sensim_cone_shape *k, const double *v[3], double *best, double bp[3]) {
  double e0[3], e1[3], n[3];
  sub3(v[1], v[0], e0);
  sub3(v[2], v[0], e1);
  n[0] = e0[1] * e1[2] - e0[2] * e1[1];
  n[1] = e0[2] * e1[0] - e0[0] * e1[2];
  n[2] = e0[0] * e1[1] - e0[1] * e1[0];
  double nn = sqrt(dot3(n, n));
  if (!(nn > 0.0)) return;
  for (int i = 0; i < 3; i++) n[i] /= nn;
  double h = dot3(n, v[0]);
  double size = sqrt(dot3(v[0], v[0])) + sqrt(dot3(e0, e0)) + sqrt(dot3(e1, e1));
  if (!(fabs(h) > 1e-12 * size)) return;
  const double a = k->tan_h, b = k->tan_v;
  for (int half = 0; half < 2; half++) {
    double sg = half ? -1.0 : 1.0;
    poly g = arc_poly(a, b, sg * n[0], sg * n[1], n[2]);
    double rt[MAXDEG];
    int nr = roots_in(g.c, g.deg, -1.25, 1.25, rt);
    for (int j = 0; j < nr; j++) {
      double psi = 2.0 * atan(rt[j]) + (half ? M_PI : 0.0);
      double d[3] = {a * cos(psi), b * sin(psi), 1.0};
      double L = dot3(n, d);
      if (L == 0.0) continue;
      double tl = h / L;
      if (!(tl > 0.0) || tl > k->length * (1.0 + 1e-12)) continue;
      double p[3] = {tl * d[0], tl * d[1], tl * d[2]};
      if (!in_triangle(v[0], v[1], v[2], p, 1e-12)) continue;
      keep(sqrt(dot3(p, p)), p, best, bp);
    }
  }
}

/* Candidate on the segment T n {z = r}, clipped to the cone. */
static void cap_candidate(const sensim_cone_shape *k, const double *v[3], double *best, double bp[3]) {
  const double r = k->length;
  double pts[3][3];
  int np = 0;
  for (int i = 0; i < 3; i++) {
    const double *p = v[i], *q = v[(i + 1) % 3];
    double dp = p[2] - r, dq = q[2] - r;
    if (dp == 0.0 && dq == 0.0) return; /* an edge in the cap plane: (a) covers it */
    if (dp == 0.0) {
      memcpy(pts[np++], p, sizeof pts[0]);
    } else if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) {
      double s = dp / (dp - dq);
      for (int j = 0; j < 3; j++) pts[np][j] = p[j] + s * (q[j] - p[j]);
      np++;
    }
  }
  if (np < 2) return;
  /* The two points farthest apart span the section (a third can only be a
   * repeat of a vertex lying on the plane). */
  int i0 = 0, i1 = 1;
  double dmax = -1.0;
  for (int i = 0; i < np; i++)
    for (int j = i + 1; j < np; j++) {
      double w[3];
      sub3(pts[i], pts[j], w);
      if (dot3(w, w) > dmax) {
        dmax = dot3(w, w);
        i0 = i;
        i1 = j;
      }
    }
  pts[i0][2] = pts[i1][2] = r;
  double p[3], d = sensim_cone_segment_nearest(k, pts[i0], pts[i1], p);
  keep(d, p, best, bp);
}

double sensim__cone_triangle_nearest_below(const sensim_cone_shape *k, const double v0[3],
                                           const double v1[3], const double v2[3], double bound,
                                           double out[3]) {
  const double *v[3] = {v0, v1, v2};
  double q[3], best = INFINITY, bp[3] = {0, 0, 0};
  int have_q = closest_on_triangle(v0, v1, v2, q);
  if (have_q) {
    double dq = sqrt(dot3(q, q));
    /* |q| bounds |p*| from below: nothing here can beat `bound`. */
    if (!(dq < bound)) return INFINITY;
    if (sensim_cone_inside(k, q)) {
      if (out) memcpy(out, q, sizeof q);
      return dq;
    }
  }
  const double tri[3][3] = {{v0[0], v0[1], v0[2]}, {v1[0], v1[1], v1[2]}, {v2[0], v2[1], v2[2]}};
  if (sensim__cone_cull(k, tri, 3)) return INFINITY;
  for (int i = 0; i < 3; i++) {
    double p[3], d = sensim_cone_segment_nearest(k, v[i], v[(i + 1) % 3], p);
    keep(d, p, &best, bp);
  }
  if (have_q) {
    cap_candidate(k, v, &best, bp);
    arc_candidates(k, v, &best, bp);
  }
  if (out && best < INFINITY) memcpy(out, bp, sizeof bp);
  return best;
}

double sensim_cone_triangle_nearest(const sensim_cone_shape *k, const double v0[3],
                                    const double v1[3], const double v2[3], double out[3]) {
  if (!k || !v0 || !v1 || !v2) return INFINITY;
  for (int i = 0; i < 3; i++)
    if (!isfinite(v0[i]) || !isfinite(v1[i]) || !isfinite(v2[i])) return INFINITY;
  return sensim__cone_triangle_nearest_below(k, v0, v1, v2, INFINITY, out);
}

void sensim__cone_exact_mesh(const sensim_cone_shape *k, const sensim_mesh *m,
                             const sensim__cone_xf *x, int body, sensim__cone_hit *best) {
  const uint32_t *ix = m->indices;
  for (size_t f = 0; f < m->ntri; f++) {
    double v[3][3], p[3];
    for (int i = 0; i < 3; i++) sensim__cone_xf_apply(x, m->vertices + 3 * (size_t)ix[3 * f + i], v[i]);
    double d = sensim__cone_triangle_nearest_below(k, v[0], v[1], v[2], best->dist, p);
    if (d < best->dist) {
      best->dist = d;
      memcpy(best->p, p, sizeof p);
      best->body = body;
    }
  }
}
