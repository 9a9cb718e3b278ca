/* tools/noise_calib.c: intensity-dependent noise parameters (s1, s2) of
 * sigma^2(I) = s1^2 I + s2^2 from a stack of frames of a static scene, by
 * the mean-image (photon-transfer) method (Janesick, "Photon Transfer",
 * SPIE Press 2007, ch. 5; EMVA Standard 1288 Release 4.0, sec. 6.2, which
 * uses the same mean/variance pairs; Foi et al. 2008, IEEE TIP 17(10),
 * for the model var = a I + b).
 *
 * 1. Per value i over N frames: mean m_i and unbiased variance v_i.
 * 2. Values are binned by m_i into equal-width bins over [min m, max m].
 *    Sample mean and sample variance of Gaussian data are independent
 *    (Cochran's theorem), so binning by the noisy mean does not bias the
 *    bin's variance.
 * 3. Outliers: a pixel whose variance does not come from noise (an edge
 *    that flickers, a moving leaf, a rendered edge whose anti-aliasing
 *    jitter changes per frame) would pull its bin up. Under the model,
 *    (N - 1) v_i / sigma^2 ~ chi^2_(N-1); sigma^2 of a bin is estimated
 *    robustly from its median variance, and values beyond the 1 - 1e-6
 *    quantile are left out (about 1e-6 of clean values: no measurable
 *    bias).
 * 4. Each bin gives (x_j, y_j) = (mean of m_i, mean of v_i) over its n_j
 *    values. Var(v_i) = 2 sigma^4 / (N - 1) for Gaussian noise, so
 *    Var(y_j) = 2 sigma_j^4 / ((N - 1) n_j); the line y = a x + b is fitted
 *    by weighted least squares with w_j = 1 / Var(y_j) (Bevington &
 *    Robinson, "Data Reduction and Error Analysis", 3rd ed., sec. 6.4),
 *    sigma_j^2 first from y_j, then from the fitted line (iteratively
 *    reweighted, so that low scatter does not earn a high weight).
 * 5. s1 = sqrt(a), s2 = sqrt(b), negative values clamped to 0 and flagged. */
#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

#define DEFAULT_BINS 32
#define REJECT_P 1e-6     /* tail probability beyond which a variance is an outlier */
#define MIN_FOR_REJECT 8  /* values a bin needs before its median is trusted */
#define REWEIGHT_PASSES 3

/* Quickselect with Hoare's partition (Hoare, "Algorithm 65: FIND", CACM
 * 4(7), 1961): the k-th smallest of a[0..n), reordering a. */
static double select_kth(double *a, size_t n, size_t k) {
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    double pivot = a[lo + (hi - lo) / 2];
    /* Unsigned wrap-around of lo - 1 is undone by the first increment. */
    size_t i = lo - 1, j = hi + 1;
    for (;;) {
      do i++; while (a[i] < pivot);
      do j--; while (a[j] > pivot);
      if (i >= j) break;
      double t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    /* a[lo..j] <= pivot <= a[j+1..hi], lo <= j < hi. */
    if (k <= j)
      hi = j;
    else
      lo = j + 1;
  }
  return a[k];
}

typedef struct bin_acc {
  double sx, sy;  /* sums of means and variances of the kept values */
  size_t n;
} bin_acc;

/* Steps 2 and 3: fill bins[] (count, mean, var) and return how many values
 * were rejected. order/scratch hold nvalues entries. */
