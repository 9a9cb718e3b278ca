/* tools/spectral.c: Wiener entropy (spectral flatness) of a sample series.
 *
 * Flatness = exp(mean_k ln|X_k|) / mean_k |X_k| over the DFT bins
 * k = 1 .. ceil(n/2) - 1, X_k = sum_j x_j exp(-2 pi i j k / n) (N. S. Jayant
 * and P. Noll, "Digital Coding of Waveforms", Prentice-Hall 1984, sec. 2.4,
 * for the measure; here on magnitudes, as issue 8 and Mahajan et al. 2024
 * define it). Which bins count:
 *  - DC (k = 0) is left out: it holds n times the mean, the manoeuvre's
 *    average speed rather than the estimator's signature, and being O(n)
 *    against O(sqrt(n)) for a fluctuation bin it would dominate the
 *    arithmetic mean. Leaving it out is the same as removing the mean.
 *  - For even n the Nyquist bin (k = n/2) is left out: it is real-valued,
 *    so its magnitude follows a different law (half-normal, not Rayleigh)
 *    from every other bin, and whether it exists depends on the parity of n.
 *  - Bins above n/2 mirror those below for a real signal.
 * So every bin used is a complex one; for white Gaussian input they are
 * independent Rayleigh magnitudes, which gives the closed form in
 * docs/vepd.md (flatness -> 2 exp(-gamma/2) / sqrt(pi) = 0.8455). No window
 * is applied (rectangular): leakage of a non-periodic trend is part of the
 * signal's signature, the same for real and simulated runs. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_real.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

/* Relative size under which a signal's fluctuation is double rounding, not
 * information (a true constant speed read back through sqrt(vx^2 + vy^2)). */
#define FLAT_CONSTANT_REL 1e-12

sensim_status sensim_wiener_entropy(const double *x, size_t n, double *out) {
  if (!x || !out) return sensim_error_set(SENSIM_EINVAL, "wiener entropy: NULL argument");
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
  double sum_log = 0.0, sum = 0.0;
  int zero = 0;
  for (size_t k = 1; k <= m; k++) {
    double mag = hypot(buf[2 * k - 1], buf[2 * k]);
    if (mag > 0.0)
      sum_log += log(mag);
    else
      zero = 1; /* geometric mean 0 */
    sum += mag;
  }
  if (sum <= 0.0)
    *out = 0.0; /* all fluctuation in DC/Nyquist: a tone */
  else
    *out = zero ? 0.0 : exp(sum_log / (double)m) / (sum / (double)m);
done:
  gsl_fft_real_workspace_free(ws);
  gsl_fft_real_wavetable_free(wt);
  free(buf);
  return st;
}
