/* filters/imu_noise.c: "imu_noise", imu -> imu.
 *
 * The inertial error model of IEEE Std 952-1997 (its noise terms and their
 * Allan-variance signatures, Annex C) as summarised by O. Woodman, "An
 * introduction to inertial navigation", UCAM-CL-TR-696 (2007), with the
 * deterministic errors of Titterton & Weston, "Strapdown Inertial
 * Navigation Technology", 2nd ed. (2004), sec. 4.2.3 / 4.3.3 (scale factor,
 * misalignment, fixed bias). Per triad (accelerometer, gyroscope), with x
 * the true reading of sensors/imu.c, in this order:
 *
 *   1. x' = (I + S + M) x              scale factor S = diag(s), misalignment M
 *   2. y_i = x'_i + b_on,i + b_rw,i + b_gm,i + v_i
 *        b_on  turn-on bias, drawn once per run N(0, sigma_on^2) or given
 *        b_rw  bias random walk: b_rw,k = b_rw,k-1 + mu_b + K sqrt(dt_k) w_k,
 *              b_rw,0 = 0 (the increment N(mu_b, (b0 sqrt(dt/t_b))^2)
 *              with K = b0 / sqrt(t_b))
 *        b_gm  first-order Gauss-Markov bias, exact discretisation
 *              b_k = phi b_k-1 + sigma sqrt(1 - phi^2) w_k, phi = exp(-dt/tau),
 *              b_0 ~ N(0, sigma^2) (stationary from the start)
 *              (A. Gelb, "Applied Optimal Estimation", MIT Press 1974, sec. 3.8)
 *        v     white: mu_a + sigma_a w, or mu_a + (N / sqrt(T)) w for a noise
 *              density N averaged over T seconds
 *   3. y_i = q round(y_i / q)          quantisation to the resolution q (mid-tread)
 *   4. y_i = clamp(y_i, -range, range) saturation (the ADC's code range)
 *
 * The sample's accel_var and gyro_var (frame.h) get the variance this
 * filter adds per sample, for the consumers of a per-sample covariance
 * (sensor_msgs/Imu, docs/recording.md): sigma_a^2, or N^2 / T = N^2 f for
 * a density N sampled at f = 1 / T (the discretisation of continuous white
 * noise in IEEE Std 952-1997 Annex C and the Kalibr IMU noise model:
 * sigma_d = sigma_c / sqrt(dt)), plus q^2 / 12 for the quantisation
 * (B. Widrow, I. Kollar, "Quantization Noise", Cambridge 2008, sec. 4.2),
 * and what an earlier filter put there carried through the matrix (diagonal
 * terms: var'_i = sum_j A_ij^2 var_j). The biases are not white and are not
 * included: an estimator carries them as states.
 *
 * Averaging time T: the frame's collection window when it is > 0 (the IMU
 * averages over it, sensors/imu.c); for an instantaneous sample (window 0)
 * the gap to the previous frame, the usual discretisation of continuous
 * white noise at the sample rate. The first frame then has no T and carries
 * no density-based white noise; b_rw starts at 0.
 *
 * The bias states live in the filter's user struct: a sensor's chain runs
 * its frames one at a time and in order (filter.h). Each frame draws, from
 * its context stream, 6 white normals if any white term is on, then 6 walk
 * normals if any walk is on, then 6 Gauss-Markov normals if any is on, so
 * a frame's noise depends only on (seed, sensor, frame, slot), the
 * configuration and the bias history. The turn-on bias comes from the
 * sensor's own stream (seed, sensor, frame 2^64 - 1, element
 * 0x494D5500 + slot), drawn at the first frame. */
#include <stdint.h>
#include <stdlib.h>
#include "core/internal.h"
#include "filters/chain.h"
#include "filters/imu_model.h"

typedef struct imu_noise {
  sensim__imu_model m;
  double on[6];      /* turn-on bias, accel then gyro */
  double rw[6];      /* random-walk bias */
  double gm[6];      /* Gauss-Markov bias */
  double gm_dt;      /* dt of the cached factors below, s (0: none) */
  double gm_phi[6], gm_q[6];
  double t_prev;     /* capture time of the last frame seen, s */
  int have_prev;
} imu_noise;

static sensim_status imu_noise_create(const cJSON *params, void **user) {
  sensim__imu_model m;
  sensim_status st = sensim__imu_model_parse(params, &m);
  if (st != SENSIM_OK) return st;
  imu_noise *n = calloc(1, sizeof *n);
  if (!n) return sensim__fail(SENSIM_ENOMEM, "imu_noise: out of memory");
  n->m = m;
  *user = n;
  return SENSIM_OK;
}

/* Six N(0, 1) draws into each of to[0 .. n), n <= 3, as one batch of
 * Box-Muller pairs in single precision (sensim_rng_normal2f_n, rng.h; up
 * to 9 pairs, so its SIMD path takes 8 of them). That is all an IMU's
 * noise needs: a relative resolution of 2^-24 is far below any sensor's
 * own quantisation, and the tails end at 5.77 sigma, beyond which a
 * Gaussian puts 8e-9 of its mass (once in 35 hours per axis at 1 kHz). It is four to five times
 * cheaper than double-precision Box-Muller with libm's log and sincos,
 * which made the random numbers two thirds of an IMU sample's cost. */
