/* filters/imu_params.c: the "imu_noise" filter's parameters, read
 * strictly: every key is "accel_" or "gyro_" + a base name below + an
 * optional unit suffix (filters/imu_units.c converts to SI). A value is a
 * number (all three axes) or an array of 3 (x, y, z); the misalignment is
 * an array of 9 (row-major 3 x 3). docs/imu.md lists every key.
 *
 * How the Gaussian-drift model maps onto these keys:
 *   white N(mu_a, sigma_a^2) per sample: white_mean = mu_a, white_sigma =
 *     sigma_a. Equivalent to noise_density N = sigma_a sqrt(T) for an
 *     averaging time T (IEEE 952 Annex C: AVAR = N^2 / tau).
 *   bias walk increment N(mu_b, (b0 sqrt(dt / t_b))^2): bias_walk_mean =
 *     mu_b, bias_b0 = b0, bias_tb = t_b. Equivalent to bias_walk
 *     K = b0 / sqrt(t_b), since K sqrt(dt) = b0 sqrt(dt / t_b): the bias
 *     wanders by b0 (one sigma) in t_b seconds. */
#include <string.h>
#include "core/internal.h"
#include "filters/imu_model.h"
#include "filters/imu_units.h"

enum {
  F_DENSITY, F_WHITE_SIGMA, F_WHITE_MEAN, F_WALK, F_WALK_MEAN, F_B0, F_TB, F_TURN_SIGMA,
  F_TURN_BIAS, F_GM_SIGMA, F_BI, F_GM_TAU, F_SCALE, F_MISALIGN, F_RANGE, F_RES, NFIELDS
};

#define NONE (-1)
#define A SENSIM_DIM_ACCEL
#define G SENSIM_DIM_GYRO

typedef struct field {
  const char *base;
  int field;
  int dim[2]; /* sensim_unit_dim for accel, gyro; NONE: not a key of that triad */
  int count;  /* 3 per axis, 9 matrix */
} field;

static const field fields[] = {
    {"noise_density", F_DENSITY, {SENSIM_DIM_ACCEL_DENS, SENSIM_DIM_GYRO_DENS}, 3},
    {"vrw", F_DENSITY, {SENSIM_DIM_ACCEL_DENS, NONE}, 3},
    {"arw", F_DENSITY, {NONE, SENSIM_DIM_GYRO_DENS}, 3},
    {"white_sigma", F_WHITE_SIGMA, {A, G}, 3},
    {"white_mean", F_WHITE_MEAN, {A, G}, 3},
    {"bias_walk", F_WALK, {SENSIM_DIM_ACCEL_WALK, SENSIM_DIM_GYRO_WALK}, 3},
    {"rrw", F_WALK, {SENSIM_DIM_ACCEL_WALK, SENSIM_DIM_GYRO_WALK}, 3},
    {"bias_walk_mean", F_WALK_MEAN, {A, G}, 3},
    {"bias_b0", F_B0, {A, G}, 3},
    {"bias_tb", F_TB, {SENSIM_DIM_TIME, SENSIM_DIM_TIME}, 3},
    {"turn_on_sigma", F_TURN_SIGMA, {A, G}, 3},
    {"turn_on_bias", F_TURN_BIAS, {A, G}, 3},
    {"gm_sigma", F_GM_SIGMA, {A, G}, 3},
    {"bias_instability", F_BI, {A, G}, 3},
    {"gm_tau", F_GM_TAU, {SENSIM_DIM_TIME, SENSIM_DIM_TIME}, 3},
    {"scale_factor", F_SCALE, {SENSIM_DIM_RATIO, SENSIM_DIM_RATIO}, 3},
    {"misalignment", F_MISALIGN, {SENSIM_DIM_ANGLE, SENSIM_DIM_ANGLE}, 9},
    {"range", F_RANGE, {A, G}, 3},
    {"resolution", F_RES, {A, G}, 3},
};
#define NF (sizeof fields / sizeof fields[0])

typedef struct raw {
  double v[NFIELDS][9];
  const char *key[NFIELDS]; /* the key that set the field, NULL if not given */
} raw;

static const char *const prefix[2] = {"accel_", "gyro_"};

