/* tools/ablate_fov.c: the "lens_pinhole_fov" edit of the camera-stage
 * ablation: a camera's lens replaced by the pinhole that sees the same
 * horizontal and vertical fields of view through the same principal
 * point. "lens_pinhole" keeps the focal length instead, so a barrel lens
 * becomes a pinhole that sees less (and a fisheye one that sees far less):
 * that variant changes the field of view and the distortion at once, this
 * one the distortion alone, as far as a pinhole can.
 *
 * The lens's fields are measured on its own rays (sensim_camera_pixel_ray)
 * through the image's outer edges on the principal row and column; the
 * camera's parameters come from its scenario keys through the loader's own
 * parser, so every default and key means what the loader makes of it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sensim/sensim.h>
#include "tools/ablate_internal.h"
#include "tools/json_text.h"

static const double kPi = 3.14159265358979323846, kDeg = 180.0 / 3.14159265358979323846;

double sensim_tools__pinhole_focal_for_fov(double a, double b, double fov) {
  /* tan(x + y) = (tan x + tan y) / (1 - tan x tan y) with tan x = a / f,
   * tan y = b / f gives f^2 - (a + b) cot(fov) f - a b = 0, whose positive
   * root is the one with x + y = fov in (0, pi) (x, y in (0, pi / 2)). */
  double cot = cos(fov) / sin(fov), s = a + b;
  return 0.5 * (s * cot + sqrt(s * s * cot * cot + 4.0 * a * b));
}

/* The camera's parameters as the loader makes them from its keys
 * (sensim_camera_params_from_json, which takes the camera keys alone). */
sensim_status sensim_tools__ablate_camera_params(const cJSON *cam, const char *name, sensim_camera_params *cp) {
  cJSON *keys = cJSON_CreateObject();
  if (!keys) return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
  const char *const *known = sensim_sensor_kind_keys("camera");
  for (size_t i = 0; known && known[i]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cam, known[i]);
    cJSON *dup = v ? cJSON_Duplicate(v, 1) : NULL;
    if (v && (!dup || !cJSON_AddItemToObject(keys, known[i], dup))) {
      cJSON_Delete(dup);
      cJSON_Delete(keys);
      return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
    }
  }
  char *text = sensim_tools__json_print(keys, 0);
  cJSON_Delete(keys);
  if (!text) return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
  sensim_camera_params_init(cp);
  sensim_status st = sensim_camera_params_from_json(text, name, cp);
  free(text);
  return st;
}

/* Angle from the optical axis (sensor +X) of the ray through pixel (u, v),
 * measured in the plane of the axis and `side` (+Y left, -Y right, +Z up,
 * -Z down), rad; above pi / 2 for rays behind the camera. */
static sensim_status edge_angle(const sensim_camera_params *cp, double u, double v, int axis, double sign,
                                double *angle) {
  sensim_vec3 d;
  sensim_status st = sensim_camera_pixel_ray(cp, u, v, &d);
  if (st) return st;
  *angle = atan2(sign * (axis == 1 ? d.y : d.z), d.x);
  return SENSIM_OK;
}

sensim_status sensim_tools__ablate_pinhole_fov(cJSON *cam, const char *name, sensim_tools__ablate_notes *n) {
  sensim_camera_params cp;
  sensim_status st = sensim_tools__ablate_camera_params(cam, name, &cp);
  if (st) return st;
  if (cp.lens == SENSIM_LENS_PINHOLE) {
    sensim_tools__ablate_note(n, name, "lens is already pinhole: unchanged");
    return SENSIM_OK;
  }
  double fx = cp.fx, fy = cp.fy, cx = cp.cx, cy = cp.cy, w = cp.width, h = cp.height;
  if (fx == 0) { /* camera.h: intrinsics from hfov, principal point at the centre */
    fx = fy = 0.5 * w / tan(0.5 * cp.hfov);
    cx = 0.5 * (w - 1.0);
    cy = 0.5 * (h - 1.0);
  }
  /* Pixel (i, j) has its centre at (i, j): the image's edges are at -0.5
   * and width - 0.5 (camera.h). */
  double left, right, top, bottom;
  if ((st = edge_angle(&cp, -0.5, cy, 1, 1.0, &left)) || (st = edge_angle(&cp, w - 0.5, cy, 1, -1.0, &right)) ||
      (st = edge_angle(&cp, cx, -0.5, 2, 1.0, &top)) || (st = edge_angle(&cp, cx, h - 0.5, 2, -1.0, &bottom))) {
    sensim_error_prefix("ablation: %s: no pinhole has the lens's field of view", name);
    return st;
  }
  double hfov = left + right, vfov = top + bottom;
  if (!(cx + 0.5 > 0 && w - 0.5 - cx > 0 && cy + 0.5 > 0 && h - 0.5 - cy > 0))
    return sensim_error_set(SENSIM_EINVAL, "ablation: %s: principal point (%g, %g) outside the image: no pinhole "
                            "has its field of view", name, cx, cy);
  if (!(hfov > 0 && hfov < kPi && vfov > 0 && vfov < kPi && left < (kPi / 2) && right < (kPi / 2) && top < (kPi / 2) &&
        bottom < (kPi / 2)))
    return sensim_error_set(SENSIM_EINVAL, "ablation: %s: the lens sees %.1f x %.1f deg (edges at %.1f, %.1f, %.1f, "
                            "%.1f deg from the axis): no pinhole sees 90 deg or more to one side",
                            name, hfov * kDeg, vfov * kDeg, left * kDeg, right * kDeg,
                            top * kDeg, bottom * kDeg);
  double pfx = sensim_tools__pinhole_focal_for_fov(cx + 0.5, w - 0.5 - cx, hfov);
  double pfy = sensim_tools__pinhole_focal_for_fov(cy + 0.5, h - 0.5 - cy, vfov);
  cJSON *pin = cJSON_CreateString("pinhole");
  if (!pin) return sensim_error_set(SENSIM_ENOMEM, "ablation: out of memory");
  if (cJSON_GetObjectItemCaseSensitive(cam, "lens"))
    cJSON_ReplaceItemInObjectCaseSensitive(cam, "lens", pin);
  else
    cJSON_AddItemToObject(cam, "lens", pin);
  cJSON_DeleteItemFromObjectCaseSensitive(cam, "dist");
  cJSON_DeleteItemFromObjectCaseSensitive(cam, "hfov_deg");
  if ((st = sensim_tools__ablate_set_number(cam, "fx", pfx)) || (st = sensim_tools__ablate_set_number(cam, "fy", pfy)) ||
      (st = sensim_tools__ablate_set_number(cam, "cx", cx)) || (st = sensim_tools__ablate_set_number(cam, "cy", cy)))
    return st;
  static const char *const lens_names[] = {"pinhole", "fov", "brown_conrady", "kannala_brandt"};
  char msg[256];
  snprintf(msg, sizeof msg, "lens %s -> pinhole of the same field of view, %.2f x %.2f deg: fx %.2f -> %.2f, "
           "fy %.2f -> %.2f px",
           (unsigned)cp.lens < 4 ? lens_names[cp.lens] : "?", hfov * kDeg, vfov * kDeg, fx, pfx, fy, pfy);
  sensim_tools__ablate_note(n, name, msg);
  return SENSIM_OK;
}
