/* tests/support/filter_harness.c: see filter_harness.h. */
#include <string.h>
#include "core/internal.h"
#include "support/filter_harness.h"

sensim_status fh_try_create(const sensim_builtin_filter *b, const char *json, void **user) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json && !p) fail_msg("test JSON does not parse: %s", json);
  *user = NULL;
  sensim_status rc = b->create(p, user);
  cJSON_Delete(p);
  return rc;
}

void *fh_make(const sensim_builtin_filter *b, const char *json) {
  void *user = NULL;
  SENSIM_OK_OR_FAIL(fh_try_create(b, json, &user));
  return user;
}

void fh_drop(const sensim_builtin_filter *b, void *user) {
  if (b->def.destroy) b->def.destroy(user);
}

/* create() must refuse `json` with `code` and a message containing `needle`. */
void fh_expect_refused(const sensim_builtin_filter *b, const char *json, sensim_status code, const char *needle) {
  void *user = NULL;
  sensim_status rc = fh_try_create(b, json, &user);
  if (rc != code) fail_msg("%s %s -> %d, expected %d (%s)", b->def.name, json, rc, code, sensim_last_error());
  if (needle && !strstr(sensim_last_error(), needle))
    fail_msg("%s %s: message '%s' lacks '%s'", b->def.name, json, sensim_last_error(), needle);
}

static sensim_exposure_state g_exposure;

sensim_exposure_state *fh_exposure(void) { return &g_exposure; }

sensim_status fh_apply(const sensim_builtin_filter *b, void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.seed = SEED;
  ctx.exposure = &g_exposure;
  sensim_rng_init(&ctx.rng, SEED, 0, f->index, 0x80000000u);
  return b->def.apply(user, f, &ctx);
}

void fh_run_ok(const sensim_builtin_filter *b, const char *json, sensim_frame *f) {
  void *u = fh_make(b, json);
  SENSIM_OK_OR_FAIL(fh_apply(b, u, f));
  fh_drop(b, u);
}

sensim_frame fh_new_frame(sensim_payload type, uint32_t w, uint32_t h) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, type, w, h));
  return f;
}
