/* tools/augment_mosaic.c: a colour filter array and demosaicing applied to
 * an existing colour image (augment.h), by the camera pipeline's own
 * built-in filters "cfa" and "demosaic" (docs/camera_pipeline.md) run in a
 * standalone filter chain (sensim/filter.h), so an augmented image carries
 * exactly the artefacts a rendered frame's chain gives it. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "tools/tools_internal.h"

/* Append built-in filter `name` with {key: value} (value NULL: defaults).
 * The parameters are built with cJSON so that any value string is quoted
 * correctly; the filter itself judges it. */
static sensim_status append(sensim_filter_chain *ch, const char *name, const char *key, const char *value) {
  char *params = NULL;
  if (value) {
    cJSON *obj = cJSON_CreateObject();
    if (obj && cJSON_AddStringToObject(obj, key, value)) params = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (!params) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  }
  sensim_status st = sensim_filter_chain_add(ch, name, params);
  free(params);
  return st;
}

/* Run "cfa" (and "demosaic" when `demosaic` is set) on a copy of the colour
 * image; the frame's payload is the result, owned by the caller. */
static sensim_status run_chain(const sensim_image *in, const char *pattern, int demosaic, const char *method,
                               sensim_frame *f) {
  if (!in || !in->data) return sensim_error_set(SENSIM_EINVAL, "mosaic: NULL image");
  if (in->channels != 3)
    return sensim_error_set(SENSIM_EINVAL, "mosaic: a colour filter array needs a colour image, not %d channel(s)",
                            in->channels);
  if (in->width == 0 || in->height == 0) return sensim_error_set(SENSIM_EINVAL, "mosaic: empty image");
  sensim_filter_chain *ch = NULL;
  sensim_status st = sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &ch);
  if (!st) st = append(ch, "cfa", "pattern", pattern);
  if (!st && demosaic) st = append(ch, "demosaic", "method", method);
  if (st) {
    sensim_filter_chain_destroy(ch);
    sensim_error_prefix("mosaic");
    return st;
  }
  memset(f, 0, sizeof *f);
  st = sensim_frame_alloc(f, SENSIM_PAYLOAD_RGB_F32, in->width, in->height);
  if (!st) {
    memcpy(f->data, in->data, f->count * 3 * sizeof(float));
    f->unit = SENSIM_UNIT_SIGNAL;
    /* The two filters draw no random numbers: seed and stream are unused. */
    st = sensim_filter_chain_run(ch, f, 0, 0);
  }
  sensim_filter_chain_destroy(ch);
  if (st) {
    sensim_frame_release(f);
    sensim_error_prefix("mosaic");
  }
  return st;
}

sensim_status sensim_augment_cfa(const sensim_image *in, const char *pattern, sensim_image *raw) {
  if (!raw) return sensim_error_set(SENSIM_EINVAL, "sensim_augment_cfa: NULL output");
  sensim_frame f;
  sensim_status st = run_chain(in, pattern, 0, NULL, &f);
  if (st) return st;
  float *old = raw == in ? raw->data : NULL;
  raw->width = f.width;
  raw->height = f.height;
  raw->channels = 1;
  raw->data = f.data;
  f.data = NULL;
  sensim_frame_release(&f);
  free(old);
  return SENSIM_OK;
}

sensim_status sensim_augment_mosaic(sensim_image *img, const char *pattern, const char *method) {
  sensim_frame f;
  sensim_status st = run_chain(img, pattern, 1, method, &f);
  if (st) return st;
  /* In place: into the caller's own buffer (the demosaic gives the same
   * width x height x 3 floats), whoever allocated it. */
  memcpy(img->data, f.data, (size_t)f.width * f.height * 3 * sizeof(float));
  sensim_frame_release(&f);
  return SENSIM_OK;
}
