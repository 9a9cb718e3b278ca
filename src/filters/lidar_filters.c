/* filters/lidar_filters.c: lidar beams to points, and range noise. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "core/cpu.h"
#include "core/simd_trig.h"
#include "core/internal.h"
#include "filters/chain.h"

/* Spherical to Cartesian in float without library calls, so "points" can
 * convert four beams per SSE2 step; sensim__beam_xyz (one beam, used by
 * "organized" and the image outputs) performs exactly the same float
 * operations in the same order, so all outputs agree bit for bit.
 *
 * sin and cos of x (beam azimuths and elevations, any |x| < 1e4 rad):
 * x = q pi/2 + th with q = round(2 x / pi) and |th| <= pi/4 (to rounding),
 * th = (x - q P1) - q P2 with P1 = 1.5703125 (8 significant bits) and
 * P2 = pi/2 - P1 (Cody & Waite, "Software Manual for the Elementary
 * Functions", 1980): q P1 is exact for |q| < 2^16 and so is x - q P1
 * (Sterbenz: both within a factor 2 for q != 0), so th is off by q times
 * P2's rounding, under 1e-10 rad for any angle a beam carries; then the
 * Taylor series to th^9 (sin) and th^8 (cos), whose truncation (next term
 * of an alternating series) is below 2e-9 and 3e-8, and the quadrant's
 * swap and signs. The points are within 2 float ulps of the library's
 * sinf/cosf products. */
#define P1 1.5703125f      /* 201 / 128 */
#define P2 4.83826794897e-4f /* pi / 2 - P1 */

static inline void sincos_small(float x, float *sn, float *cs) {
  float qf = x * 0.636619772f;
  int32_t q = (int32_t)(qf + (qf >= 0.0f ? 0.5f : -0.5f));
  float th = (x - (float)q * P1) - (float)q * P2, t2 = th * th;
  float s = th * (1.0f + t2 * (-1.0f / 6 + t2 * (1.0f / 120 + t2 * (-1.0f / 5040 + t2 * (1.0f / 362880)))));
  float c = 1.0f + t2 * (-0.5f + t2 * (1.0f / 24 + t2 * (-1.0f / 720 + t2 * (1.0f / 40320))));
  float a = (q & 1) ? c : s, b = (q & 1) ? s : c;
  *sn = (q & 2) ? -a : a;
  *cs = ((q + 1) & 2) ? -b : b;
}

void sensim__beam_xyz(const sensim_beam *b, float xyz[3]) {
  float sa, ca, se, ce;
  sincos_small(b->azimuth, &sa, &ca);
  sincos_small(b->elevation, &se, &ce);
  float r = b->range, rc = r * ce;
  xyz[0] = rc * ca;
  xyz[1] = rc * sa;
  xyz[2] = r * se;
}

#if defined(__SSE2__)
/* sincos_small on four lanes. */
static inline void sincos4(__m128 x, __m128 *sn, __m128 *cs) {
  const __m128 zero = _mm_setzero_ps();
  __m128 qf = _mm_mul_ps(x, _mm_set1_ps(0.636619772f));
  __m128 h = sensim__blend4(_mm_cmpge_ps(qf, zero), _mm_set1_ps(0.5f), _mm_set1_ps(-0.5f));
  __m128i q = _mm_cvttps_epi32(_mm_add_ps(qf, h));
  __m128 fq = _mm_cvtepi32_ps(q);
  __m128 th = _mm_sub_ps(_mm_sub_ps(x, _mm_mul_ps(fq, _mm_set1_ps(P1))), _mm_mul_ps(fq, _mm_set1_ps(P2)));
  sensim__sincos_quadrant4(th, q, sn, cs);
}
#endif

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* sincos_small on eight lanes. */
__attribute__((target("avx2"))) static inline void sincos8(__m256 x, __m256 *sn, __m256 *cs) {
  const __m256 zero = _mm256_setzero_ps();
  __m256 qf = _mm256_mul_ps(x, _mm256_set1_ps(0.636619772f));
  __m256 h = sensim__blend8(_mm256_cmp_ps(qf, zero, _CMP_GE_OQ), _mm256_set1_ps(0.5f), _mm256_set1_ps(-0.5f));
  __m256i q = _mm256_cvttps_epi32(_mm256_add_ps(qf, h));
  __m256 fq = _mm256_cvtepi32_ps(q);
  __m256 th = _mm256_sub_ps(_mm256_sub_ps(x, _mm256_mul_ps(fq, _mm256_set1_ps(P1))),
                            _mm256_mul_ps(fq, _mm256_set1_ps(P2)));
  sensim__sincos_quadrant8(th, q, sn, cs);
}

/* beams_xyz's rows eight at a time; returns how many it converted (a
 * multiple of 8). With `out`, the whole points are written there instead
 * (out[k] for beam ix[k], at or before that beam's slot: a group's eight
 * beams are read whole before its points are written, so points may
 * overwrite the beams in place). */
