/* examples/cone_published.c: the published cone-sensor experiments,
 * reproduced with sensim's cone sensor (docs/cone.md).
 *
 * 1. A 1 m x 1 m face of a thin box 1 m in front of the sensor, centred on
 *    its axis, measured with the lines method for N = 2, 10, 100, 1000,
 *    next to the exact and rays methods, with the published elevation
 *    error bound atan(half_extent / ((N - 1) d)).
 * 2. The off-axis face at cone-frame (x, y, z) = (5, 0, 7), i.e. sensor
 *    (X, Y, Z) = (7, 5, 0): 7 m ahead, 5 m to the left, turned about Z to
 *    face the sensor.
 * 3. The speed experiment: the face moving straight out from 0.2 m to 10 m
 *    at 0.25, 1 and 2 m/s; mean and spread (sample standard deviation) of
 *    both speed methods over the frames where both are defined.
 *
 * Cone: 90 deg x 90 deg, 12 m long. Sensor at the world origin looking
 * along +X, 20 Hz. Public API only.
 *
 * Build: CMake target example_cone_published. Run: ./example_cone_published */
#include <math.h>
#include <stdio.h>
#include <sensim/cone.h>
#include <sensim/sensim.h>

#define PI 3.14159265358979323846
#define DEG (180.0 / PI)

#define CHECK(x)                                                                                \
  do {                                                                                          \
    sensim_status st_ = (x);                                                                    \
    if (st_ != SENSIM_OK) {                                                                     \
      fprintf(stderr, "%s failed: %s (%s)\n", #x, sensim_last_error(), sensim_status_str(st_)); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

/* A thin box (0.02 m x 1 m x 1 m) whose -X face is centred at (x, y, 0)
 * and faces the origin (turned by atan2(y, x) about Z). */
static int add_face(sensim_world *w, double x, double y, int is_static, sensim_body **out) {
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.02, 1.0, 1.0}, 0};
  sensim_mesh *m = NULL;
  CHECK(sensim_mesh_create_shape(w, &sh, NULL, &m));
  double yaw = atan2(y, x);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = is_static;
  bp.pose.pos = (sensim_vec3){x + 0.01 * cos(yaw), y + 0.01 * sin(yaw), 0.0};
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  CHECK(sensim_body_create(w, &bp, out));
  return 0;
}

static int make_world(sensim_world **w) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  CHECK(sensim_world_create(&wp, w));
  return 0;
}

static void cone_defaults(sensim_cone_params *cp) {
  sensim_cone_params_init(cp);
  cp->theta = cp->phi = 90.0 / DEG;
  cp->length = 12.0;
}

