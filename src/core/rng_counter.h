/* core/rng_counter.h: random numbers addressed by position instead of drawn
 * in sequence.
 *
 * A sensim_rng stream is Philox4x32-10 over the counter
 * (block, element, frame, sensor). Drawing in sequence ties a value's
 * numbers to how many were drawn before it; here the caller names the
 * block itself (a value index), so each value's numbers depend on its
 * position alone: the same for any banding, thread count or order, and
 * whether or not its neighbours are computed. */
#ifndef SENSIM_CORE_RNG_COUNTER_H
#define SENSIM_CORE_RNG_COUNTER_H

#include <Random123/philox.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sensim/rng.h"

/* Block `block` of `stream` with `element_add` added to its element word
 * (ctr[1]): the four words sensim_rng_u32 would return after 4 block calls,
 * had the stream been started with that element. */
static inline void sensim__philox_at1(const sensim_rng *stream, uint32_t block, uint32_t element_add,
                                      uint32_t out[4]) {
  philox4x32_ctr_t c = {{block, stream->ctr[1] + element_add, stream->ctr[2], stream->ctr[3]}};
  philox4x32_key_t k = {{stream->key[0], stream->key[1]}};
  philox4x32_ctr_t r = philox4x32(c, k);
  memcpy(out, r.v, sizeof r.v);
}

/* Block blocks[i] of `stream` for i < n, as four planes: its word k goes to
 * out[k stride + i] (stride >= n). AVX2 eight blocks at a time where the
 * CPU has it; the same bits either way. */
void sensim__philox_at(const sensim_rng *stream, const uint32_t *blocks, size_t n, uint32_t *out, size_t stride);

/* Uniform on (0, 1) from one word: (w + 1/2) 2^-32, never 0 or 1. */
static inline double sensim__u01_open(uint32_t w) { return ((double)w + 0.5) * (1.0 / 4294967296.0); }

/* Uniform on [0, 1) with 53 bits from two words (as sensim_rng_uniform). */
static inline double sensim__u01_53(uint32_t w0, uint32_t w1) {
  uint64_t hi = w0 >> 5, lo = w1 >> 6;
  return (double)((hi << 26) | lo) * (1.0 / 9007199254740992.0);
}

/* The Box-Muller pair of sensim_rng_normal2f from its two words, with
 * branch-free float approximations of ln, sin and cos (core/rng.c
 * explains them and their error: each value within a few float ulps of
 * normal2f's, tails ending at 5.77 sigma). Every SIMD copy of it does the
 * same float operations in the same order (ISO C: no contraction), so all
 * give the same bits. */
static inline void sensim__normal_pair_fast(uint32_t w0, uint32_t w1, float *a, float *b) {
  float u1 = (float)(int32_t)((w0 >> 8) + 1u) * (1.0f / 16777216.0f);
  float u2 = (float)(int32_t)(w1 >> 8) * (1.0f / 16777216.0f);
  uint32_t bits;
  memcpy(&bits, &u1, sizeof bits);
  int32_t e = (int32_t)(bits >> 23) - 127;
  uint32_t mb = (bits & 0x007FFFFFu) | 0x3F800000u;
  float m;
  memcpy(&m, &mb, sizeof m);
  if (m > 1.41421356f) {
    m = 0.5f * m;
    e += 1;
  }
  float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
  float p = 1.0f + s2 * (1.0f / 3 + s2 * (1.0f / 5 + s2 * (1.0f / 7 + s2 * (1.0f / 9))));
  float ln = (float)e * 0.69314718f + 2.0f * s * p;
  float m2 = -2.0f * ln;
  float r = sqrtf(m2 > 0.0f ? m2 : 0.0f);
  float y = 4.0f * (u2 - (float)(int32_t)(u2 + 0.5f));
  int32_t q = (int32_t)(y + (y >= 0.0f ? 0.5f : -0.5f));
  float th = (y - (float)q) * 1.57079633f, t2 = th * th;
  float sn = th * (1.0f + t2 * (-1.0f / 6 + t2 * (1.0f / 120 + t2 * (-1.0f / 5040 + t2 * (1.0f / 362880)))));
  float cs = 1.0f + t2 * (-0.5f + t2 * (1.0f / 24 + t2 * (-1.0f / 720 + t2 * (1.0f / 40320))));
  float x = (q & 1) ? cs : sn, z = (q & 1) ? sn : cs;
  sn = (q & 2) ? -x : x;
  cs = ((q + 1) & 2) ? -z : z;
  *a = r * cs;
  *b = r * sn;
}

#endif
