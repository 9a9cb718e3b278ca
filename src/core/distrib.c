/* core/distrib.c: see distrib.h. */
#include <stdlib.h>
#include <string.h>
#include "core/distrib.h"
#include "core/internal.h"

sensim_status sensim__distrib1d_init(sensim_distrib1d *d, const float *f, size_t n) {
  memset(d, 0, sizeof *d);
  d->f = malloc(n * sizeof *d->f);
  d->cdf = malloc((n + 1) * sizeof *d->cdf);
  if (!d->f || !d->cdf) {
    sensim__distrib1d_free(d);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a distribution of %zu values", n);
  }
  d->n = n;
  memcpy(d->f, f, n * sizeof *f);
  d->cdf[0] = 0.0;
  for (size_t i = 0; i < n; i++) d->cdf[i + 1] = d->cdf[i] + (double)f[i] / (double)n;
  d->integral = d->cdf[n];
  if (!(d->integral > 0.0)) {
    /* Nothing to prefer: uniform. */
    for (size_t i = 0; i < n; i++) d->f[i] = 1.0f;
    for (size_t i = 1; i <= n; i++) d->cdf[i] = (double)i / (double)n;
    d->integral = 0.0;
  } else {
    for (size_t i = 1; i <= n; i++) d->cdf[i] /= d->integral;
  }
  d->cdf[n] = 1.0;
  return SENSIM_OK;
}

void sensim__distrib1d_free(sensim_distrib1d *d) {
  free(d->f);
  free(d->cdf);
  memset(d, 0, sizeof *d);
}

/* The density's normaliser: the integral, or 1 for a uniform fallback. */
static double norm(const sensim_distrib1d *d) { return d->integral > 0.0 ? d->integral : 1.0; }

float sensim__distrib1d_sample(const sensim_distrib1d *d, float u, float *pdf, size_t *cell) {
  /* The last cdf entry <= u. */
  size_t lo = 0, hi = d->n;
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (d->cdf[mid] <= u)
      lo = mid;
    else
      hi = mid;
  }
  const double w = d->cdf[lo + 1] - d->cdf[lo];
  double du = w > 0.0 ? ((double)u - d->cdf[lo]) / w : 0.5;
  if (du < 0.0) du = 0.0;
  if (du >= 1.0) du = 0.99999994;
  *pdf = (float)(d->f[lo] / norm(d));
  if (cell) *cell = lo;
  return (float)(((double)lo + du) / (double)d->n);
}

float sensim__distrib1d_pdf(const sensim_distrib1d *d, float x) {
  size_t i = (size_t)(x * (float)d->n);
  if (i >= d->n) i = d->n - 1;
  return (float)(d->f[i] / norm(d));
}

sensim_status sensim__distrib2d_init(sensim_distrib2d *d, const float *f, size_t nu, size_t nv) {
  memset(d, 0, sizeof *d);
  d->cond = calloc(nv, sizeof *d->cond);
  float *m = malloc(nv * sizeof *m);
  if (!d->cond || !m) {
    free(m);
    free(d->cond);
    d->cond = NULL;
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a %zu x %zu distribution", nu, nv);
  }
  d->nu = nu, d->nv = nv;
  sensim_status rc = SENSIM_OK;
  for (size_t v = 0; v < nv && !rc; v++) {
    rc = sensim__distrib1d_init(&d->cond[v], f + v * nu, nu);
    m[v] = (float)d->cond[v].integral;
  }
  if (!rc) rc = sensim__distrib1d_init(&d->marg, m, nv);
  free(m);
  if (rc) sensim__distrib2d_free(d);
  return rc;
}

void sensim__distrib2d_free(sensim_distrib2d *d) {
  if (d->cond)
    for (size_t v = 0; v < d->nv; v++) sensim__distrib1d_free(&d->cond[v]);
  free(d->cond);
  sensim__distrib1d_free(&d->marg);
  memset(d, 0, sizeof *d);
}

float sensim__distrib2d_sample(const sensim_distrib2d *d, float u1, float u2, float uv[2]) {
  float pm, pc;
  size_t row;
  uv[1] = sensim__distrib1d_sample(&d->marg, u2, &pm, &row);
  uv[0] = sensim__distrib1d_sample(&d->cond[row], u1, &pc, NULL);
  return pm * pc;
}

float sensim__distrib2d_pdf(const sensim_distrib2d *d, const float uv[2]) {
  size_t row = (size_t)(uv[1] * (float)d->nv);
  if (row >= d->nv) row = d->nv - 1;
  return sensim__distrib1d_pdf(&d->marg, uv[1]) * sensim__distrib1d_pdf(&d->cond[row], uv[0]);
}
