/* io/scenario_step.c: a scenario's scripted bodies stepped one time at a
 * time, for sensim_scenario_run and for programs that poll the sensors
 * themselves (scenario.h, "stepping by hand"), and the bodies' description
 * for such programs. */
#include <math.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

sensim_status sensim__scenario_push_states(sensim_scenario *scn, double t) {
  for (size_t i = 0; i < scn->nbodies; i++) {
    const sensim__scn_body *b = &scn->bodies[i];
    if (b->is_static) continue;
    sensim_body_state s;
    sensim__motion_state(&b->motion, &b->offset, t, &s);
    sensim_status st = sensim_body_push_state(b->body, t, &s);
    if (st != SENSIM_OK) {
      sensim__error_context("bodies[%zu] '%s' at t = %.6f s", i, b->name, t);
      return st;
    }
  }
  return SENSIM_OK;
}

sensim_status sensim_scenario_step_to(sensim_scenario *scn, double t) {
  if (!scn) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_step_to: NULL scenario");
  if (scn->has_run == 1)
    return sensim__fail(SENSIM_ESTATE, "sensim_scenario_step_to: the scenario has run (its world's clock "
                                       "cannot go back); load it again");
  if (!isfinite(t)) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_step_to: time %g is not finite", t);
  /* Checked before any push, so that a step back changes nothing. */
  double now = sensim_world_time(scn->world);
  if (t < now)
    return sensim__fail(SENSIM_ESTATE, "sensim_scenario_step_to: time %.9g s is before the scenario's %.9g s", t,
                        now);
  scn->has_run = 2;
  sensim_status st = sensim__scenario_push_states(scn, t);
  if (st == SENSIM_OK) {
    st = sensim_world_advance(scn->world, t);
    if (st != SENSIM_OK) sensim__error_context("advancing to t = %.6f s", t);
  }
  return st;
}

size_t sensim_scenario_body_count(const sensim_scenario *scn) { return scn ? scn->nbodies : 0; }

sensim_status sensim_scenario_body_get(const sensim_scenario *scn, size_t i, sensim_scenario_body_info *out) {
  if (!scn || !out) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_body_get: NULL argument");
  if (i >= scn->nbodies)
    return sensim__fail(SENSIM_EINVAL, "sensim_scenario_body_get: body %zu of %zu", i, scn->nbodies);
  const sensim__scn_body *b = &scn->bodies[i];
  out->name = b->name;
  out->body = b->body;
  out->is_static = b->is_static != 0;
  out->has_motion = b->motion.type != SENSIM__MOTION_NONE;
  return SENSIM_OK;
}
