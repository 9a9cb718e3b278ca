/* tools/augment_lens.c: a lens for the distortion augmentation given as the
 * JSON keys a scenario's camera takes (augment.h; docs/scenario.md,
 * "sensors"), so that a camera's calibration is written once and used by
 * both the renderer and the augmentation. The keys are read by the
 * scenario loader's own reader (sensim_camera_params_from_json); this file
 * only narrows them to the lens's. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "tools/tools_internal.h"

static const char *const kLensKeys[] = {"lens", "dist", "fx", "fy", "cx", "cy", "hfov_deg", "lateral_ca",
                                        "width", "height", NULL};

/* SENSIM_EPARSE unless `json` (strict JSON) is an object of lens keys only. */
static sensim_status check_lens_keys(const char *json) {
  cJSON *root = cJSON_Parse(json);
  if (!root) return sensim_error_set(SENSIM_ENOMEM, "lens: out of memory reading the JSON");
  sensim_status st = SENSIM_OK;
  if (!cJSON_IsObject(root)) st = sensim_error_set(SENSIM_EPARSE, "lens: expected a JSON object of camera keys");
  for (const cJSON *it = root->child; st == SENSIM_OK && it; it = it->next) {
    int known = 0;
    for (size_t k = 0; kLensKeys[k]; k++) known |= strcmp(kLensKeys[k], it->string) == 0;
    if (!known)
      st = sensim_error_set(SENSIM_EPARSE,
                            "lens.%s: unknown key (known here: lens, dist, fx, fy, cx, cy, hfov_deg, "
                            "lateral_ca, width, height)",
                            it->string);
  }
  cJSON_Delete(root);
  return st;
}

sensim_status sensim_lens_params_from_json(const char *json, uint32_t width, uint32_t height,
                                           sensim_camera_params *out) {
  if (!json || !out) return sensim_error_set(SENSIM_EINVAL, "sensim_lens_params_from_json: NULL argument");
  char *strict = NULL;
  sensim_status st = sensim_json_strict(json, "lens", &strict);
  if (st) return st;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  if (width) cp.width = width;
  if (height) cp.height = height;
  st = check_lens_keys(strict);
  if (!st) st = sensim_camera_params_from_json(strict, "lens", &cp);
  free(strict);
  if (st) return st;
  if ((width && cp.width != width) || (height && cp.height != height))
    return sensim_error_set(SENSIM_EINVAL, "lens: its size %u x %u differs from the image's %u x %u", cp.width,
                            cp.height, width, height);
  *out = cp;
  return SENSIM_OK;
}
