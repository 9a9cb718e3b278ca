/* io/pcd.c: point frames to Point Cloud Library PCD v0.7 files.
 *
 * Format: https://pointclouds.org/documentation/tutorials/pcd_file_format.html
 * The header lists FIELDS, their SIZE (bytes), TYPE (F float, U unsigned)
 * and COUNT; binary data is the packed records one after another, no
 * padding, in the byte order of the x86/ARM machines PCL runs on (little
 * endian), which is written explicitly here. VIEWPOINT carries the sensor's
 * pose in the world at the capture (tx ty tz qw qx qy qz): the points stay
 * in the sensor frame, and PCL's viewers place the cloud with that pose.
 * The semantic ids are `label` (the class id, uint32 as in PCL's
 * pcl::PointXYZL, so PCL reads it into that type) and `instance`. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "io/point_records.h"
#include "io/scenario_internal.h"

/* x y z intensity ring time return label instance:
 * 4 + 4 + 4 + 4 + 2 + 4 + 1 + 4 + 4 bytes. */
static void write_header(FILE *fp, const sensim_frame *f, int binary) {
  const sensim_pose *p = &f->pose;
  /* An organised cloud ("organized") keeps its grid: PCL reads WIDTH x
   * HEIGHT back as columns x rows. */
  int grid = (size_t)f->width * f->height == f->count && f->height > 1;
  size_t w = grid ? f->width : f->count, h = grid ? f->height : 1;
  fprintf(fp,
          "# .PCD v0.7 - Point Cloud Data file format\n"
          "VERSION 0.7\n"
          "FIELDS x y z intensity ring time return label instance\n"
          "SIZE 4 4 4 4 2 4 1 4 4\n"
          "TYPE F F F F U F U U U\n"
          "COUNT 1 1 1 1 1 1 1 1 1\n"
          "WIDTH %zu\n"
          "HEIGHT %zu\n"
          "VIEWPOINT %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n"
          "POINTS %zu\n"
          "DATA %s\n",
          w, h, p->pos.x, p->pos.y, p->pos.z, p->rot.w, p->rot.x, p->rot.y, p->rot.z,
          f->count, binary ? "binary" : "ascii");
}

/* %.9g prints every float so that it reads back to the same float
 * (IEEE 754-2008 5.12.2: 9 significant digits suffice for binary32). */
static void write_ascii(FILE *fp, const sensim_point *pts, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const sensim_point *p = &pts[i];
    fprintf(fp, "%.9g %.9g %.9g %.9g %u %.9g %u %u %lu\n", p->x, p->y, p->z, p->intensity,
            (unsigned)p->ring, p->time_offset, (unsigned)p->return_index, (unsigned)p->class_id,
            (unsigned long)p->instance_id);
  }
}

sensim_status sensim_write_pcd(const char *path, const sensim_frame *frame, int binary) {
  return sensim__write_points_file(path, frame, binary, "PCD", write_header, write_ascii);
}
