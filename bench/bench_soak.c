/* bench/bench_soak.c: endurance. Every sensor kind (camera, lidar, radar,
 * GNSS, IMU, magnetometer, cone) at its default rate rides a car lapping a
 * 20 m circle among static boxes and cones; the host steps at 100 Hz,
 * pushes the car's state, advances, polls every sensor and records every
 * frame a ROS 2 message carries (all but radar and cone frames) to MCAP
 * files it rotates every --rotate
 * simulated seconds (closing one, opening the next, deleting all but the
 * last two: sensim has no rotation of its own, a host does it this way).
 * Every --window simulated seconds it reports the process's resident
 * memory, its open file descriptors, the process CPU time per host step
 * (all threads: the host's and the workers' captures; mean over the
 * window, which other jobs on a shared machine do not inflate) and the
 * worst wall time of a step.
 *
 *   bench_soak [--hours H | --seconds S] [--rotate S] [--window S] [--ci] [--dir D]
 *
 * --ci: the CI-sized run (10 simulated minutes, a 160 x 120 camera at one
 * sample per pixel, rotation every 60 s): exits 1 if memory or open files
 * grew, or the mean step CPU time rose, from the second window to the last
 * (the first window holds the warm-up: pools, BVHs, first files).
 * Thresholds: resident memory +2 MiB (a drift of 2 MiB in 9 simulated
 * minutes would be 300 MiB in a day), open files +0, mean step CPU time
 * 3x (a shared machine's noise, not a leak, moves it by less). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "sensim/sensim.h"

#define PROG "bench_soak"
#define STEP 0.01
#define NSENS 7

static double rss_mib(void) {
  FILE *fp = fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (fp) {
    if (fscanf(fp, "%ld %ld", &pages, &res) != 2) res = 0;
    fclose(fp);
  }
  return (double)res * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1; /* the listing's own descriptor */
}

/* The car on a 20 m circle at 5 m/s, with its derivatives (so the IMU and
 * GNSS see exact motion). */
static sensim_body_state car_state(double t) {
  const double r = 20.0, w = 5.0 / r;
  sensim_body_state s;
  memset(&s, 0, sizeof s);
  double a = w * t;
  s.pose.pos = (sensim_vec3){r * cos(a), r * sin(a), 0.5};
  s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a + 1.5707963267948966);
  s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  s.lin_vel = (sensim_vec3){-r * w * sin(a), r * w * cos(a), 0};
  s.ang_vel = (sensim_vec3){0, 0, w};
  s.lin_acc = (sensim_vec3){-r * w * w * cos(a), -r * w * w * sin(a), 0};
  return s;
}

typedef struct soak {
  sensim_world *w;
  sensim_body *car;
  sensim_sensor *s[NSENS];
} soak;

static int build(soak *k, int ci) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 2;
  BENCH_CHECK(PROG, -1, sensim_world_create(&wp, &k->w));
  sensim_shape ground = {SENSIM_SHAPE_PLANE, {200, 200, 0}, 0}, box = {SENSIM_SHAPE_BOX, {2, 2, 2}, 0},
               cone = {SENSIM_SHAPE_CONE, {0.15, 0, 0.3}, 16};
  sensim_mesh *gm, *bm, *cm;
  BENCH_CHECK(PROG, -1, sensim_mesh_create_shape(k->w, &ground, NULL, &gm));
  BENCH_CHECK(PROG, -1, sensim_mesh_create_shape(k->w, &box, NULL, &bm));
  BENCH_CHECK(PROG, -1, sensim_mesh_create_shape(k->w, &cone, NULL, &cm));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.mesh = gm;
  sensim_body *b;
  BENCH_CHECK(PROG, -1, sensim_body_create(k->w, &bp, &b));
  for (int i = 0; i < 36; i++) { /* boxes outside the circle, cones inside */
    double a = i * 0.17453292519943295;
    bp.mesh = i % 2 ? bm : cm;
    bp.class_id = i % 2 ? 1 : 2;
    double r = i % 2 ? 26.0 : 17.0;
    bp.pose.pos = (sensim_vec3){r * cos(a), r * sin(a), i % 2 ? 1.0 : 0.0};
    BENCH_CHECK(PROG, -1, sensim_body_create(k->w, &bp, &b));
  }
  sensim_body_params_init(&bp);
  bp.pose = car_state(0).pose;
  BENCH_CHECK(PROG, -1, sensim_body_create(k->w, &bp, &k->car));
  sensim_body_state s0 = car_state(0);
  BENCH_CHECK(PROG, -1, sensim_body_push_state(k->car, 0.0, &s0));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = k->car;
  sp.mount.pos.z = 1.0;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  if (ci) cp.width = 160, cp.height = 120, cp.samples = 1;
  sp.name = "camera";
  BENCH_CHECK(PROG, -1, sensim_camera_create(k->w, &sp, &cp, &k->s[0]));
  BENCH_CHECK(PROG, -1, sensim_sensor_add_filter(k->s[0], "srgb8", NULL));
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  sp.name = "lidar";
  BENCH_CHECK(PROG, -1, sensim_lidar_create(k->w, &sp, &lp, &k->s[1]));
  BENCH_CHECK(PROG, -1, sensim_sensor_add_filter(k->s[1], "points", NULL));
  sensim_radar_params rp;
  sensim_radar_params_init(&rp);
  sp.name = "radar";
  BENCH_CHECK(PROG, -1, sensim_radar_create(k->w, &sp, &rp, &k->s[2]));
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  sp.name = "gnss";
  BENCH_CHECK(PROG, -1, sensim_gnss_create(k->w, &sp, &gp, &k->s[3]));
  sensim_imu_params ip;
  sensim_imu_params_init(&ip);
  sp.name = "imu";
  BENCH_CHECK(PROG, -1, sensim_imu_create(k->w, &sp, &ip, &k->s[4]));
  sensim_magnetometer_params mp;
  sensim_magnetometer_params_init(&mp);
  sp.name = "magnetometer";
  BENCH_CHECK(PROG, -1, sensim_magnetometer_create(k->w, &sp, &mp, &k->s[5]));
  sensim_cone_params cnp;
  sensim_cone_params_init(&cnp);
  sp.name = "cone";
  BENCH_CHECK(PROG, -1, sensim_cone_create(k->w, &sp, &cnp, &k->s[6]));
  return 0;
}

