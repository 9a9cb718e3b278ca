/* core/png_decode.h: PNG (and JPEG) decoding shared by the public reader (io) and the
 * textures of imported meshes (scene). Not installed. */
#ifndef SENSIM_CORE_PNG_DECODE_H
#define SENSIM_CORE_PNG_DECODE_H

#include <stdint.h>
#include <stdio.h>
#include "sensim/status.h"

typedef struct sensim__png {
  uint32_t width, height;
  int channels; /* as stored: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA */
  float *data;  /* width x height x channels code values in [0, 1], row 0 on top; malloc'd, the caller frees */
} sensim__png;

/* Decode the PNG read from `fp` (a file or fmemopen'd bytes) from its
 * start. `name` names the source in errors: SENSIM_EPARSE for a stream
 * that is not a PNG or is malformed, SENSIM_EIO for a failed read,
 * SENSIM_ENOMEM. On failure *out is zeroed. */
sensim_status sensim__png_decode(FILE *fp, const char *name, sensim__png *out);

/* Decode a JPEG (core/jpeg_decode.c) the same way: 1 (grey) or 3 (RGB)
 * channels of code values / 255. SENSIM_EPARSE with libjpeg's message for
 * anything it cannot decode. */
sensim_status sensim__jpeg_decode(FILE *fp, const char *name, sensim__png *out);

#endif
