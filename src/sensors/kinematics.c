/* sensors/kinematics.c: velocities of body-fixed points (kinematics.h). */
#include "core/vecmath.h"
#include "sensors/kinematics.h"

sensim_vec3 sensim__snap_point_velocity(const sensim_snapshot *snap, size_t i, double t, sensim_vec3 p) {
  sensim_body_state bs;
  sensim__snap_state_at(snap, i, t, &bs);
  return v3_add(bs.lin_vel, v3_cross(bs.ang_vel, v3_sub(p, bs.pose.pos)));
}

sensim_vec3 sensim__ctx_origin_velocity(const sensim_capture_ctx *ctx, double t, sensim_vec3 o, sensim_vec3 *w) {
  sensim_body_state cs;
  sensim__ctx_carrier_state(ctx, t, &cs);
  if (w) *w = cs.ang_vel;
  return v3_add(cs.lin_vel, v3_cross(cs.ang_vel, v3_sub(o, cs.pose.pos)));
}
