/* runtime/clock.c: the world's clock. sensim_world_advance starts every
 * capture whose time has come and delivers every frame whose delivery time
 * t_capture + lag has come, in delivery order. Delivery depends on
 * simulation time only, never on how fast jobs run (DESIGN.md).
 *
 * Bounded work: a sensor has at most max_inflight captures whose jobs have
 * not finished; at the bound a capture waits (SENSIM_OVERRUN_WAIT) or is
 * skipped and counted (SENSIM_OVERRUN_SKIP). */
#include <math.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

double sensim_world_time(const sensim_world *w) { return w ? w->t : NAN; }

double sensim__capture_time(const sensim_sensor *s, uint64_t k) {
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

/* Start the sensor's captures with t_k <= t. */
static sensim_status schedule(sensim_sensor *s, double t) {
  for (double tk; (tk = sensim__capture_time(s, s->next_index)) <= t; s->next_index++) {
    if (!claim_slot(s)) {
      s->skipped++;
      continue;
    }
    sensim_status rc = sensim__capture_start(s, s->next_index, tk);
    if (rc) return rc;
  }
  return SENSIM_OK;
}

/* Deliver every due frame of the world in delivery order: by t_deliver,
 * then sensor id (each sensor's due list is in index order, and its
 * t_deliver = t_k + lag grows with k). */
static sensim_status deliver(sensim_runtime *rt, double t) {
  size_t ndue = 0;
  for (size_t i = 0; i < rt->nsensors; i++) {
    sensim_sensor *s = rt->sensors[i];
    if (sensim__sensor_has_due(s, t)) sensim__sensor_collect_due(s, t);
    if (s->due.head) ndue++;
  }
  sensim_status first = SENSIM_OK;
  while (ndue) {
    sensim_sensor *best = NULL;
    for (size_t i = 0; i < rt->nsensors; i++) {
      sensim_sensor *s = rt->sensors[i];
      if (s->due.head && (!best || s->due.head->t_deliver < best->due.head->t_deliver)) best = s;
    }
    sensim_capture *c = sensim__list_pop(&best->due);
    if (!best->due.head) ndue--;
    sensim_status rc = sensim__sensor_hand_over(best, c);
    if (rc && !first) first = rc;
  }
  return first;
}

/* Captures of s an advance to t would start: those with index
 * next_index .. floor((t - phase) rate) (t_k <= t), computed in double so
 * that a far-off t cannot overflow. Only called when one is due. */
static double captures_due(const sensim_sensor *s, double t) {
  double last = floor((t - s->params.phase) * s->params.rate);
  return last - (double)s->next_index + 1.0;
}

sensim_status sensim_world_advance(sensim_world *w, double t) {
  if (!w) return sensim__fail(SENSIM_EINVAL, "sensim_world_advance: world is NULL");
  if (sensim__world_in_callback(w))
    return sensim__fail(SENSIM_ESTATE, "sensim_world_advance: not allowed inside this world's frame callback");
  sensim_status rc0 = sensim__check_time(t, "advance time");
  if (rc0) return rc0;
  if (t < w->t)
    return sensim__fail(SENSIM_ESTATE, "advance time %.9g s is before the world's time %.9g s", t, w->t);
  sensim_runtime *rt = sensim__runtime_of(w);
  /* Checked for every sensor before any capture starts, so a refused
   * advance changes nothing; when nothing is due (most steps of a 1 kHz
   * host) this is the only pass over the sensors. */
  int any_due = 0;
  for (size_t i = 0; rt && i < rt->nsensors; i++) {
    const sensim_sensor *s = rt->sensors[i];
    if (sensim__capture_time(s, s->next_index) > t) continue;
    any_due = 1;
    double n = captures_due(s, t);
    if (n > SENSIM_ADVANCE_MAX_CAPTURES)
      return sensim__fail(SENSIM_EINVAL,
                          "advance to t = %.9g s would start %.0f captures of sensor '%s' (%g Hz from t = %.9g s) "
                          "at once, more than %d (SENSIM_ADVANCE_MAX_CAPTURES): set its phase to where its "
                          "captures should begin",
                          t, n, s->name, s->params.rate, sensim__capture_time(s, s->next_index),
                          SENSIM_ADVANCE_MAX_CAPTURES);
  }
  /* Tiles in range of the sensors come into the scene (loaded the first
   * time) before the step's snapshots; a tile that fails to load is left
   * out and its error returned once the rest of the advance is done. */
  sensim_status first = any_due ? sensim__reach_select_tiles(w, rt, t) : SENSIM_OK;
  for (size_t i = 0; any_due && i < rt->nsensors; i++) {
    sensim_sensor *s = rt->sensors[i];
    if (sensim__capture_time(s, s->next_index) > t) continue;
    sensim_status rc = schedule(s, t);
    if (rc && !first) first = rc;
  }
  w->t = t;
  if (rt) {
    sensim_status rc = deliver(rt, t);
    if (rc && !first) first = rc;
  }
  /* Pushes trim their own track every 64 keyframes; this catches bodies
   * that are not pushed, and needs doing only when the window moved on. */
  if (any_due) sensim__world_trim_tracks(w);
  return first;
}
