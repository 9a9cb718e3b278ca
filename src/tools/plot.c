/* tools/plot.c: plots written as PNG (sensim_tools/plot.h), drawn with
 * cairo (antialiased lines, text in a sans-serif face).
 *
 * Everything drawn is kept (copied) until the PNG is written; rendering
 * then fits the axes to all of it: in each axis's drawing coordinate (the
 * value, or its base-10 logarithm) the range of the finite points, widened
 * by 5 % on both sides. Segments are clipped to the plot area by cairo.
 * Log axes carry decade ticks labelled 10^k with unlabelled minor ticks at
 * 2..9 times each decade, the usual log-paper ruling (Cleveland, "The
 * Elements of Graphing Data", 1994, sec. 2.4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/draw.h"
#include "tools/plot_internal.h"
#include "tools/tools_internal.h"

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

enum { MAX_SIDE = 8192 };

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

/* ---- axes --------------------------------------------------------------- */

/* Drawing coordinate of a value on an axis; NaN when it cannot be shown. */
static double coord(double v, int log_axis) {
  if (!isfinite(v) || (log_axis && !(v > 0.0))) return NAN;
  return log_axis ? log10(v) : v;
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
    if (span <= 1e-12 * fmax(1.0, fabs(r[a])))
      span = fmax(1.0, fabs(r[a])) * 0.5, r[a] -= span / 2, r[a + 1] += span / 2;
    r[a] -= 0.05 * span;
    r[a + 1] += 0.05 * span;
  }
}

/* Margins hold the tick labels (11 px text), the axis labels and the
 * title; they depend on which of those exist, never on the font. */
void sensim_tools__plot_frame_of(const sensim_plot *p, sensim_tools__plot_frame *f) {
  f->x0 = p->ylabel ? 76.0 : 58.0;
  f->x1 = p->w - 18.0;
  f->y0 = p->title ? 34.0 : 14.0;
  f->y1 = p->h - (p->xlabel ? 48.0 : 30.0);
  double r[4];
  data_range(p, r);
  f->u0 = r[0], f->u1 = r[1], f->v0 = r[2], f->v1 = r[3];
  f->log_x = p->log_x;
  f->log_y = p->log_y;
}

double sensim_tools__plot_px_x(const sensim_tools__plot_frame *f, double value) {
  double u = coord(value, f->log_x);
  return f->x0 + (u - f->u0) / (f->u1 - f->u0) * (f->x1 - f->x0);
}

double sensim_tools__plot_px_y(const sensim_tools__plot_frame *f, double value) {
  double v = coord(value, f->log_y);
  return f->y1 - (v - f->v0) / (f->v1 - f->v0) * (f->y1 - f->y0);
}

int sensim_tools__plot_ticks(double a, double b, int log_axis, double *major, int cap,
                             double *minor, int *nminor, int mcap) {
  *nminor = 0;
  if (log_axis && floor(b) - ceil(a) >= 1.0) { /* two decades or more inside */
    int step = (int)ceil((b - a) / 8.0), n = 0;
    for (double e = ceil(a); e <= b && n < cap; e += step) major[n++] = e;
    if (step == 1 && b - a <= 6.0)
      for (double e = floor(a); e <= b; e += 1.0)
        for (int k = 2; k <= 9 && *nminor < mcap; k++) {
          double v = e + log10((double)k);
          if (v >= a && v <= b) minor[(*nminor)++] = v;
        }
    return n;
  }
  if (log_axis) {
    static const double mult[3] = {1.0, 2.0, 5.0};
    int n = 0;
    for (double e = floor(a); e <= ceil(b); e += 1.0)
      for (int k = 0; k < 3 && n < cap; k++) {
        double v = e + log10(mult[k]);
        if (v >= a && v <= b) major[n++] = v;
      }
    if (n >= 2) return n;
  }
  return sensim_tools__nice_ticks(a, b, 5, major, cap);
}

/* ---- rendering ------------------------------------------------------------ */

/* A decade's label, 10 with its exponent raised in smaller type, anchored
 * as sensim_tools__text's (ax, ay). */
