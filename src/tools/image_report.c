/* tools/image_report.c: statistics of two image datasets side by side
 * (sensim_tools/image_stats.h): per-channel mean, population standard
 * deviation, extremes and histograms, their differences and the first
 * Wasserstein distance of each channel's value distribution, as text and as
 * PNG plots.
 *
 * Moments are merged image by image with Chan, Golub & LeVeque's pairwise
 * update ("Algorithms for computing the sample variance", The American
 * Statistician 37(3), 1983) over two-pass moments of each image, as
 * sensim_image_stats_pngs (io/image_stats.c) does, so that millions of pixels keep their variance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

sensim_status sensim_image_set_stats_init(sensim_image_set_stats *s, size_t nbins) {
  if (!s) return sensim_error_set(SENSIM_EINVAL, "sensim_image_set_stats_init: NULL stats");
  if (nbins == 0) nbins = 64;
  if (nbins < 2 || nbins > SENSIM_IMAGE_STATS_MAX_BINS)
    return sensim_error_set(SENSIM_EINVAL, "image statistics: %zu bins (2..%d)", nbins, SENSIM_IMAGE_STATS_MAX_BINS);
  memset(s, 0, sizeof *s);
  s->nbins = nbins;
  for (int c = 0; c < 3; c++) {
    s->min[c] = INFINITY;
    s->max[c] = -INFINITY;
  }
  return SENSIM_OK;
}

static size_t bin_of(double v, size_t nbins) {
  if (!(v > 0)) return 0;
  double b = floor(v * (double)nbins);
  return b >= (double)nbins ? nbins - 1 : (size_t)b;
}

/* Value of channel c of pixel i, a grey image standing for equal R, G, B. */
static double value(const sensim_image *img, size_t i, int c) {
  return img->channels == 1 ? img->data[i] : img->data[3 * i + (size_t)c];
}

/* A grey set that meets its first colour image becomes a colour set whose
 * three channels are the grey one's. */
static void promote_to_colour(sensim_image_set_stats *s) {
  for (int c = 1; c < 3; c++) {
    s->mean[c] = s->mean[0];
    s->m2_[c] = s->m2_[0];
    s->min[c] = s->min[0];
    s->max[c] = s->max[0];
    memcpy(s->hist[c], s->hist[0], sizeof s->hist[0]);
  }
  s->channels = 3;
}

sensim_status sensim_image_set_stats_add(sensim_image_set_stats *s, const sensim_image *img) {
  if (!s || !img || !img->data) return sensim_error_set(SENSIM_EINVAL, "sensim_image_set_stats_add: NULL argument");
  if (s->nbins < 2 || s->nbins > SENSIM_IMAGE_STATS_MAX_BINS)
    return sensim_error_set(SENSIM_EINVAL, "image statistics: not initialised (sensim_image_set_stats_init)");
  if (img->channels != 1 && img->channels != 3)
    return sensim_error_set(SENSIM_EINVAL, "image statistics: image has %d channels (1 or 3)", img->channels);
  size_t n = (size_t)img->width * img->height;
  if (n == 0) return sensim_error_set(SENSIM_EINVAL, "image statistics: empty image");
  for (size_t i = 0; i < n * (size_t)img->channels; i++)
    if (!isfinite(img->data[i]))
      return sensim_error_set(SENSIM_EINVAL, "image statistics: value %zu of image %zu is %g", i, s->nimages,
                          (double)img->data[i]);
  if (s->channels == 0) s->channels = img->channels;
  if (s->channels == 1 && img->channels == 3) promote_to_colour(s);
  for (int c = 0; c < s->channels; c++) {
    double sum = 0, m2 = 0;
    for (size_t i = 0; i < n; i++) sum += value(img, i, c);
    double m = sum / (double)n;
    for (size_t i = 0; i < n; i++) {
      double v = value(img, i, c), d = v - m;
      m2 += d * d;
      if (v < s->min[c]) s->min[c] = v;
      if (v > s->max[c]) s->max[c] = v;
      s->hist[c][bin_of(v, s->nbins)]++;
    }
    double na = (double)s->npixels, nb = (double)n, nt = na + nb, d = m - s->mean[c];
    s->mean[c] += d * nb / nt;
    s->m2_[c] += m2 + d * d * na * nb / nt;
    s->std[c] = sqrt(s->m2_[c] / nt);
  }
  s->npixels += n;
  s->nimages++;
  return SENSIM_OK;
}

