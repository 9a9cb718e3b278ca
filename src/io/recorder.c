/* io/recorder.c: ROS 2 recordings (sensim/record.h): the public calls, the
 * queue that puts messages in log-time order, and the bodies' /tf and
 * odometry.
 *
 * Frames are encoded when they are handed over (the frame may not outlive
 * the call) into one growable queue buffer, and each message is filed with
 * its sort key; sensim_recorder_advance sorts the keys and copies the due
 * messages into the MCAP writer's open chunk. A frame arrives after its
 * delivery, so every message due at t is in the queue when the host
 * advances the recorder to t; one that comes later than a message already
 * written with a later log time would break the order and is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/recorder_internal.h"

/* rosbag2's form of offered_qos_profiles (the ros2 profile of MCAP asks
 * for the key): reliable, keep-last history of unknown depth, durations
 * infinite; /tf_static transient local so a player latches it as
 * tf2's static broadcaster does. */
#define QOS(durability)                                                           \
  "- history: 3\n  depth: 0\n  reliability: 1\n  durability: " durability "\n"  \
  "  deadline:\n    sec: 9223372036\n    nsec: 854775807\n"                       \
  "  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n"                       \
  "  liveliness: 1\n"                                                             \
  "  liveliness_lease_duration:\n    sec: 9223372036\n    nsec: 854775807\n"      \
  "  avoid_ros_namespace_conventions: false\n"

void sensim_recorder_params_init(sensim_recorder_params *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->compress = 1;
  p->zstd_level = 3;
  p->chunk_size = 4u << 20;
  p->lidar_time = SENSIM_LIDAR_TIME_FROM_START;
  p->tf_rate = 50;
  p->map_frame = "map";
  p->odom_frame = "odom";
}

uint64_t sensim__rec_ns(double t) {
  if (!(t > 0)) return 0;
  return (uint64_t)llround(t * 1e9);
}

void sensim__rec_diag_cov(const double *var, int n, double *cov) {
  for (int i = 0; i < n * n; i++) cov[i] = 0.0;
  for (int i = 0; i < n; i++) cov[i * (n + 1)] = var[i] > 0.0 ? var[i] : SENSIM__REC_EXACT_VAR;
}

char *sensim__rec_ros_name(const char *name) {
  size_t n = strlen(name);
  char *s = malloc(n + 2);
  if (!s) return NULL;
  char *o = s;
  if (!n || (name[0] >= '0' && name[0] <= '9')) *o++ = '_';
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    *o++ = ok ? c : '_';
  }
  *o = '\0';
  return s;
}

sensim_status sensim__rec_channel(sensim_recorder *r, sensim__ros_type type, const char *topic,
                                  int latched, uint16_t *id) {
  sensim_status st;
  if (!r->schema[type]) {
    const char *text = sensim__ros_schema(type);
    st = sensim__mcap_schema(r->mcap, sensim__ros_type_name(type), "ros2msg", text, strlen(text),
                             &r->schema[type]);
    if (st) return st;
  }
  return sensim__mcap_channel(r->mcap, r->schema[type], topic, "cdr", "offered_qos_profiles",
                              latched ? QOS("1") : QOS("2"), id);
}

size_t sensim__rec_begin(sensim_recorder *r) { return r->queue.len; }

sensim_status sensim__rec_end(sensim_recorder *r, size_t start, uint64_t log_time, int sensor,
                              uint16_t channel) {
  if (r->queue.failed ||
      sensim__grow((void **)&r->msgs, &r->msgs_cap, r->nmsgs + 1, sizeof *r->msgs)) {
    r->queue.failed = 0;
    r->queue.len = start;
    return sensim__fail(SENSIM_ENOMEM, "out of memory queuing a recorded message");
  }
  rec_msg *m = &r->msgs[r->nmsgs++];
  m->log_time = log_time;
  m->sensor = sensor;
  m->channel = channel;
  m->order = r->arrivals++;
  m->off = start;
  m->len = r->queue.len - start;
  return SENSIM_OK;
}

/* ---- open, bodies ------------------------------------------------------ */

