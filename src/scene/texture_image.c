/* scene/texture_image.c: textures from PNG or JPEG bytes (a file, or an
 * image embedded in a glTF file). Image files hold sRGB-encoded colour
 * (PNG 1.2 sec. 11.3.3.5 with no other colour chunk; glTF 2.0 sec. 3.9.2);
 * the texture keeps the code values and decodes them for colour uses. */
#include <stdlib.h>
#include "core/internal.h"
#include "core/png_decode.h"
#include "scene/scene.h"

sensim_status sensim__texture_from_png(sensim_world *w, FILE *fp, const char *name, sensim_texture **out) {
  sensim__png png;
  /* JPEG by its start-of-image marker (ITU-T T.81, B.1.1.3: FF D8, then
   * the next marker's FF); anything else is read as PNG. */
  unsigned char sig[3] = {0, 0, 0};
  const size_t got = fread(sig, 1, sizeof sig, fp);
  rewind(fp);
  const int jpeg = got == 3 && sig[0] == 0xFF && sig[1] == 0xD8 && sig[2] == 0xFF;
  sensim_status rc = jpeg ? sensim__jpeg_decode(fp, name, &png) : sensim__png_decode(fp, name, &png);
  if (rc) return rc;
  rc = sensim__texture_make(w, png.width, png.height, png.data, png.channels, 1, 1.0f, out);
  free(png.data);
  if (rc) sensim__error_context("texture '%s'", name);
  return rc;
}
