/* io/png.c: image frames to PNG through libpng.
 *
 * PNG (ISO/IEC 15948:2004) stores 16-bit samples most significant byte
 * first (section 7.1), so 16-bit rows are packed big-endian by hand rather
 * than relying on the host's byte order.
 *
 * What a payload becomes is its descriptor's business (core/payload.h):
 * 8- and 16-bit samples go in as they are, 1 to 4 channels as grey, grey
 * with alpha, RGB or RGBA; a payload with a grey mapping (depth in
 * millimetres, labels' class ids) goes in as 16-bit grey. */
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/payload.h"
#include "io/scenario_internal.h"

/* libpng reports errors by longjmp; the message is kept for sensim__fail. */
typedef struct png_err {
  char msg[200];
} png_err;

static void on_png_error(png_structp png, png_const_charp msg) {
  png_err *e = png_get_error_ptr(png);
  snprintf(e->msg, sizeof e->msg, "%s", msg ? msg : "libpng error");
  png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

static void put_be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)(v & 0xff);
}

/* How one frame becomes PNG rows: its descriptor, the file's samples, and
 * room for one row of 16-bit grey values when the payload maps its pixels
 * to grey (depth, labels). */
typedef struct png_layout {
  const sensim__payload_desc *desc;
  int bits;          /* 8 or 16 */
  int channels;      /* 1 to 4 */
  uint16_t *gray;    /* width values when desc->to_gray16, else NULL */
} png_layout;

/* Fill one output row of the PNG from frame row y. */
static void pack_row(const sensim_frame *f, const png_layout *l, uint32_t y, uint8_t *row) {
  size_t w = f->width;
  const uint8_t *src = (const uint8_t *)f->data + (size_t)y * w * l->desc->elem_size;
  if (l->gray) {
    l->desc->to_gray16(src, w, l->gray);
    for (size_t x = 0; x < w; x++) put_be16(row + 2 * x, l->gray[x]);
  } else if (l->bits == 8) {
    memcpy(row, src, w * (size_t)l->channels);
  } else {
    const uint16_t *s16 = (const uint16_t *)(const void *)src;
    for (size_t x = 0; x < w * (size_t)l->channels; x++) put_be16(row + 2 * x, s16[x]);
  }
}

/* Write the image; separate from sensim_write_png so that no local that
 * changes after setjmp lives in the function that calls it (C11 7.13.2.1). */
static int png_encode(FILE *fp, const sensim_frame *f, const png_layout *l, uint8_t *row,
                      png_err *err) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, err, on_png_error,
                                            on_png_warning);
  if (!png) {
    snprintf(err->msg, sizeof err->msg, "libpng could not start");
    return -1;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    snprintf(err->msg, sizeof err->msg, "libpng could not start");
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return -1;
  }
  png_init_io(png, fp);
  static const int color[4] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                               PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_IHDR(png, info, f->width, f->height, l->bits, color[l->channels - 1], PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < f->height; y++) {
    pack_row(f, l, y, row);
    png_write_row(png, row);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return 0;
}

sensim_status sensim_write_png(const char *path, const sensim_frame *frame) {
  if (!path || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_write_png: NULL argument");
  png_layout l = {sensim__payload_desc_of(frame->type), 0, 0, NULL};
  l.bits = sensim__payload_file_bits(l.desc, &l.channels);
  if (!l.bits && l.desc && l.desc->picture) {
    sensim_frame pic;
    memset(&pic, 0, sizeof pic);
    sensim_status st = l.desc->picture(frame, &pic);
    if (st == SENSIM_OK) st = sensim_write_png(path, &pic);
    sensim_frame_release(&pic);
    return st;
  }
  if (!l.bits)
    return sensim__fail(SENSIM_ETYPE, "cannot write a %s frame as PNG '%s'",
                        sensim_payload_name(frame->type), path);
  /* PNG limits width and height to 2^31 - 1 (ISO/IEC 15948 11.2.2). */
  if (frame->width == 0 || frame->height == 0 || frame->width > 0x7fffffffu ||
      frame->height > 0x7fffffffu || !frame->data ||
      frame->count != (size_t)frame->width * frame->height)
    return sensim__fail(SENSIM_EINVAL, "PNG '%s': frame is %ux%u with %zu elements%s", path,
                        frame->width, frame->height, frame->count,
                        frame->data ? "" : " and no data");
  uint8_t *row = malloc((size_t)frame->width * (size_t)l.channels * (size_t)(l.bits / 8));
  if (l.desc->to_gray16) l.gray = malloc((size_t)frame->width * sizeof *l.gray);
  if (!row || (l.desc->to_gray16 && !l.gray)) {
    free(row);
    free(l.gray);
    return sensim__fail(SENSIM_ENOMEM, "PNG '%s': out of memory", path);
  }
  sensim__afile af;
  sensim_status st = sensim__afile_open(path, &af);
  if (st != SENSIM_OK) {
    free(row);
    free(l.gray);
    return st;
  }
  png_err err = {{0}};
  int rc = png_encode(af.fp, frame, &l, row, &err);
  free(row);
  free(l.gray);
  if (rc != 0) {
    /* libpng says "Write Error"; the stream knows why (a full disk). */
    int e = sensim__afile_errno(&af);
    sensim__afile_abort(&af);
    return sensim__fail(SENSIM_EIO, "PNG '%s': %s%s%s", path, err.msg, e ? ": " : "", e ? strerror(e) : "");
  }
  return sensim__afile_commit(&af);
}
