/* tools/birdseye.c: the figure around a bird's-eye lidar image
 * (sensim_tools/birdseye.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/draw.h"
#include "tools/tools_internal.h"

void sensim_birdseye_figure_params_init(sensim_birdseye_figure_params *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->range = 50.0;
  p->color = SENSIM_BIRDSEYE_INTENSITY;
  p->z_min = -2.0;
  p->z_max = 2.0;
  p->rings = 16;
  p->vehicle_length = 4.5; /* a mid-size passenger car */
  p->vehicle_width = 1.8;
}

/* The "birdseye" filter's ramp as docs/lidar.md defines it: HSV hue from
 * 240 deg at t = 0 (blue) through cyan, green and yellow to 0 deg at t = 1
 * (red), full saturation and value; HSV to RGB after Smith, "Color gamut
 * transform pairs", SIGGRAPH 1978. A test runs the filter and compares. */
static void ramp(double t, uint8_t rgb[3]) {
  t = t > 1.0 ? 1.0 : t >= 0.0 ? t : 0.0;
  double h = 4.0 * (1.0 - t); /* hue in 60-degree sextants: 0 red .. 4 blue */
  int i = h >= 4.0 ? 3 : (int)floor(h);
  double f = h - i, c[3];
  switch (i) {
  case 0: c[0] = 1, c[1] = f, c[2] = 0; break;
  case 1: c[0] = 1 - f, c[1] = 1, c[2] = 0; break;
  case 2: c[0] = 0, c[1] = 1, c[2] = f; break;
  default: c[0] = 0, c[1] = 1 - f, c[2] = 1; break;
  }
  for (int k = 0; k < 3; k++) rgb[k] = (uint8_t)lround(255.0 * c[k]);
}

static sensim_status check(const sensim_birdseye_figure_params *p) {
  if (!(p->range > 0.0) || !isfinite(p->range))
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: range %g m must be > 0", p->range);
  if (p->color < SENSIM_BIRDSEYE_INTENSITY || p->color > SENSIM_BIRDSEYE_RING)
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: unknown colouring %d", (int)p->color);
  if (p->color == SENSIM_BIRDSEYE_HEIGHT && !(p->z_max > p->z_min))
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: z_max %g m must be above z_min %g m",
                            p->z_max, p->z_min);
  if (p->color == SENSIM_BIRDSEYE_RING && p->rings < 1)
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: %d rings", p->rings);
  if (!(p->vehicle_length >= 0.0 && p->vehicle_width >= 0.0) || !isfinite(p->vehicle_x) ||
      !isfinite(p->vehicle_y))
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: bad vehicle footprint");
  return SENSIM_OK;
}

/* Footprint and heading arrow, in device px around the centre (cx, cy). */
static void vehicle(cairo_t *cr, double cx, double cy, double len, double wid) {
  cairo_set_line_width(cr, 1.5);
  if (len > 0.0 && wid > 0.0) {
    cairo_rectangle(cr, cx - wid / 2, cy - len / 2, wid, len);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.35);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_stroke(cr);
  }
  /* The arrow reaches past the footprint's front, at least 18 px long. */
  double tip = fmax(len * 0.5 + 8.0, 18.0), head = 6.0;
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_move_to(cr, cx, cy);
  cairo_line_to(cr, cx, cy - tip + head);
  cairo_stroke(cr);
  cairo_move_to(cr, cx, cy - tip);
  cairo_line_to(cr, cx - head * 0.6, cy - tip + head);
  cairo_line_to(cr, cx + head * 0.6, cy - tip + head);
  cairo_close_path(cr);
  cairo_fill(cr);
  cairo_arc(cr, cx, cy, 2.0, 0.0, 2.0 * M_PI);
  cairo_fill(cr);
}

