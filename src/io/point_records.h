/* io/point_records.h: the binary point record PCD and PLY writers share. */
#ifndef SENSIM_IO_POINT_RECORDS_H
#define SENSIM_IO_POINT_RECORDS_H

#include <stdio.h>
#include "sensim/frame.h"

/* Write n points as 23-byte little-endian records: x y z intensity
 * (float32), ring (uint16), time offset (float32), return index (uint8). */
void sensim__write_point_records(FILE *fp, const sensim_point *pts, size_t n);

#endif
