/* core/payload_gnss.c: GNSS fixes (sensim_gnss_fix), one per frame.
 *
 * CSV, one row per fix:
 *   t_capture,lat,lon,height,east,north,up,vel_east,vel_north,vel_up,
 *   cov_ee,cov_nn,cov_uu,fix_type,speed,course,hdop,vdop,pdop,satellites
 *   (s, deg, deg, m, m, m/s, m^2, -, m/s, deg from north, DOPs, count).
 * The columns after fix_type came later and are appended so that readers
 * by column index keep working; an outage's fix_type 0 row holds nan for
 * position, velocity, speed, course and covariance. Doubles are printed
 * losslessly (core/number_text.c). NMEA 0183 is a format of its own for
 * this payload alone (io/nmea.c). */
#include "core/payload.h"

static void gnss_csv_rows(FILE *fp, const sensim_frame *f) {
  const sensim_gnss_fix *g = f->data;
  const double v[13] = {f->t_capture, g->lat, g->lon, g->height, g->enu[0], g->enu[1],
                        g->enu[2], g->vel_enu[0], g->vel_enu[1], g->vel_enu[2],
                        g->cov_enu[0], g->cov_enu[4], g->cov_enu[8]};
  for (int i = 0; i < 13; i++) sensim__csv_put_double(fp, v[i], ',');
  fprintf(fp, "%d,", g->fix_type);
  const double w[5] = {g->speed, g->course, g->hdop, g->vdop, g->pdop};
  for (int i = 0; i < 5; i++) sensim__csv_put_double(fp, w[i], ',');
  fprintf(fp, "%d\n", g->satellites);
}

const sensim__payload_desc sensim__payload_gnss = {
    .type = SENSIM_PAYLOAD_GNSS,
    .name = "gnss",
    .elem_size = sizeof(sensim_gnss_fix),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .single = 1,
    .csv_header = "t_capture,lat,lon,height,east,north,up,vel_east,vel_north,vel_up,"
                  "cov_ee,cov_nn,cov_uu,fix_type,speed,course,hdop,vdop,pdop,satellites\n",
    .csv_rows = gnss_csv_rows,
    .formats = (const char *const[]){"nmea", NULL},
    .default_output = "csv",
};
