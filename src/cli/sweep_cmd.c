/* cli/sweep_cmd.c: `sensim sweep SWEEP.json --out DIR`: many runs of a
 * scenario or experiment (sensim_tools/sweep.h, docs/sweep.md), alone or
 * under an MPI launcher; the command line, what both drivers share
 * (sweep_job.h) and the serial driver. Exit codes as main.c: 0 every run
 * ok, 1 a run failed or something could not be written, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "cli/sweep_job.h"

enum { EXIT_FAILED = 1 };

static const char usage_text[] =
    "usage: sensim sweep SWEEP.json --out DIR [--threads N] [--list]\n"
    "       mpirun -n RANKS sensim sweep SWEEP.json --out DIR [--threads N]\n"
    "  run every run of a sweep (a scenario or an experiment, with axes of\n"
    "  seeds, JSON-pointer values and model variants) into DIR/run_NNNN/,\n"
    "  each with a manifest.json, then reduce them into DIR/summary.csv (and\n"
    "  a vepd sweep's vepd_table.csv and histograms). Runs already complete\n"
    "  in DIR are skipped; failed and stale ones are redone. A failed run is\n"
    "  recorded and the sweep goes on. Under an MPI launcher, rank 0 hands\n"
    "  the runs out one at a time and every rank runs them; the files are\n"
    "  the same bytes for any number of ranks, apart from DIR/timing.csv\n"
    "  (who ran what, when, for how long). DIR must be seen by every rank.\n"
    "options:\n"
    "  --out DIR       output folder (created if missing; an empty folder or\n"
    "                  this sweep's own)\n"
    "  --threads N     worker threads of each run, 0..1024 (default: the\n"
    "                  file's \"threads\"; the output does not depend on it)\n"
    "  --list          print the runs and their parameters; run nothing\n"
    "example:\n"
    "  sensim sweep examples/sweep.json --out out/sweep\n"
    "  mpirun -n 4 sensim sweep examples/sweep.json --out out/sweep\n"
    "exit status: 0 every run ok, 1 a run failed or a write failed, 2 bad usage\n";

static int usage(const char *what, const char *arg) { return sensim__cli_usage("sweep", what, arg); }

/* ---- what both drivers share ------------------------------------------------ */

double sensim__sweep_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sensim__sweep_load(sweep_job *job, const sweep_options *opt, int report) {
  memset(job, 0, sizeof *job);
  job->opt = opt;
  sensim_status st = sensim_sweep_load(opt->file, &job->sweep);
  if (st == SENSIM_OK && opt->threads >= 0) st = sensim_sweep_set_threads(job->sweep, opt->threads);
  if (st != SENSIM_OK) {
    if (report) fprintf(stderr, "sensim sweep: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    sensim_sweep_destroy(job->sweep);
    job->sweep = NULL;
    return EXIT_FAILED;
  }
  job->nruns = sensim_sweep_run_count(job->sweep);
  job->records = calloc(job->nruns, sizeof *job->records);
  job->timing = calloc(job->nruns, sizeof *job->timing);
  if (!job->records || !job->timing) {
    if (report) fprintf(stderr, "sensim sweep: out of memory for %zu runs\n", job->nruns);
    sensim__sweep_free(job);
    return EXIT_FAILED;
  }
  return 0;
}

void sensim__sweep_list(const sweep_job *job) {
  printf("sweep %s (%s): %zu runs\n", sensim_sweep_name(job->sweep),
         sensim_sweep_kind_name(sensim_sweep_kind_of(job->sweep)), job->nruns);
  for (size_t i = 0; i < job->nruns; i++) {
    char dir[32];
    sensim_sweep_run_dir(i, dir, sizeof dir);
    printf("%s  %s\n", dir, sensim_sweep_run_label(job->sweep, i));
  }
}

int sensim__sweep_begin(sweep_job *job) {
  sensim_status st = sensim_sweep_prepare(job->sweep, job->opt->out);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim sweep: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    return EXIT_FAILED;
  }
  size_t skipped = 0;
  for (size_t i = 0; i < job->nruns; i++) {
    if (sensim_sweep_run_complete(job->sweep, job->opt->out, i, &job->records[i])) {
      job->timing[i].outcome = SWEEP_SKIPPED;
      skipped++;
    }
  }
  job->todo = job->nruns - skipped;
  printf("sweep %s: %zu runs, %zu complete from before, %zu to run\n", sensim_sweep_name(job->sweep), job->nruns,
         skipped, job->todo);
  fflush(stdout);
  return 0;
}

