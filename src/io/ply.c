/* io/ply.c: point frames to PLY (Stanford polygon file format) files.
 *
 * Format: Turk, "The PLY polygon file format" (1994), as read by rply
 * (Open3D) and PCL's PLYReader. One element, vertex, with the scalar
 * properties x y z intensity (float), ring (ushort), time (float), return
 * (uchar), label (uint: the class id) and instance (uint), in that order;
 * binary_little_endian 1.0 bodies are the packed records one after another
 * (31 bytes, no padding), ascii 1.0 bodies one line per vertex. `label`
 * and `instance` are the names PCD uses (io/pcd.c), so one cloud reads the
 * same from either file. The grid of an organised cloud is recorded in
 * "obj_info num_cols W" / "obj_info num_rows H", the lines PCL writes and
 * reads back into PointCloud width and height; every point is written,
 * including the NaN ones marking missing returns (ascii spells them
 * "nan"). The sensor's pose in the world at the capture is a comment
 * (viewpoint tx ty tz qw qx qy qz): points stay in the sensor frame. */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "io/point_records.h"
#include "io/scenario_internal.h"

/* x y z intensity ring time return label instance:
 * 4 + 4 + 4 + 4 + 2 + 4 + 1 + 4 + 4 bytes. */
static void write_header(FILE *fp, const sensim_frame *f, int binary) {
  const sensim_pose *p = &f->pose;
  /* An organised frame's grid; anything else is one row of count points. */
  int grid = f->height > 1 && (size_t)f->width * f->height == f->count;
  fprintf(fp,
          "ply\n"
          "format %s 1.0\n"
          "comment sensim lidar points in the sensor frame\n"
          "comment viewpoint %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n"
          "obj_info num_cols %zu\n"
          "obj_info num_rows %zu\n"
          "element vertex %zu\n"
          "property float x\n"
          "property float y\n"
          "property float z\n"
          "property float intensity\n"
          "property ushort ring\n"
          "property float time\n"
          "property uchar return\n"
          "property uint label\n"
          "property uint instance\n"
          "end_header\n",
          binary ? "binary_little_endian" : "ascii", p->pos.x, p->pos.y, p->pos.z, p->rot.w,
          p->rot.x, p->rot.y, p->rot.z, grid ? (size_t)f->width : f->count,
          grid ? (size_t)f->height : (size_t)1, f->count);
}

/* %.9g reads back to the same float (IEEE 754-2008 5.12.2: 9 significant
 * digits suffice for binary32); NaN is written "nan" whatever its sign
 * bit, since glibc would print "-nan" for a negative one. */
static void put_ascii_f32(FILE *fp, float v, char sep) {
  if (isnan(v))
    fprintf(fp, "nan%c", sep);
  else
    fprintf(fp, "%.9g%c", v, sep);
}

static void write_ascii(FILE *fp, const sensim_point *pts, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const sensim_point *p = &pts[i];
    put_ascii_f32(fp, p->x, ' ');
    put_ascii_f32(fp, p->y, ' ');
    put_ascii_f32(fp, p->z, ' ');
    put_ascii_f32(fp, p->intensity, ' ');
    fprintf(fp, "%u ", (unsigned)p->ring);
    put_ascii_f32(fp, p->time_offset, ' ');
    fprintf(fp, "%u %u %lu\n", (unsigned)p->return_index, (unsigned)p->class_id, (unsigned long)p->instance_id);
  }
}

sensim_status sensim_write_ply(const char *path, const sensim_frame *frame, int binary) {
  return sensim__write_points_file(path, frame, binary, "PLY", write_header, write_ascii);
}
