/* filters/imu_noise.c: "imu_noise", imu -> imu.
 *
 * Gaussian-drift model of IEEE Std 952-1997 (its noise terms and their
 * Allan-variance signatures, Annex C) as summarised by O. Woodman, "An
 * introduction to inertial navigation", Univ. of Cambridge tech. report
 * UCAM-CL-TR-696 (2007). Per axis of each sensor:
 *
 *   y_k = true_k + b_k + v_k
 *   v_k ~ N(0, N^2 / T)                  white noise averaged over T seconds
 *   b_k = b_{k-1} + K sqrt(dt_k) w_k     bias random walk, w_k ~ N(0, 1)
 *
 * N is the noise density (angle / velocity random walk coefficient,
 * unit/s/sqrt(Hz)), K the rate random walk coefficient (unit/s^2/sqrt(Hz)),
 * dt_k = t_capture,k - t_capture,k-1. Their Allan deviations are N/sqrt(tau)
 * and K sqrt(tau/3) (IEEE 952 Annex C).
 *
 * Averaging time T: the frame's collection window when it is > 0 (the IMU
 * averages its signal over it, see sensors/imu.c); for an instantaneous
 * sample (window 0) the gap to the previous frame, the usual discretisation
 * of continuous white noise at the sample rate. The first frame starts with
 * b_0 = 0, and when its window is 0 no gap is known yet, so it carries no
 * white noise either.
 *
 * The bias state lives in the filter's user struct: a sensor's chain runs
 * its frames one at a time and in order (filter.h). Every call draws the
 * same 12 normals in the same order whatever branch it takes, so a frame's
 * noise depends only on (seed, sensor, frame, slot) and the bias history. */
#include <stdlib.h>
#include "core/internal.h"
#include "filters/chain.h"

typedef struct imu_noise {
  double density[6]; /* N: accel x,y,z (m/s^2/sqrt(Hz)), gyro x,y,z (rad/s/sqrt(Hz)) */
  double walk[6];    /* K: accel (m/s^3/sqrt(Hz)), gyro (rad/s^2/sqrt(Hz)) */
  double bias[6];    /* current b_k, accel then gyro, m/s^2 and rad/s */
  double t_prev;     /* capture time of the last frame seen, s */
  int have_prev;
} imu_noise;

static sensim_status imu_noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"accel_noise_density", "accel_bias_walk",
                                      "gyro_noise_density", "gyro_bias_walk", NULL};
  /* Defaults as documented in filter.h. */
  double v[4] = {2e-3, 3e-4, 1.7e-4, 2e-5};
  sensim_status st = sensim__param_only(params, "imu_noise", known);
  if (st != SENSIM_OK) return st;
  for (int i = 0; i < 4; i++) {
    st = sensim__param_number(params, known[i], &v[i]);
    if (st != SENSIM_OK) return st;
    if (!isfinite(v[i]) || v[i] < 0.0)
      return sensim__fail(SENSIM_EINVAL, "imu_noise: %s = %g must be finite and >= 0", known[i],
                          v[i]);
  }
  imu_noise *n = calloc(1, sizeof *n);
  if (!n) return sensim__fail(SENSIM_ENOMEM, "imu_noise: out of memory");
  for (int i = 0; i < 3; i++) {
    n->density[i] = v[0];
    n->walk[i] = v[1];
    n->density[3 + i] = v[2];
    n->walk[3 + i] = v[3];
  }
  *user = n;
  return SENSIM_OK;
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

  double white[6], walk[6];
  for (int i = 0; i < 6; i++) white[i] = sensim_rng_normal(&ctx->rng);
  for (int i = 0; i < 6; i++) walk[i] = sensim_rng_normal(&ctx->rng);

  sensim_imu_sample *smp = frame->data;
  double *val[6] = {&smp->accel[0], &smp->accel[1], &smp->accel[2],
                    &smp->gyro[0],  &smp->gyro[1],  &smp->gyro[2]};
  for (int i = 0; i < 6; i++) {
    if (n->have_prev) n->bias[i] += n->walk[i] * sqrt(dt) * walk[i];
    double w = avg > 0.0 ? n->density[i] / sqrt(avg) * white[i] : 0.0;
    *val[i] += n->bias[i] + w;
  }
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
