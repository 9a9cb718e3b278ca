/* core/rng.c: Philox4x32-10 streams (Salmon et al. 2011, "Parallel random
 * numbers: as easy as 1, 2, 3", SC'11) through Random123, and a GSL adapter
 * so GSL's distributions can draw from a stream. */
#include <Random123/philox.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "core/cpu.h"
#include "core/simd_trig.h"
#include "core/rng_gsl.h"
#include "core/rng_counter.h"
#include "sensim/rng.h"

void sensim_rng_init(sensim_rng *r, uint64_t seed, uint32_t sensor, uint64_t frame,
                     uint32_t element) {
  r->key[0] = (uint32_t)seed;
  r->key[1] = (uint32_t)(seed >> 32);
  /* ctr[0] counts blocks within the stream; the frame index takes 32 bits
   * and its high bits are folded into the sensor word, so streams stay
   * distinct for 2^32 frames of 65536 sensors. */
  r->ctr[0] = 0;
  r->ctr[1] = element;
  r->ctr[2] = (uint32_t)frame;
  r->ctr[3] = (sensor & 0xFFFFu) | ((uint32_t)(frame >> 32) << 16);
  r->used = 4;
}

static void refill(sensim_rng *r) {
  philox4x32_ctr_t c = {{r->ctr[0], r->ctr[1], r->ctr[2], r->ctr[3]}};
  philox4x32_key_t k = {{r->key[0], r->key[1]}};
  philox4x32_ctr_t out = philox4x32(c, k);
  memcpy(r->buf, out.v, sizeof r->buf);
  r->ctr[0]++;
  r->used = 0;
}

uint32_t sensim_rng_u32(sensim_rng *r) {
  if (r->used >= 4) refill(r);
  return r->buf[r->used++];
}

double sensim_rng_uniform(sensim_rng *r) {
  uint64_t hi = sensim_rng_u32(r) >> 5; /* 27 bits */
  uint64_t lo = sensim_rng_u32(r) >> 6; /* 26 bits */
  return (double)((hi << 26) | lo) * (1.0 / 9007199254740992.0);
}

/* Box-Muller (Box & Muller 1958); 1 - u keeps the log argument in (0, 1]. */
double sensim_rng_normal(sensim_rng *r) {
  double u1 = 1.0 - sensim_rng_uniform(r);
  double u2 = sensim_rng_uniform(r);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void sensim_rng_normal2(sensim_rng *r, double *a, double *b) {
  double u1 = 1.0 - sensim_rng_uniform(r);
  double u2 = sensim_rng_uniform(r);
  double m = sqrt(-2.0 * log(u1)), ph = 6.283185307179586 * u2;
  *a = m * cos(ph);
  *b = m * sin(ph);
}

void sensim_rng_normal2f(sensim_rng *r, float *a, float *b) {
  /* (w >> 8 + 1) / 2^24 lies in (0, 1], so the log is finite. */
  float u1 = (float)((sensim_rng_u32(r) >> 8) + 1u) * (1.0f / 16777216.0f);
  float u2 = (float)(sensim_rng_u32(r) >> 8) * (1.0f / 16777216.0f);
  float m = sqrtf(-2.0f * logf(u1)), ph = 6.2831853f * u2;
  *a = m * cosf(ph);
  *b = m * sinf(ph);
}

/* ---- batches ---- */

/* Philox4x32-10 on consecutive counters at once: the rounds of Random123's
 * philox4x32 (Salmon et al. 2011, sec. 3.2: each round multiplies words 0
 * and 2 by M0 and M1, xors the high halves with words 1 and 3 and the
 * round key; the key is bumped by the Weyl constants W0, W1 between
 * rounds). Block b has counter word 0 = c0 + b (mod 2^32, as refill
 * increments it); its four words go to out[4b .. 4b + 3]. With SSE2 four
 * blocks share a register (pmuludq makes the 64-bit products of lanes 0, 2
 * and, shifted, 1, 3); the scalar loop is the same arithmetic. */
#define BATCH 8 /* blocks per pass */
static void philox_scalar(const uint32_t key[2], const uint32_t ctr[4], uint32_t c0, int nb, uint32_t *out) {
  for (int l = 0; l < nb; l++) {
    uint32_t x0 = c0 + (uint32_t)l, x1 = ctr[1], x2 = ctr[2], x3 = ctr[3], k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; round++) {
      uint64_t p0 = (uint64_t)PHILOX_M4x32_0 * x0, p1 = (uint64_t)PHILOX_M4x32_1 * x2;
      uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0, y2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1;
      x1 = (uint32_t)p1;
      x3 = (uint32_t)p0;
      x0 = y0;
      x2 = y2;
      k0 += PHILOX_W32_0;
      k1 += PHILOX_W32_1;
    }
    out[4 * l] = x0, out[4 * l + 1] = x1, out[4 * l + 2] = x2, out[4 * l + 3] = x3;
  }
}

