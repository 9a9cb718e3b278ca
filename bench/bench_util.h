/* bench/bench_util.h: what the benchmark programs share: clocks, medians
 * of repeated runs, the machine's name and plain-text or Markdown tables.
 * Not part of the library. */
#ifndef SENSIM_BENCH_UTIL_H
#define SENSIM_BENCH_UTIL_H

#include <stddef.h>

#define BENCH_MAX_REPS 64
#define BENCH_MAX_COLS 13
#define BENCH_CELL 96

/* Monotonic wall clock, s. */
double bench_wall_s(void);

/* Wall, process-CPU and thread-CPU milliseconds of one stretch of work; the
 * difference between process and thread CPU is work (or spinning) on other
 * threads (Embree's, TBB's, OpenBLAS's). */
typedef struct bench_span {
  double w0, c0, t0;
  double wall, cpu, thread; /* ms */
} bench_span;
void bench_span_start(bench_span *s);
void bench_span_stop(bench_span *s);

/* Median of v[0..n) (n >= 1); sorts v. */
double bench_median(double *v, int n);

/* Repeated timings of one run: repetition 0 is the warm-up, 1..reps are
 * summarised. */
typedef struct bench_meas {
  char name[48];
  size_t rays;                  /* rays cast per run (primary + shadow), if any */
  double ms[BENCH_MAX_REPS];    /* wall */
  double cpu[BENCH_MAX_REPS];   /* CPU time of this thread: without time stolen by other work */
  double warm_ms, med_ms, min_ms, med_cpu;
} bench_meas;
void bench_record(bench_meas *m, int rep, const bench_span *sp);
void bench_summarise(bench_meas *m, int reps);

/* The CPU's model name from /proc/cpuinfo, "unknown" if none. */
void bench_cpu_model(char *buf, size_t n);

/* Flush-to-zero and denormals-are-zero on the calling thread (x86), as
 * Embree's documentation asks of every thread that traces. */
void bench_flush_denormals(void);

/* One table row: up to BENCH_MAX_COLS cells of text. Numbers (and
 * "1.23 (x16)") are right-aligned, text left. */
typedef struct bench_row {
  char c[BENCH_MAX_COLS][BENCH_CELL];
} bench_row;
void bench_print_table(int markdown, const char *title, const char *const *head, int ncol, const bench_row *rows,
                       int nrows);

/* Run a sensim call; on failure print "<prog>: <call> failed: <status>:
 * <message>" and return `fail` from the calling function. */
#define BENCH_CHECK(prog, fail, call)                                                                       \
  do {                                                                                                      \
    sensim_status st_ = (call);                                                                             \
    if (st_ != SENSIM_OK) {                                                                                 \
      fprintf(stderr, "%s: %s failed: %s: %s\n", prog, #call, sensim_status_str(st_), sensim_last_error()); \
      return fail;                                                                                          \
    }                                                                                                       \
  } while (0)

#endif
