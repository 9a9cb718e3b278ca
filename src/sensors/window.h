/* sensors/window.h: what generators share about a capture's window: the
 * sensor's pose tabulated over it, and a reading averaged over it. Both
 * read only the capture context. */
#ifndef SENSIM_SENSORS_WINDOW_H
#define SENSIM_SENSORS_WINDOW_H

#include "runtime/kind.h"

/* A reading of the carrier's state: n doubles into out (sensor-frame
 * specific force and rate, antenna position and velocity, field ...). */
enum { SENSIM_READING_MAX = 8 };
typedef void (*sensim__reading_fn)(const sensim_capture_ctx *ctx, const sensim_body_state *st,
                                   const void *user, double *out);

/* The time average of a reading over the collection window
 * [t1 - window, t1] (sensors/window_mean.c): trapezoidal rule over the
 * carrier's keyframes inside the window plus its interpolated states at
 * both ends, as a sensor that integrates its signal over the window
 * reports it. With window 0, or a world-fixed sensor (whose reading cannot
 * change), the reading at t1. n <= SENSIM_READING_MAX. */
void sensim__window_mean(const sensim_capture_ctx *ctx, double t1, sensim__reading_fn read, const void *user,
                         int n, double *mean);

/* The sensor's pose sampled at n evenly spaced times over [t0, t1], for
 * generators that need a pose per ray (sensors/pose_table.c): between
 * entries position is interpolated linearly and rotation by normalised
 * lerp, whose deviation from slerp is O(theta^3) in the angle between
 * entries (below 1e-9 rad for 64 entries over any realistic exposure or
 * scan). */
typedef struct sensim_pose_table {
  int n;
  double t0, t1;
  sensim_pose *pose;
} sensim_pose_table;

sensim_status sensim__pose_table_init(sensim_pose_table *tab, const sensim_capture_ctx *ctx, double t0, double t1,
                                      int n);
sensim_pose sensim__pose_table_at(const sensim_pose_table *tab, double t);
void sensim__pose_table_free(sensim_pose_table *tab);

#endif
