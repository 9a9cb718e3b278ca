/* bench/bench_imu.c: samples per second of the inertial sensors on one
 * core.
 *
 *   bench_imu [--quick] [--markdown] [--reps N]
 *
 * Rows (world threads 0: every capture job runs inside advance(), on this
 * thread):
 *   - an IMU at 1 kHz on a body the host drives at 1 kHz with exact
 *     derivatives (push_state + advance + poll per sample), ideal and with
 *     "imu_noise" with every error term on;
 *   - 100 such IMUs on one body (the per-sample cost when sensors share a
 *     host step);
 *   - the "imu_noise" filter's apply alone (looked up with
 *     sensim__filter_find, called with a fresh stream per frame as the
 *     chain does), every term on and defaults;
 *   - a magnetometer (IGRF dipole) at 1 kHz, ideal and with "mag_noise",
 *     and "mag_noise" alone.
 * Reported: median over N runs after one warm-up, as samples per second
 * and ns per sample. Nothing is asserted; see docs/performance.md. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "filters/chain.h"
#include "sensim/magnetometer.h"
#include "sensim/sensim.h"

#define ALL_TERMS                                                                                 \
  "{\"accel_vrw_mps_per_rth\": 0.03, \"accel_bias_b0\": 2e-3, \"accel_bias_tb\": 600,"            \
  " \"accel_bias_walk_mean\": 1e-9, \"accel_white_mean\": 1e-4, \"accel_turn_on_sigma_mg\": 5,"   \
  " \"accel_bias_instability_ug\": 40, \"accel_gm_tau\": 100, \"accel_scale_factor_ppm\": 300,"   \
  " \"accel_misalignment_mrad\": [0, 1, -1, 0.5, 0, 2, -0.3, 0.2, 0], \"accel_range_g\": 16,"     \
  " \"accel_resolution_mg\": 0.5, \"gyro_arw_deg_per_rth\": 0.15,"                                \
  " \"gyro_rrw_deg_per_h_per_rth\": 3, \"gyro_turn_on_sigma_deg_per_h\": 20,"                     \
  " \"gyro_bias_instability_deg_per_h\": 5, \"gyro_gm_tau\": 300, \"gyro_scale_factor_ppm\": 500," \
  " \"gyro_misalignment_mrad\": [0, 1, 1, -1, 0, 1, 1, -1, 0], \"gyro_range_dps\": 2000,"         \
  " \"gyro_resolution_dps\": 0.0076}"
#define MAG_NOISE \
  "{\"sigma_nt\": 120, \"hard_iron_ut\": [5, -3, 8], \"soft_iron\": [1.02, 0.01, 0, 0.01, 0.98, 0, 0, 0, 1.01], \"resolution_nt\": 150}"

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    sensim_status st_ = (call);                                                                     \
    if (st_ != SENSIM_OK) {                                                                         \
      fprintf(stderr, "bench_imu: %s failed: %s: %s\n", #call, sensim_status_str(st_),              \
              sensim_last_error());                                                                 \
      exit(1);                                                                                      \
    }                                                                                               \
  } while (0)

enum { KIND_IMU, KIND_MAG };

/* One run through the world API: `nsensors` sensors of `kind` at 1 kHz on
 * one body driven at 1 kHz for `steps` steps; returns seconds. */
static double run_world(int kind, int nsensors, const char *filter, const char *params, long steps) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.origin_lat = 48.1, wp.origin_lon = 11.6;
  sensim_world *w = NULL;
  CHECK(sensim_world_create(&wp, &w));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  CHECK(sensim_body_create(w, &bp, &b));
  sensim_sensor **s = calloc((size_t)nsensors, sizeof *s);
  for (int i = 0; i < nsensors; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.body = b;
    sp.rate = 1000.0;
    sp.mount.pos = (sensim_vec3){0.1 * i, 0.05, 0.2};
    if (kind == KIND_IMU) {
      sensim_imu_params ip;
      sensim_imu_params_init(&ip);
      CHECK(sensim_imu_create(w, &sp, &ip, &s[i]));
    } else {
      sensim_magnetometer_params mp;
      sensim_magnetometer_params_init(&mp);
      CHECK(sensim_magnetometer_create(w, &sp, &mp, &s[i]));
    }
    if (filter) CHECK(sensim_sensor_add_filter(s[i], filter, params));
  }
  double t0 = bench_wall_s(), sink = 0;
  for (long k = 0; k < steps; k++) {
    double t = (double)k / 1000.0, a = 0.5 * t;
    sensim_body_state st = {0};
    st.pose.pos = (sensim_vec3){10 * cos(a), 10 * sin(a), 0};
    st.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a);
    st.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    st.lin_vel = (sensim_vec3){-5 * sin(a), 5 * cos(a), 0};
    st.lin_acc = (sensim_vec3){-2.5 * cos(a), -2.5 * sin(a), 0};
    st.ang_vel = (sensim_vec3){0, 0, 0.5};
    CHECK(sensim_body_push_state(b, t, &st));
    CHECK(sensim_world_advance(w, t));
    for (int i = 0; i < nsensors; i++) {
      const sensim_frame *f = NULL;
      while (sensim_sensor_poll(s[i], &f) == SENSIM_OK && f) sink += *(const double *)f->data;
    }
  }
  double dt = bench_wall_s() - t0;
  if (sink == 12345.678) printf(" ");
  free(s);
  sensim_world_destroy(w);
  return dt;
}

