/* tools/allan_fit.c: averaging factors for an Allan-deviation curve, and the
 * white-noise (slope -1/2) and random-walk (slope +1/2) lines of IEEE Std
 * 952-1997 Annex C fitted to it (sensim_tools/allan.h).
 *
 * Annex C reads N off the -1/2 line at tau = 1 s and K off the +1/2 line at
 * tau = 3 s. The lines are found where the curve's own log-log slope is
 * closest to theirs (where that noise dominates), with each line's level
 * the mean of the points' log intercepts there: for slope -1/2,
 * log N = log sigma + (1/2) log tau; for +1/2, log K = log sigma -
 * (1/2) log tau + (1/2) log 3. A local slope from three points rather
 * than two tempers the scatter of the long-tau estimates, whose relative
 * error grows as 1 / sqrt(2 (N/m - 1)) (Annex C.3). */
#include <math.h>
#include "tools/tools_internal.h"

size_t sensim_allan_log_factors(size_t n, size_t per_decade, size_t *ms, size_t cap) {
  if (n < 3 || !ms || cap == 0 || per_decade == 0) return 0;
  size_t mmax = (n - 1) / 2, k = 0;
  for (size_t j = 0; k < cap; j++) {
    double m = floor(pow(10.0, (double)j / (double)per_decade) + 0.5);
    if (m > (double)mmax) break;
    size_t mi = (size_t)m;
    if (k > 0 && mi <= ms[k - 1]) continue;
    ms[k++] = mi;
  }
  return k;
}

typedef struct run {
  double slope, lt_mean, ls_mean;
  int ok;
} run;

/* Least-squares slope of log sigma on log tau over points i..i+2. */
static run run_at(const double *tau, const double *adev, size_t i) {
  run r = {0, 0, 0, 0};
  double lt[3], ls[3];
  for (int j = 0; j < 3; j++) {
    if (!(isfinite(adev[i + j]) && adev[i + j] > 0.0)) return r;
    lt[j] = log(tau[i + j]);
    ls[j] = log(adev[i + j]);
  }
  double mt = (lt[0] + lt[1] + lt[2]) / 3.0, ms = (ls[0] + ls[1] + ls[2]) / 3.0;
  double sxy = 0.0, sxx = 0.0;
  for (int j = 0; j < 3; j++) {
    sxy += (lt[j] - mt) * (ls[j] - ms);
    sxx += (lt[j] - mt) * (lt[j] - mt);
  }
  if (!(sxx > 0.0)) return r;
  r.slope = sxy / sxx;
  r.lt_mean = mt;
  r.ls_mean = ms;
  r.ok = 1;
  return r;
}

sensim_status sensim_allan_fit_lines(const double *tau, const double *adev, size_t n,
                                     sensim_allan_lines *out) {
  if (!tau || !adev || !out) return sensim_error_set(SENSIM_EINVAL, "allan fit: NULL argument");
  if (n < 3) return sensim_error_set(SENSIM_EINVAL, "allan fit: %zu points, need >= 3", n);
  for (size_t i = 0; i < n; i++) {
    if (!(isfinite(tau[i]) && tau[i] > 0.0))
      return sensim_error_set(SENSIM_EINVAL, "allan fit: tau[%zu] = %g must be finite and > 0", i, tau[i]);
    if (i > 0 && !(tau[i] > tau[i - 1]))
      return sensim_error_set(SENSIM_EINVAL, "allan fit: tau must increase (tau[%zu] = %g after %g)", i,
                          tau[i], tau[i - 1]);
  }
  const double tol = 0.2;
  double best[2] = {tol, tol};
  run pick[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  const double target[2] = {-0.5, 0.5};
  for (size_t i = 0; i + 2 < n; i++) {
    run r = run_at(tau, adev, i);
    if (!r.ok) continue;
    for (int j = 0; j < 2; j++) {
      double d = fabs(r.slope - target[j]);
      if (d <= best[j]) {
        /* Ties go to the earlier run for N (shorter tau, more samples)
         * and to the later one for K (further from the white region). */
        if (d < best[j] || j == 1 || !pick[j].ok) pick[j] = r;
        best[j] = d;
      }
    }
  }
  sensim_allan_lines l;
  l.n = l.k = l.tau_n = l.tau_k = l.slope_n = l.slope_k = NAN;
  if (pick[0].ok) {
    /* The mean of log sigma + log tau / 2 over the run = ls_mean + lt_mean / 2. */
    l.n = exp(pick[0].ls_mean + 0.5 * pick[0].lt_mean);
    l.tau_n = exp(pick[0].lt_mean);
    l.slope_n = pick[0].slope;
  }
  if (pick[1].ok) {
    l.k = exp(pick[1].ls_mean - 0.5 * pick[1].lt_mean + 0.5 * log(3.0));
    l.tau_k = exp(pick[1].lt_mean);
    l.slope_k = pick[1].slope;
  }
  *out = l;
  return SENSIM_OK;
}
