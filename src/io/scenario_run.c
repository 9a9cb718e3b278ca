/* io/scenario_run.c: stepping a scenario as a host engine would, and
 * writing every delivered frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "sensim/nmea.h"

/* Per-sensor output state during a run. */
typedef struct run_out {
  char *dir;          /* out_dir/<sensor name>, NULL when writing nothing */
  sensim_csv *csv;    /* open for csv outputs */
  sensim__afile nmea; /* open for nmea outputs (fp NULL otherwise) */
} run_out;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *join(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
  char *r = malloc(n);
  if (r) snprintf(r, n, "%s/%s%s", a, b, c ? c : "");
  return r;
}

static sensim_status open_outputs(sensim_scenario *scn, const char *out_dir, run_out *outs) {
  for (size_t i = 0; i < scn->nsensors; i++) {
    const sensim__scn_sensor *ss = &scn->sensors[i];
    if (ss->format == SENSIM__OUT_NONE) continue;
    const char *name = sensim_sensor_name(ss->sensor);
    outs[i].dir = join(out_dir, name, NULL);
    if (!outs[i].dir) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
    sensim_status st = sensim_mkdirs(outs[i].dir);
    if (st != SENSIM_OK) return st;
    /* A run that crashed or was killed mid-write left temporary files
     * here; this run rewrites the folder, so they go now. */
    sensim__sweep_temp_files(outs[i].dir);
    if (ss->format == SENSIM__OUT_CSV) {
      char *file = malloc(strlen(outs[i].dir) + strlen(name) + 8);
      if (!file) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
      sprintf(file, "%s/%s.csv", outs[i].dir, name);
      st = sensim_csv_open(file, sensim_sensor_output_type(ss->sensor), &outs[i].csv);
      free(file);
      if (st != SENSIM_OK) return st;
    }
    if (ss->format == SENSIM__OUT_NMEA) {
      char *file = malloc(strlen(outs[i].dir) + strlen(name) + 8);
      if (!file) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
      sprintf(file, "%s/%s.nmea", outs[i].dir, name);
      st = sensim__afile_open(file, &outs[i].nmea);
      free(file);
      if (st != SENSIM_OK) return st;
    }
  }
  return SENSIM_OK;
}

/* Close every output; the first failure wins. CSV files that were written
 * in full are kept even when the run failed, so a long run's data up to the
 * error survives. */
static sensim_status close_outputs(sensim_scenario *scn, run_out *outs) {
  sensim_status first = SENSIM_OK;
  for (size_t i = 0; i < scn->nsensors; i++) {
    sensim_status st = sensim_csv_close(outs[i].csv);
    if (first == SENSIM_OK) first = st;
    if (outs[i].nmea.fp) {
      st = sensim__afile_commit(&outs[i].nmea);
      if (first == SENSIM_OK) first = st;
    }
    free(outs[i].dir);
  }
  free(outs);
  return first;
}

static sensim_status write_frame(const sensim__scn_sensor *ss, run_out *o, const sensim_frame *f) {
  const char *pattern;
  switch ((int)ss->format) {
  case SENSIM__OUT_PNG:
    pattern = "frame_%06llu.png";
    break;
  case SENSIM__OUT_PCD:
  case SENSIM__OUT_PCD_ASCII:
    pattern = "scan_%06llu.pcd";
    break;
  case SENSIM__OUT_PLY:
  case SENSIM__OUT_PLY_ASCII:
    pattern = "scan_%06llu.ply";
    break;
  case SENSIM__OUT_CSV:
    return sensim_csv_append(o->csv, f);
  case SENSIM__OUT_NMEA: {
    sensim_nmea_params np;
    sensim_nmea_params_init(&np);
    np.utc_start = ss->utc_start;
    return sensim_nmea_write(o->nmea.fp, &np, f);
  }
  default:
    return SENSIM_OK;
  }
  char name[64];
  snprintf(name, sizeof name, pattern, (unsigned long long)f->index);
  char *path = join(o->dir, name, NULL);
  if (!path) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
  sensim_status st;
  if (ss->format == SENSIM__OUT_PNG)
    st = sensim_write_png(path, f);
  else if (ss->format == SENSIM__OUT_PCD || ss->format == SENSIM__OUT_PCD_ASCII)
    st = sensim_write_pcd(path, f, ss->format == SENSIM__OUT_PCD);
  else
    st = sensim_write_ply(path, f, ss->format == SENSIM__OUT_PLY);
  free(path);
  return st;
}

