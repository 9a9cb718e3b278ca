/* io/cdr.c: the ROS 2 CDR encoder (io/cdr.h). */
#include <stdlib.h>
#include <string.h>
#include "io/cdr.h"

int sensim__cdr_reserve(sensim__cdr *c, size_t n) {
  if (c->failed) return 0;
  if (c->len + n <= c->cap) return 1;
  size_t cap = c->cap ? c->cap : 4096;
  while (cap < c->len + n) cap *= 2;
  unsigned char *p = realloc(c->p, cap);
  if (!p) {
    c->failed = 1;
    return 0;
  }
  c->p = p;
  c->cap = cap;
  return 1;
}

static void put(sensim__cdr *c, const void *d, size_t n) {
  if (!sensim__cdr_reserve(c, n)) return;
  memcpy(c->p + c->len, d, n);
  c->len += n;
}

void sensim__cdr_begin(sensim__cdr *c) {
  static const unsigned char cdr_le[4] = {0x00, 0x01, 0x00, 0x00};
  put(c, cdr_le, 4);
  c->origin = c->len;
}

void sensim__cdr_align(sensim__cdr *c, size_t n) {
  size_t pad = (n - (c->len - c->origin) % n) % n;
  if (!pad || !sensim__cdr_reserve(c, pad)) return;
  memset(c->p + c->len, 0, pad);
  c->len += pad;
}

/* Primitives are stored in host order, which io/cdr.h requires to be
 * little-endian. */
#define PRIMITIVE(name, type)                        \
  void sensim__cdr_##name(sensim__cdr *c, type v) {  \
    sensim__cdr_align(c, sizeof v);                  \
    put(c, &v, sizeof v);                            \
  }
PRIMITIVE(u8, uint8_t)
PRIMITIVE(i8, int8_t)
PRIMITIVE(u16, uint16_t)
PRIMITIVE(u32, uint32_t)
PRIMITIVE(i32, int32_t)
PRIMITIVE(f64, double)
#undef PRIMITIVE

void sensim__cdr_f64s(sensim__cdr *c, const double *v, size_t n) {
  if (!n) return; /* no elements, no padding for them */
  sensim__cdr_align(c, 8);
  put(c, v, n * sizeof *v);
}

void sensim__cdr_string(sensim__cdr *c, const char *s) {
  size_t n = strlen(s) + 1;
  sensim__cdr_u32(c, (uint32_t)n);
  put(c, s, n);
}

unsigned char *sensim__cdr_bytes(sensim__cdr *c, size_t n) {
  return sensim__cdr_array(c, (uint32_t)n, n);
}

unsigned char *sensim__cdr_array(sensim__cdr *c, uint32_t count, size_t n) {
  sensim__cdr_u32(c, count);
  if (!sensim__cdr_reserve(c, n)) return NULL;
  unsigned char *at = c->p + c->len;
  c->len += n;
  return at;
}
