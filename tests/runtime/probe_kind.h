/* tests/runtime/probe_kind.h: a sensor kind that records the capture
 * contexts the runtime hands it, so the runtime can be tested without any
 * real generator, as another back-end would drive it. */
#ifndef SENSIM_TESTS_PROBE_KIND_H
#define SENSIM_TESTS_PROBE_KIND_H

#include <pthread.h>
#include "runtime/kind.h"

enum { PROBE_MAX = 64 };

typedef struct probe_record {
  sensim_capture_ctx ctx;      /* as given (snapshot pointer not valid later) */
  double snap_t0, snap_t1;     /* the snapshot's window */
  int carrier_static;          /* the carrier's entry in the snapshot */
  sensim_pose pose_mid;        /* sensim__ctx_pose_at(ctx, t_capture - window / 2) */
  int fixed;                   /* sensim__ctx_fixed(ctx) */
} probe_record;

typedef struct probe {
  pthread_mutex_t mu;
  probe_record rec[PROBE_MAX];
  int n;
  double window;               /* what default_window answers */
  int fail_prepare;            /* prepare() fails this many more times */
  int prepared, released;      /* prepare()/release_aux() calls */
} probe;

/* A sensor of the probe kind recording into *p (which outlives the world). */
sensim_status probe_create(sensim_world *w, const sensim_sensor_params *sp, probe *p, sensim_sensor **out);
void probe_init(probe *p, double window);

#endif