/* Drain every delivered frame of every sensor, in sensor order. */
static sensim_status drain(sensim_scenario *scn, run_out *outs, sensim_run_summary *sum) {
  for (size_t i = 0; i < scn->nsensors; i++) {
    const sensim__scn_sensor *ss = &scn->sensors[i];
    for (;;) {
      const sensim_frame *f = NULL;
      sensim_status st = sensim_sensor_poll(ss->sensor, &f);
      if (st != SENSIM_OK) {
        sensim__error_context("sensor '%s'", sensim_sensor_name(ss->sensor));
        return st;
      }
      if (!f) break;
      if (i < 64) sum->frames[i]++;
      if (outs[i].dir && (st = write_frame(ss, &outs[i], f)) != SENSIM_OK) {
        sensim__error_context("sensor '%s'", sensim_sensor_name(ss->sensor));
        return st;
      }
    }
  }
  return SENSIM_OK;
}

/* A sensor whose first frame is due after the run's last step would
 * deliver nothing: the run would end with an empty folder and no word of
 * why. Refused before anything runs. (Stepping by hand is not refused: a
 * program may step beyond the duration, as noise calibration does.) */
static sensim_status check_deliveries(const sensim_scenario *scn, double t_end) {
  for (size_t i = 0; i < scn->nsensors; i++) {
    const sensim_sensor_params *sp = sensim_sensor_params_get(scn->sensors[i].sensor);
    if (sp->phase + sp->lag <= t_end) continue;
    return sensim__fail(SENSIM_EINVAL,
                        "sensors[%zu] '%s': its first frame is delivered at phase + lag = %g + %g s, after the "
                        "run's last step at t = %g s (duration %g s): the run would deliver none",
                        i, sp->name, sp->phase, sp->lag, t_end, scn->duration);
  }
  return SENSIM_OK;
}

sensim_status sensim_scenario_run(sensim_scenario *scn, const char *out_dir,
                                  void (*progress)(double t, double duration, void *user),
                                  void *user, sensim_run_summary *summary) {
  if (!scn) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_run: NULL scenario");
  if (scn->has_run)
    return sensim__fail(SENSIM_ESTATE, "sensim_scenario_run: a scenario runs once (its world's "
                                       "clock cannot go back); load it again");
  /* t_k = k * step for k = 0 .. nsteps (see the loop below). */
  uint64_t nsteps = (uint64_t)floor(scn->duration / scn->step + 1e-9);
  double t_end = (double)nsteps * scn->step;
  sensim_status st = check_deliveries(scn, t_end);
  if (st != SENSIM_OK) return st;
  sensim_run_summary sum;
  memset(&sum, 0, sizeof sum);
  sum.sensors = scn->nsensors;
  run_out *outs = calloc(scn->nsensors ? scn->nsensors : 1, sizeof *outs);
  if (!outs) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
  st = out_dir ? sensim_mkdirs(out_dir) : SENSIM_OK;
  if (st == SENSIM_OK && out_dir) sensim__sweep_temp_files(out_dir);
  if (st == SENSIM_OK && out_dir) st = open_outputs(scn, out_dir, outs);
  if (st != SENSIM_OK) {
    /* Nothing was written yet: drop the CSV files just started. */
    for (size_t i = 0; i < scn->nsensors; i++) {
      sensim__csv_abort(outs[i].csv);
      outs[i].csv = NULL;
      sensim__afile_abort(&outs[i].nmea);
    }
    close_outputs(scn, outs);
    return st;
  }
  scn->has_run = 1;
  double wall0 = wall_now();
  /* t_k = k * step, computed from k rather than accumulated, so the times
   * pushed carry no growing rounding error; the last step is the largest
   * k * step not beyond the duration (with a relative slack of 1e-9 steps
   * so that 10 s / 0.001 s gives 10001 steps, not 10000). */
  double next_report = 1.0;
  double t = 0.0;
  for (uint64_t k = 0; k <= nsteps && st == SENSIM_OK; k++) {
    t = (double)k * scn->step;
    st = sensim__scenario_push_states(scn, t);
    if (st == SENSIM_OK) {
      st = sensim_world_advance(scn->world, t);
      if (st != SENSIM_OK) sensim__error_context("advancing to t = %.6f s", t);
    }
    if (st == SENSIM_OK) st = drain(scn, outs, &sum);
    if (st == SENSIM_OK && progress && (t >= next_report || k == nsteps)) {
      progress(t, scn->duration, user);
      while (next_report <= t) next_report += 1.0;
    }
  }
  sum.sim_time = t;
  sum.wall_time = wall_now() - wall0;
  if (st != SENSIM_OK) {
    /* The run's error is the one to report, not a later closing error. */
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sensim_last_error());
    close_outputs(scn, outs);
    if (summary) *summary = sum;
    return sensim__fail(st, "%s", msg);
  }
  st = close_outputs(scn, outs);
  if (summary) *summary = sum;
  return st;
}
