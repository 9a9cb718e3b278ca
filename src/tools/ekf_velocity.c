/* tools/ekf_velocity.c: the VEPD judge, an extended Kalman filter that fuses
 * IMU longitudinal acceleration and yaw rate with GNSS positions into a
 * planar vehicle's velocity.
 *
 * State x = [e, n, psi, v]: east and north position (m), heading
 * counter-clockwise from east (rad), speed along the heading (m/s): the
 * kinematic unicycle, which fits a car's reference point when it does not
 * slip sideways. Inputs u = [a, w]: the accelerometer's x reading (specific
 * force along the heading; on level ground the gravity term is on z) and
 * the gyroscope's z reading. Continuous model:
 *   de/dt = v cos psi, dn/dt = v sin psi, dpsi/dt = w, dv/dt = a.
 * Discretised over dt with the inputs held, by the midpoint rule (local
 * error O(dt^3)), steps of at most MAX_STEP:
 *   psi_m = psi + w dt/2,  v_m = v + a dt/2
 *   e' = e + v_m dt cos psi_m,  n' = n + v_m dt sin psi_m
 *   psi' = psi + w dt,          v' = v + a dt
 * Jacobians (S. Thrun, W. Burgard, D. Fox, "Probabilistic Robotics", MIT
 * Press 2005, table 3.3 and sec. 7.4: F = dg/dx, V = dg/du):
 *   F = I + [0 0 -v_m dt s  dt c ; 0 0 v_m dt c  dt s ; 0 0 0 0 ; 0 0 0 0]
 *   V = [dt^2/2 c  -v_m dt^2/2 s ; dt^2/2 s  v_m dt^2/2 c ; 0 dt ; dt 0]
 * with c = cos psi_m, s = sin psi_m. Process noise: the inputs carry white
 * noise of densities q_a, q_w, i.e. variance q^2 / dt when held over dt, so
 * Q = V diag(q_a^2, q_w^2) / dt V^T + diag(q_p^2 dt, q_p^2 dt, 0, 0), the
 * last term for unmodelled position motion (slip, lever arm). This keeps
 * var(v) growing as q_a^2 t however the steps are cut.
 * Measurement: z = [e, n] + r, H = [I2 0], r ~ N(0, R) with R the
 * receiver's reported east/north covariance block when it reports one,
 * else gnss_sigma^2 I. Update in Joseph form, which stays symmetric
 * positive definite under rounding (D. Simon, "Optimal State Estimation",
 * Wiley 2006, eq. 5.19). */
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

#define MAX_STEP 0.01 /* s: midpoint-rule steps; heading error w^2 v dt^3 / 24 per step */

struct sensim_ekf {
  sensim_ekf_params p;
  int started;
  double t;      /* s, time of x and P */
  double x[4];
  double P[16];
  double a, w;   /* held inputs, m/s^2 and rad/s */
  double t_in;   /* time of the last input (before the start: latest seen) */
  int have_in;
};

void sensim_ekf_params_init(sensim_ekf_params *p) {
  if (!p) return;
  p->accel_noise = 0.1;
  p->gyro_noise = 0.01;
  p->pos_noise = 0.01;
  p->gnss_sigma = 0.05;
  p->init_sigma_psi = 0.1;
  p->init_sigma_v = 0.2;
  p->output_rate = 35.0;
}

static sensim_status check_params(const sensim_ekf_params *p) {
  if (!p) return sensim_error_set(SENSIM_EINVAL, "ekf: NULL params");
  const double v[7] = {p->accel_noise, p->gyro_noise, p->pos_noise, p->gnss_sigma,
                       p->init_sigma_psi, p->init_sigma_v, p->output_rate};
  static const char *const names[7] = {"accel_noise", "gyro_noise", "pos_noise", "gnss_sigma",
                                       "init_sigma_psi", "init_sigma_v", "output_rate"};
  for (int i = 0; i < 7; i++) {
    int positive = i >= 3; /* noises may be 0, sigmas and the rate not */
    if (!isfinite(v[i]) || v[i] < 0.0 || (positive && v[i] == 0.0))
      return sensim_error_set(SENSIM_EINVAL, "ekf: %s = %g must be finite and %s", names[i], v[i],
                          positive ? "> 0" : ">= 0");
  }
  return SENSIM_OK;
}

sensim_status sensim_ekf_create(const sensim_ekf_params *p, sensim_ekf **out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "ekf: NULL out");
  sensim_status st = check_params(p);
  if (st != SENSIM_OK) return st;
  sensim_ekf *k = calloc(1, sizeof *k);
  if (!k) return sensim_error_set(SENSIM_ENOMEM, "ekf: out of memory");
  k->p = *p;
  k->t_in = -INFINITY;
  *out = k;
  return SENSIM_OK;
}

