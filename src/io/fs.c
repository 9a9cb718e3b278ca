/* io/fs.c: folders, whole text files and all-or-nothing file writes. */
/* fopencookie (glibc; a stream that remembers why a write failed). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
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

/* The FILE of an afile writes through this sink (fopencookie), which
 * remembers the errno of the first failed write: stdio only keeps an
 * error flag, and by the time it is seen errno says something else. */
struct sensim__afile_sink {
  int fd;
  int err;     /* errno of the first failed write, 0: none */
  int discard; /* drop writes (a salvage closing the stream) */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n) {
  sensim__afile_sink *k = cookie;
  if (k->discard) return (ssize_t)n;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(k->fd, buf + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (!k->err) k->err = w < 0 ? errno : EIO;
      break;
    }
    done += (size_t)w;
  }
  /* glibc takes a short count as an error and sets the stream's flag. */
  return (ssize_t)done;
}

/* The descriptor is closed by the afile itself (a salvage still needs it
 * after the stream is gone). */
static int sink_close(void *cookie) {
  (void)cookie;
  return 0;
}

int sensim__afile_errno(const sensim__afile *af) { return af && af->sink ? af->sink->err : 0; }

sensim_status sensim__afile_open(const char *path, sensim__afile *af) {
  memset(af, 0, sizeof *af);
  if (!path || !*path) return sensim__fail(SENSIM_EINVAL, "empty output path");
  /* The file is renamed over path when committed: where a device, FIFO,
   * socket or folder stands, that would replace the node (a recording to
   * /dev/full left a regular file in its place), so only a regular file,
   * or nothing, may stand there (a link is followed to see which). */
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
    return sensim__fail(SENSIM_EINVAL, "output '%s' is %s, not a regular file: sensim writes or replaces only regular files",
                        path,
                        S_ISDIR(sb.st_mode)    ? "a folder"
                        : S_ISCHR(sb.st_mode)  ? "a character device"
                        : S_ISBLK(sb.st_mode)  ? "a block device"
                        : S_ISFIFO(sb.st_mode) ? "a FIFO"
                        : S_ISSOCK(sb.st_mode) ? "a socket"
                                               : "something else");
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
  sensim__afile_sink *sink = calloc(1, sizeof *sink);
  FILE *fp = NULL;
  if (sink) {
    sink->fd = fd;
    fp = fopencookie(sink, "wb", (cookie_io_functions_t){.write = sink_write, .close = sink_close});
  }
  if (!fp) {
    int e = sink ? errno : ENOMEM;
    close(fd);
    unlink(tmp);
    free(sink);
    free(tmp);
    free(final);
    return sensim__fail(e == ENOMEM ? SENSIM_ENOMEM : SENSIM_EIO, "cannot open '%s': %s", path, strerror(e));
  }
  af->fp = fp;
  af->sink = sink;
  af->tmp = tmp;
  af->path = final;
  return SENSIM_OK;
}

static void afile_free(sensim__afile *af) {
  if (af->sink && af->sink->fd >= 0) close(af->sink->fd);
  free(af->sink);
  free(af->tmp);
  free(af->path);
  memset(af, 0, sizeof *af);
}

