/* filters/poisson_ctr.h: exact Poisson variates from position-addressed
 * random words (core/rng_counter.h), for per-value shot noise.
 *
 * A draw for value `block` of a stream takes words 0 and 1 of that block
 * (the caller has them already, usually from a batch); the rare further
 * attempts of the rejection method take block `block` of the streams whose
 * element word is the stream's plus r 2^16 (r = 1, 2, ...), two attempts
 * per block (words 0, 1 then 2, 3). So a value's count depends on its
 * position and its mean alone. */
#ifndef SENSIM_FILTERS_POISSON_CTR_H
#define SENSIM_FILTERS_POISSON_CTR_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sensim/rng.h"

/* Means below this take inversion, the rest PTRS. */
#define SENSIM_POISSON_PTRS_MIN 10.0

/* Poisson(mu) for finite mu >= 0, exact up to the 2^-32 (PTRS) or 2^-53
 * (inversion) resolution of its uniforms; w0, w1 are words 0 and 1 of
 * block `block` of `stream`. Algorithms in filters/poisson_ctr.c. */
double sensim__poisson_ctr(const sensim_rng *stream, uint32_t block, uint32_t w0, uint32_t w1, double mu);

/* ln x for finite normal x > 0 without a library call, so that SIMD copies
 * can give the same bits: x = 2^e m, m in (sqrt(1/2), sqrt(2)],
 * ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716, by its series
 * to s^23 (Abramowitz & Stegun 4.1.28; the first term left out,
 * s^25 / 25 < 1e-20, is far below an ulp), and e ln 2 in two parts
 * (fdlibm's split: e LN2_HI is exact). Within a few ulps of log(). */
#define SENSIM_LN2_HI 6.93147180369123816490e-01
#define SENSIM_LN2_LO 1.90821492927058770002e-10
static inline double sensim__ln(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint64_t eb = (bits >> 52) | 0x4330000000000000ull, mb = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  double e, m;
  memcpy(&e, &eb, sizeof e);
  memcpy(&m, &mb, sizeof m);
  e = (e - 4503599627370496.0) - 1023.0; /* the biased exponent, exactly, minus the bias */
  if (m > 1.4142135623730951) {
    m = 0.5 * m;
    e = e + 1.0;
  }
  double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double p = 1.0 / 23;
  p = 1.0 / 21 + s2 * p;
  p = 1.0 / 19 + s2 * p;
  p = 1.0 / 17 + s2 * p;
  p = 1.0 / 15 + s2 * p;
  p = 1.0 / 13 + s2 * p;
  p = 1.0 / 11 + s2 * p;
  p = 1.0 / 9 + s2 * p;
  p = 1.0 / 7 + s2 * p;
  p = 1.0 / 5 + s2 * p;
  p = 1.0 / 3 + s2 * p;
  double t = 2.0 * s;
  return e * SENSIM_LN2_HI + (e * SENSIM_LN2_LO + (t + t * (s2 * p)));
}

/* ln k! for an integer k >= SENSIM_STIRLING_MIN: Stirling's series for
 * ln Gamma(x), x = k + 1, to the x^-9 term (A&S 6.1.41; the next term,
 * 691 / (360360 x^11), is under 1.1e-16 for x >= 16). Smaller k take a
 * table of exact values (filters/poisson_ctr.c). */
#define SENSIM_STIRLING_MIN 15.0
static inline double sensim__ln_factorial_big(double k) {
  double x = k + 1.0, r = 1.0 / x, r2 = r * r;
  double c = 1.0 / 1188;
  c = 1.0 / 1680 - r2 * c;
  c = 1.0 / 1260 - r2 * c;
  c = 1.0 / 360 - r2 * c;
  c = 1.0 / 12 - r2 * c;
  return ((x - 0.5) * sensim__ln(x) - x) + (0.91893853320467274178 + r * c);
}

/* PTRS's quick path alone (mu >= SENSIM_POISSON_PTRS_MIN): stores the count
 * and returns 1 when the first attempt, from words w0 and w1, is accepted
 * inside the squeeze (about 89 % of draws), else returns 0 and the caller
 * takes sensim__poisson_ctr, which repeats this attempt first. Inline so
 * loops over values keep it in registers; SIMD copies of it must do the
 * same double operations in the same order. */
static inline int sensim__ptrs_quick(double mu, uint32_t w0, uint32_t w1, double *k) {
  double U = ((double)w0 + 0.5) * (1.0 / 4294967296.0) - 0.5, V = ((double)w1 + 0.5) * (1.0 / 4294967296.0);
  double b = 0.931 + 2.53 * sqrt(mu), a = -0.059 + 0.02483 * b, v_r = 0.9277 - 3.6224 / (b - 2.0);
  double us = 0.5 - fabs(U);
  *k = floor((2.0 * a / us + b) * U + mu + 0.43);
  return us >= 0.07 && V <= v_r;
}

#endif
