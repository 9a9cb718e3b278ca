/* io/plot.h: small raster plots written as PNG, for the commands that
 * report a statistic as a picture (Allan deviation, VEPD histograms, image
 * statistics). Internal: not part of the public API.
 *
 * A plot has one pair of axes whose ranges are fitted to everything drawn
 * (with a small margin), linear or base-10 logarithmic per axis, tick labels,
 * a title, axis labels and a legend, drawn with a built-in bitmap font. Non
 * finite values, and values <= 0 on a logarithmic axis, are skipped. */
#ifndef SENSIM_IO_PLOT_H
#define SENSIM_IO_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"

typedef struct sensim__plot sensim__plot;

typedef struct sensim__plot_style {
  uint8_t rgb[3];  /* colour */
  int dashed;      /* lines: 1 dashed, 0 solid */
  int marker;      /* 0 none, 1 filled squares at the data points */
  const char *legend; /* NULL: not in the legend */
} sensim__plot_style;

/* width, height in pixels (>= 160 x 120); strings are copied (NULL = none). */
sensim_status sensim__plot_create(int width, int height, const char *title, const char *xlabel,
                                  const char *ylabel, int log_x, int log_y, sensim__plot **out);
/* A polyline through n >= 1 points. */
sensim_status sensim__plot_line(sensim__plot *p, const double *x, const double *y, size_t n,
                                const sensim__plot_style *style);
/* A histogram: nbins bars, bar i from edges[i] to edges[i + 1] with height
 * counts[i]; drawn as outlined, lightly filled bars so two can overlap. */
sensim_status sensim__plot_bars(sensim__plot *p, const double *edges, const double *counts,
                                size_t nbins, const sensim__plot_style *style);
/* Render and write an RGB PNG (atomically, like every sensim writer). */
sensim_status sensim__plot_write_png(const sensim__plot *p, const char *path);
void sensim__plot_destroy(sensim__plot *p);

#endif
