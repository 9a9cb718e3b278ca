/* scene/tile_reader.h: one thread that reads tile files ahead of need
 * (sensim__mesh_import: Assimp and the file checks, no world), so the
 * advance that first needs a tile finds it read. Jobs are taken in the
 * order submitted; a job not yet started when it is needed is taken back
 * and read by the caller, so nothing waits on a queue. Not installed. */
#ifndef SENSIM_SCENE_TILE_READER_H
#define SENSIM_SCENE_TILE_READER_H

#include "scene/scene.h"

enum { SENSIM__TILE_JOB_IDLE = 0, SENSIM__TILE_JOB_QUEUED, SENSIM__TILE_JOB_RUNNING, SENSIM__TILE_JOB_DONE };

typedef struct sensim_tile_job {
  const char *path;            /* borrowed from the tile */
  const struct aiScene *scene; /* once DONE without error: the file read (the claimer takes it) */
  sensim_status status;        /* once DONE */
  char error[320];             /* once DONE with an error: its message */
  int state;                   /* SENSIM__TILE_JOB_*, guarded by the reader's lock */
  struct sensim_tile_job *next; /* in the queue */
} sensim_tile_job;

typedef struct sensim_tile_reader sensim_tile_reader;

/* A reader and its thread, or NULL (out of memory, no thread): the caller
 * then reads every file itself. */
sensim_tile_reader *sensim__tile_reader_new(void);
/* Queue an IDLE job. */
void sensim__tile_reader_submit(sensim_tile_reader *r, sensim_tile_job *j);
/* The job's outcome once needed: 1 when it was read (DONE: scene or
 * status), after waiting for it if it was running; 0 when it had not
 * started (taken off the queue, IDLE again: read it yourself). */
int sensim__tile_reader_claim(sensim_tile_reader *r, sensim_tile_job *j);
/* Forget j unless it is running (a tile that left the read-ahead boxes
 * before it was needed): a queued job leaves the queue, a done one frees
 * its scene; both go IDLE, to be read again if it comes back. */
void sensim__tile_reader_drop(sensim_tile_reader *r, sensim_tile_job *j);
/* Stop the thread (after its current job) and free the reader. Jobs left
 * DONE keep their scene for their owner to free; queued ones go IDLE. */
void sensim__tile_reader_free(sensim_tile_reader *r);

#endif
