/* core/rng.c: Philox4x32-10 streams (Salmon et al. 2011, "Parallel random
 * numbers: as easy as 1, 2, 3", SC'11) through Random123, and a GSL adapter
 * so GSL's distributions can draw from a stream. */
#include <Random123/philox.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/rng_gsl.h"
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