sensim_status sensim_recorder_open(const char *path, sensim_world *world,
                                   const sensim_recorder_params *p, sensim_recorder **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_recorder_open: NULL out");
  *out = NULL;
  if (!path || !*path) return sensim__fail(SENSIM_EINVAL, "sensim_recorder_open: empty path");
  if (!world) return sensim__fail(SENSIM_EINVAL, "sensim_recorder_open: NULL world");
  sensim_recorder_params d;
  sensim_recorder_params_init(&d);
  if (p) d = *p;
  if (d.compress && (d.zstd_level < 1 || d.zstd_level > 19))
    return sensim__fail(SENSIM_EINVAL, "recorder zstd_level %d must be in 1..19", d.zstd_level);
  if (d.chunk_size < 1 || d.chunk_size > ((size_t)1 << 32))
    return sensim__fail(SENSIM_EINVAL, "recorder chunk_size %zu B must be in [1, 4 GiB]", d.chunk_size);
  if (d.lidar_time != SENSIM_LIDAR_TIME_FROM_START && d.lidar_time != SENSIM_LIDAR_TIME_FROM_END)
    return sensim__fail(SENSIM_EINVAL, "recorder lidar_time %d is not a sensim_lidar_time", (int)d.lidar_time);
  if (!(d.tf_rate > 0 && d.tf_rate <= 1e6))
    return sensim__fail(SENSIM_EINVAL, "recorder tf_rate %g Hz must be in (0, 1e6]", d.tf_rate);
  if (!d.map_frame || !*d.map_frame || !d.odom_frame || !*d.odom_frame)
    return sensim__fail(SENSIM_EINVAL, "recorder map_frame and odom_frame must be non-empty names");
  sensim_status st = sensim__odom_drift_check(&d.odom_drift);
  if (st) return st;
  sensim_recorder *r = calloc(1, sizeof *r);
  if (!r) return sensim__fail(SENSIM_ENOMEM, "out of memory opening recording '%s'", path);
  r->world = world;
  r->p = d;
  r->map_frame = sensim__rec_ros_name(d.map_frame);
  r->odom_frame = sensim__rec_ros_name(d.odom_frame);
  r->odom_body = d.odom_body ? sensim__rec_ros_name(d.odom_body) : NULL;
  r->p.map_frame = r->map_frame;
  r->p.odom_frame = r->odom_frame;
  r->p.odom_body = r->odom_body;
  if (!r->map_frame || !r->odom_frame || (d.odom_body && !r->odom_body)) {
    sensim_recorder_abort(r);
    return sensim__fail(SENSIM_ENOMEM, "out of memory opening recording '%s'", path);
  }
  if (strcmp(r->map_frame, r->odom_frame) == 0) {
    st = sensim__fail(SENSIM_EINVAL, "recorder map_frame and odom_frame are both '%s'", r->map_frame);
    sensim_recorder_abort(r);
    return st;
  }
  r->drifting = sensim__odom_drift_on(&d.odom_drift);
  sensim__odom_drift_init(&r->drift, &d.odom_drift, sensim_world_params_get(world)->seed);
  sensim__mcap_options o = {"ros2", "sensim " "0.1.0", d.compress, d.zstd_level, d.chunk_size};
  st = sensim__mcap_open(path, &o, &r->mcap);
  /* /tf_static and /tf first: channel ids break ties of equal log time
   * after the sensor id, so a sensor's mount precedes its first data. */
  if (!st) st = sensim__rec_channel(r, SENSIM__ROS_TF_MESSAGE, "/tf_static", 1, &r->tf_static);
  if (!st) st = sensim__rec_channel(r, SENSIM__ROS_TF_MESSAGE, "/tf", 0, &r->tf);
  if (st) {
    sensim_recorder_abort(r);
    return st;
  }
  *out = r;
  return SENSIM_OK;
}

