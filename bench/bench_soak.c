/* bench/bench_soak.c: endurance (issue 32). Every sensor kind (camera with
 * its ISP chain, lidar, radar, cone sensor, GNSS, IMU, magnetometer) at
 * its default rate on a car driving a circle among static boxes, the
 * host pushing the car's state every step (100 Hz), every frame recorded
 * to MCAP in rotating files (a new file every --rotate simulated seconds,
 * only the last --keep kept on disk), for --sim-seconds of simulated time
 * (86400: a day). Every --report simulated seconds it prints the resident
 * set's peak (read every simulated second), the open file descriptors, the frames delivered, the bytes
 * recorded and the wall time per host step (median, 99th percentile and
 * maximum over the interval): flat lines mean nothing is lost or leaks.
 *
 *   bench_soak [--sim-seconds S] [--report S] [--rotate S] [--keep N]
 *              [--out DIR] [--small] [--check]
 *
 * --small: small images and scans (the CI-sized run); --check: exit 1 if
 * the resident set's peak over the second half of the run exceeds its
 * peak over the first half (after the first file, the warm-up in which
 * pools, caches and allocator arenas fill) by more than 2 MiB + 2 %, if
 * the number of open descriptors changed after the warm-up, or if a
 * sensor stopped delivering. The resident set swings within each file's
 * life (the recorder's chunk buffers are freed when a file closes), so
 * peaks over many files are compared, not single readings. The ctest "soak" runs `--small --check --sim-seconds 600`.
 * Nothing about speed is asserted (latency is reported only). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "sensim/sensim.h"

#define CHECK(x)                                                                        \
  do {                                                                                  \
    sensim_status st_ = (x);                                                            \
    if (st_ != SENSIM_OK) {                                                             \
      fprintf(stderr, "%s: %s\n", #x, sensim_last_error());                             \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

static const char kScenarioFmt[] =
    "{\"duration\": 1e5, \"step\": 0.01,"
    " \"world\": {\"seed\": 5, \"threads\": 2, \"origin\": [47.0, 8.0, 400.0]},"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [2, 2, 3]}},"
    "              {\"name\": \"ground\", \"shape\": {\"kind\": \"plane\", \"size\": [120, 120, 0]}}],"
    " \"lights\": [{\"kind\": \"directional\", \"direction\": [0.3, 0.2, -1]}],"
    " \"bodies\": [{\"name\": \"ground\", \"mesh\": \"ground\", \"static\": true},"
    "   {\"name\": \"b1\", \"mesh\": \"box\", \"static\": true, \"pose\": {\"position\": [12, 0, 1.5]}},"
    "   {\"name\": \"b2\", \"mesh\": \"box\", \"static\": true, \"pose\": {\"position\": [-9, 8, 1.5]}},"
    "   {\"name\": \"b3\", \"mesh\": \"box\", \"static\": true, \"pose\": {\"position\": [0, -14, 1.5]}},"
    "   {\"name\": \"car\", \"motion\": {\"type\": \"circle\", \"radius\": 6, \"speed\": 3}}],"
    " \"sensors\": ["
    "  {\"type\": \"camera\", \"name\": \"cam\", \"body\": \"car\", \"width\": %d, \"height\": %d,"
    "   \"samples\": 1, \"mount\": {\"position\": [0, 0, 1.5]},"
    "   \"filters\": [{\"name\": \"image_sensor\"}, {\"name\": \"noise_emva1288\"}, {\"name\": \"adc\"},"
    "                 {\"name\": \"tone\"}, {\"name\": \"quantize\"}]},"
    "  {\"type\": \"lidar\", \"name\": \"lid\", \"body\": \"car\", \"preset\": \"VLP-16\", \"columns\": %d,"
    "   \"mount\": {\"position\": [0, 0, 1.8]}, \"filters\": [{\"name\": \"points\"}]},"
    "  {\"type\": \"radar\", \"name\": \"radar\", \"body\": \"car\", \"mount\": {\"position\": [2, 0, 0.5]}},"
    "  {\"type\": \"cone\", \"name\": \"cone\", \"body\": \"car\"},"
    "  {\"type\": \"gnss\", \"name\": \"gnss\", \"body\": \"car\", \"filters\": [{\"name\": \"gnss_noise\"}]},"
    "  {\"type\": \"imu\", \"name\": \"imu\", \"body\": \"car\", \"filters\": [{\"name\": \"imu_noise\"}]},"
    "  {\"type\": \"magnetometer\", \"name\": \"mag\", \"body\": \"car\"}"
    " ]}";

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &res) != 2) res = 0;
    fclose(f);
  }
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d) return -1;
  for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
  closedir(d);
  return n - 1; /* the one opendir holds */
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct recording {
  sensim_recorder *rec;
  sensim_world *w;
  const char *dir;
  int index, keep;
} recording;

static void file_name(const recording *r, int i, char *buf, size_t n) {
  snprintf(buf, n, "%s/soak_%05d.mcap", r->dir, i);
}

/* Close the current file and start the next; remove the one beyond
 * `keep`. */
static void rotate(recording *r) {
  if (r->rec) CHECK(sensim_recorder_close(r->rec));
  r->rec = NULL;
  char path[1024];
  if (r->index >= r->keep) {
    file_name(r, r->index - r->keep, path, sizeof path);
    unlink(path);
  }
  file_name(r, r->index++, path, sizeof path);
  unlink(path);
  CHECK(sensim_recorder_open(path, r->w, NULL, &r->rec));
}

