/* runtime/registry.c: the world's sensors and workers. The runtime attaches
 * itself to a world on its first sensor (scene sits below runtime, so the
 * world holds it opaquely and calls back to free it), registers sensors in
 * creation order, looks them up, and refuses to destroy a body a sensor
 * rides. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

/* The world whose frame callback runs on this thread now, if any: the
 * calls a callback must not make check it (sensor.h). */
static _Thread_local const sensim_world *tl_callback_world;

int sensim__world_in_callback(const sensim_world *w) { return w && tl_callback_world == w; }

void sensim__run_callback(sensim_sensor *s, const sensim_frame *f) {
  const sensim_world *outer = tl_callback_world;
  tl_callback_world = s->world;
  s->callback(s, f, s->callback_user);
  tl_callback_world = outer;
}

sensim_runtime *sensim__runtime_of(const sensim_world *w) { return w ? w->runtime : NULL; }

static void runtime_release(void *p) {
  sensim_runtime *rt = p;
  /* Sensors first: destroying one waits for its jobs, which read meshes. */
  for (size_t i = 0; i < rt->nsensors; i++) sensim__sensor_destroy(rt->sensors[i]);
  sensim__pool_destroy(rt->pool);
  free(rt->sensors);
  free(rt);
}

/* The world's runtime, attached with its workers on first use. */
static sensim_status runtime_attach(sensim_world *w, sensim_runtime **out) {
  if (w->runtime) {
    *out = w->runtime;
    return SENSIM_OK;
  }
  sensim_runtime *rt = calloc(1, sizeof *rt);
  if (!rt) return sensim__fail(SENSIM_ENOMEM, "out of memory for the world's runtime");
  sensim_status rc = sensim__pool_create(w->params.threads, &rt->pool);
  if (rc) {
    free(rt);
    return rc;
  }
  rt->world = w;
  w->runtime = rt;
  w->runtime_release = runtime_release;
  *out = rt;
  return SENSIM_OK;
}

void sensim_sensor_params_init(sensim_sensor_params *p) {
  memset(p, 0, sizeof *p);
  p->name = "sensor";
  p->mount = sensim_pose_identity();
  p->rate = 10.0;
  p->window = -1.0;
}

