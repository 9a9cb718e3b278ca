/* core/payload_depth_f32.c: camera depth images, float metres per pixel
 * (camera.h says along which direction). As a picture each pixel is its
 * depth in whole millimetres on 16 bits, so a PNG keeps 1 mm resolution
 * to 65.535 m. */
#include <math.h>
#include "core/payload.h"

/* Rounded to the nearest millimetre, clamped to [0, 65535]; NaN and
 * depths <= 0 (nothing hit) become 0, which no real hit gives. */
static void depth_to_gray16(const void *src, size_t n, uint16_t *dst) {
  const float *d = src;
  for (size_t i = 0; i < n; i++) {
    if (!(d[i] > 0.0f)) {
      dst[i] = 0;
      continue;
    }
    double mm = floor((double)d[i] * 1000.0 + 0.5);
    dst[i] = mm >= 65535.0 ? 65535 : (uint16_t)mm;
  }
}

const sensim__payload_desc sensim__payload_depth_f32 = {
    .type = SENSIM_PAYLOAD_DEPTH_F32,
    .name = "depth_f32",
    .elem_size = sizeof(float),
    .shape = SENSIM__SHAPE_IMAGE,
    .channels = 1,
    .sample = SENSIM_SAMPLE_F32,
    .to_gray16 = depth_to_gray16,
    .default_output = "png",
};
