/* runtime/capture.c: one capture's life on the workers. It is started on
 * the host thread (snapshot, the kind's binding, the generator's context),
 * generated on the pool in parallel with the sensor's other captures, and
 * filtered one at a time per sensor in frame order, so stateful filters
 * see frames in order whichever worker generated them (DESIGN.md). */
#include <stdio.h>
#include <stdlib.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

void sensim__capture_free(sensim_capture *c) {
  const sensim_sensor_kind *kind = c->sensor->kind;
  if (kind->release_aux && c->ctx.aux) kind->release_aux(c->ctx.aux);
  sensim__snapshot_free((sensim_snapshot *)c->ctx.snap);
  sensim__frame_release(&c->frame);
  free(c);
}

/* Run the chain on every generated capture whose turn has come. Called with
 * s->mu held by the worker that just finished generating; at most one
 * worker filters a given sensor at a time, so filters may keep state. The
 * turn is the oldest unfinished capture of the in-flight list (index order;
 * skipped indices are simply absent), kept in s->turn: captures finish in
 * list order, here only. */
static void filter_ready(sensim_sensor *s) {
  if (s->filtering) return;
  s->filtering = 1;
  for (;;) {
    sensim_capture *c = s->turn;
    if (!c || c->state != SENSIM_CAP_GENERATED) break;
    pthread_mutex_unlock(&s->mu);
    if (c->status == SENSIM_OK) {
      c->status = sensim__chain_run_forked(&s->chain, &c->frame, c->ctx.key.seed, c->ctx.key.sensor, c->ctx.fork);
      if (c->status) snprintf(c->error, sizeof c->error, "%s", sensim_last_error());
    }
    pthread_mutex_lock(&s->mu);
    c->state = SENSIM_CAP_DONE;
    s->turn = c->next;
    s->unfinished--;
    pthread_cond_broadcast(&s->cv);
  }
  s->filtering = 0;
}

void sensim__capture_run(void *arg) {
  sensim_capture *c = arg;
  sensim_sensor *s = c->sensor;
  c->status = s->kind->generate(c->ctx, &c->frame);
  if (c->status) snprintf(c->error, sizeof c->error, "%s", sensim_last_error());
  /* The snapshot and binding are the generator's alone: give them back
   * now rather than when the frame is polled. */
  if (s->kind->release_aux && c->ctx.aux) s->kind->release_aux(c->ctx.aux);
  c->ctx.aux = NULL;
  sensim__snapshot_free((sensim_snapshot *)c->ctx.snap);
  c->ctx.snap = NULL;
  pthread_mutex_lock(&s->mu);
  c->state = SENSIM_CAP_GENERATED;
  filter_ready(s);
  pthread_mutex_unlock(&s->mu);
}

sensim_status sensim__capture_start(sensim_sensor *s, uint64_t k, double tk) {
  const sensim_sensor_params *p = &s->params;
  sensim_capture *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory for a capture", s->name);
  c->sensor = s;
  int carrier = p->body ? p->body->index : -1;
  sensim_snapshot *snap = NULL;
  sensim_status rc = sensim__snapshot_take(s->world, tk - p->window, tk, s->kind->needs_geometry, carrier, &snap);
  c->ctx.snap = snap;
  if (!rc && s->kind->prepare) rc = s->kind->prepare(s->impl, s->world, snap, &c->ctx.aux);
  if (rc) {
    sensim__capture_free(c);
    sensim__error_context("sensor '%s'", s->name);
    return rc;
  }
  sensim_capture_ctx *x = &c->ctx;
  x->impl = s->impl;
  x->index = k;
  x->t_capture = tk;
  x->window = p->window;
  x->rate = p->rate;
  x->phase = p->phase;
  x->lag = p->lag;
  x->mount = p->mount;
  x->carrier = carrier;
  x->key.seed = s->world->params.seed;
  x->key.sensor = (uint32_t)s->id;
  x->key.frame = k;
  x->fork.pool = s->rt->pool;
  c->t_deliver = tk + p->lag;
  c->state = SENSIM_CAP_PENDING;
  sensim_frame *f = &c->frame;
  f->sensor_id = s->id;
  f->index = k;
  f->t_capture = tk;
  f->t_deliver = c->t_deliver;
  f->window = p->window;
  f->pose = sensim__ctx_pose_at(x, tk);
  c->job.fn = sensim__capture_run;
  c->job.arg = c;
  pthread_mutex_lock(&s->mu);
  sensim__list_push(&s->inflight, c);
  if (!s->turn) s->turn = c;
  s->unfinished++;
  pthread_mutex_unlock(&s->mu);
  s->captured++;
  sensim__pool_submit(s->rt->pool, &c->job);
  return SENSIM_OK;
}