sensim_status sensim_recorder_add_body(sensim_recorder *r, sensim_body *b, const char *name) {
  if (!r || !b || !name || !*name)
    return sensim__fail(SENSIM_EINVAL, "sensim_recorder_add_body: NULL recorder, body or name");
  for (size_t i = 0; i < r->nbodies; i++)
    if (r->bodies[i].body == b)
      return sensim__fail(SENSIM_EINVAL, "body '%s' is already recorded as '%s'", name, r->bodies[i].frame);
  sensim_body_state probe;
  sensim_status st = sensim_body_state_at(b, 0, &probe);
  if (st) return st;
  if (sensim__grow((void **)&r->bodies, &r->bodies_cap, r->nbodies + 1, sizeof *r->bodies))
    return SENSIM_ENOMEM;
  rec_body rb = {b, sensim__rec_ros_name(name), 0};
  char *topic = rb.frame ? malloc(strlen(rb.frame) + 8) : NULL;
  if (!topic) {
    free(rb.frame);
    return sensim__fail(SENSIM_ENOMEM, "out of memory adding body '%s'", name);
  }
  sprintf(topic, "/%s/odom", rb.frame);
  st = sensim__rec_channel(r, SENSIM__ROS_ODOMETRY, topic, 0, &rb.odom);
  free(topic);
  if (st) {
    free(rb.frame);
    return st;
  }
  r->bodies[r->nbodies++] = rb;
  return SENSIM_OK;
}

/* ---- frames ------------------------------------------------------------- */

sensim_status sensim_recorder_write(sensim_recorder *r, const sensim_sensor *s,
                                    const sensim_frame *f) {
  if (!r || !s || !f) return sensim__fail(SENSIM_EINVAL, "sensim_recorder_write: NULL argument");
  if (r->failed) return sensim__fail(SENSIM_ESTATE, "the recording failed earlier; close or abort it");
  const int id = sensim_sensor_id(s);
  if (id < 0 || f->sensor_id != id)
    return sensim__fail(SENSIM_EINVAL, "frame of sensor %d handed over as sensor %d's", f->sensor_id, id);
  if (!sensim__rec_frame_supported(f))
    return sensim__fail(SENSIM_ETYPE, "sensor '%s': a %s frame has no ROS 2 message here",
                        sensim_sensor_name(s), sensim_payload_name(f->type));
  const uint64_t log = sensim__rec_ns(f->t_deliver);
  if (r->any_written && log < r->written_until)
    return sensim__fail(SENSIM_ESTATE,
                        "sensor '%s': frame delivered at %.9g s comes after messages up to %.9g s "
                        "were written; write frames before advancing the recorder past them",
                        sensim_sensor_name(s), f->t_deliver, (double)r->written_until * 1e-9);
  if ((size_t)id >= r->nsensors) {
    size_t n = (size_t)id + 1;
    rec_sensor *grown = realloc(r->sensors, n * sizeof *grown);
    if (!grown) return sensim__fail(SENSIM_ENOMEM, "out of memory recording sensor %d", id);
    memset(grown + r->nsensors, 0, (n - r->nsensors) * sizeof *grown);
    r->sensors = grown;
    r->nsensors = n;
  }
  rec_sensor *rs = &r->sensors[id];
  const size_t nmsgs = r->nmsgs, qlen = r->queue.len, nstatics = r->nstatics;
  sensim_status st = SENSIM_OK;
  if (!rs->declared) st = sensim__rec_declare(r, s, rs, f);
  if (!st) st = sensim__rec_frame(r, s, rs, f);
  if (st) { /* nothing of this frame stays queued; its mount goes out with the next */
    r->nmsgs = nmsgs;
    r->queue.len = qlen;
    r->nstatics = nstatics;
    return st;
  }
  rs->declared = 1;
  return SENSIM_OK;
}

/* ---- advance: /tf, odometry, and the due messages ------------------------ */

