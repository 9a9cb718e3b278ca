/* sensors/optics.h: camera lens models (pinhole, FOV, Brown-Conrady,
 * rational, Kannala-Brandt, division), their forward projection and
 * per-pixel inverse, and the illumination terms of the lens (vignetting).
 * Not installed. */
#ifndef SENSIM_SENSORS_OPTICS_H
#define SENSIM_SENSORS_OPTICS_H

#include "sensim/camera.h"

typedef struct sensim_optics sensim_optics;

/* Validate the lens part of `p` (intrinsics, distortion invertible over the
 * whole image, vignetting, aberration) and precompute the pixel-to-ray
 * inverse. SENSIM_EINVAL with a message naming the parameter on bad input. */
sensim_status sensim__optics_create(const sensim_camera_params *p, sensim_optics **out);
void sensim__optics_destroy(sensim_optics *o);

/* Direction (sensor frame, X forward; not necessarily unit) of the ray the
 * lens images at continuous pixel position (u, v) (OpenCV convention, see
 * camera.h) for colour channel c (0 R, 1 G, 2 B; channels differ only with
 * lateral chromatic aberration). Returns 0 where the lens sees nothing
 * (beyond a fisheye's field), 1 otherwise. Thread-safe; cheap enough to
 * call per ray (table lookup and interpolation). */
int sensim__optics_ray(const sensim_optics *o, double u, double v, int c, sensim_vec3 *dir);

/* Nonzero for a plain pinhole (no distortion, no chromatic aberration, no
 * vignetting): every ray is then (1, -(u - cx) / fx, -(v - cy) / fy) in the
 * sensor frame, with weight 1, which the renderer computes inline; k gets
 * cx, cy, 1 / fx, 1 / fy. */
int sensim__optics_pinhole(const sensim_optics *o, double k[4]);

/* Nonzero when lateral chromatic aberration makes channels differ. */
int sensim__optics_has_ca(const sensim_optics *o);

/* Relative illumination at (u, v): cos^4 of the ray's angle off the optical
 * axis (when vignetting is on) times the radial polynomial; 1 without. */
float sensim__optics_vignetting(const sensim_optics *o, double u, double v);

/* The lens model computed directly, without tables, after the checks of
 * sensim__optics_create (parameters and radial invertibility): pixel of an
 * optical-frame direction (x right, y down, z forward), and the direction
 * of a pixel. For the public sensim_camera_project / _pixel_ray. */
sensim_status sensim__optics_project(const sensim_camera_params *p, const double opt[3], double *u, double *v);
sensim_status sensim__optics_unproject(const sensim_camera_params *p, double u, double v, double opt[3]);

#endif