void sensim_ekf_destroy(sensim_ekf *ekf) { free(ekf); }

int sensim_ekf_started(const sensim_ekf *ekf) { return ekf && ekf->started; }

static double wrap_pi(double a) {
  a = fmod(a, 2.0 * M_PI);
  if (a > M_PI) a -= 2.0 * M_PI;
  if (a <= -M_PI) a += 2.0 * M_PI;
  return a;
}

sensim_status sensim_ekf_init(sensim_ekf *ekf, double t, const double x[4],
                              const double sigma[4]) {
  if (!ekf || !x || !sigma) return sensim_error_set(SENSIM_EINVAL, "ekf init: NULL argument");
  if (!isfinite(t)) return sensim_error_set(SENSIM_EINVAL, "ekf init: time %g", t);
  for (int i = 0; i < 4; i++)
    if (!isfinite(x[i]) || !isfinite(sigma[i]) || !(sigma[i] > 0.0))
      return sensim_error_set(SENSIM_EINVAL, "ekf init: x[%d] = %g, sigma[%d] = %g (finite, > 0)", i,
                          x[i], i, sigma[i]);
  memset(ekf->P, 0, sizeof ekf->P);
  for (int i = 0; i < 4; i++) {
    ekf->x[i] = x[i];
    ekf->P[5 * i] = sigma[i] * sigma[i];
  }
  ekf->x[2] = wrap_pi(ekf->x[2]);
  ekf->t = t;
  ekf->started = 1;
  return SENSIM_OK;
}

/* C = A B for 4 x 4 row-major (C distinct from A and B). */
static void mul4(const double *A, const double *B, double *C) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double s = 0.0;
      for (int k = 0; k < 4; k++) s += A[4 * i + k] * B[4 * k + j];
      C[4 * i + j] = s;
    }
}

/* One midpoint step of dt > 0 with the held inputs. */
static void step(sensim_ekf *k, double dt) {
  double a = k->have_in ? k->a : 0.0, w = k->have_in ? k->w : 0.0;
  double psi_m = k->x[2] + 0.5 * w * dt, v_m = k->x[3] + 0.5 * a * dt;
  double c = cos(psi_m), s = sin(psi_m);
  k->x[0] += v_m * dt * c;
  k->x[1] += v_m * dt * s;
  k->x[2] = wrap_pi(k->x[2] + w * dt);
  k->x[3] += a * dt;

  double F[16] = {1, 0, -v_m * dt * s, dt * c, 0, 1, v_m * dt * c, dt * s,
                  0, 0, 1, 0,                   0, 0, 0, 1};
  const double V[8] = {0.5 * dt * dt * c, -0.5 * v_m * dt * dt * s,
                       0.5 * dt * dt * s, 0.5 * v_m * dt * dt * c,
                       0.0,               dt,
                       dt,                0.0};
  const double M[2] = {k->p.accel_noise * k->p.accel_noise / dt,
                       k->p.gyro_noise * k->p.gyro_noise / dt};
  double FP[16], Ft[16], P[16];
  mul4(F, k->P, FP);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) Ft[4 * i + j] = F[4 * j + i];
  mul4(FP, Ft, P);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      P[4 * i + j] += V[2 * i] * M[0] * V[2 * j] + V[2 * i + 1] * M[1] * V[2 * j + 1];
  double qp = k->p.pos_noise * k->p.pos_noise * dt;
  P[0] += qp;
  P[5] += qp;
  for (int i = 0; i < 4; i++) /* keep exact symmetry */
    for (int j = i + 1; j < 4; j++) P[4 * i + j] = P[4 * j + i] = 0.5 * (P[4 * i + j] + P[4 * j + i]);
  memcpy(k->P, P, sizeof P);
}

static sensim_status propagate(sensim_ekf *k, double t, const char *what) {
  if (!isfinite(t)) return sensim_error_set(SENSIM_EINVAL, "ekf %s: time %g", what, t);
  if (t < k->t)
    return sensim_error_set(SENSIM_ESTATE, "ekf %s: time %.9g is before the filter's %.9g", what, t,
                        k->t);
  double span = t - k->t;
  if (span > 0.0) {
    size_t n = (size_t)ceil(span / MAX_STEP);
    for (size_t i = 0; i < n; i++) step(k, span / (double)n);
  }
  k->t = t;
  return SENSIM_OK;
}

