/* sensim/sensor.h: what every sensor shares: mount, schedule, filters, poll.
 *
 * A sensor is attached to a body (or to the world) at a mount pose and
 * captures at t_k = phase + k / rate for k = 0, 1, ... Each capture collects
 * over the window [t_k - window, t_k] and becomes visible to the host when
 * the world's time reaches t_k + lag. Sensor frames follow REP 103: X
 * forward, Y left, Z up. Sensors are created by the kind-specific functions
 * (sensim_camera_create, sensim_lidar_create, ...) and belong to the world. */
#ifndef SENSIM_SENSOR_H
#define SENSIM_SENSOR_H

#include "sensim/export.h"

#include "sensim/frame.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_sensor sensim_sensor;

/* At most this many finished frames of one sensor wait for their delivery
 * time, floor(lag * rate) + 1: a lag of more periods is SENSIM_EINVAL. They
 * are held in memory (65 536 frames of a 640 x 480 camera are 24 GB); a
 * host that wants frames later than a real sensor's processing delay can
 * keep them itself. */
#define SENSIM_SENSOR_MAX_WAITING 65536

typedef struct sensim_sensor_params {
  const char *name;   /* copied; used in messages and output folders */
  sensim_body *body;  /* carrier, borrowed from the same world (not destroyed);
                         NULL: the world */
  sensim_pose mount;  /* sensor frame in the body frame; |position| within
                         SENSIM_COORD_MAX (world.h) */
  double rate;        /* captures per second, Hz, in [1/SENSIM_TIME_MAX, 1e6] */
  double phase;       /* s, time of capture 0, in [0, SENSIM_TIME_MAX] */
  double lag;         /* s, delivery delay after capture, >= 0, with phase + lag
                         <= SENSIM_TIME_MAX and lag * rate <= SENSIM_SENSOR_MAX_WAITING */
  double window;      /* s, collection window ending at the capture, in
                         [0, SENSIM_TIME_MAX]; < 0 means the kind's default (see
                         each kind) */
} sensim_sensor_params;

/* Defaults: name "sensor", no body, identity mount, 10 Hz, phase 0, lag 0,
 * window = kind's default. */
SENSIM_API void sensim_sensor_params_init(sensim_sensor_params *p);

/* Append a built-in filter, by registered name, to the sensor's chain.
 * `params_json` is a JSON object text with the filter's parameters, or NULL
 * for its defaults. Fails with SENSIM_ENOTFOUND for an unknown name,
 * SENSIM_ETYPE if the filter does not take the payload the chain gives at
 * this point, SENSIM_ESTATE once the world has advanced past the sensor's
 * first capture. On failure the chain is unchanged. */
SENSIM_API sensim_status sensim_sensor_add_filter(sensim_sensor *sensor, const char *name,
                                       const char *params_json);

struct sensim_filter_def;
/* Append a user filter (see filter.h). `user` is borrowed until the world is
 * destroyed; def->destroy(user) is called then. Same failures as above; when
 * this fails, def->destroy is not called. */
SENSIM_API sensim_status sensim_sensor_add_user_filter(sensim_sensor *sensor,
                                            const struct sensim_filter_def *def, void *user);

/* Take the oldest delivered frame not yet taken. *frame is NULL when there
 * is none. The frame is valid until the next poll of this sensor. A sensor
 * belongs to its world: after sensim_world_destroy its handle, like the
 * frames it gave, must not be used (the host's contract; sensim cannot tell
 * a freed handle from a live one, as free() cannot). */
SENSIM_API sensim_status sensim_sensor_poll(sensim_sensor *sensor, const sensim_frame **frame);

/* Take the oldest delivered frame not yet taken, as sensim_sensor_poll
 * does, but hand its buffers to the caller: *out receives the frame (its
 * data, depth, labels, normals and trajectory now the caller's, to free
 * with sensim_frame_release) and *got is 1; *got is 0 and *out untouched
 * when no frame is waiting. Nothing is copied, and the frame stays valid
 * for as long as the caller keeps it (bindings whose arrays outlive the
 * next poll use this). Polling and taking may be mixed: a take also ends
 * the validity of the frame the last poll returned. Give the buffers back
 * with sensim_sensor_recycle rather than sensim_frame_release when done,
 * so the sensor's next frames reuse them. */
SENSIM_API sensim_status sensim_sensor_take(sensim_sensor *sensor, sensim_frame *out, int *got);

/* Give a taken frame's buffers back to the sensor for its next frames,
 * instead of freeing them with sensim_frame_release: a sensor allocates
 * no frame buffers in steady state when every frame it delivers comes
 * back, by the next poll or by this call. Afterwards the frame is empty as
 * sensim_frame_release leaves it (data, depth, labels, normals and
 * trajectory NULL, count 0). Any frame whose buffers are malloc blocks is
 * correct here: one taken from another sensor of any world, of another
 * size, or one the host built with sensim_frame_alloc; a buffer is reused
 * only for requests it can hold, and the sensor keeps only a few frames'
 * worth (the rest is freed). A NULL sensor frees the buffers
 * (sensim_frame_release); a NULL frame is a no-op. Safe from any thread
 * while the sensor's world exists, also while it advances; never after
 * sensim_world_destroy (the sensor is gone: use sensim_frame_release). */
