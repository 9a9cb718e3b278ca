/* tools/sweep_exec.c: running one run of a sweep into its folder and
 * writing its manifest (sensim_sweep_execute). A scenario or ablation run
 * is an ordinary scenario run of its resolved document; a vepd run is one
 * simulated drive judged by the EKF (sensim_vepd_simulate_run). A run that
 * fails is recorded as failed with its message: the sweep goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/sweep_internal.h"
#include "tools/json_text.h"
#include "tools/tools_internal.h"

/* ---- manifests ------------------------------------------------------------- */

static void hex64(uint64_t v, char out[17]) { snprintf(out, 17, "%016llx", (unsigned long long)v); }

int sensim_tools__sweep_record_matches(const sensim_sweep *s, size_t i, const cJSON *m) {
  if (!cJSON_IsObject(m) || i >= s->nruns) return 0;
  const cJSON *sw = cJSON_GetObjectItemCaseSensitive(m, "sweep");
  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m, "kind");
  const cJSON *run = cJSON_GetObjectItemCaseSensitive(m, "run");
  const cJSON *dg = cJSON_GetObjectItemCaseSensitive(m, "digest");
  char hex[17];
  hex64(s->digests[i], hex);
  return cJSON_IsString(sw) && strcmp(sw->valuestring, s->name) == 0 && cJSON_IsString(kind) &&
         strcmp(kind->valuestring, sensim_sweep_kind_name(s->kind)) == 0 && cJSON_IsNumber(run) &&
         run->valuedouble == (double)i && cJSON_IsString(dg) && strcmp(dg->valuestring, hex) == 0;
}

int sensim_tools__sweep_record_ok(const cJSON *m) {
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(m, "status");
  return cJSON_IsString(st) && strcmp(st->valuestring, "ok") == 0;
}

/* The manifest's head: who the run is. */
static cJSON *record_new(const sensim_sweep *s, size_t i) {
  cJSON *m = cJSON_CreateObject();
  cJSON *par = cJSON_CreateObject();
  char hex[17];
  hex64(s->digests[i], hex);
  int ok = m && par && cJSON_AddStringToObject(m, "sweep", s->name) &&
           cJSON_AddStringToObject(m, "kind", sensim_sweep_kind_name(s->kind)) &&
           cJSON_AddNumberToObject(m, "run", (double)i) && cJSON_AddStringToObject(m, "digest", hex) &&
           cJSON_AddNumberToObject(m, "seed", (double)s->seeds[i]);
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  if (ok && s->kind == SENSIM_SWEEP_ABLATION)
    ok = cJSON_AddStringToObject(par, "ablation", sensim_ablation_name(s->ablations[pos.ablation])) != NULL;
  for (size_t a = 0; ok && a < s->naxes; a++) {
    const sweep_axis *ax = &s->axes[a];
    size_t k = sensim_tools__sweep_axis_index(s, a, pos.combo);
    cJSON *v = ax->type == SWEEP_VARIANTS ? cJSON_CreateString(ax->labels[k]) : cJSON_Duplicate(ax->values[k], 1);
    ok = v && cJSON_AddItemToObject(par, ax->name, v);
    if (!ok) cJSON_Delete(v);
  }
  if (ok && s->kind == SENSIM_SWEEP_VEPD) {
    const char *model;
    sensim_tools__sweep_model(s, pos.model, &model);
    ok = cJSON_AddStringToObject(par, "model", model) &&
         cJSON_AddStringToObject(par, "manoeuvre", sensim_vepd_manoeuvre_name(
                                                       (sensim_vepd_manoeuvre)s->vepd.manoeuvres[pos.manoeuvre])) &&
         cJSON_AddNumberToObject(par, "k", (double)pos.k);
  }
  if (ok && cJSON_AddItemToObject(m, "parameters", par)) return m;
  if (!ok) cJSON_Delete(par);
  cJSON_Delete(m);
  return NULL;
}

/* ---- scenario and ablation runs ------------------------------------------ */

