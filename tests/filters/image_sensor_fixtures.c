/* tests/filters/image_sensor_fixtures.c: helpers the image-sensor filter
 * groups share (declared in image_sensor_fixtures.h). Moved verbatim from
 * image_sensor_tests.c; no longer static since two groups call them. */
#include <math.h>
#include <string.h>
#include "support/testutil.h"
#include "filters/image_sensor_fixtures.h"

/* ---- harness ------------------------------------------------------------ */

sensim_status try_make(const sensim_builtin_filter *b, const char *json, void **user) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  *user = NULL;
  sensim_status rc = b->create(p, user);
  cJSON_Delete(p);
  return rc;
}

void *fx_make(const sensim_builtin_filter *b, const char *json) {
  void *user = NULL;
  SENSIM_OK_OR_FAIL(try_make(b, json, &user));
  return user;
}

void fx_drop(const sensim_builtin_filter *b, void *user) {
  if (b->def.destroy) b->def.destroy(user);
}

sensim_status fx_run(const sensim_builtin_filter *b, void *user, sensim_frame *f, harness *h, uint64_t seed,
                  uint32_t sensor) {
  h->x.frame = f->index;
  h->ctx.seed = seed;
  h->ctx.sensor_id = sensor;
  h->ctx.slot = 0;
  h->ctx.exposure = &h->x;
  sensim_rng_init(&h->ctx.rng, seed, sensor, f->index, 0x80000000u);
  return b->def.apply(user, f, &h->ctx);
}

void run_ok(const sensim_builtin_filter *b, void *user, sensim_frame *f) {
  harness h;
  memset(&h, 0, sizeof h);
  SENSIM_OK_OR_FAIL(fx_run(b, user, f, &h, SEED, 3));
}

/* A w x h frame of `type` whose every value is `fill`. */
void fx_image(sensim_frame *f, sensim_payload type, uint32_t w, uint32_t h, sensim_image_unit unit, float fill,
           uint64_t index) {
  memset(f, 0, sizeof *f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(f, type, w, h));
  size_t n = f->count * (type == SENSIM_PAYLOAD_RGB_F32 ? 3 : 1);
  for (size_t i = 0; i < n; i++) ((float *)f->data)[i] = fill;
  f->unit = unit;
  f->index = index;
}

void mom_add(moments *m, double x) { /* Welford (1962) */
  m->n += 1.0;
  double d = x - m->mean;
  m->mean += d / m->n;
  m->m2 += d * (x - m->mean);
}
double mom_var(const moments *m) { return m->m2 / (m->n - 1.0); }
moments mom_of(const float *v, size_t n) {
  moments m = {0};
  for (size_t i = 0; i < n; i++) mom_add(&m, v[i]);
  return m;
}

/* Mean within 5 standard errors; variance within 5 standard errors of a
 * sample variance with cumulants kappa2, kappa4. */
void check_moments(const moments *m, double mu, double kappa2, double kappa4) {
  assert_near(m->mean, mu, 5.0 * sqrt(kappa2 / m->n) + 1e-12);
  double se = sqrt(kappa4 / m->n + 2.0 * kappa2 * kappa2 / (m->n - 1.0));
  assert_near(mom_var(m), kappa2, 5.0 * se + 1e-12);
}

/* A world whose camera sees only a uniform background of radiance 0.25. */
sensim_world *flat_world(uint64_t seed) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.seed = seed;
  p.background[0] = p.background[1] = p.background[2] = 0.25f;
  p.ambient = 0.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

sensim_sensor *flat_camera(sensim_world *w) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 32;
  cp.height = 24;
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  return cam;
}
