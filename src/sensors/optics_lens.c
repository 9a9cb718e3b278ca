/* sensors/optics_lens.c: the lens models of optics.c computed directly:
 * radial maps and their inverses, Brown-Conrady's 2-D map and Newton
 * inverse, forward and inverse projection, parameter and invertibility
 * checks (the models and their sources are described in optics.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/optics_lens.h"

/* ---- radial maps ---- */

int sensim__lens_is_bc(const lens *L) {
  return L->model == SENSIM_LENS_BROWN_CONRADY || L->model == SENSIM_LENS_RATIONAL;
}

double sensim__rad_g(const lens *L, double r, double *dg) {
  const double *c = L->c;
  double t = r * r;
  if (L->has_q) { /* rational: r N(t) / D(t) */
    const double *q = L->q;
    double N = 1 + t * (c[0] + t * (c[1] + t * c[2])), dN = c[0] + t * (2 * c[1] + t * 3 * c[2]);
    double D = 1 + t * (q[0] + t * (q[1] + t * q[2])), dD = q[0] + t * (2 * q[1] + t * 3 * q[2]);
    if (dg) *dg = (N + 2 * t * dN) / D - 2 * t * N * dD / (D * D);
    return r * N / D;
  }
  if (dg) *dg = 1 + t * (3 * c[0] + t * (5 * c[1] + t * (7 * c[2] + t * 9 * c[3])));
  return r * (1 + t * (c[0] + t * (c[1] + t * (c[2] + t * c[3]))));
}

static double poly(const double *a, int n, double x) {
  double y = 0;
  for (int i = n; i >= 0; i--) y = y * x + a[i];
  return y;
}

/* Real roots of a[0] + a[1] x + ... + a[n] x^n in (lo, hi), ascending: the
 * roots of the derivative split (lo, hi) into monotonic pieces, each
 * bisected where it changes sign. Returns the count (<= n). */
static int real_roots(const double *a, int n, double lo, double hi, double *out) {
  while (n > 0 && a[n] == 0) n--;
  if (n == 0) return 0;
  if (n == 1) {
    double x = -a[0] / a[1];
    if (x > lo && x < hi) {
      out[0] = x;
      return 1;
    }
    return 0;
  }
  double d[8], cut[10];
  for (int i = 1; i <= n; i++) d[i - 1] = i * a[i];
  int nc = real_roots(d, n - 1, lo, hi, cut + 1), k = 0;
  cut[0] = lo;
  cut[nc + 1] = hi;
  for (int i = 0; i <= nc; i++) {
    double x0 = cut[i], x1 = cut[i + 1], f0 = poly(a, n, x0), f1 = poly(a, n, x1);
    if (i > 0 && f0 == 0) out[k++] = x0; /* a root where the slope vanishes */
    if (f0 == 0 || f1 == 0 || (f0 < 0) == (f1 < 0)) continue;
    for (int it = 0; it < 400 && x1 - x0 > 1e-15 * fabs(x0 + x1); it++) {
      double m = 0.5 * (x0 + x1), fm = poly(a, n, m);
      if ((fm < 0) == (f0 < 0)) x0 = m, f0 = fm;
      else x1 = m;
    }
    out[k++] = 0.5 * (x0 + x1);
  }
  return k;
}

/* Cauchy's bound: every root of the polynomial lies within it. */
static double root_bound(const double *a, int n) {
  while (n > 0 && a[n] == 0) n--;
  double b = 0;
  for (int i = 0; i < n; i++) b = fmax(b, fabs(a[i] / a[n]));
  return 1 + b;
}

/* r in [0, sqrt(t_lim)) with g(r) = y, for 0 <= y < rho_lim: Newton kept
 * inside a shrinking bracket (g increases there, g(0) = 0). r0 is a radius
 * with g(r0) <= y (0 if none is known): the bracket starts there and, if
 * r0 > 0, so does Newton. Started from y, Newton creeps towards a root
 * far out on a steep polynomial by a factor (degree - 1) / degree per
 * step (a hundred steps at normalised radii of 1e3); started from the
 * previous node of a table it takes a few. */
