/* core/payload_imu.c: inertial samples (sensim_imu_sample), one per frame.
 *
 * CSV, one row per sample:
 *   t,ax,ay,az,gx,gy,gz   (s = t_capture, m/s^2 and rad/s in the sensor frame)
 * Doubles are printed losslessly (core/number_text.c). */
#include "core/payload.h"

static void imu_csv_rows(FILE *fp, const sensim_frame *f) {
  const sensim_imu_sample *m = f->data;
  const double v[7] = {f->t_capture, m->accel[0], m->accel[1], m->accel[2],
                       m->gyro[0],   m->gyro[1],  m->gyro[2]};
  for (int i = 0; i < 7; i++) sensim__csv_put_double(fp, v[i], i < 6 ? ',' : '\n');
}

const sensim__payload_desc sensim__payload_imu = {
    .type = SENSIM_PAYLOAD_IMU,
    .name = "imu",
    .elem_size = sizeof(sensim_imu_sample),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .single = 1,
    .csv_header = "t,ax,ay,az,gx,gy,gz\n",
    .csv_rows = imu_csv_rows,
    .default_output = "csv",
};
