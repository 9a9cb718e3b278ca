/* sensors/camera_rain.h: rain streaks drawn over a camera's rendered
 * radiance (sensors/camera_rain.c; docs/weather.md). Not installed. */
#ifndef SENSIM_SENSORS_CAMERA_RAIN_H
#define SENSIM_SENSORS_CAMERA_RAIN_H

#include <stddef.h>
#include "sensim/camera.h"
#include "sensim/rng.h"

/* Terminal fall speed of a raindrop of diameter d_mm (mm), m/s (Atlas,
 * Srivastava & Sekhon 1973), 0 below the fit's zero (0.11 mm). */
double sensim__rain_fall_speed(double d_mm);
/* The farthest depth, m, at which a drop of d_mm is drawn by a camera of
 * focal length f_px (pixels) exposing for `exposure` s. */
double sensim__rain_zmax(double f_px, double exposure, double d_mm);
/* Expected number of drops drawn per frame in rain of `rate` mm/h. */
sensim_status sensim__rain_expected(const sensim_camera_params *cp, double rate, double *out);
/* The streak of a drop at optical-frame point p (m; x right, y down, z
 * forward) falling along the unit optical-frame direction `fall`: pixel
 * (uv[0], uv[1]) at the exposure's start, (uv[2], uv[3]) at its end. */
sensim_status sensim__rain_streak(const sensim_camera_params *cp, const double p[3], const double fall[3],
                                  double d_mm, double uv[4]);
/* Draw the streaks of one frame (rgb: width x height x 3 radiance, depth:
 * its depth plane or NULL) for a camera at `pose` in the world, its drops
 * from rng; *ndrops the drops drawn from the distribution (seen or not). */
sensim_status sensim__rain_draw(const sensim_camera_params *cp, double rate, const float sky[3], sensim_pose pose,
                                sensim_rng *rng, float *rgb, const float *depth, size_t *ndrops);

#endif
