/* tools/contact_sheet.c: a grid of a folder's PNG frames
 * (sensim_tools/contact_sheet.h). Images are scaled by cairo with its
 * "good" filter, which averages over the source pixels each thumbnail
 * pixel covers when shrinking (a box filter), so a thumbnail keeps its
 * image's mean colour instead of aliasing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/draw.h"
#include "tools/tools_internal.h"

void sensim_contact_sheet_params_init(sensim_contact_sheet_params *p) {
  if (!p) return;
  p->cols = 0;
  p->max_frames = 64;
  p->cell_width = 240;
  p->title = NULL;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Draw s centred at (cx, y) within max_w px, cut in the middle with "..."
 * when it is wider (the index at the front and the number at the end of a
 * frame's name are what tell frames apart). */
static void caption(cairo_t *cr, double cx, double y, const char *s, double max_w) {
  size_t n = strlen(s);
  char buf[512];
  snprintf(buf, sizeof buf, "%s", s);
  if (sensim_tools__text_width(cr, buf) > max_w) {
    for (size_t keep = n < sizeof buf - 4 ? n : sizeof buf - 4; keep > 2; keep--) {
      size_t head = keep / 2, tail = keep - head;
      snprintf(buf, sizeof buf, "%.*s...%s", (int)head, s, s + n - tail);
      if (sensim_tools__text_width(cr, buf) <= max_w) break;
    }
  }
  sensim_tools__text(cr, cx, y, buf, 0.5, 0.0, 0.0);
}

