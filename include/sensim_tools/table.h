/* sensim_tools/table.h: numeric CSV tables, as sensim writes them (GNSS
 * and IMU recordings, sensim/io.h) and as the VEPD tools read and write
 * them (run files, docs/vepd.md): a header line naming the columns, then
 * records of numbers, RFC 4180 without quoting. */
#ifndef SENSIM_TOOLS_TABLE_H
#define SENSIM_TOOLS_TABLE_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_table {
  size_t ncols;  /* columns */
  size_t nrows;  /* records after the header */
  char **names;  /* ncols column names, owned */
  double *v;     /* nrows x ncols values, row-major, owned */
} sensim_table;

/* Read a whole file: one header line, then records of exactly ncols
 * numbers; blank lines and lines starting with '#' are skipped; LF or
 * CRLF. SENSIM_ENOTFOUND for a missing file, SENSIM_EIO for another open
 * or read error, SENSIM_EPARSE (file:line) for malformed text or a column
 * named twice, SENSIM_EINVAL for a NaN or infinite number unless
 * allow_nonfinite (sensim's GNSS CSV writes nan in the position fields of
 * an outage row). *out is written only on success; free it with
 * sensim_table_free. */
SENSIM_TOOLS_API sensim_status sensim_table_read(const char *path, int allow_nonfinite,
                                                 sensim_table *out);
/* Index of the column `name`, or -1 (also for NULL arguments). */
SENSIM_TOOLS_API int sensim_table_col(const sensim_table *t, const char *name);
/* Free the names and values and zero the table. NULL is a no-op. */
SENSIM_TOOLS_API void sensim_table_free(sensim_table *t);

#ifdef __cplusplus
}
#endif
#endif
