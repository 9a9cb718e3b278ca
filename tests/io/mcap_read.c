/* tests/io/mcap_read.c: an MCAP reader and a CDR reader written from the
 * MCAP specification (mcap.dev/spec) and the OMG CDR alignment rule alone,
 * for the recording tests (record_tests.c, record_ros_tests.c): it walks
 * the records from magic to magic, checks every length, CRC and offset
 * the file states against the bytes, decompresses the chunks and checks
 * the message indexes and the summary against the messages it found. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "io/mcap_writer.h" /* sensim__crc32, checked against known values in record_tests.c */
#include "io/mcap_read.h"

static const unsigned char MAGIC[8] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};

/* A length-prefixed string at *p into out; advances *p. */
static void rdstr(const unsigned char **p, char *out, size_t cap) {
  uint32_t n = rd32(*p);
  assert_true(n < cap);
  memcpy(out, *p + 4, n);
  out[n] = '\0';
  *p += 4 + n;
}

/* The records inside a decompressed chunk: schemas, channels, messages. */
static void read_chunk_records(mcap_file *mf, const unsigned char *d, size_t n) {
  size_t at = 0;
  while (at < n) {
    assert_true(at + 9 <= n);
    uint8_t op = d[at];
    uint64_t len = rd64(d + at + 1);
    assert_true(at + 9 + len <= n);
    const unsigned char *b = d + at + 9;
    if (op == 0x03) {
      uint16_t id = rd16(b);
      assert_true(id > 0 && id < 16);
      const unsigned char *p = b + 2;
      rdstr(&p, mf->schema_names[id], sizeof mf->schema_names[id]);
      char enc[32];
      rdstr(&p, enc, sizeof enc);
      assert_string_equal(enc, "ros2msg");
      rdstr(&p, mf->schema_text[id], sizeof mf->schema_text[id]);
    } else if (op == 0x04) {
      uint16_t id = rd16(b);
      assert_true(id > 0 && id < 64);
      uint16_t schema = rd16(b + 2);
      const unsigned char *p = b + 4;
      rdstr(&p, mf->chan[id].topic, sizeof mf->chan[id].topic);
      char enc[32];
      rdstr(&p, enc, sizeof enc);
      assert_string_equal(enc, "cdr");
      assert_true(schema > 0 && schema < 16 && mf->schema_names[schema][0]); /* schema first */
      strcpy(mf->chan[id].schema_name, mf->schema_names[schema]);
    } else if (op == 0x05) {
      rmsg m;
      m.channel = rd16(b);
      assert_true(m.channel < 64 && mf->chan[m.channel].topic[0]); /* channel first */
      m.sequence = rd32(b + 2);
      m.log_time = rd64(b + 6);
      m.publish_time = rd64(b + 14);
      m.len = len - 22;
      m.data = malloc(m.len + 1);
      memcpy(m.data, b + 22, m.len);
      mf->msgs = realloc(mf->msgs, (mf->nmsgs + 1) * sizeof *mf->msgs);
      mf->msgs[mf->nmsgs++] = m;
      mf->chan[m.channel].count++;
    } else {
      fail_msg("record 0x%02x inside a chunk", op);
    }
    at += 9 + len;
  }
}

/* Read and check a whole file; every property the spec states about the
 * bytes is asserted here. */
