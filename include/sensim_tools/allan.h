/* sensim_tools/allan.h: the overlapping Allan deviation of a sampled rate
 * signal and the white-noise and random-walk lines read off it (IEEE Std
 * 952-1997, Annex C), as used to characterise an IMU (docs/imu.md, "Allan
 * deviation"). */
#ifndef SENSIM_TOOLS_ALLAN_H
#define SENSIM_TOOLS_ALLAN_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Overlapping Allan deviation (IEEE Std 952-1997, Annex C) of a rate signal
 * y sampled every tau0 seconds, at averaging times m * tau0 for each m in
 * `ms` (each 1 <= m <= (n - 1) / 2). adev receives one value per m. */
SENSIM_TOOLS_API sensim_status sensim_allan_deviation(const double *y, size_t n, double tau0,
                                     const size_t *ms, size_t nm, double *adev);

/* ---- Allan-deviation lines (tools/allan_fit.c) ----------------------------
 * IEEE Std 952-1997, Annex C: on a log-log Allan-deviation plot, white
 * rate noise (angle / velocity random walk) is a line of slope -1/2 whose
 * value at tau = 1 s is its coefficient N, sigma = N / sqrt(tau); rate
 * random walk (bias random walk) a line of slope +1/2 whose value at
 * tau = 3 s is its coefficient K, sigma = K sqrt(tau / 3). */

/* Averaging factors m for sensim_allan_deviation: about `per_decade`
 * (>= 1) values per decade from 1 to (n - 1) / 2, evenly spaced in log m,
 * rounded and strictly increasing. Writes at most `cap` values; returns how
 * many (0 when n < 3 or ms is NULL). */
SENSIM_TOOLS_API size_t sensim_allan_log_factors(size_t n, size_t per_decade, size_t *ms, size_t cap);

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
SENSIM_TOOLS_API sensim_status sensim_allan_fit_lines(const double *tau, const double *adev, size_t n,
                                     sensim_allan_lines *out);

#ifdef __cplusplus
}
#endif
#endif
