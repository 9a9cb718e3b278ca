/* filters/emva_kernel.c: the per-value arithmetic of "noise_emva1288"
 * (filters/emva_kernel.h).
 *
 * Each value takes the four words of its own Philox block: words 0 and 1
 * are the uniforms of the Poisson draw's first attempt
 * (filters/poisson_ctr.h), words 2 and 3 the Box-Muller pair whose first
 * value is the read noise (core/rng_counter.h). The AVX2 path (emva_avx2)
 * runs PTRS's squeeze on eight values at once, the full test and the next
 * two attempts on the values it leaves, packed four to a vector, and hands
 * the rest (a mean under 10 e-, a small count, three rejections: about
 * 2 % at camera means) to the scalar path, which recomputes them whole.
 * All do the same IEEE operations in the same order (ISO C: no
 * contraction; floor, sqrt and division are exact-rounded everywhere), so
 * the bits do not depend on the path. */
#include <math.h>
#include <string.h>
#include "core/cpu.h"
#include "core/rng_counter.h"
#include "core/simd_trig.h"
#include "filters/emva_kernel.h"
#include "filters/poisson_ctr.h"

static float emva_one(const sensim_emva_kernel *k, uint32_t block, const uint32_t w[4], float pa, float pb, float v) {
  double mu_e = v > 0.0f ? (double)v : 0.0; /* NaN collects nothing */
  double gain = 1.0 + k->prnu * (double)pa;
  if (gain < 0.0) gain = 0.0;
  double offset = k->dsnu * (double)pb;
  double mu = mu_e * gain + k->mu_d, q;
  if (!k->shot_noise) q = mu;
  else if (mu >= k->sure_sat) q = k->full_well;
  else if (!(mu >= SENSIM_POISSON_PTRS_MIN && sensim__ptrs_quick(mu, w[0], w[1], &q)))
    q = sensim__poisson_ctr(k->stream, block, w[0], w[1], mu);
  if (q > k->full_well) q = k->full_well;
  float g = 0.0f, unused;
  if (k->read_noise > 0) sensim__normal_pair_fast(w[2], w[3], &g, &unused);
  return (float)(q + offset + k->read_noise * (double)g);
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* The first value of sensim__normal_pair_fast on eight lanes (the steps of
 * normal_pairs8 in core/rng.c). */
__attribute__((target("avx2"), always_inline)) static inline __m256 normal8(__m256i w0, __m256i w1) {
  __m256 a, b;
  sensim__box_muller8(w0, w1, &a, &b);
  return a;
}

/* sensim__ln on four lanes, the same operations. */
__attribute__((target("avx2"), always_inline)) static inline __m256d ln4(__m256d x) {
  __m256i bits = _mm256_castpd_si256(x);
  __m256d e = _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(bits, 52), _mm256_set1_epi64x(0x4330000000000000ll)));
  __m256d m = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFll)),
                                                  _mm256_set1_epi64x(0x3FF0000000000000ll)));
  e = _mm256_sub_pd(_mm256_sub_pd(e, _mm256_set1_pd(4503599627370496.0)), _mm256_set1_pd(1023.0));
  __m256d big = _mm256_cmp_pd(m, _mm256_set1_pd(1.4142135623730951), _CMP_GT_OQ);
  m = _mm256_blendv_pd(m, _mm256_mul_pd(_mm256_set1_pd(0.5), m), big);
  e = _mm256_blendv_pd(e, _mm256_add_pd(e, _mm256_set1_pd(1.0)), big);
  const __m256d one = _mm256_set1_pd(1.0);
  __m256d s = _mm256_div_pd(_mm256_sub_pd(m, one), _mm256_add_pd(m, one)), s2 = _mm256_mul_pd(s, s);
  __m256d p = _mm256_set1_pd(1.0 / 23);
  static const double c[] = {1.0 / 21, 1.0 / 19, 1.0 / 17, 1.0 / 15, 1.0 / 13, 1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3};
  for (int i = 0; i < 10; i++) p = _mm256_add_pd(_mm256_set1_pd(c[i]), _mm256_mul_pd(s2, p));
  __m256d t = _mm256_add_pd(s, s); /* 2 s: exact either way */
  __m256d lm = _mm256_add_pd(t, _mm256_mul_pd(t, _mm256_mul_pd(s2, p)));
  return _mm256_add_pd(_mm256_mul_pd(e, _mm256_set1_pd(SENSIM_LN2_HI)),
                       _mm256_add_pd(_mm256_mul_pd(e, _mm256_set1_pd(SENSIM_LN2_LO)), lm));
}