char *sensim__sweep_execute(const sweep_job *job, size_t i, int rank, double t0, sweep_timing *timing) {
  char *record = NULL;
  double t = sensim__sweep_now();
  sensim_status st = sensim_sweep_execute(job->sweep, i, job->opt->out, &record);
  timing->rank = rank;
  timing->start = t - t0;
  timing->seconds = sensim__sweep_now() - t;
  timing->outcome = st == SENSIM_OK ? SWEEP_RAN : SWEEP_LOST;
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim sweep: run %zu (rank %d): nothing recorded: %s (%s)\n", i, rank, sensim_last_error(),
            sensim_status_str(st));
    free(record);
    record = NULL;
  }
  return record;
}

/* A record's status and error, for the progress line. */
static void record_status(const char *record, char *status, size_t ns, char *error, size_t ne) {
  snprintf(status, ns, "%s", record ? "unreadable" : "lost");
  error[0] = '\0';
  cJSON *m = record ? cJSON_Parse(record) : NULL;
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(m, "status");
  const cJSON *er = cJSON_GetObjectItemCaseSensitive(m, "error");
  if (cJSON_IsString(st)) snprintf(status, ns, "%s", st->valuestring);
  if (cJSON_IsString(er)) snprintf(error, ne, ": %s", er->valuestring);
  cJSON_Delete(m);
}

void sensim__sweep_store(sweep_job *job, size_t i, char *record, const sweep_timing *timing) {
  job->records[i] = record;
  job->timing[i] = *timing;
  job->done++;
  char dir[32], status[16], error[512];
  sensim_sweep_run_dir(i, dir, sizeof dir);
  record_status(record, status, sizeof status, error, sizeof error);
  printf("[%zu/%zu] %s %-6s %8.2f s  rank %-3d %s%s\n", job->done, job->todo, dir, status, timing->seconds,
         timing->rank, sensim_sweep_run_label(job->sweep, i), error);
  fflush(stdout);
}

/* DIR/timing.csv: where and how long each run took in this invocation. */
static sensim_status write_timing(const sweep_job *job, int nranks, const char *const *hosts, double seconds) {
  static const char *const outcome[] = {"pending", "skipped", "ran", "lost"};
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/timing.csv", job->opt->out) >= sizeof path)
    return sensim_error_set(SENSIM_EINVAL, "output folder path too long");
  sensim_atomic_file *af = NULL;
  sensim_status st = sensim_atomic_file_open(path, &af);
  if (st != SENSIM_OK) return st;
  FILE *fp = sensim_atomic_file_stream(af);
  fprintf(fp, "# ranks %d, wall time %.3f s\nrun,outcome,rank,host,start_s,seconds\n", nranks, seconds);
  for (size_t i = 0; i < job->nruns; i++) {
    const sweep_timing *t = &job->timing[i];
    char dir[32];
    sensim_sweep_run_dir(i, dir, sizeof dir);
    if (t->outcome == SWEEP_RAN || t->outcome == SWEEP_LOST)
      fprintf(fp, "%s,%s,%d,%s,%.6f,%.6f\n", dir, outcome[t->outcome], t->rank,
              hosts && t->rank >= 0 && t->rank < nranks ? hosts[t->rank] : "", t->start, t->seconds);
    else
      fprintf(fp, "%s,%s,,,,\n", dir, outcome[t->outcome]);
  }
  return sensim_atomic_file_commit(af);
}

int sensim__sweep_finish(sweep_job *job, int nranks, const char *const *hosts, double seconds) {
  sensim_sweep_totals tot;
  int code = 0;
  sensim_status st = sensim_sweep_reduce(job->sweep, job->opt->out, job->records, &tot);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim sweep: reduce: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    code = EXIT_FAILED;
  }
  st = write_timing(job, nranks, hosts, seconds);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim sweep: timing.csv: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    code = EXIT_FAILED;
  }
  if (code == 0) {
    printf("sweep %s: %zu runs: %zu ok, %zu failed, %zu missing; %zu run now, %zu skipped; %.2f s on %d rank%s\n",
           sensim_sweep_name(job->sweep), tot.runs, tot.ok, tot.failed, tot.missing, job->todo,
           job->nruns - job->todo, seconds, nranks, nranks == 1 ? "" : "s");
    printf("wrote %s/summary.csv\n", job->opt->out);
    if (tot.ok != tot.runs) code = EXIT_FAILED;
  }
  return code;
}

