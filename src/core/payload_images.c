/* core/payload_images.c: the images whose pixels are plain samples.
 *
 * Their description is their sample type and channel count; everything
 * else follows from it: the element size, and whether an image file can
 * hold them (8- and 16-bit samples go in as they are, so they default to
 * PNG; float images must pass through a filter that converts them first,
 * so a scenario writes nothing for them unless asked). Images that need a
 * mapping to be seen as a picture have a file of their own
 * (payload_depth_f32.c, payload_labels.c). */
#include "core/payload.h"

#define IMAGE(value, label, n, kind, ctype, output)                                              \
  {                                                                                              \
    .type = SENSIM_PAYLOAD_##value, .name = label, .elem_size = (n) * sizeof(ctype),             \
    .shape = SENSIM__SHAPE_IMAGE, .channels = n, .sample = SENSIM_SAMPLE_##kind,                 \
    .default_output = output                                                                     \
  }

/* Linear radiance, electrons or signal as the camera and the ISP give
 * them (frame.unit says which). */
const sensim__payload_desc sensim__payload_rgb_f32 = IMAGE(RGB_F32, "rgb_f32", 3, F32, float, NULL);
const sensim__payload_desc sensim__payload_raw_f32 = IMAGE(RAW_F32, "raw_f32", 1, F32, float, NULL);
const sensim__payload_desc sensim__payload_gray_f32 = IMAGE(GRAY_F32, "gray_f32", 1, F32, float, NULL);

/* Encoded 8-bit images. */
const sensim__payload_desc sensim__payload_rgba8 = IMAGE(RGBA8, "rgba8", 4, U8, uint8_t, "png");
const sensim__payload_desc sensim__payload_gray8 = IMAGE(GRAY8, "gray8", 1, U8, uint8_t, "png");

/* 16-bit digital numbers: raw16 is a Bayer mosaic (frame.cfa), stored as
 * grey because PNG has no place for the layout. */
const sensim__payload_desc sensim__payload_gray16 = IMAGE(GRAY16, "gray16", 1, U16, uint16_t, "png");
const sensim__payload_desc sensim__payload_raw16 = IMAGE(RAW16, "raw16", 1, U16, uint16_t, "png");
const sensim__payload_desc sensim__payload_rgb16 = IMAGE(RGB16, "rgb16", 3, U16, uint16_t, "png");
