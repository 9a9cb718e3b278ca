/* tests/radar/radar_groups.h: the radar's test groups (tests/radar/). */
#ifndef SENSIM_TESTS_RADAR_GROUPS_H
#define SENSIM_TESTS_RADAR_GROUPS_H

#include "sensim/radar.h"

int sensim_test_radar_model(void);
int sensim_test_radar_detect(void);
int sensim_test_radar_io(void);
int sensim_test_radar_facets(void);
int sensim_test_radar_fmcw(void);
int sensim_test_radar_cfar(void);
int sensim_test_radar_dbscan(void);

/* Shared by the groups (radar_fixtures.c). */

/* 76.5 GHz, 3 x 3 deg field of view sampled every 0.015 deg, no noise,
 * 0.2-400 m; the rest sensim_radar_params_init's. */
sensim_radar_params radar_test_params(void);
/* A world-fixed radar at the origin looking along +X, 10 Hz. */
sensim_sensor *radar_test_sensor(sensim_world *w, const sensim_radar_params *rp);
/* A metal (specular 1, diffuse 0) square trihedral of edge a with its apex
 * at `apex` and its symmetry axis pointing at the origin; static. */
sensim_body *radar_corner(sensim_world *w, double a, sensim_vec3 apex);
/* A metal square plate of side `side` centred at `c`, facing -X; dynamic
 * when vel is non-NULL (moving at *vel, m/s, states pushed over [-0.2, 0]). */
sensim_body *radar_plate(sensim_world *w, double side, sensim_vec3 c, const sensim_vec3 *vel);
/* A square plate of side `side` centred at c, its normal -X turned by
 * `yaw` about Z, of material (specular, diffuse); static. */
sensim_body *radar_plate_material(sensim_world *w, double side, sensim_vec3 c, double yaw, float specular,
                                  float diffuse);
/* A metal square plate of side `side` centred at c, turned about Z to
 * face the origin, moving at vel (states pushed over [-0.2, 0]). */
sensim_body *radar_plate_facing(sensim_world *w, double side, sensim_vec3 c, sensim_vec3 vel);
/* radar_corner moving at *vel (states pushed over [-0.2, 0]). */
sensim_body *radar_corner_moving(sensim_world *w, double a, sensim_vec3 apex, sensim_vec3 vel);
/* Advance to t = 0 and copy the first frame's detections (at most max)
 * into out; returns how many there were. */
size_t radar_capture(sensim_world *w, sensim_sensor *s, sensim_radar_detection *out, size_t max);
/* sigma = 12 pi a^4 / lambda^2, m^2 (Knott, "Radar Cross Section", 2nd ed., table 5.1). */
double radar_trihedral_rcs(double a, double frequency);

#endif
