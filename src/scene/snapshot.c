/* scene/snapshot.c: immutable copies of the world for capture jobs. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "scene/scene.h"

/* Copy the keyframes of `tr` that cover [t0, t1]: those inside, plus the
 * last one before t0 and the first one after t1. */
static sensim_status copy_window(const sensim_track *tr, double t0, double t1, sensim_body_snap *bs) {
  size_t a = 0, n = tr->n;
  while (a + 1 < n && tr->k[a + 1].t <= t0) a++;
  size_t b = a;
  while (b + 1 < n && tr->k[b].t < t1) b++;
  bs->nk = n ? b - a + 1 : 0;
  if (bs->nk == 0) return SENSIM_OK;
  bs->k = malloc(bs->nk * sizeof *bs->k);
  if (!bs->k) return sensim__fail(SENSIM_ENOMEM, "out of memory for a snapshot of %zu keyframes", bs->nk);
  memcpy(bs->k, tr->k + a, bs->nk * sizeof *bs->k);
  return SENSIM_OK;
}

sensim_status sensim__snapshot_take(const sensim_world *w, double t0, double t1, int all, int only,
                                    sensim_snapshot **out) {
  sensim_snapshot *s = calloc(1, sizeof *s);
  if (!s) return sensim__fail(SENSIM_ENOMEM, "out of memory for a snapshot");
  s->t0 = t0;
  s->t1 = t1;
  s->params = w->params;
  s->nbodies = w->nbodies;
  s->bodies = calloc(w->nbodies ? w->nbodies : 1, sizeof *s->bodies);
  s->nlights = w->nlights;
  s->lights = malloc((w->nlights ? w->nlights : 1) * sizeof *s->lights);
  if (!s->bodies || !s->lights) {
    sensim__snapshot_free(s);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a snapshot");
  }
  if (w->nlights) memcpy(s->lights, w->lights, w->nlights * sizeof *s->lights);
  for (size_t i = 0; i < w->nbodies; i++) {
    const sensim_body *b = w->bodies[i];
    sensim_body_snap *bs = &s->bodies[i];
    bs->mesh = b->mesh;
    bs->body_index = b->index;
    bs->class_id = b->class_id;
    bs->instance_id = b->instance_id;
    bs->is_static = b->is_static;
    if (!all && (int)i != only) continue;
    if (copy_window(&b->track, t0, t1, bs)) {
      sensim__snapshot_free(s);
      return SENSIM_ENOMEM;
    }
  }
  *out = s;
  return SENSIM_OK;
}

void sensim__snapshot_free(sensim_snapshot *s) {
  if (!s) return;
  if (s->bodies)
    for (size_t i = 0; i < s->nbodies; i++) free(s->bodies[i].k);
  free(s->bodies);
  free(s->lights);
  free(s);
}

void sensim__snap_state_at(const sensim_snapshot *s, size_t i, double t, sensim_body_state *out) {
  const sensim_body_snap *b = &s->bodies[i];
  sensim__track_state_at(b->k, b->nk, t, out);
}
