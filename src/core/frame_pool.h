/* core/frame_pool.h: a sensor's pool of frame buffers, so a sensor in
 * steady state allocates none (issue 17): a 1280 x 720 camera frame is
 * about 33 MB of buffers, and allocating them anew each frame costs page
 * faults and zeroing of fresh pages on every capture.
 *
 * Pooled blocks are ordinary malloc blocks, and a block leaves the pool as
 * one: a frame handed to the host (sensim_sensor_take) is freed with plain
 * free() by sensim_frame_release, wherever its buffers came from. A block's
 * capacity is what malloc_usable_size says of it, so any malloc block (one
 * another sensor or the host made) can join a pool and a smaller request
 * can reuse a bigger block (up to 4 times its size), never the reverse.
 *
 * Thread safety: a pool has its own lock. Captures of one sensor run on
 * several workers at once (generation), one worker runs its chain, and the
 * host thread gives polled frames back, all into the same pool.
 *
 * How an allocation finds its pool: a thread-local current pool, set by
 * the runtime around a capture's generator and around its filter chain
 * (sensim__frame_pool_enter / _leave). sensim_frame_alloc is public, with
 * no room for a pool argument, and is what generators, built-in filters
 * and user filters (sensim_filter_def.apply, also public) call; sensim_frame
 * is public too, with a fixed layout, so it cannot carry a pool handle.
 * A thread-local set for exactly the span of one job reaches all of them
 * without changing an API. Enter returns the previous pool and leave
 * restores it, because a worker waiting inside a fork-join may run another
 * capture's job (core/pool.h) nested in the first. Outside those spans the
 * current pool is NULL and every call here is plain malloc/calloc/free. */
#ifndef SENSIM_CORE_FRAME_POOL_H
#define SENSIM_CORE_FRAME_POOL_H

#include <stddef.h>
#include "sensim/frame.h"
#include "sensim/status.h"

typedef struct sensim_frame_pool sensim_frame_pool;

sensim_status sensim__frame_pool_create(sensim_frame_pool **out);
/* Free every block the pool holds, then the pool. NULL is a no-op. */
void sensim__frame_pool_destroy(sensim_frame_pool *pool);

/* The bound: the pool keeps at most frames x (the most buffers one frame
 * has held + 2) blocks, evicting the smallest. A sensor in steady state
 * gives back one frame's buffers for each frame it starts, so a bound of
 * 2 frames absorbs a host that polls every other frame; a larger burst
 * (frames queued for long, a reset dropping every capture) is freed
 * rather than kept for ever. */
void sensim__frame_pool_set_frames(sensim_frame_pool *pool, size_t frames);

/* A block of at least `bytes` (0 counts as 1): the smallest pooled block
 * that fits and is at most 4 x bytes + 4 kB, else a new one; zeroed when
 * `zero`. NULL when out of memory. A NULL pool is plain malloc/calloc. */
void *sensim__frame_pool_get(sensim_frame_pool *pool, size_t bytes, int zero);
/* Give a malloc block to the pool (NULL is a no-op); a NULL pool frees it. */
void sensim__frame_pool_put(sensim_frame_pool *pool, void *block);
/* sensim__frame_release into the pool: every buffer of the frame is given
 * to it, and the frame is left empty as sensim_frame_release leaves it. */
void sensim__frame_pool_release(sensim_frame_pool *pool, sensim_frame *frame);

/* Blocks held, and their bytes (tests, benchmarks). */
size_t sensim__frame_pool_blocks(sensim_frame_pool *pool, size_t *bytes);
/* Requests the pool has served since it was made, and how many of them
 * it served with a new block (an allocation): in steady state no more
 * misses should come (tests, benchmarks). */
void sensim__frame_pool_stats(sensim_frame_pool *pool, size_t *gets, size_t *misses);

/* The calling thread's current pool (see above): enter returns the one it
 * replaces, which leave restores. */
sensim_frame_pool *sensim__frame_pool_enter(sensim_frame_pool *pool);
void sensim__frame_pool_leave(sensim_frame_pool *previous);
sensim_frame_pool *sensim__frame_pool_current(void);

#endif