static void pow10_label(cairo_t *cr, double x, double y, int e, double ax, double ay) {
  char ex[16];
  snprintf(ex, sizeof ex, "%d", e);
  sensim_tools__font(cr, 11.0, 0);
  double wb = sensim_tools__text_width(cr, "10");
  sensim_tools__font(cr, 8.0, 0);
  double we = sensim_tools__text_width(cr, ex);
  double left = x - ax * (wb + we + 1.0), top = y - ay * 15.0 + 3.0;
  sensim_tools__font(cr, 11.0, 0);
  sensim_tools__text(cr, left, top, "10", 0.0, 0.0, 0.0);
  sensim_tools__font(cr, 8.0, 0);
  sensim_tools__text(cr, left + wb + 1.0, top - 4.0, ex, 0.0, 0.0, 0.0);
  sensim_tools__font(cr, 11.0, 0);
}

/* The label of tick value t (drawing coordinate) anchored at (x, y). */
static void tick_label(cairo_t *cr, double x, double y, double t, double step, int log_axis,
                       double ax, double ay) {
  char buf[32];
  if (log_axis && fabs(t - round(t)) < 1e-9) {
    pow10_label(cr, x, y, (int)round(t), ax, ay);
    return;
  } else if (log_axis) {
    snprintf(buf, sizeof buf, "%.3g", pow(10.0, t));
  } else {
    sensim_tools__tick_text(buf, sizeof buf, t, step);
  }
  sensim_tools__text(cr, x, y, buf, ax, ay, 0.0);
}

static void set_dash(cairo_t *cr, int dashed) {
  static const double pattern[2] = {6.0, 4.0};
  cairo_set_dash(cr, pattern, dashed ? 2 : 0, 0.0);
}

static void marker(cairo_t *cr, double x, double y) {
  cairo_rectangle(cr, x - 2.5, y - 2.5, 5.0, 5.0);
  cairo_fill(cr);
}

static void draw_series(cairo_t *cr, const sensim_tools__plot_frame *f, const series *s) {
  const uint8_t *c = s->style.rgb;
  if (s->bars) {
    double base = f->log_y ? f->v0 : fmin(fmax(0.0, f->v0), f->v1);
    double yb = f->y1 - (base - f->v0) / (f->v1 - f->v0) * (f->y1 - f->y0);
    cairo_set_line_width(cr, 1.0);
    for (size_t i = 0; i < s->n; i++) {
      double xa = sensim_tools__plot_px_x(f, s->x[i]), xb = sensim_tools__plot_px_x(f, s->x[i + 1]);
      double yt = sensim_tools__plot_px_y(f, s->y[i]);
      if (isnan(xa) || isnan(xb) || isnan(yt)) continue;
      cairo_rectangle(cr, xa, yt, xb - xa, yb - yt);
      cairo_set_source_rgba(cr, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0, 0.25);
      cairo_fill(cr);
      cairo_move_to(cr, xa, yb);
      cairo_line_to(cr, xa, yt);
      cairo_line_to(cr, xb, yt);
      cairo_line_to(cr, xb, yb);
      sensim_tools__rgb(cr, c);
      cairo_stroke(cr);
    }
    return;
  }
  sensim_tools__rgb(cr, c);
  cairo_set_line_width(cr, 2.0);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  /* Round ends reach the first and last points; dashes keep square ends
   * so their gaps stay open. */
  cairo_set_line_cap(cr, s->style.dashed ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_ROUND);
  set_dash(cr, s->style.dashed);
  int have = 0; /* a point that cannot be shown breaks the line */
  for (size_t i = 0; i < s->n; i++) {
    double x = sensim_tools__plot_px_x(f, s->x[i]), y = sensim_tools__plot_px_y(f, s->y[i]);
    if (isnan(x) || isnan(y)) {
      have = 0;
      continue;
    }
    if (have) cairo_line_to(cr, x, y);
    else cairo_move_to(cr, x, y);
    have = 1;
  }
  cairo_stroke(cr);
  set_dash(cr, 0);
  if (s->style.marker)
    for (size_t i = 0; i < s->n; i++) {
      double x = sensim_tools__plot_px_x(f, s->x[i]), y = sensim_tools__plot_px_y(f, s->y[i]);
      if (!isnan(x) && !isnan(y)) marker(cr, x, y);
    }
}

