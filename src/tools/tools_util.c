/* tools/tools_util.c: the small helpers the tools share: allocation,
 * folders of paths and a PNG header probe (tools/tools_internal.h). */
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
