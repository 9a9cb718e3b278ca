/* tests/inertial/inertial_groups.h: the groups of test_inertial (IMU
 * kinematics and error model, unit conversions, magnetometer, Allan
 * deviation of simulated IMUs and the `sensim allan` command), and helpers
 * they share. */
#ifndef SENSIM_TESTS_INERTIAL_GROUPS_H
#define SENSIM_TESTS_INERTIAL_GROUPS_H

#include <sensim_tools/sensim_tools.h>
#include "filters/chain.h"
#include "support/testutil.h"

int sensim_test_inertial_motion(void);
int sensim_test_inertial_keyframes(void);
int sensim_test_inertial_errors(void);
int sensim_test_inertial_units(void);
int sensim_test_inertial_allan(void);
int sensim_test_inertial_mag(void);
int sensim_test_inertial_cli(void);
int sensim_test_inertial_mag_scenario(void);
int sensim_test_inertial_gravity(void);

/* Run a built-in filter's apply on f with the context a chain would give
 * frame f->index of sensor `sensor` at slot 0 (world seed `seed`). */
sensim_status inertial_apply(const sensim_builtin_filter *b, void *user, sensim_frame *f,
                             uint64_t seed, uint32_t sensor);

/* A one-sample IMU frame at capture time t with window w over `s`. */
void inertial_imu_frame(sensim_frame *f, sensim_imu_sample *s, uint64_t index, double t, double w);

#endif