sensim_status sensim_image_set_stats_dir(const char *dir, size_t nbins, sensim_image_set_stats *s) {
  if (!dir || !s) return sensim_error_set(SENSIM_EINVAL, "sensim_image_set_stats_dir: NULL argument");
  sensim_image_set_stats acc;
  sensim_status st = sensim_image_set_stats_init(&acc, nbins);
  if (st) return st;
  char **paths = NULL;
  size_t n = 0;
  if ((st = sensim_list_pngs(dir, &paths, &n)) != SENSIM_OK) return st;
  if (n == 0) st = sensim_error_set(SENSIM_EINVAL, "folder '%s' holds no PNG file", dir);
  for (size_t k = 0; st == SENSIM_OK && k < n; k++) {
    sensim_image img;
    if ((st = sensim_read_png(paths[k], &img)) != SENSIM_OK) break;
    st = sensim_image_set_stats_add(&acc, &img);
    sensim_image_free(&img);
    if (st) sensim_error_prefix("%s", paths[k]);
  }
  sensim_free_paths(paths, n);
  if (st == SENSIM_OK) *s = acc;
  return st;
}

/* Channel c of a set, a grey set's one channel standing for all three. */
static int chan(const sensim_image_set_stats *s, int c) { return s->channels == 1 ? 0 : c; }

double sensim_image_set_w1(const sensim_image_set_stats *a, const sensim_image_set_stats *b, int c) {
  if (!a || !b || c < 0 || c > 2 || a->npixels == 0 || b->npixels == 0 || a->nbins != b->nbins) return NAN;
  int ca = chan(a, c), cb = chan(b, c);
  /* Mass at bin centres: between consecutive centres (1 / nbins apart)
   * the two CDFs are constant, so the integral is a sum. */
  double fa = 0, fb = 0, w = 0;
  for (size_t i = 0; i + 1 < a->nbins; i++) {
    fa += (double)a->hist[ca][i] / (double)a->npixels;
    fb += (double)b->hist[cb][i] / (double)b->npixels;
    w += fabs(fa - fb);
  }
  return w / (double)a->nbins;
}

static const char *const kChannelNames[3] = {"R", "G", "B"};

sensim_status sensim_image_report_text(FILE *fp, const sensim_image_set_stats *a, const char *name_a,
                                       const sensim_image_set_stats *b, const char *name_b) {
  if (!fp || !a || !b) return sensim_error_set(SENSIM_EINVAL, "sensim_image_report_text: NULL argument");
  if (a->npixels == 0 || b->npixels == 0) return sensim_error_set(SENSIM_EINVAL, "image report: a set is empty");
  if (a->nbins != b->nbins)
    return sensim_error_set(SENSIM_EINVAL, "image report: the sets have %zu and %zu bins", a->nbins, b->nbins);
  if (!name_a) name_a = "A";
  if (!name_b) name_b = "B";
  int nc = a->channels == 3 || b->channels == 3 ? 3 : 1;
  fprintf(fp, "A: %s: %zu images, %llu pixels, %d channel(s)\n", name_a, a->nimages,
          (unsigned long long)a->npixels, a->channels);
  fprintf(fp, "B: %s: %zu images, %llu pixels, %d channel(s)\n", name_b, b->nimages,
          (unsigned long long)b->npixels, b->channels);
  fprintf(fp, "%-3s %-10s %-10s %-10s %-10s %-10s %-10s %-10s %-10s %-11s %-10s %-10s\n", "ch", "mean_A", "mean_B",
          "std_A", "std_B", "min_A", "min_B", "max_A", "max_B", "mean_B-A", "std_B/A", "W1");
  for (int c = 0; c < nc; c++) {
    int ca = chan(a, c), cb = chan(b, c);
    double ratio = a->std[ca] > 0 ? b->std[cb] / a->std[ca] : NAN;
    fprintf(fp, "%-3s %-10.6f %-10.6f %-10.6f %-10.6f %-10.6f %-10.6f %-10.6f %-10.6f %-+11.6f %-10.6g %-10.6f\n",
            nc == 1 ? "Y" : kChannelNames[c], a->mean[ca], b->mean[cb], a->std[ca], b->std[cb], a->min[ca],
            b->min[cb], a->max[ca], b->max[cb], b->mean[cb] - a->mean[ca], ratio, sensim_image_set_w1(a, b, c));
  }
  fprintf(fp, "histograms (fraction of values per bin)\n%-8s %-8s", "from", "to");
  for (int c = 0; c < nc; c++) {
    const char *cn = nc == 1 ? "Y" : kChannelNames[c];
    fprintf(fp, " %s_A%7s%s_B%6s", cn, "", cn, "");
  }
  fprintf(fp, "\n");
  for (size_t i = 0; i < a->nbins; i++) {
    fprintf(fp, "%-8.5f %-8.5f", (double)i / (double)a->nbins, (double)(i + 1) / (double)a->nbins);
    for (int c = 0; c < nc; c++)
      fprintf(fp, " %-9.6f %-9.6f", (double)a->hist[chan(a, c)][i] / (double)a->npixels,
              (double)b->hist[chan(b, c)][i] / (double)b->npixels);
    fprintf(fp, "\n");
  }
  return ferror(fp) ? sensim_error_set(SENSIM_EIO, "image report: writing failed") : SENSIM_OK;
}

