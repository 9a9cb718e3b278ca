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

#include "sensim/frame.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_sensor sensim_sensor;

typedef struct sensim_sensor_params {
  const char *name;   /* copied; used in messages and output folders */
  sensim_body *body;  /* carrier, borrowed from the same world; NULL: the world */
  sensim_pose mount;  /* sensor frame in the body frame */
  double rate;        /* captures per second, Hz, > 0 */
  double phase;       /* s, time of capture 0, >= 0 */
  double lag;         /* s, delivery delay after capture, >= 0 */
  double window;      /* s, collection window ending at the capture, >= 0;
                         < 0 means the kind's default (see each kind) */
} sensim_sensor_params;

/* Defaults: name "sensor", no body, identity mount, 10 Hz, phase 0, lag 0,
 * window = kind's default. */
void sensim_sensor_params_init(sensim_sensor_params *p);

/* Append a built-in filter, by registered name, to the sensor's chain.
 * `params_json` is a JSON object text with the filter's parameters, or NULL
 * for its defaults. Fails with SENSIM_ENOTFOUND for an unknown name,
 * SENSIM_ETYPE if the filter does not take the payload the chain gives at
 * this point, SENSIM_ESTATE once the world has advanced past the sensor's
 * first capture. On failure the chain is unchanged. */
sensim_status sensim_sensor_add_filter(sensim_sensor *sensor, const char *name,
                                       const char *params_json);

struct sensim_filter_def;
/* Append a user filter (see filter.h). `user` is borrowed until the world is
 * destroyed; def->destroy(user) is called then. Same failures as above; when
 * this fails, def->destroy is not called. */
sensim_status sensim_sensor_add_user_filter(sensim_sensor *sensor,
                                            const struct sensim_filter_def *def, void *user);

/* Take the oldest delivered frame not yet taken. *frame is NULL when there
 * is none. The frame is valid until the next poll of this sensor. */
sensim_status sensim_sensor_poll(sensim_sensor *sensor, const sensim_frame **frame);

/* The payload type frames will have after the whole chain. */
sensim_payload sensim_sensor_output_type(const sensim_sensor *sensor);

int sensim_sensor_id(const sensim_sensor *sensor);
const char *sensim_sensor_name(const sensim_sensor *sensor);
/* The sensor's schedule parameters, with the kind's default window applied. */
const sensim_sensor_params *sensim_sensor_params_get(const sensim_sensor *sensor);
/* Frames captured (jobs started) and delivered so far. */
uint64_t sensim_sensor_frames_captured(const sensim_sensor *sensor);
uint64_t sensim_sensor_frames_delivered(const sensim_sensor *sensor);

/* Sensor lookup in a world: by creation order and by name. */
size_t sensim_world_sensor_count(const sensim_world *world);
sensim_sensor *sensim_world_sensor(sensim_world *world, size_t i);
sensim_sensor *sensim_world_sensor_by_name(sensim_world *world, const char *name);

#ifdef __cplusplus
}
#endif
#endif
