/* core/payload_radar.c: the radar's detections (sensim_radar_detection),
 * any number per frame.
 *
 * CSV, one row per detection:
 *   t_capture,range,azimuth,elevation,radial_velocity,x,y,z,rcs,power,snr,
 *   instance_id,class_id,cells
 *   (s, m, rad, rad, m/s, m in the sensor frame, dBsm, dBm, dB, -, -, -;
 *   frame.h and radar.h define each). Doubles are printed losslessly
 *   (core/number_text.c). */
#include "core/payload.h"

static void radar_csv_rows(FILE *fp, const sensim_frame *f) {
  const sensim_radar_detection *d = f->data;
  for (size_t i = 0; i < f->count; i++) {
    sensim__csv_put_double(fp, f->t_capture, ',');
    const double v[10] = {d[i].range,    d[i].azimuth,  d[i].elevation, d[i].radial_velocity, d[i].point[0],
                          d[i].point[1], d[i].point[2], d[i].rcs,       d[i].power,           d[i].snr};
    for (int k = 0; k < 10; k++) sensim__csv_put_double(fp, v[k], ',');
    fprintf(fp, "%u,%u,%u\n", (unsigned)d[i].instance_id, (unsigned)d[i].class_id, (unsigned)d[i].cells);
  }
}

const sensim__payload_desc sensim__payload_radar = {
    .type = SENSIM_PAYLOAD_RADAR,
    .name = "radar",
    .elem_size = sizeof(sensim_radar_detection),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .csv_header = "t_capture,range,azimuth,elevation,radial_velocity,x,y,z,rcs,power,snr,"
                  "instance_id,class_id,cells\n",
    .csv_rows = radar_csv_rows,
    .default_output = "csv",
};