static int by_key(const void *pa, const void *pb) {
  const rec_msg *a = pa, *b = pb;
  if (a->log_time != b->log_time) return a->log_time < b->log_time ? -1 : 1;
  if (a->sensor != b->sensor) return a->sensor < b->sensor ? -1 : 1;
  if (a->channel != b->channel) return a->channel < b->channel ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* The /tf_static message at log time `log`: the mounts declared by then.
 * Every frame due by then was handed over before the recorder advanced
 * to it, so the set does not depend on the order frames came in. */
static sensim_status encode_statics(sensim_recorder *r, uint64_t log) {
  size_t n = 0;
  for (size_t k = 0; k < r->nstatics; k++) n += r->statics[k].log_time <= log;
  sensim__ros_transform *t = malloc((n ? n : 1) * sizeof *t);
  if (!t) return sensim__fail(SENSIM_ENOMEM, "out of memory for /tf_static");
  n = 0;
  for (size_t k = 0; k < r->nstatics; k++)
    if (r->statics[k].log_time <= log) t[n++] = r->statics[k].t;
  r->scratch.len = 0;
  sensim__ros_tf_message(&r->scratch, t, n);
  free(t);
  if (r->scratch.failed) {
    r->scratch.failed = 0;
    return sensim__fail(SENSIM_ENOMEM, "out of memory for /tf_static");
  }
  return SENSIM_OK;
}

/* Write the queued messages with log time <= limit in order; keep the
 * rest, moved to the front of the queue. */
static sensim_status flush(sensim_recorder *r, uint64_t limit) {
  if (r->nmsgs > 1) qsort(r->msgs, r->nmsgs, sizeof *r->msgs, by_key); /* msgs may be NULL */
  size_t i = 0;
  for (; i < r->nmsgs && r->msgs[i].log_time <= limit; i++) {
    const rec_msg *m = &r->msgs[i];
    const unsigned char *data = r->queue.p + m->off;
    size_t len = m->len;
    if (m->channel == r->tf_static) {
      sensim_status st = encode_statics(r, m->log_time);
      if (st) return st;
      data = r->scratch.p;
      len = r->scratch.len;
    }
    sensim_status st = sensim__mcap_message(r->mcap, m->channel, m->log_time, m->log_time, data, len);
    if (st) {
      r->failed = 1;
      return st;
    }
    r->written_until = m->log_time;
    r->any_written = 1;
  }
  size_t keep = r->nmsgs - i, bytes = 0;
  for (size_t k = i; k < r->nmsgs; k++) bytes += r->msgs[k].len;
  if (keep) {
    unsigned char *rest = malloc(bytes);
    if (!rest) {
      r->failed = 1;
      return sensim__fail(SENSIM_ENOMEM, "out of memory keeping %zu queued messages", keep);
    }
    size_t at = 0;
    for (size_t k = 0; k < keep; k++) {
      rec_msg m = r->msgs[i + k];
      memcpy(rest + at, r->queue.p + m.off, m.len);
      m.off = at;
      at += m.len;
      r->msgs[k] = m;
    }
    memcpy(r->queue.p, rest, bytes);
    free(rest);
  }
  r->nmsgs = keep;
  r->queue.len = bytes;
  return SENSIM_OK;
}

/* The robot: the body named odom_body, else the first one added. */
static sensim_status find_robot(sensim_recorder *r) {
  r->robot = 0;
  if (!r->odom_body) return SENSIM_OK;
  for (size_t i = 0; i < r->nbodies; i++)
    if (strcmp(r->bodies[i].frame, r->odom_body) == 0) {
      r->robot = i;
      return SENSIM_OK;
    }
  return sensim__fail(SENSIM_EINVAL, "recorder odom_body '%s' is not a recorded body", r->odom_body);
}

/* The Odometry covariance of the robot's (x, y, yaw) from the drift
 * model, in the 6 x 6 order (x y z, rotations about x y z); z, roll and
 * pitch are the truth's and exact. */
static void drift_cov(const sensim__odom_drift *d, double cov[36]) {
  static const double exact[6] = {0};
  sensim__rec_diag_cov(exact, 6, cov);
  static const int at[3] = {0, 1, 5};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double v = d->cov[3 * i + j];
      if (i == j && !(v > SENSIM__REC_EXACT_VAR)) v = SENSIM__REC_EXACT_VAR;
      cov[6 * at[i] + at[j]] = v;
    }
}

/* The bodies' state at one tick (REP 105): a TFMessage of map -> odom
 * (the drift, or the identity) and odom -> each body, and an Odometry
 * each in odom, twist turned into the body frame as nav_msgs asks. */
