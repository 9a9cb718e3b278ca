/* core/jpeg_decode.c: JPEG streams (baseline and progressive JFIF, as glTF
 * 2.0 allows for images: "image/jpeg", sec. 5.18) decoded through
 * libjpeg (Debian's libjpeg62-turbo) into float images: grey files keep
 * one channel, colour files three, code values / 255 with no decoding
 * (sRGB-encoded, as image files are). libjpeg reports errors by calling
 * error_exit, made here to longjmp back and fail instead of exiting. */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/jpeg_error.h"
#include "core/png_decode.h"

static void jerr_exit(j_common_ptr cinfo) {
  sensim_jpeg_error *e = (sensim_jpeg_error *)cinfo->err;
  cinfo->err->format_message(cinfo, e->msg);
  longjmp(e->jump, 1);
}

static void jerr_quiet(j_common_ptr cinfo, int level) {
  (void)cinfo;
  (void)level; /* libjpeg's warnings (recoverable data faults): the image decodes anyway */
}

struct jpeg_error_mgr *sensim__jpeg_error_init(sensim_jpeg_error *e) {
  struct jpeg_error_mgr *m = jpeg_std_error(&e->mgr);
  m->error_exit = jerr_exit;
  m->emit_message = jerr_quiet;
  e->msg[0] = 0;
  return m;
}

sensim_status sensim__jpeg_decode(FILE *fp, const char *name, sensim__png *out) {
  memset(out, 0, sizeof *out);
  struct jpeg_decompress_struct d;
  sensim_jpeg_error e;
  /* volatile: changed between setjmp and a possible longjmp. */
  uint8_t *volatile row = NULL;
  float *volatile data = NULL;
  d.err = sensim__jpeg_error_init(&e);
  if (setjmp(e.jump)) {
    jpeg_destroy_decompress(&d);
    free(row);
    free(data);
    return sensim__fail(SENSIM_EPARSE, "JPEG '%s': %s", name, e.msg);
  }
  jpeg_create_decompress(&d);
  jpeg_stdio_src(&d, fp);
  jpeg_read_header(&d, TRUE);
  /* Grey stays grey; every other colour space (YCbCr, CMYK, ...) libjpeg
   * converts to RGB or refuses. */
  d.out_color_space = d.jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&d);
  const uint32_t W = d.output_width, H = d.output_height;
  const int ch = d.output_components;
  if (W == 0 || H == 0 || W > 65536 || H > 65536 || (ch != 1 && ch != 3)) {
    snprintf(e.msg, sizeof e.msg, "unexpected layout (%ux%u, %d channels)", W, H, ch);
    longjmp(e.jump, 1);
  }
  row = malloc((size_t)W * (size_t)ch);
  data = malloc((size_t)W * H * (size_t)ch * sizeof *data);
  if (!row || !data) {
    snprintf(e.msg, sizeof e.msg, "out of memory for %ux%u pixels", W, H);
    longjmp(e.jump, 1);
  }
  float table[256];
  for (int v = 0; v < 256; v++) table[v] = (float)(v / 255.0);
  while (d.output_scanline < H) {
    const uint32_t y = d.output_scanline;
    JSAMPROW r = row;
    jpeg_read_scanlines(&d, &r, 1);
    for (size_t i = 0; i < (size_t)W * (size_t)ch; i++) data[(size_t)y * W * (size_t)ch + i] = table[row[i]];
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  free(row);
  out->width = W;
  out->height = H;
  out->channels = ch;
  out->data = data;
  return SENSIM_OK;
}
