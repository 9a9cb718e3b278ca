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
 * 3. The speed experiment (the thesis's Table 4 setup): the face moving
 *    straight out from the origin to 10 m at 0.25, 1 and 2 m/s; mean and
 *    spread (sample standard deviation) of the published speed (Eq. 3.9),
 *    the range rate by differences and the exact radial speed over the
 *    frames where they are defined, beside the thesis's 0.249, 0.988, 1.946.
 *
 * The thesis's own numbers are printed in a column beside sensim's: Table 2
 * (elevations at 1 m), 0.004096 deg (off-axis, 1000 lines) and Table 4.
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

/* The thesis's published elevations, deg, for N = 2, 10, 100, 1000 (NaN:
 * not published): Table 2 for the face at 1 m; the off-axis face's 1000
 * lines. */
static const double thesis_axis[4] = {26.56528, 3.179862, 0.2893734, 0.02867683};
static const double thesis_off[4] = {NAN, NAN, NAN, 0.004096};

static int table(const char *title, double x, double y, const double thesis[4]) {
  const double d = hypot(x, y);
  printf("\n%s: face centre at sensor (%.0f, %.0f, 0), %.4f m away\n", title, x, y, d);
  printf("(lines: elevation by the thesis's Eq. 3.8, atan(Z / X); exact, rays: atan2(Z, hypot(X, Y)))\n");
  printf("%-8s %6s %12s %12s %14s %14s %12s\n", "method", "N", "range m", "azimuth deg", "elevation deg",
         "bound deg", "thesis deg");
  const int ns[4] = {2, 10, 100, 1000};
  sensim_detection det;
  for (int i = 0; i < 4; i++) {
    if (measure(x, y, SENSIM_CONE_LINES, ns[i], &det)) return 1;
    printf("%-8s %6d %12.6f %12.6f %14.6f %14.6f", "lines", ns[i], det.range, det.azimuth * DEG,
           det.elevation * DEG, atan(0.5 / ((ns[i] - 1) * x)) * DEG);
    if (isnan(thesis[i]))
      printf(" %12s\n", "-");
    else
      printf(" %12.8g\n", thesis[i]);
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

/* The face moving from the origin to 10 m at v m/s (Table 4's setup); host
 * steps of 10 ms. `thesis`: the thesis's measured speed. */
static int speed_run(double v, sensim_cone_method method, int n, double thesis) {
  sensim_world *w = NULL;
  sensim_body *b = NULL;
  sensim_sensor *s = NULL;
  const double x0 = 0.0, x1 = 10.0;
  if (make_world(&w) || add_face(w, x0, 0.0, 0, &b)) return 1;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20.0;
  sensim_cone_params cp;
  cone_defaults(&cp);
  cp.method = method;
  cp.lines = n;
  CHECK(sensim_cone_create(w, &sp, &cp, &s));
  stats sp3 = {0, 0, 0}, sd = {0, 0, 0}, sr = {0, 0, 0};
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
      if (!d->detected || isnan(d->speed)) continue;
      add(&sp3, d->speed);
      add(&sd, d->speed_diff);
      add(&sr, d->radial_speed);
    }
  }
  printf("%-6s %5.2f %7.0f %12.9f %10.3e %12.9f %10.3e %12.9f %10.3e %7.3f\n",
         method == SENSIM_CONE_LINES ? "lines" : "exact", v, sp3.n, mean(&sp3), sdev(&sp3), mean(&sd), sdev(&sd),
         mean(&sr), sdev(&sr), thesis);
  sensim_world_destroy(w);
  return 0;
}

int main(void) {
  printf("sensim cone sensor: the published experiments (cone 90 x 90 deg, 12 m)\n");
  if (table("1 m x 1 m face at 1 m, on the axis (thesis Table 2)", 1.0, 0.0, thesis_axis)) return 1;
  if (table("off-axis face at cone (5, 0, 7)", 7.0, 5.0, thesis_off)) return 1;
  printf("\nspeed (thesis Table 4 setup): face moving out from the origin to 10 m, sensor 20 Hz, host 100 Hz\n");
  printf("(speed: Eq. 3.9 |q_k - q_k-1| / dt over simulation time; the thesis divided by wall-clock frame time)\n");
  printf("%-6s %5s %7s %12s %10s %12s %10s %12s %10s %7s\n", "method", "v m/s", "frames", "speed", "spread",
         "speed_diff", "spread", "radial_speed", "spread", "thesis");
  const double vs[3] = {0.25, 1.0, 2.0}, thesis[3] = {0.249, 0.988, 1.946};
  for (int i = 0; i < 3; i++) {
    if (speed_run(vs[i], SENSIM_CONE_LINES, 10, thesis[i])) return 1;
    if (speed_run(vs[i], SENSIM_CONE_EXACT, 2, thesis[i])) return 1;
  }
  return 0;
}
