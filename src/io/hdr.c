/* io/hdr.c: Radiance RGBE (.hdr) images: shared-exponent RGB (Ward, "Real
 * pixels", Graphics Gems II, 1991), header and run-length encoded
 * scanlines as the Radiance file format describes them (Ward, "The
 * RADIANCE lighting simulation and rendering system", SIGGRAPH 1994; the
 * format's reference notes in Radiance's ray/src/common/color.c are the
 * specification we follow, not copied). Read: "#?RADIANCE" or "#?RGBE",
 * FORMAT=32-bit_rle_rgbe, the "-Y h +X w" orientation, flat or new-style
 * RLE scanlines. Write: the same, RLE where the width allows (8..32767). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensim/io.h"

#define MAX_SIDE 65536u

static sensim_status bad(const char *path, const char *what) {
  return sensim__fail(SENSIM_EPARSE, "HDR image '%s': %s", path, what);
}

/* One header line (without its newline) into buf; -1 at the end of file. */
static int read_line(FILE *f, char *buf, size_t n) {
  size_t k = 0;
  int c;
  while ((c = fgetc(f)) != EOF && c != '\n')
    if (k + 1 < n) buf[k++] = (char)c;
  buf[k] = '\0';
  return c == EOF && k == 0 ? -1 : 0;
}

static void rgbe_to_float(const unsigned char p[4], float *rgb) {
  if (p[3] == 0) {
    rgb[0] = rgb[1] = rgb[2] = 0.0f;
    return;
  }
  const float f = ldexpf(1.0f, (int)p[3] - (128 + 8));
  for (int c = 0; c < 3; c++) rgb[c] = ((float)p[c] + 0.5f) * f;
}

/* One scanline of w pixels into line (4 w bytes, RGBE). */
static int read_scanline(FILE *f, uint32_t w, unsigned char *line) {
  unsigned char head[4];
  if (fread(head, 1, 4, f) != 4) return -1;
  if (w < 8 || w > 32767 || head[0] != 2 || head[1] != 2 || (head[2] & 0x80)) {
    /* Flat pixels. */
    memcpy(line, head, 4);
    return w > 1 && fread(line + 4, 4, w - 1, f) != w - 1 ? -1 : 0;
  }
  if (((uint32_t)head[2] << 8 | head[3]) != w) return -2;
  /* New-style RLE: the four components one after another, each as runs
   * (count > 128: count - 128 copies of the next byte) and literals. */
  for (int c = 0; c < 4; c++) {
    uint32_t x = 0;
    while (x < w) {
      int n = fgetc(f);
      if (n == EOF) return -1;
      if (n > 128) {
        n -= 128;
        const int v = fgetc(f);
        if (v == EOF) return -1;
        if ((uint32_t)n > w - x) return -2;
        for (int k = 0; k < n; k++) line[4 * (x++) + c] = (unsigned char)v;
      } else {
        if (n == 0 || (uint32_t)n > w - x) return -2;
        for (int k = 0; k < n; k++) {
          const int v = fgetc(f);
          if (v == EOF) return -1;
          line[4 * (x++) + c] = (unsigned char)v;
        }
      }
    }
  }
  return 0;
}

sensim_status sensim_read_hdr(const char *path, sensim_image *out) {
  if (!path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_read_hdr: NULL argument");
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return sensim__fail(SENSIM_ENOTFOUND, "HDR image '%s': cannot open", path);
  char line[512];
  sensim_status rc = SENSIM_OK;
  if (read_line(f, line, sizeof line) < 0 || (strcmp(line, "#?RADIANCE") != 0 && strcmp(line, "#?RGBE") != 0)) {
    fclose(f);
    return bad(path, "not a Radiance HDR file (no #?RADIANCE or #?RGBE first line)");
  }
  for (int lines = 0;; lines++) {
    if (read_line(f, line, sizeof line) < 0 || lines > 1000) {
      fclose(f);
      return bad(path, "truncated header (no blank line before the resolution)");
    }
    if (!line[0]) break;
    if (strncmp(line, "FORMAT=", 7) == 0 && strcmp(line + 7, "32-bit_rle_rgbe") != 0) {
      fclose(f);
      return bad(path, "FORMAT is not 32-bit_rle_rgbe (XYZE and others are not supported)");
    }
  }
  long h = 0, w = 0;
  char extra;
  if (read_line(f, line, sizeof line) < 0 || sscanf(line, "-Y %ld +X %ld %c", &h, &w, &extra) != 2) {
    fclose(f);
    return bad(path, "resolution line is not \"-Y height +X width\" (other orientations are not supported)");
  }
  if (h < 1 || w < 1 || h > (long)MAX_SIDE || w > (long)MAX_SIDE) {
    fclose(f);
    return sensim__fail(SENSIM_EPARSE, "HDR image '%s': size %ldx%ld must be within 1..%u", path, w, h, MAX_SIDE);
  }
  char what[96];
  snprintf(what, sizeof what, "HDR image '%s' of %ldx%ld", path, w, h);
  if (sensim__check_bytes((double)w * (double)h * 3 * sizeof(float), what)) {
    fclose(f);
    return SENSIM_EINVAL;
  }
  float *rgb = malloc((size_t)w * (size_t)h * 3 * sizeof *rgb);
  unsigned char *scan = malloc((size_t)w * 4);
  if (!rgb || !scan) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for %s", what);
  } else {
    for (long y = 0; y < h && !rc; y++) {
      const int r = read_scanline(f, (uint32_t)w, scan);
      if (r == -1)
        rc = sensim__fail(SENSIM_EPARSE, "HDR image '%s': truncated at scanline %ld of %ld", path, y, h);
      else if (r == -2)
        rc = sensim__fail(SENSIM_EPARSE, "HDR image '%s': corrupt run-length data in scanline %ld", path, y);
      else
        for (long x = 0; x < w; x++) rgbe_to_float(scan + 4 * x, rgb + 3 * ((size_t)y * (size_t)w + (size_t)x));
    }
  }
  free(scan);
  fclose(f);
  if (rc) {
    free(rgb);
    return rc;
  }
  out->width = (uint32_t)w, out->height = (uint32_t)h, out->channels = 3, out->data = rgb;
  return SENSIM_OK;
}

