/* io/png_read.c: PNG files as float images (the decoding is
 * core/png_decode.c's): grey files keep one channel, colour files three,
 * alpha is dropped (io.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/png_decode.h"
#include "sensim/io.h"

sensim_status sensim_read_png(const char *path, sensim_image *out) {
  if (out) memset(out, 0, sizeof *out);
  if (!path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_read_png: NULL argument");
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    int e = errno;
    return sensim__fail(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO,
                        "PNG '%s': %s", path, strerror(e));
  }
  sensim__png png;
  sensim_status rc = sensim__png_decode(fp, path, &png);
  fclose(fp);
  if (rc) return rc;
  /* The first 1 (grey, grey + alpha) or 3 (RGB, RGBA) channels, in place. */
  int channels = png.channels <= 2 ? 1 : 3;
  size_t n = (size_t)png.width * png.height;
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < channels; c++) png.data[i * channels + c] = png.data[i * (size_t)png.channels + c];
  out->width = png.width;
  out->height = png.height;
  out->channels = channels;
  out->data = png.data;
  return SENSIM_OK;
}
void sensim_image_free(sensim_image *img) {
  if (!img) return;
  free(img->data);
  memset(img, 0, sizeof *img);
}
