/* filters/gnss_gauss_markov.c: "gnss_gauss_markov", gnss -> gnss.
 *
 * A slowly varying position bias per ENU axis (orbit, clock and
 * atmospheric residuals): a first-order Gauss-Markov process
 * dx/dt = -x / tau + w, with stationary standard deviation sigma and
 * autocorrelation R(dt) = sigma^2 exp(-|dt| / tau). Between fixes dt apart
 * it is propagated by its exact discretisation
 *   x_{k+1} = e^{-dt/tau} x_k + sigma sqrt(1 - e^{-2 dt/tau}) w_k,  w_k ~ N(0, 1)
 * (Gelb, "Applied Optimal Estimation", 1974, table 3.8-1 and sec. 4.2;
 * Brown & Hwang, "Introduction to Random Signals and Applied Kalman
 * Filtering", 4th ed., 2012, sec. 2.9), so the statistics do not depend on
 * the fix rate, including irregular or dropped fixes. The first fix draws
 * x_0 ~ N(0, sigma^2), so the process is stationary from the start.
 *
 * sigma^2 is added to the reported covariance per axis (the bias's
 * stationary variance). The velocity is left exact. Fixes without a
 * solution (fix_type 0) are passed on unchanged; the process still
 * advances. */
#include <stdlib.h>
#include "filters/gnss_common.h"

typedef struct gnss_gm {
  double tau[3];   /* correlation time per axis, s */
  double sigma[3]; /* stationary standard deviation per axis, m */
  int started;     /* 0 until the first fix */
  double t_last;   /* time of the previous fix, s */
  double x[3];     /* bias, m */
} gnss_gm;

static sensim_status gm_create(const cJSON *params, void **user) {
  static const char *const known[] = {"tau", "sigma", NULL};
  gnss_gm cfg;
  memset(&cfg, 0, sizeof cfg);
  for (int i = 0; i < 3; i++) cfg.tau[i] = 60.0;
  cfg.sigma[0] = cfg.sigma[1] = 0.3;
  cfg.sigma[2] = 0.6;
  sensim_status st = sensim__param_only(params, "gnss_gauss_markov", known);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "tau", cfg.tau);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "sigma", cfg.sigma);
  if (st != SENSIM_OK) return st;
  for (int i = 0; i < 3; i++) {
    if (!(cfg.tau[i] > 0.0))
      return sensim__fail(SENSIM_EINVAL, "gnss_gauss_markov: tau[%d] = %g s must be > 0", i,
                          cfg.tau[i]);
    if (!(cfg.sigma[i] >= 0.0))
      return sensim__fail(SENSIM_EINVAL, "gnss_gauss_markov: sigma[%d] = %g m must be >= 0", i,
                          cfg.sigma[i]);
  }
  gnss_gm *g = malloc(sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "gnss_gauss_markov: out of memory");
  *g = cfg;
  *user = g;
  return SENSIM_OK;
}

static sensim_status gm_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  gnss_gm *g = user;
  sensim_gnss_fix *fix = sensim__gnss_fix_of(frame, "gnss_gauss_markov");
  if (!fix) return SENSIM_ETYPE;
  double t = frame->t_capture;
  if (!g->started) {
    g->started = 1;
    for (int i = 0; i < 3; i++) g->x[i] = g->sigma[i] * sensim_rng_normal(&ctx->rng);
  } else {
    double dt = t > g->t_last ? t - g->t_last : 0.0;
    for (int i = 0; i < 3; i++) {
      double phi = exp(-dt / g->tau[i]);
      /* 1 - e^{-2 dt/tau} as -expm1 keeps precision for dt << tau. */
      double q = g->sigma[i] * sqrt(-expm1(-2.0 * dt / g->tau[i]));
      g->x[i] = phi * g->x[i] + q * sensim_rng_normal(&ctx->rng);
    }
  }
  g->t_last = t;
  if (fix->fix_type == 0) return SENSIM_OK;
  double var[3];
  for (int i = 0; i < 3; i++) {
    fix->enu[i] += g->x[i];
    var[i] = g->sigma[i] * g->sigma[i];
  }
  sensim__gnss_update_geodetic(fix);
  sensim__gnss_add_cov_diag(fix, var);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_gnss_gauss_markov = {
    .def = {.name = "gnss_gauss_markov",
            .in = SENSIM_PAYLOAD_GNSS,
            .out = SENSIM_PAYLOAD_GNSS,
            .init = NULL,
            .apply = gm_apply,
            .destroy = free},
    .create = gm_create,
};
