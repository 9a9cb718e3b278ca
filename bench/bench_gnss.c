/* bench/bench_gnss.c: GNSS fixes per second on one core.
 *
 * Two measurements per noise model (docs/gnss.md):
 *   world: the whole path a host pays for, through the public API with 0
 *          worker threads (every capture job runs inside advance()): a body
 *          on a circle pushed at 1 kHz, NSENS receivers on it at 1 kHz each
 *          with the model's chain, every fix polled. Fixes per second of
 *          wall time, push/advance/poll overhead included.
 *   apply: the filter's apply() alone on one frame, called back to back
 *          (filters looked up by name, filters/chain.h), which includes the
 *          geodetic recomputation a position-changing filter does.
 * Plus the NMEA formatting of one fix (GGA + RMC + GSA into buffers).
 *
 *   bench_gnss [--quick] [--reps N]
 *
 * Reported: median of N runs after one warm-up. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "filters/chain.h"
#include "sensim/nmea.h"
#include "sensim/sensim.h"

#define NSENS 16

typedef struct model {
  const char *label;
  const char *f1, *p1, *f2, *p2; /* chain, NULL for none */
  double window;                 /* receiver collection window, s */
} model;

static const model kModels[] = {
    {"ideal", NULL, NULL, NULL, NULL, 0.0},
    {"ideal, window 1 ms", NULL, NULL, NULL, NULL, 1e-3},
    {"gaussian", "gnss_noise", NULL, NULL, NULL, 0.0},
    {"random walk (100 Hz model)", "gnss_random_walk", NULL, NULL, NULL, 0.0},
    {"hdop", "gnss_hdop", NULL, NULL, NULL, 0.0},
    {"gaussian + hdop", "gnss_noise", NULL, "gnss_hdop", NULL, 0.0},
    {"random walk + hdop", "gnss_random_walk", NULL, "gnss_hdop", NULL, 0.0},
    {"gauss-markov", "gnss_gauss_markov", NULL, NULL, NULL, 0.0},
    {"outage (4 windows)", "gnss_outage", "{\"windows\": [[1, 2], [3, 4], [5, 6], [7, 8]]}", NULL,
     NULL, 0.0},
};
#define NMODELS (int)(sizeof kModels / sizeof kModels[0])

static void die(const char *what) {
  fprintf(stderr, "bench_gnss: %s: %s\n", what, sensim_last_error());
  exit(1);
}

/* Fixes per second through the world API for `seconds` of simulated time. */
static double run_world(const model *m, double seconds) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.origin_lat = 47.3769;
  wp.origin_lon = 8.5417;
  sensim_world *w = NULL;
  if (sensim_world_create(&wp, &w)) die("world");
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  if (sensim_body_create(w, &bp, &car)) die("body");
  sensim_sensor *s[NSENS];
  for (int i = 0; i < NSENS; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.body = car;
    sp.rate = 1000.0;
    sp.window = m->window;
    sp.mount.pos = (sensim_vec3){0.1 * i, 0.0, 1.5};
    sensim_gnss_params gp;
    sensim_gnss_params_init(&gp);
    if (sensim_gnss_create(w, &sp, &gp, &s[i])) die("gnss");
    if (m->f1 && sensim_sensor_add_filter(s[i], m->f1, m->p1)) die(m->f1);
    if (m->f2 && sensim_sensor_add_filter(s[i], m->f2, m->p2)) die(m->f2);
  }
  int steps = (int)(seconds * 1000.0);
  uint64_t fixes = 0;
  bench_span sp;
  bench_span_start(&sp);
  for (int k = 0; k <= steps; k++) {
    double t = k * 1e-3, r = 50.0, om = 0.4;
    sensim_body_state st;
    memset(&st, 0, sizeof st);
    st.pose = sensim_pose_identity();
    st.pose.pos = (sensim_vec3){r * cos(om * t), r * sin(om * t), 0.0};
    st.lin_vel = (sensim_vec3){-r * om * sin(om * t), r * om * cos(om * t), 0.0};
    st.lin_acc = (sensim_vec3){-r * om * om * cos(om * t), -r * om * om * sin(om * t), 0.0};
    st.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    if (sensim_body_push_state(car, t, &st)) die("push");
    if (sensim_world_advance(w, t)) die("advance");
    for (int i = 0; i < NSENS; i++) {
      const sensim_frame *f = NULL;
      while (sensim_sensor_poll(s[i], &f) == SENSIM_OK && f) fixes++;
    }
  }
  bench_span_stop(&sp);
  sensim_world_destroy(w);
  return (double)fixes / (sp.wall * 1e-3);
}