/* sensim__ln_factorial_big on four lanes. */
__attribute__((target("avx2"), always_inline)) static inline __m256d ln_factorial4(__m256d k) {
  __m256d x = _mm256_add_pd(k, _mm256_set1_pd(1.0)), r = _mm256_div_pd(_mm256_set1_pd(1.0), x), r2 = _mm256_mul_pd(r, r);
  __m256d c = _mm256_set1_pd(1.0 / 1188);
  c = _mm256_sub_pd(_mm256_set1_pd(1.0 / 1680), _mm256_mul_pd(r2, c));
  c = _mm256_sub_pd(_mm256_set1_pd(1.0 / 1260), _mm256_mul_pd(r2, c));
  c = _mm256_sub_pd(_mm256_set1_pd(1.0 / 360), _mm256_mul_pd(r2, c));
  c = _mm256_sub_pd(_mm256_set1_pd(1.0 / 12), _mm256_mul_pd(r2, c));
  __m256d main = _mm256_sub_pd(_mm256_mul_pd(_mm256_sub_pd(x, _mm256_set1_pd(0.5)), ln4(x)), x);
  return _mm256_add_pd(main, _mm256_add_pd(_mm256_set1_pd(0.91893853320467274178), _mm256_mul_pd(r, c)));
}

/* (double)w for four unsigned words: exact. */
__attribute__((target("avx2"), always_inline)) static inline __m256d u32_to_pd(__m128i w) {
  __m128i s = _mm_xor_si128(w, _mm_set1_epi32((int)0x80000000u));
  return _mm256_add_pd(_mm256_cvtepi32_pd(s), _mm256_set1_pd(2147483648.0));
}

/* One PTRS attempt on four lanes of means mu >= 10 with words w0, w1 (the
 * operations of sensim__ptrs_quick and of the test in
 * sensim__poisson_ctr). *k gets the candidate; the return has bit l set in
 * *accept when lane l accepts, in *scalar when the lane must take the
 * scalar path (the candidate is under SENSIM_STIRLING_MIN and not rejected
 * outright). The rest are rejected: the next attempt decides. `full` 0
 * stops after the squeeze: rejected lanes are then undecided. */
__attribute__((target("avx2"), always_inline)) static inline void attempt4(__m256d mu, __m128i w0, __m128i w1,
                                                                            int full, __m256d *k, int *accept,
                                                                            int *scalar) {
  const __m256d half = _mm256_set1_pd(0.5), inv32 = _mm256_set1_pd(1.0 / 4294967296.0);
  __m256d U = _mm256_sub_pd(_mm256_mul_pd(_mm256_add_pd(u32_to_pd(w0), half), inv32), half);
  __m256d V = _mm256_mul_pd(_mm256_add_pd(u32_to_pd(w1), half), inv32);
  __m256d b = _mm256_add_pd(_mm256_set1_pd(0.931), _mm256_mul_pd(_mm256_set1_pd(2.53), _mm256_sqrt_pd(mu)));
  __m256d a = _mm256_add_pd(_mm256_set1_pd(-0.059), _mm256_mul_pd(_mm256_set1_pd(0.02483), b));
  __m256d v_r = _mm256_sub_pd(_mm256_set1_pd(0.9277),
                              _mm256_div_pd(_mm256_set1_pd(3.6224), _mm256_sub_pd(b, _mm256_set1_pd(2.0))));
  __m256d us = _mm256_sub_pd(half, _mm256_andnot_pd(_mm256_set1_pd(-0.0), U));
  __m256d t = _mm256_add_pd(_mm256_div_pd(_mm256_mul_pd(_mm256_set1_pd(2.0), a), us), b);
  __m256d kk = _mm256_floor_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(t, U), mu), _mm256_set1_pd(0.43)));
  *k = kk;
  __m256d ok = _mm256_and_pd(_mm256_cmp_pd(us, _mm256_set1_pd(0.07), _CMP_GE_OQ), _mm256_cmp_pd(V, v_r, _CMP_LE_OQ));
  *accept = _mm256_movemask_pd(ok);
  *scalar = 0;
  if (!full || *accept == 0xF) return;
  __m256d inv_alpha = _mm256_add_pd(_mm256_set1_pd(1.1239),
                                    _mm256_div_pd(_mm256_set1_pd(1.1328), _mm256_sub_pd(b, _mm256_set1_pd(3.4))));
  __m256d kc = _mm256_max_pd(kk, _mm256_set1_pd(SENSIM_STIRLING_MIN)); /* keeps the series in its range */
  __m256d den = _mm256_add_pd(_mm256_div_pd(a, _mm256_mul_pd(us, us)), b);
  __m256d lhs = ln4(_mm256_div_pd(_mm256_mul_pd(V, inv_alpha), den));
  __m256d rhs = _mm256_sub_pd(_mm256_add_pd(_mm256_sub_pd(_mm256_setzero_pd(), mu), _mm256_mul_pd(kk, ln4(mu))),
                              ln_factorial4(kc));
  __m256d out = _mm256_or_pd(_mm256_cmp_pd(kk, _mm256_setzero_pd(), _CMP_LT_OQ),
                             _mm256_and_pd(_mm256_cmp_pd(us, _mm256_set1_pd(0.013), _CMP_LT_OQ),
                                           _mm256_cmp_pd(V, us, _CMP_GT_OQ)));
  __m256d small = _mm256_andnot_pd(out, _mm256_cmp_pd(kk, _mm256_set1_pd(SENSIM_STIRLING_MIN), _CMP_LT_OQ));
  __m256d pass = _mm256_andnot_pd(_mm256_or_pd(out, small), _mm256_cmp_pd(lhs, rhs, _CMP_LE_OQ));
  *accept |= _mm256_movemask_pd(pass);
  *scalar = _mm256_movemask_pd(small) & ~*accept;
}

