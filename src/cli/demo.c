/* cli/demo.c: `sensim demo`, a built-in scenario needing no files.
 *
 * A 1/6-scale vehicle (0.75 x 0.35 x 0.25 m) laps a stadium course (two
 * 8 m straights joined by half-circles of 3 m radius) at 2 m/s, between
 * cones 0.3 m tall set about 1 m apart: orange on the outside, green on the
 * inside. It carries a forward camera, a 16-channel lidar, a GNSS receiver
 * and an IMU. The scenario is generated as JSON text and loaded through the
 * same loader as `sensim run`, so it doubles as a test of that path. After
 * the run, one lidar scan is drawn top-down into DIR/lidar_birdseye.png. */
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
      "    {\"name\": \"car\", \"shape\": {\"kind\": \"box\", \"size\": [0.75, 0.35, %.3f]},\n"
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
      threads, duration, CAR_HEIGHT, CAR_CLEARANCE + 0.5 * CAR_HEIGHT, COURSE_LENGTH,
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
      "     \"filters\": [{\"name\": \"imu_noise\"}], \"output\": {\"format\": \"csv\"}}\n"
      "  ]\n"
      "}\n");
  if (t.failed) {
    free(t.s);
    return NULL;
  }
  return t.s;
}

/* ---- bird's-eye view of one scan --------------------------------------- */

typedef struct cloud {
  size_t n;
  float *xyz;           /* 3 n, sensor frame */
  double view[7];       /* VIEWPOINT: sensor pose in the world, tx ty tz qw qx qy qz */
} cloud;

static float get_f32(const unsigned char *p) {
  uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &v, 4);
  return f;
}

/* Read back a binary PCD as sensim_write_pcd writes it (23-byte records,
 * x y z first). Returns 0 on success. */
static int read_pcd(const char *path, cloud *c) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return -1;
  char line[256];
  long points = -1;
  int binary = 0, ok = 0;
  c->view[3] = 1;
  while (fgets(line, sizeof line, fp)) {
    if (sscanf(line, "POINTS %ld", &points) == 1) continue;
    if (strncmp(line, "VIEWPOINT", 9) == 0)
      sscanf(line + 9, "%lf %lf %lf %lf %lf %lf %lf", &c->view[0], &c->view[1], &c->view[2],
             &c->view[3], &c->view[4], &c->view[5], &c->view[6]);
    if (strncmp(line, "DATA", 4) == 0) {
      binary = strstr(line, "binary") != NULL;
      ok = 1;
      break;
    }
  }
  if (!ok || !binary || points < 0) {
    fclose(fp);
    return -1;
  }
  c->n = (size_t)points;
  c->xyz = malloc((c->n ? c->n : 1) * 3 * sizeof *c->xyz);
  unsigned char rec[23];
  for (size_t i = 0; c->xyz && i < c->n; i++) {
    if (fread(rec, 1, sizeof rec, fp) != sizeof rec) {
      free(c->xyz);
      c->xyz = NULL;
      break;
    }
    for (int k = 0; k < 3; k++) c->xyz[3 * i + k] = get_f32(rec + 4 * k);
  }
  fclose(fp);
  return c->xyz ? 0 : -1;
}

/* v rotated by unit quaternion (w, x, y, z): v + 2w (u x v) + 2 u x (u x v). */
static void rotate(const double *q, const double *v, double *out) {
  double u[3] = {q[1], q[2], q[3]};
  double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]),
                 2 * (u[0] * v[1] - u[1] * v[0])};
  out[0] = v[0] + q[0] * t[0] + (u[1] * t[2] - u[2] * t[1]);
  out[1] = v[1] + q[0] * t[1] + (u[2] * t[0] - u[0] * t[2]);
  out[2] = v[2] + q[0] * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

/* Image window over the course, world metres. */
#define VIEW_X0 (-(COURSE_LENGTH / 2 + COURSE_RADIUS + 2.0))
#define VIEW_Y1 (COURSE_RADIUS + 2.0)
#define VIEW_RES 0.025 /* m per pixel */

static void plot(sensim_frame *img, double x, double y, int size, const unsigned char rgb[3]) {
  long cx = lround((x - VIEW_X0) / VIEW_RES), cy = lround((VIEW_Y1 - y) / VIEW_RES);
  unsigned char *px = img->data;
  for (long dy = 0; dy < size; dy++)
    for (long dx = 0; dx < size; dx++) {
      long u = cx + dx - size / 2, v = cy + dy - size / 2;
      if (u < 0 || v < 0 || u >= (long)img->width || v >= (long)img->height) continue;
      unsigned char *p = px + 4 * ((size_t)v * img->width + (size_t)u);
      p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
    }
}

