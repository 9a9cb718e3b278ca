/* io/mcap_chunks.c: the MCAP writer's chunks (io/mcap_internal.h).
 *
 * A closed chunk goes to the writer's own thread, which checksums it,
 * compresses it once (a zstd context reused from chunk to chunk) and
 * writes it with its message indexes while the host fills the next one:
 * compression, the costliest part of recording, leaves the host's
 * dynamics loop. The bytes are the same as without the thread, which is
 * used only when it cannot be started. */
#include "io/mcap_internal.h"

sensim_status sensim__mcap_oom(void) { return sensim__fail(SENSIM_ENOMEM, "out of memory writing an MCAP file"); }

void sensim__mcap_emit(sensim__mcap *m, const void *d, size_t n) {
  if (!n || m->failed) return;
  if (fwrite(d, 1, n, m->fp) != n) m->failed = 1;
  if (m->summing_data) m->data_crc = sensim__crc32(m->data_crc, d, n);
  m->pos += n;
}

sensim_status sensim__mcap_write_error(const sensim__mcap *m) {
  int e = sensim__atomic_file_errno(m->af);
  return sensim__fail(SENSIM_EIO, "writing the MCAP file '%s' failed: %s", m->path, e ? strerror(e) : "write error");
}

sensim_status sensim__mcap_emit_buf(sensim__mcap *m, buf *b) {
  sensim__mcap_emit(m, b->p, b->len);
  b->len = 0;
  return m->failed ? sensim__mcap_write_error(m) : SENSIM_OK;
}

