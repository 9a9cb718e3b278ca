/* tools/vepd.c: the Velocity Estimation Performance Difference (I. Mahajan
 * et al., "Quantifying the Sim2real Gap for GPS and IMU Sensors",
 * arXiv:2403.11000, 2024). Per run: the RMSE of the velocity estimate and
 * |H(estimate) - H(truth)| with H the Wiener entropy (tools/spectral.c);
 * across runs: W1 = Wasserstein-1 of the RMSE sets, W2 = Wasserstein-1 of
 * the entropy-difference sets (tools/wasserstein.c; both order-1 distances,
 * the paper's names), VEPD = (W1 + W2) / 2. */
#include <stdlib.h>
#include "tools/tools_internal.h"
#include "tools/vepd_internal.h"

sensim_status sensim_tools__vepd_run_check(const sensim_vepd_run *r, const char *what) {
  if (!r) return sensim_error_set(SENSIM_EINVAL, "%s: NULL run", what);
  if (!r->t || !r->v_est || !r->v_true)
    return sensim_error_set(SENSIM_EINVAL, "%s: run has NULL arrays", what);
  if (r->n < 3) return sensim_error_set(SENSIM_EINVAL, "%s: %zu samples, need >= 3", what, r->n);
  if (r->dim < 1 || r->dim > 3)
    return sensim_error_set(SENSIM_EINVAL, "%s: dim %zu, must be 1, 2 or 3", what, r->dim);
  for (size_t i = 0; i < r->n; i++) {
    if (!isfinite(r->t[i]) || (i > 0 && !(r->t[i] > r->t[i - 1])))
      return sensim_error_set(SENSIM_EINVAL, "%s: time %zu = %g is not finite and after %g", what, i,
                          r->t[i], i > 0 ? r->t[i - 1] : -INFINITY);
    for (size_t d = 0; d < r->dim; d++)
      if (!isfinite(r->v_est[i * r->dim + d]) || !isfinite(r->v_true[i * r->dim + d]))
        return sensim_error_set(SENSIM_EINVAL, "%s: sample %zu has a non-finite velocity", what, i);
  }
  return SENSIM_OK;
}

/* The entropy's scalar signal: v for dim 1, |v| otherwise. */
static void signal_of(const double *v, size_t n, size_t dim, double *s) {
  for (size_t i = 0; i < n; i++) {
    if (dim == 1) {
      s[i] = v[i];
      continue;
    }
    double q = 0.0;
    for (size_t d = 0; d < dim; d++) q += v[i * dim + d] * v[i * dim + d];
    s[i] = sqrt(q);
  }
}

sensim_status sensim_vepd_run_metrics_compute(const sensim_vepd_run *run,
                                              sensim_vepd_run_metrics *out) {
  return sensim_vepd_run_metrics_compute_bins(run, SENSIM_ENTROPY_ALL_BINS, out);
}

sensim_status sensim_vepd_run_metrics_compute_bins(const sensim_vepd_run *run, sensim_entropy_bins bins,
                                                   sensim_vepd_run_metrics *out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "vepd run metrics: NULL out");
  sensim_status st = sensim_tools__vepd_run_check(run, "vepd run metrics");
  if (st != SENSIM_OK) return st;
  double se = 0.0;
  for (size_t i = 0; i < run->n * run->dim; i++) {
    double e = run->v_est[i] - run->v_true[i];
    se += e * e;
  }
  double *s = malloc(run->n * sizeof *s);
  if (!s) return sensim_error_set(SENSIM_ENOMEM, "vepd run metrics: out of memory");
  sensim_vepd_run_metrics m;
  m.rmse = sqrt(se / (double)run->n);
  signal_of(run->v_est, run->n, run->dim, s);
  st = sensim_wiener_entropy_bins(s, run->n, bins, &m.h_est);
  if (st == SENSIM_OK) {
    signal_of(run->v_true, run->n, run->dim, s);
    st = sensim_wiener_entropy_bins(s, run->n, bins, &m.h_true);
  }
  free(s);
  if (st != SENSIM_OK) return st;
  m.h_diff = fabs(m.h_est - m.h_true);
  *out = m;
  return SENSIM_OK;
}

