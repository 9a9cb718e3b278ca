/* tools/draw.c: canvases, text, ticks and colour bars on cairo
 * (tools/draw.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/draw.h"
#include "tools/tools_internal.h"

sensim_status sensim_tools__canvas_create(int w, int h, const char *what, sensim_tools__canvas *c) {
  memset(c, 0, sizeof *c);
  if (w < 1 || h < 1 || w > SENSIM_TOOLS__MAX_SIDE || h > SENSIM_TOOLS__MAX_SIDE)
    return sensim_error_set(SENSIM_EINVAL, "%s: %d x %d px is outside 1 .. %d px a side", what, w, h,
                            SENSIM_TOOLS__MAX_SIDE);
  c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
  if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(c->surface);
    c->surface = NULL;
    return sensim_error_set(SENSIM_ENOMEM, "%s: cannot allocate %d x %d px", what, w, h);
  }
  c->cr = cairo_create(c->surface);
  if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) {
    sensim_tools__canvas_destroy(c);
    return sensim_error_set(SENSIM_ENOMEM, "%s: cannot start drawing", what);
  }
  c->w = w;
  c->h = h;
  cairo_set_source_rgb(c->cr, 1, 1, 1);
  cairo_paint(c->cr);
  sensim_tools__font(c->cr, 12.0, 0);
  return SENSIM_OK;
}

void sensim_tools__canvas_destroy(sensim_tools__canvas *c) {
  if (c->cr) cairo_destroy(c->cr);
  if (c->surface) cairo_surface_destroy(c->surface);
  c->cr = NULL;
  c->surface = NULL;
}

/* cairo keeps premultiplied native-endian 0xXXRRGGBB words; the frame is
 * byte-ordered RGBA, opaque. */
sensim_status sensim_tools__canvas_write_png(sensim_tools__canvas *c, const char *path) {
  cairo_status_t cs = cairo_status(c->cr);
  if (cs != CAIRO_STATUS_SUCCESS)
    return sensim_error_set(cs == CAIRO_STATUS_NO_MEMORY ? SENSIM_ENOMEM : SENSIM_EIO,
                            "'%s': drawing failed: %s", path, cairo_status_to_string(cs));
  cairo_surface_flush(c->surface);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  sensim_status st = sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGBA8, (uint32_t)c->w, (uint32_t)c->h);
  if (st != SENSIM_OK) return st;
  const unsigned char *base = cairo_image_surface_get_data(c->surface);
  int stride = cairo_image_surface_get_stride(c->surface);
  uint8_t *o = f.data;
  for (int y = 0; y < c->h; y++) {
    const uint32_t *row = (const uint32_t *)(const void *)(base + (size_t)y * (size_t)stride);
    for (int x = 0; x < c->w; x++, o += 4) {
      uint32_t p = row[x];
      o[0] = (uint8_t)(p >> 16);
      o[1] = (uint8_t)(p >> 8);
      o[2] = (uint8_t)p;
      o[3] = 255;
    }
  }
  st = sensim_write_png(path, &f);
  sensim_frame_release(&f);
  return st;
}

void sensim_tools__font(cairo_t *cr, double size, int bold) {
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

double sensim_tools__text_width(cairo_t *cr, const char *s) {
  if (!s || !*s) return 0.0;
  cairo_text_extents_t e;
  cairo_text_extents(cr, s, &e);
  return e.x_advance;
}

double sensim_tools__text(cairo_t *cr, double x, double y, const char *s, double ax, double ay,
                          double angle) {
  if (!s || !*s) return 0.0;
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  double w = sensim_tools__text_width(cr, s);
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, -angle); /* device y points down: a positive angle turns anticlockwise */
  cairo_move_to(cr, -ax * w, fe.ascent - ay * (fe.ascent + fe.descent));
  cairo_show_text(cr, s);
  cairo_restore(cr);
  return w;
}

cairo_surface_t *sensim_tools__surface_from_image(const sensim_image *img) {
  if (img->channels != 1 && img->channels != 3) {
    sensim_error_set(SENSIM_EINVAL, "image of %d channels (1 or 3 expected)", img->channels);
    return NULL;
  }
  cairo_surface_t *s =
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)img->width, (int)img->height);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    sensim_error_set(SENSIM_ENOMEM, "cannot allocate a %u x %u picture", img->width, img->height);
    return NULL;
  }
  cairo_surface_flush(s);
  unsigned char *base = cairo_image_surface_get_data(s);
  int stride = cairo_image_surface_get_stride(s), ch = img->channels;
  for (uint32_t y = 0; y < img->height; y++) {
    uint32_t *row = (uint32_t *)(void *)(base + (size_t)y * (size_t)stride);
    const float *p = img->data + (size_t)y * img->width * (size_t)ch;
    for (uint32_t x = 0; x < img->width; x++, p += ch) {
      uint32_t q[3];
      for (int k = 0; k < 3; k++) {
        float v = p[ch == 3 ? k : 0];
        v = v > 1.0f ? 1.0f : v >= 0.0f ? v : 0.0f; /* NaN -> 0 */
        q[k] = (uint32_t)lroundf(v * 255.0f);
      }
      row[x] = 0xff000000u | q[0] << 16 | q[1] << 8 | q[2];
    }
  }
  cairo_surface_mark_dirty(s);
  return s;
}

