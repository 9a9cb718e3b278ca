/* tests/sensors/lidar_fixtures.h: scenes and helpers that several lidar
 * test groups of the sensors module share (tests/sensors/lidar_fixtures.c).
 * They were static helpers of the groups before those were split by topic. */
#ifndef SENSIM_TESTS_SENSORS_LIDAR_FIXTURES_H
#define SENSIM_TESTS_SENSORS_LIDAR_FIXTURES_H

#include "sensim/sensim.h"
#include "sensors/lidar_internal.h"

/* ---- walls and planes (lidar_tests.c, lidar_speed_tests.c) --------------- */

typedef struct plane_scene {
  sensim_world *w;
  sensim_vec3 n, p0; /* world normal and a point of the plane */
  double half;       /* half extent of the square plane, m */
  double refl;
} plane_scene;

/* A 40 m square plane at distance `dist` ahead, tilted by `tilt` about Z
 * (so beams meet it at varied incidence). */
plane_scene make_plane(double dist, double tilt);

/* A plane of two triangles with their own lidar reflectances: the wall
 * x = dist, y and z in [-20, 20]; the lower-left triangle (z below the
 * diagonal) has r_lower, the upper-right one r_upper. */
sensim_world *two_tone_wall(double dist, float r_lower, float r_upper);

/* ---- the beam model (lidar_footprint_tests.c, lidar_returns_tests.c,
 * lidar_noise_tests.c) ------------------------------------------------------ */

/* Default lidar parameters with the given beam shape, divergences and
 * sub-ray count. */
sensim_lidar_params beam_params(sensim_beam_shape shape, double dh, double dv, int n);
/* The footprint of beam_params(...); fails the test on error (free it with
 * sensim__lidar_footprint_free). */
sensim_lidar_footprint fp_make(sensim_beam_shape shape, double dh, double dv, int n);

/* A quad wall x = d, y in [y0, y1], z in [-h, h], facing the sensor. */
void add_wall(sensim_world *w, double d, double y0, double y1, double h, float rho);
/* add_wall with the body's class and instance ids (instance 0: sensim
 * assigns one). */
void add_wall_ids(sensim_world *w, double d, double y0, double y1, double h, float rho, uint16_t class_id,
                  uint32_t instance_id);
/* One beam along +X. */
sensim_lidar_params one_beam(void);
/* A lidar with default sensor parameters and, unless `filter` is NULL, that
 * filter with `json`. */
sensim_sensor *add_lidar(sensim_world *w, const sensim_lidar_params *lp, const char *filter,
                         const char *json);
/* The sensor's next frame; fails the test if there is none. */
const sensim_frame *poll1(sensim_sensor *s);

/* ---- deskew (lidar_rolling_scan_tests.c, lidar_deskew_tests.c) ----------- */

/* Run the registered "deskew" filter on a frame, as a chain would. */
sensim_status run_deskew(sensim_frame *f);

#endif
