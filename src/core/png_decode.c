/* core/png_decode.c: PNG streams (files or bytes in memory) decoded into
 * float images through libpng, every channel kept.
 *
 * Every colour type and bit depth of PNG (ISO/IEC 15948:2004, 11.2.2) is
 * read: palette images are expanded to RGB, grey images below 8 bits are
 * widened to 8 (libpng replicates the bits, so the full range maps to
 * 0..255). tRNS transparency is not turned into an alpha channel. 16-bit
 * samples are stored most significant byte first (7.1) and are assembled by
 * hand. Samples are scaled by 1 / (2^depth - 1) with no gamma or sRGB
 * decoding, so values are the stored code values in [0, 1]. Below io (the
 * public PNG reader) and scene (textures of imported meshes), which both
 * use it. */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/png_decode.h"

/* libpng reports errors by longjmp; the message is kept for sensim__fail. */
typedef struct read_err {
  char msg[200];
} read_err;

static void on_error(png_structp png, png_const_charp msg) {
  read_err *e = png_get_error_ptr(png);
  snprintf(e->msg, sizeof e->msg, "%s", msg ? msg : "libpng error");
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

/* What decode() allocates, kept outside its stack frame: after a longjmp
 * the caller frees whatever is here (C11 7.13.2.1 leaves non-volatile
 * locals of the function that called setjmp indeterminate once changed). */
typedef struct decode_out {
  uint8_t *pix;        /* height x rowbytes, as libpng delivers them */
  png_bytep *rows;     /* row pointers into pix */
  uint32_t width, height;
  int in_channels;     /* channels per pixel after the transformations, 1..4 */
  int depth;           /* 8 or 16 */
} decode_out;

/* Decode the whole image into o->pix; -1 with err->msg on any failure
 * (o->pix and o->rows may then hold buffers the caller frees). */
static int decode(FILE *fp, decode_out *o, read_err *err) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, err, on_error, on_warning);
  if (!png) {
    snprintf(err->msg, sizeof err->msg, "libpng could not start");
    return -1;
  }
  png_infop info = png_create_info_struct(png);
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    snprintf(err->msg, sizeof err->msg, "libpng could not start");
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    return -1;
  }
  png_init_io(png, fp);
  png_read_info(png, info);
  int color = png_get_color_type(png, info);
  int depth = png_get_bit_depth(png, info);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  /* Interlaced files are de-interlaced by reading all passes at once. */
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  o->width = png_get_image_width(png, info);
  o->height = png_get_image_height(png, info);
  o->in_channels = png_get_channels(png, info);
  o->depth = png_get_bit_depth(png, info);
  size_t rowbytes = png_get_rowbytes(png, info);
  if (o->width == 0 || o->height == 0 || o->in_channels < 1 || o->in_channels > 4 ||
      (o->depth != 8 && o->depth != 16) ||
      rowbytes != (size_t)o->width * (size_t)o->in_channels * (size_t)(o->depth / 8)) {
    snprintf(err->msg, sizeof err->msg, "unexpected layout after decoding (%d channels, %d bits)",
             o->in_channels, o->depth);
    png_destroy_read_struct(&png, &info, NULL);
    return -1;
  }
  if ((size_t)o->height > SIZE_MAX / rowbytes) {
    snprintf(err->msg, sizeof err->msg, "image of %u x %u is too large", o->width, o->height);
    png_destroy_read_struct(&png, &info, NULL);
    return -1;
  }
  o->pix = malloc((size_t)o->height * rowbytes);
  o->rows = malloc((size_t)o->height * sizeof *o->rows);
  if (!o->pix || !o->rows) {
    snprintf(err->msg, sizeof err->msg, "out of memory for %u x %u pixels", o->width, o->height);
    png_destroy_read_struct(&png, &info, NULL);
    return -1;
  }
  for (uint32_t y = 0; y < o->height; y++) o->rows[y] = o->pix + (size_t)y * rowbytes;
  png_read_image(png, o->rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  return 0;
}

/* Every channel, scaled to [0, 1]. */
static void convert(const decode_out *o, float *dst) {
  const int channels = o->in_channels;
  size_t n = (size_t)o->width * o->height;
  int ic = o->in_channels;
  if (o->depth == 8) {
    /* code / 255 rounded once to float (a float reciprocal would round
     * twice and miss it by an ulp for some codes). */
    float table[256];
    for (int v = 0; v < 256; v++) table[v] = (float)(v / 255.0);
    for (size_t i = 0; i < n; i++)
      for (int c = 0; c < channels; c++) dst[i * channels + c] = table[o->pix[i * ic + c]];
  } else {
    for (size_t i = 0; i < n; i++)
      for (int c = 0; c < channels; c++) {
        const uint8_t *p = o->pix + 2 * (i * ic + c);
        dst[i * channels + c] = (float)((double)((unsigned)p[0] << 8 | p[1]) / 65535.0);
      }
  }
}

sensim_status sensim__png_decode(FILE *fp, const char *name, sensim__png *out) {
  memset(out, 0, sizeof *out);
  unsigned char sig[8];
  size_t got = fread(sig, 1, sizeof sig, fp);
  if (got != sizeof sig && ferror(fp))
    return sensim__fail(SENSIM_EIO, "PNG '%s': cannot read: %s", name, strerror(errno));
  if (got != sizeof sig || png_sig_cmp(sig, 0, sizeof sig) != 0)
    return sensim__fail(SENSIM_EPARSE, "'%s' is not a PNG file (bad signature)", name);
  rewind(fp);
  decode_out o;
  memset(&o, 0, sizeof o);
  read_err err = {{0}};
  int rc = decode(fp, &o, &err);
  int read_failed = ferror(fp);
  free(o.rows);
  if (rc != 0) {
    free(o.pix);
    return sensim__fail(read_failed ? SENSIM_EIO : SENSIM_EPARSE, "PNG '%s': %s", name, err.msg);
  }
  size_t n = (size_t)o.width * o.height;
  float *data = n <= SIZE_MAX / sizeof(float) / 4 ? malloc(n * (size_t)o.in_channels * sizeof *data) : NULL;
  if (!data) {
    free(o.pix);
    return sensim__fail(SENSIM_ENOMEM, "PNG '%s': out of memory for %u x %u pixels", name, o.width, o.height);
  }
  convert(&o, data);
  free(o.pix);
  out->width = o.width;
  out->height = o.height;
  out->channels = o.in_channels;
  out->data = data;
  return SENSIM_OK;
}
