/* eval/vepd_internal.h: what the VEPD files share: a numeric CSV table
 * reader (run files, and the GNSS / IMU files io/csv.c writes) and the run
 * checks. Not installed. */
#ifndef SENSIM_EVAL_VEPD_INTERNAL_H
#define SENSIM_EVAL_VEPD_INTERNAL_H

#include <stddef.h>
#include "sensim/vepd.h"

/* A CSV file of numbers with a header line naming its columns. */
typedef struct sensim__table {
  size_t ncols;  /* columns */
  size_t nrows;  /* records after the header */
  char **names;  /* ncols column names, owned */
  double *v;     /* nrows x ncols values, row-major, owned */
} sensim__table;

/* Read a whole file: one header line, then records of exactly ncols
 * numbers; blank lines and lines starting with '#' are skipped; LF or CRLF.
 * SENSIM_ENOTFOUND for a missing file, SENSIM_EIO for another open/read
 * error, SENSIM_EPARSE (file:line) for malformed text, SENSIM_EINVAL for a
 * NaN or infinite number unless allow_nonfinite (io/csv.c writes nan in
 * the position fields of a GNSS outage row). *out is written only on
 * success. */
sensim_status sensim__table_read(const char *path, int allow_nonfinite, sensim__table *out);
/* Index of the column `name`, or -1. */
int sensim__table_col(const sensim__table *t, const char *name);
void sensim__table_free(sensim__table *t);

/* SENSIM_EINVAL naming `what` unless the run is well formed (vepd.h). */
sensim_status sensim__vepd_run_check(const sensim_vepd_run *r, const char *what);

#include "sensim/world.h"
/* The body state of manoeuvre m at time t (s) into *s; returns the true
 * speed, m/s (eval/vepd_trajectory.c). */
double sensim__vepd_state(sensim_vepd_manoeuvre m, double t, sensim_body_state *s);

#endif