static double rad_solve(const lens *L, double y, double r0) {
  double lo = r0 > 0 ? r0 : 0, hi;
  if (isfinite(L->t_lim)) hi = sqrt(L->t_lim);
  else
    for (hi = fmax(1.0, 2 * y); sensim__rad_g(L, hi, NULL) < y && hi < 1e150;) hi *= 2;
  double r = lo > 0 && lo < hi ? lo : fmin(y, 0.5 * (lo + hi));
  for (int it = 0; it < 200; it++) {
    double dg, f = sensim__rad_g(L, r, &dg) - y;
    if (f == 0) break;
    if (f > 0) hi = r;
    else lo = r;
    double rn = r - f / dg;
    if (!(rn > lo && rn < hi)) rn = 0.5 * (lo + hi);
    if (fabs(rn - r) <= 1e-15 * rn || hi - lo <= 4e-16 * hi) {
      r = rn;
      break;
    }
    r = rn;
  }
  return r;
}

/* The radial part of the inverse at t = xn^2 + yn^2: the ray is
 * (A xn, A yn, C) in the optical frame (Brown-Conrady: its radial part, C = 1).
 * 0 where no ray exists. */
int sensim__radial_eval(const lens *L, double t, double *A, double *C) {
  double r = 0;
  return sensim__radial_eval_from(L, t, &r, A, C);
}

int sensim__radial_eval_from(const lens *L, double t, double *r_io, double *A, double *C) {
  double rho = sqrt(t);
  if (L->model == SENSIM_LENS_FOV) {
    double a = rho * L->tanw;
    if (!(a < 0.5 * M_PI)) return 0;
    double th = atan(tan(a) / L->s);
    *A = rho > 0 ? sin(th) / rho : L->tanw / L->s;
    *C = cos(th);
    return 1;
  }
  if (L->model == SENSIM_LENS_DIVISION) { /* closed form: Fitzgibbon's x_u = x_d / (1 + lambda r_d^2) */
    double c = 1 + L->lambda * t;
    if (!(c > 0) || !(rho < L->rho_lim)) return 0;
    *A = 1.0;
    *C = c;
    return 1;
  }
  if (!(rho < L->rho_lim)) return 0;
  double r = rad_solve(L, rho, *r_io);
  *r_io = r;
  if (sensim__lens_is_bc(L)) {
    *A = rho > 0 ? r / rho : 1.0;
    *C = 1.0;
  } else { /* Kannala-Brandt: r is theta */
    *A = rho > 0 ? sin(r) / rho : 1.0;
    *C = cos(r);
  }
  return 1;
}

/* ---- Brown-Conrady 2-D map ---- */

void sensim__bc_map(const lens *L, double x, double y, double *xd, double *yd, double J[4]) {
  const double k1 = L->c[0], k2 = L->c[1], k3 = L->c[2], p1 = L->p1, p2 = L->p2;
  double r2 = x * x + y * y;
  double R = 1 + r2 * (k1 + r2 * (k2 + r2 * k3)), dR = k1 + r2 * (2 * k2 + r2 * 3 * k3); /* dR/d(r^2) */
  if (L->has_q) { /* rational: R = N / D, dR = (N' D - N D') / D^2 */
    const double *q = L->q;
    double D = 1 + r2 * (q[0] + r2 * (q[1] + r2 * q[2])), dD = q[0] + r2 * (2 * q[1] + r2 * 3 * q[2]);
    dR = (dR * D - R * dD) / (D * D);
    R /= D;
  }
  *xd = x * R + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  *yd = y * R + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  if (J) {
    J[0] = R + 2 * x * x * dR + 2 * p1 * y + 6 * p2 * x;
    J[1] = 2 * x * y * dR + 2 * p1 * x + 2 * p2 * y;
    J[2] = J[1];
    J[3] = R + 2 * y * y * dR + 6 * p1 * y + 2 * p2 * x;
  }
}

