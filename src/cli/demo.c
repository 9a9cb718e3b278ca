/* cli/demo.c: `sensim demo`, a built-in scenario needing no files.
 *
 * A 1/6-scale vehicle (0.75 x 0.35 x 0.25 m) laps a stadium course (two
 * 8 m straights joined by half-circles of 3 m radius) at 2 m/s, between
 * cones 0.3 m tall set about 1 m apart: orange on the outside, green on the
 * inside. It carries a forward camera, a 16-channel lidar, a GNSS receiver
 * and an IMU. The scenario is generated as JSON text and loaded through the
 * same loader as `sensim run`, so it doubles as a test of that path. A
 * second lidar with the same parameters draws its scans top-down with the
 * "birdseye" filter (DIR/lidar_bev/); the last one becomes the figure
 * DIR/lidar_birdseye.png, with metric axes, a scale bar, the vehicle and
 * a colour bar of height (sensim_tools/birdseye.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"


#define PI 3.14159265358979323846

/* Course geometry, m and m/s. */
#define COURSE_LENGTH 8.0   /* each straight */
#define COURSE_RADIUS 3.0   /* centre line of the turns */
#define COURSE_SPEED 2.0
#define LANE_HALF 0.6       /* cones stand this far either side of the centre line */
#define CONE_SPACING 1.0
#define CAR_HEIGHT 0.25
#define CAR_CLEARANCE 0.05
#define CAR_LENGTH 0.75
#define CAR_WIDTH 0.35

/* The bird's-eye lidar's picture: the filter's parameters, which the
 * figure repeats. Sensor at 0.475 m: the floor is at -0.475 m, the cones'
 * tips at -0.175 m, so the height ramp spans the cones. */
#define BEV_SIZE_PX 800
#define BEV_RANGE 10.0
#define BEV_Z_MIN -0.5
#define BEV_Z_MAX -0.1

/* ---- a growing text buffer -------------------------------------------- */

typedef struct text {
  char *s;
  size_t n, cap;
  int failed;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  if (t->failed) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
    va_end(ap);
    if (w < 0) {
      t->failed = 1;
      return;
    }
    if (t->s && t->n + (size_t)w < t->cap) {
      t->n += (size_t)w;
      return;
    }
    size_t cap = t->cap ? t->cap : 4096;
    while (cap <= t->n + (size_t)w) cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) {
      t->failed = 1;
      return;
    }
    t->s = s;
    t->cap = cap;
  }
}

/* ---- the course -------------------------------------------------------- */

/* Point at arc length s along a counter-clockwise stadium of straight
 * length len and radius r centred at the origin, starting mid-way along the
 * lower straight: the same parametrisation as the loader's "stadium"
 * motion (docs/scenario.md), so cones line the car's path exactly. */
static void stadium_point(double len, double r, double s, double *x, double *y) {
  double h = 0.5 * len, arc = PI * r;
  if (s < h) {
    *x = s, *y = -r;
    return;
  }
  s -= h;
  if (s < arc) {
    double a = -PI / 2 + s / r;
    *x = h + r * cos(a), *y = r * sin(a);
    return;
  }
  s -= arc;
  if (s < len) {
    *x = h - s, *y = r;
    return;
  }
  s -= len;
  if (s < arc) {
    double a = PI / 2 + s / r;
    *x = -h + r * cos(a), *y = r * sin(a);
    return;
  }
  s -= arc;
  *x = -h + s, *y = -r;
}

static void put_cones(text *t, const char *mesh, int class_id, double r, int *first) {
  double per = 2 * COURSE_LENGTH + 2 * PI * r;
  int n = (int)floor(per / CONE_SPACING + 0.5);
  for (int i = 0; i < n; i++) {
    double x, y;
    stadium_point(COURSE_LENGTH, r, per * i / n, &x, &y);
    put(t, "%s\n    {\"name\": \"%s_%03d\", \"mesh\": \"%s\", \"class_id\": %d, \"static\": true, "
           "\"pose\": {\"position\": [%.4f, %.4f, 0]}}",
        *first ? "" : ",", mesh, i, mesh, class_id, x, y);
    *first = 0;
  }
}

