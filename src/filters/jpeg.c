/* filters/jpeg.c: "jpeg", JPEG compression artefacts: the 8-bit image is
 * encoded at a chosen quality and decoded again through libjpeg (Debian's
 * libjpeg62-turbo), so the frame carries exactly what a camera that streams
 * JPEG (MJPEG over USB, many IP cameras) delivers after its host decodes
 * it: 8 x 8 block DCT quantisation (blocking, ringing at edges) and, for
 * colour, chroma subsampling (ITU-T T.81 | ISO/IEC 10918-1; JFIF 1.02).
 *
 * rgba8 -> rgba8 (alpha kept as it was: JPEG has no alpha) and
 * gray8 -> gray8. Parameters: {"quality": 1..100 [75] (libjpeg's IJG
 * scaling of the T.81 Annex K tables: Q < 50 scales them by 50 / Q,
 * Q >= 50 by 2 - Q / 50), "subsampling": "4:4:4", "4:2:2" or "4:2:0"
 * ["4:2:0", the default of libjpeg and of most cameras]}. Encoding uses
 * the accurate integer DCT (JDCT_ISLOW, the same bits with and without
 * libjpeg-turbo's SIMD), Huffman tables optimised off, baseline; decoding
 * uses the accurate integer IDCT and libjpeg's default (fancy) chroma
 * upsampling. libjpeg's errors, which by default exit the process, are
 * caught (setjmp) and returned as SENSIM_EIO. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/jpeg_error.h"
#include "filters/chain.h"

typedef struct jpeg_params {
  int quality;      /* 1..100 */
  int h_samp, v_samp; /* luma sampling factors relative to chroma: 4:2:0 is 2 x 2 */
} jpeg_params;

static sensim_status jpeg_create(const cJSON *params, void **user) {
  static const char *const known[] = {"quality", "subsampling", NULL};
  jpeg_params p = {75, 2, 2};
  double q = p.quality;
  sensim_status rc = sensim__param_only(params, "jpeg", known);
  if (!rc) rc = sensim__param_number(params, "quality", &q);
  if (rc) return rc;
  if (!(q >= 1 && q <= 100 && q == (int)q))
    return sensim__fail(SENSIM_EINVAL, "jpeg: quality %g must be an integer in [1, 100]", q);
  p.quality = (int)q;
  const cJSON *ss = params ? cJSON_GetObjectItemCaseSensitive(params, "subsampling") : NULL;
  if (ss) {
    static const char *const names[] = {"4:4:4", "4:2:2", "4:2:0", NULL};
    static const int hv[][2] = {{1, 1}, {2, 1}, {2, 2}};
    int k = -1;
    for (int i = 0; cJSON_IsString(ss) && names[i]; i++)
      if (strcmp(ss->valuestring, names[i]) == 0) k = i;
    if (k < 0) {
      char hint[96];
      return sensim__fail(SENSIM_EINVAL, "jpeg: subsampling must be \"4:4:4\", \"4:2:2\" or \"4:2:0\"%s",
                          cJSON_IsString(ss) ? sensim__did_you_mean(hint, sizeof hint, ss->valuestring, names) : "");
    }
    p.h_samp = hv[k][0], p.v_samp = hv[k][1];
  }
  jpeg_params *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = p;
  *user = u;
  return SENSIM_OK;
}

