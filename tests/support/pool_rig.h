/* tests/support/pool_rig.h: a world whose sensors run in steady state, for
 * the frame pool's tests (tests/runtime/frame_pool_tests.c, the
 * allocation count of tests/alloc/): a car turning on the spot among
 * boxes, carrying a small camera and a lidar at 10 Hz, so from one frame
 * to the next pixels change between a hit and the sky and a reused buffer
 * that kept anything would show it. */
#ifndef SENSIM_TESTS_POOL_RIG_H
#define SENSIM_TESTS_POOL_RIG_H

#include "sensim/sensim.h"

/* The camera's filters. */
typedef enum pool_rig_chain {
  POOL_RIG_NONE,     /* rgb_f32 radiance as rendered */
  POOL_RIG_IN_PLACE, /* image_sensor .. tone: every filter works in place */
  POOL_RIG_ISP       /* the typical chain of docs/camera_pipeline.md, to rgba8:
                        cfa, demosaic and quantize replace the payload; and
                        the lidar's "points" */
} pool_rig_chain;

typedef struct pool_rig {
  sensim_world *w;
  sensim_body *car;
  sensim_sensor *cam, *lid;
} pool_rig;

enum { POOL_RIG_W = 64, POOL_RIG_H = 48 };

/* A world with `threads` workers; the lidar gives beams, or points with
 * POOL_RIG_ISP. Fails the test on error. */
void pool_rig_make(pool_rig *r, int threads, pool_rig_chain chain);
/* Push the car's state and advance to frame k's time (k / 10 s): both
 * sensors deliver frame k (lag 0). */
void pool_rig_step(pool_rig *r, int k);

#endif