#if defined(__SSE2__)
/* High and low 32-bit halves of the lane-wise 32 x 32 -> 64 products a m. */
static inline void mulhilo4(__m128i a, __m128i m, __m128i *hi, __m128i *lo) {
  const __m128i lo_mask = _mm_set_epi32(0, -1, 0, -1);
  __m128i even = _mm_mul_epu32(a, m);                    /* lanes 0, 2 as 64-bit */
  __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), m); /* lanes 1, 3 */
  *lo = _mm_or_si128(_mm_and_si128(even, lo_mask), _mm_slli_epi64(odd, 32));
  *hi = _mm_or_si128(_mm_srli_epi64(even, 32), _mm_andnot_si128(lo_mask, odd));
}

static void philox_blocks(const uint32_t key[2], const uint32_t ctr[4], uint32_t c0, int nb, uint32_t *out) {
  if (nb < BATCH) {
    philox_scalar(key, ctr, c0, nb, out);
    return;
  }
  const __m128i m0 = _mm_set1_epi32((int)PHILOX_M4x32_0), m1 = _mm_set1_epi32((int)PHILOX_M4x32_1);
  __m128i x0[2], x1[2], x2[2], x3[2];
  for (int g = 0; g < 2; g++) {
    uint32_t c = c0 + 4u * (uint32_t)g;
    x0[g] = _mm_set_epi32((int)(c + 3), (int)(c + 2), (int)(c + 1), (int)c);
    x1[g] = _mm_set1_epi32((int)ctr[1]);
    x2[g] = _mm_set1_epi32((int)ctr[2]);
    x3[g] = _mm_set1_epi32((int)ctr[3]);
  }
  uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; round++) {
    const __m128i vk0 = _mm_set1_epi32((int)k0), vk1 = _mm_set1_epi32((int)k1);
    for (int g = 0; g < 2; g++) {
      __m128i h0, l0, h1, l1;
      mulhilo4(x0[g], m0, &h0, &l0);
      mulhilo4(x2[g], m1, &h1, &l1);
      x0[g] = _mm_xor_si128(_mm_xor_si128(h1, x1[g]), vk0);
      x2[g] = _mm_xor_si128(_mm_xor_si128(h0, x3[g]), vk1);
      x1[g] = l1;
      x3[g] = l0;
    }
    k0 += PHILOX_W32_0;
    k1 += PHILOX_W32_1;
  }
  for (int g = 0; g < 2; g++) { /* 4 x 4 transpose: lanes (blocks) to consecutive words */
    __m128i t0 = _mm_unpacklo_epi32(x0[g], x1[g]), t1 = _mm_unpacklo_epi32(x2[g], x3[g]);
    __m128i t2 = _mm_unpackhi_epi32(x0[g], x1[g]), t3 = _mm_unpackhi_epi32(x2[g], x3[g]);
    __m128i *o = (__m128i *)(out + 16 * g);
    _mm_storeu_si128(o, _mm_unpacklo_epi64(t0, t1));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi64(t0, t1));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi64(t2, t3));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi64(t2, t3));
  }
}
#else
#define philox_blocks philox_scalar
#endif
#if defined(SENSIM_HAVE_AVX2_PATHS)
/* The same on eight lanes per register (AVX2, chosen at run time). */
__attribute__((target("avx2"))) static inline void mulhilo8(__m256i a, __m256i m, __m256i *hi, __m256i *lo) {
  __m256i even = _mm256_mul_epu32(a, m);
  __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
  /* 32-bit lane 2k takes the even product's half, lane 2k + 1 the odd one's */
  *lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  *hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

/* 16 blocks. */
__attribute__((target("avx2"))) static void philox16_avx2(const uint32_t key[2], const uint32_t ctr[4], uint32_t c0,
                                                           uint32_t *out) {
  const __m256i m0 = _mm256_set1_epi32((int)PHILOX_M4x32_0), m1 = _mm256_set1_epi32((int)PHILOX_M4x32_1);
  __m256i x0[2], x1[2], x2[2], x3[2];
  for (int g = 0; g < 2; g++) {
    uint32_t c = c0 + 8u * (uint32_t)g;
    x0[g] = _mm256_add_epi32(_mm256_set1_epi32((int)c), _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0));
    x1[g] = _mm256_set1_epi32((int)ctr[1]);
    x2[g] = _mm256_set1_epi32((int)ctr[2]);
    x3[g] = _mm256_set1_epi32((int)ctr[3]);
  }
  uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; round++) {
    const __m256i vk0 = _mm256_set1_epi32((int)k0), vk1 = _mm256_set1_epi32((int)k1);
    for (int g = 0; g < 2; g++) {
      __m256i h0, l0, h1, l1;
      mulhilo8(x0[g], m0, &h0, &l0);
      mulhilo8(x2[g], m1, &h1, &l1);
      x0[g] = _mm256_xor_si256(_mm256_xor_si256(h1, x1[g]), vk0);
      x2[g] = _mm256_xor_si256(_mm256_xor_si256(h0, x3[g]), vk1);
      x1[g] = l1;
      x3[g] = l0;
    }
    k0 += PHILOX_W32_0;
    k1 += PHILOX_W32_1;
  }
  for (int g = 0; g < 2; g++) {
    /* Per 128-bit half, the 4 x 4 transpose of the SSE2 path: u_k holds
     * blocks k and k + 4; then the halves are put in block order. */
    __m256i t0 = _mm256_unpacklo_epi32(x0[g], x1[g]), t1 = _mm256_unpacklo_epi32(x2[g], x3[g]);
    __m256i t2 = _mm256_unpackhi_epi32(x0[g], x1[g]), t3 = _mm256_unpackhi_epi32(x2[g], x3[g]);
    __m256i u0 = _mm256_unpacklo_epi64(t0, t1), u1 = _mm256_unpackhi_epi64(t0, t1);
    __m256i u2 = _mm256_unpacklo_epi64(t2, t3), u3 = _mm256_unpackhi_epi64(t2, t3);
    __m256i *o = (__m256i *)(out + 32 * g);
    _mm256_storeu_si256(o, _mm256_permute2x128_si256(u0, u1, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(u2, u3, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(u0, u1, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(u2, u3, 0x31));
  }
}
#endif


#if defined(SENSIM_HAVE_AVX2_PATHS)
/* ng groups of eight blocks whose counter words 0 are blocks[0 .. 8 ng)
 * (any values); word k of block i to out[k stride + i]. */
__attribute__((target("avx2"), always_inline)) static inline void philox_at_groups(const sensim_rng *s,
                                                                                    const uint32_t *blocks,
                                                                                    uint32_t *out, size_t stride,
                                                                                    int ng) {
  const __m256i m0 = _mm256_set1_epi32((int)PHILOX_M4x32_0), m1 = _mm256_set1_epi32((int)PHILOX_M4x32_1);
  __m256i x0[2], x1[2], x2[2], x3[2];
  for (int g = 0; g < ng; g++) {
    x0[g] = _mm256_loadu_si256((const __m256i *)(blocks + 8 * g));
    x1[g] = _mm256_set1_epi32((int)s->ctr[1]);
    x2[g] = _mm256_set1_epi32((int)s->ctr[2]);
    x3[g] = _mm256_set1_epi32((int)s->ctr[3]);
  }
  __m256i vk0 = _mm256_set1_epi32((int)s->key[0]), vk1 = _mm256_set1_epi32((int)s->key[1]);
  const __m256i w0 = _mm256_set1_epi32((int)PHILOX_W32_0), w1 = _mm256_set1_epi32((int)PHILOX_W32_1);
  for (int round = 0; round < 10; round++) {
    for (int g = 0; g < ng; g++) { /* two independent groups keep the multipliers busy */
      __m256i h0, l0, h1, l1;
      mulhilo8(x0[g], m0, &h0, &l0);
      mulhilo8(x2[g], m1, &h1, &l1);
      x0[g] = _mm256_xor_si256(_mm256_xor_si256(h1, x1[g]), vk0);
      x2[g] = _mm256_xor_si256(_mm256_xor_si256(h0, x3[g]), vk1);
      x1[g] = l1;
      x3[g] = l0;
    }
    vk0 = _mm256_add_epi32(vk0, w0); /* the key schedule, mod 2^32 as in Random123 */
    vk1 = _mm256_add_epi32(vk1, w1);
  }
  for (int g = 0; g < ng; g++) {
    _mm256_storeu_si256((__m256i *)(out + 8 * g), x0[g]);
    _mm256_storeu_si256((__m256i *)(out + stride + 8 * g), x1[g]);
    _mm256_storeu_si256((__m256i *)(out + 2 * stride + 8 * g), x2[g]);
    _mm256_storeu_si256((__m256i *)(out + 3 * stride + 8 * g), x3[g]);
  }
}

__attribute__((target("avx2"))) static void philox8_at_avx2(const sensim_rng *s, const uint32_t *blocks,
                                                            uint32_t *out, size_t stride) {
  philox_at_groups(s, blocks, out, stride, 1);
}
__attribute__((target("avx2"))) static void philox16_at_avx2(const sensim_rng *s, const uint32_t *blocks,
                                                             uint32_t *out, size_t stride) {
  philox_at_groups(s, blocks, out, stride, 2);
}

__attribute__((target("avx2"))) static size_t philox_at_avx2(const sensim_rng *s, const uint32_t *blocks, size_t n,
                                                             uint32_t *out, size_t stride) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) philox16_at_avx2(s, blocks + i, out + i, stride);
  for (; i + 8 <= n; i += 8) philox8_at_avx2(s, blocks + i, out + i, stride);
  return i;
}
#endif

