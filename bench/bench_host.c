/* bench/bench_host.c: the cost of sensim inside a host's loop.
 *
 * 1. Overhead of sensim_world_advance on steps where nothing is due: a
 *    world with 1, 4 or 16 sensors whose first capture lies beyond the run,
 *    one dynamic body pushed every step, 1 kHz steps. Reported: ns per
 *    advance (and per push + advance), median of the per-run means.
 *    Then the 4-sensor rig of the 60 s test (30 Hz camera, 10 Hz lidar,
 *    10 Hz GNSS, 200 Hz IMU): the median host-thread time of the steps on
 *    which no capture started and no frame arrived.
 * 2. With MuJoCo (cmake/mujoco.cmake): the rover of examples/mujoco
 *    driven for S simulated seconds, real-time factor (simulated / wall
 *    seconds) of MuJoCo alone, with the bridge pushing states, and with
 *    sensors (camera 160 x 120, VLP-16 at 900 columns, GNSS, IMU) on 0 and
 *    2 worker threads. With 0 threads every capture runs inside advance,
 *    so the host thread's advance time is the rendering time R; with
 *    workers, the loop's wall time against dynamics + R says how much
 *    rendering overlapped dynamics.
 *
 *   bench_host [--quick] [--seconds S] [--idle]
 * --idle runs the first table only (bench/python_overhead.py reads it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sensim/sensim.h"
#ifdef SENSIM_HAVE_MUJOCO
#include "mujoco_bridge.h"
#endif

#define CHECK(x)                                                                        \
  do {                                                                                  \
    sensim_status st_ = (x);                                                            \
    if (st_ != SENSIM_OK) {                                                             \
      fprintf(stderr, "%s: %s\n", #x, sensim_last_error());                             \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

static sensim_body_state circle(double t) {
  sensim_body_state s = {0};
  double a = 0.5 * t;
  s.pose.pos = (sensim_vec3){6 * cos(a), 6 * sin(a), 0.3};
  s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a + 1.5707963267948966);
  return s;
}

static sensim_world *idle_world(int nsensors, double phase, sensim_body **car) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  sensim_world *w = NULL;
  CHECK(sensim_world_create(&wp, &w));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  CHECK(sensim_body_create(w, &bp, car));
  for (int i = 0; i < nsensors; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    char name[16];
    snprintf(name, sizeof name, "imu%d", i);
    sp.name = name;
    sp.body = *car;
    sp.rate = 100;
    sp.phase = phase; /* beyond the run: never due */
    sensim_sensor *s = NULL;
    sensim_imu_params ip;
    sensim_imu_params_init(&ip);
    CHECK(sensim_imu_create(w, &sp, &ip, &s));
  }
  return w;
}

static void bench_idle(int quick) {
  const int counts[3] = {1, 4, 16};
  const long steps = quick ? 20000 : 200000;
  printf("advance overhead when nothing is due (%ld steps of 1 ms, median of 5 runs)\n", steps);
  printf("| sensors | advance, ns/step | push + advance, ns/step | advance + poll all, ns/step |\n"
         "|---:|---:|---:|---:|\n");
  for (int c = 0; c < 3; c++) {
    double adv[5], both[5], polled[5];
    for (int r = 0; r < 5; r++) {
      /* Two loops without clock reads inside: advance alone (the body is
       * not pushed), then push + advance as a host does it. */
      sensim_body *car = NULL;
      sensim_world *w = idle_world(counts[c], 1e6, &car);
      double t0 = bench_wall_s();
      for (long i = 0; i < steps; i++) CHECK(sensim_world_advance(w, i * 1e-3));
      adv[r] = (bench_wall_s() - t0) / steps * 1e9;
      sensim_world_destroy(w);
      w = idle_world(counts[c], 1e6, &car);
      t0 = bench_wall_s();
      for (long i = 0; i < steps; i++) {
        double t = i * 1e-3;
        sensim_body_state st = circle(t);
        CHECK(sensim_body_push_state(car, t, &st));
        CHECK(sensim_world_advance(w, t));
      }
      both[r] = (bench_wall_s() - t0) / steps * 1e9;
      sensim_world_destroy(w);
      /* advance + a poll of every sensor, the loop bench/python_overhead.py
       * times through the Python package. */
      w = idle_world(counts[c], 1e6, &car);
      size_t n = sensim_world_sensor_count(w);
      t0 = bench_wall_s();
      for (long i = 0; i < steps; i++) {
        CHECK(sensim_world_advance(w, i * 1e-3));
        for (size_t k = 0; k < n; k++) {
          const sensim_frame *f = NULL;
          CHECK(sensim_sensor_poll(sensim_world_sensor(w, k), &f));
        }
      }
      polled[r] = (bench_wall_s() - t0) / steps * 1e9;
      sensim_world_destroy(w);
    }
    printf("| %d | %.0f | %.0f | %.0f |\n", counts[c], bench_median(adv, 5), bench_median(both, 5),
           bench_median(polled, 5));
  }
}