static sensim_status tick(sensim_recorder *r, double t) {
  if (!r->nbodies) return SENSIM_OK;
  const uint64_t ns = sensim__rec_ns(t);
  sensim__ros_transform tfs[16];
  const size_t ntf = r->nbodies + 1;
  sensim__ros_transform *tf = ntf <= 16 ? tfs : malloc(ntf * sizeof *tf);
  sensim_body_state bss[15];
  sensim_body_state *bs = r->nbodies <= 15 ? bss : malloc(r->nbodies * sizeof *bs);
  sensim_status st = tf && bs ? SENSIM_OK : sensim__fail(SENSIM_ENOMEM, "out of memory for /tf");
  for (size_t i = 0; i < r->nbodies && !st; i++) st = sensim_body_state_at(r->bodies[i].body, t, &bs[i]);
  sensim_pose map_odom = sensim_pose_identity();
  if (!st && r->drifting) map_odom = sensim__odom_drift_step(&r->drift, bs[r->robot].pose, t);
  const sensim_pose odom_map = sensim__pose_inverse(map_odom);
  if (!st) tf[0] = (sensim__ros_transform){ns, r->map_frame, r->odom_frame, map_odom};
  for (size_t i = 0; i < r->nbodies && !st; i++) {
    const sensim_body_state *s = &bs[i];
    const sensim_pose in_odom = sensim_pose_compose(odom_map, s->pose);
    tf[1 + i] = (sensim__ros_transform){ns, r->odom_frame, r->bodies[i].frame, in_odom};
    sensim_quat inv = {s->pose.rot.w, -s->pose.rot.x, -s->pose.rot.y, -s->pose.rot.z};
    /* The truth is exact (SENSIM__REC_EXACT_VAR); the robot's drifting
     * odometry has the model's covariance. */
    static const double exact[6] = {0};
    double cov[36], pose_cov[36];
    sensim__rec_diag_cov(exact, 6, cov);
    if (r->drifting && i == r->robot) drift_cov(&r->drift, pose_cov);
    else memcpy(pose_cov, cov, sizeof cov);
    size_t at = sensim__rec_begin(r);
    sensim__ros_odometry(&r->queue, ns, r->odom_frame, r->bodies[i].frame, in_odom, pose_cov,
                         sensim_quat_rotate(inv, s->lin_vel), sensim_quat_rotate(inv, s->ang_vel), cov);
    st = sensim__rec_end(r, at, ns, -1, r->bodies[i].odom);
  }
  if (!st) {
    size_t at = sensim__rec_begin(r);
    sensim__ros_tf_message(&r->queue, tf, ntf);
    st = sensim__rec_end(r, at, ns, -1, r->tf);
  }
  if (tf != tfs) free(tf);
  if (bs != bss) free(bs);
  return st;
}

sensim_status sensim_recorder_advance(sensim_recorder *r, double t) {
  if (!r) return sensim__fail(SENSIM_EINVAL, "sensim_recorder_advance: NULL recorder");
  if (r->failed) return sensim__fail(SENSIM_ESTATE, "the recording failed earlier; close or abort it");
  if (!isfinite(t)) return sensim__fail(SENSIM_EINVAL, "recorder time %g s is not finite", t);
  const double rate = r->p.tf_rate;
  if (!r->ticking && r->nbodies) {
    r->next_tick = (int64_t)floor(t * rate);
    sensim_status st = find_robot(r);
    if (st) return st;
    r->ticking = 1;
  }
  if (r->ticking) {
    for (; (double)r->next_tick / rate <= t; r->next_tick++) {
      sensim_status st = tick(r, (double)r->next_tick / rate);
      if (st) return st;
    }
  }
  return flush(r, sensim__rec_ns(t));
}

/* ---- the end ------------------------------------------------------------- */

static void free_recorder(sensim_recorder *r) {
  for (size_t i = 0; i < r->nsensors; i++) {
    free(r->sensors[i].frame);
    free(r->sensors[i].optical);
  }
  for (size_t i = 0; i < r->nbodies; i++) free(r->bodies[i].frame);
  free(r->map_frame);
  free(r->odom_frame);
  free(r->odom_body);
  free(r->sensors);
  free(r->bodies);
  free(r->statics);
  free(r->scratch.p);
  free(r->queue.p);
  free(r->msgs);
  free(r);
}

sensim_status sensim_recorder_close(sensim_recorder *r) {
  if (!r) return SENSIM_OK;
  sensim_status st = r->failed ? sensim__fail(SENSIM_EIO, "the recording failed earlier") : SENSIM_OK;
  if (!st) st = flush(r, UINT64_MAX);
  if (st) {
    sensim__mcap_abort(r->mcap);
  } else {
    st = sensim__mcap_close(r->mcap);
  }
  free_recorder(r);
  return st;
}

void sensim_recorder_abort(sensim_recorder *r) {
  if (!r) return;
  sensim__mcap_abort(r->mcap);
  free_recorder(r);
}
