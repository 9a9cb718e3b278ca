/* core/vecmath.h: inline vector and quaternion arithmetic for hot loops. */
#ifndef SENSIM_CORE_VECMATH_H
#define SENSIM_CORE_VECMATH_H

#include <math.h>

/* Strict C11 hides M_PI; glibc gives it only with _DEFAULT_SOURCE. */
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include "sensim/types.h"

static inline sensim_vec3 v3(double x, double y, double z) {
  sensim_vec3 r = {x, y, z};
  return r;
}
static inline sensim_vec3 v3_add(sensim_vec3 a, sensim_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline sensim_vec3 v3_sub(sensim_vec3 a, sensim_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline sensim_vec3 v3_scale(sensim_vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline sensim_vec3 v3_lerp(sensim_vec3 a, sensim_vec3 b, double s) {
  return v3(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.z + (b.z - a.z) * s);
}
static inline double v3_dot(sensim_vec3 a, sensim_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sensim_vec3 v3_cross(sensim_vec3 a, sensim_vec3 b) {
  return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double v3_norm(sensim_vec3 a) { return sqrt(v3_dot(a, a)); }
static inline sensim_vec3 v3_normalize(sensim_vec3 a) {
  double n = v3_norm(a);
  return n > 0 ? v3_scale(a, 1.0 / n) : a;
}

static inline sensim_quat q_make(double w, double x, double y, double z) {
  sensim_quat q = {w, x, y, z};
  return q;
}
static inline sensim_quat q_mul(sensim_quat a, sensim_quat b) {
  return q_make(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
static inline sensim_quat q_conj(sensim_quat q) { return q_make(q.w, -q.x, -q.y, -q.z); }
static inline double q_norm(sensim_quat q) { return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }
static inline sensim_quat q_normalize(sensim_quat q) {
  double n = q_norm(q);
  return q_make(q.w / n, q.x / n, q.y / n, q.z / n);
}
/* v rotated by q: v + 2 w (u x v) + 2 u x (u x v), u the vector part. */
static inline sensim_vec3 q_rotate(sensim_quat q, sensim_vec3 v) {
  sensim_vec3 u = v3(q.x, q.y, q.z);
  sensim_vec3 t = v3_scale(v3_cross(u, v), 2.0);
  return v3_add(v3_add(v, v3_scale(t, q.w)), v3_cross(u, t));
}
static inline sensim_vec3 q_rotate_inv(sensim_quat q, sensim_vec3 v) { return q_rotate(q_conj(q), v); }

/* Rotation vector (axis * angle, rad) of a unit quaternion, shorter arc. */
static inline sensim_vec3 q_log(sensim_quat q) {
  if (q.w < 0) q = q_make(-q.w, -q.x, -q.y, -q.z);
  double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  double angle = 2.0 * atan2(s, q.w);
  double k = s > 1e-12 ? angle / s : 2.0; /* limit of angle / sin(angle/2) */
  return v3(q.x * k, q.y * k, q.z * k);
}
/* Unit quaternion of a rotation vector. */
static inline sensim_quat q_exp(sensim_vec3 r) {
  double angle = v3_norm(r);
  double h = 0.5 * angle;
  double k = angle > 1e-12 ? sin(h) / angle : 0.5;
  return q_make(cos(h), r.x * k, r.y * k, r.z * k);
}

/* Row-major rotation matrix of unit quaternion q, Hamilton convention
 * (Shoemake, SIGGRAPH 1985): m v = q v q*. */
static inline void q_matrix(sensim_quat q, double m[9]) {
  const double w = q.w, x = q.x, y = q.y, z = q.z;
  m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y - w * z), m[2] = 2 * (x * z + w * y);
  m[3] = 2 * (x * y + w * z), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z - w * x);
  m[6] = 2 * (x * z - w * y), m[7] = 2 * (y * z + w * x), m[8] = 1 - 2 * (x * x + y * y);
}

/* q_matrix rounded to float (the same bits as computing each entry in
 * double and converting it). */
static inline void q_matrix_f(sensim_quat q, float m[9]) {
  double d[9];
  q_matrix(q, d);
  for (int i = 0; i < 9; i++) m[i] = (float)d[i];
}

#endif
