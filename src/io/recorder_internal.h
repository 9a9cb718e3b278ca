/* io/recorder_internal.h: what the recorder's two files share: the
 * recorder (io/recorder.c: the public calls, the queue ordered by log
 * time, /tf and odometry) and the translation of frames into messages
 * (io/recorder_frames.c). */
#ifndef SENSIM_IO_RECORDER_INTERNAL_H
#define SENSIM_IO_RECORDER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "io/cdr.h"
#include "io/mcap_writer.h"
#include "io/odom_drift.h"
#include "io/ros_msgs.h"
#include "sensim/record.h"

/* A sensor's topics, each a channel made when its first message comes. */
enum { TOPIC_MAIN = 0, TOPIC_CAMERA_INFO, TOPIC_DEPTH, TOPIC_CLASS_IDS, TOPIC_INSTANCE_IDS, TOPICS };

typedef struct rec_sensor {
  int declared;             /* its first frame was seen */
  char *frame;              /* frame id: the sensor's name made a valid ROS name */
  char *optical;            /* camera: <frame>_optical, else NULL */
  uint16_t channel[TOPICS]; /* 0: not yet made */
  /* camera_info, from the camera's parameters */
  int is_camera;
  sensim_camera_params cp;
} rec_sensor;

typedef struct rec_body {
  sensim_body *body;
  char *frame;
  uint16_t odom;             /* channel of /<frame>/odom */
} rec_body;

/* A mount on /tf_static, and the log time of the frame that declared it. */
typedef struct rec_static {
  sensim__ros_transform t;
  uint64_t log_time;
} rec_static;

/* One encoded message waiting for its turn (a /tf_static one is encoded
 * when written: it holds every mount declared up to its log time). */
typedef struct rec_msg {
  uint64_t log_time;  /* ns */
  int sensor;         /* sensor id, -1 for the bodies' /tf and odometry */
  uint16_t channel;
  size_t order;       /* arrival, the last tie-break */
  size_t off, len;    /* its CDR bytes in the queue's buffer */
} rec_msg;

struct sensim_recorder {
  sensim__mcap *mcap;
  sensim_world *world;
  sensim_recorder_params p;
  uint16_t schema[SENSIM__ROS_TYPES]; /* 0: not yet registered */
  uint16_t tf, tf_static;             /* channels, made at open */
  rec_sensor *sensors;                /* by sensor id */
  size_t nsensors;
  rec_body *bodies;
  size_t nbodies, bodies_cap;
  rec_static *statics;                /* every mount declared (names borrowed from
                                         the sensors and bodies) */
  size_t nstatics, statics_cap;
  sensim__cdr scratch;                /* a /tf_static message being encoded */
  sensim__cdr queue;                  /* encoded messages, back to back */
  rec_msg *msgs;
  size_t nmsgs, msgs_cap, arrivals;
  uint64_t written_until;             /* latest log time written, ns */
  int any_written;
  int ticking;                        /* /tf ticks have started */
  int64_t next_tick;                  /* k of the next tick, t = k / tf_rate */
  int failed;                         /* a write failed: only close or abort now */
  char *map_frame, *odom_frame;       /* REP 105 frame names, owned */
  char *odom_body;                    /* the robot's frame name, owned; NULL: the first body */
  int drifting;                       /* an odometry error model is on */
  size_t robot;                       /* index in bodies of the robot, found at the first tick */
  sensim__odom_drift drift;
};

/* The variance recorded for an exact quantity (the truth, or a reading no
 * noise filter touched), unit^2: robot_localization's own floor (ekf.cpp,
 * correct(): a measurement variance below 1e-9 is raised to it, with a
 * warning), where 0 would read as "unknown" (sensor_msgs/Imu's comment)
 * and an all-zero matrix is refused by EKFs. */
#define SENSIM__REC_EXACT_VAR 1e-9

/* A row-major n x n covariance (n <= 6) with var on its diagonal, each
 * variance that is not > 0 recorded as SENSIM__REC_EXACT_VAR. */
void sensim__rec_diag_cov(const double *var, int n, double *cov);

/* Seconds to the recording's ns timestamps (negative times clamp to 0). */
uint64_t sensim__rec_ns(double t);

/* A valid ROS name component from `name` (malloc'd): characters other
 * than letters, digits and '_' become '_', and a leading digit gets a
 * '_' in front (ROS 2 topic and frame name rules). */
char *sensim__rec_ros_name(const char *name);

/* The channel of (schema type, topic), registering the schema the first
 * time; *id gets it. */
sensim_status sensim__rec_channel(sensim_recorder *r, sensim__ros_type type, const char *topic,
                                  int latched, uint16_t *id);

/* Start a message at the end of the queue; finish it with _end, which
 * checks the encoder ran out of no memory and files the message. */
size_t sensim__rec_begin(sensim_recorder *r);
sensim_status sensim__rec_end(sensim_recorder *r, size_t start, uint64_t log_time, int sensor,
                              uint16_t channel);

/* Translate one frame of a declared sensor into queued messages
 * (io/recorder_frames.c), and check beforehand that it can be. */
int sensim__rec_frame_supported(const sensim_frame *f);
sensim_status sensim__rec_declare(sensim_recorder *r, const sensim_sensor *s, rec_sensor *rs,
                                  const sensim_frame *f);
sensim_status sensim__rec_frame(sensim_recorder *r, const sensim_sensor *s, rec_sensor *rs,
                                const sensim_frame *f);

#endif
