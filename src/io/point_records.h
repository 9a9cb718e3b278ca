/* io/point_records.h: the binary point record PCD and PLY writers share. */
#ifndef SENSIM_IO_POINT_RECORDS_H
#define SENSIM_IO_POINT_RECORDS_H

#include <stdio.h>
#include "sensim/frame.h"

/* Write n points as 31-byte little-endian records: x y z intensity
 * (float32), ring (uint16), time offset (float32), return index (uint8),
 * class id as the label (uint32), instance id (uint32). */
void sensim__write_point_records(FILE *fp, const sensim_point *pts, size_t n);

/* The frame checks and the write-to-temporary-then-rename that the PCD and
 * PLY writers share: `format` names the file type in messages, `header`
 * and `ascii` write the format's own parts, the binary body is the record
 * above. */
sensim_status sensim__write_points_file(const char *path, const sensim_frame *frame, int binary,
                                        const char *format,
                                        void (*header)(FILE *fp, const sensim_frame *f, int binary),
                                        void (*ascii)(FILE *fp, const sensim_point *pts, size_t n));

#endif
