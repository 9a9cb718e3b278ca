/* io/fs.c: folders and all-or-nothing file writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/internal.h"
#include "io/scenario_internal.h"

/* Temporary names must be unique across threads and processes writing into
 * the same folder: pid + a process-wide counter, created with O_EXCL. The
 * file is created with mode 0666 so the umask applies as for fopen(). */
static atomic_uint afile_counter;

sensim_status sensim__afile_open(const char *path, sensim__afile *af) {
  memset(af, 0, sizeof *af);
  if (!path || !*path) return sensim__fail(SENSIM_EINVAL, "empty output path");
  size_t n = strlen(path) + 64;
  char *tmp = malloc(n);
  char *final = sensim__strdup(path);
  if (!tmp || !final) {
    free(tmp);
    free(final);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for path '%s'", path);
  }
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    unsigned c = atomic_fetch_add(&afile_counter, 1u);
    snprintf(tmp, n, "%s.tmp-%ld-%u", path, (long)getpid(), c);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    int e = errno;
    free(tmp);
    free(final);
    return sensim__fail(SENSIM_EIO, "cannot create '%s': %s", path, strerror(e));
  }
  FILE *fp = fdopen(fd, "wb");
  if (!fp) {
    int e = errno;
    close(fd);
    unlink(tmp);
    free(tmp);
    free(final);
    return sensim__fail(SENSIM_EIO, "cannot open '%s': %s", path, strerror(e));
  }
  af->fp = fp;
  af->tmp = tmp;
  af->path = final;
  return SENSIM_OK;
}

static void afile_free(sensim__afile *af) {
  free(af->tmp);
  free(af->path);
  memset(af, 0, sizeof *af);
}

void sensim__afile_abort(sensim__afile *af) {
  if (!af) return;
  if (af->fp) fclose(af->fp);
  if (af->tmp) unlink(af->tmp);
  afile_free(af);
}

sensim_status sensim__afile_commit(sensim__afile *af) {
  int bad = ferror(af->fp);
  int e = bad ? EIO : 0;
  if (fclose(af->fp) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  af->fp = NULL;
  if (!bad && rename(af->tmp, af->path) != 0) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    sensim_status st = sensim__fail(SENSIM_EIO, "writing '%s' failed: %s", af->path, strerror(e));
    unlink(af->tmp);
    afile_free(af);
    return st;
  }
  afile_free(af);
  return SENSIM_OK;
}

static sensim_status mkdir_one(const char *dir, const char *whole) {
  if (mkdir(dir, 0777) == 0) return SENSIM_OK;
  int e = errno;
  struct stat st;
  if (e == EEXIST && stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return SENSIM_OK;
    return sensim__fail(SENSIM_EIO, "cannot create folder '%s': '%s' is not a folder", whole, dir);
  }
  return sensim__fail(SENSIM_EIO, "cannot create folder '%s': %s", dir, strerror(e));
}

sensim_status sensim_mkdirs(const char *path) {
  if (!path || !*path) return sensim__fail(SENSIM_EINVAL, "sensim_mkdirs: empty path");
  char *p = sensim__strdup(path);
  if (!p) return SENSIM_ENOMEM;
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
  sensim_status st = SENSIM_OK;
  /* Create each prefix ending before a '/', then the whole path. */
  for (size_t i = 1; i < n && st == SENSIM_OK; i++) {
    if (p[i] != '/' || p[i - 1] == '/') continue;
    p[i] = '\0';
    st = mkdir_one(p, path);
    p[i] = '/';
  }
  if (st == SENSIM_OK) st = mkdir_one(p, path);
  free(p);
  return st;
}