sensim_status sensim_ekf_imu(sensim_ekf *ekf, double t, double accel_x, double gyro_z) {
  if (!ekf) return sensim_error_set(SENSIM_EINVAL, "ekf imu: NULL filter");
  if (!isfinite(t) || !isfinite(accel_x) || !isfinite(gyro_z))
    return sensim_error_set(SENSIM_EINVAL, "ekf imu: t %g, accel %g, gyro %g must be finite", t,
                        accel_x, gyro_z);
  if (t < ekf->t_in)
    return sensim_error_set(SENSIM_ESTATE, "ekf imu: time %.9g before the previous sample's %.9g", t,
                        ekf->t_in);
  if (ekf->started) {
    /* The sample averages its window ending at t, so it drives (t_prev, t]. */
    double a0 = ekf->a, w0 = ekf->w;
    int h0 = ekf->have_in;
    ekf->a = accel_x;
    ekf->w = gyro_z;
    ekf->have_in = 1;
    sensim_status st = propagate(ekf, t, "imu");
    if (st != SENSIM_OK) {
      ekf->a = a0;
      ekf->w = w0;
      ekf->have_in = h0;
      return st;
    }
  }
  ekf->a = accel_x;
  ekf->w = gyro_z;
  ekf->have_in = 1;
  ekf->t_in = t;
  return SENSIM_OK;
}

/* East/north covariance block of the fix, or the default. */
static sensim_status fix_R(const sensim_ekf *k, const sensim_gnss_fix *f, double R[4]) {
  const double *c = f->cov_enu;
  if (c[0] == 0.0 && c[1] == 0.0 && c[3] == 0.0 && c[4] == 0.0) {
    double s2 = k->p.gnss_sigma * k->p.gnss_sigma;
    R[0] = R[3] = s2;
    R[1] = R[2] = 0.0;
    return SENSIM_OK;
  }
  R[0] = c[0];
  R[1] = R[2] = 0.5 * (c[1] + c[3]);
  R[3] = c[4];
  double det = R[0] * R[3] - R[1] * R[2];
  if (!isfinite(det) || !(R[0] > 0.0) || !(R[3] > 0.0) || !(det > 0.0))
    return sensim_error_set(SENSIM_EINVAL,
                        "ekf gnss: reported covariance [%g %g; %g %g] is not positive definite",
                        c[0], c[1], c[3], c[4]);
  return SENSIM_OK;
}

sensim_status sensim_ekf_gnss(sensim_ekf *ekf, double t, const sensim_gnss_fix *fix) {
  if (!ekf || !fix) return sensim_error_set(SENSIM_EINVAL, "ekf gnss: NULL argument");
  if (fix->fix_type == 0) return SENSIM_OK;
  if (!isfinite(t) || !isfinite(fix->enu[0]) || !isfinite(fix->enu[1]))
    return sensim_error_set(SENSIM_EINVAL, "ekf gnss: t %g, east %g, north %g must be finite", t,
                        fix->enu[0], fix->enu[1]);
  double R[4];
  sensim_status st = fix_R(ekf, fix, R);
  if (st != SENSIM_OK) return st;
  if (!ekf->started) {
    double ve = fix->vel_enu[0], vn = fix->vel_enu[1];
    if (!isfinite(ve) || !isfinite(vn))
      return sensim_error_set(SENSIM_EINVAL, "ekf gnss: first fix's velocity is not finite");
    double v = hypot(ve, vn);
    double x[4] = {fix->enu[0], fix->enu[1], v > 0.0 ? atan2(vn, ve) : 0.0, v};
    double sig[4] = {sqrt(R[0]), sqrt(R[3]), v > 0.0 ? ekf->p.init_sigma_psi : M_PI,
                     ekf->p.init_sigma_v};
    st = sensim_ekf_init(ekf, t, x, sig);
    if (st == SENSIM_OK) ekf->P[1] = ekf->P[4] = R[1];
    return st;
  }
  st = propagate(ekf, t, "gnss");
  if (st != SENSIM_OK) return st;
  /* S = H P H^T + R, K = P H^T S^-1 (4 x 2). */
  double *P = ekf->P;
  double S[4] = {P[0] + R[0], P[1] + R[1], P[4] + R[2], P[5] + R[3]};
  double det = S[0] * S[3] - S[1] * S[2];
  double Si[4] = {S[3] / det, -S[1] / det, -S[2] / det, S[0] / det};
  double K[8];
  for (int i = 0; i < 4; i++) {
    K[2 * i] = P[4 * i] * Si[0] + P[4 * i + 1] * Si[2];
    K[2 * i + 1] = P[4 * i] * Si[1] + P[4 * i + 1] * Si[3];
  }
  double y[2] = {fix->enu[0] - ekf->x[0], fix->enu[1] - ekf->x[1]};
  for (int i = 0; i < 4; i++) ekf->x[i] += K[2 * i] * y[0] + K[2 * i + 1] * y[1];
  ekf->x[2] = wrap_pi(ekf->x[2]);
  /* Joseph form: P = (I - K H) P (I - K H)^T + K R K^T. */
  double A[16], AP[16], At[16], Pn[16];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      A[4 * i + j] = (i == j) - (j < 2 ? K[2 * i + j] : 0.0);
  mul4(A, P, AP);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) At[4 * i + j] = A[4 * j + i];
  mul4(AP, At, Pn);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      Pn[4 * i + j] += K[2 * i] * (R[0] * K[2 * j] + R[1] * K[2 * j + 1]) +
                       K[2 * i + 1] * (R[2] * K[2 * j] + R[3] * K[2 * j + 1]);
  memcpy(ekf->P, Pn, sizeof Pn);
  return SENSIM_OK;
}

