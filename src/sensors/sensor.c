/* sensors/sensor.c: the sensor object every kind shares: creation,
 * parameters, filter chain, poll and lookups. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/sensor_internal.h"

void sensim_sensor_params_init(sensim_sensor_params *p) {
  memset(p, 0, sizeof *p);
  p->name = "sensor";
  p->mount = sensim_pose_identity();
  p->rate = 10.0;
  p->window = -1.0;
}

static sensim_status check_params(const sensim_world *w, const sensim_sensor_params *p) {
  if (!(p->rate > 0.0 && p->rate <= 1e6))
    return sensim__fail(SENSIM_EINVAL, "sensor rate %g Hz must be in (0, 1e6]", p->rate);
  if (!(p->phase >= 0.0 && isfinite(p->phase)))
    return sensim__fail(SENSIM_EINVAL, "sensor phase %g s must be finite and >= 0", p->phase);
  if (!(p->lag >= 0.0 && isfinite(p->lag)))
    return sensim__fail(SENSIM_EINVAL, "sensor lag %g s must be finite and >= 0", p->lag);
  if (!isfinite(p->window)) return sensim__fail(SENSIM_EINVAL, "sensor window %g s must be finite", p->window);
  if (p->body && p->body->world != w) return sensim__fail(SENSIM_EINVAL, "sensor body belongs to another world");
  if (p->name && (!p->name[0] || strlen(p->name) > 200))
    return sensim__fail(SENSIM_EINVAL, "sensor name must have 1 to 200 characters");
  return sensim__check_pose(&p->mount, "sensor mount");
}

sensim_status sensim__sensor_create(sensim_world *w, const sensim_sensor_params *sp,
                                    const sensim_sensor_kind *kind, void *impl, sensim_sensor **out) {
  sensim_status rc = SENSIM_OK;
  sensim_sensor *s = NULL;
  char autoname[64];
  if (!w || !sp || !out) {
    rc = sensim__fail(SENSIM_EINVAL, "sensim_%s_create: NULL argument", kind->name);
    goto fail;
  }
  if (sensim__world_in_callback(w)) {
    rc = sensim__fail(SENSIM_ESTATE, "sensim_%s_create: not allowed inside a frame callback", kind->name);
    goto fail;
  }
  if ((rc = check_params(w, sp))) goto fail;
  const char *name = sp->name;
  if (!name || strcmp(name, "sensor") == 0) {
    snprintf(autoname, sizeof autoname, "%s%zu", kind->name, w->nsensors);
    name = autoname;
  }
  if (sensim_world_sensor_by_name(w, name)) {
    rc = sensim__fail(SENSIM_EINVAL, "a sensor named '%s' already exists", name);
    goto fail;
  }
  if ((rc = sensim__grow((void **)&w->sensors, &w->cap_sensors, w->nsensors + 1, sizeof *w->sensors))) goto fail;
  s = calloc(1, sizeof *s);
  if (!s) {
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a sensor");
    goto fail;
  }
  s->name = sensim__strdup(name);
  if (!s->name) {
    free(s);
    rc = SENSIM_ENOMEM;
    goto fail;
  }
  s->world = w;
  s->id = (int)w->nsensors;
  s->kind = kind;
  s->impl = impl;
  s->params = *sp;
  s->params.name = s->name;
  if (s->params.window < 0) s->params.window = kind->default_window(impl, sp->rate);
  sensim__chain_init(&s->chain, kind->raw_type);
  s->max_inflight = SENSIM_SENSOR_MAX_INFLIGHT_DEFAULT;
  s->overrun = SENSIM_OVERRUN_WAIT;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  w->sensors[w->nsensors++] = s;
  w->sensor_release = sensim__sensor_destroy;
  if (s->params.window > w->max_window) w->max_window = s->params.window;
  *out = s;
  return SENSIM_OK;
fail:
  if (kind->destroy) kind->destroy(impl);
  return rc;
}

static void capture_free(sensim_capture *c) {
  sensim__snapshot_free(c->snap);
  sensim__frame_release(&c->frame);
  free(c);
}

void sensim__sensor_wait_idle(sensim_sensor *s) {
  pthread_mutex_lock(&s->mu);
  for (sensim_capture *c = s->inflight; c; c = c->next)
    while (c->state != SENSIM_CAP_DONE) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

/* Free every capture the sensor holds; its jobs must have finished. */
static void drop_captures(sensim_sensor *s) {
  sensim_capture *lists[4] = {s->inflight, s->due, s->ready, s->polled};
  for (int i = 0; i < 4; i++)
    for (sensim_capture *c = lists[i], *n; c; c = n) {
      n = c->next;
      capture_free(c);
    }
  s->inflight = s->inflight_tail = s->due = s->due_tail = s->ready = s->ready_tail = NULL;
  s->polled = NULL;
}

