/* filters/imu_model.h: the "imu_noise" filter's error model, shared by its
 * parameter parser (filters/imu_params.c) and its per-sample step
 * (filters/imu_noise.c). Not installed; docs/imu.md gives the equations. */
#ifndef SENSIM_FILTERS_IMU_MODEL_H
#define SENSIM_FILTERS_IMU_MODEL_H

#include <cjson/cJSON.h>
#include "sensim/status.h"

/* One triad (accelerometer or gyroscope), all in SI: m/s^2 or rad/s based.
 * Per-axis arrays are x, y, z of the sensor frame. */
typedef struct sensim__imu_triad {
  double density[3];       /* N, white noise density, unit/sqrt(Hz) (m/s^2/sqrt(Hz),
                              rad/s/sqrt(Hz)); per sample N / sqrt(T) unless
                              white_sigma is set */
  double white_sigma[3];   /* sigma_a, per-sample white noise std, unit */
  double white_mean[3];    /* mu_a, per-sample white noise mean, unit */
  int has_white_sigma;     /* 1: white_sigma replaces density */
  double walk[3];          /* K, bias random walk, unit/sqrt(s): increment std K sqrt(dt) */
  double walk_mean[3];     /* mu_b, mean of each random-walk increment, unit */
  double turn_on_sigma[3]; /* std of the turn-on bias drawn once per run, unit */
  double turn_on_bias[3];  /* given turn-on bias, unit (used when turn_on_sigma is 0) */
  double gm_sigma[3];      /* first-order Gauss-Markov bias std, unit */
  double gm_tau[3];        /* its correlation time, s (> 0 where gm_sigma > 0) */
  double matrix[9];        /* I + S + M, row-major: applied to the true value */
  double range[3];         /* saturation |y| <= range, unit; 0 = none */
  double resolution[3];    /* output LSB, unit; 0 = continuous */
  int any_white, any_walk, any_gm, any_turn_on_draw, identity, any_range, any_res;
} sensim__imu_triad;

typedef struct sensim__imu_model {
  sensim__imu_triad t[2]; /* 0 accelerometer, 1 gyroscope */
} sensim__imu_model;

/* Parse "imu_noise" parameters (NULL: defaults, filter.h) into *m. Keys are
 * "accel_" or "gyro_" + a base name + an optional unit suffix
 * (filters/imu_units.h). SENSIM_EINVAL names the key at fault; *m is
 * written only on success. */
sensim_status sensim__imu_model_parse(const cJSON *params, sensim__imu_model *m);

#endif
