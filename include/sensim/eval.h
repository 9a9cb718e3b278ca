/* sensim/eval.h: sim-to-real metrics. */
#ifndef SENSIM_EVAL_H
#define SENSIM_EVAL_H

#include "sensim/export.h"

#include <stddef.h>
#include "sensim/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overlapping Allan deviation (IEEE Std 952-1997, Annex C) of a rate signal
 * y sampled every tau0 seconds, at averaging times m * tau0 for each m in
 * `ms` (each 1 <= m <= (n - 1) / 2). adev receives one value per m. */
SENSIM_API sensim_status sensim_allan_deviation(const double *y, size_t n, double tau0,
                                     const size_t *ms, size_t nm, double *adev);

/* ---- Allan-deviation lines (eval/allan_fit.c) ----------------------------
 * IEEE Std 952-1997, Annex C: on a log-log Allan-deviation plot, white
 * rate noise (angle / velocity random walk) is a line of slope -1/2 whose
 * value at tau = 1 s is its coefficient N, sigma = N / sqrt(tau); rate
 * random walk (bias random walk) a line of slope +1/2 whose value at
 * tau = 3 s is its coefficient K, sigma = K sqrt(tau / 3). */

/* Averaging factors m for sensim_allan_deviation: about `per_decade`
 * (>= 1) values per decade from 1 to (n - 1) / 2, evenly spaced in log m,
 * rounded and strictly increasing. Writes at most `cap` values; returns how
 * many (0 when n < 3 or ms is NULL). */
SENSIM_API size_t sensim_allan_log_factors(size_t n, size_t per_decade, size_t *ms, size_t cap);

typedef struct sensim_allan_lines {
  double n;       /* N, white-noise coefficient: the slope -1/2 line at tau = 1 s,
                     signal unit * sqrt(s) (e.g. rad/s/sqrt(Hz)); NaN if no such region */
  double k;       /* K, random-walk coefficient: the slope +1/2 line at tau = 3 s,
                     signal unit / sqrt(s); NaN if no such region */
  double tau_n;   /* s, geometric centre of the points the N line was fitted on */
  double tau_k;   /* s, the same for K */
  double slope_n; /* log-log slope of the curve over those points (near -1/2) */
  double slope_k; /* the same for K (near +1/2) */
} sensim_allan_lines;

/* Fit the two lines to an Allan-deviation curve (tau increasing, > 0):
 * over every run of 3 consecutive points the least-squares log-log slope
 * is taken; N comes from the run whose slope is closest to -1/2, K from the
 * run closest to +1/2, each only if within 0.2 of its target, as the mean
 * of log(sigma) -/+ log(tau) / 2 over the run's points. Points with
 * non-finite or non-positive values are skipped. SENSIM_EINVAL for NULL
 * pointers, n < 3 or tau not strictly increasing. */
SENSIM_API sensim_status sensim_allan_fit_lines(const double *tau, const double *adev, size_t n,
                                     sensim_allan_lines *out);

/* ---- noise calibration (eval/noise_calib.c) ------------------------------
 * Estimates the intensity-dependent Gaussian noise model
 *   sigma^2(I) = s1^2 I + s2^2
 * (the Poisson-Gaussian model of Foi et al. 2008, "Practical Poissonian-
 * Gaussian noise modeling and fitting for single-image raw-data", IEEE
 * TIP 17(10), with a = s1^2, b = s2^2) from N frames of a static scene by
 * the mean-image (photon-transfer) method: each value's mean and unbiased
 * variance over the stack, values binned by mean into equal-width bins over
 * the range of means, and var = a I + b fitted to the bins by weighted least
 * squares. docs/camera_pipeline.md, "Noise calibration", gives the details.
 * Values are in any unit (I and sigma in the same unit); for colour images
 * every channel sample is one value, so all channels share (s1, s2). */

#define SENSIM_NOISE_CALIB_MAX_BINS 256

typedef struct sensim_noise_bin {
  double mean;      /* mean intensity of the bin's values, input units */
  double var;       /* mean of their unbiased sample variances, units^2 */
  double var_model; /* a * mean + b of the fit, units^2 */
  double var_std;   /* standard error of var under the fitted model, units^2 */
  size_t count;     /* values in the bin, outliers excluded */
} sensim_noise_bin;

typedef struct sensim_noise_fit {
  double s1;          /* sqrt(a), units^(1/2); 0 when a < 0 (see clamped) */
  double s2;          /* sqrt(b), units; 0 when b < 0 (see clamped) */
  double a, b;        /* fitted slope (units) and intercept (units^2), unclamped */
  double a_std, b_std; /* standard errors of a and b from the weights */
  double chi2;        /* weighted sum of squared bin residuals */
  double chi2_dof;    /* chi2 / (nbins_used - 2), near 1 when the model fits;
                         0 with exactly 2 bins */
  int clamped;        /* bit 0: a < 0 was clamped (s1 = 0); bit 1: b < 0 (s2 = 0) */
  size_t nframes;     /* N, frames in the stack */
  size_t nvalues;     /* values per frame */
  size_t nrejected;   /* values left out as outliers (variance beyond the
                         1 - 1e-6 quantile of their bin's chi-square law) */
  double quant_var;   /* from 8/16-bit files: LSB^2 / 12 of the coarsest file
                         (quantisation noise, included in b); 0 otherwise */
  size_t nbins_used;  /* bins holding values, <= the bins asked for */
  sensim_noise_bin bins[SENSIM_NOISE_CALIB_MAX_BINS]; /* first nbins_used, by mean */
} sensim_noise_fit;

/* Fit on a stack: frames[i] points at nvalues floats of frame i (borrowed
 * for the call). nframes >= 2, nvalues >= 2, nbins in 2 ..
 * SENSIM_NOISE_CALIB_MAX_BINS (0: 32). SENSIM_EINVAL for NULL pointers,
 * bad counts, a NaN or infinite value, or values whose means fill fewer
 * than 2 bins (the scene needs a range of intensities). *out is written
 * only on success. */
SENSIM_API sensim_status sensim_noise_calib_fit(const float *const *frames, size_t nframes, size_t nvalues,
                                     size_t nbins, sensim_noise_fit *out);

/* The same fit from per-value moments over nframes frames: mean[i] and the
 * unbiased variance var[i] (>= 0) of value i. For callers that accumulate
 * frames as they arrive (sensim_noise_calib_pngs, the `sensim noise-calib`
 * command). */
SENSIM_API sensim_status sensim_noise_calib_fit_moments(const double *mean, const double *var,
                                             size_t nvalues, size_t nframes, size_t nbins,
                                             sensim_noise_fit *out);

#ifdef __cplusplus
}
#endif
#endif
