/* runtime/queue.c: a sensor's capture queues. A capture is in flight from
 * its start until its delivery time, then due, then handed over: to the
 * frame callback, or to the ready queue that sensim_sensor_poll empties.
 * The host thread alone links and unlinks captures. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

void sensim__list_push(sensim_capture_list *l, sensim_capture *c) {
  c->next = NULL;
  if (l->tail) l->tail->next = c;
  else l->head = c;
  l->tail = c;
}

sensim_capture *sensim__list_pop(sensim_capture_list *l) {
  sensim_capture *c = l->head;
  if (!c) return NULL;
  l->head = c->next;
  if (!l->head) l->tail = NULL;
  c->next = NULL;
  return c;
}

void sensim__sensor_collect_due(sensim_sensor *s, double t) {
  pthread_mutex_lock(&s->mu);
  while (s->inflight.head && s->inflight.head->t_deliver <= t) {
    sensim_capture *c = s->inflight.head;
    while (c->state != SENSIM_CAP_DONE) {
      /* A job still queued behind other sensors' work (a 200 Hz IMU behind
       * a camera frame) would make the host wait for all of that work:
       * take it back and run it here. Who runs a job does not change its
       * frame (filters still run in frame order). */
      if (c->state == SENSIM_CAP_PENDING && sensim__pool_take(s->rt->pool, &c->job)) {
        pthread_mutex_unlock(&s->mu);
        sensim__capture_run(c);
        pthread_mutex_lock(&s->mu);
        continue;
      }
      pthread_cond_wait(&s->cv, &s->mu);
    }
    sensim__list_push(&s->due, sensim__list_pop(&s->inflight));
  }
  pthread_mutex_unlock(&s->mu);
}

sensim_status sensim__sensor_hand_over(sensim_sensor *s, sensim_capture *c) {
  if (c->status != SENSIM_OK) {
    s->failed++;
    sensim_status rc = sensim__fail(c->status, "sensor '%s' frame %llu: %s", s->name,
                                    (unsigned long long)c->ctx.index, c->error);
    sensim__capture_free(c);
    return rc;
  }
  s->delivered++;
  if (s->callback) {
    sensim__run_callback(s, &c->frame);
    sensim__capture_free(c);
    return SENSIM_OK;
  }
  sensim__list_push(&s->ready, c);
  return SENSIM_OK;
}

void sensim__sensor_wait_idle(sensim_sensor *s) {
  pthread_mutex_lock(&s->mu);
  for (sensim_capture *c = s->inflight.head; c; c = c->next)
    while (c->state != SENSIM_CAP_DONE) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

void sensim__sensor_drop_captures(sensim_sensor *s) {
  sensim_capture_list *lists[3] = {&s->inflight, &s->due, &s->ready};
  for (int i = 0; i < 3; i++)
    for (sensim_capture *c; (c = sensim__list_pop(lists[i]));) sensim__capture_free(c);
  if (s->polled) sensim__capture_free(s->polled);
  s->polled = NULL;
  s->turn = NULL;
}

sensim_status sensim_sensor_poll(sensim_sensor *s, const sensim_frame **frame) {
  if (!s || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_poll: NULL argument");
  if (s->polled) {
    sensim__capture_free(s->polled);
    s->polled = NULL;
  }
  s->polled = sensim__list_pop(&s->ready);
  *frame = s->polled ? &s->polled->frame : NULL;
  return SENSIM_OK;
}

sensim_status sensim_sensor_take(sensim_sensor *s, sensim_frame *out, int *got) {
  if (!s || !out || !got) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_take: NULL argument");
  if (s->polled) {
    sensim__capture_free(s->polled);
    s->polled = NULL;
  }
  sensim_capture *c = sensim__list_pop(&s->ready);
  *got = c != NULL;
  if (!c) return SENSIM_OK;
  *out = c->frame;
  memset(&c->frame, 0, sizeof c->frame); /* the buffers are the caller's now */
  sensim__capture_free(c);
  return SENSIM_OK;
}

void sensim_sensor_recycle(sensim_sensor *s, sensim_frame *frame) {
  if (!frame) return;
  /* Any malloc block may join the pool: one from another sensor, of
   * another size, or built by the host. The pool knows a block's capacity
   * from malloc itself, so a wrong-sized block is only ever reused for a
   * request it can hold. */
  sensim__frame_pool_release(s ? s->frames : NULL, frame);
}

int sensim_sensor_frames_unfinished(const sensim_sensor *s) {
  if (!s) return 0;
  sensim_sensor *m = (sensim_sensor *)s; /* the lock, not the sensor, changes */
  pthread_mutex_lock(&m->mu);
  int n = m->unfinished;
  pthread_mutex_unlock(&m->mu);
  return n;
}

size_t sensim_sensor_frames_queued(const sensim_sensor *s) {
  size_t n = 0;
  for (const sensim_capture *c = s ? s->ready.head : NULL; c; c = c->next) n++;
  return n;
}
