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
 *   rational       OpenCV cv::projectPoints with CALIB_RATIONAL_MODEL: as Brown-Conrady
 *                  with the radial factor (1 + k1 r^2 + k2 r^4 + k3 r^6) /
 *                  (1 + k4 r^2 + k5 r^4 + k6 r^6); dist = k1 k2 p1 p2 k3 k4 k5 k6.
 *   division       Fitzgibbon (CVPR 2001) on normalised coordinates: the pixel's ray
 *                  is (xn, yn, 1 + lambda (xn^2 + yn^2)) (closed form, no table);
 *                  forward rho = 2 r / (1 + sqrt(1 - 4 lambda r^2)), r = |(x/z, y/z)|.
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
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/optics_lens.h"

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
  if (L->model == SENSIM_LENS_DIVISION) return sensim__lens_inverse(L, u, v, opt); /* closed form */
  double t = xn * xn + yn * yn;
  if (t >= o->t_field) return 0;
  double f = t * o->inv_dt;
  if (!(f <= (double)(o->nr - 1))) return sensim__lens_inverse(L, u, v, opt);
  size_t i = (size_t)f;
  if (i > o->nr - 2) i = o->nr - 2;
  double a = f - (double)i;
  const double *r = o->rad + 2 * i;
  double A = r[0] + a * (r[2] - r[0]), C = r[1] + a * (r[3] - r[1]);
  double x = A * xn, y = A * yn;
  if (o->grid) {
    double gu = (u - L->ext[0]) * o->inv_hu, gv = (v - L->ext[2]) * o->inv_hv;
    if (!(gu >= 0 && gv >= 0 && gu <= o->gnu - 1 && gv <= o->gnv - 1)) return sensim__lens_inverse(L, u, v, opt);
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
      sensim__bc_map(L, x, y, &fx, &fy, J);
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
  double dt = t_end / (double)(nr - 1), r = 0;
  for (size_t i = 0; i < nr; i++) {
    /* The last node may sit on the fisheye's field edge, where the inverse ends. */
    double t = i + 1 < nr ? (double)i * dt : t_end * (1 - 1e-13);
    if (!sensim__radial_eval_from(L, t, &r, &rad[2 * i], &rad[2 * i + 1])) {
      free(rad);
      return sensim__fail(SENSIM_EINVAL, "lens inverse undefined at normalised radius %g", sqrt(t));
    }
  }
  double worst = 0, scale = fmax(L->sx, L->sy);
  for (size_t i = 0; i + 1 < nr; i++) {
    double rho = sqrt((i + 0.5) * dt);
    double A = 0.5 * (rad[2 * i] + rad[2 * i + 2]), C = 0.5 * (rad[2 * i + 1] + rad[2 * i + 3]), back;
    if (sensim__lens_is_bc(L)) back = sensim__rad_g(L, A * rho, NULL);
    else if (L->model == SENSIM_LENS_KANNALA_BRANDT) back = sensim__rad_g(L, atan2(A * rho, C), NULL);
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
  /* Sized in double first: a wide image at a fine spacing would overflow
   * int, and a grid beyond memory is refused rather than allocated. */
  double du = ceil((L->ext[1] - L->ext[0]) / h) + 1, dv = ceil((L->ext[3] - L->ext[2]) / h) + 1;
  char what[96];
  snprintf(what, sizeof what, "a %.0fx%.0f lens grid", du, dv);
  sensim_status rc = sensim__check_bytes(2.0 * du * dv * sizeof(float), what);
  if (rc) return rc;
  if (du > INT_MAX || dv > INT_MAX) return sensim__fail(SENSIM_EINVAL, "%s is too wide", what);
  int nu = (int)du, nv = (int)dv;
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
      if (!ok || !sensim__bc_newton(L, xn, yn, &x, &y)) {
        free(g);
        return sensim__fail(SENSIM_EINVAL,
                            "distortion is not invertible over the image near pixel (%.1f, %.1f): Newton on the "
                            "%s map does not converge to a point with positive Jacobian",
                            u, v, L->model == SENSIM_LENS_RATIONAL ? "rational" : "Brown-Conrady");
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
      double e = table_ray(o, u, v, r) && !sensim__lens_forward(L, r, &pu, &pv) ? hypot(pu - u, pv - v) : INFINITY;
      if (!(e <= worst)) worst = e, *wu = u, *wv = v;
    }
  return worst;
}

sensim_status sensim__optics_create(const sensim_camera_params *p, sensim_optics **out) {
  if (!p || !out) return sensim__fail(SENSIM_EINVAL, "sensim__optics_create: NULL argument");
  lens L;
  sensim_status rc = sensim__lens_init(p, &L);
  if (rc) return rc;
  sensim_optics *o = calloc(1, sizeof *o);
  if (!o) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  o->L = L;
  o->vign = p->vignetting != 0;
  memcpy(o->vpoly, p->vignetting_poly, sizeof o->vpoly);
  o->inv_hd2 = 4.0 / (L.W * L.W + L.H * L.H);
  o->has_ca = L.ca[0] != 1 || L.ca[1] != 1 || L.ca[2] != 1;
  o->t_field = L.model == SENSIM_LENS_KANNALA_BRANDT ? L.rho_lim * L.rho_lim : INFINITY;
  if (L.model != SENSIM_LENS_PINHOLE && L.model != SENSIM_LENS_DIVISION) {
    double t_end = 0;
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) {
        double xn = (L.ext[i] - L.cx) / L.sx, yn = (L.ext[2 + j] - L.cy) / L.sy;
        t_end = fmax(t_end, xn * xn + yn * yn);
      }
    /* A little beyond the farthest corner, so rounding never leaves the table. */
    t_end = fmin(t_end * (1 + 1e-9), o->t_field);
    double err = INFINITY, wu = 0, wv = 0;
    /* Linear interpolation errs as the node spacing squared: after a
     * table misses the tolerance, the next size is the first doubling
     * predicted to meet it (at most the largest), not every doubling in
     * turn, so a lens whose inverse cannot be tabulated is refused after
     * about 2^20 node solves rather than twice that. */
    const size_t nr_max = ((size_t)1 << 20) + 1;
    for (size_t nr = 4097; !rc && err > RADIAL_TOL_PX && nr <= nr_max;) {
      rc = build_radial(o, t_end, nr, &err);
      if (rc || nr == nr_max) break;
      double shrink = 0.25;
      do nr = 2 * nr - 1, shrink *= 0.25;
      while (nr < nr_max && err * shrink > RADIAL_TOL_PX);
    }
    if (!rc && err > MAX_ERR_PX)
      rc = sensim__fail(SENSIM_EINVAL,
                        "distortion is too close to folding over inside the image for its inverse to be "
                        "tabulated to %g px (%g px)",
                        MAX_ERR_PX, err);
    if (!rc && sensim__lens_is_bc(&L) && (L.p1 != 0 || L.p2 != 0)) {
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

int sensim__optics_pinhole(const sensim_optics *o, double k[4]) {
  const lens *L = &o->L;
  k[0] = L->cx, k[1] = L->cy, k[2] = L->isx, k[3] = L->isy;
  return L->model == SENSIM_LENS_PINHOLE && !o->has_ca && !o->vign && o->vpoly[0] == 0 && o->vpoly[1] == 0 &&
         o->vpoly[2] == 0;
}

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
