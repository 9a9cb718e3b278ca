/* tools/draw.h: what the tools' pictures share (plots, previews, contact
 * sheets, the bird's-eye figure), on cairo's image surfaces. Not installed;
 * cairo stays out of the public headers.
 *
 * Coordinates are cairo's device coordinates: pixel (i, j) covers
 * [i, i + 1) x [j, j + 1), so a 1-px line is crisp at a half-integer. */
#ifndef SENSIM_TOOLS_DRAW_H
#define SENSIM_TOOLS_DRAW_H

#include <cairo.h>
#include <stdint.h>
#include <sensim/sensim.h>

/* Largest side of a picture, px: cairo's image surfaces stop at 32767. */
#define SENSIM_TOOLS__MAX_SIDE 16384

typedef struct sensim_tools__canvas {
  cairo_surface_t *surface; /* RGB24 image surface, owned */
  cairo_t *cr;              /* drawing context on it, owned */
  int w, h;                 /* px */
} sensim_tools__canvas;

/* A w x h canvas painted white, with the text font selected
 * (sensim_tools__font). SENSIM_EINVAL outside 1 .. SENSIM_TOOLS__MAX_SIDE,
 * SENSIM_ENOMEM when cairo cannot allocate it; `what` names the picture in
 * the message. */
sensim_status sensim_tools__canvas_create(int w, int h, const char *what, sensim_tools__canvas *c);
void sensim_tools__canvas_destroy(sensim_tools__canvas *c);
/* Check that every drawing call succeeded, then write the canvas as an
 * 8-bit RGB(A) PNG through sensim_write_png (all or nothing). */
sensim_status sensim_tools__canvas_write_png(sensim_tools__canvas *c, const char *path);

/* The sans-serif face of cairo's toy text API at `size` px. cairo resolves
 * it through fontconfig (DejaVu Sans on Debian) and, when no font is
 * configured at all, falls back to its built-in stroked "twin" face, so
 * text is drawn on any machine. */
void sensim_tools__font(cairo_t *cr, double size, int bold);
/* Draw s with its anchor at (x, y): ax 0 left, 0.5 centre, 1 right of its
 * advance; ay 0 top, 0.5 middle, 1 bottom of the font's ascent + descent
 * (so a row of labels lines up whatever letters they hold). `angle` in rad,
 * counter-clockwise on screen (pi/2 reads upwards). Returns the advance. */
double sensim_tools__text(cairo_t *cr, double x, double y, const char *s, double ax, double ay,
                          double angle);
/* Advance width of s in the current font, px. */
double sensim_tools__text_width(cairo_t *cr, const char *s);

static inline void sensim_tools__rgb(cairo_t *cr, const uint8_t rgb[3]) {
  cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
}

/* An RGB24 surface of an image as sensim_read_png gives it (1 or 3
 * channels of [0, 1] code values, row 0 on top), each value rounded to 8
 * bits; or of an RGBA8 frame (alpha dropped). NULL on failure (error set). */
cairo_surface_t *sensim_tools__surface_from_image(const sensim_image *img);
cairo_surface_t *sensim_tools__surface_from_rgba8(const uint8_t *rgba, uint32_t w, uint32_t h);

/* Ticks on [a, b] (a < b) at 1, 2 or 5 times a power of ten, the step
 * chosen so that about `target` of them fall in the range; returns the
 * count (at most cap). */
int sensim_tools__nice_ticks(double a, double b, int target, double *t, int cap);
/* A tick value as text with as many decimals as its step needs ("0" for
 * a value that is zero to rounding). */
void sensim_tools__tick_text(char *buf, size_t n, double v, double step);

/* A vertical colour bar in the box (x, y, w, h): the top is v1, the bottom
 * v0, each row the colour map(t) of its value, t = (v - v0) / (v1 - v0).
 * Ticks and their values on the right, `label` (quantity and unit) rotated
 * along the right edge of the labels. */
typedef void (*sensim_tools__cmap_fn)(double t, uint8_t rgb[3]);
void sensim_tools__colorbar(cairo_t *cr, double x, double y, double w, double h,
                            sensim_tools__cmap_fn map, double v0, double v1, const char *label);

#endif