__attribute__((target("avx2"))) static size_t beams_xyz8(const sensim_beam *b, const uint16_t *ix, size_t n,
                                                         float *xyzi, sensim_point *out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    /* Each beam's first 16 bytes (range, intensity, azimuth, elevation),
     * eight rows transposed to four columns in lane order (rows l and
     * l + 4 share a register). */
    __m256 row[4];
    for (int l = 0; l < 4; l++)
      row[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&b[ix[i + l]].range)),
                                    _mm_loadu_ps(&b[ix[i + l + 4]].range), 1);
    const __m256 s0 = _mm256_unpacklo_ps(row[0], row[1]), s1 = _mm256_unpackhi_ps(row[0], row[1]),
                 s2 = _mm256_unpacklo_ps(row[2], row[3]), s3 = _mm256_unpackhi_ps(row[2], row[3]);
    const __m256 r = _mm256_shuffle_ps(s0, s2, 0x44), in = _mm256_shuffle_ps(s0, s2, 0xEE),
                 az = _mm256_shuffle_ps(s1, s3, 0x44), el = _mm256_shuffle_ps(s1, s3, 0xEE);
    /* The beams' last 16 bytes (time_offset, ring, return_index,
     * class_id, instance_id; pad and pad2 cleared), read before any point
     * of the group is written. */
    __m128i tails[8];
    const __m128i keep = _mm_set_epi32(-1, 0x0000FFFF, 0x00FFFFFF, -1);
    if (out)
      for (int k = 0; k < 8; k++)
        tails[k] = _mm_and_si128(_mm_loadu_si128((const __m128i *)&b[ix[i + k]].time_offset), keep);
    __m256 sa, ca, se, ce;
    sincos8(az, &sa, &ca);
    sincos8(el, &se, &ce);
    __m256 rc = _mm256_mul_ps(r, ce);
    const __m256 X = _mm256_mul_ps(rc, ca), Y = _mm256_mul_ps(rc, sa), Z = _mm256_mul_ps(r, se);
    /* (x, y, z, intensity) rows of the eight points: a 4 x 8 transpose */
    const __m256 t0 = _mm256_unpacklo_ps(X, Y), t1 = _mm256_unpackhi_ps(X, Y), t2 = _mm256_unpacklo_ps(Z, in),
                 t3 = _mm256_unpackhi_ps(Z, in);
    const __m256 pt[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                          _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
    if (out) { /* whole points, straight to their slots: rows, then each beam's tail with pads 0 */
      for (int k = 0; k < 4; k++) {
        _mm_storeu_ps(&out[i + k].x, _mm256_castps256_ps128(pt[k]));
        _mm_storeu_ps(&out[i + k + 4].x, _mm256_extractf128_ps(pt[k], 1));
      }
      for (int k = 0; k < 8; k++) _mm_storeu_si128((__m128i *)&out[i + k].time_offset, tails[k]);
      continue;
    }
    for (int k = 0; k < 4; k++) {
      _mm_storeu_ps(xyzi + 4 * (i + k), _mm256_castps256_ps128(pt[k]));
      _mm_storeu_ps(xyzi + 4 * (i + k + 4), _mm256_extractf128_ps(pt[k], 1));
    }
  }
  return i;
}
#endif

/* x, y, z and intensity of beams b[ix[0 .. n)], four floats each. */
static void beams_xyz(const sensim_beam *b, const uint16_t *ix, size_t n, float *xyzi) {
  size_t i = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) i = beams_xyz8(b, ix, n, xyzi, NULL);
#endif
#if defined(__SSE2__)
  for (; i + 4 <= n; i += 4) {
    const sensim_beam *e[4] = {&b[ix[i]], &b[ix[i + 1]], &b[ix[i + 2]], &b[ix[i + 3]]};
    __m128 r = _mm_set_ps(e[3]->range, e[2]->range, e[1]->range, e[0]->range);
    __m128 az = _mm_set_ps(e[3]->azimuth, e[2]->azimuth, e[1]->azimuth, e[0]->azimuth);
    __m128 el = _mm_set_ps(e[3]->elevation, e[2]->elevation, e[1]->elevation, e[0]->elevation);
    __m128 sa, ca, se, ce;
    sincos4(az, &sa, &ca);
    sincos4(el, &se, &ce);
    __m128 rc = _mm_mul_ps(r, ce);
    float x[4], y[4], z[4];
    _mm_storeu_ps(x, _mm_mul_ps(rc, ca));
    _mm_storeu_ps(y, _mm_mul_ps(rc, sa));
    _mm_storeu_ps(z, _mm_mul_ps(r, se));
    for (int k = 0; k < 4; k++) {
      xyzi[4 * (i + k)] = x[k];
      xyzi[4 * (i + k) + 1] = y[k];
      xyzi[4 * (i + k) + 2] = z[k];
      xyzi[4 * (i + k) + 3] = e[k]->intensity;
    }
  }
#endif
  for (; i < n; i++) {
    sensim__beam_xyz(&b[ix[i]], xyzi + 4 * i);
    xyzi[4 * i + 3] = b[ix[i]].intensity;
  }
}

