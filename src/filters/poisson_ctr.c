/* filters/poisson_ctr.c: exact Poisson variates from position-addressed
 * words (filters/poisson_ctr.h).
 *
 * mu < 10: inversion, a sequential search of the cumulative distribution
 * with one 53-bit uniform (L. Devroye, "Non-Uniform Random Variate
 * Generation", Springer 1986, X.3.2).
 * mu >= 10: PTRS, W. Hoermann, "The transformed rejection method for
 * generating Poisson random variables", Insurance: Mathematics and
 * Economics 12(1), 1993, 39-45, with his constants: each attempt takes two
 * uniforms U, V; the first attempt is accepted inside the squeeze with
 * probability about 0.89 at the means of a camera frame, and 1.1 to 1.2
 * attempts are needed on average. Both are exact samplers: the only
 * departure from Poisson(mu) is the finite resolution of the uniforms
 * (2^-32 for PTRS's, as GSL's own generators give) and the rounding of
 * double arithmetic in the acceptance test, whose logarithms and
 * ln k! (filters/poisson_ctr.h) are within a few ulps (a test in
 * tests/filters/poisson_tests.c checks them against libm). */
#include <math.h>
#include "core/rng_counter.h"
#include "filters/poisson_ctr.h"

/* ln k! for k = 0 .. 15, from the exact integers k!. */
static const double kLnFactorial[16] = {
    0, 0, 0.69314718055994529, 1.791759469228055, 3.1780538303479458, 4.7874917427820458,
    6.5792512120101012, 8.5251613610654147, 10.604602902745251, 12.801827480081469, 15.104412573075516,
    17.502307845873887, 19.987214495661885, 22.552163853123425, 25.19122118273868, 27.89927138384089};

static double ln_factorial(double k) {
  return k < SENSIM_STIRLING_MIN ? kLnFactorial[(int)k] : sensim__ln_factorial_big(k);
}

static double inversion(double mu, uint32_t w0, uint32_t w1) {
  /* The cap only guards against the cumulative sum stalling a rounding
   * error below u (P(k > 200) < 1e-200 for mu < 10). */
  double u = sensim__u01_53(w0, w1), p = exp(-mu), F = p;
  int k = 0;
  while (u > F && k < 200) {
    k++;
    p *= mu / k;
    F += p;
  }
  return k;
}

double sensim__poisson_ctr(const sensim_rng *stream, uint32_t block, uint32_t w0, uint32_t w1, double mu) {
  if (mu < SENSIM_POISSON_PTRS_MIN) return inversion(mu, w0, w1);
  double b = 0.931 + 2.53 * sqrt(mu), a = -0.059 + 0.02483 * b;
  double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), v_r = 0.9277 - 3.6224 / (b - 2.0);
  double log_mu = sensim__ln(mu);
  uint32_t w[4] = {w0, w1, 0, 0};
  for (uint32_t attempt = 0;; attempt++) {
    if (attempt > 0 && (attempt & 1u)) /* attempts 2r - 1 and 2r: block of retry stream r */
      sensim__philox_at1(stream, block, ((attempt + 1u) / 2u & 0x7FFFu) << 16, w);
    uint32_t x0 = w[(attempt & 1u) ? 0 : (attempt ? 2 : 0)], x1 = w[(attempt & 1u) ? 1 : (attempt ? 3 : 1)];
    double U = ((double)x0 + 0.5) * (1.0 / 4294967296.0) - 0.5, V = ((double)x1 + 0.5) * (1.0 / 4294967296.0);
    double us = 0.5 - fabs(U);
    double k = floor((2.0 * a / us + b) * U + mu + 0.43);
    if (us >= 0.07 && V <= v_r) return k; /* inside the squeeze */
    if (k < 0 || (us < 0.013 && V > us)) continue;
    if (sensim__ln(V * inv_alpha / (a / (us * us) + b)) <= -mu + k * log_mu - ln_factorial(k)) return k;
  }
}