/* Grid lines and tick marks of one axis (vertical: 1 for y). */
static void axis(cairo_t *cr, const sensim_tools__plot_frame *f, int vertical) {
  double maj[64], mnr[128];
  int nm = 0, log_axis = vertical ? f->log_y : f->log_x;
  double a = vertical ? f->v0 : f->u0, b = vertical ? f->v1 : f->u1;
  int n = sensim_tools__plot_ticks(a, b, log_axis, maj, 64, mnr, &nm, 128);
  double step = n > 1 ? maj[1] - maj[0] : 1.0;
  cairo_set_line_width(cr, 1.0);
  for (int pass = 0; pass < 2; pass++) {
    const double *t = pass ? maj : mnr;
    int count = pass ? n : nm;
    double len = pass ? SENSIM_TOOLS__MAJOR_TICK : SENSIM_TOOLS__MINOR_TICK;
    for (int i = 0; i < count; i++) {
      double d = vertical ? f->y1 - (t[i] - a) / (b - a) * (f->y1 - f->y0)
                          : f->x0 + (t[i] - a) / (b - a) * (f->x1 - f->x0);
      d = floor(d) + 0.5;
      cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
      if (pass) { /* grid at major ticks only */
        if (vertical) cairo_move_to(cr, f->x0, d), cairo_line_to(cr, f->x1, d);
        else cairo_move_to(cr, d, f->y0), cairo_line_to(cr, d, f->y1);
        cairo_stroke(cr);
      }
      cairo_set_source_rgb(cr, 0, 0, 0);
      if (vertical) cairo_move_to(cr, f->x0, d), cairo_line_to(cr, f->x0 - len, d);
      else cairo_move_to(cr, d, f->y1), cairo_line_to(cr, d, f->y1 + len);
      cairo_stroke(cr);
      if (!pass) continue;
      if (vertical) tick_label(cr, f->x0 - 9.0, d, t[i], step, log_axis, 1.0, 0.5);
      else tick_label(cr, d, f->y1 + 9.0, t[i], step, log_axis, 0.5, 0.0);
    }
  }
}

/* How much of what is drawn falls in the box [x0, x1] x [y0, y1]: data
 * points, and points every eighth of the way along each segment (a line
 * crossing the box counts too), bar tops at both ends. */
static size_t hidden(const sensim_plot *p, const sensim_tools__plot_frame *f, double x0, double y0,
                     double x1, double y1) {
  size_t n = 0;
  for (size_t i = 0; i < p->ns; i++) {
    const series *s = &p->s[i];
    for (size_t j = 0; j < s->n; j++) {
      double xa = sensim_tools__plot_px_x(f, s->x[j]), ya = sensim_tools__plot_px_y(f, s->y[j]);
      double xb = xa, yb = ya;
      if (s->bars) xb = sensim_tools__plot_px_x(f, s->x[j + 1]);
      else if (j + 1 < s->n)
        xb = sensim_tools__plot_px_x(f, s->x[j + 1]), yb = sensim_tools__plot_px_y(f, s->y[j + 1]);
      if (isnan(xa) || isnan(ya) || isnan(xb) || isnan(yb)) continue;
      for (int k = 0; k < 8; k++) {
        double x = xa + (xb - xa) * k / 8.0, y = ya + (yb - ya) * k / 8.0;
        n += x >= x0 && x <= x1 && y >= y0 && y <= y1;
      }
    }
  }
  return n;
}

