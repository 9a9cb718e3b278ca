/* io/mcap_internal.h: what the MCAP writer's two files share: the
 * writer's state, the record serialisation (the spec's little-endian
 * integers, uint32-prefixed strings, records as opcode, uint64 length,
 * content) and the chunk writer (io/mcap_chunks.c). */
#ifndef SENSIM_IO_MCAP_INTERNAL_H
#define SENSIM_IO_MCAP_INTERNAL_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "core/internal.h"
#include "io/mcap_writer.h"
#include "io/scenario_internal.h"
#include "sensim/io.h"

enum {
  OP_HEADER = 0x01, OP_FOOTER = 0x02, OP_SCHEMA = 0x03, OP_CHANNEL = 0x04, OP_MESSAGE = 0x05,
  OP_CHUNK = 0x06, OP_MESSAGE_INDEX = 0x07, OP_CHUNK_INDEX = 0x08, OP_STATISTICS = 0x0B,
  OP_SUMMARY_OFFSET = 0x0E, OP_DATA_END = 0x0F
};


/* A growable byte buffer. */
typedef struct buf {
  unsigned char *p;
  size_t len, cap;
} buf;

/* Where a message sits in its chunk's uncompressed records. */
typedef struct index_entry {
  uint16_t channel;
  uint64_t log_time, offset;
} index_entry;

/* A chunk being filled (by the host) or written (by the thread). */
typedef struct chunk {
  buf records;
  index_entry *idx;
  size_t nidx, idx_cap;
  uint64_t start, end; /* log times of its messages */
} chunk;

typedef struct schema {
  char *name, *encoding, *data;
  size_t len;
  int written;
} schema;

typedef struct channel {
  uint16_t schema_id;
  char *topic, *encoding, *meta_key, *meta_value;
  int written;
  uint64_t count;        /* messages in the file */
} channel;

typedef struct chunk_index {
  uint64_t start_time, end_time, offset, length, index_length, compressed, uncompressed;
  uint16_t *idx_channels; /* channels with messages in the chunk, and ... */
  uint64_t *idx_offsets;  /* ... the file offsets of their message indexes */
  size_t nidx;
} chunk_index;

struct sensim__mcap {
  sensim_atomic_file *af;
  FILE *fp;
  int failed;
  uint64_t pos;               /* bytes written */
  uint64_t safe_pos;          /* bytes on disk up to the end of the last whole
                                 chunk and its message indexes (0: none yet) */
  char *path;                 /* final path, for the salvage's name */
  uint32_t data_crc;          /* running CRC of the data section */
  int summing_data;
  sensim__mcap_options o;
  ZSTD_CCtx *zc;
  chunk cur, out;             /* the host fills cur; the thread writes out */
  buf packed, rec, trec;      /* compressed records; one record (host, thread) */
  schema *schemas;
  size_t nschemas, schemas_cap;
  channel *channels;
  size_t nchannels, channels_cap;
  chunk_index *chunks;        /* the thread's, read by the host once it stopped */
  size_t nchunks, chunks_cap;
  uint64_t messages, start_time, end_time;
  /* the chunk writer thread */
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int threaded, busy, quit;   /* busy: out holds a chunk to write */
  sensim_status thread_status; /* the first failure of the thread */
  char thread_error[256];
};

/* ---- serialisation --------------------------------------------------- */

static inline int reserve(buf *b, size_t more) {
  if (b->len + more <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + more) cap *= 2;
  unsigned char *p = realloc(b->p, cap);
  if (!p) return 0;
  b->p = p;
  b->cap = cap;
  return 1;
}

/* Callers reserve first; these only store. */
static inline void put(buf *b, const void *d, size_t n) {
  if (n) memcpy(b->p + b->len, d, n);
  b->len += n;
}
static inline void put_u8(buf *b, uint8_t v) { put(b, &v, 1); }
static inline void put_u16(buf *b, uint16_t v) {
  unsigned char c[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
  put(b, c, 2);
}
static inline void put_u32(buf *b, uint32_t v) {
  unsigned char c[4];
  for (int i = 0; i < 4; i++) c[i] = (unsigned char)(v >> (8 * i));
  put(b, c, 4);
}
static inline void put_u64(buf *b, uint64_t v) {
  unsigned char c[8];
  for (int i = 0; i < 8; i++) c[i] = (unsigned char)(v >> (8 * i));
  put(b, c, 8);
}
static inline void put_str(buf *b, const char *s) {
  size_t n = strlen(s);
  put_u32(b, (uint32_t)n);
  put(b, s, n);
}
static inline void set_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Start a record in b: opcode and a length patched by end_record. */
static inline size_t begin_record(buf *b, uint8_t op) {
  put_u8(b, op);
  size_t at = b->len;
  put_u64(b, 0);
  return at;
}
static inline void end_record(buf *b, size_t at) { set_u64(b->p + at, (uint64_t)(b->len - at - 8)); }

sensim_status sensim__mcap_oom(void);
/* Write bytes to the file, summing them into the data section's CRC while
 * the data section is being written; sets m->failed on a short write. */
void sensim__mcap_emit(sensim__mcap *m, const void *d, size_t n);
/* Write a buffer and empty it; SENSIM_EIO once any write failed. */
sensim_status sensim__mcap_emit_buf(sensim__mcap *m, buf *b);
/* SENSIM_EIO naming the file and the write's errno (ENOSPC: "No space
 * left on device"). */
sensim_status sensim__mcap_write_error(const sensim__mcap *m);

/* The chunk writer (io/mcap_chunks.c). Start the thread (without one,
 * chunks are written by the caller); close the open chunk (handed to the
 * thread once the one before is written); wait until the thread holds no
 * chunk, taking over its failure; stop it. */
void sensim__mcap_start_thread(sensim__mcap *m);
sensim_status sensim__mcap_finish_chunk(sensim__mcap *m);
sensim_status sensim__mcap_wait_idle(sensim__mcap *m);
void sensim__mcap_stop_thread(sensim__mcap *m);

#endif