void sensim__afile_abort(sensim__afile *af) {
  if (!af) return;
  if (af->sink) af->sink->discard = 1;
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
  if (bad && af->sink->err) e = af->sink->err;
  /* Closed whatever happened before: a failed write (a full disk) used
   * to leave the descriptor of the unlinked file open, holding its space
   * and its file system busy. */
  if (close(af->sink->fd) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  af->sink->fd = -1;
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

sensim_status sensim__afile_salvage(sensim__afile *af, uint64_t keep, const void *tail, size_t n, const char *dest) {
  af->sink->discard = 1;
  fclose(af->fp);
  af->fp = NULL;
  const int fd = af->sink->fd;
  sensim_status st = SENSIM_OK;
  if (ftruncate(fd, (off_t)keep) != 0 || lseek(fd, (off_t)keep, SEEK_SET) < 0) {
    st = sensim__fail(SENSIM_EIO, "cannot cut '%s' back to %llu bytes: %s", af->tmp, (unsigned long long)keep,
                      strerror(errno));
  } else if (n) {
    /* The closing record or nothing: a part of it would be garbage. */
    size_t done = 0;
    while (done < n) {
      ssize_t w = write(fd, (const char *)tail + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      done += (size_t)w;
    }
    if (done < n && ftruncate(fd, (off_t)keep) != 0)
      st = sensim__fail(SENSIM_EIO, "cannot cut '%s' back: %s", af->tmp, strerror(errno));
  }
  if (!st && rename(af->tmp, dest) != 0)
    st = sensim__fail(SENSIM_EIO, "cannot rename '%s' to '%s': %s", af->tmp, dest, strerror(errno));
  if (st) unlink(af->tmp);
  afile_free(af);
  return st;
}

static sensim_status mkdir_one(const char *dir, const char *whole) {
  if (mkdir(dir, 0777) == 0) return SENSIM_OK;
  int e = errno;
  struct stat st;
  if (e == EEXIST && stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return SENSIM_OK;
    return sensim__fail(SENSIM_EIO, "cannot create folder '%s': '%s' is not a folder (%s)", whole, dir,
                        strerror(ENOTDIR));
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

/* ---- left-overs of crashed writers ------------------------------------- */

/* The pid in a temporary name "<target>.tmp-<pid>-<n>" made by
 * sensim__afile_open, or 0 if `name` is not one. */
static long temp_pid(const char *name) {
  const char *at = NULL;
  for (const char *p = strstr(name, ".tmp-"); p; p = strstr(p + 1, ".tmp-")) at = p;
  if (!at || at == name) return 0;
  const char *d = at + 5, *e = d;
  long pid = 0;
  while (*e >= '0' && *e <= '9') {
    if (pid > INT_MAX / 10) return 0;
    pid = pid * 10 + (*e++ - '0');
  }
  if (e == d || *e != '-' || !e[1]) return 0;
  for (const char *c = e + 1; *c; c++)
    if (*c < '0' || *c > '9') return 0;
  return pid;
}

/* A killed recording's bytes are kept, not swept: its whole chunks are
 * readable by a streaming MCAP reader (docs/recording.md, "When a run is
 * killed"). "<dir>/x.mcap.tmp-<pid>-<n>" is renamed to
 * "<dir>/x.partial-<pid>.mcap" (with "-2", "-3", ... before ".mcap" if
 * that is taken), and a line on stderr says where it went. 1 when it was
 * kept, 0 when `name` is not a recording's temporary file. */
static int keep_killed_recording(const char *dir, const char *name, long pid) {
  const char *tmp = strstr(name, ".tmp-");
  for (const char *p = tmp; p; p = strstr(p + 1, ".tmp-")) tmp = p;
  const size_t stem = (size_t)(tmp - name);
  if (stem < 5 || memcmp(tmp - 5, ".mcap", 5) != 0) return 0;
  const size_t n = strlen(dir) + strlen(name) + 64;
  char *from = malloc(n), *to = malloc(n);
  int kept = 0;
  if (from && to) {
    snprintf(from, n, "%s/%s", dir, name);
    struct stat st;
    for (int k = 1; k < 1000 && !kept; k++) {
      if (k == 1) snprintf(to, n, "%s/%.*s.partial-%ld.mcap", dir, (int)(stem - 5), name, pid);
      else snprintf(to, n, "%s/%.*s.partial-%ld-%d.mcap", dir, (int)(stem - 5), name, pid, k);
      if (lstat(to, &st) == 0 || errno != ENOENT) continue;
      if (rename(from, to) == 0) {
        fprintf(stderr, "sensim: the recording of process %ld, killed while writing it, is kept as '%s' "
                        "(its whole chunks read with a streaming MCAP reader)\n", pid, to);
        kept = 1;
      } else {
        break;
      }
    }
  }
  free(from);
  free(to);
  return kept;
}

size_t sensim__sweep_temp_files(const char *dir) {
  DIR *d = dir && *dir ? opendir(dir) : NULL;
  if (!d) return 0;
  size_t removed = 0;
  const long self = (long)getpid();
  for (struct dirent *e; (e = readdir(d));) {
    long pid = temp_pid(e->d_name);
    /* pid 0 and negative ones would address process groups in kill(). A
     * live process, or one we may not signal (EPERM: alive, another
     * user's), may still be writing: only ESRCH says nobody is. */
    if (pid <= 0 || pid == self) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    char *path = malloc(n);
    if (!path) break;
    snprintf(path, n, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        (keep_killed_recording(dir, e->d_name, pid) || unlink(path) == 0))
      removed++;
    free(path);
  }
  closedir(d);
  return removed;
}

sensim_status sensim_read_text_file(const char *path, const char *what, char **out) {
  if (!path || !out) return sensim__fail(SENSIM_EINVAL, "sensim_read_text_file: NULL argument");
  if (!what) what = "file";
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    int e = errno;
    return sensim__fail(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO,
                        "%s '%s': %s", what, path, strerror(e));
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  sensim_status st = buf ? SENSIM_OK : SENSIM_ENOMEM;
  while (st == SENSIM_OK) {
    if (n + 1 >= cap) {
      char *b = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
      if (!b) {
        st = SENSIM_ENOMEM;
        break;
      }
      buf = b;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, fp);
    n += got;
    if (got == 0) {
      if (ferror(fp)) st = SENSIM_EIO;
      break;
    }
  }
  fclose(fp);
  if (st != SENSIM_OK) {
    free(buf);
    return sensim__fail(st, "%s '%s': %s", what, path,
                        st == SENSIM_ENOMEM ? "out of memory (or larger than 1 GiB)" : "read error");
  }
  if (memchr(buf, '\0', n)) {
    free(buf);
    return sensim__fail(SENSIM_EPARSE, "%s '%s': contains a NUL byte (not a text file)", what, path);
  }
  buf[n] = '\0';
  *out = buf;
  return SENSIM_OK;
}

