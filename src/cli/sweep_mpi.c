/* cli/sweep_mpi.c: `sensim sweep` under an MPI launcher (built when Open
 * MPI is found). Dynamic hand-out: rank 0 runs a dispatcher thread that
 * answers each rank's request with the next run still to do, while its
 * main thread runs runs too; a request carries the record (manifest text)
 * and timing of the run the rank just finished, so the records reach
 * rank 0 as the runs end, and rank 0 reduces them in run order. The tables
 * therefore depend on the records alone, never on who ran what or in which
 * order they arrived.
 *
 * Waiting never spins: Open MPI's blocking calls poll at full speed, which
 * on a machine with more ranks than cores (or rank 0's two threads) would
 * take the cores the runs need. Every wait here is a nonblocking call
 * tested between short sleeps. Only the dispatcher thread calls MPI while
 * it lives (MPI_THREAD_SERIALIZED). */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/sweep_job.h"

enum { TAG_REQUEST = 1, TAG_WORK = 2 };
enum { HOST_LEN = 64 };

/* What a rank sends with a request: the run it just finished (-1 on its
 * first request) and how; the record's text (no terminating NUL) follows. */
typedef struct request_head {
  int64_t run;
  int32_t outcome; /* SWEEP_RAN or SWEEP_LOST */
  int32_t unused;
  double start, seconds;
} request_head;

typedef struct dispatch {
  sweep_job *job;
  pthread_mutex_t mu; /* next and the job's records, timing and counters */
  size_t next;        /* runs below next have been handed out or skipped */
  int workers;        /* ranks other than 0 */
} dispatch;

/* Sleep between tests of a pending MPI request: short against a run
 * (tenths of a second and up), long against the scheduler's tick. */