/* The histograms of both sets in one plot: grey sets' luminance, or the
 * three colour channels side by side on one axis, channel c over
 * [c, c + 1] (values are fractions of full scale, so each keeps a unit
 * width), so that one file holds them all and the command's --out is the
 * only file it writes. */
static sensim_status plot_channels(const char *path, const sensim_image_set_stats *a, const char *name_a,
                                   const sensim_image_set_stats *b, const char *name_b, size_t nc) {
  size_t nb = a->nbins, nt = nc * nb;
  double *edges = malloc((nt + 1) * sizeof *edges), *fa = malloc(nt * sizeof *fa), *fb = malloc(nt * sizeof *fb);
  sensim_plot *p = NULL;
  char title[200], xlabel[96];
  if (nc == 1) {
    snprintf(title, sizeof title, "channel Y: %s vs %s", name_a, name_b);
    snprintf(xlabel, sizeof xlabel, "value (fraction of full scale)");
  } else {
    snprintf(title, sizeof title, "channels R | G | B: %s vs %s", name_a, name_b);
    snprintf(xlabel, sizeof xlabel, "value: R on [0, 1], G on [1, 2], B on [2, 3] (fraction of full scale)");
  }
  sensim_status st = edges && fa && fb ? SENSIM_OK : sensim_error_set(SENSIM_ENOMEM, "image report: out of memory");
  if (!st) {
    for (size_t i = 0; i <= nt; i++) edges[i] = (double)i / (double)nb;
    for (size_t k = 0; k < nc; k++)
      for (size_t i = 0; i < nb; i++) {
        int c = (int)k;
        fa[k * nb + i] = (double)a->hist[chan(a, c)][i] / (double)a->npixels;
        fb[k * nb + i] = (double)b->hist[chan(b, c)][i] / (double)b->npixels;
      }
    st = sensim_plot_create(nc == 1 ? 800 : 1200, 500, title, xlabel, "fraction of values", 0, 0, &p);
  }
  sensim_plot_style sa = {{200, 60, 40}, 0, 0, name_a}, sb = {{40, 90, 200}, 0, 0, name_b};
  if (!st) st = sensim_plot_bars(p, edges, fa, nt, &sa);
  if (!st) st = sensim_plot_bars(p, edges, fb, nt, &sb);
  if (!st) st = sensim_plot_write_png(p, path);
  if (p) sensim_plot_destroy(p);
  free(edges);
  free(fa);
  free(fb);
  return st;
}

sensim_status sensim_image_report_png(const char *path, const sensim_image_set_stats *a, const char *name_a,
                                      const sensim_image_set_stats *b, const char *name_b) {
  if (!path || !a || !b) return sensim_error_set(SENSIM_EINVAL, "sensim_image_report_png: NULL argument");
  if (a->npixels == 0 || b->npixels == 0) return sensim_error_set(SENSIM_EINVAL, "image report: a set is empty");
  if (a->nbins != b->nbins)
    return sensim_error_set(SENSIM_EINVAL, "image report: the sets have %zu and %zu bins", a->nbins, b->nbins);
  if (!name_a) name_a = "A";
  if (!name_b) name_b = "B";
  return plot_channels(path, a, name_a, b, name_b, a->channels == 3 || b->channels == 3 ? 3 : 1);
}
