/* tools/plot.c: small raster plots written as PNG (sensim_tools/plot.h).
 *
 * Everything drawn is kept (copied) until the PNG is written; rendering
 * then fits the axes to all of it: in each axis's drawing coordinate
 * (the value, or its base-10 logarithm) the range of the finite points,
 * widened by 5 % on both sides. Lines are rasterised with Bresenham's
 * algorithm (J. E. Bresenham, "Algorithm for computer control of a digital
 * plotter", IBM Systems Journal 4(1), 1965) after clipping each segment to
 * the plot area with the Liang-Barsky parametric test (Y.-D. Liang, B. A.
 * Barsky, "A new concept and method for line clipping", ACM TOG 3(1),
 * 1984). Ticks on linear axes fall on 1, 2 or 5 times a power of ten, on
 * log axes on decades (with 2 and 5 when fewer than two decades show). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"
#include "tools/plot_font.h"

typedef struct series {
  int bars;          /* 0 polyline (x, y: n points), 1 bars (x: n + 1 edges, y: n counts) */
  double *x, *y;
  size_t n;
  sensim_plot_style style;
  char *legend;      /* owned copy of style.legend */
} series;

struct sensim_plot {
  int w, h;
  char *title, *xlabel, *ylabel;
  int log_x, log_y;
  series *s;
  size_t ns, cap;
};

enum { MAX_SIDE = 8192, CHAR_ADV = SENSIM_TOOLS__FONT_W + 1 };

sensim_status sensim_plot_create(int width, int height, const char *title, const char *xlabel,
                                  const char *ylabel, int log_x, int log_y, sensim_plot **out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "plot: out is NULL");
  *out = NULL;
  if (width < 160 || height < 120 || width > MAX_SIDE || height > MAX_SIDE)
    return sensim_error_set(SENSIM_EINVAL, "plot: size %d x %d outside 160 x 120 .. %d x %d", width,
                        height, MAX_SIDE, MAX_SIDE);
  sensim_plot *p = calloc(1, sizeof *p);
  if (!p) return sensim_error_set(SENSIM_ENOMEM, "plot: out of memory");
  p->w = width;
  p->h = height;
  p->log_x = !!log_x;
  p->log_y = !!log_y;
  p->title = sensim_tools__strdup(title);
  p->xlabel = sensim_tools__strdup(xlabel);
  p->ylabel = sensim_tools__strdup(ylabel);
  if ((title && !p->title) || (xlabel && !p->xlabel) || (ylabel && !p->ylabel)) {
    sensim_plot_destroy(p);
    return SENSIM_ENOMEM;
  }
  *out = p;
  return SENSIM_OK;
}

void sensim_plot_destroy(sensim_plot *p) {
  if (!p) return;
  for (size_t i = 0; i < p->ns; i++) {
    free(p->s[i].x);
    free(p->s[i].y);
    free(p->s[i].legend);
  }
  free(p->s);
  free(p->title);
  free(p->xlabel);
  free(p->ylabel);
  free(p);
}

static sensim_status add_series(sensim_plot *p, int bars, const double *x, size_t nx,
                                const double *y, size_t n, const sensim_plot_style *style) {
  static const sensim_plot_style black = {{0, 0, 0}, 0, 0, NULL};
  if (!style) style = &black;
  series s;
  memset(&s, 0, sizeof s);
  s.bars = bars;
  s.n = n;
  s.style = *style;
  s.x = malloc(nx * sizeof *s.x);
  s.y = malloc(n * sizeof *s.y);
  s.legend = sensim_tools__strdup(style->legend);
  if (!s.x || !s.y || (style->legend && !s.legend) ||
      sensim_tools__grow((void **)&p->s, &p->cap, p->ns + 1, sizeof *p->s) != SENSIM_OK) {
    free(s.x);
    free(s.y);
    free(s.legend);
    return sensim_error_set(SENSIM_ENOMEM, "plot: out of memory for %zu points", n);
  }
  memcpy(s.x, x, nx * sizeof *s.x);
  memcpy(s.y, y, n * sizeof *s.y);
  s.style.legend = s.legend;
  p->s[p->ns++] = s;
  return SENSIM_OK;
}

