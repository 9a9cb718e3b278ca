/* tests/gnss/gnss_util.c: helpers the GNSS groups share. */
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "gnss/gnss_groups.h"
#include "support/testutil.h"

#define GT_SEED 20261122u

const double gt_origin[3] = {47.3769, 8.5417, 408.0};

static const sensim_builtin_filter *find(const char *name) {
  const sensim_builtin_filter *b = sensim__filter_find(name);
  if (!b) fail_msg("filter '%s' is not registered", name);
  return b;
}

void *gt_filter(const char *name, const char *json) {
  const sensim_builtin_filter *b = find(name);
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json && !p) fail_msg("bad JSON in test: %s", json);
  void *user = NULL;
  sensim_status st = b->create(p, &user);
  cJSON_Delete(p);
  if (st != SENSIM_OK) fail_msg("%s %s -> %d: %s", name, json ? json : "", st, sensim_last_error());
  return user;
}

sensim_status gt_filter_status(const char *name, const char *json) {
  const sensim_builtin_filter *b = find(name);
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json && !p) fail_msg("bad JSON in test: %s", json);
  void *user = NULL;
  sensim_status st = b->create(p, &user);
  cJSON_Delete(p);
  if (st == SENSIM_OK && b->def.destroy) b->def.destroy(user);
  return st;
}

sensim_status gt_filter_status_obj(const char *name, const void *cjson) {
  const sensim_builtin_filter *b = find(name);
  void *user = NULL;
  sensim_status st = b->create((const cJSON *)cjson, &user);
  if (st == SENSIM_OK && b->def.destroy) b->def.destroy(user);
  return st;
}

sensim_status gt_filter_status_nan(const char *name, const char *key) {
  const sensim_builtin_filter *b = find(name);
  cJSON *p = cJSON_CreateObject();
  assert_non_null(p);
  cJSON_AddNumberToObject(p, key, NAN);
  void *user = NULL;
  sensim_status st = b->create(p, &user);
  cJSON_Delete(p);
  if (st == SENSIM_OK && b->def.destroy) b->def.destroy(user);
  return st;
}

void gt_apply(const char *name, void *user, sensim_frame *f, uint32_t stream) {
  const sensim_builtin_filter *b = find(name);
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.seed = GT_SEED;
  ctx.sensor_id = stream;
  sensim_rng_init(&ctx.rng, GT_SEED, stream, f->index, 0x80000000u);
  SENSIM_OK_OR_FAIL(b->def.apply(user, f, &ctx));
}

void gt_filter_free(const char *name, void *user) {
  const sensim_builtin_filter *b = find(name);
  if (b->def.destroy) b->def.destroy(user);
}

void gt_frame(sensim_frame *f, sensim_gnss_fix *fix, uint64_t index, double t,
              const double enu[3]) {
  memset(f, 0, sizeof *f);
  memset(fix, 0, sizeof *fix);
  f->type = SENSIM_PAYLOAD_GNSS;
  f->width = f->height = 1;
  f->count = 1;
  f->data = fix;
  f->index = index;
  f->t_capture = t;
  memcpy(fix->enu, enu, sizeof fix->enu);
  memcpy(fix->origin, gt_origin, sizeof fix->origin);
  sensim_enu_to_geodetic(fix->origin, fix->enu, &fix->lat, &fix->lon, &fix->height);
  fix->vel_enu[0] = 3.0;
  fix->vel_enu[1] = 4.0;
  sensim_gnss_fill_speed_course(fix);
  fix->satellites = 10;
  fix->hdop = 0.9;
  fix->vdop = 1.5;
  fix->pdop = hypot(0.9, 1.5);
  fix->fix_type = 1;
}

sensim_world *gt_sat_world(int threads) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = threads;
  wp.seed = GT_SEED;
  wp.origin_lat = gt_origin[0];
  wp.origin_lon = gt_origin[1];
  wp.origin_height = gt_origin[2];
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  return w;
}

void gt_sat_params(sensim_gnss_params *gp, int exact) {
  sensim_gnss_params_init(gp);
  gp->mode = SENSIM_GNSS_SATELLITES;
  gp->ephemeris = GT_BRDC;
  if (exact) {
    gp->range_sigma = gp->range_rate_sigma = 0.0;
    gp->ionosphere = gp->troposphere = 0;
  }
}

sensim_gnss_fix gt_next_fix(sensim_world *w, sensim_sensor *s, double t) {
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
  const sensim_frame *g = NULL;
  sensim_gnss_fix fix;
  double at = NAN;
  while (sensim_sensor_poll(s, &g) == SENSIM_OK && g) { /* valid until the next poll: copy */
    fix = *(const sensim_gnss_fix *)g->data;
    at = g->t_capture;
  }
  if (!(fabs(at - t) <= 1e-9)) fail_msg("the last fix delivered by t = %g is of t = %g", t, at);
  return fix;
}