static void legend(cairo_t *cr, const sensim_plot *p, const sensim_tools__plot_frame *f) {
  int rows = 0;
  double wmax = 0.0;
  sensim_tools__font(cr, 11.0, 0);
  for (size_t i = 0; i < p->ns; i++)
    if (p->s[i].legend) rows++, wmax = fmax(wmax, sensim_tools__text_width(cr, p->s[i].legend));
  if (rows == 0) return;
  const double row_h = 16.0, lw = wmax + 44.0, lh = rows * row_h + 8.0;
  /* The corner of the axes where the box hides least of the data: top
   * right, top left, bottom right, bottom left, the first on a tie. */
  double lx = 0, ly = 0;
  size_t best = (size_t)-1;
  for (int c = 0; c < 4; c++) {
    double x = c % 2 ? f->x0 + 8.0 : f->x1 - lw - 8.0, y = c < 2 ? f->y0 + 8.0 : f->y1 - lh - 8.0;
    size_t h = hidden(p, f, x - 3.0, y - 3.0, x + lw + 3.0, y + lh + 3.0);
    if (h < best) best = h, lx = floor(x) + 0.5, ly = floor(y) + 0.5;
  }
  cairo_rectangle(cr, lx, ly, lw, lh);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.88);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  int row = 0;
  for (size_t i = 0; i < p->ns; i++) {
    const series *s = &p->s[i];
    if (!s->legend) continue;
    double y = ly + 4.0 + (row + 0.5) * row_h;
    if (s->bars) {
      cairo_rectangle(cr, lx + 8.0, y - 5.0, 24.0, 10.0);
      cairo_set_source_rgba(cr, s->style.rgb[0] / 255.0, s->style.rgb[1] / 255.0,
                            s->style.rgb[2] / 255.0, 0.25);
      cairo_fill_preserve(cr);
      sensim_tools__rgb(cr, s->style.rgb);
      cairo_set_line_width(cr, 1.0);
      cairo_stroke(cr);
    } else {
      sensim_tools__rgb(cr, s->style.rgb);
      cairo_set_line_width(cr, 2.0);
      set_dash(cr, s->style.dashed);
      cairo_move_to(cr, lx + 8.0, y);
      cairo_line_to(cr, lx + 32.0, y);
      cairo_stroke(cr);
      set_dash(cr, 0);
      if (s->style.marker) marker(cr, lx + 20.0, y);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    sensim_tools__text(cr, lx + 38.0, y, s->legend, 0.0, 0.5, 0.0);
    row++;
  }
}

static void render(const sensim_plot *p, cairo_t *cr) {
  sensim_tools__plot_frame f;
  sensim_tools__plot_frame_of(p, &f);
  sensim_tools__font(cr, 11.0, 0);
  axis(cr, &f, 0);
  axis(cr, &f, 1);
  cairo_save(cr);
  cairo_rectangle(cr, f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0);
  cairo_clip(cr);
  for (size_t i = 0; i < p->ns; i++) draw_series(cr, &f, &p->s[i]);
  cairo_restore(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1.0);
  cairo_rectangle(cr, f.x0 + 0.5, f.y0 + 0.5, f.x1 - f.x0 - 1.0, f.y1 - f.y0 - 1.0);
  cairo_stroke(cr);
  if (p->title) {
    sensim_tools__font(cr, 14.0, 1);
    sensim_tools__text(cr, p->w / 2.0, 9.0, p->title, 0.5, 0.0, 0.0);
  }
  sensim_tools__font(cr, 12.0, 0);
  if (p->xlabel) sensim_tools__text(cr, (f.x0 + f.x1) / 2, p->h - 6.0, p->xlabel, 0.5, 1.0, 0.0);
  if (p->ylabel) sensim_tools__text(cr, 6.0, (f.y0 + f.y1) / 2, p->ylabel, 0.5, 0.0, M_PI / 2);
  legend(cr, p, &f);
}

sensim_status sensim_plot_write_png(const sensim_plot *p, const char *path) {
  if (!p || !path) return sensim_error_set(SENSIM_EINVAL, "plot_write_png: NULL argument");
  sensim_tools__canvas c;
  sensim_status st = sensim_tools__canvas_create(p->w, p->h, "plot", &c);
  if (st != SENSIM_OK) return st;
  render(p, c.cr);
  st = sensim_tools__canvas_write_png(&c, path);
  if (st != SENSIM_OK) sensim_error_prefix("plot '%s'", path);
  sensim_tools__canvas_destroy(&c);
  return st;
}
