/* io/csv_detection.h: the CSV layout of cone detection frames, for
 * io/csv.c. Not installed. */
#ifndef SENSIM_IO_CSV_DETECTION_H
#define SENSIM_IO_CSV_DETECTION_H

#include <stdio.h>
#include "sensim/frame.h"

/* The header line (with its "\n"). */
const char *sensim__csv_detection_header(void);
/* One record per frame (frame->count == 1, type DETECTION; the caller
 * checks). */
void sensim__csv_append_detection(FILE *fp, const sensim_frame *frame);

#endif
