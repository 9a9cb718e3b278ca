/* examples/host_loop.c: the smallest host loop, no engine. A box drives in
 * a circle around a pole at 1 kHz "dynamics"; every sensor kind rides on
 * it: a camera, a lidar, a GNSS receiver and an IMU, each with its own rate
 * and lag. Lidar, camera and GNSS frames are polled after each advance; IMU
 * samples arrive through a callback, in delivery order, inside advance.
 * A second episode after sensim_world_reset repeats the first exactly.
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

/* Runs on the host thread inside sensim_world_advance (sensor.h): read
 * the frame, copy what you keep; never advance or reset the world here. */
static void on_imu(sensim_sensor *sensor, const sensim_frame *f, void *user) {
  (void)sensor;
  double *sum = user;
  const sensim_imu_sample *s = f->data;
  sum[0] += s->accel[0];
  sum[1] += s->gyro[2];
  sum[2] += 1;
}

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
  sp.lag = 0.002;
  sensim_imu_params ip;
  sensim_imu_params_init(&ip);
  CHECK(sensim_imu_create(world, &sp, &ip, &imu));
  double imu_sum[3] = {0, 0, 0};
  CHECK(sensim_sensor_set_callback(imu, on_imu, imu_sum));

  sensim_sensor *cam = NULL, *gnss = NULL;
  sensim_sensor_params_init(&sp);
  sp.name = "camera";
  sp.body = car;
  sp.mount.pos = (sensim_vec3){0.4, 0, 0.2};
  sp.rate = 30;
  sp.lag = 0.040;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 64;
  cp.height = 48;
  CHECK(sensim_camera_create(world, &sp, &cp, &cam));
  CHECK(sensim_sensor_add_filter(cam, "srgb8", NULL));
  /* A camera slower than the host may skip frames rather than stall it. */
  CHECK(sensim_sensor_set_overrun(cam, 2, SENSIM_OVERRUN_SKIP));
  sensim_sensor_params_init(&sp);
  sp.name = "gnss";
  sp.body = car;
  sp.rate = 10;
  sp.lag = 0.050;
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  CHECK(sensim_gnss_create(world, &sp, &gp, &gnss));

  const double radius = 5.0, speed = 2.0, w = speed / radius;
  for (int episode = 0; episode < 2; episode++) {
    if (episode > 0) CHECK(sensim_world_reset(world)); /* time zero again, geometry kept */
    imu_sum[0] = imu_sum[1] = imu_sum[2] = 0;
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
      while (sensim_sensor_poll(gnss, &f) == SENSIM_OK && f) {
        const sensim_gnss_fix *g = f->data;
        if (f->index % 5 == 0)
          printf("t=%.3f gnss fix %llu: east %.3f north %.3f m, %.2f m/s (delivered at %.3f)\n", f->t_capture,
                 (unsigned long long)f->index, g->enu[0], g->enu[1], g->speed, f->t_deliver);
      }
      while (sensim_sensor_poll(cam, &f) == SENSIM_OK && f)
        if (f->index % 10 == 0)
          printf("t=%.3f camera frame %llu: %ux%u %s\n", f->t_capture, (unsigned long long)f->index, f->width,
                 f->height, sensim_payload_name(f->type));
    }
    printf("episode %d: imu %.0f samples, mean forward specific force %.3f m/s^2, mean yaw rate %.4f rad/s "
           "(expect %.3f, %.3f); camera frames skipped %llu\n",
           episode, imu_sum[2], imu_sum[0] / imu_sum[2], imu_sum[1] / imu_sum[2], 0.0, w,
           (unsigned long long)sensim_sensor_frames_skipped(cam));
  }
  sensim_world_destroy(world);
  return 0;
}
