/* tools/table.c: numeric CSV tables (table.h): the run files of VEPD and
 * the GNSS and IMU recordings sensim writes (sensim/io.h), RFC 4180
 * without quoting, every field a number. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

void sensim_table_free(sensim_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->ncols && t->names; i++) free(t->names[i]);
  free(t->names);
  free(t->v);
  t->names = NULL;
  t->v = NULL;
  t->ncols = t->nrows = 0;
}

int sensim_table_col(const sensim_table *t, const char *name) {
  for (size_t i = 0; t && name && i < t->ncols; i++)
    if (strcmp(t->names[i], name) == 0) return (int)i;
  return -1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
    s[--n] = '\0';
  return s;
}

static sensim_status parse_header(char *line, const char *path, sensim_table *t) {
  size_t cap = 0;
  for (char *p = line;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    char *name = trim(p);
    if (!*name) return sensim_error_set(SENSIM_EPARSE, "%s:1: empty column name", path);
    if (sensim_table_col(t, name) >= 0)
      return sensim_error_set(SENSIM_EPARSE, "%s:1: column '%s' appears twice", path, name);
    sensim_status st = sensim_tools__grow((void **)&t->names, &cap, t->ncols + 1, sizeof *t->names);
    if (st != SENSIM_OK) return st;
    if (!(t->names[t->ncols] = sensim_tools__strdup(name))) return SENSIM_ENOMEM;
    t->ncols++;
    if (!comma) return SENSIM_OK;
    p = comma + 1;
  }
}

static sensim_status parse_record(char *line, const char *path, size_t lineno, double *row,
                                  size_t ncols, int allow_nonfinite) {
  size_t c = 0;
  for (char *p = line;; c++) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    char *f = trim(p), *end = NULL;
    if (c >= ncols)
      return sensim_error_set(SENSIM_EPARSE, "%s:%zu: more than the header's %zu fields", path,
                          lineno, ncols);
    errno = 0;
    double v = *f ? strtod(f, &end) : 0.0;
    if (!*f || *end)
      return sensim_error_set(SENSIM_EPARSE, "%s:%zu: field %zu '%s' is not a number", path, lineno,
                          c + 1, f);
    if (!isfinite(v) && !allow_nonfinite)
      return sensim_error_set(SENSIM_EINVAL, "%s:%zu: field %zu is %g", path, lineno, c + 1, v);
    row[c] = v;
    if (!comma) break;
    p = comma + 1;
  }
  if (c + 1 != ncols)
    return sensim_error_set(SENSIM_EPARSE, "%s:%zu: %zu fields, the header has %zu", path, lineno,
                        c + 1, ncols);
  return SENSIM_OK;
}

sensim_status sensim_table_read(const char *path, int allow_nonfinite, sensim_table *out) {
  if (!path || !out) return sensim_error_set(SENSIM_EINVAL, "CSV table: NULL argument");
  FILE *fp = fopen(path, "r");
  if (!fp) {
    int e = errno;
    return sensim_error_set(e == ENOENT ? SENSIM_ENOTFOUND : SENSIM_EIO, "cannot open '%s': %s",
                        path, strerror(e));
  }
  sensim_table t = {0};
  size_t cap = 0, lineno = 0, linecap = 0;
  char *line = NULL;
  int have_header = 0;
  sensim_status st = SENSIM_OK;
  while (st == SENSIM_OK && getline(&line, &linecap, fp) >= 0) {
    lineno++;
    char *s = trim(line);
    if (!*s || *s == '#') continue;
    if (!have_header) {
      st = parse_header(s, path, &t);
      have_header = 1;
      continue;
    }
    st = sensim_tools__grow((void **)&t.v, &cap, (t.nrows + 1) * t.ncols, sizeof *t.v);
    if (st == SENSIM_OK) st = parse_record(s, path, lineno, t.v + t.nrows * t.ncols, t.ncols,
                                              allow_nonfinite);
    if (st == SENSIM_OK) t.nrows++;
  }
  if (st == SENSIM_OK && ferror(fp)) st = sensim_error_set(SENSIM_EIO, "reading '%s' failed", path);
  if (st == SENSIM_OK && !have_header)
    st = sensim_error_set(SENSIM_EPARSE, "%s: no header line (empty file)", path);
  free(line);
  fclose(fp);
  if (st != SENSIM_OK) {
    sensim_table_free(&t);
    return st;
  }
  *out = t;
  return SENSIM_OK;
}

