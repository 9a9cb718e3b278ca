/* io/csv_mag.c: magnetometer frames as CSV rows, in io/csv.c's format
 * (RFC 4180 layout, LF line ends, every number the shortest of %.15g,
 * %.16g, %.17g that reads back to the same double, IEEE 754-2008 5.12.2). */
#include <stdlib.h>
#include "io/csv_mag.h"

const char sensim__csv_mag_header[] = "t,bx,by,bz\n";

static void put(FILE *fp, double v, char sep) {
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (prec == 17 || strtod(buf, NULL) == v) break;
  }
  fputs(buf, fp);
  fputc(sep, fp);
}

void sensim__csv_mag_append(FILE *fp, const sensim_frame *f) {
  const sensim_mag_sample *m = f->data;
  put(fp, f->t_capture, ',');
  put(fp, m->field[0], ',');
  put(fp, m->field[1], ',');
  put(fp, m->field[2], '\n');
}
