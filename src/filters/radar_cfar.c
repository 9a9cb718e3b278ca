/* filters/radar_cfar.c: CA- and OS-CFAR on a range-Doppler power map
 * (filters/radar_cfar.h). */
#include "filters/radar_cfar.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "core/internal.h"

long long sensim__cfar_train_count(const sensim__cfar_params *p) {
  if (!p || p->guard_range < 0 || p->guard_doppler < 0 || p->train_range < 0 || p->train_doppler < 0) return 0;
  /* Every size is an int, so these products fit in a long long. */
  long long wr = 2LL * ((long long)p->guard_range + p->train_range) + 1;
  long long wd = 2LL * ((long long)p->guard_doppler + p->train_doppler) + 1;
  long long gr = 2LL * p->guard_range + 1, gd = 2LL * p->guard_doppler + 1;
  return wr * wd - gr * gd;
}

sensim_status sensim__cfar_check(const sensim__cfar_params *p, int n_doppler, int n_range) {
  if (!p) return sensim__fail(SENSIM_EINVAL, "cfar: params is NULL");
  if (p->kind != SENSIM__CFAR_CA && p->kind != SENSIM__CFAR_OS)
    return sensim__fail(SENSIM_EINVAL, "cfar: kind %d is neither CA (0) nor OS (1)", (int)p->kind);
  if (p->guard_range < 0) return sensim__fail(SENSIM_EINVAL, "cfar: guard_range %d must be >= 0", p->guard_range);
  if (p->guard_doppler < 0)
    return sensim__fail(SENSIM_EINVAL, "cfar: guard_doppler %d must be >= 0", p->guard_doppler);
  if (p->train_range < 0) return sensim__fail(SENSIM_EINVAL, "cfar: train_range %d must be >= 0", p->train_range);
  if (p->train_doppler < 0)
    return sensim__fail(SENSIM_EINVAL, "cfar: train_doppler %d must be >= 0", p->train_doppler);
  if (p->train_range == 0 && p->train_doppler == 0)
    return sensim__fail(SENSIM_EINVAL, "cfar: train_range and train_doppler are both 0 (no training cells)");
  if (!(p->pfa > 0.0 && p->pfa < 1.0)) return sensim__fail(SENSIM_EINVAL, "cfar: pfa %g must be in (0, 1)", p->pfa);
  if (n_doppler < 1 || n_range < 1)
    return sensim__fail(SENSIM_EINVAL, "cfar: map of %d Doppler x %d range cells is empty", n_doppler, n_range);
  long long wr = 2LL * ((long long)p->guard_range + p->train_range) + 1;
  long long wd = 2LL * ((long long)p->guard_doppler + p->train_doppler) + 1;
  if (wr > n_range)
    return sensim__fail(SENSIM_EINVAL,
                        "cfar: window of %lld range cells (2 (guard_range %d + train_range %d) + 1) is larger "
                        "than the map's %d",
                        wr, p->guard_range, p->train_range, n_range);
  if (wd > n_doppler)
    return sensim__fail(SENSIM_EINVAL,
                        "cfar: window of %lld Doppler cells (2 (guard_doppler %d + train_doppler %d) + 1) is "
                        "larger than the map's %d",
                        wd, p->guard_doppler, p->train_doppler, n_doppler);
  long long n = sensim__cfar_train_count(p);
  if (n > INT_MAX) return sensim__fail(SENSIM_EINVAL, "cfar: %lld training cells is more than %d", n, INT_MAX);
  if (p->kind == SENSIM__CFAR_OS && (p->os_rank < 0 || p->os_rank > n))
    return sensim__fail(SENSIM_EINVAL, "cfar: os_rank %d must be in 1..%lld (the training cells), or 0", p->os_rank,
                        n);
  return SENSIM_OK;
}

/* The OS rank used with n training cells. */
static int os_rank_of(const sensim__cfar_params *p, int n) {
  return p->os_rank > 0 ? p->os_rank : (int)fmax(1.0, floor(0.75 * n + 0.5));
}

