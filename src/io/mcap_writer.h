/* io/mcap_writer.h: an MCAP file writer (https://mcap.dev/spec, major
 * version 0): schemas, channels and messages into chunks, each chunk
 * compressed once with zstd and followed by its message indexes; at close
 * the data end, the summary (schemas, channels, statistics, chunk
 * indexes), summary offsets and footer. The file is an all-or-nothing
 * file (io.h): it appears under its path only when closed whole.
 *
 * Messages are written in the order given; the caller orders them by log
 * time. Records use the spec's serialisation: little-endian integers,
 * strings and maps with uint32 byte lengths, timestamps in ns. */
#ifndef SENSIM_IO_MCAP_WRITER_H
#define SENSIM_IO_MCAP_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"

typedef struct sensim__mcap sensim__mcap;

typedef struct sensim__mcap_options {
  const char *profile;  /* Header.profile ("ros2") */
  const char *library;  /* Header.library */
  int compress;         /* nonzero: zstd chunks */
  int zstd_level;       /* 1..19 */
  size_t chunk_size;    /* uncompressed bytes after which a chunk is closed */
} sensim__mcap_options;

/* Create the temporary file and write the magic and header. SENSIM_EIO if
 * the file cannot be created. */
sensim_status sensim__mcap_open(const char *path, const sensim__mcap_options *o,
                                sensim__mcap **out);

/* Register a schema (copied); *id gets its id (1, 2, ...). It is written
 * into the data section before the first message of a channel using it. */
sensim_status sensim__mcap_schema(sensim__mcap *m, const char *name, const char *encoding,
                                  const char *data, size_t len, uint16_t *id);

/* Register a channel (copied) with one metadata pair (key NULL: none). */
sensim_status sensim__mcap_channel(sensim__mcap *m, uint16_t schema_id, const char *topic,
                                   const char *message_encoding, const char *meta_key,
                                   const char *meta_value, uint16_t *id);

/* Append a message record to the open chunk (its channel's schema and
 * channel records first, the first time); closes the chunk once it holds
 * chunk_size bytes. The sequence number is the channel's message count. */
sensim_status sensim__mcap_message(sensim__mcap *m, uint16_t channel, uint64_t log_time,
                                   uint64_t publish_time, const void *data, size_t len);

/* Close the last chunk, write the summary and footer and rename the file
 * into place. Frees m whatever the result; on failure nothing is left at
 * the path (a failed write keeps the whole chunks as
 * sensim__mcap_partial_path says). */
sensim_status sensim__mcap_close(sensim__mcap *m);

/* Remove the temporary file and free m; after a failed write (a full
 * disk) the whole chunks written so far are kept instead, as a valid MCAP
 * file without a summary under sensim__mcap_partial_path(path). NULL is a
 * no-op. */
void sensim__mcap_abort(sensim__mcap *m);
/* Where sensim__mcap_abort keeps the whole chunks of a recording whose
 * writing failed (a full disk): "x.mcap" -> "x.partial.mcap" (other names
 * get ".partial" appended), a valid MCAP file without a summary. Malloc'd;
 * NULL when out of memory. */
char *sensim__mcap_partial_path(const char *path);

/* CRC-32 (ISO 3309 / ITU-T V.42, the polynomial of zlib and the MCAP
 * spec) of n bytes, continuing from `crc` (0 to start). */
uint32_t sensim__crc32(uint32_t crc, const void *data, size_t n);

#endif
