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
 * returns in return order. The four are drawn whatever the sigmas (a zero
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
} lidar_noise;

/* Smallest range a noisy return keeps, m: pushing a return to zero would
 * turn it into a miss and make the point count depend on the noise level. */
#define MIN_RANGE 1e-3

static sensim_status lidar_noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"sigma_range", "sigma_azimuth", "sigma_elevation", "sigma_intensity",
                                       "intensity_bits", NULL};
  const double deg = M_PI / 180.0;
  lidar_noise cfg = {0.015, 0.01 * deg, 0.01 * deg, 0.0, 0.0};
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

static sensim_status lidar_noise_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  const lidar_noise *g = user;
  if (f->type != SENSIM_PAYLOAD_BEAMS || (f->count && !f->data))
    return sensim__fail(SENSIM_ETYPE, "lidar_noise: frame holds no beams");
  const size_t R = f->returns ? f->returns : 1;
  if (f->count % R)
    return sensim__fail(SENSIM_EINVAL, "lidar_noise: %zu beams are not a whole number of firings of %zu returns",
                        f->count, R);
  sensim_beam *b = f->data;
  for (size_t i = 0; i < f->count; i += R) {
    int any = 0;
    for (size_t r = 0; r < R; r++) any |= b[i + r].range > 0;
    if (!any) continue;
    float na, ne;
    sensim_rng_normal2f(&ctx->rng, &na, &ne);
    for (size_t r = 0; r < R; r++) {
      sensim_beam *x = &b[i + r];
      if (!(x->range > 0)) continue;
      float nr, ni;
      sensim_rng_normal2f(&ctx->rng, &nr, &ni);
      double range = x->range + g->sigma_range * nr;
      double in = x->intensity + g->sigma_intensity * ni;
      x->range = (float)(range > MIN_RANGE ? range : MIN_RANGE);
      in = in < 0.0 ? 0.0 : in > 1.0 ? 1.0 : in;
      /* The lidar generator's quantiser (sensors/lidar.c): round to nearest. */
      if (g->qmax > 0) in = nearbyint(in * g->qmax) / g->qmax;
      x->intensity = (float)in;
      x->azimuth = (float)(x->azimuth + g->sigma_azimuth * na);
      x->elevation = (float)(x->elevation + g->sigma_elevation * ne);
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
