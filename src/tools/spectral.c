/* tools/spectral.c: Wiener entropy (spectral flatness) of a sample series.
 *
 * Flatness = exp(mean_k ln|X_k|) / mean_k |X_k| over a set of DFT bins,
 * X_k = sum_j x_j exp(-2 pi i j k / n) (N. S. Jayant and P. Noll, "Digital
 * Coding of Waveforms", Prentice-Hall 1984, sec. 2.4, for the measure;
 * here on magnitudes, as Mahajan et al. 2024 define it). Which bins:
 *
 *  - SENSIM_ENTROPY_ALL_BINS (the default, the paper's Eq. 2): all n bins
 *    k = 0 .. n - 1 of the DFT, DC and (even n) Nyquist included and the
 *    mirrored upper half counted as the paper's sum over N counts it
 *    (|X_{n-k}| = |X_k| for a real signal). DC holds n times the mean, so
 *    for a speed signal with a mean well above its fluctuation it
 *    dominates the arithmetic mean and H falls with the mean speed
 *    (docs/vepd.md gives numbers).
 *  - SENSIM_ENTROPY_FLUCTUATION (sensim's earlier definition): the bins
 *    k = 1 .. ceil(n/2) - 1 only. DC is left out (the manoeuvre's average
 *    speed rather than the estimator's signature; leaving it out is the
 *    same as removing the mean, so H is invariant to a x + b), and for
 *    even n the Nyquist bin too (real-valued, so its magnitude follows a
 *    different law, half-normal, not Rayleigh, and whether it exists
 *    depends on the parity of n). Every bin used is then a complex one;
 *    for white Gaussian input they are independent Rayleigh magnitudes,
 *    which gives the closed form in docs/vepd.md (flatness ->
 *    2 exp(-gamma/2) / sqrt(pi) = 0.8455).
 *
 * No window is applied (rectangular): leakage of a non-periodic trend is
 * part of the signal's signature, the same for real and simulated runs. A
 * numerically constant signal gives 0 in both modes. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_real.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

/* Relative size under which a signal's fluctuation is double rounding, not
 * information (a true constant speed read back through sqrt(vx^2 + vy^2)). */
#define FLAT_CONSTANT_REL 1e-12

sensim_status sensim_wiener_entropy(const double *x, size_t n, double *out) {
  return sensim_wiener_entropy_bins(x, n, SENSIM_ENTROPY_ALL_BINS, out);
}

sensim_status sensim_wiener_entropy_bins(const double *x, size_t n, sensim_entropy_bins bins, double *out) {
  if (!x || !out) return sensim_error_set(SENSIM_EINVAL, "wiener entropy: NULL argument");
  if (bins != SENSIM_ENTROPY_ALL_BINS && bins != SENSIM_ENTROPY_FLUCTUATION)
    return sensim_error_set(SENSIM_EINVAL, "wiener entropy: unknown bin set %d", (int)bins);
  if (n < 3) return sensim_error_set(SENSIM_EINVAL, "wiener entropy: %zu samples, need >= 3", n);
  double mean = 0.0, amax = 0.0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(x[i]))
      return sensim_error_set(SENSIM_EINVAL, "wiener entropy: sample %zu is %g", i, x[i]);
    mean += x[i];
    if (fabs(x[i]) > amax) amax = fabs(x[i]);
  }
  mean /= (double)n;
  double ss = 0.0;
  for (size_t i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
  if (sqrt(ss / (double)n) <= FLAT_CONSTANT_REL * amax) {
    *out = 0.0; /* a tone at 0 Hz */
    return SENSIM_OK;
  }

  double *buf = malloc(n * sizeof *buf);
  gsl_fft_real_wavetable *wt = gsl_fft_real_wavetable_alloc(n);
  gsl_fft_real_workspace *ws = gsl_fft_real_workspace_alloc(n);
  sensim_status st = SENSIM_OK;
  if (!buf || !wt || !ws) {
    st = sensim_error_set(SENSIM_ENOMEM, "wiener entropy: out of memory for %zu samples", n);
    goto done;
  }
  memcpy(buf, x, n * sizeof *buf);
  /* The arguments are valid by construction (stride 1, wavetable and
   * workspace of size n), so GSL's error handler, which aborts by default
   * and is process-wide (not ours to swap from a worker thread), is never
   * reached from here; the return code is still checked. */
  int rc = gsl_fft_real_transform(buf, 1, n, wt, ws);
  if (rc != GSL_SUCCESS) {
    st = sensim_error_set(SENSIM_EBACKEND, "wiener entropy: GSL FFT failed: %s", gsl_strerror(rc));
    goto done;
  }
  /* Half-complex layout (GSL manual, "Mixed-radix FFT routines for real
   * data"): buf[0] = Re X_0, then (Re X_k, Im X_k) at buf[2k - 1], buf[2k]
   * for k = 1 .. ceil(n/2) - 1, and for even n Re X_{n/2} at buf[n - 1]. */
  size_t m = (n - 1) / 2;
  double sum_log = 0.0, sum = 0.0, count = 0.0;
  int zero = 0;
  /* Bin k with its weight: 2 for a complex bin counted with its mirror
   * (all-bins mode), 1 otherwise. */
  const double w = bins == SENSIM_ENTROPY_ALL_BINS ? 2.0 : 1.0;
  for (size_t k = 0; k <= n / 2; k++) {
    double mag, wk;
    if (k == 0) {
      mag = fabs(buf[0]);
      wk = 1.0;
    } else if (k <= m) {
      mag = hypot(buf[2 * k - 1], buf[2 * k]);
      wk = w;
    } else {
      mag = fabs(buf[n - 1]); /* Nyquist, even n */
      wk = 1.0;
    }
    if (bins == SENSIM_ENTROPY_FLUCTUATION && (k == 0 || k > m)) continue;
    if (mag > 0.0)
      sum_log += wk * log(mag);
    else
      zero = 1; /* geometric mean 0 */
    sum += wk * mag;
    count += wk;
  }
  if (sum <= 0.0)
    *out = 0.0; /* all fluctuation in DC/Nyquist: a tone */
  else
    *out = zero ? 0.0 : exp(sum_log / count) / (sum / count);
done:
  gsl_fft_real_workspace_free(ws);
  gsl_fft_real_wavetable_free(wt);
  free(buf);
  return st;
}