void sensim__sensor_destroy(sensim_sensor *s) {
  /* Wait for every job of this sensor: they hold pointers into it. */
  sensim__sensor_wait_idle(s);
  drop_captures(s);
  sensim__chain_free(&s->chain);
  for (size_t i = 0; i < s->cap_specs; i++) free(s->specs[i].params_json);
  free(s->specs);
  if (s->kind->destroy) s->kind->destroy(s->impl);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  free(s->name);
  free(s);
}

static sensim_status check_open(const sensim_sensor *s) {
  if (sensim__world_in_callback(s->world))
    return sensim__fail(SENSIM_ESTATE, "sensor '%s': filters cannot change inside a frame callback", s->name);
  if (s->captured > 0 || s->next_index > 0)
    return sensim__fail(SENSIM_ESTATE, "sensor '%s' has started capturing; its filter chain is fixed", s->name);
  return SENSIM_OK;
}

/* Room for the spec of one more chain link; new slots are zeroed so
 * destroy can free every slot up to cap_specs. */
static sensim_status grow_specs(sensim_sensor *s) {
  size_t old = s->cap_specs;
  sensim_status rc = sensim__grow((void **)&s->specs, &s->cap_specs, s->chain.n + 1, sizeof *s->specs);
  if (rc) return rc;
  memset(s->specs + old, 0, (s->cap_specs - old) * sizeof *s->specs);
  return SENSIM_OK;
}

sensim_status sensim_sensor_add_filter(sensim_sensor *s, const char *name, const char *params_json) {
  if (!s || !name) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_add_filter: NULL argument");
  sensim_status rc = check_open(s);
  if (rc) return rc;
  const sensim_builtin_filter *b = sensim__filter_find(name);
  if (!b) return sensim__fail(SENSIM_ENOTFOUND, "sensor '%s': unknown filter '%s'", s->name, name);
  sensim_payload have = sensim__chain_output(&s->chain);
  int takes = b->def.in == have;
  if (b->def.in == SENSIM_PAYLOAD_ANY) {
    takes = b->accepts == NULL;
    for (const sensim_payload *a = b->accepts; a && *a != SENSIM_PAYLOAD_NONE && !takes; a++) takes = *a == have;
  }
  if (!takes)
    return sensim__fail(SENSIM_ETYPE, "sensor '%s': filter '%s' does not take %s%s%s", s->name, name,
                        sensim_payload_name(have), b->def.in == SENSIM_PAYLOAD_ANY ? "" : ", it takes ",
                        b->def.in == SENSIM_PAYLOAD_ANY ? "" : sensim_payload_name(b->def.in));
  cJSON *params = NULL;
  if (params_json) {
    params = cJSON_Parse(params_json);
    if (!params || !cJSON_IsObject(params)) {
      cJSON_Delete(params);
      return sensim__fail(SENSIM_EPARSE, "sensor '%s': filter '%s' parameters are not a JSON object", s->name,
                          name);
    }
  }
  if ((rc = grow_specs(s))) {
    cJSON_Delete(params);
    return rc;
  }
  char *copy = NULL;
  if (params_json && !(copy = sensim__strdup(params_json))) {
    cJSON_Delete(params);
    return SENSIM_ENOMEM;
  }
  void *user = NULL;
  rc = b->create(params, &user);
  cJSON_Delete(params);
  if (rc) {
    free(copy);
    sensim__error_context("sensor '%s': filter '%s'", s->name, name);
    return rc;
  }
  size_t at = s->chain.n;
  rc = sensim__chain_append(&s->chain, &b->def, user);
  if (rc) {
    if (b->def.destroy) b->def.destroy(user);
    free(copy);
    return rc;
  }
  s->specs[at].builtin = b;
  s->specs[at].params_json = copy;
  return SENSIM_OK;
}