static void scale_bar(cairo_t *cr, double x, double y, double px, double metres) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, x, y - 1.5, px, 3.0);
  cairo_fill(cr);
  cairo_set_line_width(cr, 1.0);
  for (int e = 0; e < 2; e++) {
    double ex = floor(x + e * px) + 0.5;
    cairo_move_to(cr, ex, y - 5.0);
    cairo_line_to(cr, ex, y + 5.0);
    cairo_stroke(cr);
  }
  char buf[32];
  sensim_tools__tick_text(buf, sizeof buf, metres, metres);
  strcat(buf, " m");
  sensim_tools__font(cr, 11.0, 1);
  sensim_tools__text(cr, x + px / 2, y - 6.0, buf, 0.5, 1.0, 0.0);
}

sensim_status sensim_birdseye_figure_write_png(const uint8_t *rgba, uint32_t size,
                                               const sensim_birdseye_figure_params *p,
                                               const char *path, sensim_birdseye_figure_info *info) {
  if (!rgba || !p || !path) return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: NULL argument");
  if (size == 0 || size > 8192)
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: image of %u px a side (1..8192)", size);
  sensim_status st = check(p);
  if (st != SENSIM_OK) return st;
  const double N = size, R = p->range, s = 2.0 * R / N; /* m per px */
  sensim_birdseye_figure_info g;
  memset(&g, 0, sizeof g);
  g.image_x = 70;
  g.image_y = p->title ? 40 : 16;
  g.bar_x = g.image_x + (int)size + 24;
  g.bar_y = g.image_y;
  g.bar_w = 20;
  g.bar_h = (int)size;
  g.width = g.bar_x + g.bar_w + 100;
  g.height = g.image_y + (int)size + 52;
  sensim_tools__canvas c;
  st = sensim_tools__canvas_create(g.width, g.height, "bird's-eye figure", &c);
  if (st != SENSIM_OK) return st;
  cairo_t *cr = c.cr;
  cairo_surface_t *img = sensim_tools__surface_from_rgba8(rgba, size, size);
  if (!img) {
    sensim_tools__canvas_destroy(&c);
    return SENSIM_ENOMEM;
  }
  cairo_set_source_surface(cr, img, g.image_x, g.image_y);
  cairo_paint(cr);
  cairo_surface_destroy(img);
  const double x0 = g.image_x, y0 = g.image_y;
  /* Axes: device x = x0 + (R - y) / s, device y = y0 + (R - x) / s. */
  double t[64];
  int nt = sensim_tools__nice_ticks(-R, R, (int)fmax(2.0, fmin(10.0, N / 70.0)), t, 64);
  g.tick_step = nt > 1 ? t[1] - t[0] : R;
  cairo_set_line_width(cr, 1.0);
  sensim_tools__font(cr, 11.0, 0);
  for (int i = 0; i < nt; i++) {
    double d = floor((R - t[i]) / s);
    if (d >= N) d = N - 1;
    double dx = x0 + d + 0.5, dy = y0 + d + 0.5;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.18); /* faint grid over the scan */
    cairo_move_to(cr, x0, dy), cairo_line_to(cr, x0 + N, dy);
    cairo_move_to(cr, dx, y0), cairo_line_to(cr, dx, y0 + N);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, x0, dy), cairo_line_to(cr, x0 - 6.0, dy);
    cairo_move_to(cr, dx, y0 + N), cairo_line_to(cr, dx, y0 + N + 6.0);
    cairo_stroke(cr);
    char buf[32];
    sensim_tools__tick_text(buf, sizeof buf, t[i], g.tick_step);
    sensim_tools__text(cr, x0 - 9.0, dy, buf, 1.0, 0.5, 0.0);
    sensim_tools__text(cr, dx, y0 + N + 9.0, buf, 0.5, 0.0, 0.0);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, x0 - 0.5, y0 - 0.5, N + 1.0, N + 1.0);
  cairo_stroke(cr);
  sensim_tools__font(cr, 12.0, 0);
  sensim_tools__text(cr, x0 + N / 2, g.height - 6.0, "y, left (m)", 0.5, 1.0, 0.0);
  sensim_tools__text(cr, 6.0, y0 + N / 2, "x, forward (m)", 0.5, 0.0, M_PI / 2);
  if (p->title) {
    sensim_tools__font(cr, 14.0, 1);
    sensim_tools__text(cr, g.width / 2.0, 10.0, p->title, 0.5, 0.0, 0.0);
  }
  /* Everything drawn inside the scan stays inside it. */
  cairo_save(cr);
  cairo_rectangle(cr, x0, y0, N, N);
  cairo_clip(cr);
  vehicle(cr, x0 + (R - p->vehicle_y) / s, y0 + (R - p->vehicle_x) / s, p->vehicle_length / s,
          p->vehicle_width / s);
  double t_sb[8];
  int nsb = sensim_tools__nice_ticks(0.0, R / 2.5, 1, t_sb, 8);
  g.scale_bar = nsb > 1 ? t_sb[1] : R / 2.5;
  scale_bar(cr, x0 + 12.0, y0 + N - 14.0, g.scale_bar / s, g.scale_bar);
  cairo_restore(cr);
  /* The colour bar, its quantity and unit. */
  double v0 = 0.0, v1 = 1.0;
  const char *label = "intensity (reflectance x |cos|)";
  if (p->color == SENSIM_BIRDSEYE_HEIGHT) v0 = p->z_min, v1 = p->z_max, label = "height z (m)";
  if (p->color == SENSIM_BIRDSEYE_RING) v1 = p->rings > 1 ? p->rings - 1 : 1, label = "ring";
  sensim_tools__colorbar(cr, g.bar_x, g.bar_y, g.bar_w, g.bar_h, ramp, v0, v1, label);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, g.bar_x, y0 + N + 10.0, g.bar_w, 12.0);
  cairo_fill(cr);
  sensim_tools__font(cr, 11.0, 0);
  sensim_tools__text(cr, g.bar_x + g.bar_w + 6.0, y0 + N + 16.0, "no point", 0.0, 0.5, 0.0);
  st = sensim_tools__canvas_write_png(&c, path);
  if (st != SENSIM_OK) sensim_error_prefix("bird's-eye figure '%s'", path);
  sensim_tools__canvas_destroy(&c);
  if (st == SENSIM_OK && info) *info = g;
  return st;
}

