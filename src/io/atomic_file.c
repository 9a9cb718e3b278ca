/* io/atomic_file.c: io/fs.c's all-or-nothing files behind a public handle
 * (io.h), so that programs built on the public API (the tools library's
 * run files, tables and plots) write with the guarantee sensim's own
 * writers give. */
#include <stdlib.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

struct sensim_atomic_file {
  sensim__afile af;
};

sensim_status sensim_atomic_file_open(const char *path, sensim_atomic_file **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_atomic_file_open: NULL out");
  *out = NULL;
  sensim_atomic_file *f = calloc(1, sizeof *f);
  if (!f) return sensim__fail(SENSIM_ENOMEM, "out of memory opening '%s'", path ? path : "");
  sensim_status st = sensim__afile_open(path, &f->af);
  if (st) {
    free(f);
    return st;
  }
  *out = f;
  return SENSIM_OK;
}

FILE *sensim_atomic_file_stream(sensim_atomic_file *f) { return f ? f->af.fp : NULL; }

sensim_status sensim_atomic_file_commit(sensim_atomic_file *f) {
  if (!f) return sensim__fail(SENSIM_EINVAL, "sensim_atomic_file_commit: NULL file");
  sensim_status st = sensim__afile_commit(&f->af);
  free(f);
  return st;
}

void sensim_atomic_file_abort(sensim_atomic_file *f) {
  if (!f) return;
  sensim__afile_abort(&f->af);
  free(f);
}
