/* sensors/schedule.c: the world's clock. Captures are started when their
 * time is reached, generated on the pool in parallel, filtered one at a time
 * per sensor in frame order, and delivered when the host's time reaches
 * t_capture + lag. Delivery depends on simulation time only (DESIGN.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/sensor_internal.h"

/* Run the chain on every generated capture whose turn has come. Called with
 * s->mu held by the worker that just finished generating; at most one
 * worker filters a given sensor at a time, so filters may keep state. */
static void filter_ready(sensim_sensor *s) {
  if (s->filtering) return;
  s->filtering = 1;
  for (;;) {
    sensim_capture *c = s->inflight;
    while (c && c->state == SENSIM_CAP_DONE) c = c->next;
    if (!c || c->state != SENSIM_CAP_GENERATED || c->index != s->next_filter) break;
    pthread_mutex_unlock(&s->mu);
    if (c->status == SENSIM_OK) {
      c->status = sensim__chain_run(&s->chain, &c->frame, s->world->params.seed, (uint32_t)s->id);
      if (c->status) snprintf(c->error, sizeof c->error, "%s", sensim_last_error());
    }
    pthread_mutex_lock(&s->mu);
    c->state = SENSIM_CAP_DONE;
    s->next_filter++;
    pthread_cond_broadcast(&s->cv);
  }
  s->filtering = 0;
}

static void capture_run(void *arg) {
  sensim_capture *c = arg;
  sensim_sensor *s = c->sensor;
  c->status = s->kind->generate(s, c, &c->frame);
  if (c->status) snprintf(c->error, sizeof c->error, "%s", sensim_last_error());
  sensim__snapshot_free(c->snap);
  c->snap = NULL;
  if (s->kind->release_aux && c->aux) s->kind->release_aux(c->aux);
  c->aux = NULL;
  pthread_mutex_lock(&s->mu);
  c->state = SENSIM_CAP_GENERATED;
  filter_ready(s);
  pthread_mutex_unlock(&s->mu);
}

static double capture_time(const sensim_sensor *s, uint64_t k) {
  /* Computed from k, never accumulated, so no drift over long runs. */
  return s->params.phase + (double)k / s->params.rate;
}

sensim_status sensim__sensor_schedule(sensim_sensor *s, double t) {
  const sensim_sensor_params *p = &s->params;
  for (;;) {
    double tk = capture_time(s, s->next_index);
    if (tk > t) return SENSIM_OK;
    sensim_capture *c = calloc(1, sizeof *c);
    if (!c) return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory for a capture", s->name);
    int only = p->body ? p->body->index : -1;
    sensim_status rc =
        sensim__snapshot_take(s->world, tk - p->window, tk, s->kind->needs_geometry, only, &c->snap);
    if (rc) {
      free(c);
      sensim__error_context("sensor '%s'", s->name);
      return rc;
    }
    c->sensor = s;
    if (s->kind->prepare && (rc = s->kind->prepare(s, c))) {
      sensim__snapshot_free(c->snap);
      free(c);
      sensim__error_context("sensor '%s'", s->name);
      return rc;
    }
    c->index = s->next_index;
    c->t_capture = tk;
    c->t_deliver = tk + p->lag;
    c->state = SENSIM_CAP_PENDING;
    sensim_frame *f = &c->frame;
    f->sensor_id = s->id;
    f->index = c->index;
    f->t_capture = tk;
    f->t_deliver = c->t_deliver;
    f->window = p->window;
    f->pose = sensim__sensor_pose_at(s, c->snap, tk);
    c->job.fn = capture_run;
    c->job.arg = c;
    pthread_mutex_lock(&s->mu);
    if (s->inflight_tail) s->inflight_tail->next = c;
    else s->inflight = c;
    s->inflight_tail = c;
    pthread_mutex_unlock(&s->mu);
    s->next_index++;
    s->captured++;
    sensim__pool_submit(s->world->pool, &c->job);
  }
}

sensim_status sensim__sensor_deliver(sensim_sensor *s, double t) {
  sensim_status first = SENSIM_OK;
  pthread_mutex_lock(&s->mu);
  while (s->inflight && s->inflight->t_deliver <= t) {
    sensim_capture *c = s->inflight;
    while (c->state != SENSIM_CAP_DONE) pthread_cond_wait(&s->cv, &s->mu);
    s->inflight = c->next;
    if (!s->inflight) s->inflight_tail = NULL;
    c->next = NULL;
    if (c->status != SENSIM_OK) {
      /* A failed frame is not delivered; the host learns why from advance. */
      if (!first) first = sensim__fail(c->status, "sensor '%s' frame %llu: %s", s->name,
                                       (unsigned long long)c->index, c->error);
      sensim__frame_release(&c->frame);
      sensim__snapshot_free(c->snap);
      free(c);
      continue;
    }
    if (s->ready_tail) s->ready_tail->next = c;
    else s->ready = c;
    s->ready_tail = c;
    s->delivered++;
  }
  pthread_mutex_unlock(&s->mu);
  return first;
}

sensim_status sensim_world_advance(sensim_world *w, double t) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "sensim_world_advance: world is NULL");
  if (!isfinite(t)) return sensim__fail(SENSIM_EINVAL, "advance time %g is not finite", t);
  if (t < w->t)
    return sensim__fail(SENSIM_ESTATE, "advance time %.9g s is before the world's time %.9g s", t, w->t);
  sensim_status first = SENSIM_OK;
  for (size_t i = 0; i < w->nsensors; i++) {
    sensim_status rc = sensim__sensor_schedule(w->sensors[i], t);
    if (rc && !first) first = rc;
  }
  w->t = t;
  for (size_t i = 0; i < w->nsensors; i++) {
    sensim_status rc = sensim__sensor_deliver(w->sensors[i], t);
    if (rc && !first) first = rc;
  }
  sensim__world_trim_tracks(w);
  return first;
}
