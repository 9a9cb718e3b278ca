/* core/payload_points.c: lidar point clouds (sensim_point) in the sensor
 * frame. An organised scan keeps its grid as width x height.
 *
 * CSV, one row per point (frames appended one after another):
 *   t_capture,x,y,z,intensity,ring,time,return,label,instance
 *   (s, m, m, m, [0, 1], channel, s from t_capture, return index, class
 *   id of the body hit, its instance id: 0 = none; the names PCD and PLY
 *   use)
 * t_capture is printed losslessly as every double of the CSV layouts;
 * the float fields with 9 significant digits, which read back to the same
 * float (IEEE 754-2008 5.12.2). PCD and PLY are formats of their own for
 * this payload alone (io/pcd.c, io/ply.c). */
#include <stddef.h>
#include "core/payload.h"

/* The layout frame.h documents: no padding the compiler adds (pad and
 * pad2 are named), the same 32 bytes as a beam, so "points" converts in
 * place (filters/lidar_filters.c). */
_Static_assert(sizeof(sensim_point) == 32 && offsetof(sensim_point, ring) == 20 &&
                   offsetof(sensim_point, class_id) == 24 && offsetof(sensim_point, instance_id) == 28,
               "sensim_point: 5 floats, ring, return_index, pad, class_id, pad2, instance_id");

static void points_csv_rows(FILE *fp, const sensim_frame *f) {
  const sensim_point *p = f->data;
  char t[40];
  /* Once per frame: a scan has 10^5 points sharing one capture time. */
  sensim_shortest_double(t, sizeof t, f->t_capture);
  for (size_t i = 0; i < f->count; i++)
    fprintf(fp, "%s,%.9g,%.9g,%.9g,%.9g,%u,%.9g,%u,%u,%lu\n", t, p[i].x, p[i].y, p[i].z,
            p[i].intensity, (unsigned)p[i].ring, p[i].time_offset,
            (unsigned)p[i].return_index, (unsigned)p[i].class_id,
            (unsigned long)p[i].instance_id);
}

const sensim__payload_desc sensim__payload_points = {
    .type = SENSIM_PAYLOAD_POINTS,
    .name = "points",
    .elem_size = sizeof(sensim_point),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .csv_header = "t_capture,x,y,z,intensity,ring,time,return,label,instance\n",
    .csv_rows = points_csv_rows,
    .formats = (const char *const[]){"pcd", "pcd_ascii", "ply", "ply_ascii", NULL},
    .default_output = "pcd",
};
