/* sensim/rng.h: counter-based random streams (Random123 Philox4x32-10).
 *
 * A stream is a pure function of its key (world seed) and its counter
 * (sensor id, frame index, element, purpose): the same stream gives the same
 * numbers on any thread and in any order of job completion. Filters get one
 * from their context; users can make their own. */
#ifndef SENSIM_RNG_H
#define SENSIM_RNG_H

#include "sensim/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_rng {
  uint32_t key[2];   /* world seed */
  uint32_t ctr[4];   /* ctr[0] counts blocks; ctr[1..3] name the stream */
  uint32_t buf[4];   /* the current block */
  int used;          /* words of buf already handed out */
} sensim_rng;

/* Start the stream named (seed, sensor, frame, element). */
SENSIM_API void sensim_rng_init(sensim_rng *r, uint64_t seed, uint32_t sensor, uint64_t frame,
                     uint32_t element);

SENSIM_API uint32_t sensim_rng_u32(sensim_rng *r);
/* Uniform on [0, 1) with 53 random bits. */
SENSIM_API double sensim_rng_uniform(sensim_rng *r);
/* Standard normal N(0, 1) (Box-Muller, no cached second value, so every call
 * consumes exactly four words). */
SENSIM_API double sensim_rng_normal(sensim_rng *r);
/* Two independent standard normals from one Box-Muller transform (both
 * branches, so half the cost per value of sensim_rng_normal); consumes
 * exactly four words. */
SENSIM_API void sensim_rng_normal2(sensim_rng *r, double *a, double *b);
/* The same in single precision from two words (24-bit uniforms): about
 * twice as fast, for per-point sensor noise where float precision is all
 * the data has. Its tails end at sqrt(-2 ln 2^-24) = 5.77 sigma. */
SENSIM_API void sensim_rng_normal2f(sensim_rng *r, float *a, float *b);

/* n words: exactly what n calls of sensim_rng_u32 return, computed several
 * Philox blocks at a time (faster for long runs). */
SENSIM_API void sensim_rng_fill_u32(sensim_rng *r, uint32_t *out, size_t n);
/* npairs pairs of standard normals into out[0 .. 2 npairs): pair i is the
 * pair the i-th of npairs calls of sensim_rng_normal2f would return (same
 * two words, same uniforms, same Box-Muller transform), computed with
 * branch-free float approximations of ln, sin and cos, so each value is
 * within a few float ulps of normal2f's (under 4e-6 even at 5.8 sigma)
 * but not bit-identical to it. The values do not depend on how a run is
 * split into calls, nor on the CPU's SIMD width. Several times faster per
 * value for long runs. Consumes 2 npairs words. */
SENSIM_API void sensim_rng_normal2f_n(sensim_rng *r, float *out, size_t npairs);

#ifdef __cplusplus
}
#endif
#endif
