/* filters/lidar_noise.c: "lidar_noise", beams -> beams.
 *
 * Measurement noise where a time-of-flight scanner makes it, on the beams
 * before they become points ("points" then maps the noisy range, azimuth
 * and elevation to x, y, z, so the Cartesian error has the sensor's
 * spherical shape):
 *   range     r' = max(r + sigma_range n_r, 1 mm)     timing jitter of the echo
 *   azimuth   a' = a + sigma_azimuth n_a              encoder / pointing jitter
 *   elevation e' = e + sigma_elevation n_e            of the firing
 *   intensity i' = clamp(i + sigma_intensity n_i, 0, 1), then requantised
 *             to k / (2^intensity_bits - 1) when intensity_bits > 0
 * with n ~ N(0, 1) independent. Pointing belongs to the firing, so all
 * returns of one beam (frame->returns of them, dual mode) share n_a and n_e
 * while each return has its own n_r and n_i.
 *
 * Defaults (datasheet figures): sigma_range 0.015 m, the Ouster OS1
 * datasheet's range repeatability (1 sigma, SNR > 250), which is also the
 * Velodyne VLP-16 datasheet's "+-3 cm typical" read as a 2-sigma band;
 * sigma_azimuth = sigma_elevation = 0.01 deg = 1.745e-4 rad, the OS1's
 * angular sampling accuracy (+-0.01 deg, taken as 1 sigma); sigma_intensity
 * 0 (no datasheet states it); intensity_bits 0 (no requantisation; set it to
 * the lidar's intensity_bits so noisy intensities stay on the sensor's
 * grid, as the noise arises before the sensor's quantiser).
 *
 * Draws. From the filter context's stream, in beam order, only for firings
 * that have at least one return: n_a, n_e, then n_r, n_i for each of its
 * returns in return order, each pair one sensim_rng_normal2f draw (made in
 * batches by sensim_rng_normal2f_n: same words, same pairs to a few float
 * ulps). The four are drawn whatever the sigmas (a zero
 * sigma uses its draw and ignores it), so one sigma's realisation does not
 * depend on the others. The chain filters one frame at a time from a stream
 * keyed by (seed, sensor, frame, slot), so the result is bit-identical for
 * any thread count. "range_noise" is the special case with range noise only
 * (and its own draw order). */
#include <stdlib.h>
#include "core/cpu.h"
#include "core/internal.h"
#include "filters/chain.h"

typedef struct lidar_noise {
  double sigma_range;     /* m */
  double sigma_azimuth;   /* rad */
  double sigma_elevation; /* rad */
  double sigma_intensity; /* intensity units, [0, 1] scale */
  double qmax;            /* 2^intensity_bits - 1, or 0: no requantisation */
  double inv_qmax;        /* 1 / qmax, or 0 */
} lidar_noise;

/* Smallest range a noisy return keeps, m: pushing a return to zero would
 * turn it into a miss and make the point count depend on the noise level. */
#define MIN_RANGE 1e-3

