/* core/frame_pool.c: a sensor's pool of frame buffers (frame_pool.h). */
#include "core/frame_pool.h"
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"

typedef struct pooled {
  void *p;
  size_t cap; /* bytes, malloc_usable_size(p) */
} pooled;

struct sensim_frame_pool {
  pthread_mutex_t mu;
  pooled *blocks; /* free blocks, unordered */
  size_t n, cap;  /* held, room */
  size_t per_frame; /* most buffers one released frame held */
  size_t gets, misses; /* requests, and those a new block served */
  size_t frames;    /* frames' worth the bound keeps */
};

/* Until a frame has been released the pool knows no per-frame count: the
 * bound then assumes the camera's four buffers (data and three planes). */
enum { DEFAULT_PER_FRAME = 4, DEFAULT_FRAMES = 2 };
/* A block serves requests down to a quarter of its size, plus this much
 * (small frames: an IMU sample in any small block). */
enum { WASTE_SLACK = 4096 };

static _Thread_local sensim_frame_pool *tl_current;

sensim_status sensim__frame_pool_create(sensim_frame_pool **out) {
  sensim_frame_pool *p = calloc(1, sizeof *p);
  if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory for a frame pool");
  pthread_mutex_init(&p->mu, NULL);
  p->per_frame = DEFAULT_PER_FRAME;
  p->frames = DEFAULT_FRAMES;
  *out = p;
  return SENSIM_OK;
}

void sensim__frame_pool_destroy(sensim_frame_pool *pool) {
  if (!pool) return;
  for (size_t i = 0; i < pool->n; i++) free(pool->blocks[i].p);
  free(pool->blocks);
  pthread_mutex_destroy(&pool->mu);
  free(pool);
}

static size_t limit_of(const sensim_frame_pool *p) { return p->frames * (p->per_frame + 2); }

/* Index of the smallest block held (n > 0). */
static size_t smallest(const sensim_frame_pool *p) {
  size_t m = 0;
  for (size_t i = 1; i < p->n; i++)
    if (p->blocks[i].cap < p->blocks[m].cap) m = i;
  return m;
}

static void drop(sensim_frame_pool *p, size_t i) {
  free(p->blocks[i].p);
  p->blocks[i] = p->blocks[--p->n];
}

/* Free the smallest blocks until the bound holds (lock held). */
static void trim_locked(sensim_frame_pool *p) {
  size_t lim = limit_of(p);
  while (p->n > lim) drop(p, smallest(p));
}

void sensim__frame_pool_set_frames(sensim_frame_pool *pool, size_t frames) {
  if (!pool) return;
  pthread_mutex_lock(&pool->mu);
  pool->frames = frames ? frames : 1;
  trim_locked(pool);
  pthread_mutex_unlock(&pool->mu);
}

void *sensim__frame_pool_get(sensim_frame_pool *pool, size_t bytes, int zero) {
  if (bytes == 0) bytes = 1;
  void *block = NULL;
  if (pool) {
    pthread_mutex_lock(&pool->mu);
    /* The smallest block that holds the request, and none that would
     * waste most of itself on it: a block a frame from another sensor
     * brought (sensim_sensor_recycle) must not pin 33 MB under an IMU
     * sample. A camera's buffers (planes of 4, 8 and 12 bytes a pixel)
     * stay interchangeable. */
    size_t best = pool->n;
    for (size_t i = 0; i < pool->n; i++) {
      size_t cap = pool->blocks[i].cap;
      if (cap >= bytes && cap / 4 <= bytes + WASTE_SLACK && (best == pool->n || cap < pool->blocks[best].cap))
        best = i;
    }
    if (best < pool->n) {
      block = pool->blocks[best].p;
      pool->blocks[best] = pool->blocks[--pool->n];
    }
    pool->gets++;
    pool->misses += block == NULL;
    pthread_mutex_unlock(&pool->mu);
  }
  if (block) {
    /* A reused block carries the last frame's data: the zeroing contract
     * of sensim_frame_alloc (a camera's misses stay 0 in its planes) is
     * kept here, outside the lock. */
    if (zero) memset(block, 0, bytes);
    return block;
  }
  /* A new block: calloc, whose fresh pages the kernel gives zeroed, costs
   * no pass of its own. */
  return zero ? calloc(1, bytes) : malloc(bytes);
}

void sensim__frame_pool_put(sensim_frame_pool *pool, void *block) {
  if (!block) return;
  if (!pool) {
    free(block);
    return;
  }
  size_t cap = malloc_usable_size(block);
  pthread_mutex_lock(&pool->mu);
  if (pool->n == pool->cap) {
    size_t want = pool->cap ? 2 * pool->cap : 16;
    pooled *b = realloc(pool->blocks, want * sizeof *b);
    if (!b) { /* no room to keep it: it is freed, which is always correct */
      pthread_mutex_unlock(&pool->mu);
      free(block);
      return;
    }
    pool->blocks = b;
    pool->cap = want;
  }
  pool->blocks[pool->n].p = block;
  pool->blocks[pool->n].cap = cap;
  pool->n++;
  trim_locked(pool);
  pthread_mutex_unlock(&pool->mu);
}

void sensim__frame_pool_release(sensim_frame_pool *pool, sensim_frame *frame) {
  void *bufs[5] = {frame->data, frame->depth, frame->labels, frame->normals, frame->trajectory};
  size_t held = 0;
  for (int i = 0; i < 5; i++) held += bufs[i] != NULL;
  if (pool && held > 0) {
    pthread_mutex_lock(&pool->mu);
    if (held > pool->per_frame) pool->per_frame = held;
    pthread_mutex_unlock(&pool->mu);
  }
  for (int i = 0; i < 5; i++) sensim__frame_pool_put(pool, bufs[i]);
  frame->data = NULL;
  frame->depth = NULL;
  frame->labels = NULL;
  frame->normals = NULL;
  frame->trajectory = NULL;
  frame->ntraj = 0;
  frame->count = 0;
}

void sensim__frame_pool_stats(sensim_frame_pool *pool, size_t *gets, size_t *misses) {
  *gets = *misses = 0;
  if (!pool) return;
  pthread_mutex_lock(&pool->mu);
  *gets = pool->gets;
  *misses = pool->misses;
  pthread_mutex_unlock(&pool->mu);
}

size_t sensim__frame_pool_blocks(sensim_frame_pool *pool, size_t *bytes) {
  size_t n = 0, b = 0;
  if (pool) {
    pthread_mutex_lock(&pool->mu);
    n = pool->n;
    for (size_t i = 0; i < n; i++) b += pool->blocks[i].cap;
    pthread_mutex_unlock(&pool->mu);
  }
  if (bytes) *bytes = b;
  return n;
}

sensim_frame_pool *sensim__frame_pool_enter(sensim_frame_pool *pool) {
  sensim_frame_pool *previous = tl_current;
  tl_current = pool;
  return previous;
}

void sensim__frame_pool_leave(sensim_frame_pool *previous) { tl_current = previous; }

sensim_frame_pool *sensim__frame_pool_current(void) { return tl_current; }

void *sensim__frame_buffer(size_t bytes, int zero) { return sensim__frame_pool_get(tl_current, bytes, zero); }

void sensim__frame_buffer_free(void *block) { sensim__frame_pool_put(tl_current, block); }
