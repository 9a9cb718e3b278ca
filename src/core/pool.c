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
