/* tools/vepd_csv.c: run files for VEPD, read through the numeric CSV
 * tables of tools/table.c.
 *
 * A run file (docs/vepd.md) is RFC 4180 text without quoting (every field
 * is a number): a header naming the columns, then one record per sample.
 *   dim 1:  t,v_est,v_true
 *   dim 2:  t,v_est_e,v_est_n,v_true_e,v_true_n
 *   dim 3:  t,v_est_e,v_est_n,v_est_u,v_true_e,v_true_n,v_true_u
 * (s, m/s). Columns may come in any order and other columns are ignored,
 * so the files `sensim ekf` writes (which add the EKF's state) read as runs. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"
#include "tools/vepd_internal.h"

void sensim_vepd_run_free(sensim_vepd_run *run) {
  if (!run) return;
  free(run->t);
  free(run->v_est);
  free(run->v_true);
  run->t = run->v_est = run->v_true = NULL;
  run->n = 0;
}

void sensim_vepd_runs_free(sensim_vepd_run *runs, size_t nruns) {
  for (size_t i = 0; runs && i < nruns; i++) sensim_vepd_run_free(&runs[i]);
  free(runs);
}

static const char *const est_names[3][3] = {
    {"v_est", NULL, NULL}, {"v_est_e", "v_est_n", NULL}, {"v_est_e", "v_est_n", "v_est_u"}};
static const char *const true_names[3][3] = {
    {"v_true", NULL, NULL}, {"v_true_e", "v_true_n", NULL}, {"v_true_e", "v_true_n", "v_true_u"}};

sensim_status sensim_vepd_run_read(const char *path, sensim_vepd_run *out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "vepd run read: NULL out");
  sensim_table t;
  sensim_status st = sensim_table_read(path, 0, &t);
  if (st != SENSIM_OK) return st;
  int ct = sensim_table_col(&t, "t");
  size_t dim = sensim_table_col(&t, "v_est") >= 0 ? 1
               : sensim_table_col(&t, "v_est_u") >= 0 ? 3
                                                        : 2;
  int ce[3] = {-1, -1, -1}, cv[3] = {-1, -1, -1};
  int ok = ct >= 0;
  for (size_t d = 0; d < dim; d++) {
    ce[d] = sensim_table_col(&t, est_names[dim - 1][d]);
    cv[d] = sensim_table_col(&t, true_names[dim - 1][d]);
    ok = ok && ce[d] >= 0 && cv[d] >= 0;
  }
  if (!ok) {
    sensim_table_free(&t);
    return sensim_error_set(SENSIM_EPARSE,
                        "%s: a run needs columns t and v_est, v_true (or v_est_e, v_est_n, "
                        "v_true_e, v_true_n[, v_est_u, v_true_u])",
                        path);
  }
  sensim_vepd_run r = {t.nrows, dim, NULL, NULL, NULL};
  size_t n = t.nrows ? t.nrows : 1;
  r.t = malloc(n * sizeof *r.t);
  r.v_est = malloc(n * dim * sizeof *r.v_est);
  r.v_true = malloc(n * dim * sizeof *r.v_true);
  if (!r.t || !r.v_est || !r.v_true) {
    st = sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", path);
  } else {
    for (size_t i = 0; i < t.nrows; i++) {
      const double *row = t.v + i * t.ncols;
      r.t[i] = row[ct];
      for (size_t d = 0; d < dim; d++) {
        r.v_est[i * dim + d] = row[ce[d]];
        r.v_true[i * dim + d] = row[cv[d]];
      }
    }
    st = sensim_tools__vepd_run_check(&r, path);
  }
  sensim_table_free(&t);
  if (st != SENSIM_OK) {
    sensim_vepd_run_free(&r);
    return st;
  }
  *out = r;
  return SENSIM_OK;
}

/* Shortest of %.15g .. %.17g that reads back exactly (as io/csv.c). */
static void put_double(FILE *fp, double v, char sep) {
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (prec == 17 || strtod(buf, NULL) == v) break;
  }
  fputs(buf, fp);
  fputc(sep, fp);
}

sensim_status sensim_vepd_run_write(const char *path, const sensim_vepd_run *run) {
  sensim_status st = sensim_tools__vepd_run_check(run, "vepd run write");
  if (st != SENSIM_OK) return st;
  sensim_atomic_file *af = NULL;
  st = sensim_atomic_file_open(path, &af);
  if (st != SENSIM_OK) return st;
  FILE *fp = sensim_atomic_file_stream(af);
  size_t dim = run->dim;
  fputc('t', fp);
  for (size_t d = 0; d < dim; d++) fprintf(fp, ",%s", est_names[dim - 1][d]);
  for (size_t d = 0; d < dim; d++) fprintf(fp, ",%s", true_names[dim - 1][d]);
  fputc('\n', fp);
  for (size_t i = 0; i < run->n; i++) {
    put_double(fp, run->t[i], ',');
    for (size_t d = 0; d < dim; d++) put_double(fp, run->v_est[i * dim + d], ',');
    for (size_t d = 0; d < dim; d++)
      put_double(fp, run->v_true[i * dim + d], d + 1 < dim ? ',' : '\n');
  }
  return sensim_atomic_file_commit(af);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

sensim_status sensim_vepd_runs_read_dir(const char *dir, sensim_vepd_run **runs, size_t *nruns) {
  if (!dir || !runs || !nruns) return sensim_error_set(SENSIM_EINVAL, "vepd read dir: NULL argument");
  DIR *d = opendir(dir);
  if (!d) {
    int e = errno;
    return sensim_error_set(e == ENOENT ? SENSIM_ENOTFOUND : SENSIM_EIO, "cannot open folder '%s': %s",
                        dir, strerror(e));
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  sensim_status st = SENSIM_OK;
  struct dirent *de;
  while (st == SENSIM_OK && (de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name);
    if (len < 5 || strcmp(de->d_name + len - 4, ".csv") != 0 || de->d_name[0] == '.') continue;
    st = sensim_tools__grow((void **)&names, &cap, n + 1, sizeof *names);
    if (st != SENSIM_OK) break;
    names[n] = malloc(strlen(dir) + len + 2);
    if (!names[n]) {
      st = sensim_error_set(SENSIM_ENOMEM, "vepd read dir: out of memory");
      break;
    }
    sprintf(names[n++], "%s/%s", dir, de->d_name);
  }
  closedir(d);
  sensim_vepd_run *r = NULL;
  if (st == SENSIM_OK && n == 0)
    st = sensim_error_set(SENSIM_EINVAL, "folder '%s' holds no .csv run files", dir);
  if (st == SENSIM_OK) {
    qsort(names, n, sizeof *names, cmp_str);
    r = calloc(n, sizeof *r);
    if (!r) st = sensim_error_set(SENSIM_ENOMEM, "vepd read dir: out of memory");
  }
  for (size_t i = 0; st == SENSIM_OK && i < n; i++) st = sensim_vepd_run_read(names[i], &r[i]);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  if (st != SENSIM_OK) {
    sensim_vepd_runs_free(r, r ? n : 0);
    return st;
  }
  *runs = r;
  *nruns = n;
  return SENSIM_OK;
}