sensim_status sensim_tools__vepd_from_metrics(const sensim_vepd_run_metrics *ma, size_t na,
                                            const sensim_vepd_run_metrics *mb, size_t nb,
                                            sensim_vepd_result *out) {
  if (na == 0 || nb == 0)
    return sensim_error_set(SENSIM_EINVAL, "vepd: empty run set (%zu and %zu runs)", na, nb);
  /* rmse and h_diff per run: set a at [0, na), set b at [na, na + nb). */
  double *rmse = malloc(2 * (na + nb) * sizeof *rmse);
  if (!rmse) return sensim_error_set(SENSIM_ENOMEM, "vepd: out of memory");
  double *hd = rmse + na + nb;
  sensim_vepd_result r = {0};
  for (size_t i = 0; i < na + nb; i++) {
    const sensim_vepd_run_metrics *m = i < na ? &ma[i] : &mb[i - na];
    rmse[i] = m->rmse;
    hd[i] = m->h_diff;
    r.rmse_mean[i >= na] += m->rmse / (double)(i < na ? na : nb);
    r.h_diff_mean[i >= na] += m->h_diff / (double)(i < na ? na : nb);
  }
  sensim_status st = sensim_wasserstein1(rmse, na, rmse + na, nb, &r.w1);
  if (st == SENSIM_OK) st = sensim_wasserstein1(hd, na, hd + na, nb, &r.w2);
  free(rmse);
  if (st != SENSIM_OK) return st;
  r.vepd = 0.5 * (r.w1 + r.w2);
  *out = r;
  return SENSIM_OK;
}

sensim_status sensim_vepd_compute(const sensim_vepd_run *a, size_t na, const sensim_vepd_run *b,
                                  size_t nb, sensim_vepd_result *out, sensim_vepd_run_metrics *ma,
                                  sensim_vepd_run_metrics *mb) {
  return sensim_vepd_compute_bins(a, na, b, nb, SENSIM_ENTROPY_ALL_BINS, out, ma, mb);
}

sensim_status sensim_vepd_compute_bins(const sensim_vepd_run *a, size_t na, const sensim_vepd_run *b,
                                       size_t nb, sensim_entropy_bins bins, sensim_vepd_result *out,
                                       sensim_vepd_run_metrics *ma, sensim_vepd_run_metrics *mb) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "vepd: NULL out");
  if (!a || !b) return sensim_error_set(SENSIM_EINVAL, "vepd: NULL run set");
  if (na == 0 || nb == 0)
    return sensim_error_set(SENSIM_EINVAL, "vepd: empty run set (%zu and %zu runs)", na, nb);
  sensim_vepd_run_metrics *met = malloc((na + nb) * sizeof *met);
  if (!met) return sensim_error_set(SENSIM_ENOMEM, "vepd: out of memory");
  sensim_status st = SENSIM_OK;
  for (size_t i = 0; i < na + nb && st == SENSIM_OK; i++) {
    st = sensim_vepd_run_metrics_compute_bins(i < na ? &a[i] : &b[i - na], bins, &met[i]);
    if (st != SENSIM_OK) sensim_error_prefix("vepd: set %s run %zu", i < na ? "a" : "b", i < na ? i : i - na);
  }
  if (st == SENSIM_OK) st = sensim_tools__vepd_from_metrics(met, na, met + na, nb, out);
  for (size_t i = 0; st == SENSIM_OK && i < na && ma; i++) ma[i] = met[i];
  for (size_t i = 0; st == SENSIM_OK && i < nb && mb; i++) mb[i] = met[na + i];
  free(met);
  return st;
}