double sensim__cfar_alpha(const sensim__cfar_params *p, int n_train) {
  if (!p || n_train < 1 || !(p->pfa > 0.0 && p->pfa < 1.0)) return NAN;
  const double n = n_train, log_inv_pfa = -log(p->pfa);
  if (p->kind == SENSIM__CFAR_CA) {
    /* CA-CFAR (Richards, Fundamentals of Radar Signal Processing, 2nd ed.,
     * 2014, ch. 7, cell-averaging CFAR): noise power x ~ Exp(mu), the sum S
     * of N training cells ~ Gamma(N, mu), so
     * P(x > alpha S / N) = E[exp(-alpha S / (N mu))] = (1 + alpha / N)^-N
     * = pfa, i.e. alpha = N (pfa^(-1/N) - 1). expm1 keeps the digits when
     * pfa^(-1/N) is near 1 (large N). */
    return n * expm1(log_inv_pfa / n);
  }
  if (p->kind != SENSIM__CFAR_OS) return NAN;
  const int k = os_rank_of(p, n_train);
  if (k > n_train) return NAN;
  /* OS-CFAR (H. Rohling, "Radar CFAR thresholding in clutter and multiple
   * target situations", IEEE Trans. AES 19(4):608-621, 1983):
   * pfa = prod_{i=0}^{k-1} (N - i) / (N - i + alpha). Solve
   * g(alpha) = sum_i log1p(alpha / (N - i)) - log(1/pfa) = 0: g is
   * increasing and concave with g(0) < 0, so Newton's method from 0 stays
   * below the root and climbs to it monotonically (each tangent lies above
   * g). */
  double a = 0.0;
  for (int it = 0; it < 200; it++) {
    double g = -log_inv_pfa, dg = 0.0;
    for (int i = 0; i < k; i++) {
      double m = n - i;
      g += log1p(a / m);
      dg += 1.0 / (m + a);
    }
    double step = -g / dg;
    a += step;
    if (step <= 1e-15 * a) break;
  }
  return a;
}

/* Per Doppler row, the sums of power over the clipped range spans
 * [r - half, r + half] for the outer window (ho) and the guard block (hg). */
static void row_sums(const float *row, int n_range, int half_outer, int half_guard, double *ho, double *hg) {
  for (int r = 0; r < n_range; r++) {
    int lo = r - half_outer < 0 ? 0 : r - half_outer, hi = r + half_outer >= n_range ? n_range - 1 : r + half_outer;
    double s = 0.0;
    for (int c = lo; c <= hi; c++) s += row[c];
    ho[r] = s;
    lo = r - half_guard < 0 ? 0 : r - half_guard;
    hi = r + half_guard >= n_range ? n_range - 1 : r + half_guard;
    s = 0.0;
    for (int c = lo; c <= hi; c++) s += row[c];
    hg[r] = s;
  }
}

/* Columns of the window at range r inside the map, for a half width h. */
static int clipped_width(int r, int h, int n_range) {
  int lo = r - h < 0 ? 0 : r - h, hi = r + h >= n_range ? n_range - 1 : r + h;
  return hi - lo + 1;
}

static int wrap(int d, int n) {
  d %= n;
  return d < 0 ? d + n : d;
}

/* CA: the training sum is the window's sum less the guard block's, both
 * built from per-row range sums, then summed down the (wrapped) rows. */
static size_t detect_ca(const float *power, int nd, int nr, const sensim__cfar_params *p, double *ho, double *hg,
                        uint8_t *hit) {
  const int hr = p->guard_range + p->train_range, hd = p->guard_doppler + p->train_doppler;
  const int gr = p->guard_range, gd = p->guard_doppler;
  for (int d = 0; d < nd; d++)
    row_sums(power + (size_t)d * nr, nr, hr, gr, ho + (size_t)d * nr, hg + (size_t)d * nr);
  size_t count = 0;
  for (int r = 0; r < nr; r++) {
    /* N' and alpha(N') / N' by the window's columns inside the map. */
    int n_train = clipped_width(r, hr, nr) * (2 * hd + 1) - clipped_width(r, gr, nr) * (2 * gd + 1);
    double k = sensim__cfar_alpha(p, n_train) / n_train;
    for (int d = 0; d < nd; d++) {
      double outer = 0.0, guard = 0.0;
      for (int j = -hd; j <= hd; j++) outer += ho[(size_t)wrap(d + j, nd) * nr + r];
      for (int j = -gd; j <= gd; j++) guard += hg[(size_t)wrap(d + j, nd) * nr + r];
      size_t i = (size_t)d * nr + r;
      hit[i] = power[i] > k * fmax(outer - guard, 0.0); /* rounding may leave -0.x ulp */
      count += hit[i];
    }
  }
  return count;
}