void read_mcap(const char *path, mcap_file *mf) {
  memset(mf, 0, sizeof *mf);
  size_t n;
  unsigned char *f = (unsigned char *)test_slurp(path, &n);
  assert_true(n >= 8 + 9 + 8 + 20 + 8);
  assert_memory_equal(f, MAGIC, 8);
  assert_memory_equal(f + n - 8, MAGIC, 8);

  /* Footer: the last record before the magic. */
  const unsigned char *ft = f + n - 8 - 29;
  assert_int_equal(ft[0], 0x02);
  assert_int_equal(rd64(ft + 1), 20);
  uint64_t summary_start = rd64(ft + 9), summary_offset_start = rd64(ft + 17);
  uint32_t summary_crc = rd32(ft + 25);
  assert_true(summary_start > 0 && summary_start < n);
  assert_true(summary_offset_start > summary_start && summary_offset_start < n);
  assert_int_equal(summary_crc, sensim__crc32(0, f + summary_start, (size_t)(ft + 25 - (f + summary_start))));

  /* The records chain from the header to the footer. */
  size_t at = 8, data_end = 0;
  int first = 1;
  unsigned char *chunk = NULL; /* the last chunk, decompressed */
  size_t chunk_len = 0, chunk_msg0 = 0;
  uint64_t chunk_offsets[256];
  uint64_t index_offsets[1024];
  size_t nindex = 0;
  for (;;) {
    assert_true(at + 9 <= n - 8);
    uint8_t op = f[at];
    uint64_t len = rd64(f + at + 1);
    assert_true(at + 9 + len <= n - 8);
    const unsigned char *b = f + at + 9;
    if (first) {
      assert_int_equal(op, 0x01);
      const unsigned char *p = b;
      char profile[32], library[64];
      rdstr(&p, profile, sizeof profile);
      rdstr(&p, library, sizeof library);
      assert_string_equal(profile, "ros2");
      first = 0;
    } else if (op == 0x06) {
      assert_true(mf->nchunks < 256);
      chunk_offsets[mf->nchunks++] = at;
      uint64_t start = rd64(b), end = rd64(b + 8), usize = rd64(b + 16);
      uint32_t ucrc = rd32(b + 24);
      const unsigned char *p = b + 28;
      char comp[16];
      rdstr(&p, comp, sizeof comp);
      uint64_t rlen = rd64(p);
      p += 8;
      assert_true(p + rlen == b + len);
      free(chunk);
      chunk = malloc(usize + 1);
      if (!strcmp(comp, "zstd")) {
        size_t got = ZSTD_decompress(chunk, usize, p, rlen);
        assert_false(ZSTD_isError(got));
        assert_int_equal(got, usize);
      } else {
        assert_string_equal(comp, "");
        assert_int_equal(rlen, usize);
        memcpy(chunk, p, usize);
      }
      assert_int_equal(ucrc, sensim__crc32(0, chunk, usize));
      chunk_len = usize;
      chunk_msg0 = mf->nmsgs;
      read_chunk_records(mf, chunk, usize);
      for (size_t i = chunk_msg0; i < mf->nmsgs; i++)
        assert_true(mf->msgs[i].log_time >= start && mf->msgs[i].log_time <= end);
    } else if (op == 0x07) {
      /* Each entry points at a message of this channel with that log time. */
      assert_true(nindex < 1024);
      index_offsets[nindex++] = at;
      uint16_t ch = rd16(b);
      uint32_t bytes = rd32(b + 2);
      assert_int_equal(bytes % 16, 0);
      assert_int_equal(6 + bytes, len);
      assert_non_null(chunk);
      for (uint32_t k = 0; k < bytes / 16; k++) {
        uint64_t t = rd64(b + 6 + 16 * k), off = rd64(b + 14 + 16 * k);
        assert_true(off + 9 + 22 <= chunk_len);
        assert_int_equal(chunk[off], 0x05);
        assert_int_equal(rd16(chunk + off + 9), ch);
        assert_int_equal(rd64(chunk + off + 9 + 6), t);
      }
    } else if (op == 0x0F) {
      assert_int_equal(len, 4);
      assert_int_equal(rd32(b), sensim__crc32(0, f, at));
      data_end = at;
      at += 9 + len;
      break;
    } else {
      fail_msg("record 0x%02x in the data section", op);
    }
    at += 9 + len;
  }
  assert_int_equal(summary_start, at); /* the summary follows the data end */
  (void)data_end;

  /* Summary: schemas, channels, statistics, chunk indexes, then offsets. */
  int saw_stats = 0;
  size_t nci = 0;
  while (at < (size_t)(ft - f)) {
    uint8_t op = f[at];
    uint64_t len = rd64(f + at + 1);
    const unsigned char *b = f + at + 9;
    assert_true(at + 9 + len <= (size_t)(ft - f));
    if (at < summary_offset_start) {
      assert_true(op == 0x03 || op == 0x04 || op == 0x0B || op == 0x08);
    } else {
      assert_int_equal(op, 0x0E);
      uint64_t gs = rd64(b + 1), gl = rd64(b + 9);
      assert_true(gs >= summary_start && gs + gl <= summary_offset_start);
      assert_int_equal(f[gs], b[0]);
    }
    if (op == 0x0B) {
      saw_stats = 1;
      mf->stat_messages = rd64(b);
      mf->stat_channels = rd32(b + 10);
      mf->stat_chunks = rd32(b + 22);
      assert_int_equal(rd64(b + 26), mf->nmsgs ? mf->msgs[0].log_time : 0);
      uint32_t mb = rd32(b + 42);
      for (uint32_t k = 0; k < mb / 10; k++) {
        uint16_t ch = rd16(b + 46 + 10 * k);
        assert_true(ch < 64);
        mf->stat_counts[ch] = rd64(b + 48 + 10 * k);
      }
    } else if (op == 0x08) {
      assert_true(nci < mf->nchunks);
      uint64_t off = rd64(b + 16), clen = rd64(b + 24);
      assert_int_equal(off, chunk_offsets[nci]);
      assert_int_equal(f[off], 0x06);
      assert_int_equal(clen, 9 + rd64(f + off + 1));
      uint32_t mb = rd32(b + 32);
      for (uint32_t k = 0; k < mb / 10; k++) {
        uint64_t io = rd64(b + 36 + 10 * k + 2);
        assert_int_equal(f[io], 0x07);
        assert_int_equal(rd16(f + io + 9), rd16(b + 36 + 10 * k));
        int known = 0;
        for (size_t q = 0; q < nindex; q++) known |= index_offsets[q] == io;
        assert_true(known);
      }
      nci++;
    }
    at += 9 + len;
  }
  assert_int_equal(at, (size_t)(ft - f));
  assert_true(saw_stats);
  assert_int_equal(nci, mf->nchunks);
  assert_int_equal(mf->stat_messages, mf->nmsgs);
  assert_int_equal(mf->stat_chunks, mf->nchunks);
  uint32_t nch = 0;
  for (int c = 0; c < 64; c++) {
    nch += mf->chan[c].topic[0] != 0;
    assert_int_equal(mf->stat_counts[c], mf->chan[c].count);
  }
  assert_int_equal(mf->stat_channels, nch);
  /* Messages in log-time order; sequences count per channel. */
  uint64_t seq[64] = {0};
  for (size_t i = 0; i < mf->nmsgs; i++) {
    if (i) assert_true(mf->msgs[i].log_time >= mf->msgs[i - 1].log_time);
    assert_int_equal(mf->msgs[i].sequence, seq[mf->msgs[i].channel]++);
    assert_int_equal(mf->msgs[i].publish_time, mf->msgs[i].log_time);
  }
  free(chunk);
  free(f);
}

