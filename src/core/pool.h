/* core/pool.h: a fixed pool of worker threads running jobs in FIFO order.
 * With 0 threads every job runs inside sensim__pool_submit on the caller's
 * thread. */
#ifndef SENSIM_CORE_POOL_H
#define SENSIM_CORE_POOL_H

#include "sensim/status.h"

typedef struct sensim_pool sensim_pool;

sensim_status sensim__pool_create(int threads, sensim_pool **out);
/* Run every queued job, join the threads, free the pool. NULL is a no-op. */
void sensim__pool_destroy(sensim_pool *pool);
/* Queue fn(arg). Never fails once the pool exists (the queue is a linked list
 * of caller-owned nodes). */
typedef struct sensim_job {
  void (*fn)(void *arg);
  void *arg;
  struct sensim_job *next; /* owned by the pool while queued */
} sensim_job;
void sensim__pool_submit(sensim_pool *pool, sensim_job *job);
int sensim__pool_threads(const sensim_pool *pool);
/* Remove `job` from the queue if no worker has taken it yet: 1 when it was
 * removed (the caller now runs it), 0 when it is running or has run. For a
 * host that must wait for one job: running it itself beats waiting for
 * every job queued before it. */
int sensim__pool_take(sensim_pool *pool, sensim_job *job);

/* Run fn(args[i]) for i in [0, n) on the pool and return when all have
 * finished. The calling thread (a worker itself, or the host) runs queued
 * jobs while it waits, so a job may fork-join without ever blocking the
 * pool; the forked jobs must not wait on anything themselves. With 0
 * threads they run inline, in order. */
void sensim__pool_run_all(sensim_pool *pool, void (*fn)(void *arg), void **args, size_t n);

#endif
