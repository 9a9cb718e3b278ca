/* filters/gnss_hdop.c: "gnss_hdop", gnss -> gnss.
 *
 * A receiver converging after start-up: it adds no position error but
 * reports a horizontal dilution of precision that starts at H0 and relaxes
 * to H_inf as a first-order low-pass,
 *   H(t + dT) = a H(t) + (1 - a) H_inf,   a = exp(-dT / tau),
 * whose solution from the first fix at t0 is
 *   H(t) = H_inf + (H0 - H_inf) exp(-(t - t0) / tau).
 * The closed form is what is evaluated (it satisfies the recursion for any
 * sequence of dT exactly and accumulates no rounding over long runs).
 *
 * Reported covariance: the error model sigma = UERE x DOP (Kaplan & Hegarty,
 * "Understanding GPS/GNSS", 3rd ed., 2017, sec. 11.2) with a constant k (m)
 * in place of the UERE: (k H)^2 m^2 on each horizontal axis. The vertical
 * follows the same law scaled by a constant ratio, VDOP(t) = r H(t) (the
 * ratio VDOP / HDOP of a fixed constellation geometry; about 1.5 in open
 * sky), with variance (k VDOP)^2; PDOP = sqrt(HDOP^2 + VDOP^2). The
 * covariance is replaced (off-diagonal terms zeroed), not added to: this
 * filter models what the receiver reports, so placed after a noise filter
 * it overrides that filter's covariance (the study's "Gaussian + HDOP" and
 * "random walk + HDOP" variants). fix->hdop, vdop and pdop are set.
 *
 * After a fix without a solution (fix_type 0, e.g. from "gnss_outage"
 * earlier in the chain) the receiver starts over: with reset_on_outage (the
 * default) the next fix restarts at H0. */
#include <stdlib.h>
#include "filters/gnss_common.h"

typedef struct gnss_hdop {
  double h0, h_inf; /* initial and final HDOP */
  double tau;       /* time constant, s */
  double k;         /* m per unit of DOP */
  double vratio;    /* VDOP / HDOP */
  int reset;        /* restart at H0 after a fix without solution */
  int started;      /* 0 until the first fix (or after a reset) */
  double t0;        /* time of the first fix, s */
} gnss_hdop;

static sensim_status hdop_create(const cJSON *params, void **user) {
  static const char *const known[] = {"h0", "h_inf", "tau", "k", "vdop_ratio",
                                      "reset_on_outage", NULL};
  gnss_hdop cfg = {100.0, 1.0, 5.0, 0.02, 1.5, 1, 0, 0.0};
  sensim_status st = sensim__param_only(params, "gnss_hdop", known);
  if (st == SENSIM_OK) st = sensim__param_number(params, "h0", &cfg.h0);
  if (st == SENSIM_OK) st = sensim__param_number(params, "h_inf", &cfg.h_inf);
  if (st == SENSIM_OK) st = sensim__param_number(params, "tau", &cfg.tau);
  if (st == SENSIM_OK) st = sensim__param_number(params, "k", &cfg.k);
  if (st == SENSIM_OK) st = sensim__param_number(params, "vdop_ratio", &cfg.vratio);
  if (st != SENSIM_OK) return st;
  const cJSON *jr = params ? cJSON_GetObjectItemCaseSensitive(params, "reset_on_outage") : NULL;
  if (jr) {
    if (!cJSON_IsBool(jr))
      return sensim__fail(SENSIM_EINVAL, "gnss_hdop: reset_on_outage must be true or false");
    cfg.reset = cJSON_IsTrue(jr);
  }
  if (!(cfg.h0 >= 0.0))
    return sensim__fail(SENSIM_EINVAL, "gnss_hdop: h0 = %g must be >= 0", cfg.h0);
  if (!(cfg.h_inf >= 0.0))
    return sensim__fail(SENSIM_EINVAL, "gnss_hdop: h_inf = %g must be >= 0", cfg.h_inf);
  if (!(cfg.tau > 0.0))
    return sensim__fail(SENSIM_EINVAL, "gnss_hdop: tau = %g s must be > 0", cfg.tau);
  if (!(cfg.k >= 0.0)) return sensim__fail(SENSIM_EINVAL, "gnss_hdop: k = %g m must be >= 0", cfg.k);
  if (!(cfg.vratio >= 0.0))
    return sensim__fail(SENSIM_EINVAL, "gnss_hdop: vdop_ratio = %g must be >= 0", cfg.vratio);
  gnss_hdop *g = malloc(sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "gnss_hdop: out of memory");
  *g = cfg;
  *user = g;
  return SENSIM_OK;
}

static sensim_status hdop_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  (void)ctx;
  gnss_hdop *g = user;
  sensim_gnss_fix *fix = sensim__gnss_fix_of(frame, "gnss_hdop");
  if (!fix) return SENSIM_ETYPE;
  if (fix->fix_type == 0) {
    if (g->reset) g->started = 0;
    return SENSIM_OK;
  }
  if (!g->started) {
    g->started = 1;
    g->t0 = frame->t_capture;
  }
  double h = g->h_inf + (g->h0 - g->h_inf) * exp(-(frame->t_capture - g->t0) / g->tau);
  double v = g->vratio * h;
  fix->hdop = h;
  fix->vdop = v;
  fix->pdop = hypot(h, v);
  memset(fix->cov_enu, 0, sizeof fix->cov_enu);
  fix->cov_enu[0] = fix->cov_enu[4] = (g->k * h) * (g->k * h);
  fix->cov_enu[8] = (g->k * v) * (g->k * v);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_gnss_hdop = {
    .def = {.name = "gnss_hdop",
            .in = SENSIM_PAYLOAD_GNSS,
            .out = SENSIM_PAYLOAD_GNSS,
            .init = NULL,
            .apply = hdop_apply,
            .destroy = free},
    .create = hdop_create,
};
