/* tests/host/host_groups.h: the host-integration test groups and the scene
 * they share (tests/host/host_scene.c). */
#ifndef SENSIM_TESTS_HOST_GROUPS_H
#define SENSIM_TESTS_HOST_GROUPS_H

#include <stdint.h>
#include "sensim/sensim.h"

int sensim_test_host_flow(void);
int sensim_test_host_reset(void);
int sensim_test_host_bad_input(void);
int sensim_test_host_long_run(void);
int sensim_test_host_mujoco(void);

/* A small town loop: ground, a pole and boxes, and a car driving a circle
 * with a camera (32 x 24), a lidar (8 x 180), a GNSS receiver and an IMU. */
typedef struct host_rig {
  sensim_world *world;
  sensim_body *car;
  sensim_sensor *cam, *lidar, *gnss, *imu;
} host_rig;

typedef struct host_rates {
  double rate[4], phase[4], lag[4]; /* camera, lidar, gnss, imu */
} host_rates;

/* The 60 s test's schedule: 30 / 10 / 10 / 200 Hz with phases off the 1 ms
 * grid and lags of 45 / 30 / 50 / 2.5 ms. */
host_rates host_rates_default(void);

/* Build the rig in a new world; `noise` adds the built-in noise filters
 * (image_noise, lidar_noise + points, gnss_noise, imu_noise). Fails the
 * test on error. */
void host_rig_build(host_rig *r, int threads, uint64_t seed, const host_rates *rates, int noise);

/* The car's exact state at t: a 6 m circle at 3 m/s, with velocity and
 * acceleration given. */
sensim_body_state host_car_state(double t);

/* FNV-1a over a frame's header fields and payload bytes. */
uint64_t host_hash_frame(uint64_t h, const sensim_frame *f);

/* Live heap bytes (glibc mallinfo2, or the sanitizer's count under ASan). */
size_t host_heap_bytes(void);

#endif
