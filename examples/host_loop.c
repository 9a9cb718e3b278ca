/* examples/host_loop.c: the smallest host loop. A box drives in a circle
 * around a pole at 1 kHz "dynamics"; a lidar and an IMU ride on it. Each
 * lidar scan's point count and the mean IMU specific force are printed.
 *
 * Build: part of the CMake build (example_host_loop). Run: ./example_host_loop */
#include <math.h>
#include <stdio.h>
#include <sensim/sensim.h>

#define CHECK(x)                                                                   \
  do {                                                                             \
    sensim_status st_ = (x);                                                       \
    if (st_ != SENSIM_OK) {                                                        \
      fprintf(stderr, "%s failed: %s (%s)\n", #x, sensim_last_error(), sensim_status_str(st_)); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

int main(void) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  sensim_world *world = NULL;
  CHECK(sensim_world_create(&wp, &world));

  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *pole = NULL, *ground = NULL, *car_mesh = NULL;
  sensim_shape s_pole = {SENSIM_SHAPE_CYLINDER, {0.2, 0, 3}, 32};
  sensim_shape s_ground = {SENSIM_SHAPE_PLANE, {60, 60, 0}, 0};
  sensim_shape s_car = {SENSIM_SHAPE_BOX, {0.75, 0.35, 0.25}, 0};
  CHECK(sensim_mesh_create_shape(world, &s_pole, &mat, &pole));
  CHECK(sensim_mesh_create_shape(world, &s_ground, &mat, &ground));
  CHECK(sensim_mesh_create_shape(world, &s_car, &mat, &car_mesh));

  sensim_body_params bp;
  sensim_body *b = NULL, *car = NULL;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.mesh = ground;
  CHECK(sensim_body_create(world, &bp, &b));
  bp.mesh = pole;
  CHECK(sensim_body_create(world, &bp, &b));
  sensim_body_params_init(&bp);
  bp.mesh = car_mesh;
  CHECK(sensim_body_create(world, &bp, &car));

  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "lidar";
  sp.body = car;
  sp.mount.pos.z = 0.3;
  sp.rate = 10;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  sensim_sensor *lidar = NULL, *imu = NULL;
  CHECK(sensim_lidar_create(world, &sp, &lp, &lidar));
  CHECK(sensim_sensor_add_filter(lidar, "points", NULL));
  sensim_sensor_params_init(&sp);
  sp.name = "imu";
  sp.body = car;
  sp.rate = 100;
  CHECK(sensim_imu_create(world, &sp, &imu));

  const double radius = 5.0, speed = 2.0, w = speed / radius;
  for (int i = 0; i <= 1000; i++) { /* one second of 1 kHz dynamics */
    double t = i * 1e-3, a = w * t;
    sensim_body_state st = {0};
    st.pose.pos = (sensim_vec3){radius * cos(a), radius * sin(a), 0.125};
    st.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a + M_PI / 2);
    st.flags = 0; /* poses only: sensim estimates velocity and acceleration */
    CHECK(sensim_body_push_state(car, t, &st));
    CHECK(sensim_world_advance(world, t));
    const sensim_frame *f;
    while (sensim_sensor_poll(lidar, &f) == SENSIM_OK && f)
      printf("t=%.3f lidar scan %llu: %zu points\n", f->t_capture, (unsigned long long)f->index, f->count);
    while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f)
      if (f->index % 25 == 0) {
        const sensim_imu_sample *s = f->data;
        printf("t=%.3f imu accel (%.3f, %.3f, %.3f) m/s^2 gyro z %.4f rad/s (expect centripetal %.3f, yaw %.3f)\n",
               f->t_capture, s->accel[0], s->accel[1], s->accel[2], s->gyro[2], speed * w, w);
      }
  }
  sensim_world_destroy(world);
  return 0;
}
