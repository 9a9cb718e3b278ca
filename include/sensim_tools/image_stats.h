/* sensim_tools/image_stats.h: statistics of images and of two image
 * datasets side by side (mean, spread, extremes and histograms per channel,
 * and the first Wasserstein distance between the sets' value
 * distributions), as text and as PNG plots. docs/ablation.md, "Image
 * statistics". */
#ifndef SENSIM_TOOLS_IMAGE_STATS_H
#define SENSIM_TOOLS_IMAGE_STATS_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sensim/io.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- one image (tools/augment_color.c) ------------------------------------ */

/* Per-channel mean and population standard deviation of one image
 * (`img->channels` values each). */
SENSIM_TOOLS_API sensim_status sensim_image_moments(const sensim_image *img, double *mean, double *std);

/* ---- two datasets (tools/image_report.c) ----------------------------------- */

#define SENSIM_IMAGE_STATS_MAX_BINS 256

/* Statistics of a set of images. A set of grey images has one channel; a
 * set with any colour image has three (a grey image then counts as equal
 * R, G and B, as in sensim_image_stats_pngs). */
typedef struct sensim_image_set_stats {
  size_t nimages;      /* images added */
  uint64_t npixels;    /* pixels over all images */
  int channels;        /* 1 or 3; 0 before the first image */
  double mean[3];      /* per-channel mean of the values */
  double std[3];       /* per-channel population standard deviation */
  double min[3], max[3]; /* per-channel extremes */
  size_t nbins;        /* histogram bins over [0, 1], 2..SENSIM_IMAGE_STATS_MAX_BINS */
  /* hist[c][i]: values of channel c in [i / nbins, (i + 1) / nbins) (the
   * last bin includes 1; values below 0 count in bin 0, above 1 in the
   * last bin, so that every value is counted) */
  uint64_t hist[3][SENSIM_IMAGE_STATS_MAX_BINS];
  double m2_[3];       /* internal: sums of squared deviations */
} sensim_image_set_stats;

/* Start an empty set with `nbins` bins (0: 64). */
SENSIM_TOOLS_API sensim_status sensim_image_set_stats_init(sensim_image_set_stats *s, size_t nbins);
/* Add one image. SENSIM_EINVAL for a NaN or infinite value (s unchanged). */
SENSIM_TOOLS_API sensim_status sensim_image_set_stats_add(sensim_image_set_stats *s, const sensim_image *img);
/* Every *.png of folder `dir` (any case), by sensim_read_png.
 * SENSIM_ENOTFOUND for a missing folder, SENSIM_EINVAL for a folder without
 * PNG files, sensim_read_png's errors for a bad file. */
SENSIM_TOOLS_API sensim_status sensim_image_set_stats_dir(const char *dir, size_t nbins, sensim_image_set_stats *s);

/* First Wasserstein distance between the value distributions of channel c
 * of two sets, from their histograms (same nbins): the integral over
 * [0, 1] of |F_a - F_b|, the cumulative fractions, with the mass of each
 * bin at its centre (Vallender, Theory Probab. Appl. 18(4), 1974: W1 of
 * two distributions on the line is the L1 distance of their CDFs). NaN if
 * the sets are empty or their bins differ. */
SENSIM_TOOLS_API double sensim_image_set_w1(const sensim_image_set_stats *a, const sensim_image_set_stats *b, int c);

/* The report as text: images and pixels of each set, then per channel
 * mean, std, min, max of each, their differences and W1, then the two
 * histograms (fraction of values per bin) side by side. */
SENSIM_TOOLS_API sensim_status sensim_image_report_text(FILE *fp, const sensim_image_set_stats *a, const char *name_a,
                                       const sensim_image_set_stats *b, const char *name_b);
/* The histograms as one PNG plot written to `path` (and no other file):
 * both sets' fractions per bin of the luminance for grey sets, or of R, G
 * and B side by side on one axis (R over [0, 1], G over [1, 2], B over
 * [2, 3]) when either set has colour. */
SENSIM_TOOLS_API sensim_status sensim_image_report_png(const char *path, const sensim_image_set_stats *a,
                                      const char *name_a, const sensim_image_set_stats *b,
                                      const char *name_b);

#ifdef __cplusplus
}
#endif
#endif
