/* runtime/reset.c: sensim_world_reset, for reinforcement-learning episodes:
 * every sensor drops its frames and starts its built-in filters anew, the
 * bodies go back to where they were created, and the clock to -inf. A
 * sensor keeps its frame pool and spare captures (bounded as always): the
 * next episode asks for the same buffers, and a reused buffer carries
 * nothing into a frame (core/frame_pool.h), so keeping them changes no
 * frame and saves the allocations of the episode's first frames. All
 * that can fail is done first, into side storage, so a failed reset leaves
 * the world as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

static void discard(const sensim_sensor *s, void **fresh) {
  if (!fresh) return;
  for (size_t i = 0; i < s->chain.n; i++)
    if (fresh[i] && s->specs[i].builtin->def.destroy) s->specs[i].builtin->def.destroy(fresh[i]);
  free(fresh);
}

/* New states for the sensor's built-in filters (*fresh, one per chain link,
 * NULL for user filters), without touching the sensor. */
static sensim_status prepare(const sensim_sensor *s, void ***fresh) {
  *fresh = NULL;
  if (s->chain.n == 0) return SENSIM_OK;
  void **u = calloc(s->chain.n, sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory resetting its filters", s->name);
  for (size_t i = 0; i < s->chain.n; i++) {
    const sensim_builtin_filter *b = s->specs[i].builtin;
    if (!b) continue;
    cJSON *params = NULL;
    if (s->specs[i].params_json && !(params = cJSON_Parse(s->specs[i].params_json))) {
      discard(s, u);
      return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory re-reading filter '%s'", s->name,
                          b->def.name);
    }
    sensim_status rc = b->create(params, &u[i]);
    cJSON_Delete(params);
    if (rc == SENSIM_OK && b->def.init && (rc = b->def.init(u[i], s->chain.links[i].in))) {
      if (b->def.destroy) b->def.destroy(u[i]);
      u[i] = NULL;
    }
    if (rc) {
      sensim__error_context("sensor '%s': re-creating filter '%s'", s->name, b->def.name);
      discard(s, u);
      return rc;
    }
  }
  *fresh = u;
  return SENSIM_OK;
}

/* Drop every capture, swap the fresh filter states in, count from zero. */
static void commit(sensim_sensor *s, void **fresh) {
  sensim__sensor_wait_idle(s);
  sensim__sensor_drop_captures(s);
  for (size_t i = 0; fresh && i < s->chain.n; i++) {
    if (!s->specs[i].builtin) continue;
    sensim_chain_link *l = &s->chain.links[i];
    if (l->def.destroy) l->def.destroy(l->user);
    l->user = fresh[i];
  }
  free(fresh);
  memset(&s->chain.exposure, 0, sizeof s->chain.exposure);
  if (s->kind->reset) s->kind->reset(s->impl);
  s->next_index = 0;
  s->captured = s->delivered = s->skipped = s->failed = 0;
  s->unfinished = 0;
  s->filtering = 0;
}

sensim_status sensim_world_reset(sensim_world *w) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "sensim_world_reset: world is NULL");
  if (sensim__world_in_callback(w))
    return sensim__fail(SENSIM_ESTATE, "sensim_world_reset: not allowed inside this world's frame callback");
  sensim_runtime *rt = sensim__runtime_of(w);
  size_t n = rt ? rt->nsensors : 0;
  void ***fresh = calloc(n ? n : 1, sizeof *fresh);
  if (!fresh) return sensim__fail(SENSIM_ENOMEM, "sensim_world_reset: out of memory");
  for (size_t i = 0; i < n; i++) {
    sensim_status rc = prepare(rt->sensors[i], &fresh[i]);
    if (rc) {
      for (size_t j = 0; j < i; j++) discard(rt->sensors[j], fresh[j]);
      free(fresh);
      return rc;
    }
  }
  for (size_t i = 0; i < n; i++) commit(rt->sensors[i], fresh[i]);
  free(fresh);
  sensim__world_rewind_bodies(w);
  w->t = -INFINITY;
  return SENSIM_OK;
}