sensim_status sensim_sensor_add_user_filter(sensim_sensor *s, const sensim_filter_def *def, void *user) {
  if (!s || !def || !def->apply) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_add_user_filter: NULL argument");
  sensim_status rc = check_open(s);
  if (rc) return rc;
  if ((rc = grow_specs(s))) return rc;
  size_t at = s->chain.n;
  rc = sensim__chain_append(&s->chain, def, user);
  if (rc) {
    sensim__error_context("sensor '%s'", s->name);
    return rc;
  }
  s->specs[at].builtin = NULL;
  s->specs[at].params_json = NULL;
  return SENSIM_OK;
}

sensim_status sensim_sensor_poll(sensim_sensor *s, const sensim_frame **frame) {
  if (!s || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_poll: NULL argument");
  if (s->polled) {
    capture_free(s->polled);
    s->polled = NULL;
  }
  *frame = NULL;
  sensim_capture *c = s->ready;
  if (!c) return SENSIM_OK;
  s->ready = c->next;
  if (!s->ready) s->ready_tail = NULL;
  c->next = NULL;
  s->polled = c;
  *frame = &c->frame;
  return SENSIM_OK;
}

/* The accessors answer a NULL sensor with a neutral value (NONE, -1, NULL,
 * 0) rather than crashing: a host that failed to create a sensor may still
 * report on it. */
sensim_payload sensim_sensor_output_type(const sensim_sensor *s) {
  return s ? sensim__chain_output(&s->chain) : SENSIM_PAYLOAD_NONE;
}
int sensim_sensor_id(const sensim_sensor *s) { return s ? s->id : -1; }
const char *sensim_sensor_name(const sensim_sensor *s) { return s ? s->name : NULL; }
const sensim_sensor_params *sensim_sensor_params_get(const sensim_sensor *s) { return s ? &s->params : NULL; }
uint64_t sensim_sensor_frames_captured(const sensim_sensor *s) { return s ? s->captured : 0; }
uint64_t sensim_sensor_frames_delivered(const sensim_sensor *s) { return s ? s->delivered : 0; }

sensim_status sensim_sensor_set_overrun(sensim_sensor *s, int max_inflight, sensim_overrun policy) {
  if (!s) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_set_overrun: sensor is NULL");
  if (max_inflight < 0 || max_inflight > 1024)
    return sensim__fail(SENSIM_EINVAL, "sensor '%s': max_inflight %d must be in [1, 1024] (0 keeps %d)", s->name,
                        max_inflight, s->max_inflight);
  if (policy != SENSIM_OVERRUN_WAIT && policy != SENSIM_OVERRUN_SKIP)
    return sensim__fail(SENSIM_EINVAL, "sensor '%s': overrun policy %d is neither WAIT nor SKIP", s->name,
                        (int)policy);
  /* Read by the host thread only (schedule), so no lock is needed. */
  if (max_inflight) s->max_inflight = max_inflight;
  s->overrun = policy;
  return SENSIM_OK;
}

sensim_status sensim_sensor_set_callback(sensim_sensor *s, sensim_frame_callback cb, void *user) {
  if (!s) return sensim__fail(SENSIM_EINVAL, "sensim_sensor_set_callback: sensor is NULL");
  if (sensim__world_in_callback(s->world))
    return sensim__fail(SENSIM_ESTATE, "sensor '%s': callbacks cannot change inside a frame callback", s->name);
  s->callback = cb;
  s->callback_user = cb ? user : NULL;
  return SENSIM_OK;
}

uint64_t sensim_sensor_frames_skipped(const sensim_sensor *s) { return s ? s->skipped : 0; }

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
  for (const sensim_capture *c = s ? s->ready : NULL; c; c = c->next) n++;
  return n;
}

/* ---- reset ---- */

void sensim__sensor_reset_discard(sensim_sensor *s, void **fresh) {
  if (!fresh) return;
  for (size_t i = 0; i < s->chain.n; i++)
    if (fresh[i] && s->specs[i].builtin->def.destroy) s->specs[i].builtin->def.destroy(fresh[i]);
  free(fresh);
}