static sensim_status points_create(const cJSON *params, void **user) {
  static const char *const none[] = {NULL};
  *user = NULL;
  return sensim__param_only(params, "points", none);
}

/* Spherical to Cartesian in the sensor frame (X forward, Z up): azimuth
 * counter-clockwise from +X, elevation up from the XY plane. */
/* In place: a point is the size of a beam (both 32 bytes, asserted), and
 * point j is written only after beam j <= i has been read, so the frame's
 * buffer is reused and a capture allocates nothing here. */
_Static_assert(sizeof(sensim_point) == sizeof(sensim_beam), "points overwrite beams in place");
_Static_assert(offsetof(sensim_point, intensity) == 12 && offsetof(sensim_point, time_offset) == 16 &&
                   offsetof(sensim_beam, time_offset) == 16 && offsetof(sensim_point, ring) == offsetof(sensim_beam, ring) &&
                   offsetof(sensim_point, return_index) == offsetof(sensim_beam, return_index) &&
                   offsetof(sensim_point, pad) == offsetof(sensim_beam, pad) &&
                   offsetof(sensim_point, class_id) == offsetof(sensim_beam, class_id) &&
                   offsetof(sensim_point, pad2) == offsetof(sensim_beam, pad2) &&
                   offsetof(sensim_point, instance_id) == offsetof(sensim_beam, instance_id) &&
                   sizeof(sensim_point) == 32,
               "a point is x, y, z, intensity, then a beam's last 16 bytes");
static sensim_status points_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  if (f->type != SENSIM_PAYLOAD_BEAMS || (f->count && !f->data))
    return sensim__fail(SENSIM_ETYPE, "points: frame holds no beams");
  sensim_beam *b = f->data;
  sensim_point *p = f->data;
  enum { BLOCK = 256 }; /* beams per pass: their returns are listed, converted, then written */
  float xyzi[4 * BLOCK]; /* x, y, z, intensity of each listed return */
  uint16_t ix[BLOCK];
  size_t j = 0;
  for (size_t i0 = 0; i0 < f->count; i0 += BLOCK) {
    size_t m = f->count - i0 < BLOCK ? f->count - i0 : BLOCK, nh = 0;
    const sensim_beam *blk = b + i0;
    for (size_t k = 0; k < m; k++) {
      ix[nh] = (uint16_t)k;
      nh += blk[k].range > 0;
    }
    /* Point j lands on beam slot j <= i0 + ix[k]: a beam still to be read
     * lies beyond every slot written so far. A point is x, y, z, intensity
     * then the beam's last 16 bytes (time_offset, ring, return_index, pad,
     * class_id, pad2, instance_id): the semantic ids go with the point. */
    size_t k = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
    if (sensim__cpu_has_avx2()) { /* groups of eight written whole */
      k = beams_xyz8(blk, ix, nh, NULL, p + j);
      j += k;
    }
#endif
    beams_xyz(blk, ix + k, nh - k, xyzi);
    for (size_t q = 0; k < nh; k++, q++) {
      unsigned char tail[16];
      memcpy(tail, (const unsigned char *)&blk[ix[k]] + offsetof(sensim_beam, time_offset), 16);
      unsigned char *d = (unsigned char *)&p[j++];
      memcpy(d, xyzi + 4 * q, 16);
      memcpy(d + 16, tail, 16);
      d[offsetof(sensim_point, pad)] = 0;
      memset(d + offsetof(sensim_point, pad2), 0, sizeof(uint16_t));
    }
  }
  f->type = SENSIM_PAYLOAD_POINTS;
  f->count = j;
  f->width = (uint32_t)j;
  f->height = 1;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_points = {
    {"points", SENSIM_PAYLOAD_BEAMS, SENSIM_PAYLOAD_POINTS, NULL, points_apply, NULL}, points_create, NULL};

static sensim_status range_noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"sigma", NULL};
  double sigma = 0.02;
  sensim_status rc = sensim__param_only(params, "range_noise", known);
  if (!rc) rc = sensim__param_number(params, "sigma", &sigma);
  if (rc) return rc;
  if (!(sigma >= 0)) return sensim__fail(SENSIM_EINVAL, "range_noise: sigma %g m must be >= 0", sigma);
  double *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = sigma;
  *user = u;
  return SENSIM_OK;
}

/* Gaussian range error on each return; a return pushed to or below zero
 * range is kept at a tiny positive range rather than turned into a miss,
 * which would change the point count with the noise level. */
static sensim_status range_noise_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  double sigma = *(const double *)user;
  sensim_beam *b = f->data;
  for (size_t i = 0; i < f->count; i++) {
    if (!(b[i].range > 0)) continue;
    double r = b[i].range + sigma * sensim_rng_normal(&ctx->rng);
    b[i].range = (float)(r > 1e-3 ? r : 1e-3);
  }
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_range_noise = {
    {"range_noise", SENSIM_PAYLOAD_BEAMS, SENSIM_PAYLOAD_BEAMS, NULL, range_noise_apply, free},
    range_noise_create, NULL};
