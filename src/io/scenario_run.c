/* io/scenario_run.c: stepping a scenario as a host engine would, writing
 * every delivered frame with each sensor's poses (TUM) and a camera's
 * calibration (ROS camera_info YAML) beside them, and recording the run
 * as ROS 2 messages when asked (record.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/internal.h"
#include "io/camera_info.h"
#include "io/mcap_writer.h"
#include "io/scenario_internal.h"
#include "sensim/nmea.h"
#include "sensim/record.h"

/* Per-sensor output state during a run. */
typedef struct run_out {
  char *dir;          /* out_dir/<sensor name>, NULL when writing nothing */
  sensim_csv *csv;    /* open for csv outputs */
  sensim__afile nmea; /* open for nmea outputs (fp NULL otherwise) */
  sensim__afile poses; /* dir/poses.txt, open with dir */
  int camera_info;    /* dir/camera_info.yaml is due with the first frame */
  int unrecorded;     /* the recorder refused its payload (SENSIM_ETYPE) */
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

/* The files that make a sensor's folder self-describing: poses.txt, the
 * ground truth of every frame (TUM, for trajectory tools), and for a
 * camera camera_info.yaml, its calibration for ROS and OpenCV, written at
 * its first frame so that it describes the images as the chain delivers
 * them (a "downsample" filter scales the intrinsics). They are always
 * written: a few bytes per frame beside frames of kilobytes, and a folder
 * copied away from its scenario still says where each frame was taken
 * and through which lens. */
static sensim_status open_side_files(const sensim_sensor *s, run_out *o) {
  char *file = join(o->dir, "poses.txt", NULL);
  if (!file) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
  sensim_status st = sensim__afile_open(file, &o->poses);
  free(file);
  if (st != SENSIM_OK) return st;
  fputs("# timestamp tx ty tz qx qy qz qw: capture time (s) and true pose of the sensor frame in the "
        "world frame (m; unit quaternion)\n",
        o->poses.fp);
  sensim_camera_params cp;
  if (strcmp(sensim_sensor_kind_name(s), "camera") != 0) return SENSIM_OK;
  if ((st = sensim_camera_params_get(s, &cp)) != SENSIM_OK) return st;
  o->camera_info = 1;
  return SENSIM_OK;
}

static sensim_status write_camera_info(const sensim_sensor *s, run_out *o, const sensim_frame *f) {
  sensim_camera_params cp, scaled;
  sensim_status st = sensim_camera_params_get(s, &cp);
  if (st == SENSIM_OK) st = sensim__camera_params_for_image(&cp, f->width, f->height, f->binning, &scaled);
  if (st != SENSIM_OK) return st;
  char *file = join(o->dir, "camera_info.yaml", NULL);
  if (!file) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
  st = sensim_write_camera_info_yaml(file, sensim_sensor_name(s), &scaled);
  free(file);
  /* A lens ROS has no model for is written exactly above, as sensim's
   * "fov" or "division"; beside it, the nearest ROS model with its error. */
  if (st == SENSIM_OK && (scaled.lens == SENSIM_LENS_FOV || scaled.lens == SENSIM_LENS_DIVISION)) {
    file = join(o->dir, "camera_info_fit.yaml", NULL);
    if (!file) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
    st = sensim_write_camera_info_fit_yaml(file, sensim_sensor_name(s), &scaled, NULL, NULL);
    free(file);
  }
  o->camera_info = 0;
  return st;
}

/* The run's mark in a sensor folder (SENSIM_RUN_FOLDER_MARK). */
static sensim_status mark_folder(const char *dir) {
  char *file = join(dir, SENSIM_RUN_FOLDER_MARK, NULL);
  if (!file) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
  FILE *fp = fopen(file, "ab");
  int ok = fp != NULL, e = errno;
  if (fp && fclose(fp) != 0) ok = 0, e = errno;
  sensim_status st = ok ? SENSIM_OK : sensim__fail(SENSIM_EIO, "cannot create '%s': %s", file, strerror(e));
  free(file);
  return st;
}

/* The shallowest folder on the way to `dir` (`dir` included) that does
 * not exist yet, malloc'd; NULL when `dir` exists (or out of memory). */
static char *first_missing_dir(const char *dir) {
  struct stat sb;
  if (stat(dir, &sb) == 0) return NULL;
  char *p = sensim__strdup(dir);
  if (!p) return NULL;
  for (;;) {
    char *slash = strrchr(p, '/');
    while (slash && slash > p && slash[1] == '\0') { /* trailing '/' */
      *slash = '\0';
      slash = strrchr(p, '/');
    }
    if (!slash || slash == p) return p;
    *slash = '\0';
    if (stat(p, &sb) == 0) {
      *slash = '/';
      return p;
    }
  }
}

/* Remove the (empty) folders from `dir` up to `made`, the first one this
 * run created; rmdir leaves any that is not empty. */
static void remove_made_dirs(const char *dir, const char *made) {
  if (!made) return;
  char *p = sensim__strdup(dir);
  if (!p) return;
  const size_t stop = strlen(made);
  for (size_t n = strlen(p); n >= stop; n = strlen(p)) {
    if (rmdir(p) != 0 && errno != ENOENT) break;
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) break;
    *slash = '\0';
  }
  free(p);
}

