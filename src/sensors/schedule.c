/* sensors/schedule.c: the world's clock. Captures are started when their
 * time is reached, generated on the pool in parallel, filtered one at a time
 * per sensor in frame order, and delivered when the host's time reaches
 * t_capture + lag. Delivery depends on simulation time only (DESIGN.md).
 *
 * Bounded work: a sensor has at most max_inflight captures whose jobs have
 * not finished; at the bound a capture waits (SENSIM_OVERRUN_WAIT) or is
 * skipped and counted (SENSIM_OVERRUN_SKIP). Finished frames wait for their
 * delivery time, at most floor(lag * rate) + 1 of them per sensor. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "sensors/sensor_internal.h"

/* The world whose frame callback runs on this thread now, if any: the
 * calls a callback must not make check it (sensor.h). */
static _Thread_local const sensim_world *tl_callback_world;

int sensim__world_in_callback(const sensim_world *w) { return w && tl_callback_world == w; }

/* Run the chain on every generated capture whose turn has come. Called with
 * s->mu held by the worker that just finished generating; at most one
 * worker filters a given sensor at a time, so filters may keep state. The
 * turn is the oldest unfinished capture of the in-flight list (index order;
 * skipped indices are simply absent). */
static void filter_ready(sensim_sensor *s) {
  if (s->filtering) return;
  s->filtering = 1;
  for (;;) {
    sensim_capture *c = s->inflight;
    while (c && c->state == SENSIM_CAP_DONE) c = c->next;
    if (!c || c->state != SENSIM_CAP_GENERATED) break;
    pthread_mutex_unlock(&s->mu);
    if (c->status == SENSIM_OK) {
      c->status = sensim__chain_run(&s->chain, &c->frame, s->world->params.seed, (uint32_t)s->id);
      if (c->status) snprintf(c->error, sizeof c->error, "%s", sensim_last_error());
    }
    pthread_mutex_lock(&s->mu);
    c->state = SENSIM_CAP_DONE;
    s->next_filter = c->index + 1;
    s->unfinished--;
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

/* Make room under the sensor's bound: 1 when the capture may start, 0 when
 * the policy skips it. */
static int claim_slot(sensim_sensor *s) {
  pthread_mutex_lock(&s->mu);
  if (s->unfinished >= s->max_inflight && s->overrun == SENSIM_OVERRUN_SKIP) {
    pthread_mutex_unlock(&s->mu);
    return 0;
  }
  while (s->unfinished >= s->max_inflight) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
  return 1;
}

sensim_status sensim__sensor_schedule(sensim_sensor *s, double t) {
  const sensim_sensor_params *p = &s->params;
  for (;;) {
    double tk = capture_time(s, s->next_index);
    if (tk > t) return SENSIM_OK;
    if (!claim_slot(s)) {
      s->next_index++;
      s->skipped++;
      continue;
    }
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
    s->unfinished++;
    pthread_mutex_unlock(&s->mu);
    s->next_index++;
    s->captured++;
    sensim__pool_submit(s->world->pool, &c->job);
  }
}

/* Move the captures due by t from the in-flight list to the due list,
 * waiting for the jobs of those only. */
static void collect_due(sensim_sensor *s, double t) {
  /* The host thread alone links and unlinks captures, so it may read the
   * head without the lock; workers only change capture states. */
  if (!s->inflight || s->inflight->t_deliver > t) return;
  pthread_mutex_lock(&s->mu);
  while (s->inflight && s->inflight->t_deliver <= t) {
    sensim_capture *c = s->inflight;
    while (c->state != SENSIM_CAP_DONE) {
      /* A job still queued behind other sensors' work (a 200 Hz IMU behind
       * a camera frame) would make the host wait for all of that work:
       * take it back and run it here. Who runs a job does not change its
       * frame (filters still run in frame order, filter_ready). */
      if (c->state == SENSIM_CAP_PENDING && sensim__pool_take(s->world->pool, &c->job)) {
        pthread_mutex_unlock(&s->mu);
        capture_run(c);
        pthread_mutex_lock(&s->mu);
        continue;
      }
      pthread_cond_wait(&s->cv, &s->mu);
    }
    s->inflight = c->next;
    if (!s->inflight) s->inflight_tail = NULL;
    c->next = NULL;
    if (s->due_tail) s->due_tail->next = c;
    else s->due = c;
    s->due_tail = c;
  }
  pthread_mutex_unlock(&s->mu);
}

static void capture_free(sensim_capture *c) {
  sensim__snapshot_free(c->snap);
  sensim__frame_release(&c->frame);
  free(c);
}

/* Hand one due capture over: a failed frame is dropped with its error kept
 * for advance's status, a good one goes to the callback (then freed) or to
 * the poll queue. */
static sensim_status hand_over(sensim_sensor *s, sensim_capture *c) {
  if (c->status != SENSIM_OK) {
    sensim_status rc = sensim__fail(c->status, "sensor '%s' frame %llu: %s", s->name,
                                    (unsigned long long)c->index, c->error);
    capture_free(c);
    return rc;
  }
  s->delivered++;
  if (s->callback) {
    const sensim_world *outer = tl_callback_world;
    tl_callback_world = s->world;
    s->callback(s, &c->frame, s->callback_user);
    tl_callback_world = outer;
    capture_free(c);
    return SENSIM_OK;
  }
  if (s->ready_tail) s->ready_tail->next = c;
  else s->ready = c;
  s->ready_tail = c;
  return SENSIM_OK;
}

sensim_status sensim__sensor_deliver(sensim_sensor *s, double t) {
  collect_due(s, t);
  sensim_status first = SENSIM_OK;
  while (s->due) {
    sensim_capture *c = s->due;
    s->due = c->next;
    if (!s->due) s->due_tail = NULL;
    c->next = NULL;
    sensim_status rc = hand_over(s, c);
    if (rc && !first) first = rc;
  }
  return first;
}

/* Deliver every due frame of the world in delivery order: by t_deliver,
 * then sensor id (each sensor's due list is already in index order, and its
 * t_deliver = t_k + lag grows with k). */
static sensim_status deliver_all(sensim_world *w, double t) {
  size_t ndue = 0;
  for (size_t i = 0; i < w->nsensors; i++) {
    collect_due(w->sensors[i], t);
    if (w->sensors[i]->due) ndue++;
  }
  sensim_status first = SENSIM_OK;
  while (ndue) {
    sensim_sensor *best = NULL;
    for (size_t i = 0; i < w->nsensors; i++) {
      sensim_sensor *s = w->sensors[i];
      if (s->due && (!best || s->due->t_deliver < best->due->t_deliver)) best = s;
    }
    sensim_capture *c = best->due;
    best->due = c->next;
    if (!best->due) {
      best->due_tail = NULL;
      ndue--;
    }
    c->next = NULL;
    sensim_status rc = hand_over(best, c);
    if (rc && !first) first = rc;
  }
  return first;
}

sensim_status sensim_world_advance(sensim_world *w, double t) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "sensim_world_advance: world is NULL");
  if (sensim__world_in_callback(w))
    return sensim__fail(SENSIM_ESTATE, "sensim_world_advance: not allowed inside this world's frame callback");
  if (!isfinite(t)) return sensim__fail(SENSIM_EINVAL, "advance time %g is not finite", t);
  if (t < w->t)
    return sensim__fail(SENSIM_ESTATE, "advance time %.9g s is before the world's time %.9g s", t, w->t);
  sensim_status first = SENSIM_OK;
  int scheduled = 0;
  for (size_t i = 0; i < w->nsensors; i++) {
    sensim_sensor *s = w->sensors[i];
    if (capture_time(s, s->next_index) > t) continue;
    scheduled = 1;
    sensim_status rc = sensim__sensor_schedule(s, t);
    if (rc && !first) first = rc;
  }
  w->t = t;
  sensim_status rc = deliver_all(w, t);
  if (rc && !first) first = rc;
  /* Pushes trim their own track every 64 keyframes; this catches bodies
   * that are not pushed, and needs doing only when the window moved on. */
  if (scheduled) sensim__world_trim_tracks(w);
  return first;
}

