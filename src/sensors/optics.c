/* sensors/optics.c: lens models, their forward projection and per-pixel
 * inverse, vignetting and lateral chromatic aberration (docs/camera_pipeline.md,
 * "Optics").
 *
 * Pixels follow OpenCV (camera.h): centres at integers. The optical frame is
 * x right, y down, z forward (z_opt = X, x_opt = -Y, y_opt = -Z of the sensor
 * frame). Normalised image coordinates are xn = (u - cx) / sx, yn = (v - cy) / sy,
 * with (sx, sy) = (fx, fy), except for the FOV model where sx = sy = W / 2.
 *
 *   pinhole        u = fx x/z + cx, v = fy y/z + cy.
 *   FOV            the single-spherical-lens wide-angle model, w = hfov / 2:
 *                  r1 = |(xn, yn)|, r2 = tan(r1 tan w) / tan w, s = tan(tan w) / tan w;
 *                  the pixel's ray passes through the pinhole image point
 *                  (xn, yn) r2 / (r1 s), i.e. tan(theta) = tan(r1 tan w) / s with
 *                  theta the angle off the axis. Defined where r1 tan w < pi/2.
 *                  At r1 = 1 (the left and right image edges) theta = w.
 *   Brown-Conrady  OpenCV cv::projectPoints: x' = x/z, y' = y/z, r^2 = x'^2 + y'^2,
 *                  x'' = x'(1 + k1 r^2 + k2 r^4 + k3 r^6) + 2 p1 x'y' + p2 (r^2 + 2x'^2),
 *                  y'' = y'(...) + p1 (r^2 + 2y'^2) + 2 p2 x'y', u = fx x'' + cx, v = fy y'' + cy.
 *   Kannala-Brandt OpenCV cv::fisheye::projectPoints with alpha = 0 (Kannala and
 *                  Brandt, IEEE TPAMI 28(8), 2006): theta = atan(r), r = |(x/z, y/z)|,
 *                  theta_d = theta (1 + k1 theta^2 + k2 theta^4 + k3 theta^6 + k4 theta^8),
 *                  (x', y') = (theta_d / r) (x/z, y/z). Field: theta < pi/2 (OpenCV's
 *                  atan(r) cannot image z <= 0).
 *
 * The radial maps g(r) = r (1 + c1 r^2 + ...) of Brown-Conrady and
 * Kannala-Brandt must increase up to every radius the image reaches (plus
 * 1 %); the first zero of g' (a fold) also ends the field the forward model
 * accepts. Inverse, precomputed at create: a table over t = xn^2 + yn^2 of
 * the radial inverse (Newton on g; closed form for FOV), and for
 * Brown-Conrady's tangential part a 2-D grid of the residual (Newton on the
 * full map, Jacobian determinant > 0 at every node), both interpolated
 * linearly. Each is refined until the reprojection error measured midway
 * between its nodes is below 2e-5 px (radial) or 1e-4 px (grid; at 1 px
 * spacing and below one Newton step per ray may finish the lookup); a lens whose error
 * stays above 5e-4 px is rejected as too close to folding over.
 *
 * Lateral chromatic aberration (per-channel radial scale s_c, Kingslake and
 * Johnson, Lens Design Fundamentals, 2nd ed., 2010, ch. 6): channel c images
 * at pixel (u, v) the ray the base model images at
 * (cx + (u - cx) / s_c, cy + (v - cy) / s_c), so the channel's image of any
 * point is the base image scaled by s_c about the principal point (s_c > 1:
 * farther from the centre).
 *
 * Vignetting: cos^4 of the ray's angle off the axis (natural fall-off of a
 * lens whose exit pupil is much smaller than its distance to the sensor;
 * S. F. Ray, Applied Photographic Optics, 3rd ed., 2002, sec. 29; D. A. Kerr,
 * "Derivation of the cosine fourth law for falloff of illuminance across a
 * camera image", 2007), times 1 + a1 r^2 + a2 r^4 + a3 r^6 with r the distance
 * from the principal point over the half diagonal sqrt(W^2 + H^2) / 2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/optics.h"

#define RADIAL_TOL_PX 2e-5
#define GRID_TOL_PX 1e-4
#define FOLD_MARGIN 1.01
#define MAX_ERR_PX 5e-4

typedef struct lens {
  sensim_lens_model model;
  double W, H;           /* image size, pixels */
  double sx, sy, cx, cy; /* pixels per unit normalised coordinate; principal point, pixels */
  double isx, isy;       /* 1 / sx, 1 / sy */
  double c[4];           /* radial map g(r) = r (1 + c0 r^2 + c1 r^4 + c2 r^6 + c3 r^8) */
  double p1, p2;         /* Brown-Conrady tangential coefficients */
  double tanw, s;        /* FOV: tan(hfov / 2), tan(tan w) / tan w */
  double t_lim;          /* g increases for r^2 < t_lim (first fold or (pi/2)^2); may be inf */
  double rho_lim;        /* g(sqrt(t_lim)): largest distorted radius with an inverse */
  double ca[3];          /* per-channel radial scale, 1: none */
  double ext[4];         /* u0 u1 v0 v1: pixel rectangle every channel's rays come from */
} lens;