/* Undistorted (x, y) with sensim__bc_map(x, y) = (xd, yd), Newton from the guess in
 * (x, y); 1 when it converges inside the monotonic radius with det J > 0. */
int sensim__bc_newton(const lens *L, double xd, double yd, double *x, double *y) {
  double X = *x, Y = *y, fx, fy, J[4];
  for (int it = 0; it < 50; it++) {
    sensim__bc_map(L, X, Y, &fx, &fy, J);
    double det = J[0] * J[3] - J[1] * J[2], ex = fx - xd, ey = fy - yd;
    if (!(det > 0)) return 0;
    double dx = (J[3] * ex - J[1] * ey) / det, dy = (J[0] * ey - J[2] * ex) / det;
    X -= dx;
    Y -= dy;
    if (fabs(dx) + fabs(dy) <= 1e-15 * (1 + fabs(X) + fabs(Y))) break;
  }
  sensim__bc_map(L, X, Y, &fx, &fy, J);
  if (!(hypot(fx - xd, fy - yd) <= 1e-12 * (1 + hypot(xd, yd)))) return 0;
  if (!(J[0] * J[3] - J[1] * J[2] > 0) || !(X * X + Y * Y < L->t_lim)) return 0;
  *x = X;
  *y = Y;
  return 1;
}

/* ---- direct forward and inverse ---- */

/* Pixel of the optical-frame point o: 0, 1 (cannot be imaged: z <= 0) or 2
 * (beyond the field: past a fold of the radial map). */
int sensim__lens_forward(const lens *L, const double o[3], double *u, double *v) {
  if (!(o[2] > 0)) return 1;
  double a = o[0] / o[2], b = o[1] / o[2], r = hypot(a, b), xn, yn;
  switch (L->model) {
  case SENSIM_LENS_FOV: {
    double r1 = atan(r * L->s) / L->tanw;
    xn = r > 0 ? a * r1 / r : 0;
    yn = r > 0 ? b * r1 / r : 0;
    break;
  }
  case SENSIM_LENS_BROWN_CONRADY:
  case SENSIM_LENS_RATIONAL:
    if (!(r * r < L->t_lim)) return 2;
    sensim__bc_map(L, a, b, &xn, &yn, NULL);
    break;
  case SENSIM_LENS_DIVISION: {
    /* rho / (1 + lambda rho^2) = r solved for the root that is r at
     * lambda = 0, in the form without cancellation. */
    if (!(r * r < L->t_lim)) return 2;
    double k = 2 / (1 + sqrt(1 - 4 * L->lambda * r * r));
    xn = k * a;
    yn = k * b;
    break;
  }
  case SENSIM_LENS_KANNALA_BRANDT: {
    double th = atan(r);
    if (!(th * th < L->t_lim)) return 2;
    double k = r > 0 ? sensim__rad_g(L, th, NULL) / r : 1.0;
    xn = k * a;
    yn = k * b;
    break;
  }
  default:
    xn = a;
    yn = b;
  }
  *u = L->sx * xn + L->cx;
  *v = L->sy * yn + L->cy;
  return 0;
}

/* Optical-frame direction of the ray imaged at (u, v); 0 where none. */
int sensim__lens_inverse(const lens *L, double u, double v, double o[3]) {
  if (!isfinite(u) || !isfinite(v)) return 0;
  double xn = (u - L->cx) * L->isx, yn = (v - L->cy) * L->isy, A, C;
  if (L->model == SENSIM_LENS_PINHOLE) {
    o[0] = xn, o[1] = yn, o[2] = 1;
    return 1;
  }
  if (!sensim__radial_eval(L, xn * xn + yn * yn, &A, &C)) return 0;
  double x = A * xn, y = A * yn;
  if (sensim__lens_is_bc(L) && (L->p1 != 0 || L->p2 != 0) && !sensim__bc_newton(L, xn, yn, &x, &y))
    return 0;
  o[0] = x, o[1] = y, o[2] = C;
  return 1;
}

