/* sensim/camera.h: the camera sensor.
 *
 * The camera looks along its sensor frame's +X axis; image columns run
 * towards -Y (right) and rows towards -Z (down), row 0 on top. Each pixel's
 * rays come from its lens model, inverted per pixel once per camera. Each
 * pixel is the mean of `samples` jittered-stratified rays, each at its own
 * time inside its row's exposure, so motion blurs and a rolling shutter
 * skews. Shading: Lambert diffuse plus Cook-Torrance GGX specular from
 * point, spot and directional lights with hard shadows, an ambient sky
 * term, mirror reflections, textures and fog (docs/models.md). Rays that hit
 * nothing see the world's background. With integrator = PATH the camera
 * path-traces instead: area, emissive and sky light, glass, soft shadows,
 * physically based radiance (docs/rendering.md). The raw frame is linear radiance
 * (rgb_f32) with depth, label and normal planes; filters turn it into what
 * a real camera delivers (image sensor, noise, colour filter array, ISP).
 *
 * Collection window: exposure_time + (height - 1) * line_time (the default,
 * and the least a sensor's window may be). The frame's capture time is the
 * end of the last row's exposure. */
#ifndef SENSIM_CAMERA_H
#define SENSIM_CAMERA_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sensim_lens_model {
  SENSIM_LENS_PINHOLE = 0,     /* ideal perspective projection */
  SENSIM_LENS_FOV,             /* single spherical lens wide-angle model; w = hfov / 2 */
  SENSIM_LENS_BROWN_CONRADY,   /* radial-tangential, OpenCV's k1 k2 p1 p2 k3 */
  SENSIM_LENS_KANNALA_BRANDT,  /* equidistant fisheye, OpenCV's fisheye k1 k2 k3 k4 */
  SENSIM_LENS_RATIONAL,        /* OpenCV's rational model (CALIB_RATIONAL_MODEL):
                                  k1 k2 p1 p2 k3 k4 k5 k6 */
  SENSIM_LENS_DIVISION         /* Fitzgibbon's one-parameter division model, lambda */
} sensim_lens_model;

/* How the camera computes the light reaching each pixel (docs/rendering.md). */
typedef enum sensim_integrator {
  SENSIM_INTEGRATOR_DIRECT = 0, /* direct light from point, spot and directional lights
                                   with hard shadows, the world's ambient term, mirror
                                   bounces, the background where rays escape */
  SENSIM_INTEGRATOR_PATH = 1    /* unidirectional path tracing: next-event estimation of
                                   every light and the environment, multiple importance
                                   sampling, Russian roulette; physically based radiance */
} sensim_integrator;

/* Pixel coordinates follow OpenCV (and ROS camera_info): u right, v down,
 * pixel (i, j) has its centre at (i, j), so the image spans
 * [-0.5, width - 0.5] x [-0.5, height - 0.5]. The optical frame of the
 * lens models (x right, y down, z forward) is the camera's sensor frame
 * turned: z_opt = X, x_opt = -Y, y_opt = -Z. */
typedef struct sensim_camera_params {
  uint32_t width;   /* pixels, >= 1 */
  uint32_t height;  /* pixels, >= 1 */
  double hfov;      /* horizontal field of view, rad, in (0, pi); sets the
                       intrinsics when fx == 0, and w of the FOV model */
  double fx, fy;    /* focal lengths, pixels; 0: fx = fy = (width / 2) / tan(hfov / 2) */
  double cx, cy;    /* principal point, pixels; used when fx != 0 (else the centre,
                       ((width - 1) / 2, (height - 1) / 2)); within one image
                       size of the image: cx in [-width, 2 width], cy in
                       [-height, 2 height] */
  sensim_lens_model lens;
  double dist[8];   /* Brown-Conrady: k1 k2 p1 p2 k3 (OpenCV order);
                       rational: k1 k2 p1 p2 k3 k4 k5 k6 (OpenCV order);
                       Kannala-Brandt: k1 k2 k3 k4; division: lambda (per
                       normalised radius squared, (u - cx) / fx); others: unused */
  int vignetting;   /* nonzero: cos^4 natural fall-off of illumination */
  double vignetting_poly[3]; /* extra relative illumination 1 + a1 r^2 + a2 r^4 + a3 r^6,
                               r = distance from the principal point / half diagonal */
  double lateral_ca[3]; /* per-channel (R, G, B) radial scale of the image point
                           (lateral chromatic aberration); 0 or 1: none */
  int samples;      /* rays per pixel; a perfect square is stratified n x n, >= 1 */
  double exposure_time; /* s, how long each row collects light (motion blur), >= 0 */
  double line_time; /* s between the starts of consecutive rows (rolling shutter);
                       0: global shutter */
  int depth_along_ray; /* depth plane: 0 distance along the optical axis, 1 along the ray */
  int max_bounces;  /* direct: mirror reflections traced per ray, 0..8; path:
                       scattering events per path, 0..64 (0: emitters and the
                       environment seen directly, 1: direct light only) */
  double fog_visibility; /* meteorological visibility, m (Koschmieder); 0: no fog */
  /* Depth of field, thin lens (docs/camera_pipeline.md): each sample's ray
   * leaves a point of the aperture disc and passes through the point of the
   * plane in focus its lens-model ray meets. Off with f_number = aperture = 0. */
  double f_number;       /* N = f / A, >= 0; 0: no depth of field (unless aperture is set) */
  double aperture;       /* aperture (entrance pupil) diameter A, m, >= 0; set instead of
                            f_number, not with it */
  double focus_distance; /* m, > 0 with depth of field: distance of the plane in focus,
                            along the optical axis from the lens */
  double pixel_pitch;    /* m, > 0: sensor pixel size; with f_number, the lens-to-sensor
                            distance is fx * pixel_pitch and f follows from the thin-lens
                            equation (default 3.45e-6) */
  sensim_integrator integrator; /* light transport (default DIRECT) */
} sensim_camera_params;

