/* scene/texture_image.c: textures from PNG bytes (a file, or an image
 * embedded in a glTF file). Image files hold sRGB-encoded colour
 * (PNG 1.2 sec. 11.3.3.5 with no other colour chunk; glTF 2.0 sec. 3.9.2);
 * the texture keeps the code values and decodes them for colour uses. */
#include <stdlib.h>
#include "core/internal.h"
#include "core/png_decode.h"
#include "scene/scene.h"

sensim_status sensim__texture_from_png(sensim_world *w, FILE *fp, const char *name, sensim_texture **out) {
  sensim__png png;
  sensim_status rc = sensim__png_decode(fp, name, &png);
  if (rc) return rc;
  rc = sensim__texture_make(w, png.width, png.height, png.data, png.channels, 1, out);
  free(png.data);
  if (rc) sensim__error_context("texture '%s'", name);
  return rc;
}
