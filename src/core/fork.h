/* core/fork.h: how one capture job splits its own work over the world's
 * workers (fork-join), and the one banding rule camera rows and lidar
 * columns share.
 *
 * A capture job gets a sensim_fork, never the pool: it may learn how wide
 * the pool is and run bands of its work on it, nothing else. */
#ifndef SENSIM_CORE_FORK_H
#define SENSIM_CORE_FORK_H

#include <stddef.h>
#include "core/pool.h"
#include "sensim/status.h"

typedef struct sensim_fork {
  sensim_pool *pool; /* the world's workers; NULL runs every band inline */
} sensim_fork;

/* One band of items [lo, hi) (rows, columns) run as one pool job. A caller's
 * band struct starts with this member, so the rule below can lay out and run
 * any kind's bands. */
typedef struct sensim_band {
  size_t lo, hi;     /* the band's items */
  sensim_status rc;  /* what the band's job returned */
  char error[256];   /* its message (messages are per thread) */
} sensim_band;

/* Worker threads of the fork's pool (0: jobs run on the caller's thread). */
int sensim__fork_threads(sensim_fork f);

/* How many bands n items split into. With `split` 0 or no worker threads,
 * one: the job runs whole on its worker beside the others' jobs. Otherwise
 * four per thread and one for the joining thread, 4 (threads + 1), so that
 * uneven items (sky rows, empty columns) balance; never more than n. */
size_t sensim__fork_band_count(sensim_fork f, size_t n, int split);

/* Run fn on each of nb bands of n items and return when all have finished.
 * `bands` holds nb structs `stride` bytes apart, each starting with a
 * sensim_band; this sets band i's items to [n i / nb, n (i + 1) / nb) and
 * its rc to SENSIM_OK before fn runs. Items are split evenly and every item
 * belongs to exactly one band, so an output that each item writes on its
 * own does not depend on nb. Returns the first failing band's status, with
 * its message as this thread's error. */
sensim_status sensim__fork_run_bands(sensim_fork f, size_t n, void *bands, size_t nb, size_t stride,
                                     void (*fn)(void *band));

/* For a band's job: record rc and this thread's last error in the band. */
void sensim__band_fail(sensim_band *b, sensim_status rc);

#endif
