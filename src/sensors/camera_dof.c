/* sensors/camera_dof.c: depth of field by a thin lens
 * (docs/camera_pipeline.md, "Depth of field").
 *
 * The lens model (optics.c) gives each sample its chief ray: the ray
 * through the centre of the lens. A thin lens focused at distance s images
 * the whole plane z_opt = s sharply, so every ray from the pixel's sample
 * point passes through the point F where the chief ray meets that plane;
 * the ray a sample traces leaves a uniformly drawn point of the aperture
 * disc (diameter A, in the plane through the lens centre perpendicular to
 * the optical axis) towards F. A point at axial distance d then spreads
 * over a disc of diameter, in pixels of focal length fx,
 *
 *     c = fx A |d - s| / (d s),
 *
 * which is the thin-lens circle of confusion c = A |d - s| / d * f / (s - f)
 * (sensor metres; S. F. Ray, Applied Photographic Optics, 3rd ed., 2002,
 * on depth of field) divided by the pixel pitch, because the sensor sits at
 * v = f s / (s - f) = fx * pitch behind a lens focused at s (1/f = 1/s + 1/v),
 * and f / (s - f) = v / s. The same relation gives the focal length from
 * the intrinsics, f = v s / (v + s), and the aperture A = f / N from the
 * f-number. This is the ray-tracing thin lens of R. L. Cook, T. Porter and
 * L. Carpenter, "Distributed ray tracing", SIGGRAPH 1984, and M. Pharr,
 * W. Jakob and G. Humphreys, Physically Based Rendering, 3rd ed., 6.2.3. */
#include <math.h>
#include "core/internal.h"
#include "sensors/camera_internal.h"
#include "sensors/optics_lens.h"

/* The paraxial focal length in pixels: the image scale at the principal
 * point (fx for every model whose radial map starts as g(r) = r; the FOV
 * model's is (W / 2) s / tan w, from theta = atan(tan(r1 tan w) / s)). */
static double paraxial_fx(const lens *L) {
  return L->model == SENSIM_LENS_FOV ? L->sx * L->s / L->tanw : L->sx;
}

sensim_status sensim__camera_dof_init(const sensim_camera_params *p, double *radius) {
  *radius = 0;
  if (!(p->f_number >= 0 && isfinite(p->f_number)))
    return sensim__fail(SENSIM_EINVAL, "camera f_number %g must be finite and >= 0 (0: no depth of field)",
                        p->f_number);
  if (!(p->aperture >= 0 && isfinite(p->aperture)))
    return sensim__fail(SENSIM_EINVAL, "camera aperture %g m must be finite and >= 0 (0: none)", p->aperture);
  if (p->f_number == 0 && p->aperture == 0) return SENSIM_OK;
  if (p->f_number > 0 && p->aperture > 0)
    return sensim__fail(SENSIM_EINVAL,
                        "camera f_number %g and aperture %g m are both set: give one (the aperture diameter "
                        "follows from the f-number)",
                        p->f_number, p->aperture);
  if (!(p->focus_distance > 0 && isfinite(p->focus_distance)))
    return sensim__fail(SENSIM_EINVAL, "camera focus_distance %g m must be finite and > 0 with depth of field",
                        p->focus_distance);
  if (p->aperture > 0) {
    *radius = 0.5 * p->aperture;
    return SENSIM_OK;
  }
  if (!(p->pixel_pitch > 0 && isfinite(p->pixel_pitch)))
    return sensim__fail(SENSIM_EINVAL, "camera pixel_pitch %g m must be finite and > 0 with f_number",
                        p->pixel_pitch);
  lens L;
  sensim_status rc = sensim__lens_init(p, &L);
  if (rc) return rc;
  double v = paraxial_fx(&L) * p->pixel_pitch, s = p->focus_distance;
  *radius = 0.5 * (v * s / (v + s)) / p->f_number;
  return SENSIM_OK;
}

/* Shirley and Chiu's concentric map of the unit square onto the unit disc
 * ("A low distortion map between disk and square", Journal of Graphics
 * Tools 2(3), 1997): uniform in, uniform out, and strata stay compact. */
static void concentric_disc(double a, double b, double *x, double *y) {
  a = 2 * a - 1, b = 2 * b - 1;
  if (a == 0 && b == 0) {
    *x = *y = 0;
    return;
  }
  double r, phi;
  if (fabs(a) > fabs(b)) r = a, phi = (M_PI / 4) * (b / a);
  else r = b, phi = M_PI / 2 - (M_PI / 4) * (a / b);
  *x = r * cos(phi);
  *y = r * sin(phi);
}

int sensim__camera_dof_ray(double radius, double focus, double la, double lb, double d[3], double o[3]) {
  /* A chief ray (nearly) parallel to the plane in focus meets it nowhere
   * useful: it keeps the pinhole ray. */
  if (!(d[0] > 1e-6)) return 0;
  double x, y;
  concentric_disc(la, lb, &x, &y);
  o[0] = 0, o[1] = radius * x, o[2] = radius * y;
  const double k = focus / d[0];
  double e[3] = {d[0] * k - o[0], d[1] * k - o[1], d[2] * k - o[2]};
  const double inv = 1.0 / sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  d[0] = e[0] * inv, d[1] = e[1] * inv, d[2] = e[2] * inv;
  return 1;
}