void sensim__philox_at(const sensim_rng *stream, const uint32_t *blocks, size_t n, uint32_t *out, size_t stride) {
  size_t i = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (n >= 8 && sensim__cpu_has_avx2()) i = philox_at_avx2(stream, blocks, n, out, stride);
#endif
  for (; i < n; i++) {
    uint32_t w[4];
    philox_scalar(stream->key, stream->ctr, blocks[i], 1, w);
    for (int k = 0; k < 4; k++) out[(size_t)k * stride + i] = w[k];
  }
}

void sensim_rng_fill_u32(sensim_rng *r, uint32_t *out, size_t n) {
  size_t i = 0;
  while (i < n && r->used < 4) out[i++] = r->buf[r->used++];
  size_t blocks = (n - i) / 4;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (blocks >= 16 && sensim__cpu_has_avx2()) {
    for (; blocks >= 16; blocks -= 16, i += 64) {
      philox16_avx2(r->key, r->ctr, r->ctr[0], out + i);
      r->ctr[0] += 16u;
    }
  }
#endif
  while (blocks > 0) {
    int nb = blocks < BATCH ? (int)blocks : BATCH;
    philox_blocks(r->key, r->ctr, r->ctr[0], nb, out + i);
    r->ctr[0] += (uint32_t)nb;
    i += 4 * (size_t)nb;
    blocks -= (size_t)nb;
  }
  while (i < n) out[i++] = sensim_rng_u32(r);
}