static sensim_status lidar_noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"sigma_range", "sigma_azimuth", "sigma_elevation", "sigma_intensity",
                                       "intensity_bits", NULL};
  const double deg = M_PI / 180.0;
  lidar_noise cfg = {0.015, 0.01 * deg, 0.01 * deg, 0.0, 0.0, 0.0};
  double bits = 0.0;
  if (params && !cJSON_IsObject(params))
    return sensim__fail(SENSIM_EINVAL, "lidar_noise: parameters must be a JSON object");
  sensim_status rc = sensim__param_only(params, "lidar_noise", known);
  if (!rc) rc = sensim__param_number(params, "sigma_range", &cfg.sigma_range);
  if (!rc) rc = sensim__param_number(params, "sigma_azimuth", &cfg.sigma_azimuth);
  if (!rc) rc = sensim__param_number(params, "sigma_elevation", &cfg.sigma_elevation);
  if (!rc) rc = sensim__param_number(params, "sigma_intensity", &cfg.sigma_intensity);
  if (!rc) rc = sensim__param_number(params, "intensity_bits", &bits);
  if (rc) return rc;
  if (!(bits == floor(bits) && bits >= 0.0 && bits <= 16.0))
    return sensim__fail(SENSIM_EINVAL, "lidar_noise: intensity_bits %g must be an integer in [0, 16]", bits);
  cfg.qmax = bits > 0 ? ldexp(1.0, (int)bits) - 1.0 : 0.0;
  cfg.inv_qmax = bits > 0 ? 1.0 / cfg.qmax : 0.0;
  const double *v[4] = {&cfg.sigma_range, &cfg.sigma_azimuth, &cfg.sigma_elevation, &cfg.sigma_intensity};
  for (int i = 0; i < 4; i++)
    if (!(*v[i] >= 0.0))
      return sensim__fail(SENSIM_EINVAL, "lidar_noise: %s = %g must be >= 0", known[i], *v[i]);
  /* Angular noise of a radian or more is no longer a perturbation of the
   * beam's direction; it is a wrong parameter unit (deg for rad). */
  if (cfg.sigma_azimuth >= 1.0 || cfg.sigma_elevation >= 1.0)
    return sensim__fail(SENSIM_EINVAL, "lidar_noise: angular sigmas (%g, %g) are in rad and must be < 1",
                        cfg.sigma_azimuth, cfg.sigma_elevation);
  lidar_noise *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "lidar_noise: out of memory");
  *u = cfg;
  *user = u;
  return SENSIM_OK;
}

/* Normal pairs drawn per pass (4 KB on the stack): the draws of a run of
 * firings are made in one batch (sensim_rng_normal2f_n, the same pairs as
 * one sensim_rng_normal2f call per pair, in the same order), then used. */
#define CHUNK 512

/* Pairs firing b[0 .. R) draws: one for its pointing and one per return,
 * or none without a return. */
static size_t pairs_of(const sensim_beam *b, size_t R) {
  size_t n = 0;
  for (size_t r = 0; r < R; r++) n += b[r].range > 0;
  return n ? n + 1 : 0;
}

/* nearbyint(x) for x in [0, 2^52): adding 2^52 leaves no fraction bits,
 * so the sum is rounded at the units place in the default mode (to
 * nearest, ties to even) as nearbyint rounds; without a library call. */
static inline double round_units(double x) {
  const double big = 4503599627370496.0; /* 2^52 */
  return (x + big) - big;
}

/* One return's noise from its firing's pointing normals (na, ne) and its
 * own (nr, ni). */
static void perturb(const lidar_noise *g, sensim_beam *x, float na, float ne, float nr, float ni) {
  double range = x->range + g->sigma_range * nr;
  double in = x->intensity + g->sigma_intensity * ni;
  x->range = (float)(range > MIN_RANGE ? range : MIN_RANGE);
  in = in < 0.0 ? 0.0 : in > 1.0 ? 1.0 : in;
  /* The lidar generator's quantiser (sensors/lidar.c, the same
   * arithmetic): round to nearest, times 1 / qmax. in * qmax in [0, 65535]. */
  if (g->qmax > 0) in = round_units(in * g->qmax) * g->inv_qmax;
  x->intensity = (float)in;
  x->azimuth = (float)(x->azimuth + g->sigma_azimuth * na);
  x->elevation = (float)(x->elevation + g->sigma_elevation * ne);
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
/* perturb() on the lanes of lo (hits h .. h + 3) and hi (h + 4 .. h + 7)
 * in doubles: v + sigma n for each of the eight floats v with its normal n. */
__attribute__((target("avx2"))) static inline void plus_noise8(__m256 v, __m256d sigma, __m256 n, __m256d *lo,
                                                               __m256d *hi) {
  *lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)),
                      _mm256_mul_pd(sigma, _mm256_cvtps_pd(_mm256_castps256_ps128(n))));
  *hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)),
                      _mm256_mul_pd(sigma, _mm256_cvtps_pd(_mm256_extractf128_ps(n, 1))));
}

__attribute__((target("avx2"))) static inline __m256 to_float8(__m256d lo, __m256d hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
}

/* The intensity of perturb(): clamped to [0, 1] (NaN kept, as the
 * conditional expressions keep it), then requantised if qmax > 0. */