static void nap(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

static void wait_quietly(MPI_Request *rq, long ns) {
  int flag = 0;
  while (MPI_Test(rq, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag) nap(ns);
}

/* The next run to do, in index order; -1 when none is left. */
static int64_t take(dispatch *d) {
  pthread_mutex_lock(&d->mu);
  sweep_job *job = d->job;
  while (d->next < job->nruns && job->timing[d->next].outcome != SWEEP_PENDING) d->next++;
  int64_t i = d->next < job->nruns ? (int64_t)d->next++ : -1;
  pthread_mutex_unlock(&d->mu);
  return i;
}

static void store(dispatch *d, size_t i, char *record, const sweep_timing *t) {
  pthread_mutex_lock(&d->mu);
  sensim__sweep_store(d->job, i, record, t);
  pthread_mutex_unlock(&d->mu);
}

/* Rank 0's dispatcher thread: answer requests until every other rank has
 * been told there is nothing left. */
static void *dispatcher(void *arg) {
  dispatch *d = arg;
  int active = d->workers;
  char *buf = NULL;
  size_t cap = 0;
  while (active > 0) {
    int flag = 0, n = 0;
    MPI_Status s;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &flag, &s);
    if (!flag) {
      nap(200000);
      continue;
    }
    MPI_Get_count(&s, MPI_BYTE, &n);
    if ((size_t)n + 1 > cap) {
      char *nb = realloc(buf, (size_t)n + 1);
      if (!nb) {
        fprintf(stderr, "sensim sweep: rank 0: out of memory for a %d-byte record\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      buf = nb;
      cap = (size_t)n + 1;
    }
    MPI_Recv(buf, n, MPI_BYTE, s.MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    request_head h;
    if ((size_t)n < sizeof h) {
      fprintf(stderr, "sensim sweep: rank 0: short request (%d bytes) from rank %d\n", n, s.MPI_SOURCE);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memcpy(&h, buf, sizeof h);
    if (h.run >= 0 && (size_t)h.run < d->job->nruns) {
      size_t len = (size_t)n - sizeof h;
      char *record = NULL;
      if (h.outcome == SWEEP_RAN && (record = malloc(len + 1)) != NULL) {
        memcpy(record, buf + sizeof h, len);
        record[len] = '\0';
      }
      sweep_timing t = {record ? SWEEP_RAN : SWEEP_LOST, s.MPI_SOURCE, h.start, h.seconds};
      store(d, (size_t)h.run, record, &t);
    }
    int64_t next = take(d);
    MPI_Send(&next, 1, MPI_INT64_T, s.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
    if (next < 0) active--;
  }
  free(buf);
  return NULL;
}

/* A rank other than 0: ask, run, report with the next request. */
static void work(sweep_job *job, int rank, double t0) {
  request_head h = {-1, 0, 0, 0.0, 0.0};
  char *record = NULL;
  for (;;) {
    size_t len = record ? strlen(record) : 0;
    char *msg = malloc(sizeof h + len);
    if (!msg) {
      fprintf(stderr, "sensim sweep: rank %d: out of memory\n", rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memcpy(msg, &h, sizeof h);
    if (len) memcpy(msg + sizeof h, record, len);
    MPI_Request rq;
    MPI_Isend(msg, (int)(sizeof h + len), MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD, &rq);
    wait_quietly(&rq, 100000);
    free(msg);
    free(record);
    record = NULL;
    int64_t next = -1;
    MPI_Irecv(&next, 1, MPI_INT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &rq);
    wait_quietly(&rq, 100000);
    if (next < 0) break;
    sweep_timing t;
    record = sensim__sweep_execute(job, (size_t)next, rank, t0, &t);
    h.run = next;
    h.outcome = (int32_t)t.outcome;
    h.start = t.start;
    h.seconds = t.seconds;
  }
}

/* Rank 0's share: its own runs on the main thread beside the dispatcher. */
static int lead(sweep_job *job, int size, const char *const *hosts, double t0) {
  dispatch d = {job, PTHREAD_MUTEX_INITIALIZER, 0, size - 1};
  pthread_t th;
  int threaded = size > 1 && pthread_create(&th, NULL, dispatcher, &d) == 0;
  if (size > 1 && !threaded) {
    fprintf(stderr, "sensim sweep: rank 0: cannot start the dispatcher thread\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int64_t i; (i = take(&d)) >= 0;) {
    sweep_timing t;
    char *record = sensim__sweep_execute(job, (size_t)i, 0, t0, &t);
    store(&d, (size_t)i, record, &t);
  }
  if (threaded) pthread_join(th, NULL);
  return sensim__sweep_finish(job, size, hosts, sensim__sweep_now() - t0);
}

int sensim__sweep_mpi(const sweep_options *opt) {
  int provided = 0, rank = 0, size = 1;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "sensim sweep: MPI_Init_thread failed\n");
    return 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Every rank loads the sweep itself (the file must be where each rank
   * looks), and they must agree on it before anything runs. */
  sweep_job job;
  int code = sensim__sweep_load(&job, opt, rank == 0);
  long long mine[2] = {code ? 1 : 0, code ? -1 : (long long)job.nruns}, all[2] = {0, 0};
  long long neg[2] = {-mine[0], -mine[1]}, low[2];
  MPI_Request rq[2];
  MPI_Iallreduce(mine, all, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD, &rq[0]);
  wait_quietly(&rq[0], 1000000);
  MPI_Iallreduce(neg, low, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD, &rq[1]);
  wait_quietly(&rq[1], 1000000);
  int loaded = all[0] == 0 && all[1] == -low[1];
  int threads_ok = size == 1 || provided >= MPI_THREAD_SERIALIZED;
  if (!loaded || !threads_ok) {
    if (rank == 0 && code == 0 && !loaded)
      fprintf(stderr, "sensim sweep: %s: not every rank could load the sweep or they disagree on its runs "
                      "(%lld..%lld); every rank must see the same file (a shared filesystem)\n",
              opt->file, -low[1], all[1]);
    else if (rank == 0 && !threads_ok)
      fprintf(stderr, "sensim sweep: this MPI library gives no MPI_THREAD_SERIALIZED, which rank 0's "
                      "dispatcher thread needs\n");
    if (code == 0) sensim__sweep_free(&job);
    MPI_Finalize();
    return 1;
  }

  /* Rank 0 names the ranks' hosts in timing.csv. */
  char host[HOST_LEN] = "";
  if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "?");
  host[HOST_LEN - 1] = '\0';
  char *names = rank == 0 ? calloc((size_t)size, HOST_LEN) : NULL;
  const char **hosts = rank == 0 ? calloc((size_t)size, sizeof *hosts) : NULL;
  if (rank == 0 && (!names || !hosts)) {
    fprintf(stderr, "sensim sweep: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Igather(host, HOST_LEN, MPI_CHAR, names, HOST_LEN, MPI_CHAR, 0, MPI_COMM_WORLD, &rq[0]);
  wait_quietly(&rq[0], 1000000);
  for (int r = 0; rank == 0 && r < size; r++) hosts[r] = names + (size_t)r * HOST_LEN;

  /* Rank 0 takes the folder and finds complete runs; the others wait. */
  if (rank == 0) code = sensim__sweep_begin(&job);
  MPI_Ibcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq[0]);
  wait_quietly(&rq[0], 1000000);
  if (code == 0) {
    double t0 = sensim__sweep_now();
    if (rank == 0)
      code = lead(&job, size, hosts, t0);
    else
      work(&job, rank, t0);
  }
  /* Rank 0 has reduced by now; the others wait for it without spinning. */
  MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]);
  wait_quietly(&rq[0], 1000000);
  sensim__sweep_free(&job);
  free(names);
  free(hosts);
  MPI_Finalize();
  return rank == 0 ? code : 0;
}