static sensim_status read_values(const cJSON *it, const char *key, int count, double factor,
                                 double *out) {
  double tmp[9];
  if (cJSON_IsNumber(it) && count == 3) {
    tmp[0] = tmp[1] = tmp[2] = it->valuedouble;
  } else if (cJSON_IsArray(it) && cJSON_GetArraySize(it) == count) {
    int i = 0;
    for (const cJSON *e = it->child; e; e = e->next, i++) {
      if (!cJSON_IsNumber(e))
        return sensim__fail(SENSIM_EINVAL, "imu_noise: %s[%d] must be a number", key, i);
      tmp[i] = e->valuedouble;
    }
  } else {
    return sensim__fail(SENSIM_EINVAL, "imu_noise: %s must be %s", key,
                        count == 3 ? "a number or an array of 3 numbers"
                                   : "an array of 9 numbers (row-major 3 x 3)");
  }
  for (int i = 0; i < count; i++) {
    if (!isfinite(tmp[i]))
      return sensim__fail(SENSIM_EINVAL, "imu_noise: %s[%d] = %g must be finite", key, i, tmp[i]);
    out[i] = tmp[i] * factor;
  }
  return SENSIM_OK;
}

static sensim_status read_key(const cJSON *it, raw r[2]) {
  const char *key = it->string;
  for (int s = 0; s < 2; s++) {
    size_t np = strlen(prefix[s]);
    if (strncmp(key, prefix[s], np) != 0) continue;
    for (size_t f = 0; f < NF; f++) {
      double factor = 1.0;
      if (fields[f].dim[s] == NONE ||
          !sensim__unit_match(key + np, fields[f].base, (sensim_unit_dim)fields[f].dim[s], &factor))
        continue;
      int id = fields[f].field;
      if (r[s].key[id])
        return sensim__fail(SENSIM_EINVAL, "imu_noise: %s and %s set the same parameter",
                            r[s].key[id], key);
      r[s].key[id] = key;
      return read_values(it, key, fields[f].count, factor, r[s].v[id]);
    }
  }
  return sensim__fail(SENSIM_EINVAL, "filter 'imu_noise' has no parameter '%s' (docs/imu.md)",
                      key);
}

static sensim_status check_nonneg(const raw *r, int id, const char *what) {
  if (!r->key[id]) return SENSIM_OK;
  for (int i = 0; i < 3; i++)
    if (r->v[id][i] < 0.0)
      return sensim__fail(SENSIM_EINVAL, "imu_noise: %s[%d] = %g: %s must be >= 0", r->key[id], i,
                          r->v[id][i], what);
  return SENSIM_OK;
}

static sensim_status exclusive(const raw *r, int a, int b) {
  if (r->key[a] && r->key[b])
    return sensim__fail(SENSIM_EINVAL, "imu_noise: give %s or %s, not both", r->key[a], r->key[b]);
  return SENSIM_OK;
}

