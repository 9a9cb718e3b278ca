/* io/texture_png.c: textures from PNG files, alpha kept. The file's code
 * values are stored sRGB-encoded (PNG 1.2 sec. 11.3.3.5; what glTF 2.0
 * assumes of image files) and decoded to linear light where a material
 * uses the texture as colour (world.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/png_decode.h"
#include "sensim/io.h"

sensim_status sensim_texture_load_png(sensim_world *world, const char *path, sensim_texture **out) {
  if (!world || !path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_load_png: NULL argument");
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    int e = errno;
    return sensim__fail(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO, "texture '%s': %s", path,
                        strerror(e));
  }
  sensim__png png;
  sensim_status rc = sensim__png_decode(fp, path, &png);
  fclose(fp);
  if (rc) return rc;
  size_t n = (size_t)png.width * png.height;
  float *rgba = malloc(n * 4 * sizeof *rgba);
  if (!rgba) {
    free(png.data);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for texture '%s'", path);
  }
  const int ch = png.channels;
  for (size_t i = 0; i < n; i++) {
    const float *p = png.data + i * (size_t)ch;
    rgba[4 * i] = p[0];
    rgba[4 * i + 1] = ch >= 3 ? p[1] : p[0];
    rgba[4 * i + 2] = ch >= 3 ? p[2] : p[0];
    rgba[4 * i + 3] = ch == 4 ? p[3] : ch == 2 ? p[1] : 1.0f;
  }
  free(png.data);
  rc = sensim_texture_create_rgba(world, png.width, png.height, rgba, 1, out);
  free(rgba);
  if (rc) sensim__error_context("texture '%s'", path);
  return rc;
}