static sensim_status open_outputs(sensim_scenario *scn, const char *out_dir, run_out *outs) {
  for (size_t i = 0; i < scn->nsensors; i++) {
    const sensim__scn_sensor *ss = &scn->sensors[i];
    if (ss->format == SENSIM__OUT_NONE) continue;
    const char *name = sensim_sensor_name(ss->sensor);
    outs[i].dir = join(out_dir, name, NULL);
    if (!outs[i].dir) return sensim__fail(SENSIM_ENOMEM, "scenario run: out of memory");
    sensim_status st = sensim_mkdirs(outs[i].dir);
    if (st == SENSIM_OK) st = mark_folder(outs[i].dir);
    if (st != SENSIM_OK) return st;
    /* A run that crashed or was killed mid-write left temporary files
     * here; this run rewrites the folder, so they go now. */
    sensim__sweep_temp_files(outs[i].dir);
    if ((st = open_side_files(ss->sensor, &outs[i])) != SENSIM_OK) return st;
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
    if (outs[i].poses.fp) {
      st = sensim__afile_commit(&outs[i].poses);
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
  case SENSIM__OUT_NPY:
    pattern = "frame_%06llu.npy";
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
  else if (ss->format == SENSIM__OUT_NPY)
    st = sensim_write_npy(path, f);
  else if (ss->format == SENSIM__OUT_PCD || ss->format == SENSIM__OUT_PCD_ASCII)
    st = sensim_write_pcd(path, f, ss->format == SENSIM__OUT_PCD);
  else
    st = sensim_write_ply(path, f, ss->format == SENSIM__OUT_PLY);
  free(path);
  return st;
}

/* Frame f of sensor ss to the recording. A payload no ROS 2 message
 * carries (SENSIM_ETYPE: a cone's detections) leaves the sensor out of
 * the recording, not the run. */
static sensim_status record_frame(sensim_recorder *rec, const sensim__scn_sensor *ss, run_out *o,
                                  const sensim_frame *f) {
  if (!rec || o->unrecorded) return SENSIM_OK;
  sensim_status st = sensim_recorder_write(rec, ss->sensor, f);
  if (st == SENSIM_ETYPE) {
    o->unrecorded = 1;
    return SENSIM_OK;
  }
  return st;
}

/* Drain every delivered frame of every sensor, in sensor order. */
static sensim_status drain(sensim_scenario *scn, run_out *outs, sensim_recorder *rec,
                           sensim_run_summary *sum) {
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
      if (outs[i].dir && outs[i].camera_info) st = write_camera_info(ss->sensor, &outs[i], f);
      if (outs[i].dir && st == SENSIM_OK && (st = write_frame(ss, &outs[i], f)) == SENSIM_OK) {
        char line[SENSIM__TUM_LINE_MAX];
        int n = sensim__tum_line(line, sizeof line, f);
        if (n < 0 || fwrite(line, 1, (size_t)n, outs[i].poses.fp) != (size_t)n)
          st = sensim__fail(SENSIM_EIO, "cannot write %s/poses.txt: %s", outs[i].dir,
                            n < 0                                 ? "pose does not fit a line"
                            : sensim__afile_errno(&outs[i].poses) ? strerror(sensim__afile_errno(&outs[i].poses))
                                                                  : "write error");
      }
      if (st == SENSIM_OK) st = record_frame(rec, ss, &outs[i], f);
      if (st != SENSIM_OK) {
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

/* Start the recording of a run: every scenario body with a motion is
 * published under its scenario name (static bodies and held ones never
 * move, so their sensors' mounts on /tf_static say all). */
static sensim_status open_recording(sensim_scenario *scn, const sensim_scenario_run_options *o,
                                    sensim_recorder **rec) {
  *rec = NULL;
  if (!o->mcap) return SENSIM_OK;
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  if (o->mcap_params) rp = *o->mcap_params;
  sensim__scenario_record_params(scn, &rp); /* the scenario's frames and odometry drift */
  if (rp.odom_body) {
    size_t i = 0;
    while (i < scn->nbodies && !(strcmp(scn->bodies[i].name, rp.odom_body) == 0 &&
                                 scn->bodies[i].motion.type != SENSIM__MOTION_NONE))
      i++;
    if (i == scn->nbodies)
      return sensim__fail(SENSIM_EINVAL, "record.odom_body: '%s' is not a body with a motion "
                          "(only those are published on /tf)", rp.odom_body);
  }
  sensim_status st = sensim_recorder_open(o->mcap, scn->world, &rp, rec);
  if (st != SENSIM_OK) return st;
  for (size_t i = 0; i < scn->nbodies && st == SENSIM_OK; i++) {
    const sensim__scn_body *b = &scn->bodies[i];
    if (b->motion.type == SENSIM__MOTION_NONE) continue;
    st = sensim_recorder_add_body(*rec, b->body, b->name);
    if (st != SENSIM_OK) sensim__error_context("recording body '%s'", b->name);
  }
  if (st != SENSIM_OK) {
    sensim_recorder_abort(*rec);
    *rec = NULL;
  }
  return st;
}

void sensim_scenario_run_options_init(sensim_scenario_run_options *o) {
  if (o) memset(o, 0, sizeof *o);
}

sensim_status sensim_scenario_run(sensim_scenario *scn, const char *out_dir,
                                  void (*progress)(double t, double duration, void *user),
                                  void *user, sensim_run_summary *summary) {
  sensim_scenario_run_options o;
  sensim_scenario_run_options_init(&o);
  o.out_dir = out_dir;
  o.progress = progress;
  o.user = user;
  return sensim_scenario_run_ex(scn, &o, summary);
}

sensim_status sensim_scenario_run_ex(sensim_scenario *scn, const sensim_scenario_run_options *opts,
                                     sensim_run_summary *summary) {
  if (!scn) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_run: NULL scenario");
  if (scn->has_run)
    return sensim__fail(SENSIM_ESTATE, "sensim_scenario_run: a scenario runs once (its world's "
                                       "clock cannot go back); load it again");
  sensim_scenario_run_options o;
  if (opts)
    o = *opts;
  else
    sensim_scenario_run_options_init(&o);
  if (o.mcap && !*o.mcap) return sensim__fail(SENSIM_EINVAL, "sensim_scenario_run: empty recording path");
  const char *out_dir = o.out_dir;
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
  /* The recording is opened after the output folder exists (a recording
   * inside it can start) and before any sensor folder: an unwritable
   * recording path fails with the output tree as it was, the folders this
   * run made for out_dir removed again (they are empty then). */
  char *made = out_dir ? first_missing_dir(out_dir) : NULL;
  st = out_dir ? sensim_mkdirs(out_dir) : SENSIM_OK;
  if (st == SENSIM_OK && out_dir) sensim__sweep_temp_files(out_dir);
  sensim_recorder *rec = NULL;
  if (st == SENSIM_OK) {
    st = open_recording(scn, &o, &rec);
    if (st != SENSIM_OK) remove_made_dirs(out_dir, made);
  }
  free(made);
  if (st == SENSIM_OK && out_dir) st = open_outputs(scn, out_dir, outs);
  if (st != SENSIM_OK) {
    sensim_recorder_abort(rec);
    rec = NULL;
    /* Nothing was written yet: drop the files just started. */
    for (size_t i = 0; i < scn->nsensors; i++) {
      sensim__csv_abort(outs[i].csv);
      outs[i].csv = NULL;
      sensim__afile_abort(&outs[i].nmea);
      sensim__afile_abort(&outs[i].poses);
    }
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sensim_last_error());
    close_outputs(scn, outs);
    return sensim__fail(st, "%s", msg);
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
    if (st == SENSIM_OK) st = drain(scn, outs, rec, &sum);
    if (st == SENSIM_OK && rec) {
      st = sensim_recorder_advance(rec, t);
      if (st != SENSIM_OK) sensim__error_context("recording at t = %.6f s", t);
    }
    if (st == SENSIM_OK && o.progress && (t >= next_report || k == nsteps)) {
      o.progress(t, scn->duration, o.user);
      while (next_report <= t) next_report += 1.0;
    }
  }
  /* The recording's summary and rename are part of the run: a run whose
   * recording could not be completed failed. */
  if (st == SENSIM_OK && rec) {
    st = sensim_recorder_close(rec);
    rec = NULL;
    if (st != SENSIM_OK) sensim__error_context("closing the recording '%s'", o.mcap);
  }
  sum.sim_time = t;
  sum.wall_time = wall_now() - wall0;
  if (st != SENSIM_OK) {
    /* The run's error is the one to report, not a later closing error. */
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", sensim_last_error());
    if (rec) {
      /* A recording whose writing failed keeps its whole chunks aside
       * (io/mcap_writer.h): say where. */
      char *partial = sensim__mcap_partial_path(o.mcap);
      struct stat before;
      int existed = partial && stat(partial, &before) == 0;
      sensim_recorder_abort(rec);
      struct stat after;
      if (partial && stat(partial, &after) == 0 &&
          (!existed || after.st_mtim.tv_sec != before.st_mtim.tv_sec ||
           after.st_mtim.tv_nsec != before.st_mtim.tv_nsec || after.st_ino != before.st_ino)) {
        size_t used = strlen(msg);
        snprintf(msg + used, sizeof msg - used, "; the recording's whole chunks were kept in '%s'", partial);
      }
      free(partial);
    }
    close_outputs(scn, outs);
    if (summary) *summary = sum;
    return sensim__fail(st, "%s", msg);
  }
  st = close_outputs(scn, outs);
  if (summary) *summary = sum;
  return st;
}
