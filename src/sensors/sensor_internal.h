/* sensors/sensor_internal.h: the generator vtable behind every sensor kind
 * and the sensor object the scheduler drives. Not installed. */
#ifndef SENSIM_SENSORS_SENSOR_INTERNAL_H
#define SENSIM_SENSORS_SENSOR_INTERNAL_H

#include <pthread.h>
#include "core/pool.h"
#include "filters/chain.h"
#include "scene/scene.h"

typedef struct sensim_capture sensim_capture;

/* One sensor kind. A generator reads only the snapshot and its own
 * immutable configuration, so captures of one sensor may run concurrently. */
typedef struct sensim_sensor_kind {
  const char *name;             /* "camera", "lidar", ... */
  sensim_payload raw_type;      /* payload generate() gives */
  int needs_geometry;           /* snapshot all bodies (ray tracing) or only the carrier */
  /* Default collection window (s) for this sensor's configuration at `rate` Hz. */
  double (*default_window)(const void *impl, double rate);
  /* Fill frame (header already set: ids, times, pose) from the capture. */
  sensim_status (*generate)(const sensim_sensor *s, const sensim_capture *cap, sensim_frame *frame);
  void (*destroy)(void *impl);
  /* Optional: called on the host thread once a capture's snapshot is taken,
   * to bind what the job needs from mutable world state (ray-traced kinds
   * bind each body's mesh acceleration structure) into cap->aux, which
   * release_aux frees when the capture ends. */
  sensim_status (*prepare)(sensim_sensor *s, sensim_capture *cap);
  void (*release_aux)(void *aux);
  /* Optional: called by sensim_world_reset with no capture of this sensor
   * in flight, so a kind that carries state from frame to frame (outside
   * its filters) starts the next episode as it started the first. NULL for
   * kinds whose impl is immutable after create. */
  void (*reset)(void *impl);
} sensim_sensor_kind;

/* How to re-create one link of a sensor's chain on sensim_world_reset: a
 * built-in filter is created anew from its name and parameters (its state,
 * an IMU bias walk, starts over); a user filter (builtin == NULL) is kept
 * as it is: its state is the host's (sensor.h). */
typedef struct sensim_filter_spec {
  const sensim_builtin_filter *builtin; /* NULL: a user filter */
  char *params_json;                    /* copy of the JSON given, or NULL */
} sensim_filter_spec;

enum { SENSIM_CAP_PENDING, SENSIM_CAP_GENERATED, SENSIM_CAP_DONE };

struct sensim_capture {
  sensim_sensor *sensor;
  uint64_t index;
  double t_capture, t_deliver;
  sensim_snapshot *snap;
  void *aux;                   /* kind's binding from prepare(), or NULL */
  sensim_frame frame;
  sensim_status status;        /* of generation and filtering */
  char error[256];             /* message of a failed job */
  int state;                   /* SENSIM_CAP_*, guarded by sensor->mu */
  sensim_job job;
  sensim_capture *next;        /* in-flight or delivered list */
};

struct sensim_sensor {
  sensim_world *world;
  int id;
  char *name;
  sensim_sensor_params params; /* window resolved, name points at `name` */
  const sensim_sensor_kind *kind;
  void *impl;                  /* kind's configuration, immutable after create */
  sensim_chain chain;
  uint64_t next_index;         /* next capture k */
  uint64_t captured, delivered;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int filtering;               /* a worker is running the chain (guarded by mu) */
  uint64_t next_filter;        /* index of the next capture to filter */
  sensim_capture *inflight;    /* oldest first */
  sensim_capture *inflight_tail;
  sensim_capture *ready;       /* delivered, not yet polled; oldest first */
  sensim_capture *ready_tail;
  sensim_capture *polled;      /* handed out by the last poll; freed on the next */
  /* Host integration (sensors/schedule.c, sensor.h). */
  int max_inflight;            /* captures not yet generated and filtered, >= 1 */
  int overrun;                 /* sensim_overrun: what a capture does at the bound */
  int unfinished;              /* captures whose job has not finished (guarded by mu) */
  uint64_t skipped;            /* captures not taken under SENSIM_OVERRUN_SKIP */
  sensim_frame_callback callback; /* NULL: frames queue for sensim_sensor_poll */
  void *callback_user;
  sensim_capture *due;         /* due in this advance, not yet handed over */
  sensim_capture *due_tail;
  sensim_filter_spec *specs;   /* one per chain link, chain.n of them */
  size_t cap_specs;
};