static void draw_normals(sensim_rng *r, double *const *to, size_t n) {
  if (n == 0) return;
  float z[18];
  sensim_rng_normal2f_n(r, z, 3 * n);
  for (size_t j = 0; j < n; j++)
    for (int i = 0; i < 6; i++) to[j][i] = z[6 * j + i];
}

static double quantise(double y, double q) { return q > 0.0 ? q * round(y / q) : y; }

static void first_frame(imu_noise *n, const sensim_filter_ctx *ctx, const double *g) {
  const sensim__imu_triad *t = n->m.t;
  double on[6] = {0};
  if (t[0].any_turn_on_draw || t[1].any_turn_on_draw) {
    sensim_rng r;
    sensim_rng_init(&r, ctx->seed, ctx->sensor_id, UINT64_MAX, 0x494D5500u + (uint32_t)ctx->slot);
    double *const to[1] = {on};
    draw_normals(&r, to, 1);
  }
  for (int i = 0; i < 6; i++) {
    const sensim__imu_triad *s = &t[i / 3];
    int a = i % 3;
    n->on[i] = s->turn_on_sigma[a] > 0.0 ? s->turn_on_sigma[a] * on[i] : s->turn_on_bias[a];
    n->gm[i] = s->gm_sigma[a] * g[i];
  }
}

static void step_biases(imu_noise *n, double dt, const double *k, const double *g) {
  const sensim__imu_triad *t = n->m.t;
  if (t[0].any_gm || t[1].any_gm) {
    if (dt != n->gm_dt) {
      for (int i = 0; i < 6; i++) {
        const sensim__imu_triad *s = &t[i / 3];
        double phi = exp(-dt / s->gm_tau[i % 3]);
        n->gm_phi[i] = phi;
        n->gm_q[i] = s->gm_sigma[i % 3] * sqrt(1.0 - phi * phi);
      }
      n->gm_dt = dt;
    }
    for (int i = 0; i < 6; i++) n->gm[i] = n->gm_phi[i] * n->gm[i] + n->gm_q[i] * g[i];
  }
  double sdt = sqrt(dt);
  for (int i = 0; i < 6; i++) {
    const sensim__imu_triad *s = &t[i / 3];
    n->rw[i] += s->walk_mean[i % 3] + s->walk[i % 3] * sdt * k[i];
  }
}

static void apply_triad(const sensim__imu_triad *s, const imu_noise *n, int base, double avg,
                        const double *w, double *x, double *var) {
  double v[3] = {x[0], x[1], x[2]}, pv[3] = {var[0], var[1], var[2]};
  if (!s->identity)
    for (int i = 0; i < 3; i++) {
      const double *a = &s->matrix[3 * i];
      v[i] = a[0] * x[0] + a[1] * x[1] + a[2] * x[2];
      pv[i] = a[0] * a[0] * var[0] + a[1] * a[1] * var[1] + a[2] * a[2] * var[2];
    }
  for (int i = 0; i < 3; i++) {
    double sig = s->has_white_sigma ? s->white_sigma[i]
                                    : avg > 0.0 ? s->density[i] / sqrt(avg) : 0.0;
    double y = v[i] + n->on[base + i] + n->rw[base + i] + n->gm[base + i] + s->white_mean[i] +
               sig * w[base + i];
    y = quantise(y, s->resolution[i]);
    double r = s->range[i];
    if (r > 0.0) y = y > r ? r : y < -r ? -r : y;
    x[i] = y;
    var[i] = pv[i] + sig * sig + s->resolution[i] * s->resolution[i] / 12.0;
  }
}

static sensim_status imu_noise_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  imu_noise *n = user;
  if (frame->type != SENSIM_PAYLOAD_IMU || frame->count < 1 || !frame->data)
    return sensim__fail(SENSIM_ETYPE, "imu_noise: frame holds no IMU sample");
  double dt = 0.0;
  if (n->have_prev) {
    dt = frame->t_capture - n->t_prev;
    if (!(dt > 0.0))
      return sensim__fail(SENSIM_ESTATE, "imu_noise: capture time %g not after previous %g",
                          frame->t_capture, n->t_prev);
  }
  double avg = frame->window > 0.0 ? frame->window : dt; /* T; 0 = unknown */
  const sensim__imu_triad *t = n->m.t;
  /* One batch for every process that is on, in the order white, walk,
   * Gauss-Markov (six normals each); a process that is off draws nothing. */
  double w[6] = {0}, k[6] = {0}, g[6] = {0};
  double *to[3] = {NULL, NULL, NULL};
  size_t np = 0;
  if (t[0].any_white || t[1].any_white) to[np++] = w;
  if (t[0].any_walk || t[1].any_walk) to[np++] = k;
  if (t[0].any_gm || t[1].any_gm) to[np++] = g;
  draw_normals(&ctx->rng, to, np);
  if (n->have_prev)
    step_biases(n, dt, k, g);
  else
    first_frame(n, ctx, g);
  sensim_imu_sample *smp = frame->data;
  apply_triad(&t[0], n, 0, avg, w, smp->accel, smp->accel_var);
  apply_triad(&t[1], n, 3, avg, w, smp->gyro, smp->gyro_var);
  n->t_prev = frame->t_capture;
  n->have_prev = 1;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_imu_noise = {
    .def = {.name = "imu_noise",
            .in = SENSIM_PAYLOAD_IMU,
            .out = SENSIM_PAYLOAD_IMU,
            .init = NULL,
            .apply = imu_noise_apply,
            .destroy = free},
    .create = imu_noise_create,
};