/* A chunk's values on the AVX2 path, in three passes so that each does
 * full vectors of work:
 *   1. every value: mean, pattern, read noise, and PTRS's squeeze on the
 *      first attempt (about 76 % of values end here);
 *   2. the rest, packed: the full test of the first attempt;
 *   3. those it rejected: attempts 2 and 3 from their first retry block.
 * Whatever is still open (a mean under 10 e- or non-finite, a candidate
 * under SENSIM_STIRLING_MIN, three rejections) is recomputed whole by
 * emva_one. Returns how many values it covered (n - n % 8); v keeps the
 * input of the values left to `redo`. */
__attribute__((target("avx2"))) static size_t emva_avx2(const sensim_emva_kernel *k, const uint32_t *blocks,
                                                       const uint32_t *w, size_t n, const float *pa, const float *pb,
                                                       float *v, uint8_t *redo, size_t *nredo) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256d prnu = _mm256_set1_pd(k->prnu), dsnu = _mm256_set1_pd(k->dsnu), one = _mm256_set1_pd(1.0);
  const __m256d fw = _mm256_set1_pd(k->full_well), rn = _mm256_set1_pd(k->read_noise);
  const __m256d mu_d = _mm256_set1_pd(k->mu_d), sure_sat = _mm256_set1_pd(k->sure_sat);
  const __m256d ptrs_min = _mm256_set1_pd(SENSIM_POISSON_PTRS_MIN);
  double mu[SENSIM_EMVA_CHUNK], rest[SENSIM_EMVA_CHUNK]; /* rest: the offset, e- */
  float gs[SENSIM_EMVA_CHUNK];                             /* the read noise's N(0, 1) */
  uint8_t open[SENSIM_EMVA_CHUNK];
  size_t i = 0, nr = 0, no = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_max_ps(_mm256_loadu_ps(v + i), zero); /* NaN and -0 -> +0, as v > 0 ? v : 0 */
    __m256 A = pa ? _mm256_loadu_ps(pa + i) : zero, B = pb ? _mm256_loadu_ps(pb + i) : zero;
    __m256i w0 = _mm256_loadu_si256((const __m256i *)(w + i));
    __m256i w1 = _mm256_loadu_si256((const __m256i *)(w + SENSIM_EMVA_CHUNK + i));
    __m256 g = zero;
    if (k->read_noise > 0)
      g = normal8(_mm256_loadu_si256((const __m256i *)(w + 2 * SENSIM_EMVA_CHUNK + i)),
                  _mm256_loadu_si256((const __m256i *)(w + 3 * SENSIM_EMVA_CHUNK + i)));
    __m128 res[2];
    int settled = 0;
    for (int h = 0; h < 2; h++) {
      __m128 xh = h ? _mm256_extractf128_ps(x, 1) : _mm256_castps256_ps128(x);
      __m128 Ah = h ? _mm256_extractf128_ps(A, 1) : _mm256_castps256_ps128(A);
      __m128 Bh = h ? _mm256_extractf128_ps(B, 1) : _mm256_castps256_ps128(B);
      __m128 gh = h ? _mm256_extractf128_ps(g, 1) : _mm256_castps256_ps128(g);
      __m128i w0h = h ? _mm256_extracti128_si256(w0, 1) : _mm256_castsi256_si128(w0);
      __m128i w1h = h ? _mm256_extracti128_si256(w1, 1) : _mm256_castsi256_si128(w1);
      __m256d gain = _mm256_max_pd(_mm256_add_pd(one, _mm256_mul_pd(prnu, _mm256_cvtps_pd(Ah))), _mm256_setzero_pd());
      __m256d m = _mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(xh), gain), mu_d);
      __m256d r = _mm256_mul_pd(dsnu, _mm256_cvtps_pd(Bh)); /* offset; read noise added below */
      __m256d kk;
      int acc, sc;
      attempt4(m, w0h, w1h, 0, &kk, &acc, &sc);
      __m256d sat = _mm256_cmp_pd(m, sure_sat, _CMP_GE_OQ);
      __m256d usable = _mm256_cmp_pd(m, ptrs_min, _CMP_GE_OQ);
      int msat = _mm256_movemask_pd(sat), mptrs = _mm256_movemask_pd(usable);
      __m256d q = _mm256_blendv_pd(kk, fw, sat);
      q = _mm256_blendv_pd(q, fw, _mm256_cmp_pd(q, fw, _CMP_GT_OQ));
      __m256d gn = _mm256_mul_pd(rn, _mm256_cvtps_pd(gh));
      res[h] = _mm256_cvtpd_ps(_mm256_add_pd(_mm256_add_pd(q, r), gn));
      _mm256_storeu_pd(mu + i + 4 * h, m);
      _mm256_storeu_pd(rest + i + 4 * h, r);
      int done = msat | (acc & mptrs);
      settled |= done << (4 * h);
      /* Without branches (which way a lane goes is random): every lane is
       * written to both lists, and only the counts move. A lane not yet
       * listed keeps each count below the list's size. */
      for (int l = 0; l < 4; l++) {
        size_t j = i + 4 * (size_t)h + (size_t)l;
        unsigned left = ~(unsigned)done >> l & 1u, ptrs = (unsigned)mptrs >> l & 1u;
        open[no] = (uint8_t)j;
        no += left & ptrs;
        redo[nr] = (uint8_t)j;
        nr += left & (ptrs ^ 1u);
      }
    }
    _mm256_storeu_ps(gs + i, g);
    __m256 out = _mm256_set_m128(res[1], res[0]);
    __m256 keep = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32(settled), _mm256_set_epi32(128, 64, 32, 16, 8, 4, 2, 1)),
        _mm256_setzero_si256()));
    _mm256_storeu_ps(v + i, _mm256_blendv_ps(out, _mm256_loadu_ps(v + i), keep));
  }
  /* Passes 2 and 3 on packed lanes; they finish a value as pass 1 does,
   * (q + offset) + read_noise g, in the same double operations. */
  uint32_t cb[SENSIM_EMVA_CHUNK], cw[4 * SENSIM_EMVA_CHUNK];
  uint8_t retry[SENSIM_EMVA_CHUNK];
  size_t nretry = 0;
  for (int pass = 0; pass < 3; pass++) {
    const uint8_t *list = pass == 0 ? open : retry;
    size_t nl = pass == 0 ? no : nretry;
    if (nl == 0) break;
    uint32_t w0c[SENSIM_EMVA_CHUNK + 4], w1c[SENSIM_EMVA_CHUNK + 4];
    double muc[SENSIM_EMVA_CHUNK + 4];
    if (pass == 1) { /* the first retry block of each: attempts 1 (words 0, 1) and 2 (words 2, 3) */
      for (size_t c = 0; c < nl; c++) cb[c] = blocks[list[c]];
      size_t nl8 = (nl + 7) & ~(size_t)7; /* whole AVX2 batches: pad with the last block */
      for (size_t c = nl; c < nl8; c++) cb[c] = cb[nl - 1];
      sensim_rng rs = *k->stream;
      rs.ctr[1] += 1u << 16;
      sensim__philox_at(&rs, cb, nl8, cw, SENSIM_EMVA_CHUNK);
    }
    for (size_t c = 0; c < nl; c++) {
      size_t j = list[c];
      muc[c] = mu[j];
      if (pass == 0) w0c[c] = w[j], w1c[c] = w[SENSIM_EMVA_CHUNK + j];
      else if (pass == 1) w0c[c] = cw[c], w1c[c] = cw[SENSIM_EMVA_CHUNK + c];
      else w0c[c] = cw[2 * SENSIM_EMVA_CHUNK + c], w1c[c] = cw[3 * SENSIM_EMVA_CHUNK + c];
    }
    for (size_t c = nl; c < ((nl + 3) & ~(size_t)3); c++) muc[c] = 100.0, w0c[c] = w1c[c] = 0; /* padding */
    size_t next = 0;
    uint8_t nlist[SENSIM_EMVA_CHUNK];
    for (size_t c = 0; c < nl; c += 4) {
      __m256d kk;
      int acc, sc;
      attempt4(_mm256_loadu_pd(muc + c), _mm_loadu_si128((const __m128i *)(w0c + c)),
               _mm_loadu_si128((const __m128i *)(w1c + c)), 1, &kk, &acc, &sc);
      double kv[4];
      _mm256_storeu_pd(kv, kk);
      for (int l = 0; l < 4 && c + (size_t)l < nl; l++) { /* branch-free as in pass 1 */
        size_t j = list[c + (size_t)l];
        unsigned a = (unsigned)acc >> l & 1u, s_ = ((unsigned)sc >> l & 1u) | (pass == 2);
        double q = kv[l] > k->full_well ? k->full_well : kv[l];
        float val = (float)(q + rest[j] + k->read_noise * (double)gs[j]);
        v[j] = a ? val : v[j];
        redo[nr] = (uint8_t)j;
        nr += (a ^ 1u) & s_;
        nlist[next] = (uint8_t)j;
        next += (a ^ 1u) & (s_ ^ 1u);
      }
    }
    if (pass == 1) { /* attempt 2 takes the same packed lanes that attempt 1 rejected, in the same block */
      /* keep cw: re-pack the survivors' words in place */
      uint32_t tw[2 * SENSIM_EMVA_CHUNK];
      size_t t = 0;
      for (size_t c = 0; c < nl && t < next; c++)
        if (list[c] == nlist[t]) {
          tw[t] = cw[2 * SENSIM_EMVA_CHUNK + c];
          tw[SENSIM_EMVA_CHUNK + t] = cw[3 * SENSIM_EMVA_CHUNK + c];
          t++;
        }
      for (size_t c = 0; c < next; c++) {
        cw[2 * SENSIM_EMVA_CHUNK + c] = tw[c];
        cw[3 * SENSIM_EMVA_CHUNK + c] = tw[SENSIM_EMVA_CHUNK + c];
      }
    }
    memcpy(retry, nlist, next);
    nretry = next;
  }
  *nredo = nr;
  return i;
}
#endif

