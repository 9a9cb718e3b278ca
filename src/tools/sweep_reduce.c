/* tools/sweep_reduce.c: the tables made from every run's record
 * (sensim_sweep_reduce): summary.csv, one row per run, and for a vepd
 * sweep the experiment's vepd_table.csv and histograms, computed from the
 * per-run metrics in the records with the experiment's own code
 * (tools/vepd_report.c), so a sweep of the experiment writes the
 * experiment's bytes whoever ran its drives. Rows follow run indices,
 * never the order records arrived in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/sweep_internal.h"
#include "tools/tools_internal.h"
#include "tools/vepd_internal.h"

/* A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line
 * break. */
static void field(FILE *fp, const char *v) {
  if (!strpbrk(v, ",\"\r\n")) {
    fputs(v, fp);
    return;
  }
  fputc('"', fp);
  for (const char *p = v; *p; p++) {
    if (*p == '"') fputc('"', fp);
    fputc(*p, fp);
  }
  fputc('"', fp);
}

static void number(FILE *fp, double v) {
  char buf[40];
  fputs(sensim_shortest_double(buf, sizeof buf, v), fp);
}

static const cJSON *get(const cJSON *o, const char *key) {
  return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* ---- summary.csv ------------------------------------------------------------ */

static const char *const kVepdResults[] = {"estimates", "rmse", "h_est", "h_true", "h_diff", NULL};
static const char *const kJudgeResults[] = {"epochs", "val_map", NULL};

/* Sensor names over every record's results.frames, in order of first
 * appearance (scenario and ablation sweeps). */
static sensim_status sensor_names(const sensim_sweep *s, cJSON *const *recs, const char ***names, size_t *n) {
  size_t cap = 0;
  *names = NULL;
  *n = 0;
  for (size_t i = 0; i < s->nruns; i++)
    for (const cJSON *f = get(get(recs[i], "results"), "frames") ? get(get(recs[i], "results"), "frames")->child
                                                                  : NULL;
         f; f = f->next) {
      size_t k = 0;
      while (k < *n && strcmp((*names)[k], f->string) != 0) k++;
      if (k < *n) continue;
      sensim_status st = sensim_tools__grow((void **)names, &cap, *n + 1, sizeof **names);
      if (st != SENSIM_OK) return st;
      (*names)[(*n)++] = f->string;
    }
  return SENSIM_OK;
}

static void summary_header(FILE *fp, const sensim_sweep *s, const char *const *sensors, size_t nsensors) {
  fputs("run,status", fp);
  if (s->kind == SENSIM_SWEEP_ABLATION) fputs(",ablation", fp);
  for (size_t a = 0; a < s->naxes; a++) {
    fputc(',', fp);
    field(fp, s->axes[a].name);
  }
  if (s->kind == SENSIM_SWEEP_VEPD) fputs(",model,manoeuvre,k", fp);
  fputs(",world_seed", fp);
  if (s->kind == SENSIM_SWEEP_VEPD || s->kind == SENSIM_SWEEP_JUDGE) {
    const char *const *cols = s->kind == SENSIM_SWEEP_VEPD ? kVepdResults : kJudgeResults;
    for (size_t k = 0; cols[k]; k++) fprintf(fp, ",%s", cols[k]);
  } else {
    fputs(",sim_time", fp);
    for (size_t k = 0; k < nsensors; k++) {
      char col[512];
      snprintf(col, sizeof col, "frames_%s", sensors[k]);
      fputc(',', fp);
      field(fp, col);
    }
  }
  fputs(",error\n", fp);
}

static void optional_number(FILE *fp, const cJSON *v) {
  fputc(',', fp);
  if (cJSON_IsNumber(v)) number(fp, v->valuedouble);
}

static void summary_row(FILE *fp, const sensim_sweep *s, size_t i, const cJSON *rec, const char *const *sensors,
                        size_t nsensors) {
  char dir[32];
  sensim_sweep_run_dir(i, dir, sizeof dir);
  const cJSON *status = get(rec, "status");
  fprintf(fp, "%s,%s", dir, rec ? (cJSON_IsString(status) ? status->valuestring : "") : "missing");
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  if (s->kind == SENSIM_SWEEP_ABLATION) fprintf(fp, ",%s", sensim_ablation_name(s->ablations[pos.ablation]));
  for (size_t a = 0; a < s->naxes; a++) {
    fputc(',', fp);
    field(fp, s->axes[a].labels[sensim_tools__sweep_axis_index(s, a, pos.combo)]);
  }
  if (s->kind == SENSIM_SWEEP_VEPD) {
    const char *model;
    sensim_tools__sweep_model(s, pos.model, &model);
    fputc(',', fp);
    field(fp, model);
    fprintf(fp, ",%s,%zu",
            sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)s->vepd.manoeuvres[pos.manoeuvre]), pos.k);
  }
  fprintf(fp, ",%llu", (unsigned long long)s->seeds[i]);
  const cJSON *res = get(rec, "results");
  if (s->kind == SENSIM_SWEEP_VEPD || s->kind == SENSIM_SWEEP_JUDGE) {
    const char *const *cols = s->kind == SENSIM_SWEEP_VEPD ? kVepdResults : kJudgeResults;
    for (size_t k = 0; cols[k]; k++) optional_number(fp, get(res, cols[k]));
  } else {
    optional_number(fp, get(res, "sim_time"));
    for (size_t k = 0; k < nsensors; k++) optional_number(fp, get(get(res, "frames"), sensors[k]));
  }
  fputc(',', fp);
  const cJSON *err = get(rec, "error");
  if (cJSON_IsString(err)) field(fp, err->valuestring);
  fputc('\n', fp);
}

