/* cli/sweep_job.h: what `sensim sweep`'s two drivers share: the serial
 * loop (sweep_cmd.c) and the MPI dispatcher (sweep_mpi.c). Both load the
 * same sweep, skip the same complete runs, execute the rest with
 * sensim_sweep_execute and reduce the same records in run order, so their
 * files are the same bytes; only who ran what, and when, differs, and that
 * goes to timing.csv alone. */
#ifndef SENSIM_CLI_SWEEP_JOB_H
#define SENSIM_CLI_SWEEP_JOB_H

#include <stddef.h>
#include "cli/cli.h"

/* What became of one run in this invocation. */
typedef enum sweep_outcome {
  SWEEP_PENDING = 0, /* not yet handed out */
  SWEEP_SKIPPED,     /* complete from an earlier invocation */
  SWEEP_RAN,         /* executed: its record says ok or failed */
  SWEEP_LOST         /* executed, but nothing could be recorded (SENSIM_EIO) */
} sweep_outcome;

typedef struct sweep_timing {
  sweep_outcome outcome;
  int rank;       /* who executed it (0 alone) */
  double start;   /* s since the sweep began on that rank */
  double seconds; /* wall time of sensim_sweep_execute */
} sweep_timing;

/* The command line's choices. */
typedef struct sweep_options {
  const char *file;  /* SWEEP.json */
  const char *out;   /* --out DIR */
  int threads;       /* --threads N per run; -1: the file's */
  int list;          /* --list: print the runs, run nothing */
} sweep_options;

typedef struct sweep_job {
  const sweep_options *opt;
  sensim_sweep *sweep;
  size_t nruns;
  char **records;       /* run i's manifest text (malloc'd), NULL when none */
  sweep_timing *timing; /* per run */
  size_t done;          /* runs finished in this invocation (progress) */
  size_t todo;          /* runs to execute in this invocation */
} sweep_job;

/* Seconds on a monotonic clock. */
double sensim__sweep_now(void);

/* Load opt->file and apply --threads into job (zeroed first); 0, or 1
 * with the message on stderr when `report` (else silently). */
int sensim__sweep_load(sweep_job *job, const sweep_options *opt, int report);
/* Print the runs (--list) to stdout. */
void sensim__sweep_list(const sweep_job *job);
/* Take the output folder and find complete runs (their records kept,
 * outcome SKIPPED); 0, or 1 with the message on stderr. */
int sensim__sweep_begin(sweep_job *job);
/* Execute run i (on `rank`, `t0` being when the sweep began there) and
 * return its record (malloc'd, or NULL when nothing could be recorded,
 * the reason on stderr); *timing gets where and how long. */
char *sensim__sweep_execute(const sweep_job *job, size_t i, int rank, double t0, sweep_timing *timing);
/* Keep run i's record and timing, and print its progress line. */
void sensim__sweep_store(sweep_job *job, size_t i, char *record, const sweep_timing *timing);
/* Reduce every record into the tables, write DIR/timing.csv (hosts[r]
 * names rank r) and print the totals; returns the exit code:
 * 0 when every run is ok, 1 otherwise (a failed or lost run, a failed
 * write). */
int sensim__sweep_finish(sweep_job *job, int nranks, const char *const *hosts, double seconds);
/* Free what the job holds. */
void sensim__sweep_free(sweep_job *job);

/* Whether an MPI launcher started this process (mpirun, mpiexec, srun):
 * the environment its ranks inherit says so. */
int sensim__sweep_launched_by_mpi(void);
/* The MPI driver (sweep_mpi.c, built when Open MPI is found): rank 0
 * hands out runs one at a time, runs runs itself and reduces; returns the
 * process's exit code. */
int sensim__sweep_mpi(const sweep_options *opt);

#endif