/* ---- radial maps ---- */

static double rad_g(const lens *L, double r, double *dg) {
  const double *c = L->c;
  double t = r * r;
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
 * inside a shrinking bracket (g increases there, g(0) = 0). */
static double rad_solve(const lens *L, double y) {
  double lo = 0, hi;
  if (isfinite(L->t_lim)) hi = sqrt(L->t_lim);
  else
    for (hi = fmax(1.0, 2 * y); rad_g(L, hi, NULL) < y && hi < 1e150;) hi *= 2;
  double r = fmin(y, 0.5 * (lo + hi));
  for (int it = 0; it < 200; it++) {
    double dg, f = rad_g(L, r, &dg) - y;
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
static int radial_eval(const lens *L, double t, double *A, double *C) {
  double rho = sqrt(t);
  if (L->model == SENSIM_LENS_FOV) {
    double a = rho * L->tanw;
    if (!(a < 0.5 * M_PI)) return 0;
    double th = atan(tan(a) / L->s);
    *A = rho > 0 ? sin(th) / rho : L->tanw / L->s;
    *C = cos(th);
    return 1;
  }
  if (!(rho < L->rho_lim)) return 0;
  double r = rad_solve(L, rho);
  if (L->model == SENSIM_LENS_BROWN_CONRADY) {
    *A = rho > 0 ? r / rho : 1.0;
    *C = 1.0;
  } else { /* Kannala-Brandt: r is theta */
    *A = rho > 0 ? sin(r) / rho : 1.0;
    *C = cos(r);
  }
  return 1;
}

/* ---- Brown-Conrady 2-D map ---- */

static void bc_map(const lens *L, double x, double y, double *xd, double *yd, double J[4]) {
  const double k1 = L->c[0], k2 = L->c[1], k3 = L->c[2], p1 = L->p1, p2 = L->p2;
  double r2 = x * x + y * y;
  double R = 1 + r2 * (k1 + r2 * (k2 + r2 * k3)), dR = k1 + r2 * (2 * k2 + r2 * 3 * k3); /* dR/d(r^2) */
  *xd = x * R + 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
  *yd = y * R + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
  if (J) {
    J[0] = R + 2 * x * x * dR + 2 * p1 * y + 6 * p2 * x;
    J[1] = 2 * x * y * dR + 2 * p1 * x + 2 * p2 * y;
    J[2] = J[1];
    J[3] = R + 2 * y * y * dR + 6 * p1 * y + 2 * p2 * x;
  }
}

/* Undistorted (x, y) with bc_map(x, y) = (xd, yd), Newton from the guess in
 * (x, y); 1 when it converges inside the monotonic radius with det J > 0. */
static int bc_newton(const lens *L, double xd, double yd, double *x, double *y) {
  double X = *x, Y = *y, fx, fy, J[4];
  for (int it = 0; it < 50; it++) {
    bc_map(L, X, Y, &fx, &fy, J);
    double det = J[0] * J[3] - J[1] * J[2], ex = fx - xd, ey = fy - yd;
    if (!(det > 0)) return 0;
    double dx = (J[3] * ex - J[1] * ey) / det, dy = (J[0] * ey - J[2] * ex) / det;
    X -= dx;
    Y -= dy;
    if (fabs(dx) + fabs(dy) <= 1e-15 * (1 + fabs(X) + fabs(Y))) break;
  }
  bc_map(L, X, Y, &fx, &fy, J);
  if (!(hypot(fx - xd, fy - yd) <= 1e-12 * (1 + hypot(xd, yd)))) return 0;
  if (!(J[0] * J[3] - J[1] * J[2] > 0) || !(X * X + Y * Y < L->t_lim)) return 0;
  *x = X;
  *y = Y;
  return 1;
}

/* ---- direct forward and inverse ---- */

/* Pixel of the optical-frame point o: 0, 1 (cannot be imaged: z <= 0) or 2
 * (beyond the field: past a fold of the radial map). */
static int lens_forward(const lens *L, const double o[3], double *u, double *v) {
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
    if (!(r * r < L->t_lim)) return 2;
    bc_map(L, a, b, &xn, &yn, NULL);
    break;
  case SENSIM_LENS_KANNALA_BRANDT: {
    double th = atan(r);
    if (!(th * th < L->t_lim)) return 2;
    double k = r > 0 ? rad_g(L, th, NULL) / r : 1.0;
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
static int lens_inverse(const lens *L, double u, double v, double o[3]) {
  if (!isfinite(u) || !isfinite(v)) return 0;
  double xn = (u - L->cx) * L->isx, yn = (v - L->cy) * L->isy, A, C;
  if (L->model == SENSIM_LENS_PINHOLE) {
    o[0] = xn, o[1] = yn, o[2] = 1;
    return 1;
  }
  if (!radial_eval(L, xn * xn + yn * yn, &A, &C)) return 0;
  double x = A * xn, y = A * yn;
  if (L->model == SENSIM_LENS_BROWN_CONRADY && (L->p1 != 0 || L->p2 != 0) && !bc_newton(L, xn, yn, &x, &y))
    return 0;
  o[0] = x, o[1] = y, o[2] = C;
  return 1;
}

/* ---- validation ---- */

static sensim_status fail_fold(const lens *L, const char *what, double r_fold, double rho_ext, int cu, int cv) {
  double fold_px = rad_g(L, r_fold, NULL) * fmax(L->sx, L->sy);
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

/* Check every parameter and derive the model's constants. */
static sensim_status lens_init(const sensim_camera_params *p, lens *L) {
  memset(L, 0, sizeof *L);
  if (p->width < 1 || p->height < 1)
    return sensim__fail(SENSIM_EINVAL, "camera size %ux%u must be at least 1x1", p->width, p->height);
  if (!(p->hfov > 0 && p->hfov < M_PI)) return sensim__fail(SENSIM_EINVAL, "hfov %g rad must be in (0, pi)", p->hfov);
  if ((unsigned)p->lens > SENSIM_LENS_KANNALA_BRANDT)
    return sensim__fail(SENSIM_EINVAL, "unknown lens model %d", (int)p->lens);
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
    L->sx = p->fx, L->sy = p->fy, L->cx = p->cx, L->cy = p->cy;
  }
  for (int i = 0; i < 5; i++)
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
    if (isfinite(L->t_lim)) L->rho_lim = rad_g(L, sqrt(L->t_lim), NULL);
    if (n > 0 && !(rho_ext * FOLD_MARGIN <= L->rho_lim))
      return fail_fold(L, kb ? "theta_d(theta)" : "r (1 + k1 r^2 + k2 r^4 + k3 r^6)", sqrt(L->t_lim), rho_ext,
                       cu, cv);
  }
  return check_vignetting(p, L);
}

sensim_status sensim__optics_project(const sensim_camera_params *p, const double opt[3], double *u, double *v) {
  lens L;
  sensim_status rc = lens_init(p, &L);
  if (rc) return rc;
  double uu, vv;
  int why = lens_forward(&L, opt, &uu, &vv);
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
  sensim_status rc = lens_init(p, &L);
  if (rc) return rc;
  double o[3];
  if (!isfinite(u) || !isfinite(v)) return sensim__fail(SENSIM_EINVAL, "pixel (%g, %g) is not finite", u, v);
  if (!lens_inverse(&L, u, v, o))
    return sensim__fail(SENSIM_EINVAL,
                        "pixel (%g, %g) has no ray: beyond the fisheye's field (theta >= pi/2), the FOV model's "
                        "domain, or where the distortion is not invertible",
                        u, v);
  memcpy(opt, o, sizeof o);
  return SENSIM_OK;
}

/* ---- the precomputed inverse ---- */

struct sensim_optics {
  lens L;
  int vign;              /* cos^4 on */
  double vpoly[3];       /* a1 a2 a3 */
  double inv_hd2;        /* 1 / half diagonal^2, 1/px^2 */
  int has_ca;
  double *rad;           /* (A, C) at t = i dt, i < nr */
  size_t nr;
  double inv_dt;
  double t_field;        /* Kannala-Brandt: rho_lim^2, no ray at or beyond; else inf */
  float *grid;           /* Brown-Conrady tangential residual (dx, dy), gnu x gnv nodes */
  int gnu, gnv;
  double inv_hu, inv_hv;
  int polish;            /* one Newton step on the Brown-Conrady map after the lookup */
};

static int table_ray(const sensim_optics *o, double u, double v, double opt[3]) {
  const lens *L = &o->L;
  double xn = (u - L->cx) * L->isx, yn = (v - L->cy) * L->isy;
  if (L->model == SENSIM_LENS_PINHOLE) {
    opt[0] = xn, opt[1] = yn, opt[2] = 1;
    return isfinite(xn) && isfinite(yn);
  }
  double t = xn * xn + yn * yn;
  if (t >= o->t_field) return 0;
  double f = t * o->inv_dt;
  if (!(f <= (double)(o->nr - 1))) return lens_inverse(L, u, v, opt);
  size_t i = (size_t)f;
  if (i > o->nr - 2) i = o->nr - 2;
  double a = f - (double)i;
  const double *r = o->rad + 2 * i;
  double A = r[0] + a * (r[2] - r[0]), C = r[1] + a * (r[3] - r[1]);
  double x = A * xn, y = A * yn;
  if (o->grid) {
    double gu = (u - L->ext[0]) * o->inv_hu, gv = (v - L->ext[2]) * o->inv_hv;
    if (!(gu >= 0 && gv >= 0 && gu <= o->gnu - 1 && gv <= o->gnv - 1)) return lens_inverse(L, u, v, opt);
    int iu = (int)gu, iv = (int)gv;
    if (iu > o->gnu - 2) iu = o->gnu - 2;
    if (iv > o->gnv - 2) iv = o->gnv - 2;
    double bu = gu - iu, bv = gv - iv;
    const float *g0 = o->grid + 2 * ((size_t)iv * o->gnu + iu), *g1 = g0 + 2 * o->gnu;
    for (int k = 0; k < 2; k++) {
      double d = (1 - bv) * ((1 - bu) * g0[k] + bu * g0[2 + k]) + bv * ((1 - bu) * g1[k] + bu * g1[2 + k]);
      if (k == 0) x += d;
      else y += d;
    }
    if (o->polish) {
      double fx, fy, J[4];
      bc_map(L, x, y, &fx, &fy, J);
      double det = J[0] * J[3] - J[1] * J[2], ex = fx - xn, ey = fy - yn;
      if (det > 0) {
        x -= (J[3] * ex - J[1] * ey) / det;
        y -= (J[0] * ey - J[2] * ex) / det;
      }
    }
  }
  opt[0] = x, opt[1] = y, opt[2] = C;
  return 1;
}

/* Radial table with nr nodes over [0, t_end]; returns the largest error
 * (px) of the distorted radius it reproduces midway between nodes. */
static sensim_status build_radial(sensim_optics *o, double t_end, size_t nr, double *err) {
  const lens *L = &o->L;
  double *rad = malloc(2 * nr * sizeof *rad);
  if (!rad) return sensim__fail(SENSIM_ENOMEM, "out of memory for a %zu-entry lens table", nr);
  double dt = t_end / (double)(nr - 1);
  for (size_t i = 0; i < nr; i++) {
    /* The last node may sit on the fisheye's field edge, where the inverse ends. */
    double t = i + 1 < nr ? (double)i * dt : t_end * (1 - 1e-13);
    if (!radial_eval(L, t, &rad[2 * i], &rad[2 * i + 1])) {
      free(rad);
      return sensim__fail(SENSIM_EINVAL, "lens inverse undefined at normalised radius %g", sqrt(t));
    }
  }
  double worst = 0, scale = fmax(L->sx, L->sy);
  for (size_t i = 0; i + 1 < nr; i++) {
    double rho = sqrt((i + 0.5) * dt);
    double A = 0.5 * (rad[2 * i] + rad[2 * i + 2]), C = 0.5 * (rad[2 * i + 1] + rad[2 * i + 3]), back;
    if (L->model == SENSIM_LENS_BROWN_CONRADY) back = rad_g(L, A * rho, NULL);
    else if (L->model == SENSIM_LENS_KANNALA_BRANDT) back = rad_g(L, atan2(A * rho, C), NULL);
    else back = atan(A * rho / C * L->s) / L->tanw;
    worst = fmax(worst, fabs(back - rho) * scale);
  }
  free(o->rad);
  o->rad = rad;
  o->nr = nr;
  o->inv_dt = 1.0 / dt;
  *err = worst;
  return SENSIM_OK;
}

/* Brown-Conrady tangential residual on a grid of spacing about h px over ext. */
static sensim_status build_grid(sensim_optics *o, double h) {
  const lens *L = &o->L;
  int nu = (int)ceil((L->ext[1] - L->ext[0]) / h) + 1, nv = (int)ceil((L->ext[3] - L->ext[2]) / h) + 1;
  double hu = (L->ext[1] - L->ext[0]) / (nu - 1), hv = (L->ext[3] - L->ext[2]) / (nv - 1);
  float *g = malloc(2 * (size_t)nu * nv * sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "out of memory for a %dx%d lens grid", nu, nv);
  free(o->grid);
  o->grid = NULL; /* table_ray below gives the radial part alone */
  for (int j = 0; j < nv; j++)
    for (int i = 0; i < nu; i++) {
      double u = L->ext[0] + i * hu, v = L->ext[2] + j * hv, r[3], x, y;
      if (j == nv - 1) v = L->ext[3];
      if (i == nu - 1) u = L->ext[1];
      double xn = (u - L->cx) * L->isx, yn = (v - L->cy) * L->isy;
      int ok = table_ray(o, u, v, r);
      x = r[0], y = r[1];
      if (!ok || !bc_newton(L, xn, yn, &x, &y)) {
        free(g);
        return sensim__fail(SENSIM_EINVAL,
                            "distortion is not invertible over the image near pixel (%.1f, %.1f): Newton on the "
                            "Brown-Conrady map does not converge to a point with positive Jacobian",
                            u, v);
      }
      /* Residuals are small, so float keeps them to ~1e-8 of a pixel. */
      g[2 * ((size_t)j * nu + i)] = (float)(x - r[0]);
      g[2 * ((size_t)j * nu + i) + 1] = (float)(y - r[1]);
    }
  o->grid = g;
  o->gnu = nu, o->gnv = nv;
  o->inv_hu = 1.0 / hu, o->inv_hv = 1.0 / hv;
  return SENSIM_OK;
}

/* Largest reprojection error (px) of table rays at the grid's cell centres,
 * where bilinear interpolation errs most, and the pixel where it occurs. */
static double grid_error(const sensim_optics *o, double *wu, double *wv) {
  const lens *L = &o->L;
  double hu = 1.0 / o->inv_hu, hv = 1.0 / o->inv_hv, worst = 0;
  for (int j = 0; j + 1 < o->gnv; j++)
    for (int i = 0; i + 1 < o->gnu; i++) {
      double u = L->ext[0] + (i + 0.5) * hu, v = L->ext[2] + (j + 0.5) * hv, r[3], pu, pv;
      double e = table_ray(o, u, v, r) && !lens_forward(L, r, &pu, &pv) ? hypot(pu - u, pv - v) : INFINITY;
      if (!(e <= worst)) worst = e, *wu = u, *wv = v;
    }
  return worst;
}

sensim_status sensim__optics_create(const sensim_camera_params *p, sensim_optics **out) {
  if (!p || !out) return sensim__fail(SENSIM_EINVAL, "sensim__optics_create: NULL argument");
  lens L;
  sensim_status rc = lens_init(p, &L);
  if (rc) return rc;
  sensim_optics *o = calloc(1, sizeof *o);
  if (!o) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  o->L = L;
  o->vign = p->vignetting != 0;
  memcpy(o->vpoly, p->vignetting_poly, sizeof o->vpoly);
  o->inv_hd2 = 4.0 / (L.W * L.W + L.H * L.H);
  o->has_ca = L.ca[0] != 1 || L.ca[1] != 1 || L.ca[2] != 1;
  o->t_field = L.model == SENSIM_LENS_KANNALA_BRANDT ? L.rho_lim * L.rho_lim : INFINITY;
  if (L.model != SENSIM_LENS_PINHOLE) {
    double t_end = 0;
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) {
        double xn = (L.ext[i] - L.cx) / L.sx, yn = (L.ext[2 + j] - L.cy) / L.sy;
        t_end = fmax(t_end, xn * xn + yn * yn);
      }
    /* A little beyond the farthest corner, so rounding never leaves the table. */
    t_end = fmin(t_end * (1 + 1e-9), o->t_field);
    double err = INFINITY, wu = 0, wv = 0;
    for (size_t nr = 4097; !rc && err > RADIAL_TOL_PX && nr <= ((size_t)1 << 20) + 1; nr = 2 * nr - 1)
      rc = build_radial(o, t_end, nr, &err);
    if (!rc && err > MAX_ERR_PX)
      rc = sensim__fail(SENSIM_EINVAL,
                        "distortion is too close to folding over inside the image for its inverse to be "
                        "tabulated to %g px (%g px)",
                        MAX_ERR_PX, err);
    if (!rc && L.model == SENSIM_LENS_BROWN_CONRADY && (L.p1 != 0 || L.p2 != 0)) {
      /* Halve the spacing until the error is met; from 1 px on (memory grows
       * as 1/h^2) also try one Newton step on the 2-D map per ray, which
       * squares the lookup's error where the inverse bends too fast for a
       * grid (near a fold). */
      for (double h = 8; !rc; h *= 0.5) {
        if ((rc = build_grid(o, h))) break;
        o->polish = 0;
        if ((err = grid_error(o, &wu, &wv)) <= GRID_TOL_PX) break;
        if (h <= 1) {
          o->polish = 1;
          if ((err = grid_error(o, &wu, &wv)) <= GRID_TOL_PX || h <= 0.5) break;
        }
      }
      if (!rc && err > MAX_ERR_PX)
        rc = sensim__fail(SENSIM_EINVAL,
                          "distortion is too close to folding over near pixel (%.1f, %.1f) for its inverse to be "
                          "tabulated to %g px (%g px)",
                          wu, wv, MAX_ERR_PX, err);
    }
  }
  if (rc) {
    sensim__optics_destroy(o);
    return rc;
  }
  *out = o;
  return SENSIM_OK;
}

void sensim__optics_destroy(sensim_optics *o) {
  if (!o) return;
  free(o->rad);
  free(o->grid);
  free(o);
}

int sensim__optics_ray(const sensim_optics *o, double u, double v, int c, sensim_vec3 *dir) {
  const lens *L = &o->L;
  if (o->has_ca && c >= 0 && c < 3) {
    u = L->cx + (u - L->cx) / L->ca[c];
    v = L->cy + (v - L->cy) / L->ca[c];
  }
  double r[3];
  if (!table_ray(o, u, v, r)) return 0;
  dir->x = r[2];
  dir->y = -r[0];
  dir->z = -r[1];
  return 1;
}

int sensim__optics_has_ca(const sensim_optics *o) { return o->has_ca; }

float sensim__optics_vignetting(const sensim_optics *o, double u, double v) {
  const lens *L = &o->L;
  double q = ((u - L->cx) * (u - L->cx) + (v - L->cy) * (v - L->cy)) * o->inv_hd2;
  double f = 1 + q * (o->vpoly[0] + q * (o->vpoly[1] + q * o->vpoly[2]));
  if (o->vign) {
    double r[3];
    if (!table_ray(o, u, v, r)) return 0.0f;
    double c2 = r[2] * r[2] / (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    f *= c2 * c2;
  }
  return (float)f;
}