/* Scale one image into the box at (x, y). */
static sensim_status draw_cell(cairo_t *cr, const char *file, double x, double y, int cw, int ch) {
  sensim_image im;
  sensim_status st = sensim_read_png(file, &im);
  if (st != SENSIM_OK) {
    sensim_error_prefix("contact sheet: '%s'", file);
    return st;
  }
  cairo_surface_t *s = sensim_tools__surface_from_image(&im);
  double w = im.width, h = im.height;
  sensim_image_free(&im);
  if (!s) {
    sensim_error_prefix("contact sheet: '%s'", file);
    return SENSIM_ENOMEM;
  }
  double k = fmin(cw / w, ch / h);
  cairo_save(cr);
  cairo_rectangle(cr, x, y, cw, ch);
  cairo_clip(cr);
  cairo_translate(cr, x + (cw - w * k) / 2.0, y + (ch - h * k) / 2.0);
  cairo_scale(cr, k, k);
  cairo_set_source_surface(cr, s, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
  cairo_rectangle(cr, 0, 0, w, h);
  cairo_fill(cr);
  cairo_restore(cr);
  cairo_surface_destroy(s);
  return SENSIM_OK;
}

/* Size of the first frame, from its header's IHDR (ISO/IEC 15948 11.2.2:
 * width and height big-endian at bytes 16 and 20) so the sheet's geometry
 * is known before any image is decoded; 0 if unreadable. */
static int first_size(const char *path, uint32_t *w, uint32_t *h) {
  unsigned char b[24];
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  size_t got = fread(b, 1, sizeof b, fp);
  fclose(fp);
  if (got != sizeof b) return 0;
  *w = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
  *h = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
  return *w > 0 && *h > 0;
}

sensim_status sensim_contact_sheet_write_png(const char *dir, const sensim_contact_sheet_params *p,
                                             const char *path, sensim_contact_sheet_info *info) {
  if (!dir || !p || !path) return sensim_error_set(SENSIM_EINVAL, "contact sheet: NULL argument");
  if (p->cols < 0 || p->cols > 256)
    return sensim_error_set(SENSIM_EINVAL, "contact sheet: %d columns (0..256)", p->cols);
  if (p->cell_width < 16 || p->cell_width > 2048)
    return sensim_error_set(SENSIM_EINVAL, "contact sheet: cell width %d px (16..2048)",
                            p->cell_width);
  char **files = NULL;
  size_t n = 0;
  sensim_status st = sensim_list_pngs(dir, &files, &n);
  if (st != SENSIM_OK) return st;
  if (n == 0) {
    sensim_free_paths(files, n);
    return sensim_error_set(SENSIM_EINVAL, "contact sheet: '%s' holds no PNG file", dir);
  }
  sensim_contact_sheet_info g;
  memset(&g, 0, sizeof g);
  g.files = n;
  g.frames = p->max_frames == 0 || p->max_frames >= n ? n : p->max_frames;
  g.cols = p->cols > 0 ? p->cols : (int)ceil(sqrt((double)g.frames));
  if ((size_t)g.cols > g.frames) g.cols = (int)g.frames;
  g.rows = (int)((g.frames + (size_t)g.cols - 1) / (size_t)g.cols);
  uint32_t w0 = 0, h0 = 0;
  if (!first_size(files[0], &w0, &h0)) {
    sensim_status e = sensim_error_set(SENSIM_EPARSE, "contact sheet: '%s' is not a PNG", files[0]);
    sensim_free_paths(files, n);
    return e;
  }
  g.cell_w = p->cell_width;
  g.cell_h = (int)lround(g.cell_w * (double)h0 / (double)w0);
  g.cell_h = g.cell_h < 8 ? 8 : g.cell_h > 4 * g.cell_w ? 4 * g.cell_w : g.cell_h;
  double W = SENSIM_CONTACT_PAD + (double)g.cols * (g.cell_w + SENSIM_CONTACT_PAD);
  double H = SENSIM_CONTACT_TITLE_H +
             (double)g.rows * (g.cell_h + SENSIM_CONTACT_CAPTION_H + SENSIM_CONTACT_PAD);
  if (W > SENSIM_TOOLS__MAX_SIDE || H > SENSIM_TOOLS__MAX_SIDE) {
    sensim_free_paths(files, n);
    return sensim_error_set(SENSIM_EINVAL,
                            "contact sheet: %zu frames in %d columns of %d px make %.0f x %.0f px, "
                            "over %d a side: show fewer frames or columns, or narrower cells",
                            g.frames, g.cols, g.cell_w, W, H, SENSIM_TOOLS__MAX_SIDE);
  }
  g.width = (int)W;
  g.height = (int)H;
  sensim_tools__canvas c;
  st = sensim_tools__canvas_create(g.width, g.height, "contact sheet", &c);
  if (st != SENSIM_OK) {
    sensim_free_paths(files, n);
    return st;
  }
  cairo_t *cr = c.cr;
  cairo_set_source_rgb(cr, 0, 0, 0);
  sensim_tools__font(cr, 14.0, 1);
  char head[600];
  snprintf(head, sizeof head, "%s: %zu of %zu frames", p->title ? p->title : dir, g.frames, n);
  caption(cr, g.width / 2.0, 8.0, head, g.width - 2.0 * SENSIM_CONTACT_PAD);
  for (size_t k = 0; k < g.frames && st == SENSIM_OK; k++) {
    size_t f = g.frames == n ? k
               : g.frames == 1 ? 0
                               : (size_t)floor((double)k * (double)(n - 1) / (double)(g.frames - 1) + 0.5);
    double x = SENSIM_CONTACT_PAD + (double)(k % (size_t)g.cols) * (g.cell_w + SENSIM_CONTACT_PAD);
    double y = SENSIM_CONTACT_TITLE_H +
               (double)(k / (size_t)g.cols) * (g.cell_h + SENSIM_CONTACT_CAPTION_H + SENSIM_CONTACT_PAD);
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_rectangle(cr, x, y, g.cell_w, g.cell_h);
    cairo_fill(cr);
    st = draw_cell(cr, files[f], x, y, g.cell_w, g.cell_h);
    char cap[600];
    snprintf(cap, sizeof cap, "#%zu %s", f, base_name(files[f]));
    cairo_set_source_rgb(cr, 0, 0, 0);
    sensim_tools__font(cr, 11.0, 0);
    caption(cr, x + g.cell_w / 2.0, y + g.cell_h + 3.0, cap, g.cell_w);
  }
  sensim_free_paths(files, n);
  if (st == SENSIM_OK) {
    st = sensim_tools__canvas_write_png(&c, path);
    if (st != SENSIM_OK) sensim_error_prefix("contact sheet '%s'", path);
  }
  sensim_tools__canvas_destroy(&c);
  if (st == SENSIM_OK && info) *info = g;
  return st;
}
