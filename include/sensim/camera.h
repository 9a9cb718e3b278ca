/* sensim/camera.h: the camera sensor.
 *
 * The camera looks along its sensor frame's +X axis; image columns run
 * towards -Y (right) and rows towards -Z (down), row 0 on top. Each pixel is
 * the mean of `samples` jittered-stratified rays, each with its own time in
 * the exposure (the collection window), so motion blurs. Shading is Lambert
 * with point and directional lights, hard shadows and an ambient term; rays
 * that hit nothing see the world's background. The raw frame is linear RGB
 * (rgb_f32) with a depth plane (distance along the optical axis, m; 0 where
 * nothing was hit) and a label plane; use the "srgb8", "depth" and "labels"
 * filters to turn them into deliverable images.
 *
 * Default window: 0 (instantaneous exposure). */
#ifndef SENSIM_CAMERA_H
#define SENSIM_CAMERA_H

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_camera_params {
  uint32_t width;   /* pixels, >= 1 */
  uint32_t height;  /* pixels, >= 1 */
  double hfov;      /* horizontal field of view, rad, in (0, pi) */
  int samples;      /* rays per pixel, a perfect square is stratified n x n, >= 1 */
} sensim_camera_params;

/* Defaults: 640 x 480, hfov 90 deg, 4 samples. */
void sensim_camera_params_init(sensim_camera_params *p);

sensim_status sensim_camera_create(sensim_world *world, const sensim_sensor_params *sp,
                                   const sensim_camera_params *cp, sensim_sensor **out);

/* Pinhole projection of a point in the camera's sensor frame (X forward) to
 * pixel coordinates (u right, v down, pixel centres at +0.5). Returns
 * SENSIM_EINVAL for points at or behind the image plane. */
sensim_status sensim_camera_project(const sensim_camera_params *cp, sensim_vec3 p,
                                    double *u, double *v);

#ifdef __cplusplus
}
#endif
#endif
