/* io/scenario_record.c: a scenario's "record" section, what a recording
 * of its run (sensim run --mcap) publishes beyond the sensors: REP 105's
 * frame names and the odometry error model that makes odom drift
 * (docs/recording.md, "Frames"; sensim/record.h):
 *
 *   "record": {"map_frame": "map", "odom_frame": "odom", "odom_body": "cart",
 *              "odom_drift": {"sigma_xy": 0.02, "sigma_yaw": 0.005,
 *                             "sigma_xy_time": 0, "sigma_yaw_time": 0}}
 *
 * sigma_xy in m / sqrt(m travelled), sigma_yaw in rad / sqrt(m),
 * the *_time ones per sqrt(s). Names are copied; the section is checked
 * when the scenario loads (an unknown odom_body when the run starts). */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/odom_drift.h"
#include "io/scenario_internal.h"

static sensim_status copy_name(const cJSON *obj, const char *key, char **out) {
  const char *v = NULL;
  sensim_status st = sensim__jstring(obj, "record", key, 0, &v);
  if (st || !v) return st;
  if (!*v) return sensim__fail(SENSIM_EINVAL, "record.%s: must be a non-empty frame name", key);
  *out = strdup(v);
  return *out ? SENSIM_OK : sensim__fail(SENSIM_ENOMEM, "record.%s: out of memory", key);
}

sensim_status sensim__scenario_record(sensim_scenario *scn, const cJSON *obj) {
  static const char *const keys[] = {"map_frame", "odom_frame", "odom_body", "odom_drift", NULL};
  static const char *const dkeys[] = {"sigma_xy", "sigma_yaw", "sigma_xy_time", "sigma_yaw_time", NULL};
  sensim__scn_record *rc = &scn->record;
  sensim_status st = sensim__jcheck_object(obj, "record", keys);
  if (!st) st = copy_name(obj, "map_frame", &rc->map_frame);
  if (!st) st = copy_name(obj, "odom_frame", &rc->odom_frame);
  if (!st) st = copy_name(obj, "odom_body", &rc->odom_body);
  const cJSON *d = NULL;
  if (!st) st = sensim__jobject(obj, "record", "odom_drift", 0, &d);
  if (!st && d) {
    double *v[4] = {&rc->drift.sigma_xy, &rc->drift.sigma_yaw, &rc->drift.sigma_xy_time,
                    &rc->drift.sigma_yaw_time};
    st = sensim__jcheck_object(d, "record.odom_drift", dkeys);
    for (int i = 0; i < 4 && !st; i++) st = sensim__jnumber(d, "record.odom_drift", dkeys[i], 0, v[i]);
    if (!st && (st = sensim__odom_drift_check(&rc->drift))) sensim__error_context("record.odom_drift");
  }
  return st;
}

void sensim__scenario_record_params(const sensim_scenario *scn, sensim_recorder_params *p) {
  const sensim__scn_record *rc = &scn->record;
  if (rc->map_frame) p->map_frame = rc->map_frame;
  if (rc->odom_frame) p->odom_frame = rc->odom_frame;
  if (rc->odom_body) p->odom_body = rc->odom_body;
  if (sensim__odom_drift_on(&rc->drift)) p->odom_drift = rc->drift;
}

void sensim__scenario_record_free(sensim_scenario *scn) {
  free(scn->record.map_frame);
  free(scn->record.odom_frame);
  free(scn->record.odom_body);
}