/* One static measurement of a face at (x, y) with the given method. */
static int measure(double x, double y, sensim_cone_method method, int n, sensim_detection *out) {
  sensim_world *w = NULL;
  sensim_body *b = NULL;
  sensim_sensor *s = NULL;
  if (make_world(&w) || add_face(w, x, y, 1, &b)) return 1;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20.0;
  sensim_cone_params cp;
  cone_defaults(&cp);
  cp.method = method;
  cp.lines = n;
  cp.rays = n;
  CHECK(sensim_cone_create(w, &sp, &cp, &s));
  CHECK(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  CHECK(sensim_sensor_poll(s, &f));
  if (!f) return 1;
  *out = *(const sensim_detection *)f->data;
  sensim_world_destroy(w);
  return 0;
}

static int table(const char *title, double x, double y) {
  const double d = hypot(x, y);
  printf("\n%s: face centre at sensor (%.0f, %.0f, 0), %.4f m away\n", title, x, y, d);
  printf("%-8s %6s %12s %12s %14s %14s\n", "method", "N", "range m", "azimuth deg", "elevation deg",
         "bound deg");
  const int ns[4] = {2, 10, 100, 1000};
  sensim_detection det;
  for (int i = 0; i < 4; i++) {
    if (measure(x, y, SENSIM_CONE_LINES, ns[i], &det)) return 1;
    printf("%-8s %6d %12.6f %12.6f %14.6f %14.6f\n", "lines", ns[i], det.range, det.azimuth * DEG,
           det.elevation * DEG, atan(0.5 / ((ns[i] - 1) * d)) * DEG);
  }
  if (measure(x, y, SENSIM_CONE_EXACT, 2, &det)) return 1;
  printf("%-8s %6s %12.6f %12.6f %14.6f %14s\n", "exact", "-", det.range, det.azimuth * DEG,
         det.elevation * DEG, "0");
  const int nr[2] = {65, 257};
  for (int i = 0; i < 2; i++) {
    if (measure(x, y, SENSIM_CONE_RAYS, nr[i], &det)) return 1;
    /* Rays: directions within max(a, b) sqrt(2)/(n - 1) rad of a ray. */
    printf("%-8s %6d %12.6f %12.6f %14.6f %14.6f\n", "rays", nr[i], det.range, det.azimuth * DEG,
           det.elevation * DEG, sqrt(2.0) / (nr[i] - 1) * DEG);
  }
  return 0;
}

/* Running mean and variance (Welford, Technometrics 4(3), 1962): no
 * cancellation when the spread is tiny against the mean. */
typedef struct stats {
  double n, mean, m2;
} stats;

static void add(stats *s, double v) {
  s->n += 1;
  double d = v - s->mean;
  s->mean += d / s->n;
  s->m2 += d * (v - s->mean);
}
static double mean(const stats *s) { return s->mean; }
static double sdev(const stats *s) { return s->n > 1 ? sqrt(s->m2 / (s->n - 1)) : 0.0; }

/* The face moving from 0.2 m to 10 m at v m/s; host steps of 10 ms. */
static int speed_run(double v, sensim_cone_method method, int n) {
  sensim_world *w = NULL;
  sensim_body *b = NULL;
  sensim_sensor *s = NULL;
  const double x0 = 0.2, x1 = 10.0;
  if (make_world(&w) || add_face(w, x0, 0.0, 0, &b)) return 1;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20.0;
  sensim_cone_params cp;
  cone_defaults(&cp);
  cp.method = method;
  cp.lines = n;
  CHECK(sensim_cone_create(w, &sp, &cp, &s));
  stats sd = {0, 0, 0}, sr = {0, 0, 0};
  const double T = (x1 - x0) / v;
  for (int j = 0; j * 0.01 <= T + 1e-9; j++) {
    double t = j * 0.01;
    sensim_body_state st = {0};
    st.pose.pos = (sensim_vec3){x0 + 0.01 + v * t, 0.0, 0.0};
    st.pose.rot = (sensim_quat){1, 0, 0, 0};
    st.flags = SENSIM_STATE_VELOCITY;
    st.lin_vel = (sensim_vec3){v, 0, 0};
    CHECK(sensim_body_push_state(b, t, &st));
    CHECK(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
      const sensim_detection *d = f->data;
      if (!d->detected || isnan(d->speed_diff)) continue;
      add(&sd, d->speed_diff);
      add(&sr, d->radial_speed);
    }
  }
  printf("%-6s %5.2f %7.0f %14.9f %12.3e %7.3f%% %14.9f %12.3e\n", method == SENSIM_CONE_LINES ? "lines" : "exact",
         v, sd.n, mean(&sd), sdev(&sd), 100.0 * sdev(&sd) / v, mean(&sr), sdev(&sr));
  sensim_world_destroy(w);
  return 0;
}

int main(void) {
  printf("sensim cone sensor: the published experiments (cone 90 x 90 deg, 12 m)\n");
  if (table("1 m x 1 m face at 1 m, on the axis", 1.0, 0.0)) return 1;
  if (table("off-axis face at cone (5, 0, 7)", 7.0, 5.0)) return 1;
  printf("\nspeed: face moving out from 0.2 m to 10 m, sensor 20 Hz, host 100 Hz\n");
  printf("%-6s %5s %7s %14s %12s %8s %14s %12s\n", "method", "v m/s", "frames", "speed_diff", "spread",
         "spread", "radial_speed", "spread");
  const double vs[3] = {0.25, 1.0, 2.0};
  for (int i = 0; i < 3; i++) {
    if (speed_run(vs[i], SENSIM_CONE_LINES, 10)) return 1;
    if (speed_run(vs[i], SENSIM_CONE_EXACT, 2)) return 1;
  }
  return 0;
}