/* ---- validation ---- */

static sensim_status fail_fold(const lens *L, const char *what, double r_fold, double rho_ext, int cu, int cv) {
  double fold_px = sensim__rad_g(L, r_fold, NULL) * fmax(L->sx, L->sy);
  return sensim__fail(SENSIM_EINVAL,
                      "distortion is not invertible over the image: the radial map %s stops increasing at %g "
                      "(%.1f px from the principal point), inside the image, whose corner (%.1f, %.1f)%s lies "
                      "%.1f px from it",
                      what, r_fold, fold_px, L->ext[cu], L->ext[2 + cv],
                      (L->ca[0] != 1 || L->ca[1] != 1 || L->ca[2] != 1) ? " (widened by lateral_ca)" : "",
                      rho_ext * fmax(L->sx, L->sy));
}

/* Relative illumination polynomial positive over the image. */
static sensim_status check_vignetting(const sensim_camera_params *p, const lens *L) {
  const double *a = p->vignetting_poly, hd = 0.5 * hypot(L->W, L->H);
  double qmax = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      qmax = fmax(qmax, (pow(i ? L->W - 0.5 - L->cx : -0.5 - L->cx, 2) + pow(j ? L->H - 0.5 - L->cy : -0.5 - L->cy, 2)) /
                            (hd * hd));
  double c[4] = {1, a[0], a[1], a[2]}, d[3] = {a[0], 2 * a[1], 3 * a[2]}, q[4];
  int n = real_roots(d, 2, 0.0, qmax, q);
  q[n++] = qmax;
  for (int i = 0; i < n; i++) {
    double f = poly(c, 3, q[i]);
    if (!(f > 0))
      return sensim__fail(SENSIM_EINVAL,
                          "vignetting_poly makes the relative illumination %g <= 0 at r = %g (%.1f px from the "
                          "principal point) inside the image",
                          f, sqrt(q[i]), sqrt(q[i]) * hd);
  }
  return SENSIM_OK;
}

/* The rational model (OpenCV CALIB_RATIONAL_MODEL): g(r) = r N(t) / D(t),
 * t = r^2, N = 1 + k1 t + k2 t^2 + k3 t^3, D = 1 + k4 t + k5 t^2 + k6 t^3.
 * g'(r) = P(t) / D^2 with P = D (N + 2 t N') - 2 t N D', a polynomial of
 * degree 6; g increases up to the first positive root of P (a fold) or of
 * D (a pole, where g runs to +inf and every distorted radius has an
 * inverse), whichever comes first. */
static sensim_status init_rational(const sensim_camera_params *p, lens *L, double rho_ext, int cu, int cv) {
  const double *k = p->dist;
  L->c[0] = k[0], L->c[1] = k[1], L->c[2] = k[4], L->c[3] = 0;
  L->q[0] = k[5], L->q[1] = k[6], L->q[2] = k[7];
  L->has_q = k[5] != 0 || k[6] != 0 || k[7] != 0;
  L->p1 = k[2], L->p2 = k[3];
  const double N[4] = {1, k[0], k[1], k[4]}, D[4] = {1, k[5], k[6], k[7]};
  const double a[4] = {1, 3 * k[0], 5 * k[1], 7 * k[4]}, b[4] = {0, 2 * k[5], 4 * k[6], 6 * k[7]};
  double P[7] = {0}, roots[6], poles[3];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) P[i + j] += D[i] * a[j] - N[i] * b[j];
  double hi = 2 * fmax(root_bound(P, 6), root_bound(D, 3));
  int n = real_roots(P, 6, 0.0, hi, roots), m = real_roots(D, 3, 0.0, hi, poles);
  double t_fold = n > 0 ? roots[0] : INFINITY, t_pole = m > 0 ? poles[0] : INFINITY;
  if (t_pole < t_fold) {
    L->t_lim = t_pole;
    L->rho_lim = INFINITY;
    return SENSIM_OK;
  }
  L->t_lim = t_fold;
  if (isfinite(t_fold)) L->rho_lim = sensim__rad_g(L, sqrt(t_fold), NULL);
  if (n > 0 && !(rho_ext * FOLD_MARGIN <= L->rho_lim))
    return fail_fold(L, "r (1 + k1 r^2 + k2 r^4 + k3 r^6) / (1 + k4 r^2 + k5 r^4 + k6 r^6)", sqrt(t_fold),
                     rho_ext, cu, cv);
  return SENSIM_OK;
}