static sensim_status roundtrip(const jpeg_params *p, uint8_t *px, uint32_t W, uint32_t H, int channels, int step) {
  struct jpeg_compress_struct c;
  struct jpeg_decompress_struct d;
  sensim_jpeg_error e;
  /* volatile: changed between setjmp and a possible longjmp; mem is
   * written by libjpeg through its address (jpeg_mem_dest), and is ours to
   * free whether compression finished or not. */
  unsigned char *mem = NULL;
  unsigned char *volatile row = NULL;
  volatile int made_c = 0, made_d = 0;
  unsigned long size = 0;
  memset(&c, 0, sizeof c);
  memset(&d, 0, sizeof d);
  c.err = d.err = sensim__jpeg_error_init(&e);
  sensim_status rc = SENSIM_OK;
  if (setjmp(e.jump)) {
    rc = sensim__fail(SENSIM_EIO, "jpeg: libjpeg: %s", e.msg);
    goto done;
  }
  row = malloc((size_t)W * channels);
  if (!row) {
    rc = sensim__fail(SENSIM_ENOMEM, "jpeg: out of memory for a %u-pixel row", W);
    goto done;
  }
  jpeg_create_compress(&c);
  made_c = 1;
  {
    jpeg_mem_dest(&c, &mem, &size);
    c.image_width = W;
    c.image_height = H;
    c.input_components = channels;
    c.in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, p->quality, TRUE);
    c.dct_method = JDCT_ISLOW;
    c.optimize_coding = FALSE;
    if (channels == 3) {
      c.comp_info[0].h_samp_factor = p->h_samp, c.comp_info[0].v_samp_factor = p->v_samp;
      for (int i = 1; i < 3; i++) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    }
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < H) {
      const uint8_t *src = px + (size_t)c.next_scanline * W * step;
      for (uint32_t x = 0; x < W; x++)
        for (int k = 0; k < channels; k++) row[(size_t)x * channels + k] = src[(size_t)x * step + k];
      JSAMPROW r = row;
      jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
  }
  jpeg_destroy_compress(&c);
  made_c = 0;
  jpeg_create_decompress(&d);
  made_d = 1;
  jpeg_mem_src(&d, mem, size);
  jpeg_read_header(&d, TRUE);
  d.out_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
  d.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&d);
  if (d.output_width != W || d.output_height != H || d.output_components != channels) {
    rc = sensim__fail(SENSIM_EIO, "jpeg: decoded %ux%ux%d, encoded %ux%ux%d", d.output_width, d.output_height,
                      d.output_components, W, H, channels);
    goto done;
  }
  while (d.output_scanline < H) {
    uint8_t *dst = px + (size_t)d.output_scanline * W * step;
    JSAMPROW r = row;
    jpeg_read_scanlines(&d, &r, 1);
    for (uint32_t x = 0; x < W; x++)
      for (int k = 0; k < channels; k++) dst[(size_t)x * step + k] = row[(size_t)x * channels + k];
  }
  jpeg_finish_decompress(&d);
done:
  if (made_c) jpeg_destroy_compress(&c);
  if (made_d) jpeg_destroy_decompress(&d);
  free(mem);
  free(row);
  return rc;
}

static sensim_status jpeg_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  const jpeg_params *p = user;
  /* JPEG's image size is 16-bit (T.81 B.2.2), and libjpeg refuses 0. */
  if (f->width < 1 || f->height < 1 || f->width > 65500 || f->height > 65500)
    return sensim__fail(SENSIM_EINVAL, "jpeg: image %ux%u is outside JPEG's 1..65500 pixels per side", f->width,
                        f->height);
  if (f->type == SENSIM_PAYLOAD_RGBA8) return roundtrip(p, f->data, f->width, f->height, 3, 4);
  if (f->type == SENSIM_PAYLOAD_GRAY8) return roundtrip(p, f->data, f->width, f->height, 1, 1);
  return sensim__fail(SENSIM_ETYPE, "jpeg: takes rgba8 or gray8, not %s", sensim_payload_name(f->type));
}

static const sensim_payload kJpegAccepts[] = {SENSIM_PAYLOAD_RGBA8, SENSIM_PAYLOAD_GRAY8, SENSIM_PAYLOAD_NONE};

const sensim_builtin_filter sensim__filter_jpeg = {
    .def = {.name = "jpeg",
            .in = SENSIM_PAYLOAD_ANY,
            .out = SENSIM_PAYLOAD_ANY,
            .apply = jpeg_apply,
            .destroy = free},
    .create = jpeg_create,
    .accepts = kJpegAccepts};
