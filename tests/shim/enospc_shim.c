/* tests/faults/enospc_shim.c: a full disk for the fault tests, without
 * root or a tmpfs. Preloaded (LD_PRELOAD) into a program, it passes
 * write(2), writev(2) and pwrite(2) through while the files directly in
 * the folder SENSIM_ENOSPC_DIR (an absolute path) hold less than
 * SENSIM_ENOSPC_BYTES bytes together, as a disk of that size would; a
 * write to a file there that would cross it is cut short, and then fails
 * with ENOSPC. Truncating or removing a file frees its bytes again.
 * Files elsewhere (stdout, stderr, the scenario's inputs) are untouched.
 * Test code only: it is never linked into sensim. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Bytes held by the regular files directly in dir. */
static unsigned long long used_in(const char *dir) {
  unsigned long long sum = 0;
  DIR *d = opendir(dir);
  if (!d) return 0;
  char p[PATH_MAX];
  for (struct dirent *e; (e = readdir(d));) {
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) sum += (unsigned long long)st.st_size;
  }
  closedir(d);
  return sum;
}

/* Bytes fd may still take (SIZE_MAX: not a watched file). */
static size_t room(int fd) {
  const char *dir = getenv("SENSIM_ENOSPC_DIR"), *bytes = getenv("SENSIM_ENOSPC_BYTES");
  if (!dir || !bytes || fd < 0) return SIZE_MAX;
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return SIZE_MAX;
  path[n] = '\0';
  size_t dl = strlen(dir);
  if (strncmp(path, dir, dl) != 0 || (path[dl] != '/' && path[dl] != '\0')) return SIZE_MAX;
  unsigned long long budget = strtoull(bytes, NULL, 10), used = used_in(dir);
  return used >= budget ? 0 : (size_t)(budget - used);
}

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);

ssize_t write(int fd, const void *buf, size_t n) {
  static write_fn real;
  if (!real) real = (write_fn)dlsym(RTLD_NEXT, "write");
  pthread_mutex_lock(&mu);
  size_t r = room(fd);
  if (r == 0 && n > 0) {
    pthread_mutex_unlock(&mu);
    errno = ENOSPC;
    return -1;
  }
  if (r != SIZE_MAX && n > r) n = r;
  ssize_t k = real(fd, buf, n);
  pthread_mutex_unlock(&mu);
  return k;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
  static pwrite_fn real;
  if (!real) real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite");
  pthread_mutex_lock(&mu);
  size_t r = room(fd);
  if (r == 0 && n > 0) {
    pthread_mutex_unlock(&mu);
    errno = ENOSPC;
    return -1;
  }
  if (r != SIZE_MAX && n > r) n = r;
  ssize_t k = real(fd, buf, n, off);
  pthread_mutex_unlock(&mu);
  return k;
}

/* writev: written piece by piece through write() above. */
ssize_t writev(int fd, const struct iovec *iov, int cnt) {
  ssize_t total = 0;
  for (int i = 0; i < cnt; i++) {
    ssize_t k = write(fd, iov[i].iov_base, iov[i].iov_len);
    if (k < 0) return total > 0 ? total : -1;
    total += k;
    if ((size_t)k < iov[i].iov_len) break;
  }
  return total;
}