/* The division model (A. W. Fitzgibbon, "Simultaneous linear estimation of
 * multiple view geometry and lens distortion", CVPR 2001): the undistorted
 * point is x_d / (1 + lambda |x_d|^2), here on normalised coordinates.
 * The distorted radius rho of an undistorted r solves
 * r = rho / (1 + lambda rho^2). lambda > 0 (pincushion): that map increases
 * only up to rho = 1 / sqrt(lambda), r = 1 / (2 sqrt(lambda)), which must
 * lie beyond the image (with the 1 % margin); lambda < 0 (barrel): the ray
 * (xn, yn, 1 + lambda rho^2) reaches 90 degrees off the axis at
 * rho = 1 / sqrt(-lambda), beyond which pixels see nothing, as beyond a
 * fisheye's field. */
static sensim_status init_division(const sensim_camera_params *p, lens *L, double rho_ext, int cu, int cv) {
  L->lambda = p->dist[0];
  if (L->lambda > 0) {
    L->rho_lim = 1 / sqrt(L->lambda);
    L->t_lim = 0.25 / L->lambda;
    if (!(rho_ext * FOLD_MARGIN <= L->rho_lim))
      return sensim__fail(SENSIM_EINVAL,
                          "distortion is not invertible over the image: the division model with lambda = %g "
                          "folds over at distorted radius 1/sqrt(lambda) = %g (%.1f px from the principal "
                          "point), inside the image, whose corner (%.1f, %.1f) lies %.1f px from it",
                          L->lambda, L->rho_lim, L->rho_lim * fmax(L->sx, L->sy), L->ext[cu], L->ext[2 + cv],
                          rho_ext * fmax(L->sx, L->sy));
  } else if (L->lambda < 0) {
    L->rho_lim = 1 / sqrt(-L->lambda);
  }
  return SENSIM_OK;
}

