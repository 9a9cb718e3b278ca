/* core/pool.c: fixed worker pool with a FIFO of intrusive job nodes. */
#include <pthread.h>
#include <stdlib.h>
#include "core/internal.h"
#include "core/pool.h"

struct sensim_pool {
  int nthreads;
  pthread_t *threads;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  sensim_job *head, *tail;
  int stopping;
};

static void *worker(void *arg) {
  sensim_pool *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (!p->head && !p->stopping) pthread_cond_wait(&p->cv, &p->mu);
    sensim_job *j = p->head;
    if (!j) { /* stopping and drained */
      pthread_mutex_unlock(&p->mu);
      return NULL;
    }
    p->head = j->next;
    if (!p->head) p->tail = NULL;
    pthread_mutex_unlock(&p->mu);
    j->next = NULL;
    j->fn(j->arg);
  }
}

sensim_status sensim__pool_create(int threads, sensim_pool **out) {
  if (threads < 0 || threads > 1024)
    return sensim__fail(SENSIM_EINVAL, "thread count %d must be in [0, 1024]", threads);
  sensim_pool *p = calloc(1, sizeof *p);
  if (!p) return sensim__fail(SENSIM_ENOMEM, "out of memory for the job pool");
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  if (threads > 0) {
    p->threads = calloc((size_t)threads, sizeof *p->threads);
    if (!p->threads) {
      sensim__pool_destroy(p);
      return sensim__fail(SENSIM_ENOMEM, "out of memory for %d threads", threads);
    }
    for (int i = 0; i < threads; i++) {
      if (pthread_create(&p->threads[i], NULL, worker, p) != 0) {
        sensim__pool_destroy(p);
        return sensim__fail(SENSIM_EBACKEND, "could not start worker thread %d", i);
      }
      p->nthreads++;
    }
  }
  *out = p;
  return SENSIM_OK;
}

void sensim__pool_destroy(sensim_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stopping = 1;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
  free(p->threads);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

void sensim__pool_submit(sensim_pool *p, sensim_job *job) {
  job->next = NULL;
  if (p->nthreads == 0) {
    job->fn(job->arg);
    return;
  }
  pthread_mutex_lock(&p->mu);
  if (p->tail) p->tail->next = job;
  else p->head = job;
  p->tail = job;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

int sensim__pool_threads(const sensim_pool *p) { return p->nthreads; }

int sensim__pool_take(sensim_pool *p, sensim_job *job) {
  if (p->nthreads == 0) return 0; /* it ran inside submit */
  pthread_mutex_lock(&p->mu);
  sensim_job *prev = NULL, *j = p->head;
  while (j && j != job) {
    prev = j;
    j = j->next;
  }
  if (j) {
    if (prev) prev->next = j->next;
    else p->head = j->next;
    if (p->tail == j) p->tail = prev;
    j->next = NULL;
  }
  pthread_mutex_unlock(&p->mu);
  return j != NULL;
}

/* One fork-join: its jobs count down `left` and signal `done`. */
typedef struct fork_join {
  void (*fn)(void *arg);
  pthread_mutex_t mu;
  pthread_cond_t done;
  size_t left;
} fork_join;

typedef struct fork_job {
  sensim_job job;
  fork_join *fj;
  void *arg;
} fork_job;

static void fork_run(void *arg) {
  fork_job *j = arg;
  fork_join *fj = j->fj;
  fj->fn(j->arg);
  pthread_mutex_lock(&fj->mu);
  if (--fj->left == 0) pthread_cond_broadcast(&fj->done);
  pthread_mutex_unlock(&fj->mu);
}

/* Take the oldest queued job, or NULL. */
static sensim_job *pop(sensim_pool *p) {
  pthread_mutex_lock(&p->mu);
  sensim_job *j = p->head;
  if (j) {
    p->head = j->next;
    if (!p->head) p->tail = NULL;
  }
  pthread_mutex_unlock(&p->mu);
  return j;
}

void sensim__pool_run_all(sensim_pool *p, void (*fn)(void *arg), void **args, size_t n) {
  if (p->nthreads == 0 || n <= 1) {
    for (size_t i = 0; i < n; i++) fn(args[i]);
    return;
  }
  fork_join fj;
  fj.fn = fn;
  fj.left = n;
  pthread_mutex_init(&fj.mu, NULL);
  pthread_cond_init(&fj.done, NULL);
  /* A capture's bands (4 (threads + 1)) fit on the stack: forking every
   * frame then allocates nothing. */
  fork_job local[64];
  fork_job *jobs = n <= 64 ? local : malloc(n * sizeof *jobs);
  if (!jobs) {
    /* Out of memory for the bookkeeping: the work still gets done, inline. */
    for (size_t i = 0; i < n; i++) fn(args[i]);
  } else {
    for (size_t i = 0; i < n; i++) {
      jobs[i].fj = &fj;
      jobs[i].arg = args[i];
      jobs[i].job.fn = fork_run;
      jobs[i].job.arg = &jobs[i];
      sensim__pool_submit(p, &jobs[i].job);
    }
    /* Help until our jobs are all taken, then wait for the ones in flight. */
    for (;;) {
      pthread_mutex_lock(&fj.mu);
      size_t left = fj.left;
      pthread_mutex_unlock(&fj.mu);
      if (left == 0) break;
      sensim_job *j = pop(p);
      if (j) {
        j->next = NULL;
        j->fn(j->arg);
        continue;
      }
      pthread_mutex_lock(&fj.mu);
      while (fj.left > 0) pthread_cond_wait(&fj.done, &fj.mu);
      pthread_mutex_unlock(&fj.mu);
      break;
    }
    if (jobs != local) free(jobs);
  }
  pthread_cond_destroy(&fj.done);
  pthread_mutex_destroy(&fj.mu);
}