/* The k-th smallest (1-based) of v[0 .. n): Hoare's selection. The value
 * does not depend on how the selection proceeds. */
static float kth_smallest(float *v, int n, int k) {
  int lo = 0, hi = n - 1, want = k - 1;
  while (lo < hi) {
    float pivot = v[lo + (hi - lo) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        float t = v[i];
        v[i] = v[j];
        v[j] = t;
        i++;
        j--;
      }
    }
    if (want <= j)
      hi = j;
    else if (want >= i)
      lo = i;
    else
      return v[want];
  }
  return v[want];
}

/* OS: gather each cell's training cells inside the map and select. */
static size_t detect_os(const float *power, int nd, int nr, const sensim__cfar_params *p, float *train,
                        uint8_t *hit) {
  const int hr = p->guard_range + p->train_range, hd = p->guard_doppler + p->train_doppler;
  const int gr = p->guard_range, gd = p->guard_doppler;
  const int n_full = (int)sensim__cfar_train_count(p), k_full = os_rank_of(p, n_full);
  size_t count = 0;
  for (int r = 0; r < nr; r++) {
    int lo = r - hr < 0 ? 0 : r - hr, hi = r + hr >= nr ? nr - 1 : r + hr;
    int n_train = (hi - lo + 1) * (2 * hd + 1) - clipped_width(r, gr, nr) * (2 * gd + 1);
    /* Near the edges the rank keeps its place in the order: k N' / N. */
    sensim__cfar_params q = *p;
    q.os_rank = n_train == n_full ? k_full : (int)fmax(1.0, floor((double)k_full * n_train / n_full + 0.5));
    const double alpha = sensim__cfar_alpha(&q, n_train);
    for (int d = 0; d < nd; d++) {
      int m = 0;
      for (int j = -hd; j <= hd; j++) {
        const float *row = power + (size_t)wrap(d + j, nd) * nr;
        int in_guard_rows = j >= -gd && j <= gd;
        for (int c = lo; c <= hi; c++)
          if (!in_guard_rows || c < r - gr || c > r + gr) train[m++] = row[c];
      }
      size_t i = (size_t)d * nr + r;
      hit[i] = power[i] > alpha * kth_smallest(train, m, q.os_rank);
      count += hit[i];
    }
  }
  return count;
}

sensim_status sensim__cfar_detect(const float *power, int n_doppler, int n_range, const sensim__cfar_params *p,
                                  uint8_t *hit, size_t *n_hits) {
  sensim_status st = sensim__cfar_check(p, n_doppler, n_range);
  if (st != SENSIM_OK) return st;
  if (!power || !hit) return sensim__fail(SENSIM_EINVAL, "cfar: %s is NULL", power ? "hit" : "power");
  const size_t cells = (size_t)n_doppler * (size_t)n_range;
  for (size_t i = 0; i < cells; i++)
    if (!(power[i] >= 0.0f && power[i] <= FLT_MAX))
      return sensim__fail(SENSIM_EINVAL, "cfar: power %g at Doppler %zu, range %zu is not finite and >= 0",
                          (double)power[i], i / (size_t)n_range, i % (size_t)n_range);
  size_t count;
  if (p->kind == SENSIM__CFAR_CA) {
    double *ho = sensim__frame_buffer(2 * cells * sizeof *ho, 0);
    if (!ho) return sensim__fail(SENSIM_ENOMEM, "cfar: out of memory for %zu cells' range sums", cells);
    count = detect_ca(power, n_doppler, n_range, p, ho, ho + cells, hit);
    sensim__frame_buffer_free(ho);
  } else {
    float *train = sensim__frame_buffer((size_t)sensim__cfar_train_count(p) * sizeof *train, 0);
    if (!train) return sensim__fail(SENSIM_ENOMEM, "cfar: out of memory for the training cells");
    count = detect_os(power, n_doppler, n_range, p, train, hit);
    sensim__frame_buffer_free(train);
  }
  if (n_hits) *n_hits = count;
  return SENSIM_OK;
}