sensim_status sensim_birdseye_figure_png(const char *in_path, const sensim_birdseye_figure_params *p,
                                         const char *out_path, sensim_birdseye_figure_info *info) {
  if (!in_path || !p || !out_path)
    return sensim_error_set(SENSIM_EINVAL, "bird's-eye figure: NULL argument");
  int bits = sensim_tools__png_bits(in_path, NULL);
  sensim_image im;
  sensim_status st = sensim_read_png(in_path, &im);
  if (st != SENSIM_OK) return st;
  if (bits != 8 || im.channels != 3 || im.width != im.height) {
    st = sensim_error_set(SENSIM_EINVAL, "'%s' is a %u x %u %d-bit %s PNG, not a square 8-bit "
                          "colour bird's-eye image", in_path, im.width, im.height, bits,
                          im.channels == 3 ? "colour" : "grey");
    sensim_image_free(&im);
    return st;
  }
  uint32_t side = im.width;
  size_t n = (size_t)side * side;
  uint8_t *rgba = malloc(4 * n);
  if (!rgba) {
    sensim_image_free(&im);
    return sensim_error_set(SENSIM_ENOMEM, "bird's-eye figure: out of memory for %zu pixels", n);
  }
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) rgba[4 * i + k] = (uint8_t)lroundf(im.data[3 * i + k] * 255.0f);
    rgba[4 * i + 3] = 255;
  }
  sensim_image_free(&im);
  st = sensim_birdseye_figure_write_png(rgba, side, p, out_path, info);
  free(rgba);
  return st;
}
