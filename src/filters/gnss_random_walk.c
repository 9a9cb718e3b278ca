/* filters/gnss_random_walk.c: "gnss_random_walk", gnss -> gnss.
 *
 * A slowly wandering position error, as a receiver shows at standstill: the
 * error's acceleration is white, a ~ N(mu, Sigma_a), drawn once per step of
 * the noise model's own clock (rate f, steps t_j = t_0 + j / f from the
 * first fix) and integrated twice, exactly for an acceleration held over
 * the step dt = 1 / f:
 *   e_{j+1} = e_j + v_j dt + a_j dt^2 / 2,   v_{j+1} = v_j + a_j dt
 * (an integrated random walk, the discretised "random acceleration"
 * process: Bar-Shalom, Li & Kirubarajan, "Estimation with Applications to
 * Tracking and Navigation", 2001, sec. 6.3.3, white noise acceleration held
 * over the step). Each fix adds the error at the last model step at or
 * before its capture time (the receiver samples the process). Between two
 * fixes the filter runs every model step, so the statistics depend on f and
 * Sigma_a only, not on the fix rate.
 *
 * Bound: the error is held within |e_i| <= max_i per ENU axis (a box, not a
 * ball: the horizontal and vertical errors of receivers are specified
 * separately, and per-axis limits keep the axes independent when Sigma_a is
 * diagonal). When a step crosses the bound the error is clamped to it and
 * the velocity component is either zeroed ("stop", the default: an
 * inelastic wall) or reversed ("reflect": a specular, elastic wall). "stop"
 * is the default because with "reflect" no energy ever leaves the walk:
 * E[v^2] grows by tr(Sigma_a) dt^2 per step without bound, so over a long
 * run the error becomes a fast zigzag between the walls, white at the fix
 * rate; "stop" resets the velocity at each contact, so the velocity stays of
 * the order reached while crossing the box and the error keeps wandering.
 *
 * Pull-back ("pullback" k, 1/s^2 per ENU axis, default 0): the
 * acceleration's mean is pulled toward the truth in proportion to the
 * error, a ~ N(mu - k e, Sigma_a), as in the random-walk GNSS model of the
 * study sensim's VEPD experiment reproduces (I. Mahajan et al.,
 * "Quantifying the Sim2real Gap for GPS and IMU Sensors", arXiv:2403.11000,
 * 2024; docs/gnss.md). k is a spring constant per unit mass, omega0^2, so
 * it keeps its meaning whatever the model rate (a per-step fraction would
 * not). The pull acts on the error as it moves through the step, the rest
 * of a held over the step, and the step is the exact solution of
 * e'' = -k e + a (the zero-order-hold discretisation Phi = exp(A dt),
 * Gamma = int_0^dt exp(A s) ds B: Franklin, Powell & Workman, "Digital
 * Control of Dynamic Systems", 3rd ed., 1998, ch. 4), with w = sqrt(k),
 * th = w dt:
 *   e' = cos(th) e + sin(th)/w v + 2 sin^2(th/2)/w^2 a
 *   v' = -w sin(th) e + cos(th) v + sin(th)/w a
 * which is the double integration above as k -> 0 (k = 0 runs that code,
 * bit for bit). Holding the pull -k e_j from the step's start instead would
 * make the step's matrix [[1 - k dt^2/2, dt], [-k dt, 1]] of determinant
 * 1 + k dt^2 / 2 > 1: an oscillation that grows by itself, an artefact of
 * the discretisation. The pulled walk is an undamped oscillator driven by
 * white noise: its mean, from rest, is (mu / k)(1 - cos(w t)), and its
 * variance grows without limit (no damping removes energy), so the bound
 * still holds it; the pull centres it on mu / k (tests/gnss/noise_model_tests.c).
 *
 * Published pull-back ("pullback_ratio" g, m/s^2 per ENU axis, default 0):
 * the rule of the study itself, a nudge of -g p / p_max added to the
 * step's acceleration draw, p the error at the step's start and p_max the
 * bound (max_error), so the nudge is g at the wall and scales with the
 * fraction of the bound used (the study defines the pull by that ratio;
 * the bound keeps |p / p_max| <= 1). It is held over the step, as the
 * study's discrete update does: e' = e + v dt + a dt^2 / 2,
 * v' = v + a dt with a = draw - g e / p_max. That is the linear pull with
 * k = g / p_max held from the step's start, whose step matrix has
 * determinant 1 + k dt^2 / 2 (the growth the exact "pullback" avoids); at
 * the study's scales (k ~ 1 / s^2, dt = 0.01 s) that is a factor
 * exp(k dt t / 4) = 1.05 over 20 s, and the bound holds the error anyway.
 * "pullback" and "pullback_ratio" exclude each other per axis; with
 * max_error 0 on an axis there is no error to pull and the ratio is 0.
 *
 * Reported covariance: diag(reported_sigma^2) is added to the fix's
 * (default reported_sigma = max / sqrt(3), the standard deviation of a
 * uniform distribution over [-max, max], a stated approximation of the
 * bounded walk's spread). The velocity is left exact (receivers measure it
 * from Doppler, independent of the position error). Fixes without a solution
 * (fix_type 0) are passed on unchanged, but the walk keeps running. */
