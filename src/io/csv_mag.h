/* io/csv_mag.h: the CSV layout of magnetometer frames (io/csv_mag.c), for
 * io/csv.c's writer. Not installed. */
#ifndef SENSIM_IO_CSV_MAG_H
#define SENSIM_IO_CSV_MAG_H

#include <stdio.h>
#include "sensim/frame.h"

/* "t,bx,by,bz\n": capture time s, flux density in the sensor frame, T. */
extern const char sensim__csv_mag_header[];

/* One row for a frame of type SENSIM_PAYLOAD_MAG with count 1 and data
 * (the caller checks both), numbers printed losslessly. */
void sensim__csv_mag_append(FILE *fp, const sensim_frame *f);

#endif
