/* runtime/runtime_internal.h: the runtime's own objects: the per-world
 * registry of sensors and workers, the sensor object, and its captures.
 * Private to src/runtime (and white-box tests). */
#ifndef SENSIM_RUNTIME_INTERNAL_H
#define SENSIM_RUNTIME_INTERNAL_H

#include <pthread.h>
#include "core/frame_pool.h"
#include "core/pool.h"
#include "filters/chain.h"
#include "runtime/kind.h"

/* What the runtime keeps per world, attached on the first sensor
 * (world->runtime): the sensors in creation order and the workers their
 * captures run on. */
typedef struct sensim_runtime {
  sensim_world *world;
  sensim_pool *pool;          /* world.params.threads workers */
  sensim_sensor **sensors;    /* index = sensor id */
  size_t nsensors, cap_sensors;
} sensim_runtime;

/* How to re-create one link of a sensor's chain on sensim_world_reset: a
 * built-in filter is created anew from its name and parameters (its state,
 * an IMU bias walk, starts over); a user filter (builtin == NULL) is kept
 * as it is: its state is the host's (sensor.h). */
typedef struct sensim_filter_spec {
  const sensim_builtin_filter *builtin; /* NULL: a user filter */
  char *params_json;                    /* copy of the JSON given, or NULL */
} sensim_filter_spec;

enum { SENSIM_CAP_PENDING, SENSIM_CAP_GENERATED, SENSIM_CAP_DONE };

/* One capture from scheduling to its hand-over. The host thread alone
 * links and unlinks captures; workers only change `state` (under the
 * sensor's lock), `frame`, `status` and `error`. */
typedef struct sensim_capture {
  sensim_sensor *sensor;
  sensim_capture_ctx ctx;      /* what the generator sees (its snapshot lives
                                  in snap_block until the job has run) */
  void *snap_block;            /* the snapshot's block, kept with the record
                                  when it is reused (scene.h: _take_into) */
  size_t snap_cap;             /* bytes of snap_block */
  double t_deliver;            /* s, t_capture + lag */
  sensim_frame frame;
  sensim_status status;        /* of generation and filtering */
  char error[256];             /* message of a failed job */
  int state;                   /* SENSIM_CAP_*, guarded by sensor->mu */
  sensim_job job;
  struct sensim_capture *next; /* in the sensor's in-flight, due, ready list */
} sensim_capture;

/* A FIFO list of captures. */
typedef struct sensim_capture_list {
  sensim_capture *head, *tail;
} sensim_capture_list;

struct sensim_sensor {
  sensim_world *world;
  sensim_runtime *rt;
  int id;
  char *name;
  sensim_sensor_params params; /* window resolved, name points at `name` */
  const sensim_sensor_kind *kind;
  void *impl;                  /* kind's configuration, immutable after create */
  sensim_chain chain;
  sensim_filter_spec *specs;   /* one per chain link, chain.n of them */
  size_t cap_specs;
  uint64_t next_index;         /* next capture k */
  uint64_t captured, delivered;
  uint64_t skipped;            /* captures not taken under SENSIM_OVERRUN_SKIP */
  uint64_t failed;             /* captures dropped at delivery: generator or chain failed */
  int max_inflight;            /* captures not yet generated and filtered, >= 1 */
  int overrun;                 /* sensim_overrun: what a capture does at the bound */
  sensim_frame_callback callback; /* NULL: frames queue for sensim_sensor_poll */
  void *callback_user;
  /* The capture queues (runtime/queue.c), oldest first. */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int unfinished;              /* captures whose job has not finished (guarded by mu) */
  int filtering;               /* a worker is running the chain (guarded by mu) */
  sensim_capture_list inflight; /* scheduled, not yet due */
  sensim_capture *turn;        /* oldest in flight whose chain has not run, NULL:
                                  none (guarded by mu): where filtering resumes,
                                  so it never walks the finished captures that
                                  wait for delivery (one advance may start 2^20) */
  sensim_capture_list due;     /* due in this advance, not yet handed over */
  sensim_capture_list ready;   /* delivered, not yet polled */
  sensim_capture *polled;      /* handed out by the last poll; freed on the next */
  /* What captures reuse instead of allocating (issue 17: none in steady
   * state). The frame pool takes every buffer a finished capture or a
   * recycled frame gives back (it has its own lock: workers take from it);
   * the spare capture records, with their snapshot blocks, are the host
   * thread's alone, as linking captures is. */
  sensim_frame_pool *frames;
  sensim_capture *spare;       /* list through `next` */
  int nspare;                  /* at most max_inflight + 2 are kept */
};