/* The Box-Muller pair of sensim_rng_normal2f from its two words, with
 * branch-free float approximations in place of logf, sinf and cosf:
 *
 * ln u1, u1 in (0, 1]: u1 = 2^e m with m in [sqrt(1/2), sqrt(2)),
 * ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716, by the series
 * 2 (s + s^3/3 + ... + s^9/9) (Abramowitz & Stegun 4.1.28; truncation below
 * 3e-10 relative).
 *
 * sin, cos of 2 pi u2: u2 - round(u2) is exact; the turn is split into
 * quadrants, 2 pi u2 = q pi/2 + th with |th| <= pi/4, where the Taylor
 * series to th^9 (sin) and th^8 (cos) are within 2e-9 and 3e-8 (remainder
 * bounds of alternating series); the quadrant swaps and negates them.
 *
 * So each normal is within a few float ulps of normal2f's. The SSE2 path
 * below does exactly these float operations in the same order (no
 * contraction in ISO C mode), so both paths give the same bits. */
static inline void normal_pair(uint32_t w0, uint32_t w1, float *a, float *b) {
  sensim__normal_pair_fast(w0, w1, a, b);
}

#if defined(__SSE2__)
/* Four pairs from eight words: normal_pair lane-wise. */
static void normal_pairs4(const uint32_t *w, float *out) {
  __m128i A = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)w), _MM_SHUFFLE(3, 1, 2, 0));
  __m128i B = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(w + 4)), _MM_SHUFFLE(3, 1, 2, 0));
  __m128i w0 = _mm_unpacklo_epi64(A, B), w1 = _mm_unpackhi_epi64(A, B);
  const __m128 scale = _mm_set1_ps(1.0f / 16777216.0f), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
  __m128 u1 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_add_epi32(_mm_srli_epi32(w0, 8), _mm_set1_epi32(1))), scale);
  __m128 u2 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_srli_epi32(w1, 8)), scale);
  __m128i bits = _mm_castps_si128(u1);
  __m128i e = _mm_sub_epi32(_mm_srli_epi32(bits, 23), _mm_set1_epi32(127));
  __m128 m = _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(0x007FFFFF)),
                                           _mm_set1_epi32(0x3F800000)));
  __m128 big = _mm_cmpgt_ps(m, _mm_set1_ps(1.41421356f));
  m = sensim__blend4(big, _mm_mul_ps(half, m), m);
  e = _mm_sub_epi32(e, _mm_castps_si128(big)); /* the mask is -1 where big */
  __m128 s = _mm_div_ps(_mm_sub_ps(m, one), _mm_add_ps(m, one)), s2 = _mm_mul_ps(s, s);
  __m128 p = _mm_add_ps(_mm_set1_ps(1.0f / 7), _mm_mul_ps(s2, _mm_set1_ps(1.0f / 9)));
  p = _mm_add_ps(_mm_set1_ps(1.0f / 5), _mm_mul_ps(s2, p));
  p = _mm_add_ps(_mm_set1_ps(1.0f / 3), _mm_mul_ps(s2, p));
  p = _mm_add_ps(one, _mm_mul_ps(s2, p));
  __m128 ln = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(e), _mm_set1_ps(0.69314718f)),
                         _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(2.0f), s), p));
  __m128 m2 = _mm_mul_ps(_mm_set1_ps(-2.0f), ln);
  __m128 r = _mm_sqrt_ps(sensim__blend4(_mm_cmpgt_ps(m2, _mm_setzero_ps()), m2, _mm_setzero_ps()));
  __m128 k = _mm_cvtepi32_ps(_mm_cvttps_epi32(_mm_add_ps(u2, half)));
  __m128 y = _mm_mul_ps(_mm_set1_ps(4.0f), _mm_sub_ps(u2, k));
  __m128 hs = sensim__blend4(_mm_cmpge_ps(y, _mm_setzero_ps()), half, _mm_set1_ps(-0.5f));
  __m128i q = _mm_cvttps_epi32(_mm_add_ps(y, hs));
  __m128 th = _mm_mul_ps(_mm_sub_ps(y, _mm_cvtepi32_ps(q)), _mm_set1_ps(1.57079633f)), sn, cs;
  sensim__sincos_quadrant4(th, q, &sn, &cs);
  __m128 a = _mm_mul_ps(r, cs), b = _mm_mul_ps(r, sn);
  _mm_storeu_ps(out, _mm_unpacklo_ps(a, b));
  _mm_storeu_ps(out + 4, _mm_unpackhi_ps(a, b));
}
#endif

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* Eight pairs from sixteen words: normal_pairs4 on eight lanes. The words
 * are split into evens and odds within each 128-bit half, so lane l holds
 * pair (0, 1, 4, 5, 2, 3, 6, 7)[l]; unpacking the results within the
 * halves puts the pairs back in order. */
