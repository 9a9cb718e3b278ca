/* core/simd_trig.h: single-precision sine and cosine on four (SSE2) or
 * eight (AVX2) lanes without library calls, for the kernels that need many
 * of them at once (Box-Muller in core/rng.c, spherical to Cartesian in
 * filters/lidar_filters.c).
 *
 * The caller reduces its angle to th + q pi/2 with |th| <= pi/4 (each
 * kernel does this its own way: from a fraction of a turn, or from
 * radians). Then sin th and cos th come from their Taylor series to th^9
 * and th^8 (remainders of the alternating series below 2e-9 and 3e-8 on
 * |th| <= pi/4), and the quadrant q swaps and negates them. The scalar
 * code of each kernel performs the same float operations in the same
 * order, so all paths give the same bits. */
#ifndef SENSIM_CORE_SIMD_TRIG_H
#define SENSIM_CORE_SIMD_TRIG_H

#include "core/cpu.h"
#if defined(__SSE2__)
#include <emmintrin.h>

static inline __m128 sensim__blend4(__m128 mask, __m128 a, __m128 b) { /* mask ? a : b */
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* sin and cos of th + q pi/2, |th| <= pi/4, four lanes. */
static inline void sensim__sincos_quadrant4(__m128 th, __m128i q, __m128 *sn, __m128 *cs) {
  const __m128 one = _mm_set1_ps(1.0f);
  __m128 t2 = _mm_mul_ps(th, th);
  __m128 ps = _mm_add_ps(_mm_set1_ps(-1.0f / 5040), _mm_mul_ps(t2, _mm_set1_ps(1.0f / 362880)));
  ps = _mm_add_ps(_mm_set1_ps(1.0f / 120), _mm_mul_ps(t2, ps));
  ps = _mm_add_ps(_mm_set1_ps(-1.0f / 6), _mm_mul_ps(t2, ps));
  __m128 s = _mm_mul_ps(th, _mm_add_ps(one, _mm_mul_ps(t2, ps)));
  __m128 pc = _mm_add_ps(_mm_set1_ps(-1.0f / 720), _mm_mul_ps(t2, _mm_set1_ps(1.0f / 40320)));
  pc = _mm_add_ps(_mm_set1_ps(1.0f / 24), _mm_mul_ps(t2, pc));
  pc = _mm_add_ps(_mm_set1_ps(-0.5f), _mm_mul_ps(t2, pc));
  __m128 c = _mm_add_ps(one, _mm_mul_ps(t2, pc));
  const __m128i one_i = _mm_set1_epi32(1), two_i = _mm_set1_epi32(2);
  __m128 swap = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(q, one_i), one_i));
  __m128 a = sensim__blend4(swap, c, s), b = sensim__blend4(swap, s, c);
  *sn = _mm_xor_ps(a, _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(q, two_i), 30)));
  *cs = _mm_xor_ps(b, _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(_mm_add_epi32(q, one_i), two_i), 30)));
}
#endif

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* mask ? a : b for masks of whole lanes (compare results): one blend
 * instruction, the same bits as and / andnot / or. */
__attribute__((target("avx2"))) static inline __m256 sensim__blend8(__m256 mask, __m256 a, __m256 b) {
  return _mm256_blendv_ps(b, a, mask);
}

/* sin and cos of th + q pi/2, |th| <= pi/4, eight lanes. */
__attribute__((target("avx2"))) static inline void sensim__sincos_quadrant8(__m256 th, __m256i q, __m256 *sn,
                                                                             __m256 *cs) {
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 t2 = _mm256_mul_ps(th, th);
  __m256 ps = _mm256_add_ps(_mm256_set1_ps(-1.0f / 5040), _mm256_mul_ps(t2, _mm256_set1_ps(1.0f / 362880)));
  ps = _mm256_add_ps(_mm256_set1_ps(1.0f / 120), _mm256_mul_ps(t2, ps));
  ps = _mm256_add_ps(_mm256_set1_ps(-1.0f / 6), _mm256_mul_ps(t2, ps));
  __m256 s = _mm256_mul_ps(th, _mm256_add_ps(one, _mm256_mul_ps(t2, ps)));
  __m256 pc = _mm256_add_ps(_mm256_set1_ps(-1.0f / 720), _mm256_mul_ps(t2, _mm256_set1_ps(1.0f / 40320)));
  pc = _mm256_add_ps(_mm256_set1_ps(1.0f / 24), _mm256_mul_ps(t2, pc));
  pc = _mm256_add_ps(_mm256_set1_ps(-0.5f), _mm256_mul_ps(t2, pc));
  __m256 c = _mm256_add_ps(one, _mm256_mul_ps(t2, pc));
  const __m256i one_i = _mm256_set1_epi32(1), two_i = _mm256_set1_epi32(2);
  __m256 swap = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(q, one_i), one_i));
  __m256 a = sensim__blend8(swap, c, s), b = sensim__blend8(swap, s, c);
  *sn = _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(q, two_i), 30)));
  const __m256i qc = _mm256_and_si256(_mm256_add_epi32(q, one_i), two_i);
  *cs = _mm256_xor_ps(b, _mm256_castsi256_ps(_mm256_slli_epi32(qc, 30)));
}

