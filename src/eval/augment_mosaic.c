/* eval/augment_mosaic.c: a colour filter array and demosaicing applied to
 * an existing colour image (augment.h), by the camera pipeline's own
 * built-in filters "cfa" and "demosaic" (filters/cfa.c, filters/demosaic.c;
 * docs/camera_pipeline.md) run as a local filter chain, so an augmented
 * image carries exactly the artefacts a rendered frame's chain gives it. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "core/internal.h"
#include "filters/chain.h"
#include "sensim/augment.h"

/* Append built-in filter `name` with {key: value} (value NULL: defaults). */
static sensim_status append(sensim_chain *ch, const char *name, const char *key, const char *value) {
  const sensim_builtin_filter *bf = sensim__filter_find(name);
  if (!bf) return sensim__fail(SENSIM_ENOTFOUND, "built-in filter '%s' is missing", name);
  cJSON *params = NULL;
  if (value) {
    params = cJSON_CreateObject();
    if (!params || !cJSON_AddStringToObject(params, key, value)) {
      cJSON_Delete(params);
      return sensim__fail(SENSIM_ENOMEM, "out of memory");
    }
  }
  void *user = NULL;
  sensim_status st = bf->create(params, &user);
  cJSON_Delete(params);
  if (st) return st;
  st = sensim__chain_append(ch, &bf->def, user);
  if (st && bf->def.destroy) bf->def.destroy(user);
  return st;
}

/* Run "cfa" (and "demosaic" when method_or_null is given, or demosaic is
 * set) on a copy of the colour image; the frame's payload is the result. */
static sensim_status run_chain(const sensim_image *in, const char *pattern, int demosaic, const char *method,
                               sensim_frame *f) {
  if (!in || !in->data) return sensim__fail(SENSIM_EINVAL, "mosaic: NULL image");
  if (in->channels != 3)
    return sensim__fail(SENSIM_EINVAL, "mosaic: a colour filter array needs a colour image, not %d channel(s)",
                        in->channels);
  if (in->width == 0 || in->height == 0) return sensim__fail(SENSIM_EINVAL, "mosaic: empty image");
  sensim_chain ch;
  sensim__chain_init(&ch, SENSIM_PAYLOAD_RGB_F32);
  sensim_status st = append(&ch, "cfa", "pattern", pattern);
  if (!st && demosaic) st = append(&ch, "demosaic", "method", method);
  if (st) {
    sensim__chain_free(&ch);
    sensim__error_context("mosaic");
    return st;
  }
  memset(f, 0, sizeof *f);
  st = sensim_frame_alloc(f, SENSIM_PAYLOAD_RGB_F32, in->width, in->height);
  if (!st) {
    memcpy(f->data, in->data, f->count * 3 * sizeof(float));
    f->unit = SENSIM_UNIT_SIGNAL;
    /* The two filters draw no random numbers: seed and sensor are unused. */
    st = sensim__chain_run(&ch, f, 0, 0);
  }
  sensim__chain_free(&ch);
  if (st) {
    sensim__frame_release(f);
    sensim__error_context("mosaic");
  }
  return st;
}

sensim_status sensim_augment_cfa(const sensim_image *in, const char *pattern, sensim_image *raw) {
  if (!raw) return sensim__fail(SENSIM_EINVAL, "sensim_augment_cfa: NULL output");
  sensim_frame f;
  sensim_status st = run_chain(in, pattern, 0, NULL, &f);
  if (st) return st;
  float *old = raw == in ? raw->data : NULL;
  raw->width = f.width;
  raw->height = f.height;
  raw->channels = 1;
  raw->data = f.data;
  f.data = NULL;
  sensim__frame_release(&f);
  free(old);
  return SENSIM_OK;
}

sensim_status sensim_augment_mosaic(sensim_image *img, const char *pattern, const char *method) {
  sensim_frame f;
  sensim_status st = run_chain(img, pattern, 1, method, &f);
  if (st) return st;
  free(img->data);
  img->data = f.data;
  f.data = NULL;
  sensim__frame_release(&f);
  return SENSIM_OK;
}
