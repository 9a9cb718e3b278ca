/* io/csv.c: GNSS, IMU and point frames as comma-separated text (RFC 4180
 * layout with LF line ends: one header line, then records; every field is a
 * number, so nothing needs quoting).
 *
 * Columns:
 *   gnss:   t_capture,lat,lon,height,east,north,up,vel_east,vel_north,vel_up,
 *           cov_ee,cov_nn,cov_uu,fix_type,speed,course,hdop,vdop,pdop,satellites
 *           (s, deg, deg, m, m, m/s, m^2, -, m/s, deg from north, DOPs, count;
 *           the columns after fix_type came later and are appended so that
 *           readers by column index keep working; an outage's fix_type 0 row
 *           holds nan for position, velocity, speed, course and covariance)
 *   imu:    t,ax,ay,az,gx,gy,gz            (s, m/s^2, rad/s; t = t_capture)
 *   mag:    t,bx,by,bz                     (s, T, sensor frame; io/csv_mag.c)
 *   detection: the cone sensor's record (io/csv_detection.c)
 *   points: t_capture,x,y,z,intensity,ring,time,return (one row per point)
 *
 * Each number is printed with the fewest significant digits (15 to 17 for
 * doubles, 9 for floats) that read back to the exact binary value
 * (IEEE 754-2008 5.12.2), so files are short, lossless and compare bit for
 * bit across runs. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/csv_detection.h"
#include "io/csv_mag.h"
#include "io/scenario_internal.h"

struct sensim_csv {
  sensim__afile file;
  sensim_payload type;
};

static const char *csv_header(sensim_payload type) {
  switch (type) {
  case SENSIM_PAYLOAD_GNSS:
    return "t_capture,lat,lon,height,east,north,up,vel_east,vel_north,vel_up,"
           "cov_ee,cov_nn,cov_uu,fix_type,speed,course,hdop,vdop,pdop,satellites\n";
  case SENSIM_PAYLOAD_IMU:
    return "t,ax,ay,az,gx,gy,gz\n";
  case SENSIM_PAYLOAD_POINTS:
    return "t_capture,x,y,z,intensity,ring,time,return\n";
  case SENSIM_PAYLOAD_DETECTION:
    return sensim__csv_detection_header();
  case SENSIM_PAYLOAD_MAG:
    return sensim__csv_mag_header;
  default:
    return NULL;
  }
}

sensim_status sensim_csv_open(const char *path, sensim_payload type, sensim_csv **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_csv_open: NULL out");
  *out = NULL;
  if (!path) return sensim__fail(SENSIM_EINVAL, "sensim_csv_open: NULL path");
  const char *header = csv_header(type);
  if (!header)
    return sensim__fail(SENSIM_ETYPE, "CSV '%s': no CSV layout for %s frames (gnss, imu, mag, points, detection)",
                        path, sensim_payload_name(type));
  sensim_csv *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "CSV '%s': out of memory", path);
  sensim_status st = sensim__afile_open(path, &c->file);
  if (st != SENSIM_OK) {
    free(c);
    return st;
  }
  c->type = type;
  fputs(header, c->file.fp);
  *out = c;
  return SENSIM_OK;
}

/* Shortest of %.15g, %.16g, %.17g that strtod reads back to v exactly. */
static void put_double(FILE *fp, double v, char sep) {
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (prec == 17 || strtod(buf, NULL) == v) break;
  }
  fputs(buf, fp);
  fputc(sep, fp);
}

static void append_gnss(FILE *fp, const sensim_frame *f) {
  const sensim_gnss_fix *g = f->data;
  const double v[13] = {f->t_capture, g->lat, g->lon, g->height, g->enu[0], g->enu[1],
                        g->enu[2], g->vel_enu[0], g->vel_enu[1], g->vel_enu[2],
                        g->cov_enu[0], g->cov_enu[4], g->cov_enu[8]};
  for (int i = 0; i < 13; i++) put_double(fp, v[i], ',');
  fprintf(fp, "%d,", g->fix_type);
  const double w[5] = {g->speed, g->course, g->hdop, g->vdop, g->pdop};
  for (int i = 0; i < 5; i++) put_double(fp, w[i], ',');
  fprintf(fp, "%d\n", g->satellites);
}

static void append_imu(FILE *fp, const sensim_frame *f) {
  const sensim_imu_sample *m = f->data;
  const double v[7] = {f->t_capture, m->accel[0], m->accel[1], m->accel[2],
                       m->gyro[0],   m->gyro[1],  m->gyro[2]};
  for (int i = 0; i < 7; i++) put_double(fp, v[i], i < 6 ? ',' : '\n');
}

static void append_points(FILE *fp, const sensim_frame *f) {
  const sensim_point *p = f->data;
  char t[40];
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(t, sizeof t, "%.*g", prec, f->t_capture);
    if (strtod(t, NULL) == f->t_capture) break;
  }
  for (size_t i = 0; i < f->count; i++)
    fprintf(fp, "%s,%.9g,%.9g,%.9g,%.9g,%u,%.9g,%u\n", t, p[i].x, p[i].y, p[i].z,
            p[i].intensity, (unsigned)p[i].ring, p[i].time_offset,
            (unsigned)p[i].return_index);
}

sensim_status sensim_csv_append(sensim_csv *csv, const sensim_frame *frame) {
  if (!csv || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_csv_append: NULL argument");
  if (frame->type != csv->type)
    return sensim__fail(SENSIM_ETYPE, "CSV '%s' holds %s frames, not %s", csv->file.path,
                        sensim_payload_name(csv->type), sensim_payload_name(frame->type));
  int single = csv->type != SENSIM_PAYLOAD_POINTS;
  if ((single && frame->count != 1) || (frame->count > 0 && !frame->data))
    return sensim__fail(SENSIM_EINVAL, "CSV '%s': %s frame with %zu elements%s", csv->file.path,
                        sensim_payload_name(frame->type), frame->count,
                        frame->data ? "" : " and no data");
  switch (csv->type) {
  case SENSIM_PAYLOAD_GNSS:
    append_gnss(csv->file.fp, frame);
    break;
  case SENSIM_PAYLOAD_IMU:
    append_imu(csv->file.fp, frame);
    break;
  case SENSIM_PAYLOAD_DETECTION:
    sensim__csv_append_detection(csv->file.fp, frame);
    break;
  case SENSIM_PAYLOAD_MAG:
    sensim__csv_mag_append(csv->file.fp, frame);
    break;
  default:
    append_points(csv->file.fp, frame);
    break;
  }
  if (ferror(csv->file.fp))
    return sensim__fail(SENSIM_EIO, "CSV '%s': write failed", csv->file.path);
  return SENSIM_OK;
}

sensim_status sensim_csv_close(sensim_csv *csv) {
  if (!csv) return SENSIM_OK;
  sensim_status st = sensim__afile_commit(&csv->file);
  free(csv);
  return st;
}

void sensim__csv_abort(sensim_csv *csv) {
  if (!csv) return;
  sensim__afile_abort(&csv->file);
  free(csv);
}
