/* tools/allan.c: overlapping Allan deviation.
 *
 * IEEE Std 952-1997, Annex C, with fully overlapping clusters as in NIST
 * SP 1065 (Riley 2008) (after D. W. Allan, "Statistics of atomic frequency
 * standards", Proc. IEEE 54(2), 1966). For rate samples y_0 .. y_{n-1}
 * taken every tau0 seconds and a cluster of m samples (tau = m tau0):
 *
 *   ybar_k = (1/m) sum_{i=k}^{k+m-1} y_i,          k = 0 .. n - m
 *   AVAR(tau) = 1 / (2 (n - 2m + 1)) sum_{k=0}^{n-2m} (ybar_{k+m} - ybar_k)^2
 *
 * Cluster means come from cumulative sums S_j = sum_{i<j} y_i, so each m
 * costs O(n): ybar_k = (S_{k+m} - S_k) / m. The series' mean is removed
 * before summing (AVAR ignores a constant offset) so S stays small and the
 * differences of S lose less precision. The value does not depend on tau0,
 * which only names the averaging times tau = m tau0 the results belong to. */
#include <stdlib.h>
#include "tools/tools_internal.h"

sensim_status sensim_allan_deviation(const double *y, size_t n, double tau0, const size_t *ms,
                                     size_t nm, double *adev) {
  if (!y) return sensim_error_set(SENSIM_EINVAL, "allan: y is NULL");
  if (n < 3) return sensim_error_set(SENSIM_EINVAL, "allan: n = %zu, need >= 3 samples", n);
  if (!isfinite(tau0) || tau0 <= 0.0)
    return sensim_error_set(SENSIM_EINVAL, "allan: tau0 = %g must be finite and > 0", tau0);
  if (nm == 0) return sensim_error_set(SENSIM_EINVAL, "allan: no averaging factors given");
  if (!ms) return sensim_error_set(SENSIM_EINVAL, "allan: ms is NULL");
  if (!adev) return sensim_error_set(SENSIM_EINVAL, "allan: adev is NULL");
  for (size_t j = 0; j < nm; j++) {
    if (ms[j] < 1 || ms[j] > (n - 1) / 2)
      return sensim_error_set(SENSIM_EINVAL, "allan: ms[%zu] = %zu outside [1, %zu] for n = %zu", j,
                          ms[j], (n - 1) / 2, n);
  }
  double mean = 0.0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(y[i]))
      return sensim_error_set(SENSIM_EINVAL, "allan: y[%zu] = %g is not finite", i, y[i]);
    mean += y[i];
  }
  mean /= (double)n;

  double *s = malloc((n + 1) * sizeof *s);
  if (!s) return sensim_error_set(SENSIM_ENOMEM, "allan: out of memory for %zu sums", n + 1);
  s[0] = 0.0;
  for (size_t i = 0; i < n; i++) s[i + 1] = s[i] + (y[i] - mean);

  for (size_t j = 0; j < nm; j++) {
    size_t m = ms[j];
    size_t terms = n - 2 * m + 1;
    double acc = 0.0;
    for (size_t k = 0; k < terms; k++) {
      /* m (ybar_{k+m} - ybar_k) = S_{k+2m} - 2 S_{k+m} + S_k */
      double d = s[k + 2 * m] - 2.0 * s[k + m] + s[k];
      acc += d * d;
    }
    double md = (double)m;
    adev[j] = sqrt(acc / (2.0 * (double)terms * md * md));
  }
  free(s);
  return SENSIM_OK;
}