#include <stdlib.h>
#include "filters/gnss_common.h"

typedef struct gnss_rw {
  double rate;       /* noise-model rate, Hz */
  double mean[3];    /* mu, m/s^2 */
  double chol[9];    /* lower-triangular L, L L^T = Sigma_a, row-major, m/s^2 */
  double max[3];     /* bound per ENU axis, m */
  double rep_var[3]; /* variance added to the reported covariance, m^2 */
  int pulled[3];     /* 1 where the pull-back k > 0 */
  double ratio[3];   /* published pull g / p_max, 1/s^2 (0: none) */
  double phi[3][4];  /* exact step per axis: e' = phi0 e + phi1 v + g0 a, v' = phi2 e + phi3 v + g1 a */
  double gam[3][2];  /* (g0, m/(m/s^2), g1, s) */
  int reflect;       /* 1: reverse the velocity at the bound; 0: zero it */
  int started;       /* 0 until the first fix */
  double t0;         /* time of model step 0, s */
  uint64_t step;     /* index j of the last model step taken */
  double err[3];     /* position error, m */
  double vel[3];     /* error velocity, m/s */
} gnss_rw;

/* Cholesky factor of a symmetric positive semidefinite 3 x 3 matrix (zero
 * pivots allowed: a degenerate Sigma_a is legitimate). */
static sensim_status chol3(const double a[9], double l[9]) {
  double scale = 0.0;
  for (int i = 0; i < 3; i++) scale = fmax(scale, fabs(a[4 * i]));
  double tol = 1e-12 * scale;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < i; j++)
      if (fabs(a[3 * i + j] - a[3 * j + i]) > tol + 1e-12 * fabs(a[3 * i + j]))
        return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: accel_cov is not symmetric");
  memset(l, 0, 9 * sizeof *l);
  for (int j = 0; j < 3; j++) {
    double d = a[4 * j];
    for (int k = 0; k < j; k++) d -= l[3 * j + k] * l[3 * j + k];
    if (d < -tol)
      return sensim__fail(SENSIM_EINVAL,
                          "gnss_random_walk: accel_cov is not positive semidefinite");
    for (int i = j + 1; i < 3; i++) {
      double r = a[3 * i + j];
      for (int k = 0; k < j; k++) r -= l[3 * i + k] * l[3 * j + k];
      if (d <= tol) {
        if (fabs(r) > tol)
          return sensim__fail(SENSIM_EINVAL,
                              "gnss_random_walk: accel_cov is not positive semidefinite");
        continue;
      }
      l[3 * i + j] = r / sqrt(d);
    }
    l[4 * j] = d > tol ? sqrt(d) : 0.0;
  }
  return SENSIM_OK;
}