/* Box-Muller on eight lanes from two words each (Box & Muller 1958):
 * u1 = ((w0 >> 8) + 1) / 2^24 in (0, 1], u2 = (w1 >> 8) / 2^24; r =
 * sqrt(-2 ln u1) with ln from its atanh series, the angle 2 pi u2 reduced
 * to th + q pi/2 from the fraction of a turn. *a = r cos, *b = r sin: the
 * steps of the scalar sensim__normal_pair_fast (core/rng.c), the same bits.
 * Shared by sensim_rng_normal2f_n and the camera noise's read noise. */
__attribute__((target("avx2"), always_inline)) static inline void sensim__box_muller8(__m256i w0, __m256i w1,
                                                                                     __m256 *a, __m256 *b) {
  const __m256 scale = _mm256_set1_ps(1.0f / 16777216.0f), one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
  const __m256 zero = _mm256_setzero_ps();
  __m256i k1 = _mm256_add_epi32(_mm256_srli_epi32(w0, 8), _mm256_set1_epi32(1));
  __m256 u1 = _mm256_mul_ps(_mm256_cvtepi32_ps(k1), scale);
  __m256 u2 = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(w1, 8)), scale);
  __m256i bits = _mm256_castps_si256(u1);
  __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127));
  __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007FFFFF)),
                                                 _mm256_set1_epi32(0x3F800000)));
  __m256 big = _mm256_cmp_ps(m, _mm256_set1_ps(1.41421356f), _CMP_GT_OQ);
  m = sensim__blend8(big, _mm256_mul_ps(half, m), m);
  e = _mm256_sub_epi32(e, _mm256_castps_si256(big));
  __m256 s = _mm256_div_ps(_mm256_sub_ps(m, one), _mm256_add_ps(m, one)), s2 = _mm256_mul_ps(s, s);
  __m256 p = _mm256_add_ps(_mm256_set1_ps(1.0f / 7), _mm256_mul_ps(s2, _mm256_set1_ps(1.0f / 9)));
  p = _mm256_add_ps(_mm256_set1_ps(1.0f / 5), _mm256_mul_ps(s2, p));
  p = _mm256_add_ps(_mm256_set1_ps(1.0f / 3), _mm256_mul_ps(s2, p));
  p = _mm256_add_ps(one, _mm256_mul_ps(s2, p));
  __m256 ln = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(e), _mm256_set1_ps(0.69314718f)),
                            _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(2.0f), s), p));
  __m256 m2 = _mm256_mul_ps(_mm256_set1_ps(-2.0f), ln);
  __m256 r = _mm256_sqrt_ps(sensim__blend8(_mm256_cmp_ps(m2, zero, _CMP_GT_OQ), m2, zero));
  __m256 k = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(_mm256_add_ps(u2, half)));
  __m256 y = _mm256_mul_ps(_mm256_set1_ps(4.0f), _mm256_sub_ps(u2, k));
  __m256 hs = sensim__blend8(_mm256_cmp_ps(y, zero, _CMP_GE_OQ), half, _mm256_set1_ps(-0.5f));
  __m256i q = _mm256_cvttps_epi32(_mm256_add_ps(y, hs));
  __m256 th = _mm256_mul_ps(_mm256_sub_ps(y, _mm256_cvtepi32_ps(q)), _mm256_set1_ps(1.57079633f));
  __m256 sn, cs;
  sensim__sincos_quadrant8(th, q, &sn, &cs);
  *a = _mm256_mul_ps(r, cs);
  *b = _mm256_mul_ps(r, sn);
}
#endif

#endif
