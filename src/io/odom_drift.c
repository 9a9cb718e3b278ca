/* io/odom_drift.c: the odometry error model of REP 105's odom frame.
 *
 * Wheel or visual odometry integrates the robot's motion increments with
 * an error that grows with the distance travelled (and time): the usual
 * odometry motion model of S. Thrun, W. Burgard, D. Fox, "Probabilistic
 * Robotics", MIT Press 2005, sec. 5.4, reduced to a random walk on the
 * planar increment. Between two steps the robot's true motion, in the
 * heading of the previous step, is (dx, dy, dyaw) over a distance d
 * (|dp|, m) and a time dt; the odometry integrates
 *
 *   dx' = dx + n_x,  dy' = dy + n_y,  dyaw' = dyaw + n_yaw,
 *   n_x, n_y ~ N(0, sigma_xy^2 d + sigma_xy_time^2 dt),
 *   n_yaw    ~ N(0, sigma_yaw^2 d + sigma_yaw_time^2 dt),
 *
 * so a straight run of L metres ends with x and y errors of variance
 * sigma_xy^2 L (linear in the distance) and a yaw error of variance
 * sigma_yaw^2 L. The covariance of (x, y, yaw) is propagated alongside
 * by the compounding of uncertain transforms (R. Smith, M. Self, P.
 * Cheeseman, "Estimating uncertain spatial relationships in robotics",
 * 1990): P' = F P F^T + G Q G^T, F the Jacobian of the composition in the
 * previous pose, G the rotation of the increment into odom, Q =
 * diag(q_xy, q_xy, q_yaw). Each step k draws four normals from the
 * counter-based stream (world seed, 0x4F444F4D "ODOM", k, 0), so the
 * walk is the same for any thread count and run. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "io/odom_drift.h"
#include "sensim/rng.h"

int sensim__odom_drift_on(const sensim_odom_drift *p) {
  return p->sigma_xy > 0 || p->sigma_yaw > 0 || p->sigma_xy_time > 0 || p->sigma_yaw_time > 0;
}

sensim_status sensim__odom_drift_check(const sensim_odom_drift *p) {
  const double v[4] = {p->sigma_xy, p->sigma_yaw, p->sigma_xy_time, p->sigma_yaw_time};
  static const char *const name[4] = {"sigma_xy (m/sqrt(m))", "sigma_yaw (rad/sqrt(m))",
                                      "sigma_xy_time (m/sqrt(s))", "sigma_yaw_time (rad/sqrt(s))"};
  for (int i = 0; i < 4; i++)
    if (!(isfinite(v[i]) && v[i] >= 0))
      return sensim__fail(SENSIM_EINVAL, "odometry drift %s = %g must be finite and >= 0", name[i], v[i]);
  return SENSIM_OK;
}

void sensim__odom_drift_init(sensim__odom_drift *d, const sensim_odom_drift *p, uint64_t seed) {
  memset(d, 0, sizeof *d);
  d->p = *p;
  d->seed = seed;
}

sensim_pose sensim__pose_inverse(sensim_pose p) {
  sensim_quat inv = {p.rot.w, -p.rot.x, -p.rot.y, -p.rot.z};
  sensim_vec3 t = sensim_quat_rotate(inv, p.pos);
  return (sensim_pose){{-t.x, -t.y, -t.z}, inv};
}

/* Heading about z of a rotation (the yaw of its Z-Y-X angles). */
static double yaw_of(sensim_quat q) {
  return atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
}

static double wrap(double a) { return remainder(a, 2 * M_PI); }

sensim_pose sensim__odom_drift_step(sensim__odom_drift *d, sensim_pose truth, double t) {
  const double yaw = yaw_of(truth.rot);
  if (!d->started) {
    d->est[0] = truth.pos.x, d->est[1] = truth.pos.y, d->est[2] = yaw;
    d->started = 1;
  } else {
    const double py = yaw_of(d->prev.rot), c = cos(py), s = sin(py);
    const double gx = truth.pos.x - d->prev.pos.x, gy = truth.pos.y - d->prev.pos.y,
                 gz = truth.pos.z - d->prev.pos.z;
    const double dist = sqrt(gx * gx + gy * gy + gz * gz), dt = fmax(t - d->t_prev, 0.0);
    const double q_xy = d->p.sigma_xy * d->p.sigma_xy * dist + d->p.sigma_xy_time * d->p.sigma_xy_time * dt;
    const double q_yaw =
        d->p.sigma_yaw * d->p.sigma_yaw * dist + d->p.sigma_yaw_time * d->p.sigma_yaw_time * dt;
    sensim_rng r;
    sensim_rng_init(&r, d->seed, 0x4F444F4Du, d->k, 0);
    double n[4];
    sensim_rng_normal2(&r, &n[0], &n[1]);
    sensim_rng_normal2(&r, &n[2], &n[3]);
    const double dx = c * gx + s * gy + sqrt(q_xy) * n[0];
    const double dy = -s * gx + c * gy + sqrt(q_xy) * n[1];
    const double dyaw = wrap(yaw - py) + sqrt(q_yaw) * n[2];
    const double e = d->est[2], ce = cos(e), se = sin(e);
    /* P' = F P F^T + G Q G^T; F = I + the column of d(x, y)/d(yaw). */
    const double F[9] = {1, 0, -se * dx - ce * dy, 0, 1, ce * dx - se * dy, 0, 0, 1};
    double FP[9], P[9];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        FP[3 * i + j] = F[3 * i] * d->cov[j] + F[3 * i + 1] * d->cov[3 + j] + F[3 * i + 2] * d->cov[6 + j];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        P[3 * i + j] = FP[3 * i] * F[3 * j] + FP[3 * i + 1] * F[3 * j + 1] + FP[3 * i + 2] * F[3 * j + 2];
    /* G diag(q_xy, q_xy, q_yaw) G^T with G a rotation in the plane: isotropic. */
    P[0] += q_xy, P[4] += q_xy, P[8] += q_yaw;
    memcpy(d->cov, P, sizeof P);
    d->est[0] += ce * dx - se * dy;
    d->est[1] += se * dx + ce * dy;
    d->est[2] = wrap(e + dyaw);
    d->k++;
  }
  d->prev = truth;
  d->t_prev = t;
  /* map -> odom = truth_planar * est^-1, a turn about z and a shift in
   * the plane, so the robot's pose in odom is est with the truth's z,
   * roll and pitch. */
  const double dyaw = wrap(yaw - d->est[2]), cd = cos(dyaw), sd = sin(dyaw);
  sensim_pose m;
  m.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, dyaw);
  m.pos = (sensim_vec3){truth.pos.x - (cd * d->est[0] - sd * d->est[1]),
                        truth.pos.y - (sd * d->est[0] + cd * d->est[1]), 0};
  return m;
}
