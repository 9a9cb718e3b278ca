/* tests/cone/cone_groups.h: the cone sensor's test groups (tests/cone/). */
#ifndef SENSIM_TESTS_CONE_GROUPS_H
#define SENSIM_TESTS_CONE_GROUPS_H

#include "sensim/cone.h"

int sensim_test_cone_geometry(void);
int sensim_test_cone_lines(void);
int sensim_test_cone_exact(void);
int sensim_test_cone_sensor(void);
int sensim_test_cone_io(void);
int sensim_test_cone_scenario(void);

/* Shared by the groups (cone_fixtures.c). */
sensim_cone_shape cone_shape_deg(double theta_deg, double phi_deg, double length);
/* A world with no worker threads (jobs run inside advance). */
sensim_world *cone_world(void);
/* A static thin box (full extents dx, dy, dz) whose -X face is centred at
 * `face` and turned by `yaw` about Z; returns the body. */
sensim_body *cone_thin_box(sensim_world *w, double dx, double dy, double dz, sensim_vec3 face, double yaw,
                           int is_static);
/* Advance a static scene to the first capture and return the detection. */
sensim_detection cone_detect_once(sensim_world *w, sensim_sensor *s);

#endif