static sensim_status write_summary(const sensim_sweep *s, const char *out_dir, cJSON *const *recs) {
  const char **sensors = NULL;
  size_t nsensors = 0;
  sensim_status st =
      s->kind == SENSIM_SWEEP_VEPD || s->kind == SENSIM_SWEEP_JUDGE ? SENSIM_OK : sensor_names(s, recs, &sensors, &nsensors);
  size_t n = strlen(out_dir) + 16;
  char *path = malloc(n);
  if (st == SENSIM_OK && !path) st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
  sensim_atomic_file *af = NULL;
  if (st == SENSIM_OK) {
    snprintf(path, n, "%s/summary.csv", out_dir);
    st = sensim_atomic_file_open(path, &af);
  }
  if (st == SENSIM_OK) {
    FILE *fp = sensim_atomic_file_stream(af);
    summary_header(fp, s, sensors, nsensors);
    for (size_t i = 0; i < s->nruns; i++) summary_row(fp, s, i, recs[i], sensors, nsensors);
    st = sensim_atomic_file_commit(af);
  }
  free(path);
  free(sensors);
  return st;
}

/* ---- the VEPD experiment's table -------------------------------------------- */

/* The K metrics of model `model` on manoeuvre index mi in combination c
 * into m; 0 unless every run is there and ok. */
static int model_metrics(const sensim_sweep *s, cJSON *const *recs, size_t c, size_t model, size_t mi,
                         sensim_vepd_run_metrics *m) {
  size_t K = s->vepd.p.runs, per_model = s->vepd.nmanoeuvres * K;
  size_t first = c * s->vepd.nmodels * per_model + model * per_model + mi * K;
  for (size_t k = 0; k < K; k++) {
    const cJSON *rec = recs[first + k];
    if (!rec || !sensim_tools__sweep_record_ok(rec)) return 0;
    const cJSON *res = get(rec, "results");
    const cJSON *v[4] = {get(res, "rmse"), get(res, "h_est"), get(res, "h_true"), get(res, "h_diff")};
    for (int j = 0; j < 4; j++)
      if (!cJSON_IsNumber(v[j])) return 0;
    m[k] = (sensim_vepd_run_metrics){v[0]->valuedouble, v[1]->valuedouble, v[2]->valuedouble, v[3]->valuedouble};
  }
  return 1;
}