void sensim__emva_values(const sensim_emva_kernel *k, const uint32_t *blocks, size_t n, const float *pa,
                         const float *pb, float *v) {
  uint32_t w[4 * SENSIM_EMVA_CHUNK];
  sensim__philox_at(k->stream, blocks, n, w, SENSIM_EMVA_CHUNK);
  size_t i = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (k->shot_noise && n >= 8 && sensim__cpu_has_avx2()) {
    uint8_t redo[SENSIM_EMVA_CHUNK];
    size_t nr = 0;
    i = emva_avx2(k, blocks, w, n, pa, pb, v, redo, &nr);
    for (size_t r = 0; r < nr; r++) {
      size_t j = redo[r];
      const uint32_t wj[4] = {w[j], w[SENSIM_EMVA_CHUNK + j], w[2 * SENSIM_EMVA_CHUNK + j], w[3 * SENSIM_EMVA_CHUNK + j]};
      v[j] = emva_one(k, blocks[j], wj, pa ? pa[j] : 0.0f, pb ? pb[j] : 0.0f, v[j]);
    }
  }
#endif
  for (; i < n; i++) {
    const uint32_t wi[4] = {w[i], w[SENSIM_EMVA_CHUNK + i], w[2 * SENSIM_EMVA_CHUNK + i], w[3 * SENSIM_EMVA_CHUNK + i]};
    v[i] = emva_one(k, blocks[i], wi, pa ? pa[i] : 0.0f, pb ? pb[i] : 0.0f, v[i]);
  }
}
