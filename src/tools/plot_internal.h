/* tools/plot_internal.h: where a plot puts its axes and ticks
 * (tools/plot.c), for the renderer and for tests that check the drawing
 * against it. Not installed. */
#ifndef SENSIM_TOOLS_PLOT_INTERNAL_H
#define SENSIM_TOOLS_PLOT_INTERNAL_H

#include <sensim_tools/noise_calib.h>
#include <sensim_tools/plot.h>

typedef struct sensim_tools__plot_frame {
  double x0, x1, y0, y1; /* plot area, device px: left, right, top, bottom edges */
  double u0, u1, v0, v1; /* its range in drawing coordinates (the value, or log10 of it) */
  int log_x, log_y;
} sensim_tools__plot_frame;

/* The axes of p as sensim_plot_write_png draws them: the area from the
 * margins (which depend on the size and on which labels exist, not on the
 * font), the ranges fitted to everything drawn (+/- 5 %). */
void sensim_tools__plot_frame_of(const sensim_plot *p, sensim_tools__plot_frame *f);
/* Device x (y) of a data value; NaN for one the axis cannot show. */
double sensim_tools__plot_px_x(const sensim_tools__plot_frame *f, double value);
double sensim_tools__plot_px_y(const sensim_tools__plot_frame *f, double value);

/* Ticks over [a, b] in drawing coordinates. Linear axes: major ticks at 1,
 * 2 or 5 times a power of ten, no minor ones. Log axes with two decades or
 * more inside: major ticks at decades (every k-th when more than 8 show),
 * minor ones at 2..9 times a decade when the range spans at most 6 decades
 * and every decade has a major tick; fewer: 1, 2 and 5 per decade, or
 * linear ticks if that gives fewer than two.
 * Returns the number of major ticks; *nminor the minor ones. */
int sensim_tools__plot_ticks(double a, double b, int log_axis, double *major, int cap,
                             double *minor, int *nminor, int mcap);

/* The photon-transfer plot of sensim_noise_calib_plot_png, not yet
 * written (tools/noise_calib_plot.c); *out is the caller's to destroy. */
sensim_status sensim_tools__noise_calib_plot(const sensim_noise_fit *fit, const char *title,
                                             sensim_plot **out);

/* Tick marks' lengths below (left of) the plot area, px. */
enum { SENSIM_TOOLS__MAJOR_TICK = 6, SENSIM_TOOLS__MINOR_TICK = 3 };

#endif