static sensim_status read_cov(const cJSON *params, double cov[9]) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(params, "accel_cov");
  if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 9)
    return sensim__fail(SENSIM_EINVAL,
                        "gnss_random_walk: accel_cov must be 9 numbers (3 x 3, row-major), "
                        "(m/s^2)^2");
  for (int i = 0; i < 9; i++) {
    const cJSON *e = cJSON_GetArrayItem(it, i);
    if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
      return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: accel_cov[%d] must be finite", i);
    cov[i] = e->valuedouble;
  }
  return SENSIM_OK;
}

static sensim_status rw_create(const cJSON *params, void **user) {
  static const char *const known[] = {"rate",  "accel_mean",     "accel_sigma", "accel_cov",
                                      "max_error", "reported_sigma", "bound",    "pullback",
                                      "pullback_ratio", NULL};
  gnss_rw cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.rate = 100.0;
  double sigma[3] = {0.05, 0.05, 0.05}, maxe[3] = {0.06, 0.06, 0.06}, rep[3] = {NAN, NAN, NAN};
  double cov[9] = {0}, pull[3] = {0.0, 0.0, 0.0}, gpull[3] = {0.0, 0.0, 0.0};
  sensim_status st = sensim__param_only(params, "gnss_random_walk", known);
  if (st == SENSIM_OK) st = sensim__param_number(params, "rate", &cfg.rate);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "accel_mean", cfg.mean);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "accel_sigma", sigma);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "max_error", maxe);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "reported_sigma", rep);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "pullback", pull);
  if (st == SENSIM_OK) st = sensim__gnss_param_axes(params, "pullback_ratio", gpull);
  if (st != SENSIM_OK) return st;
  if (!(cfg.rate > 0.0 && cfg.rate <= 1e5))
    return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: rate = %g Hz must be in (0, 1e5]",
                        cfg.rate);
  for (int i = 0; i < 3; i++) {
    if (!(sigma[i] >= 0.0))
      return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: accel_sigma[%d] = %g must be >= 0", i,
                          sigma[i]);
    if (!(maxe[i] >= 0.0))
      return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: max_error[%d] = %g must be >= 0", i,
                          maxe[i]);
    if (!(pull[i] >= 0.0 && pull[i] <= 1e12))
      return sensim__fail(SENSIM_EINVAL,
                          "gnss_random_walk: pullback[%d] = %g 1/s^2 must be in [0, 1e12]", i,
                          pull[i]);
    if (!(gpull[i] >= 0.0 && gpull[i] <= 1e12))
      return sensim__fail(SENSIM_EINVAL,
                          "gnss_random_walk: pullback_ratio[%d] = %g m/s^2 must be in [0, 1e12]", i,
                          gpull[i]);
    if (gpull[i] > 0.0 && pull[i] > 0.0)
      return sensim__fail(SENSIM_EINVAL,
                          "gnss_random_walk: axis %d has both pullback and pullback_ratio; give one", i);
    if (!isnan(rep[i]) && !(rep[i] >= 0.0))
      return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: reported_sigma[%d] = %g must be >= 0",
                          i, rep[i]);
  }
  const cJSON *jcov = params ? cJSON_GetObjectItemCaseSensitive(params, "accel_cov") : NULL;
  if (jcov) {
    if (cJSON_GetObjectItemCaseSensitive(params, "accel_sigma"))
      return sensim__fail(SENSIM_EINVAL,
                          "gnss_random_walk: give accel_sigma or accel_cov, not both");
    if ((st = read_cov(params, cov)) != SENSIM_OK) return st;
  } else {
    for (int i = 0; i < 3; i++) cov[4 * i] = sigma[i] * sigma[i];
  }
  if ((st = chol3(cov, cfg.chol)) != SENSIM_OK) return st;
  const cJSON *jb = params ? cJSON_GetObjectItemCaseSensitive(params, "bound") : NULL;
  if (jb) {
    static const char *const bounds[] = {"stop", "reflect", NULL};
    char hint[96];
    if (!cJSON_IsString(jb) ||
        (strcmp(jb->valuestring, "stop") != 0 && strcmp(jb->valuestring, "reflect") != 0))
      return sensim__fail(SENSIM_EINVAL, "gnss_random_walk: bound must be \"stop\" or \"reflect\"%s",
                          cJSON_IsString(jb) ? sensim__did_you_mean(hint, sizeof hint, jb->valuestring, bounds) : "");
    cfg.reflect = strcmp(jb->valuestring, "reflect") == 0;
  }
  for (int i = 0; i < 3; i++) {
    cfg.max[i] = maxe[i];
    double r = isnan(rep[i]) ? maxe[i] / sqrt(3.0) : rep[i];
    cfg.rep_var[i] = r * r;
    cfg.ratio[i] = maxe[i] > 0.0 ? gpull[i] / maxe[i] : 0.0;
    if (pull[i] > 0.0) {
      double w = sqrt(pull[i]), th = w / cfg.rate, h = sin(0.5 * th);
      cfg.pulled[i] = 1;
      cfg.phi[i][0] = cos(th);
      cfg.phi[i][1] = sin(th) / w;
      cfg.phi[i][2] = -w * sin(th);
      cfg.phi[i][3] = cos(th);
      cfg.gam[i][0] = 2.0 * h * h / (w * w); /* 1 - cos(th), without its cancellation */
      cfg.gam[i][1] = sin(th) / w;
    }
  }
  gnss_rw *g = malloc(sizeof *g);
  if (!g) return sensim__fail(SENSIM_ENOMEM, "gnss_random_walk: out of memory");
  *g = cfg;
  *user = g;
  return SENSIM_OK;
}