static size_t bin_values(const double *mean, const double *var, size_t nvalues, size_t nframes,
                         size_t nbins, double lo, double hi, size_t *order, double *scratch,
                         bin_acc *acc) {
  size_t *start = calloc(nbins + 1, sizeof *start);
  if (!start) return (size_t)-1;
  double scale = (double)nbins / (hi - lo);
  /* Counting sort of value indices by bin. */
  for (size_t i = 0; i < nvalues; i++) {
    size_t j = (size_t)((mean[i] - lo) * scale);
    if (j >= nbins) j = nbins - 1;
    start[j + 1]++;
  }
  for (size_t j = 0; j < nbins; j++) start[j + 1] += start[j];
  size_t *fill = malloc(nbins * sizeof *fill);
  if (!fill) {
    free(start);
    return (size_t)-1;
  }
  memcpy(fill, start, nbins * sizeof *fill);
  for (size_t i = 0; i < nvalues; i++) {
    size_t j = (size_t)((mean[i] - lo) * scale);
    if (j >= nbins) j = nbins - 1;
    order[fill[j]++] = i;
  }
  free(fill);

  double k = (double)(nframes - 1);
  /* Median and upper 1e-6 quantile of chi^2_k / k. */
  double med = gsl_cdf_chisq_Pinv(0.5, k) / k;
  double tail = gsl_cdf_chisq_Qinv(REJECT_P, k) / k;
  size_t rejected = 0;
  for (size_t j = 0; j < nbins; j++) {
    size_t n = start[j + 1] - start[j];
    const size_t *idx = order + start[j];
    double limit = INFINITY;
    if (n >= MIN_FOR_REJECT) {
      for (size_t t = 0; t < n; t++) scratch[t] = var[idx[t]];
      double sigma2 = select_kth(scratch, n, n / 2) / med;
      if (sigma2 > 0) limit = sigma2 * tail;
    }
    bin_acc a = {0, 0, 0};
    for (size_t t = 0; t < n; t++) {
      if (var[idx[t]] > limit) {
        rejected++;
        continue;
      }
      a.sx += mean[idx[t]];
      a.sy += var[idx[t]];
      a.n++;
    }
    acc[j] = a;
  }
  free(start);
  return rejected;
}

/* Step 4 on the used bins (x, y, n): writes a, b, their standard errors
 * and chi^2 into f. */
static void fit_line(sensim_noise_fit *f, size_t nframes) {
  size_t m = f->nbins_used;
  sensim_noise_bin *bins = f->bins;
  double ymax = 0;
  for (size_t j = 0; j < m; j++) ymax = fmax(ymax, bins[j].var);
  /* A variance floor keeps weights finite where a bin (or the model) says
   * zero; with no variance anywhere every weight is equal. */
  double floor_var = ymax > 0 ? 1e-6 * ymax : 1.0;
  double dof = (double)(nframes - 1);
  double a = 0, b = 0, S = 0, Sxx = 0, xm = 0;
  for (int pass = 0; pass <= REWEIGHT_PASSES; pass++) {
    double Sx = 0, Sy = 0;
    S = 0;
    double w[SENSIM_NOISE_CALIB_MAX_BINS];
    for (size_t j = 0; j < m; j++) {
      double s2 = pass == 0 ? bins[j].var : a * bins[j].mean + b;
      if (!(s2 > floor_var)) s2 = floor_var;
      w[j] = dof * (double)bins[j].count / (2.0 * s2 * s2);
      S += w[j];
      Sx += w[j] * bins[j].mean;
      Sy += w[j] * bins[j].var;
    }
    /* Centred sums: the normal equations stay well conditioned when the
     * intensities sit far from 0 compared with their spread. */
    xm = Sx / S;
    double ym = Sy / S, Sxy = 0;
    Sxx = 0;
    for (size_t j = 0; j < m; j++) {
      double dx = bins[j].mean - xm;
      Sxx += w[j] * dx * dx;
      Sxy += w[j] * dx * (bins[j].var - ym);
    }
    a = Sxy / Sxx;
    b = ym - a * xm;
    if (pass == REWEIGHT_PASSES) {
      f->chi2 = 0;
      for (size_t j = 0; j < m; j++) {
        double model = a * bins[j].mean + b;
        double r = bins[j].var - model;
        f->chi2 += w[j] * r * r;
        bins[j].var_model = model;
        bins[j].var_std = 1.0 / sqrt(w[j]);
      }
    }
  }
  f->a = a;
  f->b = b;
  /* Var(a) = 1 / Sxx, Var(b) = 1 / S + xm^2 / Sxx for the centred fit. */
  f->a_std = sqrt(1.0 / Sxx);
  f->b_std = sqrt(1.0 / S + xm * xm / Sxx);
  if (ymax == 0) f->a_std = f->b_std = 0;
  f->chi2_dof = m > 2 ? f->chi2 / (double)(m - 2) : 0;
}