static sensim_status run_scenario(const sensim_sweep *s, size_t i, const cJSON *doc, const char *dir,
                                  cJSON *results) {
  char *text = sensim_tools__json_print(doc, 0);
  if (!text) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  sensim_status st = SENSIM_OK;
  if (s->kind == SENSIM_SWEEP_ABLATION) {
    sweep_pos pos;
    sensim_tools__sweep_pos(s, i, &pos);
    char notes[4096] = "";
    char *edited = NULL;
    st = sensim_ablation_edit(text, s->ablations[pos.ablation], s->ablation_frames, &edited, notes, sizeof notes);
    free(text);
    text = edited;
    if (st == SENSIM_OK && !cJSON_AddStringToObject(results, "changes", notes))
      st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
  }
  char source[64];
  sensim_sweep_run_dir(i, source, sizeof source);
  sensim_scenario_overrides ov = {s->threads};
  sensim_scenario *scn = NULL;
  if (st == SENSIM_OK) st = sensim_scenario_load_string_ex(text, source, s->base_dir, &ov, &scn);
  free(text);
  sensim_run_summary sum;
  if (st == SENSIM_OK) {
    sensim_scenario_run_options ro;
    sensim_scenario_run_options_init(&ro);
    ro.out_dir = dir;
    st = sensim_scenario_run_ex(scn, &ro, &sum);
  }
  if (st == SENSIM_OK) {
    cJSON *frames = cJSON_CreateObject();
    int ok = frames && cJSON_AddNumberToObject(results, "sim_time", sum.sim_time) &&
             cJSON_AddItemToObject(results, "frames", frames);
    if (!ok) cJSON_Delete(frames);
    sensim_world *w = sensim_scenario_world(scn);
    for (size_t k = 0; ok && k < sensim_world_sensor_count(w); k++) {
      const sensim_sensor *sn = sensim_world_sensor(w, k);
      ok = cJSON_AddNumberToObject(frames, sensim_sensor_name(sn), (double)sensim_sensor_frames_delivered(sn)) != NULL;
    }
    size_t nw = sensim_scenario_warning_count(scn);
    cJSON *warn = nw ? cJSON_AddArrayToObject(results, "warnings") : NULL;
    for (size_t k = 0; ok && k < nw; k++) {
      cJSON *w1 = cJSON_CreateString(sensim_scenario_warning_get(scn, k));
      ok = warn && w1 && cJSON_AddItemToArray(warn, w1);
      if (!ok) cJSON_Delete(w1);
    }
    if (!ok) st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
  }
  sensim_scenario_destroy(scn);
  return st;
}

/* ---- vepd runs ----------------------------------------------------------------- */

/* A number member of obj into *v when present. */
static sensim_status number(const cJSON *obj, const char *key, const char *where, double *v) {
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!n) return SENSIM_OK;
  if (!cJSON_IsNumber(n)) return sensim_error_set(SENSIM_EINVAL, "%s.%s must be a number", where, key);
  *v = n->valuedouble;
  return SENSIM_OK;
}

