/* sensim/types.h: vectors, quaternions and poses shared by the whole API.
 *
 * Conventions (DESIGN.md): SI units, right-handed world with Z up, body frame
 * X forward, Y left, Z up (ROS REP 103). A pose maps points from its own frame
 * into its parent frame: p_parent = rot * p_local + pos. */
#ifndef SENSIM_TYPES_H
#define SENSIM_TYPES_H

#include "sensim/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_vec3 {
  double x, y, z;
} sensim_vec3;

/* Unit quaternion w + xi + yj + zk (Hamilton convention, active rotation). */
typedef struct sensim_quat {
  double w, x, y, z;
} sensim_quat;

typedef struct sensim_pose {
  sensim_vec3 pos; /* origin of the frame in the parent frame, m */
  sensim_quat rot; /* orientation of the frame in the parent frame, unit */
} sensim_pose;

/* The identity pose (zero translation, identity rotation). */
SENSIM_API sensim_pose sensim_pose_identity(void);

/* Quaternion for a rotation of `angle` rad about `axis` (need not be unit). */
SENSIM_API sensim_quat sensim_quat_from_axis_angle(sensim_vec3 axis, double angle);

/* Quaternion from intrinsic Z-Y'-X'' Tait-Bryan angles (yaw, pitch, roll), rad. */
SENSIM_API sensim_quat sensim_quat_from_ypr(double yaw, double pitch, double roll);

/* Rotate v by unit quaternion q. */
SENSIM_API sensim_vec3 sensim_quat_rotate(sensim_quat q, sensim_vec3 v);

/* Spherical linear interpolation between unit quaternions along the shorter
 * arc; s in [0, 1]. */
SENSIM_API sensim_quat sensim_quat_slerp(sensim_quat a, sensim_quat b, double s);

/* Compose poses: the pose of frame C in A given B in A (ab) and C in B (bc). */
SENSIM_API sensim_pose sensim_pose_compose(sensim_pose ab, sensim_pose bc);

/* Map a point from the pose's frame into its parent frame. */
SENSIM_API sensim_vec3 sensim_pose_apply(sensim_pose p, sensim_vec3 v);

#ifdef __cplusplus
}
#endif
#endif