__attribute__((target("avx2"), always_inline)) static inline void normal_pairs8(const uint32_t *w, float *out) {
  __m256i A = _mm256_shuffle_epi32(_mm256_loadu_si256((const __m256i *)w), _MM_SHUFFLE(3, 1, 2, 0));
  __m256i B = _mm256_shuffle_epi32(_mm256_loadu_si256((const __m256i *)(w + 8)), _MM_SHUFFLE(3, 1, 2, 0));
  __m256i w0 = _mm256_unpacklo_epi64(A, B), w1 = _mm256_unpackhi_epi64(A, B);
  __m256 a, b;
  sensim__box_muller8(w0, w1, &a, &b);
  _mm256_storeu_ps(out, _mm256_unpacklo_ps(a, b));
  _mm256_storeu_ps(out + 8, _mm256_unpackhi_ps(a, b));
}

/* normal_pairs8 over the first n - n % 8 pairs, in one function so the
 * loop keeps its constants in registers; returns how many it did. */
__attribute__((target("avx2"))) static size_t normal_pairs8_run(const uint32_t *w, float *out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) normal_pairs8(w + 2 * i, out + 2 * i);
  return i;
}
#endif

#define NORMAL_CHUNK 256 /* pairs per pass: 2 KB of words on the stack */

void sensim_rng_normal2f_n(sensim_rng *r, float *out, size_t npairs) {
  uint32_t w[2 * NORMAL_CHUNK];
  while (npairs > 0) {
    size_t n = npairs < NORMAL_CHUNK ? npairs : NORMAL_CHUNK, i = 0;
    sensim_rng_fill_u32(r, w, 2 * n);
#if defined(SENSIM_HAVE_AVX2_PATHS)
    if (sensim__cpu_has_avx2()) i = normal_pairs8_run(w, out, n);
#endif
#if defined(__SSE2__)
    for (; i + 4 <= n; i += 4) normal_pairs4(w + 2 * i, out + 2 * i);
#endif
    for (; i < n; i++) normal_pair(w[2 * i], w[2 * i + 1], &out[2 * i], &out[2 * i + 1]);
    out += 2 * n;
    npairs -= n;
  }
}

/* ---- GSL adapter ---- */

static void gsl_set(void *state, unsigned long seed) {
  sensim_rng_init((sensim_rng *)state, seed, 0, 0, 0);
}
static unsigned long gsl_get(void *state) { return sensim_rng_u32((sensim_rng *)state); }
static double gsl_get_double(void *state) { return sensim_rng_uniform((sensim_rng *)state); }

static const gsl_rng_type philox_type = {"sensim_philox4x32", 0xFFFFFFFFUL, 0, sizeof(sensim_rng),
                                         gsl_set, gsl_get, gsl_get_double};

gsl_rng *sensim__rng_gsl_alloc(const sensim_rng *stream) {
  gsl_rng *g = gsl_rng_alloc(&philox_type);
  if (!g) return NULL;
  memcpy(g->state, stream, sizeof *stream);
  return g;
}