sensim_status sensim_tools__sweep_vepd_params(const cJSON *doc, sensim_vepd_experiment_params *p,
                                             char **imu_noise) {
  *imu_noise = NULL;
  sensim_status st = SENSIM_OK;
  static const char *const top[] = {"duration", "host_rate", "gnss_rate", "imu_rate"};
  double *dst[] = {&p->duration, &p->host_rate, &p->gnss_rate, &p->imu_rate};
  for (size_t k = 0; st == SENSIM_OK && k < 4; k++) st = number(doc, top[k], "vepd", dst[k]);
  const cJSON *ekf = cJSON_GetObjectItemCaseSensitive(doc, "ekf");
  static const char *const ek[] = {"accel_noise",    "gyro_noise",   "pos_noise",   "gnss_sigma",
                                   "init_sigma_psi", "init_sigma_v", "output_rate", NULL};
  double *ed[] = {&p->ekf.accel_noise,    &p->ekf.gyro_noise,   &p->ekf.pos_noise,  &p->ekf.gnss_sigma,
                  &p->ekf.init_sigma_psi, &p->ekf.init_sigma_v, &p->ekf.output_rate};
  if (st == SENSIM_OK && ekf && !cJSON_IsObject(ekf))
    st = sensim_error_set(SENSIM_EINVAL, "vepd.ekf must be an object");
  for (const cJSON *c = ekf ? ekf->child : NULL; st == SENSIM_OK && c; c = c->next) {
    size_t k = 0;
    while (ek[k] && strcmp(ek[k], c->string) != 0) k++;
    if (!ek[k]) {
      const char *near = sensim_suggest(c->string, ek);
      st = sensim_error_set(SENSIM_EPARSE, "vepd.ekf: unknown key '%s'%s%s%s", c->string,
                            near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    } else {
      st = number(ekf, ek[k], "vepd.ekf", ed[k]);
    }
  }
  const cJSON *imu = cJSON_GetObjectItemCaseSensitive(doc, "imu_noise");
  if (st == SENSIM_OK && imu) {
    if (!cJSON_IsObject(imu)) return sensim_error_set(SENSIM_EINVAL, "vepd.imu_noise must be an object (the filter's params)");
    /* {} is the filter's defaults, as no params are. */
    if (imu->child) {
      *imu_noise = sensim_tools__json_print(imu, 0);
      if (!*imu_noise) st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
    }
  }
  p->imu_noise = *imu_noise;
  return st;
}

static sensim_status run_vepd(const sensim_sweep *s, size_t i, const cJSON *doc, const char *dir, cJSON *results) {
  sensim_vepd_experiment_params p = s->vepd.p;
  char *imu = NULL;
  sensim_status st = sensim_tools__sweep_vepd_params(doc, &p, &imu);
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  const sensim_vepd_variant *v = sensim_tools__sweep_model(s, pos.model, NULL);
  sensim_vepd_run run = {0};
  if (st == SENSIM_OK)
    st = sensim_vepd_simulate_run(&p, v, (sensim_vepd_manoeuvre)s->vepd.manoeuvres[pos.manoeuvre], s->seeds[i],
                                  &run);
  free(imu);
  sensim_vepd_run_metrics m;
  if (st == SENSIM_OK) st = sensim_vepd_run_metrics_compute(&run, &m);
  if (st == SENSIM_OK) {
    size_t n = strlen(dir) + 16;
    char *path = malloc(n);
    if (path) snprintf(path, n, "%s/run.csv", dir);
    st = path ? sensim_vepd_run_write(path, &run) : sensim_error_set(SENSIM_ENOMEM, "out of memory");
    free(path);
  }
  if (st == SENSIM_OK &&
      !(cJSON_AddNumberToObject(results, "estimates", (double)run.n) &&
        cJSON_AddNumberToObject(results, "rmse", m.rmse) && cJSON_AddNumberToObject(results, "h_est", m.h_est) &&
        cJSON_AddNumberToObject(results, "h_true", m.h_true) && cJSON_AddNumberToObject(results, "h_diff", m.h_diff)))
    st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
  sensim_vepd_run_free(&run);
  return st;
}

/* ---- one run ------------------------------------------------------------------- */

sensim_status sensim_sweep_execute(const sensim_sweep *s, size_t i, const char *out_dir, char **record) {
  if (!s || !out_dir || !record || i >= s->nruns)
    return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_execute: NULL argument or run %zu out of range", i);
  char *dir = sensim_tools__sweep_run_path(out_dir, i, NULL);
  char *manifest = sensim_tools__sweep_run_path(out_dir, i, "manifest.json");
  cJSON *m = record_new(s, i);
  sensim_status st = dir && manifest && m ? SENSIM_OK : sensim_error_set(SENSIM_ENOMEM, "out of memory");
  /* What a failed or stale attempt left goes, so the folder holds this
   * run's files only. */
  if (st == SENSIM_OK) st = sensim_tools__remove_tree(dir);
  if (st == SENSIM_OK) st = sensim_mkdirs(dir);
  if (st != SENSIM_OK) {
    sensim_error_prefix("sweep '%s' run %zu", s->name, i);
    cJSON_Delete(m);
    free(dir);
    free(manifest);
    return st == SENSIM_ENOMEM ? st : SENSIM_EIO;
  }
  cJSON *results = cJSON_CreateObject();
  cJSON *doc = NULL;
  /* The run's failure is recorded with its own message, never an earlier
   * one left on this thread by a call that failed before. */
  sensim_error_set(SENSIM_OK, NULL);
  sensim_status run = results ? sensim_tools__sweep_resolve(s, i, &doc) : SENSIM_ENOMEM;
  if (run == SENSIM_OK)
    run = s->kind == SENSIM_SWEEP_VEPD    ? run_vepd(s, i, doc, dir, results)
          : s->kind == SENSIM_SWEEP_JUDGE ? sensim_tools__sweep_judge_run(s, doc, dir, results)
                                          : run_scenario(s, i, doc, dir, results);
  cJSON_Delete(doc);
  int ok;
  if (run == SENSIM_OK) {
    ok = cJSON_AddStringToObject(m, "status", "ok") && cJSON_AddItemToObject(m, "results", results);
    if (!ok) cJSON_Delete(results);
  } else {
    cJSON_Delete(results);
    ok = cJSON_AddStringToObject(m, "status", "failed") &&
         cJSON_AddStringToObject(m, "error", sensim_last_error()[0] ? sensim_last_error() : sensim_status_str(run));
  }
  char *text = ok ? sensim_tools__json_print(m, 1) : NULL;
  cJSON_Delete(m);
  char *rec = NULL;
  if (text) {
    size_t n = strlen(text);
    rec = malloc(n + 2);
    if (rec) {
      memcpy(rec, text, n);
      rec[n] = '\n';
      rec[n + 1] = '\0';
    }
  }
  free(text);
  sensim_atomic_file *af = NULL;
  st = rec ? sensim_atomic_file_open(manifest, &af) : sensim_error_set(SENSIM_ENOMEM, "out of memory");
  if (st == SENSIM_OK) {
    fputs(rec, sensim_atomic_file_stream(af));
    st = sensim_atomic_file_commit(af);
  }
  free(dir);
  free(manifest);
  if (st != SENSIM_OK) {
    free(rec);
    sensim_error_prefix("sweep '%s' run %zu: manifest", s->name, i);
    return st == SENSIM_ENOMEM ? st : SENSIM_EIO;
  }
  *record = rec;
  return SENSIM_OK;
}
