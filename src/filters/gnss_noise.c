/* filters/gnss_noise.c: "gnss_noise", gnss -> gnss.
 *
 * Additive Gaussian position error in the local ENU frame, independent per
 * axis and per fix: enu' = enu + mean + sigma * n, n ~ N(0, I). This is the
 * usual first-order model of a stand-alone receiver's position error
 * (Kaplan & Hegarty, "Understanding GPS/GNSS", 3rd ed., 2017: error = UERE x
 * DOP, taken Gaussian; VDOP usually exceeds the horizontal DOPs, hence the
 * larger default up sigma). Latitude, longitude and height are
 * recomputed from the noisy ENU position with the frame's origin, and
 * diag(reported_sigma^2), m^2, is added to the reported covariance (zero
 * from the receiver, so it is diag(sigma^2) by default unless another error
 * filter ran before: independent errors add their covariances).
 * reported_sigma defaults to sigma (the receiver reports its true error);
 * 0 models a receiver that reports no covariance, as in the "no covariance"
 * variants of the VEPD study (Mahajan et al., arXiv:2403.11000, 2024). The velocity is left
 * exact. Each fix's draws come from the filter context's stream, so errors
 * are white from fix to fix. A fix without a solution (fix_type 0, e.g.
 * after "gnss_outage") is passed on unchanged. */
#include <stdlib.h>
#include "filters/gnss_common.h"

typedef struct gnss_noise {
  double sigma[3]; /* std dev east, north, up, m */
  double mean[3];  /* bias east, north, up, m */
  double rep[3];   /* reported std dev east, north, up, m */
} gnss_noise;

static sensim_status gnss_noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"sigma", "mean", "reported_sigma", NULL};
  gnss_noise cfg = {{1.0, 1.0, 2.0}, {0.0, 0.0, 0.0}, {NAN, NAN, NAN}};
  sensim_status st = sensim__param_only(params, "gnss_noise", known);
  if (st != SENSIM_OK) return st;
  st = sensim__param_vec3(params, "sigma", cfg.sigma);
  if (st != SENSIM_OK) return st;
  st = sensim__param_vec3(params, "mean", cfg.mean);
  if (st != SENSIM_OK) return st;
  st = sensim__gnss_param_axes(params, "reported_sigma", cfg.rep);
  if (st != SENSIM_OK) return st;
  for (int i = 0; i < 3; i++) {
    if (!isfinite(cfg.sigma[i]) || cfg.sigma[i] < 0.0)
      return sensim__fail(SENSIM_EINVAL, "gnss_noise: sigma[%d] = %g must be finite and >= 0", i,
                          cfg.sigma[i]);
    if (!isfinite(cfg.mean[i]))
      return sensim__fail(SENSIM_EINVAL, "gnss_noise: mean[%d] = %g must be finite", i,
                          cfg.mean[i]);
    if (isnan(cfg.rep[i])) cfg.rep[i] = cfg.sigma[i];
    if (!(cfg.rep[i] >= 0.0))
      return sensim__fail(SENSIM_EINVAL, "gnss_noise: reported_sigma[%d] = %g m must be >= 0", i,
                          cfg.rep[i]);
  }
  gnss_noise *g = malloc(sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "gnss_noise: out of memory");
  *g = cfg;
  *user = g;
  return SENSIM_OK;
}

static sensim_status gnss_noise_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  const gnss_noise *g = user;
  sensim_gnss_fix *fix = sensim__gnss_fix_of(frame, "gnss_noise");
  if (!fix) return SENSIM_ETYPE;
  if (fix->fix_type == 0) return SENSIM_OK;
  double var[3];
  for (int i = 0; i < 3; i++) {
    fix->enu[i] += g->mean[i] + g->sigma[i] * sensim_rng_normal(&ctx->rng);
    var[i] = g->rep[i] * g->rep[i];
  }
  sensim__gnss_update_geodetic(fix);
  sensim__gnss_add_cov_diag(fix, var);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_gnss_noise = {
    .def = {.name = "gnss_noise",
            .in = SENSIM_PAYLOAD_GNSS,
            .out = SENSIM_PAYLOAD_GNSS,
            .init = NULL,
            .apply = gnss_noise_apply,
            .destroy = free},
    .create = gnss_noise_create,
};
