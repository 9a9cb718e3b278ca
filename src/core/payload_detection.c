/* core/payload_detection.c: the cone sensor's answers (sensim_detection),
 * one per frame.
 *
 * CSV, one row per frame:
 *   t_capture,detected,instance_id,class_id,range,azimuth,elevation,x,y,z,
 *   speed_diff,radial_speed,vx,vy,vz,speed
 *   (s, 0/1, -, -, m, rad, rad, m in the sensor frame, m/s, m/s, m/s in
 *   the sensor frame, m/s; cone.h and frame.h define each; speed, the
 *   published speed, came last so older readers' columns keep their
 *   places).
 * Quantities that are not known (nothing detected, no previous range) are
 * written "nan" whatever the NaN's sign, which strtod reads back; other
 * doubles are printed losslessly (core/number_text.c). */
#include "core/payload.h"

static void put(FILE *fp, double v, char sep) {
  if (v != v) {
    fputs("nan", fp);
    fputc(sep, fp);
  } else {
    sensim__csv_put_double(fp, v, sep);
  }
}

static void detection_csv_rows(FILE *fp, const sensim_frame *f) {
  const sensim_detection *d = f->data;
  put(fp, f->t_capture, ',');
  fprintf(fp, "%d,%u,%u,", d->detected ? 1 : 0, (unsigned)d->instance_id, (unsigned)d->class_id);
  const double v[12] = {d->range,      d->azimuth,    d->elevation,  d->point[0],
                        d->point[1],   d->point[2],   d->speed_diff, d->radial_speed,
                        d->rel_vel[0], d->rel_vel[1], d->rel_vel[2], d->speed};
  for (int i = 0; i < 12; i++) put(fp, v[i], i < 11 ? ',' : '\n');
}

const sensim__payload_desc sensim__payload_detection = {
    .type = SENSIM_PAYLOAD_DETECTION,
    .name = "detection",
    .elem_size = sizeof(sensim_detection),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .single = 1,
    .csv_header = "t_capture,detected,instance_id,class_id,range,azimuth,elevation,x,y,z,"
                  "speed_diff,radial_speed,vx,vy,vz,speed\n",
    .csv_rows = detection_csv_rows,
    .default_output = "csv",
};
