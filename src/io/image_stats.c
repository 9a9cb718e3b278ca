/* io/image_stats.c: per-channel mean and standard deviation of a set of
 * PNG files, the reference statistics the "white_balance" and
 * "match_stats" filters match (io.h). */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "sensim/io.h"

/* Running (count, mean, M2) per channel, merged image by image with Chan,
 * Golub & LeVeque's pairwise update ("Algorithms for computing the sample
 * variance", The American Statistician 37(3), 1983), so millions of
 * pixels do not lose the variance to cancellation in a sum of squares. */
typedef struct moments {
  double n, mean, m2;
} moments;

static double pixel_value(const float *px, int channels, const double w[3]) {
  if (channels == 1) return (w[0] + w[1] + w[2]) * px[0];
  return w[0] * px[0] + w[1] * px[1] + w[2] * px[2];
}

static void merge(moments *acc, moments part) {
  if (part.n == 0) return;
  double n = acc->n + part.n;
  double d = part.mean - acc->mean;
  acc->mean += d * part.n / n;
  acc->m2 += part.m2 + d * d * acc->n * part.n / n;
  acc->n = n;
}

/* Two-pass moments of sum_c w[c] x_c of one image (grey images: the one
 * channel stands for all three). */
static moments image_moments(const sensim_image *img, const double w[3]) {
  size_t n = (size_t)img->width * img->height;
  int nc = img->channels;
  double s = 0;
  for (size_t i = 0; i < n; i++) s += pixel_value(img->data + i * nc, nc, w);
  double mean = s / (double)n, m2 = 0;
  for (size_t i = 0; i < n; i++) {
    double d = pixel_value(img->data + i * nc, nc, w) - mean;
    m2 += d * d;
  }
  moments m = {(double)n, mean, m2};
  return m;
}

/* Moments of `nw` channel combinations (rows of w) over all images. */
static sensim_status stats(const char *const *paths, size_t n, const double (*w)[3], int nw,
                           double *mean, double *std) {
  if (!paths || !mean || !std)
    return sensim__fail(SENSIM_EINVAL, "image statistics: NULL argument");
  if (n == 0) return sensim__fail(SENSIM_EINVAL, "image statistics: no images");
  for (size_t k = 0; k < n; k++)
    if (!paths[k]) return sensim__fail(SENSIM_EINVAL, "image statistics: path %zu is NULL", k);
  moments acc[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (size_t k = 0; k < n; k++) {
    sensim_image img;
    sensim_status st = sensim_read_png(paths[k], &img);
    if (st != SENSIM_OK) return st;
    for (int c = 0; c < nw; c++) merge(&acc[c], image_moments(&img, w[c]));
    sensim_image_free(&img);
  }
  for (int c = 0; c < nw; c++) {
    mean[c] = acc[c].mean;
    std[c] = sqrt(acc[c].m2 / acc[c].n);
  }
  return SENSIM_OK;
}

sensim_status sensim_image_stats_pngs(const char *const *paths, size_t n, double mean[3],
                                      double std[3]) {
  static const double unit[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  return stats(paths, n, unit, 3, mean, std);
}

sensim_status sensim_image_stats_pngs_weighted(const char *const *paths, size_t n,
                                               const double w[3], double *mean, double *std) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "image statistics: NULL weights");
  for (int c = 0; c < 3; c++)
    if (!isfinite(w[c]))
      return sensim__fail(SENSIM_EINVAL, "image statistics: weight %d is %g", c, w[c]);
  const double rows[1][3] = {{w[0], w[1], w[2]}};
  return stats(paths, n, rows, 1, mean, std);
}