/* Points in the world frame (sensor pose at the capture, from VIEWPOINT),
 * seen from above: floor returns grey, returns above the floor (cones, the
 * car's surroundings) yellow, the sensor red, the car's path blue. */
static int write_birdseye(const char *out_dir, const cloud *c) {
  uint32_t w = (uint32_t)lround(-2 * VIEW_X0 / VIEW_RES), h = (uint32_t)lround(2 * VIEW_Y1 / VIEW_RES);
  sensim_frame img;
  memset(&img, 0, sizeof img);
  img.type = SENSIM_PAYLOAD_RGBA8;
  img.width = w;
  img.height = h;
  img.count = (size_t)w * h;
  img.data = malloc(img.count * 4);
  if (!img.data) return -1;
  unsigned char *px = img.data;
  for (size_t i = 0; i < img.count; i++) {
    long u = (long)(i % w), v = (long)(i / w);
    int grid = (u % 40 == 0) || (v % 40 == 0); /* 1 m grid at 0.025 m/px */
    unsigned char g = grid ? 48 : 24;
    px[4 * i] = px[4 * i + 1] = px[4 * i + 2] = g;
    px[4 * i + 3] = 255;
  }
  static const unsigned char path_rgb[3] = {40, 70, 160}, floor_rgb[3] = {120, 120, 120},
                             high_rgb[3] = {255, 210, 40}, sensor_rgb[3] = {255, 40, 40};
  double per = 2 * COURSE_LENGTH + 2 * PI * COURSE_RADIUS;
  for (double s = 0; s < per; s += VIEW_RES) {
    double x, y;
    stadium_point(COURSE_LENGTH, COURSE_RADIUS, s, &x, &y);
    plot(&img, x, y, 1, path_rgb);
  }
  for (size_t i = 0; i < c->n; i++) {
    double p[3] = {c->xyz[3 * i], c->xyz[3 * i + 1], c->xyz[3 * i + 2]}, r[3];
    rotate(c->view + 3, p, r);
    double wx = r[0] + c->view[0], wy = r[1] + c->view[1], wz = r[2] + c->view[2];
    int high = wz > 0.03;
    plot(&img, wx, wy, high ? 3 : 2, high ? high_rgb : floor_rgb);
  }
  plot(&img, c->view[0], c->view[1], 7, sensor_rgb);
  size_t n = strlen(out_dir) + 32;
  char *path = malloc(n);
  int rc = -1;
  if (path) {
    snprintf(path, n, "%s/lidar_birdseye.png", out_dir);
    rc = sensim_write_png(path, &img) == SENSIM_OK ? 0 : -1;
    if (rc) fprintf(stderr, "sensim: %s\n", sensim_last_error());
    else printf("bird's-eye view of lidar scan: %s\n", path);
  }
  free(path);
  free(img.data);
  return rc;
}

/* Draw the last lidar scan that was written. */
static int birdseye_from_last_scan(const char *out_dir, uint64_t scans) {
  size_t n = strlen(out_dir) + 64;
  char *path = malloc(n);
  if (!path) return -1;
  int rc = -1;
  for (uint64_t k = scans; k-- > 0 && rc != 0;) {
    snprintf(path, n, "%s/lidar/scan_%06llu.pcd", out_dir, (unsigned long long)k);
    cloud c;
    memset(&c, 0, sizeof c);
    if (read_pcd(path, &c) != 0) continue;
    rc = write_birdseye(out_dir, &c);
    free(c.xyz);
    if (rc != 0) break;
  }
  free(path);
  return rc;
}

int sensim__cli_demo(const char *out_dir, int threads, double duration) {
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
  sensim_run_summary sum;
  st = sensim_scenario_run(scn, out_dir, sensim__cli_progress, NULL, &sum);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: demo: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    sensim_scenario_destroy(scn);
    return 1;
  }
  sensim__cli_print_summary(scn, &sum);
  /* The lidar is the demo's second sensor. */
  int rc = birdseye_from_last_scan(out_dir, sum.frames[1]);
  if (rc != 0) fprintf(stderr, "sensim: demo: no lidar scan could be drawn\n");
  sensim_scenario_destroy(scn);
  return rc != 0;
}
