/* runtime/capture.c: one capture's life on the workers. It is started on
 * the host thread (snapshot, the kind's binding, the generator's context),
 * generated on the pool in parallel with the sensor's other captures, and
 * filtered one at a time per sensor in frame order, so stateful filters
 * see frames in order whichever worker generated them (DESIGN.md).
 *
 * Nothing here allocates in steady state: a capture's record (with its
 * snapshot block) comes from the sensor's spares, and the frame buffers
 * its generator and chain ask for come from the sensor's frame pool, made
 * the worker's current pool for exactly those two spans
 * (core/frame_pool.h says why a thread-local). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

void sensim__capture_free(sensim_capture *c) {
  sensim_sensor *s = c->sensor;
  if (s->kind->release_aux && c->ctx.aux) s->kind->release_aux(c->ctx.aux);
  c->ctx.aux = NULL;
  c->ctx.snap = NULL; /* it lives in snap_block */
  sensim__frame_pool_release(s->frames, &c->frame);
  /* Captures in use are at most max_inflight plus those delivered and not
   * yet polled: in steady state one record is freed for each started, so a
   * few spares are all that is ever reused. */
  if (s->nspare < s->max_inflight + 2) {
    c->next = s->spare;
    s->spare = c;
    s->nspare++;
    return;
  }
  free(c->snap_block);
  free(c);
}

/* A zeroed capture record, reusing a spare (and its snapshot block). */
static sensim_capture *capture_new(sensim_sensor *s) {
  sensim_capture *c = s->spare;
  if (!c) return calloc(1, sizeof *c);
  s->spare = c->next;
  s->nspare--;
  void *block = c->snap_block;
  size_t cap = c->snap_cap;
  memset(c, 0, sizeof *c);
  c->snap_block = block;
  c->snap_cap = cap;
  return c;
}

void sensim__sensor_free_spares(sensim_sensor *s) {
  for (sensim_capture *c; (c = s->spare);) {
    s->spare = c->next;
    free(c->snap_block);
    free(c);
  }
  s->nspare = 0;
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
      sensim_frame_pool *outer = sensim__frame_pool_enter(s->frames);
      c->status = sensim__chain_run_forked(&s->chain, &c->frame, c->ctx.key.seed, c->ctx.key.sensor, c->ctx.fork);
      sensim__frame_pool_leave(outer);
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
  sensim_frame_pool *outer = sensim__frame_pool_enter(s->frames);
  c->status = s->kind->generate(c->ctx, &c->frame);
  sensim__frame_pool_leave(outer);
  if (c->status) snprintf(c->error, sizeof c->error, "%s", sensim_last_error());
  /* The binding is the generator's alone: give it back now rather than
   * when the frame is polled. The snapshot's block stays with the record
   * for the sensor's next capture. */
  if (s->kind->release_aux && c->ctx.aux) s->kind->release_aux(c->ctx.aux);
  c->ctx.aux = NULL;
  c->ctx.snap = NULL;
  pthread_mutex_lock(&s->mu);
  c->state = SENSIM_CAP_GENERATED;
  filter_ready(s);
  pthread_mutex_unlock(&s->mu);
}

sensim_status sensim__capture_start(sensim_sensor *s, uint64_t k, double tk) {
  const sensim_sensor_params *p = &s->params;
  sensim_capture *c = capture_new(s);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory for a capture", s->name);
  c->sensor = s;
  int carrier = p->body ? p->body->index : -1;
  sensim_snapshot *snap = NULL;
  sensim_reach reach;
  sensim_status rc = sensim__snapshot_take_into(s->world, tk - p->window, tk, s->kind->needs_geometry, carrier,
                                                sensim__reach_of_capture(s, tk - p->window, tk, &reach),
                                                &c->snap_block, &c->snap_cap, &snap);
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
