/* filters/lidar_filters.c: lidar beams to points, and range noise. */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "filters/chain.h"

void sensim__beam_xyz(const sensim_beam *b, float xyz[3]) {
  float ce = cosf(b->elevation), r = b->range;
  xyz[0] = r * ce * cosf(b->azimuth);
  xyz[1] = r * ce * sinf(b->azimuth);
  xyz[2] = r * sinf(b->elevation);
}

static sensim_status points_create(const cJSON *params, void **user) {
  static const char *const none[] = {NULL};
  *user = NULL;
  return sensim__param_only(params, "points", none);
}

/* Spherical to Cartesian in the sensor frame (X forward, Z up): azimuth
 * counter-clockwise from +X, elevation up from the XY plane. */
static sensim_status points_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  const sensim_beam *b = f->data;
  size_t n = 0;
  for (size_t i = 0; i < f->count; i++) n += b[i].range > 0;
  sensim_point *p = calloc(n ? n : 1, sizeof *p);
  if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory for %zu points", n);
  size_t j = 0;
  for (size_t i = 0; i < f->count; i++) {
    if (!(b[i].range > 0)) continue;
    float xyz[3];
    sensim__beam_xyz(&b[i], xyz);
    p[j].x = xyz[0];
    p[j].y = xyz[1];
    p[j].z = xyz[2];
    p[j].intensity = b[i].intensity;
    p[j].time_offset = b[i].time_offset;
    p[j].ring = b[i].ring;
    p[j].return_index = b[i].return_index;
    j++;
  }
  free(f->data);
  f->data = p;
  f->type = SENSIM_PAYLOAD_POINTS;
  f->count = n;
  f->width = (uint32_t)n;
  f->height = 1;
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_points = {
    {"points", SENSIM_PAYLOAD_BEAMS, SENSIM_PAYLOAD_POINTS, NULL, points_apply, NULL}, points_create, NULL};

static sensim_status range_noise_create(const cJSON *params, void **user) {
  static const char *const known[] = {"sigma", NULL};
  double sigma = 0.02;
  sensim_status rc = sensim__param_only(params, "range_noise", known);
  if (!rc) rc = sensim__param_number(params, "sigma", &sigma);
  if (rc) return rc;
  if (!(sigma >= 0)) return sensim__fail(SENSIM_EINVAL, "range_noise: sigma %g m must be >= 0", sigma);
  double *u = malloc(sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "out of memory");
  *u = sigma;
  *user = u;
  return SENSIM_OK;
}

/* Gaussian range error on each return; a return pushed to or below zero
 * range is kept at a tiny positive range rather than turned into a miss,
 * which would change the point count with the noise level. */
static sensim_status range_noise_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  double sigma = *(const double *)user;
  sensim_beam *b = f->data;
  for (size_t i = 0; i < f->count; i++) {
    if (!(b[i].range > 0)) continue;
    double r = b[i].range + sigma * sensim_rng_normal(&ctx->rng);
    b[i].range = (float)(r > 1e-3 ? r : 1e-3);
  }
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_range_noise = {
    {"range_noise", SENSIM_PAYLOAD_BEAMS, SENSIM_PAYLOAD_BEAMS, NULL, range_noise_apply, free},
    range_noise_create, NULL};
