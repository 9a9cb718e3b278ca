/* tests/io/point_fixtures.h: the point clouds the PCD and CSV writer tests
 * share (tests/io/pcd_tests.c, tests/io/writers.c). */
#ifndef SENSIM_TESTS_IO_POINT_FIXTURES_H
#define SENSIM_TESTS_IO_POINT_FIXTURES_H

#include <stddef.h>
#include <sensim/sensim.h>

/* An unorganised points frame over p (n points, borrowed) captured at
 * 1.5 s at the pose (1, -2, 0.5), no rotation. */
sensim_frame io_points_frame(sensim_point *p, size_t n);
/* n points whose every field varies with i: ring up to 1200, class ids
 * from 65535 down, instance ids beyond 2^31 (not a float's integers). */
void io_sample_points(sensim_point *p, size_t n);

#endif