sensim_status sensim__sensor_reset_prepare(sensim_sensor *s, void ***fresh) {
  *fresh = NULL;
  if (s->chain.n == 0) return SENSIM_OK;
  void **u = calloc(s->chain.n, sizeof *u);
  if (!u) return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory resetting its filters", s->name);
  for (size_t i = 0; i < s->chain.n; i++) {
    const sensim_builtin_filter *b = s->specs[i].builtin;
    if (!b) continue;
    cJSON *params = NULL;
    if (s->specs[i].params_json && !(params = cJSON_Parse(s->specs[i].params_json))) {
      sensim__sensor_reset_discard(s, u);
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
      sensim__sensor_reset_discard(s, u);
      return rc;
    }
  }
  *fresh = u;
  return SENSIM_OK;
}

void sensim__sensor_reset_commit(sensim_sensor *s, void **fresh) {
  sensim__sensor_wait_idle(s);
  drop_captures(s);
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
  s->captured = s->delivered = s->skipped = 0;
  s->next_filter = 0;
  s->unfinished = 0;
  s->filtering = 0;
}

/* ---- bodies and the sensors riding them ---- */

sensim_status sensim_body_destroy(sensim_body *b) {
  if (!b) return sensim__fail(SENSIM_EINVAL, "sensim_body_destroy: body is NULL");
  sensim_world *w = b->world;
  for (size_t i = 0; i < w->nsensors; i++)
    if (w->sensors[i]->params.body == b)
      return sensim__fail(SENSIM_ESTATE, "body %d carries sensor '%s'; destroy the world or keep the body",
                          b->index, w->sensors[i]->name);
  /* The slot stays so body indices (snapshots, views) stay valid: a body
   * without a mesh is never traced, and a static one refuses pushes. A
   * static body's track is left as it is: captures in flight may read it
   * in place (scene/snapshot.c). */
  b->mesh = NULL;
  if (b->is_static) {
    sensim__body_snap_base(b, &w->snap_base[b->index]);
    return SENSIM_OK;
  }
  sensim_track *tr = &b->track;
  if (tr->n > 1) {
    tr->k[0] = tr->k[tr->n - 1];
    tr->n = 1;
  }
  /* Give back the track's working capacity; keeping it is harmless if the
   * shrink fails. */
  sensim_keyframe *k = tr->cap > 1 ? realloc(tr->k, sizeof *tr->k) : NULL;
  if (k) {
    tr->k = k;
    tr->cap = 1;
  }
  b->is_static = 1;
  size_t d = 0; /* off the dynamic list, which stays in index order */
  while (d < w->ndynamic && w->dynamic[d] != (size_t)b->index) d++;
  if (d < w->ndynamic) {
    memmove(&w->dynamic[d], &w->dynamic[d + 1], (w->ndynamic - d - 1) * sizeof *w->dynamic);
    w->ndynamic--;
  }
  sensim__body_snap_base(b, &w->snap_base[b->index]);
  return SENSIM_OK;
}

size_t sensim_world_sensor_count(const sensim_world *w) { return w ? w->nsensors : 0; }

sensim_sensor *sensim_world_sensor(sensim_world *w, size_t i) {
  return w && i < w->nsensors ? w->sensors[i] : NULL;
}

sensim_sensor *sensim_world_sensor_by_name(sensim_world *w, const char *name) {
  if (!w || !name) return NULL;
  for (size_t i = 0; i < w->nsensors; i++)
    if (strcmp(w->sensors[i]->name, name) == 0) return w->sensors[i];
  return NULL;
}

void sensim__sensor_carrier_state(const sensim_sensor *s, const sensim_snapshot *snap, double t,
                                  sensim_body_state *out) {
  if (!s->params.body) {
    memset(out, 0, sizeof *out);
    out->pose = sensim_pose_identity();
    out->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    return;
  }
  sensim__snap_state_at(snap, (size_t)s->params.body->index, t, out);
}

sensim_pose sensim__sensor_pose_at(const sensim_sensor *s, const sensim_snapshot *snap, double t) {
  sensim_body_state st;
  sensim__sensor_carrier_state(s, snap, t, &st);
  return sensim_pose_compose(st.pose, s->params.mount);
}