typedef struct window_stats {
  double t, rss, mean_ms, worst_ms;
  int fds;
  unsigned long frames, files;
} window_stats;

int main(int argc, char **argv) {
  double seconds = 24 * 3600.0, rotate = 600.0, window = 3600.0;
  int ci = 0;
  const char *dir = "/tmp/sensim_soak";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--hours") && i + 1 < argc) seconds = 3600.0 * atof(argv[++i]);
    else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "--rotate") && i + 1 < argc) rotate = atof(argv[++i]);
    else if (!strcmp(argv[i], "--window") && i + 1 < argc) window = atof(argv[++i]);
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
    else if (!strcmp(argv[i], "--ci")) ci = 1, seconds = 600.0, rotate = 60.0, window = 60.0;
    else {
      fprintf(stderr, "usage: %s [--hours H | --seconds S] [--rotate S] [--window S] [--ci] [--dir D]\n", PROG);
      return 2;
    }
  }
  if (!(seconds > 0 && rotate > 0 && window > 0)) return 2;
  BENCH_CHECK(PROG, 1, sensim_mkdirs(dir));
  soak k;
  memset(&k, 0, sizeof k);
  if (build(&k, ci)) return 1;
  printf("%s: %.0f simulated s, MCAP rotated every %.0f s into %s, a row per %.0f s\n\n", PROG, seconds, rotate,
         dir, window);
  printf("| simulated s | RSS MiB | open files | step CPU ms mean | step wall ms worst | frames | MCAP files |\n");
  printf("|------------:|--------:|-----------:|-----------------:|-------------------:|-------:|-----------:|\n");
  fflush(stdout);
  sensim_recorder *rec = NULL;
  char path[512], old[512];
  unsigned long files = 0, frames = 0;
  long nsteps = lround(seconds / STEP), per_rot = lround(rotate / STEP), per_win = lround(window / STEP);
  double sum = 0, worst = 0;
  window_stats first = {0}, last = {0};
  int nwin = 0;
  for (long n = 1; n <= nsteps; n++) {
    double t = n * STEP;
    if (!rec || (n - 1) % per_rot == 0) {
      if (rec) {
        BENCH_CHECK(PROG, 1, sensim_recorder_close(rec));
        if (files >= 2) {
          snprintf(old, sizeof old, "%s/soak_%06lu.mcap", dir, files - 2);
          unlink(old);
        }
      }
      snprintf(path, sizeof path, "%s/soak_%06lu.mcap", dir, files++);
      unlink(path);
      BENCH_CHECK(PROG, 1, sensim_recorder_open(path, k.w, NULL, &rec));
      BENCH_CHECK(PROG, 1, sensim_recorder_add_body(rec, k.car, "car"));
    }
    bench_span sp;
    bench_span_start(&sp);
    sensim_body_state s = car_state(t);
    BENCH_CHECK(PROG, 1, sensim_body_push_state(k.car, t, &s));
    BENCH_CHECK(PROG, 1, sensim_world_advance(k.w, t));
    for (int i = 0; i < NSENS; i++) {
      const sensim_frame *f = NULL;
      BENCH_CHECK(PROG, 1, sensim_sensor_poll(k.s[i], &f));
      while (f) {
        frames++;
        sensim_status st = sensim_recorder_write(rec, k.s[i], f);
        if (st != SENSIM_OK && st != SENSIM_ETYPE) { /* radar and cone frames have no ROS 2 message */
          fprintf(stderr, "%s: recording: %s\n", PROG, sensim_last_error());
          return 1;
        }
        BENCH_CHECK(PROG, 1, sensim_sensor_poll(k.s[i], &f));
      }
    }
    BENCH_CHECK(PROG, 1, sensim_recorder_advance(rec, t));
    bench_span_stop(&sp);
    sum += sp.cpu;
    if (sp.wall > worst) worst = sp.wall;
    if (n % per_win == 0) {
      window_stats ws = {t, rss_mib(), sum / per_win, worst, open_fds(), frames, files};
      printf("| %11.0f | %7.1f | %10d | %16.3f | %18.1f | %6lu | %10lu |\n", ws.t, ws.rss, ws.fds, ws.mean_ms,
             ws.worst_ms, ws.frames, ws.files);
      fflush(stdout);
      if (nwin == 1) first = ws;
      last = ws;
      nwin++;
      sum = worst = 0;
    }
  }
  BENCH_CHECK(PROG, 1, sensim_recorder_close(rec));
  sensim_world_destroy(k.w);
  if (nwin >= 3) {
    printf("\nfrom %.0f s to %.0f s: RSS %+.2f MiB, open files %+d, mean step x%.2f\n", first.t, last.t,
           last.rss - first.rss, last.fds - first.fds, last.mean_ms / first.mean_ms);
    if (ci && (last.rss - first.rss > 2.0 || last.fds != first.fds || last.mean_ms > 3.0 * first.mean_ms)) {
      fprintf(stderr, "%s: growth over the run (limits: RSS +2 MiB, open files +0, mean step x3)\n", PROG);
      return 1;
    }
  }
  return 0;
}