/* Real reference runs of one manoeuvre, as metrics; *n = 0 when the
 * folder is missing (the experiment skips such a manoeuvre). */
static sensim_status real_metrics(const sensim_sweep *s, const char *mname, sensim_vepd_run_metrics **m, size_t *n) {
  *m = NULL;
  *n = 0;
  size_t len = strlen(s->vepd.reference_dir) + strlen(mname) + 2;
  char *dir = malloc(len);
  if (!dir) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  snprintf(dir, len, "%s/%s", s->vepd.reference_dir, mname);
  struct stat sb;
  sensim_status st = SENSIM_OK;
  if (stat(dir, &sb) == 0) {
    sensim_vepd_run *runs = NULL;
    size_t nr = 0;
    st = sensim_vepd_runs_read_dir(dir, &runs, &nr);
    if (st == SENSIM_OK && !(*m = malloc(nr * sizeof **m))) st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
    for (size_t k = 0; st == SENSIM_OK && k < nr; k++) st = sensim_vepd_run_metrics_compute(&runs[k], &(*m)[k]);
    if (st == SENSIM_OK) *n = nr;
    sensim_vepd_runs_free(runs, nr);
  }
  free(dir);
  return st;
}

/* One combination's rows and histograms, manoeuvre by manoeuvre. */
static sensim_status vepd_combo(const sensim_sweep *s, const char *out_dir, cJSON *const *recs, size_t c,
                                FILE *table) {
  const sweep_vepd *d = &s->vepd;
  size_t K = d->p.runs, nv = d->p.nvariants;
  size_t off = d->reference_dir ? 0 : 1; /* model index of variant 0 */
  sensim_vepd_run_metrics *var = malloc(K * sizeof *var);
  double *vals = NULL;
  sensim_status st = var ? SENSIM_OK : sensim_error_set(SENSIM_ENOMEM, "out of memory");
  for (size_t mi = 0; st == SENSIM_OK && mi < d->nmanoeuvres; mi++) {
    const char *mname = sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)d->manoeuvres[mi]);
    sensim_vepd_run_metrics *ref = NULL;
    size_t nref = 0;
    int ref_ok = 1;
    if (d->reference_dir) {
      st = real_metrics(s, mname, &ref, &nref);
      if (st != SENSIM_OK) {
        sensim_error_prefix("vepd reference runs of %s", mname);
        break;
      }
      if (nref == 0) continue; /* no real runs of this manoeuvre */
    } else {
      ref = malloc(K * sizeof *ref);
      if (!ref) {
        st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
        break;
      }
      nref = K;
      ref_ok = model_metrics(s, recs, c, 0, mi, ref);
    }
    size_t stride = nref > K ? nref : K;
    free(vals);
    vals = calloc(2 * (nv + 1) * stride, sizeof *vals);
    if (!vals) {
      free(ref);
      st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
      break;
    }
    double *rm[SENSIM_VEPD_MAX_VARIANTS + 1], *hd[SENSIM_VEPD_MAX_VARIANTS + 1];
    size_t cnt[SENSIM_VEPD_MAX_VARIANTS + 1] = {0};
    const char *names[SENSIM_VEPD_MAX_VARIANTS + 1] = {"reference"};
    for (size_t v = 0; v <= nv; v++) {
      rm[v] = vals + 2 * v * stride;
      hd[v] = rm[v] + stride;
      if (v) names[v] = d->p.variants[v - 1].name;
    }
    for (size_t v = 0; st == SENSIM_OK && v < nv; v++) {
      for (size_t a = 0; a < s->naxes; a++) {
        field(table, s->axes[a].labels[sensim_tools__sweep_axis_index(s, a, c)]);
        fputc(',', table);
      }
      sensim_vepd_result r;
      if (!ref_ok || !model_metrics(s, recs, c, v + off, mi, var)) {
        fprintf(table, "%s,%s,incomplete,,,,,,,\n", d->p.variants[v].name, mname);
        continue;
      }
      st = sensim_tools__vepd_from_metrics(ref, nref, var, K, &r);
      if (st != SENSIM_OK) break;
      sensim_tools__vepd_table_row(table, d->p.variants[v].name, mname, &r);
      for (size_t k = 0; k < nref; k++) {
        rm[0][k] = ref[k].rmse;
        hd[0][k] = ref[k].h_diff;
      }
      cnt[0] = nref;
      for (size_t k = 0; k < K; k++) {
        rm[v + 1][k] = var[k].rmse;
        hd[v + 1][k] = var[k].h_diff;
      }
      cnt[v + 1] = K;
    }
    free(ref);
    if (st != SENSIM_OK) break;
    char stem[64];
    if (s->naxes)
      snprintf(stem, sizeof stem, "%s_%04zu", mname, c);
    else
      snprintf(stem, sizeof stem, "%s", mname);
    st = sensim_tools__vepd_histograms(out_dir, stem, mname, rm, hd, cnt, names, nv + 1);
  }
  free(vals);
  free(var);
  return st;
}