__attribute__((target("avx2"))) static inline __m256d intensity4(const lidar_noise *g, __m256d in) {
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  in = _mm256_blendv_pd(_mm256_blendv_pd(in, one, _mm256_cmp_pd(in, one, _CMP_GT_OQ)), zero,
                        _mm256_cmp_pd(in, zero, _CMP_LT_OQ));
  if (g->qmax > 0) {
    const __m256d big = _mm256_set1_pd(4503599627370496.0); /* 2^52: round_units */
    in = _mm256_mul_pd(_mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(in, _mm256_set1_pd(g->qmax)), big), big),
                       _mm256_set1_pd(g->inv_qmax));
  }
  return in;
}

/* perturb() on the hits x[ix[0 .. nh)] of one-return firings, hit k
 * taking the normals z[4k .. 4k + 4) (n_a, n_e, n_r, n_i), eight at a time:
 * the same double operations in the same order, so the same beams. Returns
 * how many it did (a multiple of 8). */
__attribute__((target("avx2"))) static size_t perturb_hits8(const lidar_noise *g, sensim_beam *x, const uint16_t *ix,
                                                            size_t nh, const float *z) {
  const __m256d sr = _mm256_set1_pd(g->sigma_range), si = _mm256_set1_pd(g->sigma_intensity),
                sa = _mm256_set1_pd(g->sigma_azimuth), se = _mm256_set1_pd(g->sigma_elevation),
                minr = _mm256_set1_pd(MIN_RANGE);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  size_t k = 0;
  for (; k + 8 <= nh; k += 8) {
    sensim_beam *e[8];
    for (int l = 0; l < 8; l++) e[l] = &x[ix[k + l]];
    /* Each beam's first 16 bytes are range, intensity, azimuth, elevation:
     * eight rows loaded and transposed to four columns (rows l and l + 4
     * share a register, so the columns come out in lane order). */
    __m256 row[4];
    for (int l = 0; l < 4; l++)
      row[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&e[l]->range)), _mm_loadu_ps(&e[l + 4]->range), 1);
    const __m256 s0 = _mm256_unpacklo_ps(row[0], row[1]), s1 = _mm256_unpackhi_ps(row[0], row[1]),
                 s2 = _mm256_unpacklo_ps(row[2], row[3]), s3 = _mm256_unpackhi_ps(row[2], row[3]);
    const __m256 r = _mm256_shuffle_ps(s0, s2, 0x44), in = _mm256_shuffle_ps(s0, s2, 0xEE),
                 az = _mm256_shuffle_ps(s1, s3, 0x44), el = _mm256_shuffle_ps(s1, s3, 0xEE);
    /* The 8 x 4 normals transposed: q0 holds hits 0, 1, q1 hits 2, 3 ...;
     * the shuffles leave the hits in the order 0 2 4 6 1 3 5 7, which
     * `order` undoes. */
    const float *zk = z + 4 * k;
    const __m256 q0 = _mm256_loadu_ps(zk), q1 = _mm256_loadu_ps(zk + 8), q2 = _mm256_loadu_ps(zk + 16),
                 q3 = _mm256_loadu_ps(zk + 24);
    const __m256 t0 = _mm256_unpacklo_ps(q0, q1), t1 = _mm256_unpackhi_ps(q0, q1), t2 = _mm256_unpacklo_ps(q2, q3),
                 t3 = _mm256_unpackhi_ps(q2, q3);
    const __m256 na = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t0, t2, 0x44), order),
                 ne = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t0, t2, 0xEE), order),
                 nr = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t1, t3, 0x44), order),
                 ni = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(t1, t3, 0xEE), order);
    __m256d lo, hi;
    plus_noise8(r, sr, nr, &lo, &hi);
    lo = _mm256_blendv_pd(minr, lo, _mm256_cmp_pd(lo, minr, _CMP_GT_OQ));
    hi = _mm256_blendv_pd(minr, hi, _mm256_cmp_pd(hi, minr, _CMP_GT_OQ));
    const __m256 R8 = to_float8(lo, hi);
    plus_noise8(in, si, ni, &lo, &hi);
    const __m256 I8 = to_float8(intensity4(g, lo), intensity4(g, hi));
    plus_noise8(az, sa, na, &lo, &hi);
    const __m256 A8 = to_float8(lo, hi);
    plus_noise8(el, se, ne, &lo, &hi);
    const __m256 E8 = to_float8(lo, hi);
    /* back to rows, stored over each beam's first 16 bytes */
    const __m256 u0 = _mm256_unpacklo_ps(R8, I8), u1 = _mm256_unpackhi_ps(R8, I8), u2 = _mm256_unpacklo_ps(A8, E8),
                 u3 = _mm256_unpackhi_ps(A8, E8);
    const __m256 out[4] = {_mm256_shuffle_ps(u0, u2, 0x44), _mm256_shuffle_ps(u0, u2, 0xEE),
                           _mm256_shuffle_ps(u1, u3, 0x44), _mm256_shuffle_ps(u1, u3, 0xEE)};
    for (int l = 0; l < 4; l++) {
      _mm_storeu_ps(&e[l]->range, _mm256_castps256_ps128(out[l]));
      _mm_storeu_ps(&e[l + 4]->range, _mm256_extractf128_ps(out[l], 1));
    }
  }
  return k;
}
#endif

