/* tools/preview.c: depth and label previews (sensim_tools/preview.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/draw.h"
#include "tools/tools_internal.h"

enum { LUT = 1024 };

void sensim_depth_preview_params_init(sensim_depth_preview_params *p) {
  if (!p) return;
  p->min_range = 0.0;
  p->max_range = 80.0;
}

/* The picture around an image of w x h (preview.h's layout). The callers
 * write the image's pixels straight into the surface's rows, so each is
 * exactly its colour, with no resampling. */
static sensim_status open_canvas(uint32_t w, uint32_t h, const char *what, sensim_tools__canvas *c) {
  if (w == 0 || h == 0 || w > SENSIM_TOOLS__MAX_SIDE || h > SENSIM_TOOLS__MAX_SIDE)
    return sensim_error_set(SENSIM_EINVAL, "%s: image of %u x %u px", what, w, h);
  int H = (int)h > SENSIM_PREVIEW_MIN_H ? (int)h : SENSIM_PREVIEW_MIN_H;
  return sensim_tools__canvas_create((int)w + SENSIM_PREVIEW_PANEL_W, H, what, c);
}

static uint32_t *row_of(sensim_tools__canvas *c, uint32_t y) {
  return (uint32_t *)(void *)(cairo_image_surface_get_data(c->surface) +
                              (size_t)y * (size_t)cairo_image_surface_get_stride(c->surface));
}

static uint32_t pack(const uint8_t rgb[3]) {
  return 0xff000000u | (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
}

static sensim_status finish(sensim_tools__canvas *c, const char *what, const char *path) {
  sensim_status st = sensim_tools__canvas_write_png(c, path);
  if (st != SENSIM_OK) sensim_error_prefix("%s '%s'", what, path);
  sensim_tools__canvas_destroy(c);
  return st;
}

/* ---- depth ---------------------------------------------------------------- */

static void viridis_map(double t, uint8_t rgb[3]) { sensim_colormap_viridis(t, rgb); }

sensim_status sensim_depth_preview_write_png(const float *depth, uint32_t width, uint32_t height,
                                             const sensim_depth_preview_params *p,
                                             const char *path) {
  if (!depth || !p || !path) return sensim_error_set(SENSIM_EINVAL, "depth preview: NULL argument");
  if (!(isfinite(p->min_range) && isfinite(p->max_range) && p->max_range > p->min_range))
    return sensim_error_set(SENSIM_EINVAL, "depth preview: range %g .. %g m is not increasing",
                            p->min_range, p->max_range);
  sensim_tools__canvas c;
  sensim_status st = open_canvas(width, height, "depth preview", &c);
  if (st != SENSIM_OK) return st;
  uint32_t table[LUT];
  for (int i = 0; i < LUT; i++) {
    uint8_t rgb[3];
    sensim_colormap_viridis(i / (double)(LUT - 1), rgb);
    table[i] = pack(rgb);
  }
  cairo_surface_flush(c.surface);
  const double scale = (LUT - 1) / (p->max_range - p->min_range);
  for (uint32_t y = 0; y < height; y++) {
    uint32_t *row = row_of(&c, y);
    const float *d = depth + (size_t)y * width;
    for (uint32_t x = 0; x < width; x++) {
      if (!(d[x] > 0.0f)) {
        row[x] = 0xff000000u;
        continue;
      }
      double k = (d[x] - p->min_range) * scale;
      row[x] = table[k <= 0.0 ? 0 : k >= LUT - 1 ? LUT - 1 : (int)lround(k)];
    }
  }
  cairo_surface_mark_dirty(c.surface);
  cairo_t *cr = c.cr;
  const double bx = width + 18.0, by = 16.0, bh = c.h - 16.0 - 44.0;
  sensim_tools__colorbar(cr, bx, by, 20.0, bh, viridis_map, p->min_range, p->max_range,
                         "depth (m)");
  /* The key for pixels with no depth. */
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, bx, c.h - 30.0, 20.0, 14.0);
  cairo_fill(cr);
  sensim_tools__font(cr, 11.0, 0);
  sensim_tools__text(cr, bx + 28.0, c.h - 23.0, "no return", 0.0, 0.5, 0.0);
  return finish(&c, "depth preview", path);
}

/* A sensim image from a grey PNG whose samples are the 16-bit (or 8-bit)
 * codes: sensim_read_png scales them by 1 / (2^bits - 1), undone here
 * exactly (a float holds every 16-bit code / 65535 to 24 bits). */
static sensim_status read_codes(const char *path, int need16, const char *what, sensim_image *im,
                                double *full) {
  int channels = 0, bits = sensim_tools__png_bits(path, &channels);
  sensim_status st = sensim_read_png(path, im);
  if (st != SENSIM_OK) return st;
  if (channels != 1 || (need16 ? bits != 16 : (bits != 8 && bits != 16))) {
    sensim_image_free(im);
    return sensim_error_set(SENSIM_EINVAL, "'%s' is a %d-bit %s PNG, not %s grey as sensim writes %s",
                            path, bits, channels == 1 ? "grey" : "colour",
                            need16 ? "16-bit" : "8- or 16-bit", what);
  }
  *full = bits == 16 ? 65535.0 : 255.0;
  return SENSIM_OK;
}

