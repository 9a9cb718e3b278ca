/* io/mcap_writer.c: the MCAP container (io/mcap_writer.h).
 *
 * Layout written (spec "Multiple Messages with Chunk Indices"):
 *   magic, Header, { Chunk(Schema*, Channel*, Message*), MessageIndex* }*,
 *   DataEnd, Schema*, Channel*, Statistics, ChunkIndex*, SummaryOffset*,
 *   Footer, magic.
 * A chunk's records are built uncompressed in one buffer, which the
 * message records are copied into straight away, and compressed once when
 * the chunk closes, with a zstd context reused from chunk to chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "core/internal.h"
#include "io/mcap_writer.h"
#include "sensim/io.h"

enum {
  OP_HEADER = 0x01, OP_FOOTER = 0x02, OP_SCHEMA = 0x03, OP_CHANNEL = 0x04, OP_MESSAGE = 0x05,
  OP_CHUNK = 0x06, OP_MESSAGE_INDEX = 0x07, OP_CHUNK_INDEX = 0x08, OP_STATISTICS = 0x0B,
  OP_SUMMARY_OFFSET = 0x0E, OP_DATA_END = 0x0F
};

static const unsigned char magic[8] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};

/* A growable byte buffer. */
typedef struct buf {
  unsigned char *p;
  size_t len, cap;
} buf;

typedef struct index_entry {
  uint64_t log_time, offset;
} index_entry;

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
  index_entry *idx;      /* this chunk's messages */
  size_t nidx, idx_cap;
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
  uint32_t data_crc;          /* running CRC of the data section */
  int summing_data;
  sensim__mcap_options o;
  ZSTD_CCtx *zc;
  buf chunk, packed, rec;     /* open chunk, its compressed form, one record */
  uint64_t chunk_start, chunk_end;
  size_t chunk_messages;
  schema *schemas;
  size_t nschemas, schemas_cap;
  channel *channels;
  size_t nchannels, channels_cap;
  chunk_index *chunks;
  size_t nchunks, chunks_cap;
  uint64_t messages, start_time, end_time;
};

/* ---- serialisation --------------------------------------------------- */

