/* sensors/camera_project.c: the camera's public lens model: forward
 * projection of a sensor-frame point to a pixel and the ray of a pixel,
 * computed directly from the parameters (no table) by optics.c's model code
 * (formulas and conventions at the top of optics.c). */
#include <math.h>
#include "core/internal.h"
#include "sensim/camera.h"
#include "sensors/optics.h"

sensim_status sensim_camera_project(const sensim_camera_params *cp, sensim_vec3 p, double *u, double *v) {
  if (!cp || !u || !v) return sensim__fail(SENSIM_EINVAL, "sensim_camera_project: NULL argument");
  if (!sensim__finite3(p)) return sensim__fail(SENSIM_EINVAL, "point (%g, %g, %g) is not finite", p.x, p.y, p.z);
  /* Sensor frame X forward, Y left, Z up -> optical x right, y down, z forward. */
  const double opt[3] = {-p.y, -p.z, p.x};
  return sensim__optics_project(cp, opt, u, v);
}

sensim_status sensim_camera_pixel_ray(const sensim_camera_params *cp, double u, double v, sensim_vec3 *dir) {
  if (!cp || !dir) return sensim__fail(SENSIM_EINVAL, "sensim_camera_pixel_ray: NULL argument");
  double o[3];
  sensim_status rc = sensim__optics_unproject(cp, u, v, o);
  if (rc) return rc;
  double n = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
  dir->x = o[2] / n;
  dir->y = -o[0] / n;
  dir->z = -o[1] / n;
  return SENSIM_OK;
}