sensim_status sensim_ekf_estimate(sensim_ekf *ekf, double t, sensim_ekf_state *out) {
  if (!ekf || !out) return sensim_error_set(SENSIM_EINVAL, "ekf estimate: NULL argument");
  if (!ekf->started) return sensim_error_set(SENSIM_ESTATE, "ekf estimate: no fix yet");
  sensim_status st = propagate(ekf, t, "estimate");
  if (st != SENSIM_OK) return st;
  out->t = ekf->t;
  memcpy(out->x, ekf->x, sizeof out->x);
  memcpy(out->P, ekf->P, sizeof out->P);
  out->vel[0] = ekf->x[3] * cos(ekf->x[2]);
  out->vel[1] = ekf->x[3] * sin(ekf->x[2]);
  return SENSIM_OK;
}

static sensim_status check_sorted(const double *t, size_t n, size_t stride, const char *what) {
  for (size_t i = 0; i < n; i++) {
    double ti = *(const double *)((const char *)t + i * stride);
    double tp = i ? *(const double *)((const char *)t + (i - 1) * stride) : -INFINITY;
    if (!isfinite(ti) || ti < tp)
      return sensim_error_set(SENSIM_EINVAL, "ekf run: %s time %zu = %g is not finite and sorted",
                          what, i, ti);
  }
  return SENSIM_OK;
}

sensim_status sensim_ekf_run(const sensim_ekf_params *p, const sensim_ekf_imu_input *imu,
                             size_t nimu, const sensim_ekf_gnss_input *gnss, size_t ngnss,
                             sensim_ekf_state **out, size_t *nout) {
  if (!out || !nout) return sensim_error_set(SENSIM_EINVAL, "ekf run: NULL out");
  if ((nimu && !imu) || (ngnss && !gnss))
    return sensim_error_set(SENSIM_EINVAL, "ekf run: NULL input array");
  sensim_status st = check_sorted(nimu ? &imu[0].t : NULL, nimu, sizeof *imu, "imu");
  if (st == SENSIM_OK) st = check_sorted(ngnss ? &gnss[0].t : NULL, ngnss, sizeof *gnss, "gnss");
  sensim_ekf *k = NULL;
  if (st == SENSIM_OK) st = sensim_ekf_create(p, &k);
  if (st != SENSIM_OK) return st;
  double t_end = -INFINITY;
  if (nimu) t_end = imu[nimu - 1].t;
  if (ngnss && gnss[ngnss - 1].t > t_end) t_end = gnss[ngnss - 1].t;
  sensim_ekf_state *est = NULL;
  size_t n = 0, cap = 0, i = 0, g = 0, j = 0;
  double t0 = 0.0, dt_out = 1.0 / p->output_rate;
  while (st == SENSIM_OK) {
    double ti = i < nimu ? imu[i].t : INFINITY, tg = g < ngnss ? gnss[g].t : INFINITY;
    double to = k->started ? t0 + (double)j * dt_out : INFINITY;
    if (to > t_end) to = INFINITY;
    if (ti == INFINITY && tg == INFINITY && to == INFINITY) break;
    if (ti <= tg && ti <= to) {
      st = sensim_ekf_imu(k, ti, imu[i].accel_x, imu[i].gyro_z);
      if (st != SENSIM_OK) sensim_error_prefix("ekf run: imu sample %zu", i);
      i++;
    } else if (tg <= to) {
      int was = k->started;
      st = sensim_ekf_gnss(k, tg, &gnss[g].fix);
      if (st != SENSIM_OK) sensim_error_prefix("ekf run: gnss fix %zu", g);
      if (!was && k->started) t0 = tg;
      g++;
    } else {
      st = sensim_tools__grow((void **)&est, &cap, n + 1, sizeof *est);
      if (st == SENSIM_OK) st = sensim_ekf_estimate(k, to, &est[n]);
      if (st == SENSIM_OK) n++;
      j++;
    }
  }
  sensim_ekf_destroy(k);
  if (st != SENSIM_OK) {
    free(est);
    return st;
  }
  *out = est;
  *nout = n;
  return SENSIM_OK;
}
