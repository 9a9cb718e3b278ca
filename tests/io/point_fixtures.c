/* tests/io/point_fixtures.c: point clouds for the writer tests
 * (point_fixtures.h). */
#include <string.h>
#include "io/point_fixtures.h"

sensim_frame io_points_frame(sensim_point *p, size_t n) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_POINTS;
  f.width = (uint32_t)n;
  f.height = 1;
  f.count = n;
  f.data = p;
  f.t_capture = 1.5;
  f.pose.pos.x = 1;
  f.pose.pos.y = -2;
  f.pose.pos.z = 0.5;
  f.pose.rot.w = 1;
  return f;
}

void io_sample_points(sensim_point *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    p[i].x = 1.0f / (float)(i + 3);
    p[i].y = -2.5f * (float)i;
    p[i].z = 0.1f + (float)i * 1e-3f;
    p[i].intensity = 0.25f * (float)(i % 4);
    p[i].time_offset = -1e-4f * (float)i;
    p[i].ring = (uint16_t)(i * 300);
    p[i].return_index = (uint8_t)(i % 2);
    p[i].pad = 0;
    p[i].class_id = (uint16_t)(65535u - 1000u * i);
    p[i].pad2 = 0;
    p[i].instance_id = 4000000000u + 7u * (uint32_t)i; /* beyond 2^31, not a float's integer */
  }
}
