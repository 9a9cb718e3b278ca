/* io/camera_info.h: a camera's parameters as ROS's sensor_msgs/CameraInfo
 * sees them (K, D, R, P and the distortion model's name), in one place so
 * the camera_info YAML beside a recording and the CameraInfo messages in
 * it cannot disagree. Not installed. */
#ifndef SENSIM_IO_CAMERA_INFO_H
#define SENSIM_IO_CAMERA_INFO_H

#include "sensim/camera.h"

typedef struct sensim__camera_info {
  uint32_t width, height; /* pixels */
  double K[9];            /* intrinsic matrix, row-major, pixels */
  double D[8];            /* distortion coefficients, nd of them */
  int nd;                 /* 5 for plumb_bob, 8 for rational_polynomial, 4 for equidistant */
  const char *model;      /* "plumb_bob", "rational_polynomial" or "equidistant" (static) */
  double R[9];            /* rectification: identity (a monocular camera) */
  double P[12];           /* projection [K | 0], row-major */
} sensim__camera_info;

/* Fill *ci from *cp as include/sensim/camera.h defines the parameters:
 * K from fx fy cx cy, or from hfov when fx == 0 (fx = fy =
 * (width / 2) / tan(hfov / 2), principal point at the image centre
 * ((width - 1) / 2, (height - 1) / 2)); plumb_bob (k1 k2 p1 p2 k3) for
 * pinhole (all zero) and Brown-Conrady lenses, rational_polynomial (k1 k2
 * p1 p2 k3 k4 k5 k6) for the rational lens, equidistant (k1 k2 k3 k4)
 * for Kannala-Brandt. SENSIM_EINVAL, naming the parameter, for the FOV
 * and division lenses (no ROS distortion model has their laws), an unknown lens
 * and parameters sensim_camera_create would refuse (size, hfov, focal
 * lengths, non-finite values). Lateral chromatic aberration and
 * vignetting have no CameraInfo field and are left out. */
sensim_status sensim__camera_info_from_params(const sensim_camera_params *cp, sensim__camera_info *ci);

/* *cp for the images a camera's filter chain delivers: w x h pixels,
 * each the mean of a binning x binning block of the camera's pixels
 * (sensim_frame.binning, the "downsample" filter), pixel u's centre at
 * the camera's b u + (b - 1) / 2. The intrinsics follow that map exactly,
 * whatever remainder the blocks dropped: fx' = fx / b, cx' = (cx - (b -
 * 1) / 2) / b, likewise in y; distortion acts on normalised coordinates
 * and stays. With binning 0 or 1 and another size (a user filter that
 * resized), the image is taken as the whole sensor rescaled: fx' = fx w /
 * width, cx' = (cx + 0.5) w / width - 0.5. The camera's own size gives *cp
 * unchanged. SENSIM_EINVAL as sensim__camera_info_from_params, for a zero
 * size, or for blocks the camera cannot hold (b w > width). */
sensim_status sensim__camera_params_for_image(const sensim_camera_params *cp, uint32_t w, uint32_t h,
                                              uint32_t binning, sensim_camera_params *out);

#endif
