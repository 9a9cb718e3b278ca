/* filters/mag_noise.c: "mag_noise", mag -> mag.
 *
 * The usual strapdown magnetometer error model (J. F. Vasconcelos, G.
 * Elkaim, C. Silvestre, P. Oliveira, B. Cardeira, "Geometric approach to
 * strapdown magnetometer calibration in sensor frame", IEEE Trans. Aerosp.
 * Electron. Syst. 47(2), 2011, sec. II; D. Gebre-Egziabher et al.,
 * "Calibration of strapdown magnetometers in magnetic field domain",
 * J. Aerosp. Eng. 19(2), 2006), in this order:
 *
 *   1. y = A b + h + v
 *        A  soft-iron (and scale / misalignment) matrix, 3 x 3 [identity]
 *        h  hard-iron offset, sensor frame, T [0]
 *        v  white noise N(0, diag(sigma^2)) per sample, T [0]
 *   2. y_i = q round(y_i / q)           resolution q, T (0: continuous)
 *   3. y_i = clamp(y_i, -range, range)  saturation, T (0: none)
 *
 * Parameters (JSON): "sigma", "hard_iron", "resolution", "range" (a number
 * or 3 numbers; unit suffixes "_ut", "_nt", "_gauss", "_mgauss", e.g.
 * "sigma_nt", filters/imu_units.c), "soft_iron" (9 numbers, row-major,
 * dimensionless). The sample's field_var gets sigma^2 + q^2 / 12 per axis
 * (quantisation noise: Widrow and Kollar, "Quantization Noise", 2008, sec.
 * 4.2) plus an earlier filter's variance through A (diagonal terms,
 * sum_j A_ij^2 var_j), for sensor_msgs/MagneticField's covariance
 * (docs/recording.md). Each frame draws 3 normals from its context stream when
 * sigma is not all 0. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"
#include "filters/imu_units.h"

typedef struct mag_noise {
  double sigma[3], hard[3], res[3], range[3];
  double soft[9];
  int noisy;
} mag_noise;

static const char *const bases[] = {"sigma", "hard_iron", "resolution", "range", "soft_iron"};

static sensim_status read_vals(const cJSON *it, int count, double factor, double *out) {
  double tmp[9];
  if (cJSON_IsNumber(it) && count == 3) {
    tmp[0] = tmp[1] = tmp[2] = it->valuedouble;
  } else if (cJSON_IsArray(it) && cJSON_GetArraySize(it) == count) {
    int i = 0;
    for (const cJSON *e = it->child; e; e = e->next, i++) {
      if (!cJSON_IsNumber(e))
        return sensim__fail(SENSIM_EINVAL, "mag_noise: %s[%d] must be a number", it->string, i);
      tmp[i] = e->valuedouble;
    }
  } else {
    return sensim__fail(SENSIM_EINVAL, "mag_noise: %s must be %s", it->string,
                        count == 3 ? "a number or 3 numbers" : "9 numbers (row-major 3 x 3)");
  }
  for (int i = 0; i < count; i++) {
    if (!isfinite(tmp[i]))
      return sensim__fail(SENSIM_EINVAL, "mag_noise: %s[%d] must be finite", it->string, i);
    out[i] = tmp[i] * factor;
  }
  return SENSIM_OK;
}

static sensim_status mag_noise_create(const cJSON *params, void **user) {
  mag_noise m;
  memset(&m, 0, sizeof m);
  for (int i = 0; i < 3; i++) m.soft[4 * i] = 1.0;
  double *dst[5] = {m.sigma, m.hard, m.res, m.range, m.soft};
  int seen[5] = {0};
  if (params && !cJSON_IsObject(params))
    return sensim__fail(SENSIM_EINVAL, "mag_noise: parameters must be a JSON object");
  for (const cJSON *it = params ? params->child : NULL; it; it = it->next) {
    int hit = -1;
    double factor = 1.0;
    for (int b = 0; b < 4 && hit < 0; b++)
      if (sensim__unit_match(it->string, bases[b], SENSIM_DIM_FIELD, &factor)) hit = b;
    if (strcmp(it->string, "soft_iron") == 0) hit = 4; /* dimensionless: no unit suffix */
    if (hit < 0)
      return sensim__fail(SENSIM_EINVAL, "filter 'mag_noise' has no parameter '%s'", it->string);
    if (seen[hit]++)
      return sensim__fail(SENSIM_EINVAL, "mag_noise: %s given twice (with another unit)", bases[hit]);
    sensim_status st = read_vals(it, hit == 4 ? 9 : 3, factor, dst[hit]);
    if (st != SENSIM_OK) return st;
  }
  const char *nonneg[3] = {"sigma", "resolution", "range"};
  double *nv[3] = {m.sigma, m.res, m.range};
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      if (nv[j][i] < 0.0)
        return sensim__fail(SENSIM_EINVAL, "mag_noise: %s[%d] = %g T must be >= 0", nonneg[j], i,
                            nv[j][i]);
  for (int i = 0; i < 3; i++) m.noisy |= m.sigma[i] > 0.0;
  mag_noise *n = malloc(sizeof *n);
  if (!n) return sensim__fail(SENSIM_ENOMEM, "mag_noise: out of memory");
  *n = m;
  *user = n;
  return SENSIM_OK;
}

static sensim_status mag_noise_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  const mag_noise *m = user;
  if (frame->type != SENSIM_PAYLOAD_MAG || frame->count < 1 || !frame->data)
    return sensim__fail(SENSIM_ETYPE, "mag_noise: frame holds no magnetometer sample");
  double w[4] = {0, 0, 0, 0};
  if (m->noisy) {
    sensim_rng_normal2(&ctx->rng, &w[0], &w[1]);
    sensim_rng_normal2(&ctx->rng, &w[2], &w[3]);
  }
  sensim_mag_sample *s = frame->data;
  const double b[3] = {s->field[0], s->field[1], s->field[2]};
  const double bv[3] = {s->field_var[0], s->field_var[1], s->field_var[2]};
  for (int i = 0; i < 3; i++) {
    const double *a = &m->soft[3 * i];
    double y = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + m->hard[i] + m->sigma[i] * w[i];
    s->field_var[i] = a[0] * a[0] * bv[0] + a[1] * a[1] * bv[1] + a[2] * a[2] * bv[2] +
                      m->sigma[i] * m->sigma[i] + m->res[i] * m->res[i] / 12.0;
    if (m->res[i] > 0.0) y = m->res[i] * round(y / m->res[i]);
    if (m->range[i] > 0.0) y = y > m->range[i] ? m->range[i] : y < -m->range[i] ? -m->range[i] : y;
    s->field[i] = y;
  }
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_mag_noise = {
    .def = {.name = "mag_noise",
            .in = SENSIM_PAYLOAD_MAG,
            .out = SENSIM_PAYLOAD_MAG,
            .init = NULL,
            .apply = mag_noise_apply,
            .destroy = free},
    .create = mag_noise_create,
};