/* Check every parameter and derive the model's constants. */
sensim_status sensim__lens_init(const sensim_camera_params *p, lens *L) {
  memset(L, 0, sizeof *L);
  if (p->width < 1 || p->height < 1)
    return sensim__fail(SENSIM_EINVAL, "camera size %ux%u must be at least 1x1", p->width, p->height);
  if (!(p->hfov > 0 && p->hfov < M_PI)) return sensim__fail(SENSIM_EINVAL, "hfov %g rad must be in (0, pi)", p->hfov);
  if ((unsigned)p->lens > SENSIM_LENS_DIVISION)
    return sensim__fail(SENSIM_EINVAL, "unknown lens model %d", (int)p->lens);
  /* fy, cx and cy are read only with fx set, but a NaN or an infinity is
   * never a deliberate value: refused wherever it is. */
  if (!isfinite(p->fx) || !isfinite(p->fy) || !isfinite(p->cx) || !isfinite(p->cy))
    return sensim__fail(SENSIM_EINVAL, "intrinsics fx %g, fy %g, cx %g, cy %g must be finite (0 for the defaults)",
                        p->fx, p->fy, p->cx, p->cy);
  L->model = p->lens;
  L->W = p->width;
  L->H = p->height;
  if (p->fx == 0) {
    L->sx = L->sy = 0.5 * L->W / tan(0.5 * p->hfov);
    L->cx = 0.5 * (L->W - 1);
    L->cy = 0.5 * (L->H - 1);
  } else {
    if (!(p->fx > 0 && isfinite(p->fx))) return sensim__fail(SENSIM_EINVAL, "fx %g must be finite and > 0", p->fx);
    if (p->fy == 0) return sensim__fail(SENSIM_EINVAL, "fy is 0 while fx = %g is set: give both", p->fx);
    if (!(p->fy > 0 && isfinite(p->fy))) return sensim__fail(SENSIM_EINVAL, "fy %g must be finite and > 0", p->fy);
    if (!isfinite(p->cx) || !isfinite(p->cy))
      return sensim__fail(SENSIM_EINVAL, "principal point (%g, %g) must be finite", p->cx, p->cy);
    /* Real principal points sit near the image centre; shift lenses and
     * cropped regions of interest move them by a fraction of the image.
     * Farther out, the distortion tables span radii the image never
     * uses and take seconds to build (a fuzzed cy = 1.2e64 took 10 s to
     * be refused), so the point must lie within one image size of it. */
    if (!(p->cx >= -(double)L->W && p->cx <= 2.0 * L->W && p->cy >= -(double)L->H && p->cy <= 2.0 * L->H))
      return sensim__fail(SENSIM_EINVAL,
                          "principal point (cx %g, cy %g) must lie within one image size of the %gx%g image "
                          "(cx in [-%g, %g], cy in [-%g, %g])",
                          p->cx, p->cy, L->W, L->H, L->W, 2.0 * L->W, L->H, 2.0 * L->H);
    L->sx = p->fx, L->sy = p->fy, L->cx = p->cx, L->cy = p->cy;
  }
  for (int i = 0; i < 8; i++)
    if (!isfinite(p->dist[i])) return sensim__fail(SENSIM_EINVAL, "dist[%d] = %g is not finite", i, p->dist[i]);
  for (int i = 0; i < 3; i++)
    if (!isfinite(p->vignetting_poly[i]))
      return sensim__fail(SENSIM_EINVAL, "vignetting_poly[%d] = %g is not finite", i, p->vignetting_poly[i]);
  /* Real lateral colour is well under 1 %; the bound keeps the tables small. */
  for (int i = 0; i < 3; i++) {
    double s = p->lateral_ca[i] == 0 ? 1.0 : p->lateral_ca[i];
    if (!(s >= 0.5 && s <= 2.0))
      return sensim__fail(SENSIM_EINVAL, "lateral_ca[%d] = %g must be in [0.5, 2] (0: none)", i, p->lateral_ca[i]);
    L->ca[i] = s;
  }
  /* Every channel's base-model pixels: the image scaled by 1 / s_c. */
  double img[4] = {-0.5, L->W - 0.5, -0.5, L->H - 0.5};
  memcpy(L->ext, img, sizeof img);
  for (int i = 0; i < 3; i++) {
    L->ext[0] = fmin(L->ext[0], L->cx + (img[0] - L->cx) / L->ca[i]);
    L->ext[1] = fmax(L->ext[1], L->cx + (img[1] - L->cx) / L->ca[i]);
    L->ext[2] = fmin(L->ext[2], L->cy + (img[2] - L->cy) / L->ca[i]);
    L->ext[3] = fmax(L->ext[3], L->cy + (img[3] - L->cy) / L->ca[i]);
  }
  if (L->model == SENSIM_LENS_FOV) L->sx = L->sy = 0.5 * L->W; /* x1 in [-1, 1] across the width */
  L->isx = 1.0 / L->sx;
  L->isy = 1.0 / L->sy;
  double rho_ext = 0;
  int cu = 0, cv = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double r = hypot((L->ext[i] - L->cx) / L->sx, (L->ext[2 + j] - L->cy) / L->sy);
      if (r > rho_ext) rho_ext = r, cu = i, cv = j;
    }
  L->t_lim = INFINITY;
  L->rho_lim = INFINITY;
  if (L->model == SENSIM_LENS_FOV) {
    L->tanw = tan(0.5 * p->hfov);
    if (!(rho_ext * L->tanw < 0.5 * M_PI))
      return sensim__fail(SENSIM_EINVAL,
                          "FOV model undefined at image corner (%.1f, %.1f): r1 tan(w) = %g >= pi/2 (hfov %g rad "
                          "too wide for this image)",
                          L->ext[cu], L->ext[2 + cv], rho_ext * L->tanw, p->hfov);
    L->s = tan(L->tanw) / L->tanw;
  } else if (L->model == SENSIM_LENS_RATIONAL) {
    sensim_status rc = init_rational(p, L, rho_ext, cu, cv);
    if (rc) return rc;
  } else if (L->model == SENSIM_LENS_BROWN_CONRADY || L->model == SENSIM_LENS_KANNALA_BRANDT) {
    int kb = L->model == SENSIM_LENS_KANNALA_BRANDT;
    L->c[0] = p->dist[0], L->c[1] = p->dist[1];
    L->c[2] = kb ? p->dist[2] : p->dist[4];
    L->c[3] = kb ? p->dist[3] : 0;
    L->p1 = kb ? 0 : p->dist[2];
    L->p2 = kb ? 0 : p->dist[3];
    /* dg/dr as a polynomial in t = r^2; its first positive root is the fold. */
    double d[5] = {1, 3 * L->c[0], 5 * L->c[1], 7 * L->c[2], 9 * L->c[3]}, roots[4];
    double hi = kb ? 0.25 * M_PI * M_PI : root_bound(d, 4) * 2;
    int n = real_roots(d, 4, 0.0, hi, roots);
    L->t_lim = n > 0 ? roots[0] : (kb ? hi : INFINITY);
    if (isfinite(L->t_lim)) L->rho_lim = sensim__rad_g(L, sqrt(L->t_lim), NULL);
    if (n > 0 && !(rho_ext * FOLD_MARGIN <= L->rho_lim))
      return fail_fold(L, kb ? "theta_d(theta)" : "r (1 + k1 r^2 + k2 r^4 + k3 r^6)", sqrt(L->t_lim), rho_ext,
                       cu, cv);
  } else if (L->model == SENSIM_LENS_DIVISION) {
    sensim_status rc = init_division(p, L, rho_ext, cu, cv);
    if (rc) return rc;
  }
  return check_vignetting(p, L);
}