sensim_status sensim_noise_calib_fit_moments(const double *mean, const double *var,
                                             size_t nvalues, size_t nframes, size_t nbins,
                                             sensim_noise_fit *out) {
  if (!mean || !var || !out)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: NULL argument");
  if (nbins == 0) nbins = DEFAULT_BINS;
  if (nframes < 2)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: needs at least 2 frames (got %zu)",
                        nframes);
  if (nvalues < 2)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: needs at least 2 values per frame "
                                       "(got %zu)", nvalues);
  if (nbins < 2 || nbins > SENSIM_NOISE_CALIB_MAX_BINS)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: bins %zu must be in 2 .. %d", nbins,
                        SENSIM_NOISE_CALIB_MAX_BINS);
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < nvalues; i++) {
    if (!isfinite(mean[i]) || !isfinite(var[i]) || var[i] < 0)
      return sensim_error_set(SENSIM_EINVAL,
                          "noise calibration: value %zu has mean %g and variance %g (need finite, "
                          "variance >= 0)", i, mean[i], var[i]);
    lo = fmin(lo, mean[i]);
    hi = fmax(hi, mean[i]);
  }
  if (!(hi > lo))
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: every value has the same mean %g; the "
                                       "scene needs a range of intensities", lo);
  size_t *order = malloc(nvalues * sizeof *order);
  double *scratch = malloc(nvalues * sizeof *scratch);
  bin_acc *acc = malloc(nbins * sizeof *acc);
  sensim_noise_fit *f = calloc(1, sizeof *f);
  size_t rejected = (size_t)-1;
  if (order && scratch && acc && f)
    rejected = bin_values(mean, var, nvalues, nframes, nbins, lo, hi, order, scratch, acc);
  free(order);
  free(scratch);
  if (rejected == (size_t)-1) {
    free(acc);
    free(f);
    return sensim_error_set(SENSIM_ENOMEM, "noise calibration: out of memory for %zu values", nvalues);
  }
  for (size_t j = 0; j < nbins; j++) {
    if (acc[j].n == 0) continue;
    sensim_noise_bin *bn = &f->bins[f->nbins_used++];
    bn->count = acc[j].n;
    bn->mean = acc[j].sx / (double)acc[j].n;
    bn->var = acc[j].sy / (double)acc[j].n;
  }
  free(acc);
  if (f->nbins_used < 2) {
    free(f);
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: values fill %s; the scene needs a "
                                       "range of intensities", "a single bin");
  }
  f->nframes = nframes;
  f->nvalues = nvalues;
  f->nrejected = rejected;
  fit_line(f, nframes);
  if (f->a < 0) f->clamped |= 1;
  if (f->b < 0) f->clamped |= 2;
  f->s1 = f->a > 0 ? sqrt(f->a) : 0;
  f->s2 = f->b > 0 ? sqrt(f->b) : 0;
  *out = *f;
  free(f);
  return SENSIM_OK;
}

sensim_status sensim_noise_calib_fit(const float *const *frames, size_t nframes, size_t nvalues,
                                     size_t nbins, sensim_noise_fit *out) {
  if (!frames || !out) return sensim_error_set(SENSIM_EINVAL, "noise calibration: NULL argument");
  if (nframes < 2)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: needs at least 2 frames (got %zu)",
                        nframes);
  for (size_t k = 0; k < nframes; k++)
    if (!frames[k]) return sensim_error_set(SENSIM_EINVAL, "noise calibration: frame %zu is NULL", k);
  if (nvalues < 2)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration: needs at least 2 values per frame "
                                       "(got %zu)", nvalues);
  double *mean = malloc(nvalues * sizeof *mean);
  double *var = malloc(nvalues * sizeof *var);
  if (!mean || !var) {
    free(mean);
    free(var);
    return sensim_error_set(SENSIM_ENOMEM, "noise calibration: out of memory for %zu values", nvalues);
  }
  /* Two passes per value (mean, then squared deviations) rather than sums
   * of squares, which cancel badly when the noise is small next to I. */
  for (size_t i = 0; i < nvalues; i++) {
    double s = 0;
    for (size_t k = 0; k < nframes; k++) {
      double x = frames[k][i];
      if (!isfinite(x)) {
        free(mean);
        free(var);
        return sensim_error_set(SENSIM_EINVAL, "noise calibration: frame %zu value %zu is %g", k, i,
                            x);
      }
      s += x;
    }
    double m = s / (double)nframes, ss = 0;
    for (size_t k = 0; k < nframes; k++) {
      double d = frames[k][i] - m;
      ss += d * d;
    }
    mean[i] = m;
    var[i] = ss / (double)(nframes - 1);
  }
  sensim_status st = sensim_noise_calib_fit_moments(mean, var, nvalues, nframes, nbins, out);
  free(mean);
  free(var);
  return st;
}