static int reserve(buf *b, size_t more) {
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
static void put(buf *b, const void *d, size_t n) {
  if (n) memcpy(b->p + b->len, d, n);
  b->len += n;
}
static void put_u8(buf *b, uint8_t v) { put(b, &v, 1); }
static void put_u16(buf *b, uint16_t v) {
  unsigned char c[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
  put(b, c, 2);
}
static void put_u32(buf *b, uint32_t v) {
  unsigned char c[4];
  for (int i = 0; i < 4; i++) c[i] = (unsigned char)(v >> (8 * i));
  put(b, c, 4);
}
static void put_u64(buf *b, uint64_t v) {
  unsigned char c[8];
  for (int i = 0; i < 8; i++) c[i] = (unsigned char)(v >> (8 * i));
  put(b, c, 8);
}
static void put_str(buf *b, const char *s) {
  size_t n = strlen(s);
  put_u32(b, (uint32_t)n);
  put(b, s, n);
}
static void set_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Start a record in b: opcode and a length patched by end_record. */
static size_t begin_record(buf *b, uint8_t op) {
  put_u8(b, op);
  size_t at = b->len;
  put_u64(b, 0);
  return at;
}
static void end_record(buf *b, size_t at) { set_u64(b->p + at, (uint64_t)(b->len - at - 8)); }

static sensim_status oom(void) { return sensim__fail(SENSIM_ENOMEM, "out of memory writing an MCAP file"); }

/* Write bytes to the file, summing them into the data section's CRC while
 * the data section is being written. */
static void emit(sensim__mcap *m, const void *d, size_t n) {
  if (!n || m->failed) return;
  if (fwrite(d, 1, n, m->fp) != n) m->failed = 1;
  if (m->summing_data) m->data_crc = sensim__crc32(m->data_crc, d, n);
  m->pos += n;
}

static sensim_status emit_rec(sensim__mcap *m) {
  emit(m, m->rec.p, m->rec.len);
  m->rec.len = 0;
  return m->failed ? sensim__fail(SENSIM_EIO, "writing an MCAP file failed") : SENSIM_OK;
}

/* ---- records ------------------------------------------------------------ */

static size_t schema_size(const schema *s) {
  return 1 + 8 + 2 + 4 + strlen(s->name) + 4 + strlen(s->encoding) + 4 + s->len;
}
static void put_schema(buf *b, uint16_t id, const schema *s) {
  size_t at = begin_record(b, OP_SCHEMA);
  put_u16(b, id);
  put_str(b, s->name);
  put_str(b, s->encoding);
  put_u32(b, (uint32_t)s->len);
  put(b, s->data, s->len);
  end_record(b, at);
}

static size_t channel_size(const channel *c) {
  size_t meta = c->meta_key ? 8 + strlen(c->meta_key) + strlen(c->meta_value) : 0;
  return 1 + 8 + 2 + 2 + 4 + strlen(c->topic) + 4 + strlen(c->encoding) + 4 + meta;
}
static void put_channel(buf *b, uint16_t id, const channel *c) {
  size_t at = begin_record(b, OP_CHANNEL);
  put_u16(b, id);
  put_u16(b, c->schema_id);
  put_str(b, c->topic);
  put_str(b, c->encoding);
  if (c->meta_key) {
    put_u32(b, (uint32_t)(8 + strlen(c->meta_key) + strlen(c->meta_value)));
    put_str(b, c->meta_key);
    put_str(b, c->meta_value);
  } else {
    put_u32(b, 0);
  }
  end_record(b, at);
}

/* Compress (or not) the open chunk and write it with its message indexes. */
static sensim_status finish_chunk(sensim__mcap *m) {
  if (!m->chunk_messages) return SENSIM_OK;
  const uint32_t crc = sensim__crc32(0, m->chunk.p, m->chunk.len);
  const unsigned char *records = m->chunk.p;
  size_t records_len = m->chunk.len;
  const char *compression = m->o.compress ? "zstd" : "";
  if (m->o.compress) {
    size_t bound = ZSTD_compressBound(m->chunk.len);
    m->packed.len = 0;
    if (!reserve(&m->packed, bound)) return oom();
    size_t n = ZSTD_compressCCtx(m->zc, m->packed.p, bound, m->chunk.p, m->chunk.len, m->o.zstd_level);
    if (ZSTD_isError(n))
      return sensim__fail(SENSIM_EBACKEND, "zstd failed on an MCAP chunk: %s", ZSTD_getErrorName(n));
    records = m->packed.p;
    records_len = n;
  }
  if (sensim__grow((void **)&m->chunks, &m->chunks_cap, m->nchunks + 1, sizeof *m->chunks))
    return SENSIM_ENOMEM;
  chunk_index *ci = &m->chunks[m->nchunks];
  memset(ci, 0, sizeof *ci);
  size_t with_idx = 0;
  for (size_t i = 0; i < m->nchannels; i++) with_idx += m->channels[i].nidx > 0;
  ci->idx_channels = malloc(with_idx * sizeof *ci->idx_channels + 1);
  ci->idx_offsets = malloc(with_idx * sizeof *ci->idx_offsets + 1);
  if (!ci->idx_channels || !ci->idx_offsets) {
    free(ci->idx_channels);
    free(ci->idx_offsets);
    return oom();
  }
  m->nchunks++;
  ci->start_time = m->chunk_start;
  ci->end_time = m->chunk_end;
  ci->offset = m->pos;
  ci->compressed = records_len;
  ci->uncompressed = m->chunk.len;

  /* The chunk's fixed fields, then its records straight from the buffer. */
  m->rec.len = 0;
  if (!reserve(&m->rec, 64)) return oom();
  size_t body = 8 + 8 + 8 + 4 + 4 + strlen(compression) + 8 + records_len;
  put_u8(&m->rec, OP_CHUNK);
  put_u64(&m->rec, body);
  put_u64(&m->rec, m->chunk_start);
  put_u64(&m->rec, m->chunk_end);
  put_u64(&m->rec, m->chunk.len);
  put_u32(&m->rec, crc);
  put_str(&m->rec, compression);
  put_u64(&m->rec, records_len);
  emit(m, m->rec.p, m->rec.len);
  emit(m, records, records_len);
  m->rec.len = 0;
  ci->length = 1 + 8 + body;

  const uint64_t idx_start = m->pos;
  for (size_t i = 0; i < m->nchannels; i++) {
    channel *c = &m->channels[i];
    if (!c->nidx) continue;
    ci->idx_channels[ci->nidx] = (uint16_t)(i + 1);
    ci->idx_offsets[ci->nidx++] = m->pos;
    if (!reserve(&m->rec, 1 + 8 + 2 + 4 + 16 * c->nidx)) return oom();
    size_t at = begin_record(&m->rec, OP_MESSAGE_INDEX);
    put_u16(&m->rec, (uint16_t)(i + 1));
    put_u32(&m->rec, (uint32_t)(16 * c->nidx));
    for (size_t k = 0; k < c->nidx; k++) {
      put_u64(&m->rec, c->idx[k].log_time);
      put_u64(&m->rec, c->idx[k].offset);
    }
    end_record(&m->rec, at);
    c->nidx = 0;
    sensim_status st = emit_rec(m);
    if (st) return st;
  }
  ci->index_length = m->pos - idx_start;
  m->chunk.len = 0;
  m->chunk_messages = 0;
  return m->failed ? sensim__fail(SENSIM_EIO, "writing an MCAP file failed") : SENSIM_OK;
}

/* ---- the public face (to the recorder) ----------------------------------- */

sensim_status sensim__mcap_open(const char *path, const sensim__mcap_options *o, sensim__mcap **out) {
  *out = NULL;
  sensim__mcap *m = calloc(1, sizeof *m);
  if (!m) return oom();
  m->o = *o;
  if (m->o.compress && !(m->zc = ZSTD_createCCtx())) {
    free(m);
    return oom();
  }
  sensim_status st = sensim_atomic_file_open(path, &m->af);
  if (st) {
    ZSTD_freeCCtx(m->zc);
    free(m);
    return st;
  }
  m->fp = sensim_atomic_file_stream(m->af);
  m->summing_data = 1;
  emit(m, magic, sizeof magic);
  if (!reserve(&m->rec, 64 + strlen(o->profile) + strlen(o->library))) {
    sensim__mcap_abort(m);
    return oom();
  }
  size_t at = begin_record(&m->rec, OP_HEADER);
  put_str(&m->rec, o->profile);
  put_str(&m->rec, o->library);
  end_record(&m->rec, at);
  if ((st = emit_rec(m))) {
    sensim__mcap_abort(m);
    return st;
  }
  *out = m;
  return SENSIM_OK;
}

sensim_status sensim__mcap_schema(sensim__mcap *m, const char *name, const char *encoding,
                                  const char *data, size_t len, uint16_t *id) {
  if (m->nschemas >= 65535) return sensim__fail(SENSIM_EINVAL, "an MCAP file holds at most 65535 schemas");
  if (sensim__grow((void **)&m->schemas, &m->schemas_cap, m->nschemas + 1, sizeof *m->schemas))
    return SENSIM_ENOMEM;
  schema s = {sensim__strdup(name), sensim__strdup(encoding), malloc(len + 1), len, 0};
  if (!s.name || !s.encoding || !s.data) {
    free(s.name);
    free(s.encoding);
    free(s.data);
    return oom();
  }
  memcpy(s.data, data, len);
  m->schemas[m->nschemas++] = s;
  *id = (uint16_t)m->nschemas;
  return SENSIM_OK;
}

sensim_status sensim__mcap_channel(sensim__mcap *m, uint16_t schema_id, const char *topic,
                                   const char *message_encoding, const char *meta_key,
                                   const char *meta_value, uint16_t *id) {
  if (m->nchannels >= 65535) return sensim__fail(SENSIM_EINVAL, "an MCAP file holds at most 65535 channels");
  if (sensim__grow((void **)&m->channels, &m->channels_cap, m->nchannels + 1, sizeof *m->channels))
    return SENSIM_ENOMEM;
  channel c = {0};
  c.schema_id = schema_id;
  c.topic = sensim__strdup(topic);
  c.encoding = sensim__strdup(message_encoding);
  if (meta_key) {
    c.meta_key = sensim__strdup(meta_key);
    c.meta_value = sensim__strdup(meta_value ? meta_value : "");
  }
  if (!c.topic || !c.encoding || (meta_key && (!c.meta_key || !c.meta_value))) {
    free(c.topic);
    free(c.encoding);
    free(c.meta_key);
    free(c.meta_value);
    return oom();
  }
  m->channels[m->nchannels++] = c;
  *id = (uint16_t)m->nchannels;
  return SENSIM_OK;
}

sensim_status sensim__mcap_message(sensim__mcap *m, uint16_t id, uint64_t log_time,
                                   uint64_t publish_time, const void *data, size_t len) {
  if (!id || id > m->nchannels) return sensim__fail(SENSIM_EINVAL, "MCAP channel %u does not exist", id);
  channel *c = &m->channels[id - 1];
  if (sensim__grow((void **)&c->idx, &c->idx_cap, c->nidx + 1, sizeof *c->idx)) return SENSIM_ENOMEM;
  if (!c->written) {
    schema *s = c->schema_id ? &m->schemas[c->schema_id - 1] : NULL;
    if (!reserve(&m->chunk, (s && !s->written ? schema_size(s) : 0) + channel_size(c))) return oom();
    if (s && !s->written) {
      put_schema(&m->chunk, c->schema_id, s);
      s->written = 1;
    }
    put_channel(&m->chunk, id, c);
    c->written = 1;
  }
  if (!reserve(&m->chunk, 1 + 8 + 2 + 4 + 8 + 8 + len)) return oom();
  c->idx[c->nidx].log_time = log_time;
  c->idx[c->nidx++].offset = m->chunk.len;
  put_u8(&m->chunk, OP_MESSAGE);
  put_u64(&m->chunk, 2 + 4 + 8 + 8 + (uint64_t)len);
  put_u16(&m->chunk, id);
  put_u32(&m->chunk, (uint32_t)c->count);
  put_u64(&m->chunk, log_time);
  put_u64(&m->chunk, publish_time);
  put(&m->chunk, data, len);
  c->count++;
  if (!m->chunk_messages || log_time < m->chunk_start) m->chunk_start = log_time;
  if (!m->chunk_messages || log_time > m->chunk_end) m->chunk_end = log_time;
  if (!m->messages || log_time < m->start_time) m->start_time = log_time;
  if (!m->messages || log_time > m->end_time) m->end_time = log_time;
  m->chunk_messages++;
  m->messages++;
  if (m->chunk.len >= m->o.chunk_size) return finish_chunk(m);
  return SENSIM_OK;
}

/* Write the group of records that rec holds as one summary group, noting
 * where it went for its summary offset. */
typedef struct group {
  uint8_t op;
  uint64_t start, length;
} group;

static sensim_status emit_group(sensim__mcap *m, uint8_t op, group *g, int *ng) {
  if (!m->rec.len) return SENSIM_OK;
  g[*ng].op = op;
  g[*ng].start = m->pos;
  g[*ng].length = m->rec.len;
  (*ng)++;
  return emit_rec(m);
}

static sensim_status write_summary(sensim__mcap *m) {
  sensim_status st = finish_chunk(m);
  if (st) return st;
  m->rec.len = 0;
  if (!reserve(&m->rec, 16)) return oom();
  size_t at = begin_record(&m->rec, OP_DATA_END);
  put_u32(&m->rec, m->data_crc);
  end_record(&m->rec, at);
  if ((st = emit_rec(m))) return st;
  m->summing_data = 0;

  /* Everything from here to the footer's summary_offset_start is summed
   * into the summary CRC: the summary is built in memory and summed as it
   * is written. */
  const uint64_t summary_start = m->pos;
  uint32_t scrc = 0;
  group g[8];
  int ng = 0;
  buf *r = &m->rec;
#define EMIT_GROUP(op)                                   \
  do {                                                   \
    scrc = sensim__crc32(scrc, r->p, r->len);            \
    if ((st = emit_group(m, (op), g, &ng))) return st;   \
  } while (0)

  for (size_t i = 0; i < m->nschemas; i++)
    if (m->schemas[i].written) {
      if (!reserve(r, schema_size(&m->schemas[i]))) return oom();
      put_schema(r, (uint16_t)(i + 1), &m->schemas[i]);
    }
  EMIT_GROUP(OP_SCHEMA);
  uint32_t nchan = 0;
  uint16_t nschema = 0;
  for (size_t i = 0; i < m->nschemas; i++) nschema += m->schemas[i].written != 0;
  for (size_t i = 0; i < m->nchannels; i++)
    if (m->channels[i].written) {
      if (!reserve(r, channel_size(&m->channels[i]))) return oom();
      put_channel(r, (uint16_t)(i + 1), &m->channels[i]);
      nchan++;
    }
  EMIT_GROUP(OP_CHANNEL);

  if (!reserve(r, 64 + 10 * (size_t)nchan)) return oom();
  at = begin_record(r, OP_STATISTICS);
  put_u64(r, m->messages);
  put_u16(r, nschema);
  put_u32(r, nchan);
  put_u32(r, 0); /* attachments */
  put_u32(r, 0); /* metadata */
  put_u32(r, (uint32_t)m->nchunks);
  put_u64(r, m->messages ? m->start_time : 0);
  put_u64(r, m->messages ? m->end_time : 0);
  put_u32(r, 10 * nchan);
  for (size_t i = 0; i < m->nchannels; i++)
    if (m->channels[i].written) {
      put_u16(r, (uint16_t)(i + 1));
      put_u64(r, m->channels[i].count);
    }
  end_record(r, at);
  EMIT_GROUP(OP_STATISTICS);

  for (size_t i = 0; i < m->nchunks; i++) {
    const chunk_index *ci = &m->chunks[i];
    if (!reserve(r, 1 + 8 + 8 * 6 + 4 + 10 * ci->nidx + 4 + 4 + 8)) return oom();
    at = begin_record(r, OP_CHUNK_INDEX);
    put_u64(r, ci->start_time);
    put_u64(r, ci->end_time);
    put_u64(r, ci->offset);
    put_u64(r, ci->length);
    put_u32(r, (uint32_t)(10 * ci->nidx));
    for (size_t k = 0; k < ci->nidx; k++) {
      put_u16(r, ci->idx_channels[k]);
      put_u64(r, ci->idx_offsets[k]);
    }
    put_u64(r, ci->index_length);
    put_str(r, m->o.compress ? "zstd" : "");
    put_u64(r, ci->compressed);
    put_u64(r, ci->uncompressed);
    end_record(r, at);
  }
  EMIT_GROUP(OP_CHUNK_INDEX);
#undef EMIT_GROUP

  const uint64_t summary_offset_start = m->pos;
  const int has_summary = summary_offset_start > summary_start;
  if (!reserve(r, (size_t)ng * 26 + 64)) return oom();
  for (int i = 0; i < ng; i++) {
    at = begin_record(r, OP_SUMMARY_OFFSET);
    put_u8(r, g[i].op);
    put_u64(r, g[i].start);
    put_u64(r, g[i].length);
    end_record(r, at);
  }
  put_u8(r, OP_FOOTER);
  put_u64(r, 8 + 8 + 4);
  put_u64(r, has_summary ? summary_start : 0);
  put_u64(r, ng ? summary_offset_start : 0);
  scrc = sensim__crc32(scrc, r->p, r->len);
  put_u32(r, scrc);
  put(r, magic, sizeof magic);
  return emit_rec(m);
}

static void free_all(sensim__mcap *m) {
  ZSTD_freeCCtx(m->zc);
  free(m->chunk.p);
  free(m->packed.p);
  free(m->rec.p);
  for (size_t i = 0; i < m->nschemas; i++) {
    free(m->schemas[i].name);
    free(m->schemas[i].encoding);
    free(m->schemas[i].data);
  }
  for (size_t i = 0; i < m->nchannels; i++) {
    channel *c = &m->channels[i];
    free(c->topic);
    free(c->encoding);
    free(c->meta_key);
    free(c->meta_value);
    free(c->idx);
  }
  for (size_t i = 0; i < m->nchunks; i++) {
    free(m->chunks[i].idx_channels);
    free(m->chunks[i].idx_offsets);
  }
  free(m->schemas);
  free(m->channels);
  free(m->chunks);
  free(m);
}

sensim_status sensim__mcap_close(sensim__mcap *m) {
  if (!m) return SENSIM_OK;
  sensim_status st = write_summary(m);
  if (st) {
    sensim_atomic_file_abort(m->af);
  } else {
    st = sensim_atomic_file_commit(m->af);
  }
  free_all(m);
  return st;
}

void sensim__mcap_abort(sensim__mcap *m) {
  if (!m) return;
  sensim_atomic_file_abort(m->af);
  free_all(m);
}