sensim_status sensim__optics_project(const sensim_camera_params *p, const double opt[3], double *u, double *v) {
  lens L;
  sensim_status rc = sensim__lens_init(p, &L);
  if (rc) return rc;
  double uu, vv;
  int why = sensim__lens_forward(&L, opt, &uu, &vv);
  if (why == 1)
    return sensim__fail(SENSIM_EINVAL, "point (optical x %g, y %g, z %g) is not in front of the lens", opt[0],
                        opt[1], opt[2]);
  if (why == 2)
    return sensim__fail(SENSIM_EINVAL,
                        "point (optical x %g, y %g, z %g) is beyond the lens's field (%s >= %g, where the "
                        "distortion folds over or theta reaches pi/2)",
                        opt[0], opt[1], opt[2], L.model == SENSIM_LENS_KANNALA_BRANDT ? "theta" : "r",
                        sqrt(L.t_lim));
  *u = uu;
  *v = vv;
  return SENSIM_OK;
}

sensim_status sensim__optics_unproject(const sensim_camera_params *p, double u, double v, double opt[3]) {
  lens L;
  sensim_status rc = sensim__lens_init(p, &L);
  if (rc) return rc;
  double o[3];
  if (!isfinite(u) || !isfinite(v)) return sensim__fail(SENSIM_EINVAL, "pixel (%g, %g) is not finite", u, v);
  if (!sensim__lens_inverse(&L, u, v, o))
    return sensim__fail(SENSIM_EINVAL,
                        "pixel (%g, %g) has no ray: beyond the fisheye's field (theta >= pi/2), the FOV model's "
                        "domain, or where the distortion is not invertible",
                        u, v);
  memcpy(opt, o, sizeof o);
  return SENSIM_OK;
}