/* Create a sensor of `kind` owning `impl` (destroyed through the kind on
 * failure too). */
sensim_status sensim__sensor_create(sensim_world *w, const sensim_sensor_params *sp,
                                    const sensim_sensor_kind *kind, void *impl,
                                    sensim_sensor **out);
void sensim__sensor_destroy(sensim_sensor *s);

/* Schedule captures with t_k <= t, and deliver frames with t_deliver <= t. */
sensim_status sensim__sensor_schedule(sensim_sensor *s, double t);
sensim_status sensim__sensor_deliver(sensim_sensor *s, double t);

/* Wait for every capture job of the sensor to finish (host thread). */
void sensim__sensor_wait_idle(sensim_sensor *s);
/* sensim_world_reset for one sensor, in two steps so a failure leaves the
 * world unchanged: prepare creates the new built-in filter states (into
 * *fresh, one per chain link, NULL for user filters) without touching the
 * sensor; commit drops every capture, swaps the fresh states in and sets
 * the counters back to zero; discard frees an unused *fresh. */
sensim_status sensim__sensor_reset_prepare(sensim_sensor *s, void ***fresh);
void sensim__sensor_reset_commit(sensim_sensor *s, void **fresh);
void sensim__sensor_reset_discard(sensim_sensor *s, void **fresh);
/* Nonzero while a frame callback of world w runs on this thread. */
int sensim__world_in_callback(const sensim_world *w);

/* Pose of the sensor frame in the world at time t, from the capture's
 * snapshot (carrier state composed with the mount). */
sensim_pose sensim__sensor_pose_at(const sensim_sensor *s, const sensim_snapshot *snap, double t);
/* Carrier state at t (zero state at identity for world-fixed sensors). */
void sensim__sensor_carrier_state(const sensim_sensor *s, const sensim_snapshot *snap, double t,
                                  sensim_body_state *out);

/* A reading of the carrier's state: n doubles into out (sensor-frame
 * specific force and rate, antenna position and velocity, field ...). */
enum { SENSIM_READING_MAX = 8 };
typedef void (*sensim__reading_fn)(const sensim_sensor *s, const sensim_body_state *st,
                                   const void *user, double *out);
/* The time average of a reading over the sensor's collection window
 * [t1 - window, t1] (sensors/window_mean.c): trapezoidal rule over the
 * carrier's keyframes inside the window plus its interpolated states at
 * both ends, as a sensor that integrates its signal over the window
 * reports it. With window 0, or a world-fixed sensor (whose reading cannot
 * change), the reading at t1. n <= SENSIM_READING_MAX. */
void sensim__sensor_window_mean(const sensim_sensor *s, const sensim_snapshot *snap, double t1,
                                sensim__reading_fn read, const void *user, int n, double *mean);

/* The sensor's pose sampled at n evenly spaced times over [t0, t1], for
 * generators that need a pose per ray: between entries position is
 * interpolated linearly and rotation by normalised lerp, whose deviation
 * from slerp is O(theta^3) in the angle between entries (below 1e-9 rad for
 * 64 entries over any realistic exposure or scan). */
typedef struct sensim_pose_table {
  int n;
  double t0, t1;
  sensim_pose *pose;
} sensim_pose_table;

sensim_status sensim__pose_table_init(sensim_pose_table *tab, const sensim_sensor *s,
                                      const sensim_snapshot *snap, double t0, double t1, int n);
sensim_pose sensim__pose_table_at(const sensim_pose_table *tab, double t);
void sensim__pose_table_free(sensim_pose_table *tab);

#endif
