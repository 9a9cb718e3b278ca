/* examples/mujoco_host.c: sensim inside MuJoCo's loop.
 *
 * Loads an MJCF model (default: examples/mujoco/rover.xml), turns its geoms
 * into sensim meshes, and after every mj_step pushes each moving body's and
 * geom's pose, velocity and acceleration (examples/mujoco_bridge.c). A
 * camera, a lidar, a GNSS receiver and an IMU ride the rover's chassis;
 * capture jobs run on sensim's workers while MuJoCo keeps stepping.
 *
 *   example_mujoco_host [model.xml] [--seconds S] [--threads N] [--no-sensors]
 *                       [--png last_camera.png]
 *
 * Prints a line per lidar scan and GNSS fix, then the real-time factor and
 * where the host thread's time went (dynamics vs sensim calls). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mujoco_bridge.h"

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    sensim_status st_ = (x);                                                                       \
    if (st_ != SENSIM_OK) {                                                                        \
      fprintf(stderr, "%s failed: %s (%s)\n", #x, sensim_last_error(), sensim_status_str(st_));  \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static sensim_sensor_params on_chassis(const char *name, sensim_body *chassis, double rate, double lag) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = name;
  sp.body = chassis;
  sp.rate = rate;
  sp.lag = lag;
  return sp;
}

int main(int argc, char **argv) {
  const char *path = SENSIM_MUJOCO_MODEL, *png = NULL;
  double seconds = 10.0;
  int threads = 2, sensors = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-sensors")) sensors = 0;
    else if (!strcmp(argv[i], "--png") && i + 1 < argc) png = argv[++i];
    else if (argv[i][0] != '-') path = argv[i];
    else {
      fprintf(stderr, "usage: %s [model.xml] [--seconds S] [--threads N] [--no-sensors] [--png out.png]\n", argv[0]);
      return 2;
    }
  }
  char err[1000] = "";
  mjModel *m = mj_loadXML(path, NULL, err, sizeof err);
  if (!m) {
    fprintf(stderr, "cannot load %s: %s\n", path, err);
    return 1;
  }
  mjData *d = mj_makeData(m);
  mj_forward(m, d);

  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = threads;
  wp.gravity = -m->opt.gravity[2];
  wp.origin_lat = 47.3769; /* Zurich, for the GNSS fixes */
  wp.origin_lon = 8.5417;
  wp.origin_height = 408.0;
  sensim_world *w = NULL;
  CHECK(sensim_world_create(&wp, &w));
  sensim_light sun;
  sensim_light_init(&sun);
  sun.direction = (sensim_vec3){0.3, 0.2, -1.0};
  CHECK(sensim_light_add(w, &sun));
  mjb_bridge br;
  CHECK(mjb_create(m, d, w, &br));
  if (br.skipped_geoms) printf("%d height-field geoms not converted\n", br.skipped_geoms);

  int chassis_id = mj_name2id(m, mjOBJ_BODY, "chassis");
  if (chassis_id < 0) chassis_id = 1; /* another model: ride its first body */
  sensim_body *chassis = br.frame[chassis_id];
  sensim_sensor *cam = NULL, *lidar = NULL, *gnss = NULL, *imu = NULL;
  if (sensors) {
    sensim_sensor_params sp = on_chassis("camera", chassis, 30, 0.030);
    sp.mount.pos = (sensim_vec3){0.42, 0, 0.12};
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 160;
    cp.height = 120;
    cp.samples = 1;
    CHECK(sensim_camera_create(w, &sp, &cp, &cam));
    CHECK(sensim_sensor_add_filter(cam, "srgb8", NULL));
    sp = on_chassis("lidar", chassis, 10, 0.020);
    sp.mount.pos = (sensim_vec3){0, 0, 0.25};
    sensim_lidar_params lp;
    CHECK(sensim_lidar_preset("VLP-16", &lp));
    lp.columns = 900;
    CHECK(sensim_lidar_create(w, &sp, &lp, &lidar));
    CHECK(sensim_sensor_add_filter(lidar, "points", NULL));
    sp = on_chassis("gnss", chassis, 10, 0.050);
    sp.mount.pos = (sensim_vec3){-0.2, 0, 0.2};
    sensim_gnss_params gp;
    sensim_gnss_params_init(&gp);
    CHECK(sensim_gnss_create(w, &sp, &gp, &gnss));
    CHECK(sensim_sensor_add_filter(gnss, "gnss_noise", NULL));
    sp = on_chassis("imu", chassis, 200, 0.0);
    int site = mj_name2id(m, mjOBJ_SITE, "imu");
    if (site >= 0) sp.mount = mjb_site_mount(m, site);
    sensim_imu_params ip;
    sensim_imu_params_init(&ip);
    CHECK(sensim_imu_create(w, &sp, &ip, &imu));
    CHECK(sensim_sensor_add_filter(imu, "imu_noise", NULL));
  }

  long steps = lround(seconds / m->opt.timestep), imu_frames = 0;
  double t_dyn = 0, t_sensim = 0, acc_sum[3] = {0, 0, 0};
  double t0 = now();
  for (long i = 0; i < steps; i++) {
    double a = now();
    double t = d->time;
    mjb_rover_control(m, d);
    mj_step(m, d);
    double b = now();
    /* The kinematics in d are those of time t, the step's start. */
    CHECK(mjb_push(&br, d, t));
    CHECK(sensim_world_advance(w, t));
    const sensim_frame *f;
    if (sensors) {
      while (sensim_sensor_poll(lidar, &f) == SENSIM_OK && f)
        printf("t=%6.3f lidar scan %3llu: %6zu points\n", f->t_capture, (unsigned long long)f->index, f->count);
      while (sensim_sensor_poll(gnss, &f) == SENSIM_OK && f)
        if (f->index % 10 == 0) {
          const sensim_gnss_fix *g = f->data;
          printf("t=%6.3f gnss %.7f N %.7f E, %.2f m/s, course %.1f deg\n", f->t_capture, g->lat, g->lon, g->speed,
                 g->course);
        }
      while (sensim_sensor_poll(imu, &f) == SENSIM_OK && f) {
        const sensim_imu_sample *s = f->data;
        for (int k = 0; k < 3; k++) acc_sum[k] += s->accel[k];
        imu_frames++;
      }
      while (sensim_sensor_poll(cam, &f) == SENSIM_OK && f)
        if (png && f->t_capture > seconds - 0.2) CHECK(sensim_write_png(png, f));
    }
    double c = now();
    t_dyn += b - a;
    t_sensim += c - b;
  }
  double wall = now() - t0;
  if (sensors) {
    printf("imu: %ld samples, mean specific force (%.3f, %.3f, %.3f) m/s^2\n", imu_frames, acc_sum[0] / imu_frames,
           acc_sum[1] / imu_frames, acc_sum[2] / imu_frames);
    printf("frames: camera %llu, lidar %llu, gnss %llu, imu %llu (skipped %llu)\n",
           (unsigned long long)sensim_sensor_frames_delivered(cam),
           (unsigned long long)sensim_sensor_frames_delivered(lidar),
           (unsigned long long)sensim_sensor_frames_delivered(gnss),
           (unsigned long long)sensim_sensor_frames_delivered(imu),
           (unsigned long long)(sensim_sensor_frames_skipped(cam) + sensim_sensor_frames_skipped(lidar)));
  }
  printf("%.1f s simulated in %.3f s wall: real-time factor %.2f (%s, %d worker threads); host thread: "
         "dynamics %.3f s, sensim calls %.3f s\n",
         seconds, wall, seconds / wall, sensors ? "with sensors" : "no sensors", threads, t_dyn, t_sensim);
  sensim_world_destroy(w);
  mjb_free(&br);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