cairo_surface_t *sensim_tools__surface_from_rgba8(const uint8_t *rgba, uint32_t w, uint32_t h) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    sensim_error_set(SENSIM_ENOMEM, "cannot allocate a %u x %u picture", w, h);
    return NULL;
  }
  cairo_surface_flush(s);
  unsigned char *base = cairo_image_surface_get_data(s);
  int stride = cairo_image_surface_get_stride(s);
  for (uint32_t y = 0; y < h; y++) {
    uint32_t *row = (uint32_t *)(void *)(base + (size_t)y * (size_t)stride);
    const uint8_t *p = rgba + (size_t)y * w * 4;
    for (uint32_t x = 0; x < w; x++, p += 4)
      row[x] = 0xff000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
  }
  cairo_surface_mark_dirty(s);
  return s;
}

int sensim_tools__nice_ticks(double a, double b, int target, double *t, int cap) {
  if (!(b > a) || !isfinite(a) || !isfinite(b) || target < 1) return 0;
  double raw = (b - a) / target, p10 = pow(10.0, floor(log10(raw))), step = p10;
  if (raw / p10 >= 5.0) step = 5.0 * p10;
  else if (raw / p10 >= 2.0) step = 2.0 * p10;
  int n = 0;
  /* Counted from an integer multiple, so 0.1 + 0.2 drift never adds up. */
  for (double k = ceil(a / step - 1e-9); n < cap; k += 1.0) {
    double v = k * step;
    if (v > b + 1e-9 * step) break;
    t[n++] = fabs(v) < 1e-9 * step ? 0.0 : v;
  }
  return n;
}

void sensim_tools__tick_text(char *buf, size_t n, double v, double step) {
  step = fabs(step);
  if (fabs(v) < 1e-9 * step) {
    snprintf(buf, n, "0");
    return;
  }
  /* As many decimals as the step has (0.5 -> 1, 0.02 -> 2, 10 -> 0); %g
   * for values too large or steps too fine to read that way. */
  if (step >= 1e-4 && fabs(v) < 1e6) {
    int decimals = (int)ceil(-log10(step) - 1e-9);
    snprintf(buf, n, "%.*f", decimals > 0 ? decimals : 0, v);
  } else {
    snprintf(buf, n, "%.3g", v);
  }
}

void sensim_tools__colorbar(cairo_t *cr, double x, double y, double w, double h,
                            sensim_tools__cmap_fn map, double v0, double v1, const char *label) {
  int rows = (int)lround(h);
  for (int r = 0; r < rows; r++) {
    uint8_t rgb[3];
    map(rows > 1 ? 1.0 - (r + 0.5) / rows : 0.5, rgb);
    sensim_tools__rgb(cr, rgb);
    cairo_rectangle(cr, x, y + r, w, 1.0);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1.0);
  cairo_rectangle(cr, floor(x) + 0.5, floor(y) + 0.5, w - 1, rows - 1);
  cairo_stroke(cr);
  double t[32], step = 0, wmax = 0;
  int nt = sensim_tools__nice_ticks(fmin(v0, v1), fmax(v0, v1), (int)fmin(8, fmax(2, h / 60)), t, 32);
  if (nt > 1) step = t[1] - t[0];
  sensim_tools__font(cr, 11.0, 0);
  for (int i = 0; i < nt; i++) {
    double ty = floor(y + (v1 - t[i]) / (v1 - v0) * h);
    ty = fmin(fmax(ty, floor(y)), floor(y) + rows - 1) + 0.5;
    cairo_move_to(cr, x + w, ty);
    cairo_line_to(cr, x + w + 5, ty);
    cairo_stroke(cr);
    char buf[32];
    sensim_tools__tick_text(buf, sizeof buf, t[i], step != 0 ? step : t[i]);
    wmax = fmax(wmax, sensim_tools__text(cr, x + w + 8, ty, buf, 0.0, 0.5, 0.0));
  }
  if (label) sensim_tools__text(cr, x + w + 14 + wmax, y + h / 2, label, 0.5, 0.0, M_PI / 2);
}
