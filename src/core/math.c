/* core/math.c: the public pose and quaternion functions of types.h. */
#include "core/vecmath.h"
#include "sensim/types.h"

sensim_pose sensim_pose_identity(void) {
  sensim_pose p = {{0, 0, 0}, {1, 0, 0, 0}};
  return p;
}

sensim_quat sensim_quat_from_axis_angle(sensim_vec3 axis, double angle) {
  double n = v3_norm(axis);
  if (!(n > 0)) return q_make(1, 0, 0, 0);
  double s = sin(0.5 * angle) / n;
  return q_make(cos(0.5 * angle), axis.x * s, axis.y * s, axis.z * s);
}

sensim_quat sensim_quat_from_ypr(double yaw, double pitch, double roll) {
  sensim_quat qz = sensim_quat_from_axis_angle(v3(0, 0, 1), yaw);
  sensim_quat qy = sensim_quat_from_axis_angle(v3(0, 1, 0), pitch);
  sensim_quat qx = sensim_quat_from_axis_angle(v3(1, 0, 0), roll);
  return q_mul(q_mul(qz, qy), qx);
}

sensim_vec3 sensim_quat_rotate(sensim_quat q, sensim_vec3 v) { return q_rotate(q, v); }

/* Shoemake 1985, "Animating rotation with quaternion curves", SIGGRAPH. */
sensim_quat sensim_quat_slerp(sensim_quat a, sensim_quat b, double s) {
  double d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
  if (d < 0) {
    b = q_make(-b.w, -b.x, -b.y, -b.z);
    d = -d;
  }
  double wa, wb;
  if (d > 0.99999) {
    /* Nearly parallel (under 9 mrad apart): sin(theta) / theta loses digits,
     * and lerp + normalise deviates from slerp by O(theta^3) ~ 1e-7 rad,
     * below the float precision poses are traced with. */
    wa = 1.0 - s;
    wb = s;
    sensim_quat r = q_make(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y,
                           wa * a.z + wb * b.z);
    return q_normalize(r);
  }
  double theta = acos(d);
  double st = sin(theta);
  wa = sin((1.0 - s) * theta) / st;
  wb = sin(s * theta) / st;
  return q_make(wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z);
}

sensim_pose sensim_pose_compose(sensim_pose ab, sensim_pose bc) {
  sensim_pose ac;
  ac.pos = v3_add(ab.pos, q_rotate(ab.rot, bc.pos));
  ac.rot = q_normalize(q_mul(ab.rot, bc.rot));
  return ac;
}

sensim_vec3 sensim_pose_apply(sensim_pose p, sensim_vec3 v) { return v3_add(p.pos, q_rotate(p.rot, v)); }