static int by_channel(const void *pa, const void *pb) {
  const index_entry *a = pa, *b = pb;
  if (a->channel != b->channel) return a->channel < b->channel ? -1 : 1;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Checksum, compress (or not) and write a chunk with its message indexes,
 * one per channel in channel order; note it for the chunk indexes. Runs on
 * the writer thread (or the host without one), touching only the file,
 * the chunk indexes and its own buffers. */
static sensim_status write_chunk(sensim__mcap *m, chunk *k) {
  const uint32_t crc = sensim__crc32(0, k->records.p, k->records.len);
  const unsigned char *records = k->records.p;
  size_t records_len = k->records.len;
  const char *compression = m->o.compress ? "zstd" : "";
  if (m->o.compress) {
    size_t bound = ZSTD_compressBound(k->records.len);
    m->packed.len = 0;
    if (!reserve(&m->packed, bound)) return sensim__mcap_oom();
    size_t n = ZSTD_compressCCtx(m->zc, m->packed.p, bound, k->records.p, k->records.len, m->o.zstd_level);
    if (ZSTD_isError(n))
      return sensim__fail(SENSIM_EBACKEND, "zstd failed on an MCAP chunk: %s", ZSTD_getErrorName(n));
    records = m->packed.p;
    records_len = n;
  }
  if (k->nidx > 1) qsort(k->idx, k->nidx, sizeof *k->idx, by_channel);
  size_t nchan = 0;
  for (size_t i = 0; i < k->nidx; i++) nchan += !i || k->idx[i].channel != k->idx[i - 1].channel;
  if (sensim__grow((void **)&m->chunks, &m->chunks_cap, m->nchunks + 1, sizeof *m->chunks))
    return SENSIM_ENOMEM;
  chunk_index *ci = &m->chunks[m->nchunks];
  memset(ci, 0, sizeof *ci);
  ci->idx_channels = malloc(nchan * sizeof *ci->idx_channels + 1);
  ci->idx_offsets = malloc(nchan * sizeof *ci->idx_offsets + 1);
  if (!ci->idx_channels || !ci->idx_offsets) {
    free(ci->idx_channels);
    free(ci->idx_offsets);
    return sensim__mcap_oom();
  }
  m->nchunks++;
  ci->start_time = k->start;
  ci->end_time = k->end;
  ci->offset = m->pos;
  ci->compressed = records_len;
  ci->uncompressed = k->records.len;

  /* The chunk's fixed fields, then its records straight from the buffer. */
  buf *r = &m->trec;
  r->len = 0;
  if (!reserve(r, 64)) return sensim__mcap_oom();
  size_t body = 8 + 8 + 8 + 4 + 4 + strlen(compression) + 8 + records_len;
  put_u8(r, OP_CHUNK);
  put_u64(r, body);
  put_u64(r, k->start);
  put_u64(r, k->end);
  put_u64(r, k->records.len);
  put_u32(r, crc);
  put_str(r, compression);
  put_u64(r, records_len);
  sensim__mcap_emit(m, r->p, r->len);
  sensim__mcap_emit(m, records, records_len);
  r->len = 0;
  ci->length = 1 + 8 + body;

  const uint64_t idx_start = m->pos;
  for (size_t i = 0; i < k->nidx;) {
    size_t j = i;
    while (j < k->nidx && k->idx[j].channel == k->idx[i].channel) j++;
    ci->idx_channels[ci->nidx] = k->idx[i].channel;
    ci->idx_offsets[ci->nidx++] = m->pos;
    if (!reserve(r, 1 + 8 + 2 + 4 + 16 * (j - i))) return sensim__mcap_oom();
    size_t at = begin_record(r, OP_MESSAGE_INDEX);
    put_u16(r, k->idx[i].channel);
    put_u32(r, (uint32_t)(16 * (j - i)));
    for (size_t q = i; q < j; q++) {
      put_u64(r, k->idx[q].log_time);
      put_u64(r, k->idx[q].offset);
    }
    end_record(r, at);
    sensim_status st = sensim__mcap_emit_buf(m, r);
    if (st) return st;
    i = j;
  }
  ci->index_length = m->pos - idx_start;
  k->records.len = 0;
  k->nidx = 0;
  /* A whole chunk with its indexes is on disk: what a salvage after a
   * later failure keeps (one flush per chunk of megabytes). */
  if (!m->failed && fflush(m->fp) != 0) m->failed = 1;
  if (m->failed) return sensim__mcap_write_error(m);
  m->safe_pos = m->pos;
  return SENSIM_OK;
}

static void *chunk_thread(void *arg) {
  sensim__mcap *m = arg;
  pthread_mutex_lock(&m->mu);
  for (;;) {
    while (!m->busy && !m->quit) pthread_cond_wait(&m->cv, &m->mu);
    if (!m->busy) break;
    pthread_mutex_unlock(&m->mu);
    sensim_status st = m->thread_status ? m->thread_status : write_chunk(m, &m->out);
    pthread_mutex_lock(&m->mu);
    if (st && !m->thread_status) {
      m->thread_status = st;
      snprintf(m->thread_error, sizeof m->thread_error, "%s", sensim_last_error());
    }
    m->out.records.len = 0;
    m->out.nidx = 0;
    m->busy = 0;
    pthread_cond_broadcast(&m->cv);
  }
  pthread_mutex_unlock(&m->mu);
  return NULL;
}

/* Wait until the thread has written the chunk it holds; its failure, if
 * any, becomes the caller's. */
sensim_status sensim__mcap_wait_idle(sensim__mcap *m) {
  if (!m->threaded) return SENSIM_OK;
  pthread_mutex_lock(&m->mu);
  while (m->busy) pthread_cond_wait(&m->cv, &m->mu);
  sensim_status st = m->thread_status;
  pthread_mutex_unlock(&m->mu);
  return st ? sensim__fail(st, "%s", m->thread_error) : SENSIM_OK;
}

void sensim__mcap_stop_thread(sensim__mcap *m) {
  if (!m->threaded) return;
  pthread_mutex_lock(&m->mu);
  m->quit = 1;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->mu);
  pthread_join(m->thread, NULL);
  pthread_mutex_destroy(&m->mu);
  pthread_cond_destroy(&m->cv);
  m->threaded = 0;
}

/* Close the open chunk: hand it to the thread (once the one before is
 * written), or write it here without a thread. */
sensim_status sensim__mcap_finish_chunk(sensim__mcap *m) {
  if (!m->cur.nidx) return SENSIM_OK;
  if (!m->threaded) return write_chunk(m, &m->cur);
  sensim_status st = sensim__mcap_wait_idle(m);
  if (st) return st;
  pthread_mutex_lock(&m->mu);
  chunk t = m->out;
  m->out = m->cur;
  m->cur = t;
  m->busy = 1;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->mu);
  return SENSIM_OK;
}

void sensim__mcap_start_thread(sensim__mcap *m) {
  if (pthread_mutex_init(&m->mu, NULL) != 0) return;
  if (pthread_cond_init(&m->cv, NULL) != 0) {
    pthread_mutex_destroy(&m->mu);
    return;
  }
  if (pthread_create(&m->thread, NULL, chunk_thread, m) != 0) {
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
    return;
  }
  m->threaded = 1;
}
