/* sensors/optics_lens.h: the lens models computed directly (optics_lens.c),
 * shared with the precomputed inverse (optics.c). Not installed. */
#ifndef SENSIM_SENSORS_OPTICS_LENS_H
#define SENSIM_SENSORS_OPTICS_LENS_H

#include "sensors/optics.h"

/* Reprojection tolerances of the precomputed inverse, pixels, and the
 * margin by which a radial map must stay monotonic beyond the image. */
#define RADIAL_TOL_PX 2e-5
#define GRID_TOL_PX 1e-4
#define FOLD_MARGIN 1.01
#define MAX_ERR_PX 5e-4

typedef struct lens {
  sensim_lens_model model;
  double W, H;           /* image size, pixels */
  double sx, sy, cx, cy; /* pixels per unit normalised coordinate; principal point, pixels */
  double isx, isy;       /* 1 / sx, 1 / sy */
  double c[4];           /* radial map g(r) = r (1 + c0 r^2 + c1 r^4 + c2 r^6 + c3 r^8) / D(r^2) */
  double q[3];           /* rational model's denominator D(t) = 1 + q0 t + q1 t^2 + q2 t^3
                            (k4 k5 k6); 0 for the others (D = 1) */
  int has_q;             /* any q nonzero */
  double p1, p2;         /* Brown-Conrady and rational tangential coefficients */
  double lambda;         /* division model: ray (xn, yn, 1 + lambda (xn^2 + yn^2)) */
  double tanw, s;        /* FOV: tan(hfov / 2), tan(tan w) / tan w */
  double t_lim;          /* g increases for r^2 < t_lim (first fold or (pi/2)^2); may be inf */
  double rho_lim;        /* g(sqrt(t_lim)): largest distorted radius with an inverse */
  double ca[3];          /* per-channel radial scale, 1: none */
  double ext[4];         /* u0 u1 v0 v1: pixel rectangle every channel's rays come from */
} lens;

/* Radial map g(r) and its derivative *dg. */
double sensim__rad_g(const lens *L, double r, double *dg);
/* The radial part of the inverse at t = xn^2 + yn^2: the ray is
 * (A xn, A yn, C) in the optical frame; 0 outside the lens's field. */
int sensim__radial_eval(const lens *L, double t, double *A, double *C);
/* The same, for the Brown-Conrady, rational and Kannala-Brandt models
 * given *r_io, an undistorted radius (theta for Kannala-Brandt) whose
 * distorted radius is at most sqrt(t) (0 if none is known), which it
 * replaces with the one of sqrt(t): a table built in increasing t
 * solves each node from the last. The other models ignore *r_io. */
int sensim__radial_eval_from(const lens *L, double t, double *r_io, double *A, double *C);
/* Nonzero for the models with OpenCV's polynomial 2-D map: Brown-Conrady
 * and rational (whose radial factor is a ratio of polynomials). */
int sensim__lens_is_bc(const lens *L);
/* Brown-Conrady's (or the rational model's) full 2-D map of normalised
 * coordinates and its Jacobian. */
void sensim__bc_map(const lens *L, double x, double y, double *xd, double *yd, double J[4]);
/* Newton inverse of sensim__bc_map; 0 if it does not converge. */
int sensim__bc_newton(const lens *L, double xd, double yd, double *x, double *y);
/* Pixel of an optical-frame direction; 0 where the lens cannot image it. */
int sensim__lens_forward(const lens *L, const double o[3], double *u, double *v);
/* Optical-frame direction of a pixel; 0 outside the lens's field. */
int sensim__lens_inverse(const lens *L, double u, double v, double o[3]);
/* Validate the camera parameters' lens part and fill L. */
sensim_status sensim__lens_init(const sensim_camera_params *p, lens *L);

#endif
