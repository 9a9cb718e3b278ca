/* io/texture_png.c: textures from PNG files. */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "sensim/io.h"

/* IEC 61966-2-1 sRGB decoding (encoded -> linear). */
static float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : (float)pow((c + 0.055) / 1.055, 2.4);
}

sensim_status sensim_texture_load_png(sensim_world *world, const char *path, sensim_texture **out) {
  if (!world || !path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_load_png: NULL argument");
  sensim_image img;
  sensim_status rc = sensim_read_png(path, &img);
  if (rc) return rc;
  size_t n = (size_t)img.width * img.height;
  float *rgb = malloc(n * 3 * sizeof *rgb);
  if (!rgb) {
    sensim_image_free(&img);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for texture '%s'", path);
  }
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < 3; c++)
      rgb[3 * i + c] = srgb_to_linear(img.data[i * img.channels + (img.channels == 3 ? c : 0)]);
  rc = sensim_texture_create(world, img.width, img.height, rgb, out);
  free(rgb);
  sensim_image_free(&img);
  if (rc) sensim__error_context("texture '%s'", path);
  return rc;
}
