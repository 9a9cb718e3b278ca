/* core/payload.h: what each payload type is, in one table.
 *
 * A payload describes itself once (src/core/payload_<name>.c): its name and
 * element size, whether it is an image or a list of records, its samples,
 * and its file layouts (a 16-bit grey rendering for image files, a CSV
 * header and row writer, the output formats that exist for it alone).
 * sensim_payload_name, frame allocation, the CSV and PNG writers and the
 * scenario loader read the table (src/core/payload_table.c) instead of
 * switching over the enum, so a new payload is one file, one table row and
 * one enum value. docs/design.md ("Payloads") says how to add one.
 * Not installed. */
#ifndef SENSIM_CORE_PAYLOAD_H
#define SENSIM_CORE_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "sensim/frame.h"
#include "sensim/io.h"

typedef enum sensim__shape {
  SENSIM__SHAPE_NONE = 0, /* NONE and ANY: no data */
  SENSIM__SHAPE_IMAGE,    /* width x height pixels, row 0 on top */
  SENSIM__SHAPE_RECORDS   /* count records; width x height when a scan is organised */
} sensim__shape;

typedef struct sensim__payload_desc {
  sensim_payload type;   /* its own enum value (the table's index; a test holds that) */
  const char *name;      /* unique, lower case: sensim_payload_name, scenario files, bindings */
  size_t elem_size;      /* bytes of one pixel or record; 0 for NONE and ANY */
  sensim__shape shape;
  int channels;          /* samples per element: 1 to 4 for u8/u16/f32 images,
                            1 for struct elements, 0 for NONE and ANY */
  sensim_sample sample;  /* type of each of the channels */
  int single;            /* records: a frame holds exactly one (a fix, a sample) */
  /* Images whose samples an 8- or 16-bit image file cannot hold as they
   * are (float, struct): each of n pixels as one 16-bit grey value, the
   * mapping io.h documents for sensim_write_png. NULL: u8/u16 images are
   * stored as they are, other payloads have no image file. */
  void (*to_gray16)(const void *src, size_t n, uint16_t *dst);
  /* CSV layout: the header line with its "\n", and the rows of one frame
   * (the caller has checked the type, count == 1 for single payloads and
   * data != NULL when count > 0). Both NULL: no CSV layout. */
  const char *csv_header;
  void (*csv_rows)(FILE *fp, const sensim_frame *frame);
  /* Output formats whose writers take this payload alone (the io layer's
   * "pcd", "ply", "nmea", ...), NULL-terminated; NULL: none. "png" and
   * "csv" are not listed: they follow from to_gray16, sample and
   * csv_header. */
  const char *const *formats;
  /* Records with a false-colour picture (the radar's range-Doppler map):
   * fill `rgba`, a zeroed frame the caller then releases, with an RGBA8
   * image of f; "png" writes it. NULL: none. */
  sensim_status (*picture)(const sensim_frame *f, sensim_frame *rgba);
  const char *default_output; /* scenario output when none is given: "png",
                                 "csv", one of formats, or NULL for none */
} sensim__payload_desc;

/* The descriptor of `type`, or NULL for a value outside the enum. */
const sensim__payload_desc *sensim__payload_desc_of(sensim_payload type);

/* Bits per sample (8 or 16) of the image file an image payload becomes,
 * and its samples per pixel in *channels; 0 when it has none (float
 * images without to_gray16, records, NULL). */
int sensim__payload_file_bits(const sensim__payload_desc *d, int *channels);

/* Whether output format `format` ("png", "csv", "pcd", ..., "none") can
 * hold frames of this payload. */
int sensim__payload_takes_output(const sensim__payload_desc *d, const char *format);

/* sensim_shortest_double(v) (sensim/io.h) then `sep`, to fp: one CSV field. */
void sensim__csv_put_double(FILE *fp, double v, char sep);

#endif