/* Defaults: 640 x 480, hfov 90 deg, pinhole, no vignetting or aberration,
 * 4 samples, exposure 0, global shutter, depth along the axis, 1 bounce,
 * no fog, no depth of field (pixel pitch 3.45 um). */
SENSIM_API void sensim_camera_params_init(sensim_camera_params *p);

SENSIM_API sensim_status sensim_camera_create(sensim_world *world, const sensim_sensor_params *sp,
                                   const sensim_camera_params *cp, sensim_sensor **out);

/* The parameters a camera sensor was created with. SENSIM_EINVAL if the
 * sensor is not a camera. */
SENSIM_API sensim_status sensim_camera_params_get(const sensim_sensor *sensor, sensim_camera_params *out);

/* Forward model: the pixel (u, v) at which the lens images a point given
 * in the camera's sensor frame (X forward). SENSIM_EINVAL for points the
 * lens cannot image (behind a pinhole or Brown-Conrady camera, beyond a
 * fisheye's field) and for invalid parameters. */
SENSIM_API sensim_status sensim_camera_project(const sensim_camera_params *cp, sensim_vec3 p, double *u, double *v);

/* Inverse model: the direction (sensor frame, unit) of the ray that the lens
 * images at pixel (u, v), found by inverting the forward model numerically
 * where it has no closed-form inverse. */
SENSIM_API sensim_status sensim_camera_pixel_ray(const sensim_camera_params *cp, double u, double v, sensim_vec3 *dir);

/* ---- the lens as a table (sensors/lens_table.c) ---------------------------
 * The per-pixel ray table a camera traces with, built from its parameters
 * once, for code that needs the renderer's very rays outside a render
 * (remapping an existing image through the lens). The table agrees with
 * sensim_camera_pixel_ray to the inverse's accuracy (below 1e-4 px,
 * docs/camera_pipeline.md) and is far cheaper per call. */
typedef struct sensim_lens_table sensim_lens_table;

/* Check the lens part of cp (intrinsics, distortion invertible over the
 * whole image, vignetting, aberration) as sensim_camera_create does, with
 * SENSIM_EINVAL naming the parameter, and build its table: work of order
 * width x height. The parameters are copied. */
SENSIM_API sensim_status sensim_lens_table_create(const sensim_camera_params *cp, sensim_lens_table **out);
SENSIM_API void sensim_lens_table_destroy(sensim_lens_table *table);

/* Direction (sensor frame, X forward; not unit length) of the ray the lens
 * images at continuous pixel (u, v) (OpenCV convention, above) for colour
 * channel c (0 R, 1 G, 2 B; the channels differ only with lateral chromatic
 * aberration). Returns 1, or 0 (dir untouched) where the lens images no
 * ray (beyond a fisheye's field), for non-finite u or v, c outside 0..2 or
 * NULL arguments. Thread-safe; a table lookup and interpolation per call,
 * so it may be called per pixel without setting sensim_last_error(). */
SENSIM_API int sensim_lens_table_ray(const sensim_lens_table *table, double u, double v, int c, sensim_vec3 *dir);

/* 3 when lateral chromatic aberration makes the channels' rays differ, 1
 * when every channel has the green channel's rays (0 for NULL). */
SENSIM_API int sensim_lens_table_channels(const sensim_lens_table *table);

#ifdef __cplusplus
}
#endif
#endif
