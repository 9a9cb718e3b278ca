/* sensim/sensim.h: the whole public API of sensim.
 *
 * sensim turns a host simulator's ground truth (geometry and body motion)
 * into what real sensors deliver. Typical use from a dynamics loop:
 *
 *   sensim_world_create(&wp, &world);
 *   sensim_mesh_create_shape(world, &box, &mat, &mesh);
 *   sensim_body_create(world, &bp, &car);
 *   sensim_lidar_create(world, &sp, &lp, &lidar);
 *   sensim_sensor_add_filter(lidar, "points", NULL);
 *   for (each step) {
 *     sensim_body_push_state(car, t, &state);
 *     sensim_world_advance(world, t);
 *     while (sensim_sensor_poll(lidar, &f) == SENSIM_OK && f) use(f);
 *   }
 *   sensim_world_destroy(world);
 *
 * The evaluation tools (VEPD, Allan deviation, noise calibration, image
 * augmentation and statistics, ablation) are a separate library on top of
 * this API: sensim_tools/sensim_tools.h, libsensim_tools. */
#ifndef SENSIM_SENSIM_H
#define SENSIM_SENSIM_H

#include "sensim/status.h"
#include "sensim/types.h"
#include "sensim/rng.h"
#include "sensim/geodesy.h"
#include "sensim/world.h"
#include "sensim/tile.h"
#include "sensim/environment.h"
#include "sensim/frame.h"
#include "sensim/sensor.h"
#include "sensim/filter.h"
#include "sensim/units.h"
#include "sensim/camera.h"
#include "sensim/lidar.h"
#include "sensim/gnss.h"
#include "sensim/imu.h"
#include "sensim/magnetometer.h"
#include "sensim/cone.h"
#include "sensim/radar.h"
#include "sensim/io.h"
#include "sensim/nmea.h"
#include "sensim/scenario.h"
#include "sensim/record.h"

#define SENSIM_VERSION_MAJOR 0
#define SENSIM_VERSION_MINOR 1
#define SENSIM_VERSION_PATCH 0

#endif
