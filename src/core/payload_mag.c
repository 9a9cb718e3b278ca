/* core/payload_mag.c: magnetometer samples (sensim_mag_sample), one per
 * frame.
 *
 * CSV, one row per sample:
 *   t,bx,by,bz   (s = t_capture, flux density in the sensor frame, T)
 * Doubles are printed losslessly (core/number_text.c). */
#include "core/payload.h"

static void mag_csv_rows(FILE *fp, const sensim_frame *f) {
  const sensim_mag_sample *m = f->data;
  sensim__csv_put_double(fp, f->t_capture, ',');
  sensim__csv_put_double(fp, m->field[0], ',');
  sensim__csv_put_double(fp, m->field[1], ',');
  sensim__csv_put_double(fp, m->field[2], '\n');
}

const sensim__payload_desc sensim__payload_mag = {
    .type = SENSIM_PAYLOAD_MAG,
    .name = "mag",
    .elem_size = sizeof(sensim_mag_sample),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .single = 1,
    .csv_header = "t,bx,by,bz\n",
    .csv_rows = mag_csv_rows,
    .default_output = "csv",
};
