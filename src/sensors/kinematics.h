/* sensors/kinematics.h: velocities of points fixed to bodies, from the
 * bodies' twists, for the kinds that report Doppler (cone, radar). Not
 * installed. */
#ifndef SENSIM_SENSORS_KINEMATICS_H
#define SENSIM_SENSORS_KINEMATICS_H

#include "runtime/kind.h"

/* Velocity (world, m/s) at time t of the world point p fixed to snapshot
 * body i: v_B + w_B x (p - o_B) (rigid-body kinematics, e.g. Craig,
 * "Introduction to Robotics", 3rd ed., 2005, sec. 5.3). */
sensim_vec3 sensim__snap_point_velocity(const sensim_snapshot *snap, size_t i, double t, sensim_vec3 p);

/* The sensor origin's velocity (world, m/s) at time t when the sensor
 * frame's origin is at world point o (the pose sensim__ctx_pose_at gives),
 * and the carrier's angular velocity (world, rad/s) in *w (may be NULL);
 * zero for a world-fixed sensor. */
sensim_vec3 sensim__ctx_origin_velocity(const sensim_capture_ctx *ctx, double t, sensim_vec3 o, sensim_vec3 *w);

#endif