/* Applies per second of one filter on one frame. */
static double run_apply(const char *name, const char *params, int n) {
  const sensim_builtin_filter *b = sensim__filter_find(name);
  if (!b) die(name);
  cJSON *p = params ? cJSON_Parse(params) : NULL;
  void *user = NULL;
  if (b->create(p, &user)) die(name);
  cJSON_Delete(p);
  sensim_gnss_fix fix;
  memset(&fix, 0, sizeof fix);
  fix.origin[0] = 47.3769;
  fix.origin[1] = 8.5417;
  fix.fix_type = 1;
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_GNSS;
  f.width = f.height = 1;
  f.count = 1;
  f.data = &fix;
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  bench_span sp;
  bench_span_start(&sp);
  for (int k = 0; k < n; k++) {
    f.index = (uint64_t)k;
    f.t_capture = k * 0.1; /* 10 Hz fixes: 10 model steps each for the 100 Hz walk */
    fix.enu[0] = 10.0;
    fix.enu[1] = 20.0;
    fix.enu[2] = 1.0;
    sensim_rng_init(&ctx.rng, 1, 0, f.index, 0x80000000u);
    if (b->def.apply(user, &f, &ctx)) die(name);
  }
  bench_span_stop(&sp);
  if (b->def.destroy) b->def.destroy(user);
  return n / (sp.wall * 1e-3);
}

static double run_nmea(int n) {
  sensim_nmea_params np;
  sensim_nmea_params_init(&np);
  sensim_gnss_fix fix;
  memset(&fix, 0, sizeof fix);
  fix.lat = 47.3769;
  fix.lon = 8.5417;
  fix.height = 408.0;
  fix.speed = 12.0;
  fix.course = 77.0;
  fix.hdop = 0.9;
  fix.vdop = 1.5;
  fix.pdop = 1.75;
  fix.satellites = 10;
  fix.fix_type = 1;
  char a[SENSIM_NMEA_MAX], b[SENSIM_NMEA_MAX], c[SENSIM_NMEA_MAX];
  unsigned sink = 0;
  bench_span sp;
  bench_span_start(&sp);
  for (int k = 0; k < n; k++) {
    double t = k * 0.1;
    if (sensim_nmea_gga(&np, &fix, t, a, sizeof a) || sensim_nmea_rmc(&np, &fix, t, b, sizeof b) ||
        sensim_nmea_gsa(&np, &fix, c, sizeof c))
      die("nmea");
    sink += (unsigned char)a[20] + (unsigned char)b[20] + (unsigned char)c[20];
  }
  bench_span_stop(&sp);
  if (sink == 1) printf(" ");
  return n / (sp.wall * 1e-3);
}

static double median_of(double *v, int n) { return bench_median(v, n); }

int main(int argc, char **argv) {
  int quick = 0, reps = 5;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_gnss [--quick] [--reps N]\n");
      return 2;
    }
  }
  if (reps < 1 || reps > BENCH_MAX_REPS - 1) reps = 5;
  if (quick) reps = 1;
  double seconds = quick ? 0.2 : 1.0;
  int napply = quick ? 20000 : 300000;
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  printf("bench_gnss: %s, one thread, %d receivers at 1 kHz on one body, median of %d\n", cpu,
         NSENS, reps);
  printf("%-30s %16s %16s\n", "model", "world fixes/s", "apply fixes/s");
  for (int m = 0; m < NMODELS; m++) {
    const model *md = &kModels[m];
    double wv[BENCH_MAX_REPS], av[BENCH_MAX_REPS];
    for (int r = 0; r <= reps; r++) { /* r = 0: warm-up */
      double x = run_world(md, seconds);
      if (r) wv[r - 1] = x;
    }
    char applied[32] = "-";
    if (md->f1) {
      for (int r = 0; r <= reps; r++) {
        double x = run_apply(md->f1, md->p1, napply);
        if (md->f2) x = 1.0 / (1.0 / x + 1.0 / run_apply(md->f2, md->p2, napply));
        if (r) av[r - 1] = x;
      }
      snprintf(applied, sizeof applied, "%.3g", median_of(av, reps));
    }
    printf("%-30s %16.3g %16s\n", md->label, median_of(wv, reps), applied);
  }
  double nv[BENCH_MAX_REPS];
  for (int r = 0; r <= reps; r++) {
    double x = run_nmea(napply);
    if (r) nv[r - 1] = x;
  }
  printf("%-30s %16s %16.3g\n", "NMEA GGA+RMC+GSA format", "-", median_of(nv, reps));
  return 0;
}
