/* sensim_tools/plot.h: plots written as PNG, for reports that show a
 * statistic as a picture (Allan deviation, VEPD histograms, image
 * statistics).
 *
 * A plot has one pair of axes whose ranges are fitted to everything drawn
 * (with a 5 % margin), linear or base-10 logarithmic per axis. Linear axes
 * are ticked at 1, 2 or 5 times a power of ten; logarithmic ones at
 * decades, labelled 10^k, with minor ticks at 2..9 times each decade.
 * Drawn with cairo: antialiased lines 2 px wide, text in a sans-serif face
 * (fontconfig's; cairo's built-in face where no font is installed), a
 * title, axis labels, grid lines at the major ticks and a legend in the
 * corner of the axes where it hides least of the data (top right first).
 * Non-finite values, and values <= 0 on a logarithmic axis, are skipped
 * (a gap in a line). Everything drawn is copied into the plot until it is
 * written. */
#ifndef SENSIM_TOOLS_PLOT_H
#define SENSIM_TOOLS_PLOT_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <stdint.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_plot sensim_plot;

typedef struct sensim_plot_style {
  uint8_t rgb[3];     /* colour, 8-bit sRGB */
  int dashed;         /* lines: 1 dashed, 0 solid */
  int marker;         /* 0 none, 1 filled 5 px squares at the data points */
  const char *legend; /* legend text (copied); NULL: not in the legend */
} sensim_plot_style;

/* width and height in pixels, 160 x 120 to 8192 x 8192; the strings are
 * copied (NULL: none); log_x, log_y nonzero for a logarithmic axis. */
SENSIM_TOOLS_API sensim_status sensim_plot_create(int width, int height, const char *title,
                                                  const char *xlabel, const char *ylabel, int log_x,
                                                  int log_y, sensim_plot **out);
/* A polyline through n >= 1 points (x and y copied). NULL style: black. */
SENSIM_TOOLS_API sensim_status sensim_plot_line(sensim_plot *p, const double *x, const double *y,
                                                size_t n, const sensim_plot_style *style);
/* A histogram: nbins bars, bar i from edges[i] to edges[i + 1] with height
 * counts[i]; drawn as outlined, lightly filled bars so two can overlap. */
SENSIM_TOOLS_API sensim_status sensim_plot_bars(sensim_plot *p, const double *edges,
                                                const double *counts, size_t nbins,
                                                const sensim_plot_style *style);
/* Render and write an 8-bit PNG, all or nothing (sensim_write_png).
 * SENSIM_EIO when the file cannot be written. */
SENSIM_TOOLS_API sensim_status sensim_plot_write_png(const sensim_plot *p, const char *path);
/* NULL is a no-op. */
SENSIM_TOOLS_API void sensim_plot_destroy(sensim_plot *p);

#ifdef __cplusplus
}
#endif
#endif
