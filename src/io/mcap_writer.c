/* io/mcap_writer.c: the MCAP container (io/mcap_writer.h).
 *
 * Layout written (spec "Multiple Messages with Chunk Indices"):
 *   magic, Header, { Chunk(Schema*, Channel*, Message*), MessageIndex* }*,
 *   DataEnd, Schema*, Channel*, Statistics, ChunkIndex*, SummaryOffset*,
 *   Footer, magic.
 * A chunk's records are built uncompressed in one buffer, which the
 * message records are copied into straight away; closed chunks are
 * compressed and written by io/mcap_chunks.c. */
#include "io/mcap_internal.h"

static const unsigned char magic[8] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};

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

/* ---- the public face (to the recorder) ----------------------------------- */

sensim_status sensim__mcap_open(const char *path, const sensim__mcap_options *o, sensim__mcap **out) {
  *out = NULL;
  sensim__mcap *m = calloc(1, sizeof *m);
  if (!m) return sensim__mcap_oom();
  m->o = *o;
  if (!(m->path = sensim__strdup(path)) || (m->o.compress && !(m->zc = ZSTD_createCCtx()))) {
    free(m->path);
    free(m);
    return sensim__mcap_oom();
  }
  sensim_status st = sensim_atomic_file_open(path, &m->af);
  if (st) {
    ZSTD_freeCCtx(m->zc);
    free(m->path);
    free(m);
    return st;
  }
  m->fp = sensim_atomic_file_stream(m->af);
  m->summing_data = 1;
  sensim__mcap_emit(m, magic, sizeof magic);
  if (!reserve(&m->rec, 64 + strlen(o->profile) + strlen(o->library))) {
    sensim__mcap_abort(m);
    return sensim__mcap_oom();
  }
  size_t at = begin_record(&m->rec, OP_HEADER);
  put_str(&m->rec, o->profile);
  put_str(&m->rec, o->library);
  end_record(&m->rec, at);
  if ((st = sensim__mcap_emit_buf(m, &m->rec))) {
    sensim__mcap_abort(m);
    return st;
  }
  sensim__mcap_start_thread(m);
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
    return sensim__mcap_oom();
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
    return sensim__mcap_oom();
  }
  m->channels[m->nchannels++] = c;
  *id = (uint16_t)m->nchannels;
  return SENSIM_OK;
}

sensim_status sensim__mcap_message(sensim__mcap *m, uint16_t id, uint64_t log_time,
                                   uint64_t publish_time, const void *data, size_t len) {
  if (!id || id > m->nchannels) return sensim__fail(SENSIM_EINVAL, "MCAP channel %u does not exist", id);
  channel *c = &m->channels[id - 1];
  chunk *k = &m->cur;
  if (sensim__grow((void **)&k->idx, &k->idx_cap, k->nidx + 1, sizeof *k->idx)) return SENSIM_ENOMEM;
  if (!c->written) {
    schema *s = c->schema_id ? &m->schemas[c->schema_id - 1] : NULL;
    if (!reserve(&k->records, (s && !s->written ? schema_size(s) : 0) + channel_size(c))) return sensim__mcap_oom();
    if (s && !s->written) {
      put_schema(&k->records, c->schema_id, s);
      s->written = 1;
    }
    put_channel(&k->records, id, c);
    c->written = 1;
  }
  if (!reserve(&k->records, 1 + 8 + 2 + 4 + 8 + 8 + len)) return sensim__mcap_oom();
  k->idx[k->nidx++] = (index_entry){id, log_time, k->records.len};
  put_u8(&k->records, OP_MESSAGE);
  put_u64(&k->records, 2 + 4 + 8 + 8 + (uint64_t)len);
  put_u16(&k->records, id);
  put_u32(&k->records, (uint32_t)c->count);
  put_u64(&k->records, log_time);
  put_u64(&k->records, publish_time);
  put(&k->records, data, len);
  c->count++;
  if (k->nidx == 1 || log_time < k->start) k->start = log_time;
  if (k->nidx == 1 || log_time > k->end) k->end = log_time;
  if (!m->messages || log_time < m->start_time) m->start_time = log_time;
  if (!m->messages || log_time > m->end_time) m->end_time = log_time;
  m->messages++;
  if (k->records.len >= m->o.chunk_size) return sensim__mcap_finish_chunk(m);
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
  return sensim__mcap_emit_buf(m, &m->rec);
}

