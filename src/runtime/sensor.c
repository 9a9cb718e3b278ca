/* runtime/sensor.c: the sensor object's public surface: its filter chain,
 * its counters and its delivery settings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "runtime/runtime_internal.h"

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
  /* The link's spec is made room for first, so nothing can fail after the
   * filter joins the chain. */
  if ((rc = grow_specs(s))) return rc;
  char *copy = NULL;
  if (params_json && !(copy = sensim__strdup(params_json)))
    return sensim__fail(SENSIM_ENOMEM, "sensor '%s': out of memory for filter '%s'", s->name, name);
  size_t at = s->chain.n;
  const sensim_builtin_filter *b = NULL;
  if ((rc = sensim__chain_append_builtin(&s->chain, name, params_json, &b))) {
    free(copy);
    sensim__error_context("sensor '%s'", s->name);
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

/* The accessors answer a NULL sensor with a neutral value (NONE, -1, NULL,
 * 0) rather than crashing: a host that failed to create a sensor may still
 * report on it. */
sensim_payload sensim_sensor_output_type(const sensim_sensor *s) {
  return s ? sensim__chain_output(&s->chain) : SENSIM_PAYLOAD_NONE;
}
int sensim_sensor_id(const sensim_sensor *s) { return s ? s->id : -1; }
const char *sensim_sensor_name(const sensim_sensor *s) { return s ? s->name : NULL; }
const char *sensim_sensor_kind_name(const sensim_sensor *s) { return s ? s->kind->name : NULL; }
const sensim_sensor_params *sensim_sensor_params_get(const sensim_sensor *s) { return s ? &s->params : NULL; }
uint64_t sensim_sensor_frames_captured(const sensim_sensor *s) { return s ? s->captured : 0; }
uint64_t sensim_sensor_frames_delivered(const sensim_sensor *s) { return s ? s->delivered : 0; }
uint64_t sensim_sensor_frames_skipped(const sensim_sensor *s) { return s ? s->skipped : 0; }
uint64_t sensim_sensor_frames_failed(const sensim_sensor *s) { return s ? s->failed : 0; }

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
