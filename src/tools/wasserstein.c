/* tools/wasserstein.c: the Wasserstein-1 (earth mover's) distance between
 * two 1-D empirical distributions.
 *
 * On the line, W1(P, Q) = integral |F_P(x) - F_Q(x)| dx (S. S. Vallender,
 * "Calculation of the Wasserstein distance between probability
 * distributions on the line", Theory Probab. Appl. 18(4), 784-786, 1973).
 * For empirical distributions both F are step functions that change only
 * at the sample values, so the integral is a finite sum over the sorted
 * union of the values: sum_j |F_a - F_b| (x_{j+1} - x_j). Sets of different
 * sizes need no special case. O((na + nb) log(na + nb)). */
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

static int cmp_double(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

static sensim_status check_set(const double *v, size_t n, const char *which) {
  if (!v) return sensim_error_set(SENSIM_EINVAL, "wasserstein: set %s is NULL", which);
  if (n == 0) return sensim_error_set(SENSIM_EINVAL, "wasserstein: set %s is empty", which);
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return sensim_error_set(SENSIM_EINVAL, "wasserstein: set %s value %zu is %g", which, i, v[i]);
  return SENSIM_OK;
}

sensim_status sensim_wasserstein1(const double *a, size_t na, const double *b, size_t nb,
                                  double *out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "wasserstein: NULL out");
  sensim_status st = check_set(a, na, "a");
  if (st == SENSIM_OK) st = check_set(b, nb, "b");
  if (st != SENSIM_OK) return st;
  double *sa = malloc((na + nb) * sizeof *sa);
  if (!sa) return sensim_error_set(SENSIM_ENOMEM, "wasserstein: out of memory");
  double *sb = sa + na;
  memcpy(sa, a, na * sizeof *sa);
  memcpy(sb, b, nb * sizeof *sb);
  qsort(sa, na, sizeof *sa, cmp_double);
  qsort(sb, nb, sizeof *sb, cmp_double);
  /* Walk the merged values; between x and the next value both F are
   * constant: F_a = i / na, F_b = j / nb after consuming every value <= x. */
  size_t i = 0, j = 0;
  double w = 0.0, x = sa[0] < sb[0] ? sa[0] : sb[0];
  while (i < na || j < nb) {
    while (i < na && sa[i] <= x) i++;
    while (j < nb && sb[j] <= x) j++;
    if (i == na && j == nb) break;
    double next = i < na ? sa[i] : sb[j];
    if (j < nb && sb[j] < next) next = sb[j];
    w += fabs((double)i / (double)na - (double)j / (double)nb) * (next - x);
    x = next;
  }
  free(sa);
  *out = w;
  return SENSIM_OK;
}