/* ---- the 60 s test's rig, steps with nothing due ---- */

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void bench_rig_idle_steps(int quick) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  sensim_world *w = NULL;
  CHECK(sensim_world_create(&wp, &w));
  sensim_material m;
  sensim_material_init(&m);
  sensim_shape ground = {SENSIM_SHAPE_PLANE, {60, 60, 0}, 0}, box = {SENSIM_SHAPE_BOX, {1.2, 0.6, 0.4}, 0};
  sensim_mesh *gm = NULL, *bm = NULL;
  CHECK(sensim_mesh_create_shape(w, &ground, &m, &gm));
  CHECK(sensim_mesh_create_shape(w, &box, &m, &bm));
  sensim_body_params bp;
  sensim_body *b = NULL, *car = NULL;
  sensim_body_params_init(&bp);
  bp.mesh = gm;
  bp.is_static = 1;
  CHECK(sensim_body_create(w, &bp, &b));
  sensim_body_params_init(&bp);
  bp.mesh = bm;
  CHECK(sensim_body_create(w, &bp, &car));
  const double rate[4] = {30, 10, 10, 200}, phase[4] = {0.002, 0.0005, 0.0003, 0.0001},
               lag[4] = {0.045, 0.030, 0.050, 0.0025};
  sensim_sensor *s[4];
  for (int i = 0; i < 4; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    const char *names[4] = {"cam", "lidar", "gnss", "imu"};
    sp.name = names[i];
    sp.body = car;
    sp.rate = rate[i];
    sp.phase = phase[i];
    sp.lag = lag[i];
    if (i == 0) {
      sensim_camera_params cp;
      sensim_camera_params_init(&cp);
      cp.width = 32, cp.height = 24, cp.samples = 1;
      CHECK(sensim_camera_create(w, &sp, &cp, &s[i]));
    } else if (i == 1) {
      sensim_lidar_params lp;
      sensim_lidar_params_init(&lp);
      lp.channels = 8, lp.columns = 180;
      CHECK(sensim_lidar_create(w, &sp, &lp, &s[i]));
    } else if (i == 2) {
      sensim_gnss_params gp;
      sensim_gnss_params_init(&gp);
      CHECK(sensim_gnss_create(w, &sp, &gp, &s[i]));
    } else {
      sensim_imu_params ip;
      sensim_imu_params_init(&ip);
      CHECK(sensim_imu_create(w, &sp, &ip, &s[i]));
    }
  }
  const long steps = quick ? 2000 : 20000;
  double *idle = malloc(steps * sizeof *idle);
  long nidle = 0;
  for (long i = 0; i < steps; i++) {
    double t = i * 1e-3;
    sensim_body_state st = circle(t);
    uint64_t before = 0, after = 0;
    for (int k = 0; k < 4; k++) before += sensim_sensor_frames_captured(s[k]) + sensim_sensor_frames_delivered(s[k]);
    double a = bench_wall_s();
    CHECK(sensim_body_push_state(car, t, &st));
    CHECK(sensim_world_advance(w, t));
    const sensim_frame *f;
    for (int k = 0; k < 4; k++)
      while (sensim_sensor_poll(s[k], &f) == SENSIM_OK && f) {
      }
    double dt = bench_wall_s() - a;
    for (int k = 0; k < 4; k++) after += sensim_sensor_frames_captured(s[k]) + sensim_sensor_frames_delivered(s[k]);
    if (after == before) idle[nidle++] = dt * 1e9;
  }
  qsort(idle, (size_t)nidle, sizeof *idle, cmp_d);
  printf("\n60 s test rig (camera, lidar, GNSS, IMU; 2 workers): %ld of %ld steps had nothing due; "
         "push + advance + 4 polls on those: median %.0f ns, 90th percentile %.0f ns\n",
         nidle, steps, idle[nidle / 2], idle[nidle * 9 / 10]);
  free(idle);
  sensim_world_destroy(w);
}

#ifdef SENSIM_HAVE_MUJOCO
typedef struct rover_run {
  double wall, dyn, push, sensim; /* s */
} rover_run;

/* mode 0: MuJoCo alone; 1: + bridge pushes; 2: + sensors with the
 * example's lags (camera one period, IMU none); 3: + sensors with lags of
 * three periods (camera 0.1 s, lidar 0.3 s, GNSS 0.3 s, IMU 15 ms), so
 * frames can be in flight while the host steps. */
