/* io/point_records.c: the binary point record PCD and PLY share: 31 bytes,
 * little-endian x y z intensity (float32), ring (uint16), time (float32),
 * return (uint8), label (uint32: the class id) and instance (uint32), in
 * that order. The class id is widened to 32 bits because PCL's labelled
 * point types (pcl::PointXYZL, PointXYZRGBL) hold `label` as uint32 and
 * map a field into a point only when its type matches. */
#include <stdint.h>
#include <string.h>
#include "core/internal.h"
#include "io/point_records.h"
#include "io/scenario_internal.h"

#define POINT_RECORD 31

static void put_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

static void put_f32(uint8_t *p, float f) {
  uint32_t v;
  memcpy(&v, &f, 4);
  put_le32(p, v);
}

static void pack_point(const sensim_point *pt, uint8_t *r) {
  put_f32(r + 0, pt->x);
  put_f32(r + 4, pt->y);
  put_f32(r + 8, pt->z);
  put_f32(r + 12, pt->intensity);
  r[16] = (uint8_t)pt->ring;
  r[17] = (uint8_t)(pt->ring >> 8);
  put_f32(r + 18, pt->time_offset);
  r[22] = pt->return_index;
  put_le32(r + 23, pt->class_id);
  put_le32(r + 27, pt->instance_id);
}

void sensim__write_point_records(FILE *fp, const sensim_point *pts, size_t n) {
  uint8_t buf[POINT_RECORD * 256];
  size_t used = 0;
  for (size_t i = 0; i < n; i++) {
    pack_point(&pts[i], buf + used);
    used += POINT_RECORD;
    if (used == sizeof buf) {
      fwrite(buf, 1, used, fp);
      used = 0;
    }
  }
  if (used) fwrite(buf, 1, used, fp);
}

sensim_status sensim__write_points_file(const char *path, const sensim_frame *frame, int binary,
                                        const char *format,
                                        void (*header)(FILE *fp, const sensim_frame *f, int binary),
                                        void (*ascii)(FILE *fp, const sensim_point *pts, size_t n)) {
  if (!path || !frame) return sensim__fail(SENSIM_EINVAL, "writing %s: NULL argument", format);
  if (frame->type != SENSIM_PAYLOAD_POINTS)
    return sensim__fail(SENSIM_ETYPE, "cannot write a %s frame as %s '%s' (needs points)",
                        sensim_payload_name(frame->type), format, path);
  if (frame->count > 0 && !frame->data)
    return sensim__fail(SENSIM_EINVAL, "%s '%s': frame has %zu points and no data", format, path, frame->count);
  sensim__afile af;
  sensim_status st = sensim__afile_open(path, &af);
  if (st != SENSIM_OK) return st;
  header(af.fp, frame, binary);
  if (binary)
    sensim__write_point_records(af.fp, frame->data, frame->count);
  else
    ascii(af.fp, frame->data, frame->count);
  return sensim__afile_commit(&af);
}