static char *demo_json(int threads, double duration) {
  text t = {0};
  put(&t,
      "{\n"
      "  \"description\": \"sensim demo: 1/6-scale vehicle on a coned stadium course\",\n"
      "  \"world\": {\"seed\": 2024, \"threads\": %d, \"origin\": [47.3769, 8.5417, 408.0],\n"
      "            \"background\": [0.45, 0.62, 0.9], \"ambient\": 0.6},\n"
      "  \"duration\": %.17g,\n"
      "  \"step\": 0.001,\n"
      "  \"meshes\": [\n"
      "    {\"name\": \"floor\", \"shape\": {\"kind\": \"plane\", \"size\": [40, 30, 0]},\n"
      "     \"material\": {\"base_color\": [0.32, 0.32, 0.3], \"reflectance\": 0.2}},\n"
      "    {\"name\": \"car\", \"shape\": {\"kind\": \"box\", \"size\": [%.3f, %.3f, %.3f]},\n"
      "     \"material\": {\"base_color\": [0.08, 0.15, 0.6], \"reflectance\": 0.5}},\n"
      "    {\"name\": \"cone_orange\", \"shape\": {\"kind\": \"cone\", \"size\": [0.1, 0.1, 0.3],\n"
      "     \"segments\": 24}, \"material\": {\"base_color\": [0.95, 0.3, 0.02], \"reflectance\": 0.7}},\n"
      "    {\"name\": \"cone_green\", \"shape\": {\"kind\": \"cone\", \"size\": [0.1, 0.1, 0.3],\n"
      "     \"segments\": 24}, \"material\": {\"base_color\": [0.05, 0.6, 0.08], \"reflectance\": 0.7}}\n"
      "  ],\n"
      "  \"lights\": [\n"
      "    {\"kind\": \"directional\", \"direction\": [-0.4, -0.3, -1.0], \"intensity\": 2.6,\n"
      "     \"color\": [1.0, 0.97, 0.9], \"shadows\": true}\n"
      "  ],\n"
      "  \"bodies\": [\n"
      "    {\"name\": \"floor\", \"mesh\": \"floor\", \"class_id\": 1, \"static\": true},\n"
      "    {\"name\": \"car\", \"mesh\": \"car\", \"class_id\": 2,\n"
      "     \"motion\": {\"type\": \"stadium\", \"center\": [0, 0, %.3f], \"length\": %g,\n"
      "                \"radius\": %g, \"speed\": %g, \"direction\": \"ccw\"}}",
      threads, duration, CAR_LENGTH, CAR_WIDTH, CAR_HEIGHT, CAR_CLEARANCE + 0.5 * CAR_HEIGHT,
      COURSE_LENGTH,
      COURSE_RADIUS, COURSE_SPEED);
  int first = 0;
  put_cones(&t, "cone_orange", 3, COURSE_RADIUS + LANE_HALF, &first);
  put_cones(&t, "cone_green", 4, COURSE_RADIUS - LANE_HALF, &first);
  put(&t,
      "\n  ],\n"
      "  \"sensors\": [\n"
      "    {\"name\": \"camera\", \"type\": \"camera\", \"body\": \"car\",\n"
      "     \"mount\": {\"position\": [0.38, 0, 0.08], \"rpy\": [0, 0.12, 0]},\n"
      "     \"rate\": 10, \"lag\": 0.05, \"exposure_time\": 0.005, \"line_time\": 2e-5,\n"
      "     \"width\": 320, \"height\": 240, \"hfov_deg\": 100, \"samples\": 4,\n"
      "     \"lens\": \"brown_conrady\", \"fx\": 150, \"fy\": 150,\n"
      "     \"dist\": [-0.25, 0.06, 0.0005, -0.0003, 0], \"vignetting\": true,\n"
      "     \"filters\": [{\"name\": \"cfa\", \"params\": {\"pattern\": \"RGGB\"}},\n"
      "                 {\"name\": \"image_sensor\"}, {\"name\": \"noise_emva1288\"},\n"
      "                 {\"name\": \"adc\"}, {\"name\": \"demosaic\"},\n"
      "                 {\"name\": \"white_balance\"}, {\"name\": \"auto_exposure\"},\n"
      "                 {\"name\": \"tone\"}, {\"name\": \"quantize\"}],\n"
      "     \"output\": {\"format\": \"png\"}},\n"
      "    {\"name\": \"lidar\", \"type\": \"lidar\", \"body\": \"car\",\n"
      "     \"mount\": {\"position\": [0, 0, 0.3]}, \"rate\": 10, \"lag\": 0.02, \"channels\": 16,\n"
      "     \"elev_min_deg\": -15, \"elev_max_deg\": 15, \"columns\": 900, \"hfov_deg\": 360,\n"
      "     \"start_azimuth_deg\": -180, \"min_range\": 0.3, \"max_range\": 50,\n"
      "     \"filters\": [{\"name\": \"points\"}], \"output\": {\"format\": \"pcd\"}},\n"
      "    {\"name\": \"gnss\", \"type\": \"gnss\", \"body\": \"car\",\n"
      "     \"mount\": {\"position\": [-0.2, 0, 0.15]}, \"rate\": 10, \"lag\": 0.05,\n"
      "     \"filters\": [{\"name\": \"gnss_noise\", \"params\": {\"sigma\": [0.02, 0.02, 0.04]}}],\n"
      "     \"output\": {\"format\": \"csv\"}},\n"
      "    {\"name\": \"imu\", \"type\": \"imu\", \"body\": \"car\", \"rate\": 100, \"lag\": 0.002,\n"
      "     \"filters\": [{\"name\": \"imu_noise\"}], \"output\": {\"format\": \"csv\"}},\n"
      /* The lidar's twin, last so the other sensors keep their ids (and so
       * their random streams). */
      "    {\"name\": \"lidar_bev\", \"type\": \"lidar\", \"body\": \"car\",\n"
      "     \"mount\": {\"position\": [0, 0, 0.3]}, \"rate\": 2, \"lag\": 0.02, \"channels\": 16,\n"
      "     \"elev_min_deg\": -15, \"elev_max_deg\": 15, \"columns\": 900, \"hfov_deg\": 360,\n"
      "     \"start_azimuth_deg\": -180, \"min_range\": 0.3, \"max_range\": 50,\n"
      "     \"filters\": [{\"name\": \"birdseye\", \"params\": {\"size_px\": %d, \"range\": %g,\n"
      "                  \"color\": \"height\", \"z_min\": %g, \"z_max\": %g}}],\n"
      "     \"output\": {\"format\": \"png\"}}\n"
      "  ]\n"
      "}\n",
      BEV_SIZE_PX, BEV_RANGE, BEV_Z_MIN, BEV_Z_MAX);
  if (t.failed) {
    free(t.s);
    return NULL;
  }
  return t.s;
}