static rover_run rover(double seconds, int mode, int threads) {
  char err[512] = "";
  mjModel *m = mj_loadXML(SENSIM_MUJOCO_MODEL, NULL, err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
  mjData *d = mj_makeData(m);
  mj_forward(m, d);
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = threads;
  wp.gravity = -m->opt.gravity[2];
  sensim_world *w = NULL;
  CHECK(sensim_world_create(&wp, &w));
  sensim_light sun;
  sensim_light_init(&sun);
  CHECK(sensim_light_add(w, &sun));
  mjb_bridge br;
  CHECK(mjb_create(m, d, w, &br));
  sensim_body *chassis = br.frame[mj_name2id(m, mjOBJ_BODY, "chassis")];
  sensim_sensor *s[4] = {NULL, NULL, NULL, NULL};
  if (mode >= 2) {
    const int slack = mode == 3;
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.body = chassis;
    sp.name = "camera", sp.rate = 30, sp.lag = slack ? 0.1 : 0.03, sp.mount.pos = (sensim_vec3){0.42, 0, 0.12};
    sensim_camera_params cp;
    sensim_camera_params_init(&cp);
    cp.width = 160, cp.height = 120, cp.samples = 1;
    CHECK(sensim_camera_create(w, &sp, &cp, &s[0]));
    sensim_lidar_params lp;
    CHECK(sensim_lidar_preset("VLP-16", &lp));
    lp.columns = 900;
    sp.name = "lidar", sp.rate = 10, sp.lag = slack ? 0.3 : 0.02, sp.mount.pos = (sensim_vec3){0, 0, 0.25};
    CHECK(sensim_lidar_create(w, &sp, &lp, &s[1]));
    sp.name = "gnss", sp.rate = 10, sp.lag = slack ? 0.3 : 0.05, sp.window = -1;
    sensim_gnss_params gp;
    sensim_gnss_params_init(&gp);
    CHECK(sensim_gnss_create(w, &sp, &gp, &s[2]));
    sp.name = "imu", sp.rate = 200, sp.lag = slack ? 0.015 : 0;
    sp.mount = mjb_site_mount(m, mj_name2id(m, mjOBJ_SITE, "imu"));
    sensim_imu_params ip;
    sensim_imu_params_init(&ip);
    CHECK(sensim_imu_create(w, &sp, &ip, &s[3]));
  }
  rover_run r = {0, 0, 0, 0};
  long steps = lround(seconds / m->opt.timestep);
  double t0 = bench_wall_s();
  for (long i = 0; i < steps; i++) {
    double a = bench_wall_s(), t = d->time;
    mjb_rover_control(m, d);
    mj_step(m, d);
    double b = bench_wall_s();
    r.dyn += b - a;
    if (mode == 0) continue;
    CHECK(mjb_push(&br, d, t));
    double c = bench_wall_s();
    r.push += c - b;
    CHECK(sensim_world_advance(w, t));
    const sensim_frame *f;
    for (int k = 0; k < 4; k++)
      while (s[k] && sensim_sensor_poll(s[k], &f) == SENSIM_OK && f) {
      }
    r.sensim += bench_wall_s() - c;
  }
  r.wall = bench_wall_s() - t0;
  sensim_world_destroy(w);
  mjb_free(&br);
  mj_deleteData(d);
  mj_deleteModel(m);
  return r;
}

static void bench_mujoco(double seconds) {
  printf("\nMuJoCo rover (examples/mujoco/rover.xml, 2 ms steps), %.0f simulated s per run\n", seconds);
  printf("| run | wall s | real-time factor | host: dynamics s | push s | advance + poll s |\n|---|---:|---:|---:|---:|---:|\n");
  rover_run a = rover(seconds, 0, 0), b = rover(seconds, 1, 0), c = rover(seconds, 2, 0), e = rover(seconds, 2, 2);
  rover_run c3 = rover(seconds, 3, 0), e3 = rover(seconds, 3, 2);
  const char *names[6] = {"MuJoCo alone", "+ bridge pushes", "+ sensors, 0 workers", "+ sensors, 2 workers",
                          "+ sensors, lags of 3 periods, 0 workers", "+ sensors, lags of 3 periods, 2 workers"};
  rover_run all[6] = {a, b, c, e, c3, e3};
  for (int i = 0; i < 6; i++)
    printf("| %s | %.3f | %.2f | %.3f | %.3f | %.3f |\n", names[i], all[i].wall, seconds / all[i].wall, all[i].dyn,
           all[i].push, all[i].sensim);
  /* With 0 workers every capture runs inside advance: R = its time, and
   * the loop is serial. With workers, the loop's wall time against the
   * serial sum says how much of the work ran beside the host thread (both
   * dynamics overlapping rendering and rendering spread over workers). */
  const rover_run *zero[2] = {&c, &c3}, *two[2] = {&e, &e3};
  const char *lags[2] = {"the example's lags", "lags of 3 periods"};
  for (int i = 0; i < 2; i++) {
    double R = zero[i]->sensim, serial = two[i]->dyn + two[i]->push + R;
    printf("\n%s: rendering R = %.3f s (advance time with 0 workers); with 2 workers: loop %.3f s against "
           "dynamics + push + R = %.3f s (ratio %.2f), of which the host thread waited in advance %.3f s",
           lags[i], R, two[i]->wall, serial, two[i]->wall / serial, two[i]->sensim);
  }
  printf("\n");
}
#endif

int main(int argc, char **argv) {
  int quick = 0, idle_only = 0;
  double seconds = 10.0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--idle")) idle_only = 1;
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
  }
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_host on %s\n\n", cpu);
  bench_idle(quick);
  if (idle_only) return 0;
  bench_rig_idle_steps(quick);
#ifdef SENSIM_HAVE_MUJOCO
  bench_mujoco(quick ? 1.0 : seconds);
#else
  printf("\nMuJoCo not found at configure time: rover runs skipped\n");
#endif
  return 0;
}