static void float_to_rgbe(const float *rgb, unsigned char p[4]) {
  const float v = fmaxf(rgb[0], fmaxf(rgb[1], rgb[2]));
  if (!(v >= 1e-32f)) {
    p[0] = p[1] = p[2] = p[3] = 0;
    return;
  }
  int e;
  const float m = frexpf(v, &e) * 256.0f / v; /* v m < 256 */
  for (int c = 0; c < 3; c++) p[c] = (unsigned char)(rgb[c] * m);
  p[3] = (unsigned char)(e + 128);
}

/* One component of a scanline, run-length encoded: runs of at least 4
 * equal bytes as (128 + n, byte), the rest as literals of up to 128. */
static int write_component(FILE *f, const unsigned char *line, uint32_t w, int c) {
  uint32_t x = 0;
  while (x < w) {
    /* The next run of >= 4 from x, if any. */
    uint32_t run_at = x, run = 0;
    while (run_at < w) {
      run = 1;
      while (run_at + run < w && run < 127 && line[4 * (run_at + run) + c] == line[4 * run_at + c]) run++;
      if (run >= 4) break;
      run_at += run;
      run = 0;
    }
    while (x < run_at) { /* literals before it */
      uint32_t n = run_at - x > 128 ? 128 : run_at - x;
      if (fputc((int)n, f) == EOF) return -1;
      for (uint32_t k = 0; k < n; k++)
        if (fputc(line[4 * (x + k) + c], f) == EOF) return -1;
      x += n;
    }
    if (run >= 4) {
      if (fputc((int)(128 + run), f) == EOF || fputc(line[4 * x + c], f) == EOF) return -1;
      x += run;
    }
  }
  return 0;
}

sensim_status sensim_write_hdr(const char *path, uint32_t width, uint32_t height, const float *rgb) {
  if (!path || !rgb) return sensim__fail(SENSIM_EINVAL, "sensim_write_hdr: NULL argument");
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
    return sensim__fail(SENSIM_EINVAL, "HDR image '%s': size %ux%u must be within 1..%u", path, width, height,
                        MAX_SIDE);
  const size_t n = (size_t)width * height * 3;
  for (size_t i = 0; i < n; i++)
    if (!(rgb[i] >= 0.0f && rgb[i] <= 1.7e38f))
      return sensim__fail(SENSIM_EINVAL, "HDR image '%s': value %zu = %g must be finite and >= 0", path, i,
                          (double)rgb[i]);
  unsigned char *line = malloc((size_t)width * 4);
  if (!line) return sensim__fail(SENSIM_ENOMEM, "out of memory writing HDR image '%s'", path);
  FILE *f = fopen(path, "wb");
  if (!f) {
    free(line);
    return sensim__fail(SENSIM_EIO, "HDR image '%s': cannot create", path);
  }
  int bad_io = fprintf(f, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n", height, width) < 0;
  const int rle = width >= 8 && width <= 32767;
  for (uint32_t y = 0; y < height && !bad_io; y++) {
    for (uint32_t x = 0; x < width; x++) float_to_rgbe(rgb + 3 * ((size_t)y * width + x), line + 4 * x);
    if (!rle) {
      bad_io = fwrite(line, 4, width, f) != width;
      continue;
    }
    const unsigned char head[4] = {2, 2, (unsigned char)(width >> 8), (unsigned char)(width & 255)};
    bad_io = fwrite(head, 1, 4, f) != 4;
    for (int c = 0; c < 4 && !bad_io; c++) bad_io = write_component(f, line, width, c) != 0;
  }
  free(line);
  if (fclose(f) != 0) bad_io = 1;
  if (bad_io) return sensim__fail(SENSIM_EIO, "HDR image '%s': write failed", path);
  return SENSIM_OK;
}

sensim_status sensim_texture_load_hdr(sensim_world *world, const char *path, sensim_texture **out) {
  if (!world || !path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_texture_load_hdr: NULL argument");
  sensim_image img;
  sensim_status rc = sensim_read_hdr(path, &img);
  if (rc) return rc;
  rc = sensim_texture_create_hdr(world, img.width, img.height, img.data, out);
  sensim_image_free(&img);
  if (rc) sensim__error_context("HDR image '%s'", path);
  return rc;
}