static sensim_status lidar_noise_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  const lidar_noise *g = user;
  if (f->type != SENSIM_PAYLOAD_BEAMS || (f->count && !f->data))
    return sensim__fail(SENSIM_ETYPE, "lidar_noise: frame holds no beams");
  const size_t R = f->returns ? f->returns : 1;
  if (f->count % R)
    return sensim__fail(SENSIM_EINVAL, "lidar_noise: %zu beams are not a whole number of firings of %zu returns",
                        f->count, R);
  sensim_beam *b = f->data;
  float z[2 * CHUNK];
  if (R == 1) { /* one return per firing: blocks of CHUNK / 2 beams need at most CHUNK pairs */
    uint16_t ix[CHUNK / 2];
    for (size_t i0 = 0; i0 < f->count; i0 += CHUNK / 2) {
      const size_t m = f->count - i0 < CHUNK / 2 ? f->count - i0 : CHUNK / 2;
      sensim_beam *x = b + i0;
      size_t hits = 0;
      for (size_t k = 0; k < m; k++) { /* the hits' places, listed without a branch */
        ix[hits] = (uint16_t)k;
        hits += x[k].range > 0;
      }
      sensim_rng_normal2f_n(&ctx->rng, z, 2 * hits);
      size_t k = 0;
#if defined(SENSIM_HAVE_AVX2_PATHS)
      if (sensim__cpu_has_avx2()) k = perturb_hits8(g, x, ix, hits, z);
#endif
      for (; k < hits; k++) perturb(g, &x[ix[k]], z[4 * k], z[4 * k + 1], z[4 * k + 2], z[4 * k + 3]);
    }
    return SENSIM_OK;
  }
  for (size_t i = 0; i < f->count;) {
    size_t pairs = 0, end = i;
    for (; end < f->count; end += R) {
      size_t need = pairs_of(&b[end], R);
      if (pairs + need > CHUNK) break;
      pairs += need;
    }
    if (end == i) { /* one firing of CHUNK or more returns: pair by pair */
      float p[2], q[2];
      sensim_rng_normal2f_n(&ctx->rng, p, 1);
      for (size_t r = 0; r < R; r++) {
        if (!(b[i + r].range > 0)) continue;
        sensim_rng_normal2f_n(&ctx->rng, q, 1);
        perturb(g, &b[i + r], p[0], p[1], q[0], q[1]);
      }
      i += R;
      continue;
    }
    sensim_rng_normal2f_n(&ctx->rng, z, pairs);
    const float *zi = z;
    for (; i < end; i += R) {
      if (!pairs_of(&b[i], R)) continue;
      const float na = zi[0], ne = zi[1];
      zi += 2;
      for (size_t r = 0; r < R; r++) {
        if (!(b[i + r].range > 0)) continue;
        perturb(g, &b[i + r], na, ne, zi[0], zi[1]);
        zi += 2;
      }
    }
  }
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_lidar_noise = {
    .def = {.name = "lidar_noise",
            .in = SENSIM_PAYLOAD_BEAMS,
            .out = SENSIM_PAYLOAD_BEAMS,
            .init = NULL,
            .apply = lidar_noise_apply,
            .destroy = free},
    .create = lidar_noise_create,
    .accepts = NULL};