static void rw_step(gnss_rw *g, sensim_rng *rng) {
  double dt = 1.0 / g->rate, n[3], a[3];
  sensim_rng_normal2(rng, &n[0], &n[1]);
  n[2] = sensim_rng_normal(rng);
  for (int i = 0; i < 3; i++)
    a[i] = g->mean[i] + g->chol[3 * i] * n[0] + g->chol[3 * i + 1] * n[1] + g->chol[3 * i + 2] * n[2];
  for (int i = 0; i < 3; i++) {
    double e, v;
    a[i] -= g->ratio[i] * g->err[i];
    if (g->pulled[i]) {
      const double *p = g->phi[i];
      e = p[0] * g->err[i] + p[1] * g->vel[i] + g->gam[i][0] * a[i];
      v = p[2] * g->err[i] + p[3] * g->vel[i] + g->gam[i][1] * a[i];
    } else {
      e = g->err[i] + g->vel[i] * dt + 0.5 * a[i] * dt * dt;
      v = g->vel[i] + a[i] * dt;
    }
    if (e > g->max[i] || e < -g->max[i]) {
      e = e > 0.0 ? g->max[i] : -g->max[i];
      v = g->reflect ? -v : 0.0;
    }
    g->err[i] = e;
    g->vel[i] = v;
  }
}

static sensim_status rw_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  gnss_rw *g = user;
  sensim_gnss_fix *fix = sensim__gnss_fix_of(frame, "gnss_random_walk");
  if (!fix) return SENSIM_ETYPE;
  double t = frame->t_capture;
  if (!g->started) {
    g->started = 1;
    g->t0 = t;
    g->step = 0;
  } else {
    /* Steps are indexed from t0, never accumulated; the 1e-9 slack keeps a
     * step that falls on a capture time (rounding) in that capture. */
    double jt = floor((t - g->t0) * g->rate + 1e-9);
    uint64_t target = jt > 0.0 ? (uint64_t)jt : 0;
    while (g->step < target) {
      rw_step(g, &ctx->rng);
      g->step++;
    }
  }
  if (fix->fix_type == 0) return SENSIM_OK;
  for (int i = 0; i < 3; i++) fix->enu[i] += g->err[i];
  sensim__gnss_update_geodetic(fix);
  sensim__gnss_add_cov_diag(fix, g->rep_var);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_gnss_random_walk = {
    .def = {.name = "gnss_random_walk",
            .in = SENSIM_PAYLOAD_GNSS,
            .out = SENSIM_PAYLOAD_GNSS,
            .init = NULL,
            .apply = rw_apply,
            .destroy = free},
    .create = rw_create,
};
