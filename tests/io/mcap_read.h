/* tests/io/mcap_read.h: the recording tests' own MCAP and CDR readers
 * (mcap_read.c), which share no code with sensim's writer. Every check
 * fails the running cmocka test. */
#ifndef SENSIM_TESTS_MCAP_READ_H
#define SENSIM_TESTS_MCAP_READ_H

#include <stddef.h>
#include <stdint.h>
#include "support/testutil.h"

typedef struct rmsg {
  uint16_t channel;
  uint32_t sequence;
  uint64_t log_time, publish_time;
  unsigned char *data; /* CDR, owned */
  size_t len;
} rmsg;

typedef struct rchan {
  char topic[128], schema_name[64];
  uint64_t count;
} rchan;

typedef struct mcap_file {
  rmsg *msgs;
  size_t nmsgs;
  rchan chan[64]; /* by channel id */
  size_t nchunks;
  uint64_t stat_messages, stat_chunks, stat_counts[64];
  uint32_t stat_channels;
  char schema_text[16][4096];
  char schema_names[16][64];
} mcap_file;

typedef struct cdr_in {
  const unsigned char *p;
  size_t len, at; /* at: offset from the start of the message (header included) */
} cdr_in;

/* Little-endian integers. */
static inline uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }


/* Read and check a whole file; every property the spec states about the
 * bytes is asserted. free_mcap releases it. */
void read_mcap(const char *path, mcap_file *mf);
void free_mcap(mcap_file *mf);
const char *topic_of(const mcap_file *mf, const rmsg *m);
/* The k-th message on `topic`, or NULL. */
const rmsg *nth(const mcap_file *mf, const char *topic, size_t k);
size_t count_topic(const mcap_file *mf, const char *topic);

/* CDR: offsets from the end of the encapsulation header. */
cdr_in cdr_open(const rmsg *m);
const unsigned char *cdr_take(cdr_in *c, size_t n, size_t align);
uint32_t cdr_u32(cdr_in *c);
int32_t cdr_i32(cdr_in *c);
uint8_t cdr_u8(cdr_in *c);
double cdr_f64(cdr_in *c);
const char *cdr_str(cdr_in *c);
/* A std_msgs/Header: the stamp in ns, and the frame id. */
uint64_t cdr_header(cdr_in *c, const char **frame_id);

#endif