sensim_status sensim_depth_preview_png(const char *in_path, const sensim_depth_preview_params *p,
                                       const char *out_path) {
  if (!in_path || !p || !out_path)
    return sensim_error_set(SENSIM_EINVAL, "depth preview: NULL argument");
  sensim_image im;
  double full;
  sensim_status st = read_codes(in_path, 1, "depth (mm)", &im, &full);
  if (st != SENSIM_OK) return st;
  size_t n = (size_t)im.width * im.height;
  float *d = malloc(n * sizeof *d);
  if (!d) {
    sensim_image_free(&im);
    return sensim_error_set(SENSIM_ENOMEM, "depth preview: out of memory for %zu pixels", n);
  }
  for (size_t i = 0; i < n; i++) d[i] = (float)(lround(im.data[i] * full) / 1000.0);
  st = sensim_depth_preview_write_png(d, im.width, im.height, p, out_path);
  free(d);
  sensim_image_free(&im);
  return st;
}

/* ---- labels --------------------------------------------------------------- */

typedef struct id_count {
  uint32_t id;
  size_t n;
} id_count;

static int by_id(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int by_count_desc(const void *a, const void *b) {
  const id_count *x = a, *y = b;
  if (x->n != y->n) return x->n < y->n ? 1 : -1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static void legend(cairo_t *cr, double x, int H, const id_count *ids, size_t nid, size_t npx,
                   sensim_label_field field) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  sensim_tools__font(cr, 12.0, 1);
  sensim_tools__text(cr, x, 12.0, field == SENSIM_LABEL_CLASS ? "class id" : "instance id", 0.0,
                     0.0, 0.0);
  sensim_tools__font(cr, 11.0, 0);
  const double row_h = 18.0, top = 36.0;
  size_t rows = (size_t)((H - top - 8.0) / row_h);
  size_t shown = nid <= rows ? nid : rows - 1;
  for (size_t i = 0; i < shown; i++) {
    double y = top + i * row_h;
    uint8_t rgb[3];
    sensim_label_color(ids[i].id, rgb);
    sensim_tools__rgb(cr, rgb);
    cairo_rectangle(cr, x, y, 14.0, 14.0);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    char buf[64];
    snprintf(buf, sizeof buf, "%lu%s (%.1f %%)", (unsigned long)ids[i].id,
             ids[i].id == 0 ? " none" : "", 100.0 * (double)ids[i].n / (double)npx);
    cairo_set_source_rgb(cr, 0, 0, 0);
    sensim_tools__text(cr, x + 22.0, y + 7.0, buf, 0.0, 0.5, 0.0);
  }
  if (shown < nid) {
    char buf[64];
    snprintf(buf, sizeof buf, "+ %zu more", nid - shown);
    sensim_tools__text(cr, x, top + shown * row_h + 7.0, buf, 0.0, 0.5, 0.0);
  }
}

sensim_status sensim_label_preview_write_png(const sensim_label *labels, uint32_t width,
                                             uint32_t height, sensim_label_field field,
                                             const char *path) {
  if (!labels || !path) return sensim_error_set(SENSIM_EINVAL, "label preview: NULL argument");
  if (field != SENSIM_LABEL_CLASS && field != SENSIM_LABEL_INSTANCE)
    return sensim_error_set(SENSIM_EINVAL, "label preview: field %d is not class or instance",
                            (int)field);
  sensim_tools__canvas c;
  sensim_status st = open_canvas(width, height, "label preview", &c);
  if (st != SENSIM_OK) return st;
  size_t n = (size_t)width * height;
  uint32_t *ids = malloc(n * sizeof *ids);
  id_count *counts = malloc(n * sizeof *counts);
  if (!ids || !counts) {
    free(ids);
    free(counts);
    sensim_tools__canvas_destroy(&c);
    return sensim_error_set(SENSIM_ENOMEM, "label preview: out of memory for %zu pixels", n);
  }
  cairo_surface_flush(c.surface);
  for (uint32_t y = 0; y < height; y++) {
    uint32_t *row = row_of(&c, y);
    for (uint32_t x = 0; x < width; x++) {
      size_t i = (size_t)y * width + x;
      ids[i] = field == SENSIM_LABEL_CLASS ? labels[i].class_id : labels[i].instance_id;
      uint8_t rgb[3];
      sensim_label_color(ids[i], rgb);
      row[x] = pack(rgb);
    }
  }
  cairo_surface_mark_dirty(c.surface);
  /* The ids present and their pixel counts, most common first. */
  qsort(ids, n, sizeof *ids, by_id);
  size_t nid = 0;
  for (size_t i = 0; i < n; i++) {
    if (nid > 0 && counts[nid - 1].id == ids[i]) counts[nid - 1].n++;
    else counts[nid].id = ids[i], counts[nid].n = 1, nid++;
  }
  qsort(counts, nid, sizeof *counts, by_count_desc);
  legend(c.cr, width + 16.0, c.h, counts, nid, n, field);
  free(ids);
  free(counts);
  return finish(&c, "label preview", path);
}

sensim_status sensim_label_preview_png(const char *in_path, const char *out_path) {
  if (!in_path || !out_path) return sensim_error_set(SENSIM_EINVAL, "label preview: NULL argument");
  sensim_image im;
  double full = 0.0;
  sensim_status st = read_codes(in_path, 0, "class ids", &im, &full);
  if (st != SENSIM_OK) return st;
  size_t n = (size_t)im.width * im.height;
  sensim_label *l = calloc(n, sizeof *l);
  if (!l) {
    sensim_image_free(&im);
    return sensim_error_set(SENSIM_ENOMEM, "label preview: out of memory for %zu pixels", n);
  }
  for (size_t i = 0; i < n; i++) l[i].class_id = (uint16_t)lround(im.data[i] * full);
  st = sensim_label_preview_write_png(l, im.width, im.height, SENSIM_LABEL_CLASS, out_path);
  free(l);
  sensim_image_free(&im);
  return st;
}