void sensim__sweep_free(sweep_job *job) {
  for (size_t i = 0; job->records && i < job->nruns; i++) free(job->records[i]);
  free(job->records);
  free(job->timing);
  sensim_sweep_destroy(job->sweep);
  memset(job, 0, sizeof *job);
}

int sensim__sweep_launched_by_mpi(void) {
  /* Open MPI's mpirun, PMIx (Slurm's srun --mpi=pmix, Open MPI 5) and
   * PMI-1/2 launchers (MPICH's Hydra, srun --mpi=pmi2). */
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
  for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
    if (getenv(vars[k])) return 1;
  return 0;
}

/* ---- the serial driver ----------------------------------------------------------- */

static int run_serial(const sweep_options *opt) {
  sweep_job job;
  int code = sensim__sweep_load(&job, opt, 1);
  if (code) return code;
  if (opt->list) {
    sensim__sweep_list(&job);
    sensim__sweep_free(&job);
    return 0;
  }
  double t0 = sensim__sweep_now();
  code = sensim__sweep_begin(&job);
  for (size_t i = 0; code == 0 && i < job.nruns; i++) {
    if (job.timing[i].outcome == SWEEP_SKIPPED) continue;
    sweep_timing t;
    char *record = sensim__sweep_execute(&job, i, 0, t0, &t);
    sensim__sweep_store(&job, i, record, &t);
  }
  char host[64] = "";
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  const char *hosts[1] = {host};
  if (code == 0) code = sensim__sweep_finish(&job, 1, hosts, sensim__sweep_now() - t0);
  sensim__sweep_free(&job);
  return code;
}

#ifndef SENSIM_HAVE_MPI
/* Built without Open MPI: one rank is the serial driver; more would each
 * run the whole sweep into the same folder, so they are refused. */
int sensim__sweep_mpi(const sweep_options *opt) {
  const char *size = getenv("OMPI_COMM_WORLD_SIZE");
  if (!size) size = getenv("PMI_SIZE");
  if (size && strcmp(size, "1") == 0) return run_serial(opt);
  fprintf(stderr, "sensim sweep: started by an MPI launcher (%s ranks), but this sensim was built without MPI "
                  "(Open MPI's libopenmpi-dev was not found when it was configured): every rank would run the "
                  "whole sweep into one folder. Run it alone, or rebuild with libopenmpi-dev installed.\n",
          size ? size : "several");
  return EXIT_FAILED;
}
#endif

/* ---- the command line -------------------------------------------------------------- */

int sensim__cli_sweep(int argc, char **argv) {
  sweep_options opt = {NULL, NULL, -1, 0};
  /* A judge sweep's runs start `python3 -m sensim.judge job`. */
  if (sensim__cli_judge_env()) {
    fprintf(stderr, "sensim sweep: out of memory\n");
    return 1;
  }
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (sensim__cli_is_help(a)) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--out") == 0 || strcmp(a, "--threads") == 0) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      const char *v = argv[++i];
      long n;
      if (strcmp(a, "--out") == 0) {
        if (!*v) return usage("--out needs a non-empty folder", NULL);
        opt.out = v;
      } else if (sensim__cli_parse_long(v, 0, 1024, &n)) {
        return usage("--threads: expected an integer in 0..1024, got", v);
      } else {
        opt.threads = (int)n;
      }
    } else if (strcmp(a, "--list") == 0) {
      opt.list = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      static const char *const known[] = {"--out", "--threads", "--list", "--help", NULL};
      return sensim__cli_unknown_option("sweep", a, known);
    } else if (!opt.file) {
      opt.file = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (!opt.file) return usage("needs a sweep file", NULL);
  if (!opt.out && !opt.list) return usage("--out DIR is required", NULL);
  if (sensim__sweep_launched_by_mpi() && !opt.list) return sensim__sweep_mpi(&opt);
  return run_serial(&opt);
}
