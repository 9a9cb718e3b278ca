/* scene/tile_reader.c: the tile read-ahead thread (scene/tile_reader.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/internal.h"
#include "scene/tile_reader.h"

struct sensim_tile_reader {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cv;           /* a job queued, one done, or stop */
  sensim_tile_job *head, *tail;
  int stop;
};

static void *run(void *arg) {
  sensim_tile_reader *r = arg;
  pthread_mutex_lock(&r->lock);
  for (;;) {
    while (!r->head && !r->stop) pthread_cond_wait(&r->cv, &r->lock);
    if (r->stop) break;
    sensim_tile_job *j = r->head;
    r->head = j->next;
    if (!r->head) r->tail = NULL;
    j->next = NULL;
    j->state = SENSIM__TILE_JOB_RUNNING;
    pthread_mutex_unlock(&r->lock);
    const struct aiScene *sc = NULL;
    sensim_status st = sensim__mesh_import(j->path, &sc);
    pthread_mutex_lock(&r->lock);
    j->scene = sc;
    j->status = st;
    if (st) snprintf(j->error, sizeof j->error, "%s", sensim_last_error());
    j->state = SENSIM__TILE_JOB_DONE;
    pthread_cond_broadcast(&r->cv);
  }
  pthread_mutex_unlock(&r->lock);
  return NULL;
}

sensim_tile_reader *sensim__tile_reader_new(void) {
  sensim_tile_reader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (pthread_mutex_init(&r->lock, NULL)) {
    free(r);
    return NULL;
  }
  if (pthread_cond_init(&r->cv, NULL)) {
    pthread_mutex_destroy(&r->lock);
    free(r);
    return NULL;
  }
  if (pthread_create(&r->thread, NULL, run, r)) {
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return NULL;
  }
  return r;
}

void sensim__tile_reader_submit(sensim_tile_reader *r, sensim_tile_job *j) {
  pthread_mutex_lock(&r->lock);
  j->state = SENSIM__TILE_JOB_QUEUED;
  j->next = NULL;
  if (r->tail) r->tail->next = j;
  else r->head = j;
  r->tail = j;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->lock);
}

/* Take queued job j off the queue (lock held). */
static void unqueue(sensim_tile_reader *r, sensim_tile_job *j) {
  sensim_tile_job **p = &r->head, *prev = NULL;
  while (*p && *p != j) prev = *p, p = &(*p)->next;
  if (!*p) return;
  *p = j->next;
  if (r->tail == j) r->tail = prev;
  j->next = NULL;
  j->state = SENSIM__TILE_JOB_IDLE;
}

int sensim__tile_reader_claim(sensim_tile_reader *r, sensim_tile_job *j) {
  pthread_mutex_lock(&r->lock);
  if (j->state == SENSIM__TILE_JOB_QUEUED) unqueue(r, j);
  while (j->state == SENSIM__TILE_JOB_RUNNING) pthread_cond_wait(&r->cv, &r->lock);
  int done = j->state == SENSIM__TILE_JOB_DONE;
  pthread_mutex_unlock(&r->lock);
  return done;
}

void sensim__tile_reader_drop(sensim_tile_reader *r, sensim_tile_job *j) {
  const struct aiScene *sc = NULL;
  pthread_mutex_lock(&r->lock);
  if (j->state == SENSIM__TILE_JOB_QUEUED) unqueue(r, j);
  if (j->state == SENSIM__TILE_JOB_DONE) {
    sc = j->scene;
    j->scene = NULL;
    j->status = SENSIM_OK;
    j->state = SENSIM__TILE_JOB_IDLE;
  }
  pthread_mutex_unlock(&r->lock);
  sensim__mesh_import_free(sc);
}

void sensim__tile_reader_free(sensim_tile_reader *r) {
  if (!r) return;
  pthread_mutex_lock(&r->lock);
  r->stop = 1;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->lock);
  pthread_join(r->thread, NULL);
  while (r->head) {
    sensim_tile_job *j = r->head;
    r->head = j->next;
    j->next = NULL;
    j->state = SENSIM__TILE_JOB_IDLE;
  }
  pthread_cond_destroy(&r->cv);
  pthread_mutex_destroy(&r->lock);
  free(r);
}
