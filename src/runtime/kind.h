/* runtime/kind.h: what a sensor kind gives the runtime, and what the
 * runtime gives one capture of it.
 *
 * A kind (camera, lidar, ...) is a generator behind a small vtable. The
 * runtime owns the sensor object, its clock, queues and filter chain; a
 * generator sees none of that. It gets a capture context: plain values (the
 * resolved parameters, the random-stream key), the immutable snapshot of
 * the world over the capture's window, what its own prepare() bound, and a
 * fork handle for splitting its work over the pool. It never reads the
 * sensor or the live world, so captures of one sensor may run at once and
 * a generator can be driven by anything that can fill a context (a test,
 * another back-end). Not installed. */
#ifndef SENSIM_RUNTIME_KIND_H
#define SENSIM_RUNTIME_KIND_H

#include <stdint.h>
#include "core/fork.h"
#include "scene/scene.h"
#include "sensim/frame.h"
#include "sensim/sensor.h"

/* The key of a capture's random streams: every draw of frame `frame` of
 * sensor `sensor` comes from Philox keyed by (seed, sensor, frame, element)
 * (sensim/rng.h), so a frame does not depend on threads or job order. */
typedef struct sensim_stream_key {
  uint64_t seed;   /* the world's seed */
  uint32_t sensor; /* the sensor's id */
  uint64_t frame;  /* the capture index k */
} sensim_stream_key;

/* One capture, as its generator sees it. A value: it holds no handle to the
 * sensor or the live world, only to things that stay unchanged until the
 * capture ends (the snapshot, the kind's configuration, the binding). */
typedef struct sensim_capture_ctx {
  const void *impl;            /* the kind's configuration, immutable after create */
  const sensim_snapshot *snap; /* bodies and lights over [t_capture - window, t_capture] */
  void *aux;                   /* what the kind's prepare() bound, or NULL */
  uint64_t index;              /* k in t_capture = phase + k / rate */
  double t_capture;            /* s, end of the collection window */
  double window;               /* s, collection window (default resolved) */
  double rate;                 /* Hz */
  double phase;                /* s */
  double lag;                  /* s, t_deliver - t_capture */
  sensim_pose mount;           /* sensor frame in the carrier's frame */
  int carrier;                 /* the carrier's index in snap->bodies; -1: fixed to the world */
  sensim_stream_key key;       /* random-stream key */
  sensim_fork fork;            /* runs bands of this capture's work on the pool */
} sensim_capture_ctx;

/* One sensor kind. */
typedef struct sensim_sensor_kind {
  const char *name;             /* "camera", "lidar", ... */
  sensim_payload raw_type;      /* payload generate() gives */
  int needs_geometry;           /* snapshot all bodies (ray tracing, cone) or only the carrier */
  /* Default collection window (s) for this configuration at `rate` Hz. */
  double (*default_window)(const void *impl, double rate);
  /* Fill `frame` (header already set: ids, times, pose) for one capture; a
   * worker thread. */
  sensim_status (*generate)(sensim_capture_ctx ctx, sensim_frame *frame);
  void (*destroy)(void *impl);
  /* Optional: called on the host thread once the capture's snapshot is
   * taken, to bind what the job needs from mutable world state (ray-traced
   * kinds bind each body's mesh acceleration structure) into *aux, which
   * release_aux frees when the capture ends. */
  sensim_status (*prepare)(const void *impl, sensim_world *w, const sensim_snapshot *snap, void **aux);
  void (*release_aux)(void *aux);
  /* Optional: how far from the sensor its rays can find geometry, m (a
   * lidar's max_range); NULL: without bound. Bodies and tiles beyond it
   * are left out of the capture's scene (runtime/reach.c). */
  double (*reach)(const void *impl);
  /* Optional: called by sensim_world_reset with no capture of the sensor
   * in flight, so a kind that carries state from frame to frame (outside
   * its filters) starts the next episode as it started the first. NULL for
   * kinds whose impl is immutable after create. */
  void (*reset)(void *impl);
} sensim_sensor_kind;

/* Register a sensor of `kind` owning `impl` in the world (impl is destroyed
 * through the kind on failure too). Checks the shared parameters (rate,
 * phase, lag, window, mount, carrier, name) and resolves the default window. */
sensim_status sensim__sensor_create(sensim_world *w, const sensim_sensor_params *sp,
                                    const sensim_sensor_kind *kind, void *impl, sensim_sensor **out);
/* The kind and configuration of a sensor, for kind-specific API calls
 * (sensim_camera_params_get). */
const sensim_sensor_kind *sensim__sensor_kind(const sensim_sensor *s);
const void *sensim__sensor_impl(const sensim_sensor *s);

/* ---- the carrier's motion over a capture (runtime/motion.c) ---- */

/* Carrier state at t from the snapshot (zero state at identity for a
 * world-fixed sensor). */
void sensim__ctx_carrier_state(const sensim_capture_ctx *ctx, double t, sensim_body_state *out);
/* Pose of the sensor frame in the world at t: carrier state composed with
 * the mount. */
sensim_pose sensim__ctx_pose_at(const sensim_capture_ctx *ctx, double t);
/* Nonzero when the sensor cannot move during the capture: fixed to the
 * world or to a static body. */
int sensim__ctx_fixed(const sensim_capture_ctx *ctx);

#endif
