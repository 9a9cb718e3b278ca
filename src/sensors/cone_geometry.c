/* sensors/cone_geometry.c: the cone's equation and the clipping of a
 * segment to it, the building blocks of the lines and exact methods.
 *
 * In the cone frame (cone.h) the lateral surface is
 *   f(p) = x^2 / a^2 + y^2 / b^2 - z^2 = 0,  a = tan(theta/2), b = tan(phi/2)
 * (the x^2/(z^2 a^2) + y^2/(z^2 b^2) = 1 multiplied by z^2, which
 * stays defined at the apex), and the field of view is f <= 0, 0 <= z <= r:
 * the forward nappe, a convex set for full angles below 180 deg, cut by the
 * end-cap plane z = r.
 *
 * Along p(s) = p0 + s d, f is the quadratic A s^2 + B s + C with
 *   A = dx^2/a^2 + dy^2/b^2 - dz^2,
 *   B = 2 (p0x dx / a^2 + p0y dy / b^2 - p0z dz),
 *   C = f(p0).
 * Its roots are found discriminant first, with the cancellation-free form
 * q = -(B + sign(B) sqrt(B^2 - 4AC)) / 2, roots q / A and C / q
 * (Press et al., "Numerical Recipes", 3rd ed., 2007, eq. 5.6.4). */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/cone_internal.h"

/* Relative size below which A, or the discriminant, counts as zero: a few
 * units of rounding of the terms that make it. */
#define CONE_EPS 1e-13

sensim_status sensim_cone_params_check(const sensim_cone_params *p) {
  if (!p) return sensim__fail(SENSIM_EINVAL, "cone: params are NULL");
  if (!(isfinite(p->theta) && p->theta > 0.0 && p->theta < M_PI))
    return sensim__fail(SENSIM_EINVAL, "cone theta %g rad must be finite and in (0, pi): a full angle "
                        "below 180 deg", p->theta);
  if (!(isfinite(p->phi) && p->phi > 0.0 && p->phi < M_PI))
    return sensim__fail(SENSIM_EINVAL, "cone phi %g rad must be finite and in (0, pi): a full angle "
                        "below 180 deg", p->phi);
  if (!(isfinite(p->length) && p->length > 0.0))
    return sensim__fail(SENSIM_EINVAL, "cone length %g m must be finite and > 0", p->length);
  switch (p->method) {
  case SENSIM_CONE_LINES:
    if (p->lines < 2 || p->lines > 100000)
      return sensim__fail(SENSIM_EINVAL, "cone lines %d must be in [2, 100000]: the published method "
                          "needs both edges of a face", p->lines);
    break;
  case SENSIM_CONE_EXACT:
    break;
  case SENSIM_CONE_RAYS:
    if (p->rays < 2 || p->rays > 1024)
      return sensim__fail(SENSIM_EINVAL, "cone rays %d per axis must be in [2, 1024] (1024^2 rays "
                          "already take ~90 MB of ray and hit buffers)", p->rays);
    break;
  default:
    return sensim__fail(SENSIM_EINVAL, "cone method %d is not lines (0), exact (1) or rays (2)",
                        (int)p->method);
  }
  return SENSIM_OK;
}

sensim_status sensim_cone_shape_init(const sensim_cone_params *cp, sensim_cone_shape *k) {
  if (!k) return sensim__fail(SENSIM_EINVAL, "cone shape: NULL output");
  sensim_status rc = sensim_cone_params_check(cp);
  if (rc) return rc;
  k->tan_h = tan(0.5 * cp->theta);
  k->tan_v = tan(0.5 * cp->phi);
  k->length = cp->length;
  return SENSIM_OK;
}

void sensim_cone_from_sensor(const double s[3], double c[3]) {
  double x = s[1], y = s[2], z = s[0];
  c[0] = x;
  c[1] = y;
  c[2] = z;
}

void sensim_cone_to_sensor(const double c[3], double s[3]) {
  double X = c[2], Y = c[0], Z = c[1];
  s[0] = X;
  s[1] = Y;
  s[2] = Z;
}

static double lateral(const sensim_cone_shape *k, const double p[3]) {
  double u = p[0] / k->tan_h, v = p[1] / k->tan_v;
  return u * u + v * v - p[2] * p[2];
}

int sensim_cone_inside(const sensim_cone_shape *k, const double p[3]) {
  if (!k || !p) return 0;
  /* NaN compares false everywhere, so a NaN point is outside. */
  return p[2] >= 0.0 && p[2] <= k->length && lateral(k, p) <= 0.0;
}

/* Coefficients of f(p0 + s d); `scale` is the size of the terms of A, for
 * deciding when A is zero. */
static void quad_coeffs(const sensim_cone_shape *k, const double p0[3], const double d[3], double *A,
                        double *B, double *C, double *scale) {
  const double ia2 = 1.0 / (k->tan_h * k->tan_h), ib2 = 1.0 / (k->tan_v * k->tan_v);
  double ax = d[0] * d[0] * ia2, ay = d[1] * d[1] * ib2, az = d[2] * d[2];
  *A = ax + ay - az;
  *B = 2.0 * (p0[0] * d[0] * ia2 + p0[1] * d[1] * ib2 - p0[2] * d[2]);
  *C = lateral(k, p0);
  *scale = ax + ay + az;
}