void free_mcap(mcap_file *mf) {
  for (size_t i = 0; i < mf->nmsgs; i++) free(mf->msgs[i].data);
  free(mf->msgs);
}

const char *topic_of(const mcap_file *mf, const rmsg *m) { return mf->chan[m->channel].topic; }

/* The k-th message on `topic`, or NULL. */
const rmsg *nth(const mcap_file *mf, const char *topic, size_t k) {
  for (size_t i = 0; i < mf->nmsgs; i++)
    if (!strcmp(topic_of(mf, &mf->msgs[i]), topic) && k-- == 0) return &mf->msgs[i];
  return NULL;
}

size_t count_topic(const mcap_file *mf, const char *topic) {
  size_t c = 0;
  while (nth(mf, topic, c)) c++;
  return c;
}

/* ---- a CDR reader: offsets from the end of the encapsulation header -- */

cdr_in cdr_open(const rmsg *m) {
  assert_true(m->len >= 4);
  assert_int_equal(m->data[0], 0x00);
  assert_int_equal(m->data[1], 0x01); /* CDR_LE */
  return (cdr_in){m->data, m->len, 4};
}
const unsigned char *cdr_take(cdr_in *c, size_t n, size_t align) {
  size_t rel = c->at - 4;
  c->at += (align - rel % align) % align;
  assert_true(c->at + n <= c->len);
  const unsigned char *p = c->p + c->at;
  c->at += n;
  return p;
}
uint32_t cdr_u32(cdr_in *c) { return rd32(cdr_take(c, 4, 4)); }
int32_t cdr_i32(cdr_in *c) { return (int32_t)rd32(cdr_take(c, 4, 4)); }
uint8_t cdr_u8(cdr_in *c) { return *cdr_take(c, 1, 1); }
double cdr_f64(cdr_in *c) {
  double v;
  memcpy(&v, cdr_take(c, 8, 8), 8);
  return v;
}
const char *cdr_str(cdr_in *c) {
  uint32_t n = cdr_u32(c);
  const char *s = (const char *)cdr_take(c, n, 1);
  assert_true(n >= 1 && s[n - 1] == '\0');
  return s;
}
/* header: stamp in ns, frame id */
uint64_t cdr_header(cdr_in *c, const char **frame_id) {
  int32_t sec = cdr_i32(c);
  uint32_t nsec = cdr_u32(c);
  assert_true(nsec < 1000000000u);
  const char *fr = cdr_str(c);
  if (frame_id) *frame_id = fr;
  return (uint64_t)sec * 1000000000u + nsec;
}