SENSIM_API void sensim_sensor_recycle(sensim_sensor *sensor, sensim_frame *frame);

/* Accessors. A NULL sensor gives a neutral answer (SENSIM_PAYLOAD_NONE,
 * id -1, NULL name and params, 0 frames) instead of a crash. */

/* The payload type frames will have after the whole chain. */
SENSIM_API sensim_payload sensim_sensor_output_type(const sensim_sensor *sensor);

SENSIM_API int sensim_sensor_id(const sensim_sensor *sensor);
SENSIM_API const char *sensim_sensor_name(const sensim_sensor *sensor);
/* The sensor's kind: "camera", "lidar", "gnss", "imu", "magnetometer" or
 * "cone" (the names sensim_sensor_kinds lists). */
SENSIM_API const char *sensim_sensor_kind_name(const sensim_sensor *sensor);
/* The sensor's schedule parameters, with the kind's default window applied. */
SENSIM_API const sensim_sensor_params *sensim_sensor_params_get(const sensim_sensor *sensor);
/* Frames captured (jobs started) and delivered so far. */
SENSIM_API uint64_t sensim_sensor_frames_captured(const sensim_sensor *sensor);
SENSIM_API uint64_t sensim_sensor_frames_delivered(const sensim_sensor *sensor);
/* Frames whose generator or filter chain failed, since creation or reset.
 * A failed frame is dropped at its delivery time (never delivered) and the
 * sensim_world_advance that reached that time returns the failure; the
 * sensor goes on capturing. So captured = delivered + failed + the frames
 * still in flight. */
SENSIM_API uint64_t sensim_sensor_frames_failed(const sensim_sensor *sensor);

/* ---- host integration: bounded work, callbacks ------------------------- */

/* What a capture does when its sensor already has max_inflight captures
 * whose jobs have not finished (the host outruns the worker pool). */
typedef enum sensim_overrun {
  SENSIM_OVERRUN_WAIT = 0, /* sensim_world_advance blocks until the oldest
                              unfinished capture of the sensor finishes:
                              every frame is made, results do not depend on
                              machine speed (the default) */
  SENSIM_OVERRUN_SKIP = 1  /* the capture is not taken: its index k is never
                              delivered and sensim_sensor_frames_skipped()
                              counts it; the host never waits, but which
                              frames exist depends on machine speed */
} sensim_overrun;

/* Default bound on a sensor's unfinished captures. */
#define SENSIM_SENSOR_MAX_INFLIGHT_DEFAULT 4

/* Bound the captures of this sensor whose jobs (generation and filters) have
 * not finished to `max_inflight` (1..1024; 0 keeps the current bound) and
 * choose what happens at the bound. Takes effect from the next capture;
 * may be called at any time. Defaults: SENSIM_SENSOR_MAX_INFLIGHT_DEFAULT,
 * SENSIM_OVERRUN_WAIT. Finished frames that wait for their delivery time
 * are bounded by construction (at most floor(lag * rate) + 1 of them), and
 * delivered frames wait only for the host (poll them, or use a callback). */
SENSIM_API sensim_status sensim_sensor_set_overrun(sensim_sensor *sensor, int max_inflight,
                                        sensim_overrun policy);

/* Captures not taken under SENSIM_OVERRUN_SKIP since creation or reset. */
SENSIM_API uint64_t sensim_sensor_frames_skipped(const sensim_sensor *sensor);
/* Captures started whose job has not finished now (<= the bound). */
SENSIM_API int sensim_sensor_frames_unfinished(const sensim_sensor *sensor);
/* Delivered frames waiting for sensim_sensor_poll. */
SENSIM_API size_t sensim_sensor_frames_queued(const sensim_sensor *sensor);

/* A frame handed to the host as it is delivered. It runs on the host's
 * thread, inside sensim_world_advance, once per frame, in delivery order
 * across all the world's sensors (by t_deliver, then sensor id; each
 * sensor's frames by index). `frame` is valid until the callback returns;
 * copy what you keep. The callback may read the frame and the sensor, push
 * body states, and call any sensim function on other worlds; it must not
 * advance, reset or destroy this world, create sensors in it or change
 * their filters (those calls fail with SENSIM_ESTATE; destroy cannot and is
 * undefined). */
typedef void (*sensim_frame_callback)(sensim_sensor *sensor, const sensim_frame *frame,
                                      void *user);

/* Deliver this sensor's frames to `cb` (with `user`, borrowed) instead of
 * queuing them for sensim_sensor_poll; NULL goes back to polling. Frames
 * already queued stay pollable. SENSIM_ESTATE inside a callback. */
SENSIM_API sensim_status sensim_sensor_set_callback(sensim_sensor *sensor, sensim_frame_callback cb,
                                         void *user);

/* Sensor lookup in a world: by creation order and by name. */
SENSIM_API size_t sensim_world_sensor_count(const sensim_world *world);
SENSIM_API sensim_sensor *sensim_world_sensor(sensim_world *world, size_t i);
SENSIM_API sensim_sensor *sensim_world_sensor_by_name(sensim_world *world, const char *name);

#ifdef __cplusplus
}
#endif
#endif
