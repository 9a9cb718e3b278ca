/* sensors/camera_internal.h: the camera's configuration and its renderer.
 * Not installed. */
#ifndef SENSIM_SENSORS_CAMERA_INTERNAL_H
#define SENSIM_SENSORS_CAMERA_INTERNAL_H

#include "sensim/camera.h"
#include "sensors/optics.h"
#include "sensors/traced.h"
#include "sensors/window.h"

typedef struct sensim_camera {
  sensim_camera_params p;
  sensim_optics *optics;
  int grid;        /* samples = grid^2 when stratified, else 0 */
  int nch;         /* rays per sample: 1, or 3 (one per channel) with lateral CA */
  double beta;     /* fog extinction coefficient, 1/m */
  double readout;  /* (height - 1) x line_time, s */
} sensim_camera;

/* Render the capture into f's rgb, depth, label and normal planes (already
 * allocated, zeroed). sensors/camera_render.c. */
sensim_status sensim__camera_render(const sensim_capture_ctx *ctx, sensim_frame *f);

#endif