int main(int argc, char **argv) {
  double sim = 86400, report = 600, rotate_s = 300;
  int keep = 3, small = 0, check = 0;
  const char *out = "out/soak";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--sim-seconds") && i + 1 < argc) sim = atof(argv[++i]);
    else if (!strcmp(argv[i], "--report") && i + 1 < argc) report = atof(argv[++i]);
    else if (!strcmp(argv[i], "--rotate") && i + 1 < argc) rotate_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--keep") && i + 1 < argc) keep = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--small")) small = 1;
    else if (!strcmp(argv[i], "--check")) check = 1;
    else {
      fprintf(stderr, "usage: bench_soak [--sim-seconds S] [--report S] [--rotate S] [--keep N] [--out DIR] "
                      "[--small] [--check]\n");
      return 2;
    }
  }
  if (!(sim > 0 && report > 0 && rotate_s > 0 && keep >= 1)) {
    fprintf(stderr, "bench_soak: durations must be > 0 and --keep >= 1\n");
    return 2;
  }
  CHECK(sensim_mkdirs(out));
  static char json[8192];
  snprintf(json, sizeof json, kScenarioFmt, small ? 32 : 640, small ? 24 : 480, small ? 90 : 1800);
  sensim_scenario *scn = NULL;
  CHECK(sensim_scenario_load_string(json, ".", &scn));
  sensim_world *w = sensim_scenario_world(scn);
  const size_t ns = sensim_world_sensor_count(w);
  recording r = {NULL, w, out, 0, keep};
  rotate(&r);

  const double step = 0.01;
  const long nsteps = (long)(sim / step + 0.5), per_report = (long)(report / step + 0.5),
             per_file = (long)(rotate_s / step + 0.5);
  double *lat = malloc((size_t)per_report * sizeof *lat);
  long *frames = calloc(ns, sizeof *frames), *frames_before = calloc(ns, sizeof *frames_before);
  if (!lat || !frames || !frames_before) return 1;
  printf("# bench_soak: %zu sensors, %.0f s simulated, %s, files of %.0f s (last %d kept) in %s\n", ns, sim,
         small ? "small" : "full-size", rotate_s, keep, out);
  printf("%10s %10s %6s %10s %9s %9s %9s\n", "sim_s", "rss_peak", "fds", "frames", "p50_ms", "p99_ms", "max_ms");
  long peak1 = 0, peak2 = 0, rss_peak = 0;
  int fds_warm = -1, bad = 0, interval = 0;
  double wall0 = bench_wall_s();
  for (long k = 1; k <= nsteps; k++) {
    const double t = k * step;
    double t0 = bench_wall_s();
    CHECK(sensim_scenario_step_to(scn, t));
    for (size_t i = 0; i < ns; i++) {
      sensim_sensor *s = sensim_world_sensor(w, i);
      const sensim_frame *f = NULL;
      while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
        frames[i]++;
        sensim_status st = sensim_recorder_write(r.rec, s, f);
        /* Kinds with no ROS 2 message (the cone sensor) are not recorded. */
        if (st && st != SENSIM_ETYPE) CHECK(st);
      }
    }
    CHECK(sensim_recorder_advance(r.rec, t));
    lat[(k - 1) % per_report] = (bench_wall_s() - t0) * 1e3;
    /* The resident set swings with each file's buffers: its peak over
     * the interval, read every simulated second. */
    if (k % 100 == 0) {
      long now = rss_kib();
      rss_peak = now > rss_peak ? now : rss_peak;
    }
    if (k % per_file == 0 && k < nsteps) rotate(&r);
    if (k % per_report == 0) {
      interval++;
      qsort(lat, (size_t)per_report, sizeof *lat, cmp_double);
      long rss = rss_peak, total = 0;
      rss_peak = 0;
      int fds = open_fds();
      for (size_t i = 0; i < ns; i++) total += frames[i];
      printf("%10.0f %10ld %6d %10ld %9.3f %9.3f %9.3f\n", t, rss, fds, total, lat[per_report / 2],
             lat[(long)(0.99 * (per_report - 1))], lat[per_report - 1]);
      fflush(stdout);
      for (size_t i = 0; i < ns; i++) {
        if (interval > 1 && frames[i] == frames_before[i]) {
          printf("# sensor %s delivered nothing in the last interval\n", sensim_sensor_name(sensim_world_sensor(w, i)));
          bad = 1;
        }
        frames_before[i] = frames[i];
      }
      if (t > rotate_s) { /* past the warm-up */
        if (fds_warm < 0) fds_warm = fds;
        if (t <= sim / 2) peak1 = rss > peak1 ? rss : peak1;
        else peak2 = rss > peak2 ? rss : peak2;
        if (check && fds != fds_warm) {
          printf("# open descriptors changed from %d to %d since the warm-up\n", fds_warm, fds);
          bad = 1;
        }
      }
    }
  }
  CHECK(sensim_recorder_close(r.rec));
  double wall = bench_wall_s() - wall0;
  printf("# %.0f s simulated in %.1f s wall: real-time factor %.1f\n", sim, wall, sim / wall);
  sensim_scenario_destroy(scn);
  free(lat);
  free(frames);
  free(frames_before);
  printf("# resident set peak: %ld KiB in the first half (after the first file), %ld KiB in the second\n", peak1,
         peak2);
  if (check && (!peak1 || !peak2)) {
    printf("# --check needs report intervals in both halves after the first file\n");
    bad = 1;
  } else if (check && peak2 > peak1 + 2048 + peak1 / 50) {
    printf("# the resident set grew\n");
    bad = 1;
  }
  if (check) printf("# check: %s\n", bad ? "FAILED" : "passed");
  return check && bad ? 1 : 0;
}
