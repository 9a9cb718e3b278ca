/* bench/bench_util.c: clocks, medians, the machine's name and tables for
 * the benchmark programs (bench_util.h). */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

double bench_wall_s(void) { return clock_s(CLOCK_MONOTONIC); }

void bench_span_start(bench_span *s) {
  s->w0 = clock_s(CLOCK_MONOTONIC);
  s->c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  s->t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
}

void bench_span_stop(bench_span *s) {
  s->wall = 1e3 * (clock_s(CLOCK_MONOTONIC) - s->w0);
  s->cpu = 1e3 * (clock_s(CLOCK_PROCESS_CPUTIME_ID) - s->c0);
  s->thread = 1e3 * (clock_s(CLOCK_THREAD_CPUTIME_ID) - s->t0);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_record(bench_meas *m, int rep, const bench_span *sp) {
  if (rep == 0) {
    m->warm_ms = sp->wall;
    return;
  }
  m->ms[rep - 1] = sp->wall;
  m->cpu[rep - 1] = sp->thread;
}

void bench_summarise(bench_meas *m, int reps) {
  double tmp[BENCH_MAX_REPS];
  memcpy(tmp, m->ms, (size_t)reps * sizeof *tmp);
  m->med_ms = bench_median(tmp, reps);
  m->min_ms = tmp[0];
  memcpy(tmp, m->cpu, (size_t)reps * sizeof *tmp);
  m->med_cpu = bench_median(tmp, reps);
}

void bench_cpu_model(char *buf, size_t n) {
  snprintf(buf, n, "unknown");
  FILE *fp = fopen("/proc/cpuinfo", "r");
  if (!fp) return;
  char line[256];
  while (fgets(line, sizeof line, fp))
    if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
      snprintf(buf, n, "%s", strchr(line, ':') + 2);
      buf[strcspn(buf, "\n")] = 0;
      break;
    }
  fclose(fp);
}

void bench_flush_denormals(void) {
#if defined(__x86_64__) || defined(__i386__)
  /* MXCSR bits 15 (FTZ) and 6 (DAZ), Intel SDM vol. 1, 10.2.3. */
  _mm_setcsr(_mm_getcsr() | 0x8040);
#endif
}

static int numeric(const char *s) {
  return ((*s >= '0' && *s <= '9') || *s == '-') && (!strchr(s, ' ') || strstr(s, " (x"));
}

void bench_print_table(int markdown, const char *title, const char *const *head, int ncol, const bench_row *rows,
                       int nrows) {
  int w[BENCH_MAX_COLS] = {0};
  if (ncol > BENCH_MAX_COLS) ncol = BENCH_MAX_COLS;
  for (int j = 0; j < ncol; j++) {
    w[j] = (int)strlen(head[j]);
    for (int i = 0; i < nrows; i++)
      if ((int)strlen(rows[i].c[j]) > w[j]) w[j] = (int)strlen(rows[i].c[j]);
  }
  printf("\n%s%s\n\n", markdown ? "#### " : "", title);
  const char *sep = markdown ? " | " : "  ";
  printf("%s", markdown ? "| " : "");
  for (int j = 0; j < ncol; j++) printf("%-*s%s", w[j], head[j], j + 1 < ncol ? sep : "");
  printf("%s\n", markdown ? " |" : "");
  printf("%s", markdown ? "|" : "");
  for (int j = 0; j < ncol; j++) {
    int right = markdown && nrows > 0 && numeric(rows[0].c[j]);
    for (int k = 0; k < w[j] + (markdown ? 2 : 0); k++) putchar(right && k == w[j] + 1 ? ':' : '-');
    printf("%s", markdown ? "|" : (j + 1 < ncol ? "  " : ""));
  }
  printf("\n");
  for (int i = 0; i < nrows; i++) {
    printf("%s", markdown ? "| " : "");
    for (int j = 0; j < ncol; j++)
      printf(numeric(rows[i].c[j]) ? "%*s%s" : "%-*s%s", w[j], rows[i].c[j], j + 1 < ncol ? sep : "");
    printf("%s\n", markdown ? " |" : "");
  }
}