static sensim_status build_triad(raw *r, int s, sensim__imu_triad *t) {
  static const double def_density[2] = {2e-3, 1.7e-4}, def_walk[2] = {3e-4, 2e-5};
  sensim_status st;
  const int nn[] = {F_DENSITY, F_WHITE_SIGMA, F_WALK, F_B0, F_TURN_SIGMA, F_GM_SIGMA, F_BI,
                    F_RANGE, F_RES};
  const char *what[] = {"a noise density", "a standard deviation", "a random-walk coefficient",
                        "a standard deviation", "a standard deviation", "a standard deviation",
                        "a bias instability", "a range (0: none)", "a resolution (0: none)"};
  for (size_t i = 0; i < sizeof nn / sizeof nn[0]; i++)
    if ((st = check_nonneg(r, nn[i], what[i])) != SENSIM_OK) return st;
  if ((st = exclusive(r, F_DENSITY, F_WHITE_SIGMA)) || (st = exclusive(r, F_WALK, F_B0)) ||
      (st = exclusive(r, F_WALK, F_TB)) || (st = exclusive(r, F_TURN_SIGMA, F_TURN_BIAS)) ||
      (st = exclusive(r, F_GM_SIGMA, F_BI)))
    return st;
  if (!!r->key[F_B0] != !!r->key[F_TB])
    return sensim__fail(SENSIM_EINVAL, "imu_noise: %sbias_b0 and %sbias_tb go together",
                        prefix[s], prefix[s]);
  const int times[2] = {F_TB, F_GM_TAU};
  for (int j = 0; j < 2; j++) {
    int id = times[j];
    if (!r->key[id]) continue;
    for (int i = 0; i < 3; i++)
      if (!(r->v[id][i] > 0.0))
        return sensim__fail(SENSIM_EINVAL, "imu_noise: %s[%d] = %g: a time must be > 0",
                            r->key[id], i, r->v[id][i]);
  }
  int gm_id = r->key[F_BI] ? F_BI : F_GM_SIGMA;
  if (r->key[gm_id] && !r->key[F_GM_TAU]) {
    for (int i = 0; i < 3; i++)
      if (r->v[gm_id][i] > 0.0)
        return sensim__fail(SENSIM_EINVAL, "imu_noise: %s needs %sgm_tau (correlation time, s)",
                            r->key[gm_id], prefix[s]);
  }
  if (r->key[F_SCALE])
    for (int i = 0; i < 3; i++)
      if (!(r->v[F_SCALE][i] > -1.0))
        return sensim__fail(SENSIM_EINVAL, "imu_noise: %s[%d] = %g must be > -1",
                            r->key[F_SCALE], i, r->v[F_SCALE][i]);
  if (r->key[F_MISALIGN])
    for (int i = 0; i < 3; i++)
      if (r->v[F_MISALIGN][4 * i] != 0.0)
        return sensim__fail(SENSIM_EINVAL,
                            "imu_noise: %s[%d] = %g: the diagonal belongs to scale_factor, "
                            "must be 0", r->key[F_MISALIGN], 4 * i, r->v[F_MISALIGN][4 * i]);

  memset(t, 0, sizeof *t);
  double bi_to_sigma = 1.0 / sqrt(sensim__gm_avar_peak());
  for (int i = 0; i < 3; i++) {
    t->density[i] = r->key[F_DENSITY] ? r->v[F_DENSITY][i] : def_density[s];
    t->white_sigma[i] = r->v[F_WHITE_SIGMA][i];
    t->white_mean[i] = r->v[F_WHITE_MEAN][i];
    t->walk[i] = r->key[F_B0] ? r->v[F_B0][i] / sqrt(r->v[F_TB][i])
                              : r->key[F_WALK] ? r->v[F_WALK][i] : def_walk[s];
    t->walk_mean[i] = r->v[F_WALK_MEAN][i];
    t->turn_on_sigma[i] = r->v[F_TURN_SIGMA][i];
    t->turn_on_bias[i] = r->v[F_TURN_BIAS][i];
    /* Datasheet bias instability: the ADEV floor; the GM process with this
     * sigma has its ADEV peak there (filters/imu_units.c). */
    t->gm_sigma[i] = r->key[F_BI] ? r->v[F_BI][i] * bi_to_sigma : r->v[F_GM_SIGMA][i];
    t->gm_tau[i] = r->key[F_GM_TAU] ? r->v[F_GM_TAU][i] : 1.0;
    t->range[i] = r->v[F_RANGE][i];
    t->resolution[i] = r->v[F_RES][i];
    for (int j = 0; j < 3; j++)
      t->matrix[3 * i + j] = (i == j ? 1.0 + r->v[F_SCALE][i] : 0.0) + r->v[F_MISALIGN][3 * i + j];
  }
  t->has_white_sigma = r->key[F_WHITE_SIGMA] != NULL;
  t->identity = 1;
  for (int i = 0; i < 9; i++) t->identity &= t->matrix[i] == (i % 4 == 0 ? 1.0 : 0.0);
  for (int i = 0; i < 3; i++) {
    t->any_white |= (t->has_white_sigma ? t->white_sigma[i] : t->density[i]) > 0.0;
    t->any_walk |= t->walk[i] > 0.0;
    t->any_gm |= t->gm_sigma[i] > 0.0;
    t->any_turn_on_draw |= t->turn_on_sigma[i] > 0.0;
    t->any_range |= t->range[i] > 0.0;
    t->any_res |= t->resolution[i] > 0.0;
  }
  return SENSIM_OK;
}

sensim_status sensim__imu_model_parse(const cJSON *params, sensim__imu_model *m) {
  raw r[2];
  memset(r, 0, sizeof r);
  if (params && !cJSON_IsObject(params))
    return sensim__fail(SENSIM_EINVAL, "imu_noise: parameters must be a JSON object");
  for (const cJSON *it = params ? params->child : NULL; it; it = it->next) {
    sensim_status st = read_key(it, r);
    if (st != SENSIM_OK) return st;
  }
  sensim__imu_model tmp;
  for (int s = 0; s < 2; s++) {
    sensim_status st = build_triad(&r[s], s, &tmp.t[s]);
    if (st != SENSIM_OK) return st;
  }
  *m = tmp;
  return SENSIM_OK;
}