static sensim_status check_params(const sensim_world *w, const sensim_sensor_params *p) {
  /* A period 1/rate beyond the time limit is never reached, and a
   * denormal rate's period overflows to inf (windows and keyframe trims
   * derived from it become inf and NaN): refused rather than broken. */
  if (!(p->rate > 0.0 && p->rate <= 1e6 && 1.0 / p->rate <= SENSIM_TIME_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "sensor rate %g Hz must be in [1/SENSIM_TIME_MAX = %.3g, 1e6] Hz (its period 1/rate within "
                        "the simulation time limit)",
                        p->rate, 1.0 / SENSIM_TIME_MAX);
  if (!(p->phase >= 0.0 && isfinite(p->phase)))
    return sensim__fail(SENSIM_EINVAL, "sensor phase %g s must be finite and >= 0", p->phase);
  if (!(p->lag >= 0.0 && isfinite(p->lag)))
    return sensim__fail(SENSIM_EINVAL, "sensor lag %g s must be finite and >= 0", p->lag);
  if (!isfinite(p->window)) return sensim__fail(SENSIM_EINVAL, "sensor window %g s must be finite", p->window);
  sensim_status rc;
  if ((rc = sensim__check_time(p->phase, "sensor phase")) || (rc = sensim__check_time(p->window, "sensor window")))
    return rc;
  /* A first frame due after the last time the clock can reach would never
   * be delivered; the sensor would look dead rather than wrong. */
  if (!(p->phase + p->lag <= SENSIM_TIME_MAX))
    return sensim__fail(SENSIM_EINVAL,
                        "sensor lag %g s: the first frame would be delivered at phase + lag = %g s, beyond the "
                        "simulation time limit of %.0f s (SENSIM_TIME_MAX): it could never be delivered",
                        p->lag, p->phase + p->lag, SENSIM_TIME_MAX);
  /* Finished frames wait for t_k + lag: floor(lag * rate) + 1 of them are
   * held per sensor (sensor.h), so the lag bounds that memory. */
  if (!(p->lag * p->rate <= SENSIM_SENSOR_MAX_WAITING))
    return sensim__fail(SENSIM_EINVAL,
                        "sensor lag %g s at %g Hz keeps %.0f frames waiting for delivery, more than %d "
                        "(SENSIM_SENSOR_MAX_WAITING)",
                        p->lag, p->rate, floor(p->lag * p->rate) + 1, SENSIM_SENSOR_MAX_WAITING);
  if (p->body && p->body->world != w) return sensim__fail(SENSIM_EINVAL, "sensor body belongs to another world");
  if (p->body && p->body->destroyed)
    return sensim__fail(SENSIM_EINVAL, "sensor body %d was destroyed; a sensor cannot ride it", p->body->index);
  if (p->name && (!p->name[0] || strlen(p->name) > 200))
    return sensim__fail(SENSIM_EINVAL, "sensor name must have 1 to 200 characters");
  if ((rc = sensim__check_pose(&p->mount, "sensor mount"))) return rc;
  return sensim__check_coord(p->mount.pos, 0.0, "sensor mount");
}

sensim_status sensim__sensor_create(sensim_world *w, const sensim_sensor_params *sp,
                                    const sensim_sensor_kind *kind, void *impl, sensim_sensor **out) {
  sensim_status rc = SENSIM_OK;
  sensim_runtime *rt = NULL;
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
  size_t id = w->runtime ? ((sensim_runtime *)w->runtime)->nsensors : 0;
  const char *name = sp->name;
  if (!name || strcmp(name, "sensor") == 0) {
    snprintf(autoname, sizeof autoname, "%s%zu", kind->name, id);
    name = autoname;
  }
  if (sensim_world_sensor_by_name(w, name)) {
    rc = sensim__fail(SENSIM_EINVAL, "a sensor named '%s' already exists", name);
    goto fail;
  }
  if ((rc = runtime_attach(w, &rt))) goto fail;
  if ((rc = sensim__grow((void **)&rt->sensors, &rt->cap_sensors, rt->nsensors + 1, sizeof *rt->sensors))) goto fail;
  s = calloc(1, sizeof *s);
  if (!s || !(s->name = sensim__strdup(name)) || sensim__frame_pool_create(&s->frames)) {
    if (s) free(s->name);
    free(s);
    rc = sensim__fail(SENSIM_ENOMEM, "out of memory for a sensor");
    goto fail;
  }
  s->world = w;
  s->rt = rt;
  s->id = (int)rt->nsensors;
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
  rt->sensors[rt->nsensors++] = s;
  /* Tracks keep what the longest window needs (scene trims to it). */
  if (s->params.window > w->max_window) w->max_window = s->params.window;
  *out = s;
  return SENSIM_OK;
fail:
  if (kind->destroy) kind->destroy(impl);
  return rc;
}

void sensim__sensor_destroy(sensim_sensor *s) {
  /* Wait for every job of this sensor: they hold pointers into it. */
  sensim__sensor_wait_idle(s);
  sensim__sensor_drop_captures(s);
  sensim__sensor_free_spares(s);
  sensim__frame_pool_destroy(s->frames);
  sensim__chain_free(&s->chain);
  for (size_t i = 0; i < s->cap_specs; i++) free(s->specs[i].params_json);
  free(s->specs);
  if (s->kind->destroy) s->kind->destroy(s->impl);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  free(s->name);
  free(s);
}

const sensim_sensor_kind *sensim__sensor_kind(const sensim_sensor *s) { return s ? s->kind : NULL; }
const void *sensim__sensor_impl(const sensim_sensor *s) { return s ? s->impl : NULL; }

size_t sensim_world_sensor_count(const sensim_world *w) {
  const sensim_runtime *rt = sensim__runtime_of(w);
  return rt ? rt->nsensors : 0;
}

sensim_sensor *sensim_world_sensor(sensim_world *w, size_t i) {
  const sensim_runtime *rt = sensim__runtime_of(w);
  return rt && i < rt->nsensors ? rt->sensors[i] : NULL;
}

sensim_sensor *sensim_world_sensor_by_name(sensim_world *w, const char *name) {
  const sensim_runtime *rt = sensim__runtime_of(w);
  if (!rt || !name) return NULL;
  for (size_t i = 0; i < rt->nsensors; i++)
    if (strcmp(rt->sensors[i]->name, name) == 0) return rt->sensors[i];
  return NULL;
}

/* A body a sensor rides cannot go: its captures read the body's track. The
 * rest of destroying a body is the scene's (sensim__body_retire). */
sensim_status sensim_body_destroy(sensim_body *b) {
  if (!b) return sensim__fail(SENSIM_EINVAL, "sensim_body_destroy: body is NULL");
  if (b->destroyed) return sensim__fail(SENSIM_ESTATE, "body %d was already destroyed", b->index);
  const sensim_runtime *rt = sensim__runtime_of(b->world);
  for (size_t i = 0; rt && i < rt->nsensors; i++)
    if (rt->sensors[i]->params.body == b)
      return sensim__fail(SENSIM_ESTATE, "body %d carries sensor '%s'; destroy the world or keep the body",
                          b->index, rt->sensors[i]->name);
  sensim__body_retire(b);
  return SENSIM_OK;
}
