/* eval/augment_lens.c: a lens for the distortion augmentation given as the
 * JSON keys a scenario's camera takes (augment.h; docs/scenario.md,
 * "sensors"), so that a camera's calibration is written once and used by
 * both the renderer and the augmentation. */
#include <stdlib.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "sensim/augment.h"

sensim_status sensim_lens_params_from_json(const char *json, uint32_t width, uint32_t height,
                                           sensim_camera_params *out) {
  static const char *const known[] = {"lens", "dist", "fx", "fy", "cx", "cy", "hfov_deg", "lateral_ca",
                                      "width", "height", NULL};
  if (!json || !out) return sensim__fail(SENSIM_EINVAL, "sensim_lens_params_from_json: NULL argument");
  char *clean = NULL;
  cJSON *root = NULL;
  sensim_status st = sensim__json_strip_comments(json, "lens", &clean);
  if (!st) st = sensim__json_parse(clean, "lens", &root);
  free(clean);
  if (st) return st;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  if (width) cp.width = width;
  if (height) cp.height = height;
  if (!cJSON_IsObject(root))
    st = sensim__fail(SENSIM_EPARSE, "lens: expected a JSON object of camera keys");
  if (!st) st = sensim__jcheck_object(root, "lens", known);
  if (!st) st = sensim__scenario_camera(root, "lens", &cp);
  cJSON_Delete(root);
  if (st) return st;
  if ((width && cp.width != width) || (height && cp.height != height))
    return sensim__fail(SENSIM_EINVAL, "lens: its size %u x %u differs from the image's %u x %u", cp.width,
                        cp.height, width, height);
  *out = cp;
  return SENSIM_OK;
}