/* Roots of A s^2 + B s + C (A != 0): count, ascending. */
static int quad_roots(double A, double B, double C, double s[2]) {
  double D = B * B - 4.0 * A * C;
  if (D < -CONE_EPS * (B * B + fabs(4.0 * A * C))) return 0;
  if (D <= CONE_EPS * (B * B + fabs(4.0 * A * C))) {
    s[0] = s[1] = -B / (2.0 * A); /* tangent: one double root */
    return 1;
  }
  double q = -0.5 * (B + copysign(sqrt(D), B));
  double r1 = q / A, r2 = C / q;
  s[0] = r1 < r2 ? r1 : r2;
  s[1] = r1 < r2 ? r2 : r1;
  return 2;
}

/* NaN or infinite coordinates: no answer rather than a NaN one. */
static int finite_seg(const double p0[3], const double p1[3]) {
  return isfinite(p0[0]) && isfinite(p0[1]) && isfinite(p0[2]) && isfinite(p1[0]) && isfinite(p1[1]) &&
         isfinite(p1[2]);
}

int sensim_cone_surface_roots(const sensim_cone_shape *k, const double p0[3], const double p1[3],
                              double s[2]) {
  if (!k || !p0 || !p1 || !s || !finite_seg(p0, p1)) return 0;
  double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]}, A, B, C, sc;
  quad_coeffs(k, p0, d, &A, &B, &C, &sc);
  if (fabs(A) > CONE_EPS * sc) return quad_roots(A, B, C, s);
  /* Parallel to a generator: f is linear in s. */
  if (B != 0.0) {
    s[0] = s[1] = -C / B;
    return 1;
  }
  return C == 0.0 ? -1 : 0;
}

/* Intersect [*lo, *hi] with [a, b]; 0 if empty. */
static int meet(double *lo, double *hi, double a, double b) {
  if (a > *lo) *lo = a;
  if (b < *hi) *hi = b;
  return *lo <= *hi;
}

int sensim_cone_clip_segment(const sensim_cone_shape *k, const double p0[3], const double p1[3],
                             double s[2]) {
  if (!k || !p0 || !p1 || !s || !finite_seg(p0, p1)) return 0;
  double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  double lo = 0.0, hi = 1.0;
  const double r = k->length;
  /* The slab 0 <= z <= r, a linear constraint: a far intersection beyond
   * the cap slides along the segment to z = r. */
  if (d[2] == 0.0) {
    if (!(p0[2] >= 0.0 && p0[2] <= r)) return 0;
  } else {
    double s0 = -p0[2] / d[2], sr = (r - p0[2]) / d[2];
    if (!(d[2] > 0.0 ? meet(&lo, &hi, s0, sr) : meet(&lo, &hi, sr, s0))) return 0;
  }
  double A, B, C, sc;
  quad_coeffs(k, p0, d, &A, &B, &C, &sc);
  if (fabs(A) <= CONE_EPS * sc) {
    /* Linear: f = B s + C <= 0. */
    if (B > 0.0) {
      if (!meet(&lo, &hi, -INFINITY, -C / B)) return 0;
    } else if (B < 0.0) {
      if (!meet(&lo, &hi, -C / B, INFINITY)) return 0;
    } else if (C > 0.0) {
      return 0;
    }
  } else {
    double rt[2];
    int n = quad_roots(A, B, C, rt);
    if (A > 0.0) {
      /* f <= 0 only between the roots. */
      if (n == 0 || !meet(&lo, &hi, rt[0], rt[1])) return 0;
    } else if (n > 0) {
      /* A < 0: f <= 0 outside the roots, one piece on each nappe. With
       * z >= 0 already imposed, the forward nappe being convex, at most one
       * piece survives (both only when they meet at the apex). */
      double a0 = lo, a1 = hi, b0 = lo, b1 = hi;
      int ina = meet(&a0, &a1, -INFINITY, rt[0]), inb = meet(&b0, &b1, rt[1], INFINITY);
      if (!ina && !inb) return 0;
      lo = ina ? a0 : b0;
      hi = inb ? b1 : a1;
    }
    /* A < 0 and no root: f < 0 on the whole line. */
  }
  s[0] = lo;
  s[1] = hi;
  return 1;
}

double sensim_cone_segment_nearest(const sensim_cone_shape *k, const double p0[3], const double p1[3],
                                   double out[3]) {
  double s[2];
  if (!sensim_cone_clip_segment(k, p0, p1, s)) return INFINITY;
  double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
  double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  /* |p(s)|^2 is convex in s, so its minimum over [s0, s1] is the
   * unconstrained minimiser -p0.d / d.d clamped into the interval. */
  double u = dd > 0.0 ? -(p0[0] * d[0] + p0[1] * d[1] + p0[2] * d[2]) / dd : s[0];
  if (u < s[0]) u = s[0];
  if (u > s[1]) u = s[1];
  double p[3] = {p0[0] + u * d[0], p0[1] + u * d[1], p0[2] + u * d[2]};
  if (out) memcpy(out, p, sizeof p);
  return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
}

int sensim__cone_cull(const sensim_cone_shape *k, const double (*v)[3], int n) {
  unsigned all = 0x3Fu;
  for (int i = 0; i < n && all; i++) {
    const double x = v[i][0], y = v[i][1], z = v[i][2];
    unsigned out = (unsigned)(z < 0.0) | (unsigned)(z > k->length) << 1 |
                   (unsigned)(x > k->tan_h * z) << 2 | (unsigned)(-x > k->tan_h * z) << 3 |
                   (unsigned)(y > k->tan_v * z) << 4 | (unsigned)(-y > k->tan_v * z) << 5;
    all &= out;
  }
  return all != 0;
}
