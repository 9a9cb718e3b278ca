/* io/csv_detection.c: cone detection frames as CSV, one record per frame:
 *
 *   t_capture,detected,instance_id,class_id,range,azimuth,elevation,x,y,z,
 *   speed_diff,radial_speed,vx,vy,vz
 *
 * (s, 0/1, -, -, m, rad, rad, m in the sensor frame, m/s, m/s, m/s in the
 * sensor frame; cone.h and frame.h define each). Quantities that are not
 * known (nothing detected, no previous range) are written "nan", which
 * strtod reads back. Numbers use the shortest of %.15g..%.17g that reads
 * back exactly, as io/csv.c does for its layouts (IEEE 754-2008 5.12.2). */
#include <stdlib.h>
#include <string.h>
#include "io/csv_detection.h"

const char *sensim__csv_detection_header(void) {
  return "t_capture,detected,instance_id,class_id,range,azimuth,elevation,x,y,z,"
         "speed_diff,radial_speed,vx,vy,vz\n";
}

static void put(FILE *fp, double v, char sep) {
  char buf[40];
  if (v != v) {
    strcpy(buf, "nan");
  } else {
    for (int prec = 15; prec <= 17; prec++) {
      snprintf(buf, sizeof buf, "%.*g", prec, v);
      if (prec == 17 || strtod(buf, NULL) == v) break;
    }
  }
  fputs(buf, fp);
  fputc(sep, fp);
}

void sensim__csv_append_detection(FILE *fp, const sensim_frame *f) {
  const sensim_detection *d = f->data;
  put(fp, f->t_capture, ',');
  fprintf(fp, "%d,%u,%u,", d->detected ? 1 : 0, (unsigned)d->instance_id, (unsigned)d->class_id);
  const double v[11] = {d->range,      d->azimuth,      d->elevation,  d->point[0],
                        d->point[1],   d->point[2],     d->speed_diff, d->radial_speed,
                        d->rel_vel[0], d->rel_vel[1],   d->rel_vel[2]};
  for (int i = 0; i < 11; i++) put(fp, v[i], i < 10 ? ',' : '\n');
}