/* The filter's apply alone on n frames; returns seconds. */
static double run_filter(const char *name, const char *params, sensim_payload type, long n) {
  const sensim_builtin_filter *bf = sensim__filter_find(name);
  if (!bf) {
    fprintf(stderr, "bench_imu: no filter %s\n", name);
    exit(1);
  }
  cJSON *js = params ? cJSON_Parse(params) : NULL;
  void *u = NULL;
  CHECK(bf->create(js, &u));
  cJSON_Delete(js);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  CHECK(sensim_frame_alloc(&f, type, 1, 1));
  f.window = 1e-3;
  double *v = f.data, sink = 0;
  double t0 = bench_wall_s();
  for (long k = 0; k < n; k++) {
    sensim_filter_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.seed = 7;
    sensim_rng_init(&ctx.rng, 7, 0, (uint64_t)k, 0x80000000u);
    f.index = (uint64_t)k;
    f.t_capture = 1e-3 * (double)k;
    v[0] = 0.1, v[1] = -0.2, v[2] = 9.8;
    if (type == SENSIM_PAYLOAD_IMU) v[3] = 0.01, v[4] = 0.02, v[5] = -0.3;
    CHECK(bf->def.apply(u, &f, &ctx));
    sink += v[0];
  }
  double dt = bench_wall_s() - t0;
  if (sink == 12345.678) printf(" ");
  bf->def.destroy(u);
  free(f.data);
  return dt;
}

typedef struct row {
  const char *label;
  int world, kind, nsensors;
  const char *filter, *params;
  sensim_payload type;
} row;

int main(int argc, char **argv) {
  int quick = 0, markdown = 0, reps = 5;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--markdown") == 0) markdown = 1;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_imu [--quick] [--markdown] [--reps N]\n");
      return 2;
    }
  }
  if (reps < 1 || reps >= BENCH_MAX_REPS) reps = 5;
  if (quick) reps = 1;
  const long steps = quick ? 2000 : 100000, nfilter = quick ? 20000 : 2000000;
  const row rows[] = {
      {"imu ideal, world API", 1, KIND_IMU, 1, NULL, NULL, SENSIM_PAYLOAD_IMU},
      {"imu + imu_noise (every term), world API", 1, KIND_IMU, 1, "imu_noise", ALL_TERMS, SENSIM_PAYLOAD_IMU},
      {"100 imus + imu_noise (every term), world API", 1, KIND_IMU, 100, "imu_noise", ALL_TERMS, SENSIM_PAYLOAD_IMU},
      {"imu_noise alone (every term)", 0, 0, 1, "imu_noise", ALL_TERMS, SENSIM_PAYLOAD_IMU},
      {"imu_noise alone (defaults: white + walk)", 0, 0, 1, "imu_noise", NULL, SENSIM_PAYLOAD_IMU},
      {"magnetometer dipole, world API", 1, KIND_MAG, 1, NULL, NULL, SENSIM_PAYLOAD_MAG},
      {"magnetometer + mag_noise, world API", 1, KIND_MAG, 1, "mag_noise", MAG_NOISE, SENSIM_PAYLOAD_MAG},
      {"mag_noise alone", 0, 0, 1, "mag_noise", MAG_NOISE, SENSIM_PAYLOAD_MAG},
  };
  const int nrows = (int)(sizeof rows / sizeof rows[0]);
  bench_row out[16];
  char cpu[128];
  bench_cpu_model(cpu, sizeof cpu);
  for (int r = 0; r < nrows; r++) {
    double t[BENCH_MAX_REPS];
    /* Many sensors: fewer host steps, about the same number of samples. */
    long nsteps = rows[r].nsensors > 1 ? steps * 10 / rows[r].nsensors : steps;
    long samples = rows[r].world ? nsteps * rows[r].nsensors : nfilter;
    for (int k = 0; k <= reps; k++) {
      double s = rows[r].world
                     ? run_world(rows[r].kind, rows[r].nsensors, rows[r].filter, rows[r].params, nsteps)
                     : run_filter(rows[r].filter, rows[r].params, rows[r].type, nfilter);
      if (k > 0) t[k - 1] = s;
    }
    double med = bench_median(t, reps);
    snprintf(out[r].c[0], BENCH_CELL, "%s", rows[r].label);
    snprintf(out[r].c[1], BENCH_CELL, "%ld", samples);
    snprintf(out[r].c[2], BENCH_CELL, "%.3g", samples / med / 1e6);
    snprintf(out[r].c[3], BENCH_CELL, "%.0f", med / samples * 1e9);
  }
  const char *head[] = {"row", "samples", "Msamples/s", "ns/sample"};
  char title[256];
  snprintf(title, sizeof title, "bench_imu: one core (%s), median of %d runs%s", cpu, reps,
           quick ? " (quick)" : "");
  bench_print_table(markdown, title, head, 4, out, nrows);
  return 0;
}