/* ---- registry (runtime/registry.c) ---- */

/* The world's runtime, or NULL before its first sensor. */
sensim_runtime *sensim__runtime_of(const sensim_world *w);
/* Wait for the sensor's jobs, then free it and everything it holds. */
void sensim__sensor_destroy(sensim_sensor *s);
/* Nonzero while a frame callback of world w runs on this thread. */
int sensim__world_in_callback(const sensim_world *w);
/* Run cb on this thread as a frame callback of w (calls it must not make
 * are refused while it runs). */
void sensim__run_callback(sensim_sensor *s, const sensim_frame *f);

/* ---- captures (runtime/capture.c) ---- */

/* Take the snapshot of capture k at t_k, bind it, and queue its job. */
sensim_status sensim__capture_start(sensim_sensor *s, uint64_t k, double tk);
/* Give a capture's frame buffers to the sensor's pool and its record to
 * its spares (host thread). */
void sensim__capture_free(sensim_capture *c);
/* Free the spare capture records (sensor destroy). */
void sensim__sensor_free_spares(sensim_sensor *s);
/* The job of a capture: generate, then filter every capture of the sensor
 * whose turn has come. Run by a worker, or by the host taking it back. */
void sensim__capture_run(void *capture);

/* ---- queues (runtime/queue.c) ---- */

void sensim__list_push(sensim_capture_list *l, sensim_capture *c);
sensim_capture *sensim__list_pop(sensim_capture_list *l);
/* Whether the sensor's oldest capture in flight is due by t. Inline, and
 * read without the lock (the host thread alone links captures, workers
 * only change their states): an advance asks it of every sensor at every
 * step, and most steps have nothing due. */
static inline int sensim__sensor_has_due(const sensim_sensor *s, double t) {
  return s->inflight.head && s->inflight.head->t_deliver <= t;
}
/* Move the captures due by t from in-flight to due, waiting for (or
 * running) the jobs of those only. */
void sensim__sensor_collect_due(sensim_sensor *s, double t);
/* Hand one due capture over: to the callback or the poll queue; a failed
 * one is dropped and its error returned. */
sensim_status sensim__sensor_hand_over(sensim_sensor *s, sensim_capture *c);
/* Wait for every capture job of the sensor to finish (host thread). */
void sensim__sensor_wait_idle(sensim_sensor *s);
/* Free every capture the sensor holds; its jobs must have finished. */
void sensim__sensor_drop_captures(sensim_sensor *s);

/* ---- reach (runtime/reach.c) ---- */

/* The reach of a capture of s over its window [t0, t1], in *r; returns r,
 * or NULL when the world keeps every body (benchmarks' "before"). */
const sensim_reach *sensim__reach_of_capture(const sensim_sensor *s, double t0, double t1, sensim_reach *r);
/* Choose the world's tiles in range of the sensors that trace geometry
 * (scene/tiles.c) for an advance to t: each sensor's reach over the
 * keyframes its carrier holds for [its next capture (at most t) - its
 * window, t]; the first tile load's failure, after choosing all. */
sensim_status sensim__reach_select_tiles(sensim_world *w, const sensim_runtime *rt, double t);
/* Capture k's time, phase + k / rate (runtime/clock.c). */
double sensim__capture_time(const sensim_sensor *s, uint64_t k);

#endif
