/* tools/tools_util.c: the small helpers the tools share: allocation, text
 * files, folders of paths and a PNG header probe (tools/tools_internal.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/tools_internal.h"

sensim_status sensim_tools__grow(void **array, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return SENSIM_OK;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) ncap *= 2;
  if (ncap > SIZE_MAX / size) return sensim_error_set(SENSIM_ENOMEM, "array of %zu elements too large", need);
  void *p = realloc(*array, ncap * size);
  if (!p) return sensim_error_set(SENSIM_ENOMEM, "out of memory growing an array to %zu elements", ncap);
  *array = p;
  *cap = ncap;
  return SENSIM_OK;
}

char *sensim_tools__strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) {
    sensim_error_set(SENSIM_ENOMEM, "out of memory copying a %zu-byte string", n);
    return NULL;
  }
  memcpy(d, s, n);
  return d;
}

int sensim_tools__png_bits(const char *path, int *channels) {
  unsigned char hdr[26];
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  size_t got = fread(hdr, 1, sizeof hdr, fp);
  fclose(fp);
  if (got != sizeof hdr) return 0;
  static const int per_type[7] = {1, 0, 3, 3, 2, 0, 4}; /* colour type -> channels */
  if (channels) *channels = hdr[25] <= 6 ? per_type[hdr[25]] : 0;
  return hdr[25] == 3 ? 8 : hdr[24];
}

sensim_status sensim_tools__read_text(const char *path, const char *what, char **out) {
  *out = NULL;
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    int e = errno;
    return sensim_error_set(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO, "%s '%s': %s", what, path,
                        strerror(e));
  }
  size_t cap = 1 << 14, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n + 1 >= cap) {
      char *b = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, fp);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(fp);
  fclose(fp);
  if (!buf) return sensim_error_set(SENSIM_ENOMEM, "%s '%s': out of memory (or larger than 1 GiB)", what, path);
  if (bad) {
    free(buf);
    return sensim_error_set(SENSIM_EIO, "%s '%s': read error", what, path);
  }
  if (memchr(buf, '\0', n)) {
    free(buf);
    return sensim_error_set(SENSIM_EPARSE, "%s: contains a NUL byte (not a text file)", path);
  }
  buf[n] = '\0';
  *out = buf;
  return SENSIM_OK;
}

char *sensim_tools__dirname(const char *path) {
  char *base = sensim_tools__strdup(path);
  if (!base) return NULL;
  char *slash = strrchr(base, '/');
  if (slash == base)
    base[1] = '\0';
  else if (slash)
    *slash = '\0';
  else
    strcpy(base, ".");
  return base;
}