sensim_status sensim_world_reset(sensim_world *w) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "sensim_world_reset: world is NULL");
  if (sensim__world_in_callback(w))
    return sensim__fail(SENSIM_ESTATE, "sensim_world_reset: not allowed inside this world's frame callback");
  /* Everything that can fail comes first, into side storage, so a failure
   * leaves the world as it was. */
  void ***fresh = calloc(w->nsensors ? w->nsensors : 1, sizeof *fresh);
  if (!fresh) return sensim__fail(SENSIM_ENOMEM, "sensim_world_reset: out of memory");
  for (size_t i = 0; i < w->nsensors; i++) {
    sensim_status rc = sensim__sensor_reset_prepare(w->sensors[i], &fresh[i]);
    if (rc) {
      for (size_t j = 0; j < i; j++) sensim__sensor_reset_discard(w->sensors[j], fresh[j]);
      free(fresh);
      return rc;
    }
  }
  for (size_t i = 0; i < w->nsensors; i++) sensim__sensor_reset_commit(w->sensors[i], fresh[i]);
  free(fresh);
  /* A dynamic body goes back to its creation pose, at rest, as a keyframe
   * at -inf, exactly as sensim_body_create left it: it stands there until
   * the host's first push of the new episode replaces it (scene/body.c).
   * The keyframe array keeps its capacity. */
  for (size_t d = 0; d < w->ndynamic; d++) {
    sensim_body *b = w->bodies[w->dynamic[d]];
    sensim_track *tr = &b->track;
    if (tr->n == 0) continue;
    memset(&tr->k[0], 0, sizeof tr->k[0]);
    tr->k[0].t = -INFINITY;
    tr->k[0].s.pose = b->pose0;
    tr->k[0].s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    tr->k[0].given = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    tr->n = 1;
  }
  w->t = -INFINITY;
  return SENSIM_OK;
}
