/* io/png.c: image frames to PNG through libpng.
 *
 * PNG (ISO/IEC 15948:2004) stores 16-bit samples most significant byte
 * first (section 7.1), so 16-bit rows are packed big-endian by hand rather
 * than relying on the host's byte order. */
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
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

/* Depth in metres to 16-bit millimetres (io.h): rounded, clamped to
 * [0, 65535]; NaN and negative depths (no hit) become 0. */
static uint16_t depth_mm(float d) {
  if (!(d > 0.0f)) return 0;
  double mm = floor((double)d * 1000.0 + 0.5);
  return mm >= 65535.0 ? 65535 : (uint16_t)mm;
}

static void put_be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)(v & 0xff);
}

/* Fill one output row of the PNG from frame row y. */
static void pack_row(const sensim_frame *f, uint32_t y, uint8_t *row) {
  size_t w = f->width;
  size_t base = (size_t)y * w;
  switch (f->type) {
  case SENSIM_PAYLOAD_RGBA8:
    memcpy(row, (const uint8_t *)f->data + base * 4, w * 4);
    break;
  case SENSIM_PAYLOAD_GRAY8:
    memcpy(row, (const uint8_t *)f->data + base, w);
    break;
  case SENSIM_PAYLOAD_GRAY16:
  case SENSIM_PAYLOAD_RAW16: {
    const uint16_t *src = (const uint16_t *)f->data + base;
    for (size_t x = 0; x < w; x++) put_be16(row + 2 * x, src[x]);
    break;
  }
  case SENSIM_PAYLOAD_RGB16: {
    const uint16_t *src = (const uint16_t *)f->data + 3 * base;
    for (size_t x = 0; x < 3 * w; x++) put_be16(row + 2 * x, src[x]);
    break;
  }
  case SENSIM_PAYLOAD_DEPTH_F32: {
    const float *src = (const float *)f->data + base;
    for (size_t x = 0; x < w; x++) put_be16(row + 2 * x, depth_mm(src[x]));
    break;
  }
  case SENSIM_PAYLOAD_LABELS: {
    const sensim_label *src = (const sensim_label *)f->data + base;
    for (size_t x = 0; x < w; x++) put_be16(row + 2 * x, src[x].class_id);
    break;
  }
  default:
    break;
  }
}

/* Write the image; separate from sensim_write_png so that no local that
 * changes after setjmp lives in the function that calls it (C11 7.13.2.1). */
static int png_encode(FILE *fp, const sensim_frame *f, int color, int depth, uint8_t *row,
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
  png_set_IHDR(png, info, f->width, f->height, depth, color, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < f->height; y++) {
    pack_row(f, y, row);
    png_write_row(png, row);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return 0;
}

sensim_status sensim_write_png(const char *path, const sensim_frame *frame) {
  if (!path || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_write_png: NULL argument");
  int color, depth, channels_bytes;
  switch (frame->type) {
  case SENSIM_PAYLOAD_RGBA8:
    color = PNG_COLOR_TYPE_RGB_ALPHA, depth = 8, channels_bytes = 4;
    break;
  case SENSIM_PAYLOAD_GRAY8:
    color = PNG_COLOR_TYPE_GRAY, depth = 8, channels_bytes = 1;
    break;
  case SENSIM_PAYLOAD_GRAY16:
  case SENSIM_PAYLOAD_RAW16:
  case SENSIM_PAYLOAD_DEPTH_F32:
  case SENSIM_PAYLOAD_LABELS:
    color = PNG_COLOR_TYPE_GRAY, depth = 16, channels_bytes = 2;
    break;
  case SENSIM_PAYLOAD_RGB16:
    color = PNG_COLOR_TYPE_RGB, depth = 16, channels_bytes = 6;
    break;
  default:
    return sensim__fail(SENSIM_ETYPE, "cannot write a %s frame as PNG '%s'",
                        sensim_payload_name(frame->type), path);
  }
  /* PNG limits width and height to 2^31 - 1 (ISO/IEC 15948 11.2.2). */
  if (frame->width == 0 || frame->height == 0 || frame->width > 0x7fffffffu ||
      frame->height > 0x7fffffffu || !frame->data ||
      frame->count != (size_t)frame->width * frame->height)
    return sensim__fail(SENSIM_EINVAL, "PNG '%s': frame is %ux%u with %zu elements%s", path,
                        frame->width, frame->height, frame->count,
                        frame->data ? "" : " and no data");
  uint8_t *row = malloc((size_t)frame->width * (size_t)channels_bytes);
  if (!row) return sensim__fail(SENSIM_ENOMEM, "PNG '%s': out of memory", path);
  sensim__afile af;
  sensim_status st = sensim__afile_open(path, &af);
  if (st != SENSIM_OK) {
    free(row);
    return st;
  }
  png_err err = {{0}};
  int rc = png_encode(af.fp, frame, color, depth, row, &err);
  free(row);
  if (rc != 0) {
    sensim__afile_abort(&af);
    return sensim__fail(SENSIM_EIO, "PNG '%s': %s", path, err.msg);
  }
  return sensim__afile_commit(&af);
}
