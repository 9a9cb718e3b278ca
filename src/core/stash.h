/* core/stash.h: a locked stack of spare blocks that a component keeps from
 * one capture to the next (the camera's band scratch, the lidar's column
 * scratch, the kernel's bindings, instance lists and views), so that a
 * world in steady state allocates nothing. Bounded: a block given back to
 * a full stash is the caller's to free. Not installed. */
#ifndef SENSIM_CORE_STASH_H
#define SENSIM_CORE_STASH_H

#include <pthread.h>

#define SENSIM_STASH_MAX 64 /* core/fork.h's most bands (4 (threads + 1) for 15 workers) */

typedef struct sensim_stash {
  pthread_mutex_t mu;
  void *item[SENSIM_STASH_MAX];
  int n, max;
} sensim_stash;

/* An empty stash keeping at most `max` blocks (<= SENSIM_STASH_MAX). */
void sensim__stash_init(sensim_stash *s, int max);
/* A kept block, or NULL when there is none. */
void *sensim__stash_take(sensim_stash *s);
/* Keep `block`: 1, or 0 when the stash is full (the caller frees it). */
int sensim__stash_give(sensim_stash *s, void *block);
/* Free every kept block with free_fn and the stash's lock. */
void sensim__stash_destroy(sensim_stash *s, void (*free_fn)(void *));

#endif