sensim_status sensim_plot_line(sensim_plot *p, const double *x, const double *y, size_t n,
                                const sensim_plot_style *style) {
  if (!p || !x || !y) return sensim_error_set(SENSIM_EINVAL, "plot_line: NULL argument");
  if (n < 1) return sensim_error_set(SENSIM_EINVAL, "plot_line: no points");
  return add_series(p, 0, x, n, y, n, style);
}

sensim_status sensim_plot_bars(sensim_plot *p, const double *edges, const double *counts,
                                size_t nbins, const sensim_plot_style *style) {
  if (!p || !edges || !counts) return sensim_error_set(SENSIM_EINVAL, "plot_bars: NULL argument");
  if (nbins < 1) return sensim_error_set(SENSIM_EINVAL, "plot_bars: no bins");
  return add_series(p, 1, edges, nbins + 1, counts, nbins, style);
}

/* ---- rendering ---------------------------------------------------------- */

typedef struct canvas {
  int w, h;
  uint8_t *rgb;
  int x0, x1, y0, y1;         /* plot area, pixels (inclusive) */
  double u0, u1, v0, v1;      /* its range in drawing coordinates */
  int log_x, log_y;
} canvas;

static void put(canvas *c, int x, int y, const uint8_t rgb[3]) {
  if (x < 0 || y < 0 || x >= c->w || y >= c->h) return;
  memcpy(c->rgb + 3 * ((size_t)y * (size_t)c->w + (size_t)x), rgb, 3);
}

static void text(canvas *c, int x, int y, const char *s, const uint8_t rgb[3]) {
  for (; s && *s; s++, x += CHAR_ADV) {
    const uint8_t *g = sensim_tools__font_glyph(*s);
    if (!g) g = sensim_tools__font_glyph('?');
    for (int r = 0; r < SENSIM_TOOLS__FONT_H; r++)
      for (int b = 0; b < SENSIM_TOOLS__FONT_W; b++)
        if (g[r] & (0x10 >> b)) put(c, x + b, y + r, rgb);
  }
}

static int text_w(const char *s) { return s ? (int)strlen(s) * CHAR_ADV - 1 : 0; }

/* Drawing coordinate of a value on an axis; NaN when it cannot be shown. */
static double coord(double v, int log_axis) {
  if (!isfinite(v) || (log_axis && !(v > 0.0))) return NAN;
  return log_axis ? log10(v) : v;
}

static double px_x(const canvas *c, double u) {
  return c->x0 + (u - c->u0) / (c->u1 - c->u0) * (c->x1 - c->x0);
}
static double px_y(const canvas *c, double v) {
  return c->y1 - (v - c->v0) / (c->v1 - c->v0) * (c->y1 - c->y0);
}

/* Liang-Barsky: clip (ax, ay)-(bx, by) to the plot area; 0 if outside. */
static int clip(const canvas *c, double *ax, double *ay, double *bx, double *by) {
  double t0 = 0.0, t1 = 1.0, dx = *bx - *ax, dy = *by - *ay;
  const double pq[4][2] = {{-dx, *ax - c->x0}, {dx, c->x1 - *ax}, {-dy, *ay - c->y0},
                           {dy, c->y1 - *ay}};
  for (int i = 0; i < 4; i++) {
    double pp = pq[i][0], q = pq[i][1];
    if (pp == 0.0) {
      if (q < 0.0) return 0;
      continue;
    }
    double r = q / pp;
    if (pp < 0.0) {
      if (r > t1) return 0;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return 0;
      if (r < t1) t1 = r;
    }
  }
  double x = *ax, y = *ay;
  *ax = x + t0 * dx;
  *ay = y + t0 * dy;
  *bx = x + t1 * dx;
  *by = y + t1 * dy;
  return 1;
}

/* Bresenham from (x0, y0) to (x1, y1); `phase` carries the dash pattern
 * (6 px on, 4 off) from segment to segment. */
