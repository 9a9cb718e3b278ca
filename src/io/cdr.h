/* io/cdr.h: a ROS 2 CDR encoder (OMG CDR as XCDR1 plain little-endian,
 * what rmw_fastrtps and rmw_cyclonedds put on the wire and rosbag2 stores).
 *
 * A message starts with the 4-byte encapsulation header 00 01 00 00
 * (CDR_LE) and then its fields in declaration order, nested messages
 * inline. A primitive of n bytes (1, 2, 4, 8) starts at an offset from the
 * end of the encapsulation header that is a multiple of n, padding with
 * zero bytes before it. A string is a uint32 length counting the
 * terminating NUL, its bytes and the NUL; a sequence (T[]) a uint32
 * element count and its elements; a fixed array (T[n]) only its elements.
 *
 * The encoder appends to a growable buffer that may already hold other
 * messages (the recorder's queue): offsets are kept, not pointers, as the
 * buffer moves when it grows. An allocation failure is sticky: every
 * later call is a no-op and sensim__cdr_end reports it. */
#ifndef SENSIM_IO_CDR_H
#define SENSIM_IO_CDR_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the CDR encoder and MCAP writer store host-order numbers as little-endian ones"
#endif

typedef struct sensim__cdr {
  unsigned char *p; /* the buffer, owned by whoever set it up */
  size_t len, cap;
  size_t origin;    /* offset of the message's first field (alignment base) */
  int failed;       /* an allocation failed */
} sensim__cdr;

/* Make room for n more bytes; 0 (and failed) when out of memory. */
int sensim__cdr_reserve(sensim__cdr *c, size_t n);
/* Start a message at the end of the buffer: the encapsulation header. */
void sensim__cdr_begin(sensim__cdr *c);
/* Pad with zeros to a multiple of n (1, 2, 4, 8) from the origin. */
void sensim__cdr_align(sensim__cdr *c, size_t n);

void sensim__cdr_u8(sensim__cdr *c, uint8_t v);
void sensim__cdr_i8(sensim__cdr *c, int8_t v);
void sensim__cdr_u16(sensim__cdr *c, uint16_t v);
void sensim__cdr_u32(sensim__cdr *c, uint32_t v);
void sensim__cdr_i32(sensim__cdr *c, int32_t v);
void sensim__cdr_f64(sensim__cdr *c, double v);
void sensim__cdr_f64s(sensim__cdr *c, const double *v, size_t n); /* a fixed array */
void sensim__cdr_string(sensim__cdr *c, const char *s);
/* A uint8[] of n bytes: writes the count and returns where the n bytes go
 * (valid until the next call), or NULL when out of memory. */
unsigned char *sensim__cdr_bytes(sensim__cdr *c, size_t n);
/* A sequence of `count` elements of 4 bytes or less (float32[], ...)
 * taking n bytes: writes the count (which aligns them) and returns where
 * the n bytes go, host order (little-endian), or NULL. */
unsigned char *sensim__cdr_array(sensim__cdr *c, uint32_t count, size_t n);

#endif
