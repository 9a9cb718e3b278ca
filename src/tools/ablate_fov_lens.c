/* tools/ablate_fov_lens.c: the "lens_fov" edit of the camera-stage
 * ablation: the camera component study's alternative to the pinhole, the
 * FOV lens model (sensim's SENSIM_LENS_FOV, docs/camera_pipeline.md: one
 * spherical lens in front of a pinhole, w = hfov / 2). A camera's lens is
 * replaced by the FOV lens of the same horizontal field of view, which the
 * FOV model keeps exactly at the left and right edges of the principal row
 * while it compresses the periphery inwards of them (barrel-like): the
 * projection changes, the field across the image does not.
 *
 * The field is measured on the camera's own rays (sensim_camera_pixel_ray)
 * through the outer edges of the principal row, so a pinhole (the study's
 * case) and any other lens are handled alike. The FOV model's scale is
 * W / 2 by definition (fx, fy unused); cx, cy are kept (used when fx is
 * set). A field the FOV model cannot have (180 deg or more, or an image
 * corner beyond its domain) is SENSIM_EINVAL naming the camera. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sensim/sensim.h>
#include "tools/ablate_internal.h"

static const double kDeg = 180.0 / 3.14159265358979323846;

static const char *lens_name(sensim_lens_model m) {
  static const char *const names[] = {"pinhole", "fov", "brown_conrady", "kannala_brandt", "rational", "division"};
  return (unsigned)m < sizeof names / sizeof *names ? names[m] : "?";
}

sensim_status sensim_tools__ablate_fov_lens(cJSON *cam, const char *name, sensim_tools__ablate_notes *n) {
  sensim_camera_params cp;
  sensim_status st = sensim_tools__ablate_camera_params(cam, name, &cp);
  if (st) return st;
  if (cp.lens == SENSIM_LENS_FOV) {
    sensim_tools__ablate_note(n, name, "lens is already fov: unchanged");
    return SENSIM_OK;
  }
  double cy = cp.fx == 0 ? 0.5 * (cp.height - 1.0) : cp.cy, w = cp.width;
  /* The horizontal field: the rays through the left and right edges
   * (-0.5 and W - 0.5, camera.h) of the principal row. */
  sensim_vec3 dl, dr;
  if ((st = sensim_camera_pixel_ray(&cp, -0.5, cy, &dl)) || (st = sensim_camera_pixel_ray(&cp, w - 0.5, cy, &dr))) {
    sensim_error_prefix("ablation: %s: its horizontal field of view", name);
    return st;
  }
  double hfov = atan2(dl.y, dl.x) + atan2(-dr.y, dr.x);
  sensim_camera_params fov = cp;
  fov.lens = SENSIM_LENS_FOV;
  fov.hfov = hfov;
  sensim_vec3 d;
  /* The FOV model must be defined at every corner (camera_pipeline.md). */
  const double corner[4][2] = {{-0.5, -0.5}, {w - 0.5, -0.5}, {-0.5, cp.height - 0.5}, {w - 0.5, cp.height - 0.5}};
  for (int k = 0; !st && k < 4; k++) st = sensim_camera_pixel_ray(&fov, corner[k][0], corner[k][1], &d);
  if (!(hfov > 0 && hfov < 3.14159265358979323846) || st)
    return sensim_error_set(SENSIM_EINVAL,
                            "ablation: %s: no FOV lens has this camera's horizontal field of view, %.2f deg "
                            "(the FOV model needs a field below 180 deg, defined at the image corners)",
                            name, hfov * kDeg);
  cJSON *lens = cJSON_CreateString("fov");
  if (!lens) return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
  if (cJSON_GetObjectItemCaseSensitive(cam, "lens"))
    cJSON_ReplaceItemInObjectCaseSensitive(cam, "lens", lens);
  else
    cJSON_AddItemToObject(cam, "lens", lens);
  cJSON_DeleteItemFromObjectCaseSensitive(cam, "dist");
  if ((st = sensim_tools__ablate_set_number(cam, "hfov_deg", hfov * kDeg))) return st;
  char msg[256];
  snprintf(msg, sizeof msg, "lens %s -> fov of the same horizontal field, %.4f deg (w = %.4f rad)", lens_name(cp.lens),
           hfov * kDeg, 0.5 * hfov);
  sensim_tools__ablate_note(n, name, msg);
  return SENSIM_OK;
}
