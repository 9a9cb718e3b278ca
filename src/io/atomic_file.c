/* io/atomic_file.c: io/fs.c's all-or-nothing files behind a public handle
 * (io.h), so that programs built on the public API (the tools library's
 * run files, tables and plots) write with the guarantee sensim's own
 * writers give. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

struct sensim_atomic_file {
  sensim__afile af;
};

/* The folder of `path` ("." for a bare name), malloc'd. */
static char *folder_of(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
  char *d = malloc(n ? n + 1 : 2);
  if (!d) return NULL;
  if (n) {
    memcpy(d, path, n);
    d[n] = '\0';
  } else {
    strcpy(d, ".");
  }
  return d;
}

/* Left-overs of crashed writers go when a program starts writing into
 * their folder. A program that writes many files into one folder should
 * not read the folder for each: the last folder swept is remembered, and a
 * folder is swept again only after writing elsewhere. */
static pthread_mutex_t sweep_mu = PTHREAD_MUTEX_INITIALIZER;
static char *swept;

static void sweep_folder_of(const char *path) {
  char *dir = folder_of(path);
  if (!dir) return;
  pthread_mutex_lock(&sweep_mu);
  if (!swept || strcmp(swept, dir) != 0) {
    sensim__sweep_temp_files(dir);
    free(swept);
    swept = dir;
    dir = NULL;
  }
  pthread_mutex_unlock(&sweep_mu);
  free(dir);
}

sensim_status sensim_atomic_file_open(const char *path, sensim_atomic_file **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_atomic_file_open: NULL out");
  *out = NULL;
  sensim_atomic_file *f = calloc(1, sizeof *f);
  if (!f) return sensim__fail(SENSIM_ENOMEM, "out of memory opening '%s'", path ? path : "");
  if (path && *path) sweep_folder_of(path);
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

int sensim__atomic_file_errno(const sensim_atomic_file *f) { return f ? sensim__afile_errno(&f->af) : 0; }

sensim_status sensim__atomic_file_salvage(sensim_atomic_file *f, uint64_t keep, const void *tail, size_t n,
                                          const char *dest) {
  sensim_status st = sensim__afile_salvage(&f->af, keep, tail, n, dest);
  free(f);
  return st;
}