/* ---- bird's-eye view --------------------------------------------------- */

/* The last picture the "lidar_bev" sensor wrote (frame_K.png for
 * K = frames - 1, frames being delivered in capture order from 0) as a
 * figure: DIR/lidar_birdseye.png. The lidar sits at the car's centre in
 * plan, so the footprint is centred on the sensor. Returns 0 on success. */
static int write_birdseye_figure(const char *out_dir, uint64_t frames) {
  if (frames == 0) return -1;
  size_t n = strlen(out_dir) + 64;
  char *src = malloc(n), *dst = malloc(n);
  int rc = -1;
  if (src && dst) {
    snprintf(src, n, "%s/lidar_bev/frame_%06llu.png", out_dir, (unsigned long long)(frames - 1));
    snprintf(dst, n, "%s/lidar_birdseye.png", out_dir);
    sensim_birdseye_figure_params p;
    sensim_birdseye_figure_params_init(&p);
    p.range = BEV_RANGE;
    p.color = SENSIM_BIRDSEYE_HEIGHT;
    p.z_min = BEV_Z_MIN;
    p.z_max = BEV_Z_MAX;
    p.vehicle_length = CAR_LENGTH;
    p.vehicle_width = CAR_WIDTH;
    p.title = "demo: last lidar scan from above";
    sensim_status st = sensim_birdseye_figure_png(src, &p, dst, NULL);
    if (st == SENSIM_OK) {
      printf("bird's-eye view of lidar scan: %s\n", dst);
      rc = 0;
    } else {
      fprintf(stderr, "sensim: demo: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    }
  }
  free(src);
  free(dst);
  return rc;
}

int sensim__cli_demo(const char *out_dir, int threads, double duration, int force, const char *mcap,
                     const sensim_recorder_params *rp) {
  char *json = demo_json(threads, duration);
  if (!json) {
    fprintf(stderr, "sensim: demo: out of memory\n");
    return 1;
  }
  sensim_scenario *scn = NULL;
  sensim_status st = sensim_scenario_load_string(json, NULL, &scn);
  free(json);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: demo scenario: %s (%s)\n", sensim_last_error(),
            sensim_status_str(st));
    return 1;
  }
  if (sensim__cli_prepare_out("demo", out_dir, scn, force) != 0 ||
      sensim__cli_check_mcap("demo", mcap, force) != 0) {
    sensim_scenario_destroy(scn);
    return 1;
  }
  sensim_scenario_run_options ro;
  sensim_scenario_run_options_init(&ro);
  ro.out_dir = out_dir;
  ro.progress = sensim__cli_progress;
  ro.mcap = mcap;
  ro.mcap_params = rp;
  sensim_run_summary sum;
  st = sensim_scenario_run_ex(scn, &ro, &sum);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: demo: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    sensim_scenario_destroy(scn);
    return 1;
  }
  sensim__cli_print_summary(scn, &sum);
  if (mcap) printf("ROS 2 recording: %s\n", mcap);
  /* lidar_bev is the demo's fifth sensor. */
  int rc = write_birdseye_figure(out_dir, sum.frames[4]);
  if (rc != 0) fprintf(stderr, "sensim: demo: the bird's-eye view could not be written\n");
  sensim_scenario_destroy(scn);
  return rc != 0;
}
