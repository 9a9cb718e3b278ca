/* io/odom_drift.h: the recorder's odometry error model (io/odom_drift.c):
 * a robot's odometry integrated from its true planar motion with a random
 * walk in x, y and yaw, which makes REP 105's odom frame drift away from
 * map. Not installed; docs/recording.md, "Frames", states the model. */
#ifndef SENSIM_IO_ODOM_DRIFT_H
#define SENSIM_IO_ODOM_DRIFT_H

#include <stdint.h>
#include "sensim/record.h"

typedef struct sensim__odom_drift {
  sensim_odom_drift p;
  uint64_t seed;      /* the world's seed: the walk's stream */
  uint64_t k;         /* steps taken */
  int started;
  double t_prev;      /* time of the last step, s */
  sensim_pose prev;   /* the truth at the last step */
  double est[3];      /* the odometry's x, y (m) and yaw (rad) in odom */
  double cov[9];      /* their covariance, row-major, m^2, m rad, rad^2 */
} sensim__odom_drift;

/* 1 when any of the model's sigmas is > 0 (else odom is map). */
int sensim__odom_drift_on(const sensim_odom_drift *p);

/* SENSIM_EINVAL naming the field when a sigma is negative or not finite. */
sensim_status sensim__odom_drift_check(const sensim_odom_drift *p);

void sensim__odom_drift_init(sensim__odom_drift *d, const sensim_odom_drift *p, uint64_t seed);

/* Advance the odometry to the robot's true pose `truth` (in map) at time
 * t (>= the last step's); the first step starts it at the truth (odom ==
 * map). Gives map -> odom, the pose of odom in map, under which the robot
 * is at its odometry: planar part est[], z, roll and pitch the truth's. */
sensim_pose sensim__odom_drift_step(sensim__odom_drift *d, sensim_pose truth, double t);

/* The inverse of a rigid pose: b in a given a in b. */
sensim_pose sensim__pose_inverse(sensim_pose p);

#endif