static sensim_status write_vepd(const sensim_sweep *s, const char *out_dir, cJSON *const *recs) {
  size_t n = strlen(out_dir) + 20;
  char *path = malloc(n);
  if (!path) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  snprintf(path, n, "%s/vepd_table.csv", out_dir);
  sensim_atomic_file *af = NULL;
  sensim_status st = sensim_atomic_file_open(path, &af);
  free(path);
  if (st != SENSIM_OK) return st;
  FILE *fp = sensim_atomic_file_stream(af);
  for (size_t a = 0; a < s->naxes; a++) {
    field(fp, s->axes[a].name);
    fputc(',', fp);
  }
  fputs(SENSIM_TOOLS_VEPD_TABLE_COLUMNS "\n", fp);
  for (size_t c = 0; st == SENSIM_OK && c < s->ncombos; c++) st = vepd_combo(s, out_dir, recs, c, fp);
  if (st == SENSIM_OK) return sensim_atomic_file_commit(af);
  sensim_atomic_file_abort(af);
  return st;
}

/* ---- the reduction ----------------------------------------------------------- */

sensim_status sensim_sweep_reduce(const sensim_sweep *s, const char *out_dir, char *const *records,
                                  sensim_sweep_totals *totals) {
  if (!s || !out_dir || !records) return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_reduce: NULL argument");
  cJSON **recs = calloc(s->nruns ? s->nruns : 1, sizeof *recs);
  if (!recs) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  sensim_sweep_totals t = {s->nruns, 0, 0, 0};
  sensim_status st = SENSIM_OK;
  for (size_t i = 0; st == SENSIM_OK && i < s->nruns; i++) {
    if (!records[i]) {
      t.missing++;
      continue;
    }
    recs[i] = cJSON_Parse(records[i]);
    char dir[32];
    sensim_sweep_run_dir(i, dir, sizeof dir);
    if (!recs[i])
      st = sensim_error_set(SENSIM_EINVAL, "sweep '%s': %s's record does not parse as JSON", s->name, dir);
    else if (!sensim_tools__sweep_record_matches(s, i, recs[i]))
      st = sensim_error_set(SENSIM_EINVAL,
                            "sweep '%s': the record given for %s is not that run's (its sweep, kind, run or digest "
                            "differ)",
                            s->name, dir);
    else if (sensim_tools__sweep_record_ok(recs[i]))
      t.ok++;
    else
      t.failed++;
  }
  if (st == SENSIM_OK) st = write_summary(s, out_dir, recs);
  if (st == SENSIM_OK && s->kind == SENSIM_SWEEP_VEPD) st = write_vepd(s, out_dir, recs);
  for (size_t i = 0; i < s->nruns; i++) cJSON_Delete(recs[i]);
  free(recs);
  if (st == SENSIM_OK && totals) *totals = t;
  return st;
}
