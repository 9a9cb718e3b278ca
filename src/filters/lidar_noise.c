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
    for (size_t i0 = 0; i0 < f->count; i0 += CHUNK / 2) {
      const size_t m = f->count - i0 < CHUNK / 2 ? f->count - i0 : CHUNK / 2;
      sensim_beam *x = b + i0;
      size_t hits = 0;
      for (size_t k = 0; k < m; k++) hits += x[k].range > 0;
      sensim_rng_normal2f_n(&ctx->rng, z, 2 * hits);
      const float *zi = z;
      for (size_t k = 0; k < m; k++) {
        if (!(x[k].range > 0)) continue;
        perturb(g, &x[k], zi[0], zi[1], zi[2], zi[3]);
        zi += 4;
      }
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