static sensim_status write_summary(sensim__mcap *m) {
  sensim_status st = sensim__mcap_finish_chunk(m);
  if (!st) st = sensim__mcap_wait_idle(m);
  sensim__mcap_stop_thread(m);
  if (st) return st;
  m->rec.len = 0;
  if (!reserve(&m->rec, 16)) return sensim__mcap_oom();
  size_t at = begin_record(&m->rec, OP_DATA_END);
  put_u32(&m->rec, m->data_crc);
  end_record(&m->rec, at);
  if ((st = sensim__mcap_emit_buf(m, &m->rec))) return st;
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
      if (!reserve(r, schema_size(&m->schemas[i]))) return sensim__mcap_oom();
      put_schema(r, (uint16_t)(i + 1), &m->schemas[i]);
    }
  EMIT_GROUP(OP_SCHEMA);
  uint32_t nchan = 0;
  uint16_t nschema = 0;
  for (size_t i = 0; i < m->nschemas; i++) nschema += m->schemas[i].written != 0;
  for (size_t i = 0; i < m->nchannels; i++)
    if (m->channels[i].written) {
      if (!reserve(r, channel_size(&m->channels[i]))) return sensim__mcap_oom();
      put_channel(r, (uint16_t)(i + 1), &m->channels[i]);
      nchan++;
    }
  EMIT_GROUP(OP_CHANNEL);

  if (!reserve(r, 64 + 10 * (size_t)nchan)) return sensim__mcap_oom();
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
    if (!reserve(r, 1 + 8 + 8 * 6 + 4 + 10 * ci->nidx + 4 + 4 + 8)) return sensim__mcap_oom();
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
  if (!reserve(r, (size_t)ng * 26 + 64)) return sensim__mcap_oom();
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
  return sensim__mcap_emit_buf(m, &m->rec);
}

static void free_all(sensim__mcap *m) {
  sensim__mcap_stop_thread(m);
  ZSTD_freeCCtx(m->zc);
  free(m->path);
  free(m->cur.records.p);
  free(m->cur.idx);
  free(m->out.records.p);
  free(m->out.idx);
  free(m->packed.p);
  free(m->rec.p);
  free(m->trec.p);
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

static void drop_file(sensim__mcap *m);

sensim_status sensim__mcap_close(sensim__mcap *m) {
  if (!m) return SENSIM_OK;
  sensim_status st = write_summary(m);
  if (st) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sensim_last_error());
    drop_file(m);
    sensim__fail(st, "%s", msg);
  } else {
    st = sensim_atomic_file_commit(m->af);
  }
  free_all(m);
  return st;
}

/* "x.mcap" -> "x.partial.mcap"; any other name gets ".partial" appended. */
static char *partial_path(const char *path) {
  size_t n = strlen(path);
  int ext = n > 5 && strcmp(path + n - 5, ".mcap") == 0;
  char *p = malloc(n + 16);
  if (!p) return NULL;
  if (ext)
    snprintf(p, n + 16, "%.*s.partial.mcap", (int)(n - 5), path);
  else
    snprintf(p, n + 16, "%s.partial", path);
  return p;
}

char *sensim__mcap_partial_path(const char *path) { return partial_path(path); }

/* The file of a recording that is not completed: removed, or, when a
 * write failed after whole chunks reached the disk, kept under the
 * partial name. */
static void drop_file(sensim__mcap *m) {
  char *dest = m->failed && m->safe_pos ? partial_path(m->path) : NULL;
  if (dest) {
    /* A write failed (a full disk): keep the whole chunks as a readable
     * recording without a summary: a Data End record (CRC 0: not
     * computed) and a Footer with no summary, then the magic (MCAP spec,
     * "Footer": summary_start 0 means none). */
    unsigned char tail[13 + 29 + 8];
    buf b = {tail, 0, sizeof tail};
    size_t at = begin_record(&b, OP_DATA_END);
    put_u32(&b, 0);
    end_record(&b, at);
    at = begin_record(&b, OP_FOOTER);
    put_u64(&b, 0);
    put_u64(&b, 0);
    put_u32(&b, 0);
    end_record(&b, at);
    memcpy(b.p + b.len, magic, sizeof magic);
    b.len += sizeof magic;
    /* On failure nothing could be kept and the temporary file is gone;
     * the caller reports the write error either way. */
    (void)sensim__atomic_file_salvage(m->af, m->safe_pos, b.p, b.len, dest);
    m->af = NULL;
    free(dest);
  } else {
    sensim_atomic_file_abort(m->af);
  }
  m->af = NULL;
}

void sensim__mcap_abort(sensim__mcap *m) {
  if (!m) return;
  sensim__mcap_stop_thread(m); /* it may be writing to the file */
  drop_file(m);
  free_all(m);
}
