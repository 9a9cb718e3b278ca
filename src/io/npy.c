/* io/npy.c: the radar's raw FMCW frames to NumPy .npy files.
 *
 * Format version 1.0 (numpy.lib.format, NEP 1): the magic "\x93NUMPY",
 * bytes 1 and 0, a little-endian uint16 header length, then an ASCII
 * Python dict literal {'descr': ..., 'fortran_order': False, 'shape': ...}
 * padded with spaces and ended by '\n' so that the data starts on a
 * multiple of 64 bytes, then the array's bytes in C order. Cubes are
 * complex64 of shape (chirps, channels, samples), range-Doppler maps
 * complex64 of shape (channels, doppler, range): the payloads' own
 * layouts (frame.h), so the data is written as it lies in memory, in the
 * host's byte order ('<' or '>' in descr says which). */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "sensim/io.h"

static int little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* The shape of an FMCW frame, or 0 when the frame is not one. */
static int npy_shape(const sensim_frame *f, size_t dims[3]) {
  const sensim_fmcw_info *h = &f->fmcw;
  const size_t m = (size_t)h->tx * h->rx;
  if (f->type == SENSIM_PAYLOAD_RADAR_CUBE) {
    dims[0] = h->chirps;
    dims[1] = m;
    dims[2] = h->samples;
  } else if (f->type == SENSIM_PAYLOAD_RADAR_RD) {
    dims[0] = m;
    dims[1] = h->chirps;
    dims[2] = h->samples;
  } else {
    return 0;
  }
  return dims[0] * dims[1] * dims[2] == f->count && f->count > 0 && f->data;
}

sensim_status sensim_write_npy(const char *path, const sensim_frame *frame) {
  if (!path || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_write_npy: NULL argument");
  size_t d[3];
  if (frame->type != SENSIM_PAYLOAD_RADAR_CUBE && frame->type != SENSIM_PAYLOAD_RADAR_RD)
    return sensim__fail(SENSIM_ETYPE, "npy: takes radar_cube or radar_rd frames, got %s",
                        sensim_payload_name(frame->type));
  if (!npy_shape(frame, d))
    return sensim__fail(SENSIM_EINVAL, "npy: the frame's fmcw header does not describe its %zu samples",
                        frame->count);
  char dict[160];
  int n = snprintf(dict, sizeof dict, "{'descr': '%cc8', 'fortran_order': False, 'shape': (%zu, %zu, %zu), }",
                   little_endian() ? '<' : '>', d[0], d[1], d[2]);
  /* 10 bytes of preamble + the dict + padding + '\n' = a multiple of 64. */
  size_t total = ((size_t)10 + (size_t)n + 1 + 63) / 64 * 64, hlen = total - 10;
  unsigned char head[256];
  memcpy(head, "\x93NUMPY\x01\x00", 8);
  head[8] = (unsigned char)(hlen & 0xff);
  head[9] = (unsigned char)(hlen >> 8);
  memcpy(head + 10, dict, (size_t)n);
  memset(head + 10 + n, ' ', hlen - (size_t)n - 1);
  head[total - 1] = '\n';
  sensim__afile af;
  sensim_status st = sensim__afile_open(path, &af);
  if (st) return st;
  fwrite(head, 1, total, af.fp);
  fwrite(frame->data, sizeof(sensim_complex32), frame->count, af.fp);
  return sensim__afile_commit(&af);
}