static void segment(canvas *c, double fx0, double fy0, double fx1, double fy1,
                    const uint8_t rgb[3], int dashed, int *phase) {
  if (!clip(c, &fx0, &fy0, &fx1, &fy1)) return;
  int x0 = (int)lround(fx0), y0 = (int)lround(fy0), x1 = (int)lround(fx1), y1 = (int)lround(fy1);
  int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    if (!dashed || (*phase % 10) < 6) {
      put(c, x0, y0, rgb);
      /* Two pixels wide, so thin lines stay visible. */
      if (dx >= -dy) put(c, x0, y0 + 1, rgb);
      else put(c, x0 + 1, y0, rgb);
    }
    (*phase)++;
    if (x0 == x1 && y0 == y1) break;
    int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

static void fill_rect(canvas *c, int xa, int ya, int xb, int yb, const uint8_t rgb[3]) {
  if (xa > xb) { int t = xa; xa = xb; xb = t; }
  if (ya > yb) { int t = ya; ya = yb; yb = t; }
  for (int y = ya; y <= yb; y++)
    for (int x = xa; x <= xb; x++) put(c, x, y, rgb);
}

static void draw_series(canvas *c, const series *s) {
  const uint8_t *col = s->style.rgb;
  if (s->bars) {
    uint8_t light[3];
    for (int k = 0; k < 3; k++) light[k] = (uint8_t)(255 - (255 - col[k]) / 4);
    double base = c->log_y ? c->v0 : (0.0 < c->v0 ? c->v0 : 0.0 > c->v1 ? c->v1 : 0.0);
    for (size_t i = 0; i < s->n; i++) {
      double ua = coord(s->x[i], c->log_x), ub = coord(s->x[i + 1], c->log_x);
      double v = coord(s->y[i], c->log_y);
      if (isnan(ua) || isnan(ub) || isnan(v)) continue;
      double xa = px_x(c, ua), xb = px_x(c, ub), yb = px_y(c, base), yt = px_y(c, v);
      double cx0 = fmax(fmin(xa, xb), c->x0), cx1 = fmin(fmax(xa, xb), c->x1);
      double cy0 = fmax(fmin(yt, yb), c->y0), cy1 = fmin(fmax(yt, yb), c->y1);
      if (cx0 > cx1 || cy0 > cy1) continue;
      fill_rect(c, (int)lround(cx0), (int)lround(cy0), (int)lround(cx1), (int)lround(cy1), light);
      int ph = 0;
      segment(c, xa, yb, xa, yt, col, 0, &ph);
      segment(c, xa, yt, xb, yt, col, 0, &ph);
      segment(c, xb, yt, xb, yb, col, 0, &ph);
    }
    return;
  }
  int phase = 0, have = 0;
  double px = 0, py = 0;
  for (size_t i = 0; i < s->n; i++) {
    double u = coord(s->x[i], c->log_x), v = coord(s->y[i], c->log_y);
    if (isnan(u) || isnan(v)) {
      have = 0; /* a gap in the polyline */
      continue;
    }
    double x = px_x(c, u), y = px_y(c, v);
    if (have) segment(c, px, py, x, y, col, s->style.dashed, &phase);
    if (s->style.marker && x >= c->x0 && x <= c->x1 && y >= c->y0 && y <= c->y1)
      fill_rect(c, (int)lround(x) - 2, (int)lround(y) - 2, (int)lround(x) + 2, (int)lround(y) + 2,
                col);
    px = x;
    py = y;
    have = 1;
  }
}

/* Range of the drawing coordinates of everything drawn, per axis. */
static void data_range(const sensim_plot *p, double r[4]) {
  r[0] = r[2] = INFINITY;
  r[1] = r[3] = -INFINITY;
  for (size_t i = 0; i < p->ns; i++) {
    const series *s = &p->s[i];
    size_t nx = s->bars ? s->n + 1 : s->n;
    for (size_t j = 0; j < nx; j++) {
      double u = coord(s->x[j], p->log_x);
      if (!isnan(u)) r[0] = fmin(r[0], u), r[1] = fmax(r[1], u);
    }
    for (size_t j = 0; j < s->n; j++) {
      double v = coord(s->y[j], p->log_y);
      if (!isnan(v)) r[2] = fmin(r[2], v), r[3] = fmax(r[3], v);
    }
    if (s->bars && !p->log_y) r[2] = fmin(r[2], 0.0), r[3] = fmax(r[3], 0.0);
  }
  for (int a = 0; a < 4; a += 2) {
    if (!(r[a] <= r[a + 1])) r[a] = 0.0, r[a + 1] = 1.0;
    double span = r[a + 1] - r[a];
    if (span <= 1e-12 * fmax(1.0, fabs(r[a]))) span = fmax(1.0, fabs(r[a])) * 0.5, r[a] -= span / 2, r[a + 1] += span / 2;
    r[a] -= 0.05 * span;
    r[a + 1] += 0.05 * span;
  }
}

static void fmt_tick(char *buf, size_t n, double v, int log_axis) {
  if (log_axis) {
    double e = round(v);
    if (fabs(v - e) < 1e-9 && (e < -3 || e > 4))
      snprintf(buf, n, "1e%d", (int)e);
    else
      snprintf(buf, n, "%.3g", pow(10.0, v));
  } else {
    snprintf(buf, n, "%.4g", fabs(v) < 1e-12 ? 0.0 : v);
  }
}

/* Tick positions in drawing coordinates over [a, b]; returns the count. */
static int ticks(double a, double b, int log_axis, double *t, int cap) {
  int n = 0;
  if (log_axis && b - a >= 1.0) {
    int step = (int)ceil((b - a) / 8.0);
    for (double e = ceil(a); e <= b && n < cap; e += step) t[n++] = e;
    return n;
  }
  if (log_axis) {
    static const double mult[3] = {1.0, 2.0, 5.0};
    for (double e = floor(a); e <= ceil(b); e += 1.0)
      for (int k = 0; k < 3 && n < cap; k++) {
        double v = e + log10(mult[k]);
        if (v >= a && v <= b) t[n++] = v;
      }
    if (n >= 2) return n;
    n = 0;
  }
  double raw = (b - a) / 5.0, p10 = pow(10.0, floor(log10(raw))), step = p10;
  if (raw / p10 >= 5.0) step = 5.0 * p10;
  else if (raw / p10 >= 2.0) step = 2.0 * p10;
  for (double v = ceil(a / step) * step; v <= b && n < cap; v += step) t[n++] = v;
  return n;
}

static void render(const sensim_plot *p, canvas *c) {
  static const uint8_t black[3] = {0, 0, 0}, grid[3] = {225, 225, 225}, white[3] = {255, 255, 255};
  memset(c->rgb, 255, (size_t)c->w * (size_t)c->h * 3);
  c->x0 = 62;
  c->x1 = c->w - 12;
  c->y0 = 30;
  c->y1 = c->h - 34;
  double r[4];
  data_range(p, r);
  c->u0 = r[0], c->u1 = r[1], c->v0 = r[2], c->v1 = r[3];
  double t[64];
  char buf[32];
  int nt = ticks(c->u0, c->u1, c->log_x, t, 64);
  for (int i = 0; i < nt; i++) {
    int x = (int)lround(px_x(c, t[i]));
    for (int y = c->y0; y <= c->y1; y++) put(c, x, y, grid);
    for (int y = c->y1; y <= c->y1 + 3; y++) put(c, x, y, black);
    fmt_tick(buf, sizeof buf, t[i], c->log_x);
    text(c, x - text_w(buf) / 2, c->y1 + 6, buf, black);
  }
  nt = ticks(c->v0, c->v1, c->log_y, t, 64);
  for (int i = 0; i < nt; i++) {
    int y = (int)lround(px_y(c, t[i]));
    for (int x = c->x0; x <= c->x1; x++) put(c, x, y, grid);
    for (int x = c->x0 - 3; x <= c->x0; x++) put(c, x, y, black);
    fmt_tick(buf, sizeof buf, t[i], c->log_y);
    text(c, c->x0 - 5 - text_w(buf), y - SENSIM_TOOLS__FONT_H / 2, buf, black);
  }
  for (size_t i = 0; i < p->ns; i++) draw_series(c, &p->s[i]);
  for (int x = c->x0; x <= c->x1; x++) put(c, x, c->y0, black), put(c, x, c->y1, black);
  for (int y = c->y0; y <= c->y1; y++) put(c, c->x0, y, black), put(c, c->x1, y, black);
  if (p->title) text(c, (c->w - text_w(p->title)) / 2, 8, p->title, black);
  if (p->ylabel) text(c, 4, c->y0 - 12, p->ylabel, black);
  if (p->xlabel) text(c, (c->x0 + c->x1 - text_w(p->xlabel)) / 2, c->h - 12, p->xlabel, black);
  /* Legend: top right inside the axes, one row per labelled series. */
  int rows = 0, wmax = 0;
  for (size_t i = 0; i < p->ns; i++)
    if (p->s[i].legend) rows++, wmax = text_w(p->s[i].legend) > wmax ? text_w(p->s[i].legend) : wmax;
  if (rows == 0) return;
  int lw = wmax + 30, lh = rows * 11 + 5, lx = c->x1 - lw - 4, ly = c->y0 + 4;
  fill_rect(c, lx, ly, lx + lw, ly + lh, white);
  int ph = 0;
  segment(c, lx, ly, lx + lw, ly, black, 0, &ph);
  segment(c, lx + lw, ly, lx + lw, ly + lh, black, 0, &ph);
  segment(c, lx, ly + lh, lx + lw, ly + lh, black, 0, &ph);
  segment(c, lx, ly, lx, ly + lh, black, 0, &ph);
  int row = 0;
  for (size_t i = 0; i < p->ns; i++) {
    const series *s = &p->s[i];
    if (!s->legend) continue;
    int y = ly + 4 + row * 11 + SENSIM_TOOLS__FONT_H / 2;
    ph = 0;
    if (s->bars) fill_rect(c, lx + 4, y - 3, lx + 20, y + 3, s->style.rgb);
    else segment(c, lx + 4, y, lx + 20, y, s->style.rgb, s->style.dashed, &ph);
    if (s->style.marker) fill_rect(c, lx + 10, y - 2, lx + 14, y + 2, s->style.rgb);
    text(c, lx + 25, y - SENSIM_TOOLS__FONT_H / 2, s->legend, black);
    row++;
  }
}

/* ---- PNG ------------------------------------------------------------------ */

/* The canvas goes out through sensim's own PNG writer (sensim_write_png:
 * libpng, all or nothing), as an opaque rgba8 frame. */
sensim_status sensim_plot_write_png(const sensim_plot *p, const char *path) {
  if (!p || !path) return sensim_error_set(SENSIM_EINVAL, "plot_write_png: NULL argument");
  canvas c;
  memset(&c, 0, sizeof c);
  c.w = p->w;
  c.h = p->h;
  c.log_x = p->log_x;
  c.log_y = p->log_y;
  c.rgb = malloc((size_t)c.w * (size_t)c.h * 3);
  if (!c.rgb) return sensim_error_set(SENSIM_ENOMEM, "plot '%s': out of memory", path);
  render(p, &c);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  sensim_status st = sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGBA8, (uint32_t)c.w, (uint32_t)c.h);
  if (st == SENSIM_OK) {
    uint8_t *o = f.data;
    for (size_t i = 0; i < f.count; i++) {
      memcpy(o + 4 * i, c.rgb + 3 * i, 3);
      o[4 * i + 3] = 255;
    }
    st = sensim_write_png(path, &f);
    if (st != SENSIM_OK) sensim_error_prefix("plot '%s'", path);
  }
  sensim_frame_release(&f);
  free(c.rgb);
  return st;
}
