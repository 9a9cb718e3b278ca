/* tools/vepd_experiment.c: the VEPD experiment of Mahajan et al. 2024
 * (arXiv:2403.11000) in simulation: a 1/6-scale vehicle drives each
 * manoeuvre (tools/vepd_trajectory.c) K times per GNSS model, with a GNSS
 * receiver and an IMU on its body, and the EKF judge (tools/ekf_velocity.c)
 * turns each run's fixes and samples into speed estimates; each model's
 * run set is scored against a reference set (real runs from CSV, or a
 * model's runs with other seeds) by VEPD (tools/vepd.c).
 *
 * Each run is its own world (seed = the run's seed, jobs on the calling
 * thread), so a run's numbers depend on its seed only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/tools_internal.h"
#include "tools/vepd_internal.h"

void sensim_vepd_experiment_params_init(sensim_vepd_experiment_params *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->runs = 10;
  p->duration = 20.0;
  p->host_rate = 500.0;
  p->gnss_rate = 10.0;
  p->imu_rate = 100.0; /* the paper's IMU rate */
  p->seed = 1;
  /* The five GNSS models of the study as it configures them (issue 5 and
   * arXiv:2403.11000): white Gaussian noise of 2 cm (RTK-grade, the scale
   * of a 1/6 vehicle's manoeuvres); a bounded random walk (filter
   * defaults: max 0.06 m) pulled back by the study's p / p_max rule with
   * g = 0.05 m/s^2 (the draw's own sigma: the nudge at the wall is one
   * standard deviation of the acceleration); no noise but an HDOP-derived
   * covariance (defaults: H0 100, k 0.02 m); and each noise with the HDOP
   * covariance. Only the HDOP model reports a covariance: the noise filters
   * report none (reported_sigma 0), so the judge then uses its own
   * gnss_sigma, as a filter fed by a receiver without covariance must. */
  static const char *gauss = "{\"sigma\":[0.02,0.02,0.04],\"reported_sigma\":0}";
  static const char *walk = "{\"pullback_ratio\":0.05,\"reported_sigma\":0}";
  const sensim_vepd_variant v[5] = {
      {"gauss", 1, {"gnss_noise"}, {gauss}},
      {"random_walk", 1, {"gnss_random_walk"}, {walk}},
      {"hdop", 1, {"gnss_hdop"}, {NULL}},
      {"gauss_hdop", 2, {"gnss_noise", "gnss_hdop"}, {gauss, NULL}},
      {"random_walk_hdop", 2, {"gnss_random_walk", "gnss_hdop"}, {walk, NULL}},
  };
  p->nvariants = 5;
  for (int i = 0; i < 5; i++) p->variants[i] = v[i];
  p->reference_variant = 0;
  sensim_ekf_params_init(&p->ekf);
}

static sensim_status check_variant(const sensim_vepd_variant *v, const char *what) {
  if (!v || !v->name || !*v->name)
    return sensim_error_set(SENSIM_EINVAL, "vepd experiment: %s has no name", what);
  if (v->nfilters < 1 || v->nfilters > SENSIM_VEPD_MAX_CHAIN)
    return sensim_error_set(SENSIM_EINVAL, "vepd experiment: variant '%s' has %zu filters (1..%d)",
                        v->name, v->nfilters, SENSIM_VEPD_MAX_CHAIN);
  for (size_t i = 0; i < v->nfilters; i++)
    if (!v->filters[i])
      return sensim_error_set(SENSIM_EINVAL, "vepd experiment: variant '%s' filter %zu is NULL",
                          v->name, i);
  return SENSIM_OK;
}

static sensim_status check_params(const sensim_vepd_experiment_params *p) {
  if (!p) return sensim_error_set(SENSIM_EINVAL, "vepd experiment: NULL params");
  if (p->runs < 1) return sensim_error_set(SENSIM_EINVAL, "vepd experiment: K = %zu runs, need >= 1", p->runs);
  if (!isfinite(p->duration) || p->duration < 2.0 || p->duration > 1e5)
    return sensim_error_set(SENSIM_EINVAL, "vepd experiment: duration %g s must be in [2, 1e5]",
                        p->duration);
  if (!(p->gnss_rate > 0.0) || !(p->imu_rate > 0.0) || !(p->host_rate >= p->imu_rate) ||
      !isfinite(p->host_rate) || !isfinite(p->gnss_rate) || !isfinite(p->imu_rate))
    return sensim_error_set(SENSIM_EINVAL,
                        "vepd experiment: rates host %g, gnss %g, imu %g Hz must be finite, > 0, "
                        "host >= imu",
                        p->host_rate, p->gnss_rate, p->imu_rate);
  if (p->entropy_bins != SENSIM_ENTROPY_ALL_BINS && p->entropy_bins != SENSIM_ENTROPY_FLUCTUATION)
    return sensim_error_set(SENSIM_EINVAL, "vepd experiment: entropy_bins %d is not a sensim_entropy_bins",
                            (int)p->entropy_bins);
  if (p->nvariants < 1 || p->nvariants > SENSIM_VEPD_MAX_VARIANTS)
    return sensim_error_set(SENSIM_EINVAL, "vepd experiment: %zu variants (1..%d)", p->nvariants,
                        SENSIM_VEPD_MAX_VARIANTS);
  for (size_t i = 0; i < p->nvariants; i++) {
    sensim_status st = check_variant(&p->variants[i], "a variant");
    if (st != SENSIM_OK) return st;
  }
  if (!p->reference_dir &&
      (p->reference_variant < 0 || (size_t)p->reference_variant >= p->nvariants))
    return sensim_error_set(SENSIM_EINVAL, "vepd experiment: reference variant %d not in 0..%zu",
                        p->reference_variant, p->nvariants - 1);
  sensim_ekf *k = NULL;
  sensim_status st = sensim_ekf_create(&p->ekf, &k);
  sensim_ekf_destroy(k);
  return st;
}

/* Grow-and-append helpers for the collected samples. */
typedef struct samples {
  sensim_ekf_imu_input *imu;
  size_t nimu, cimu;
  sensim_ekf_gnss_input *gnss;
  size_t ngnss, cgnss;
} samples;

static sensim_status collect(sensim_sensor *gnss, sensim_sensor *imu, samples *s) {
  const sensim_frame *f = NULL;
  sensim_status st;
  while ((st = sensim_sensor_poll(gnss, &f)) == SENSIM_OK && f) {
    st = sensim_tools__grow((void **)&s->gnss, &s->cgnss, s->ngnss + 1, sizeof *s->gnss);
    if (st != SENSIM_OK) return st;
    s->gnss[s->ngnss].t = f->t_capture;
    s->gnss[s->ngnss++].fix = *(const sensim_gnss_fix *)f->data;
  }
  if (st != SENSIM_OK) return st;
  while ((st = sensim_sensor_poll(imu, &f)) == SENSIM_OK && f) {
    st = sensim_tools__grow((void **)&s->imu, &s->cimu, s->nimu + 1, sizeof *s->imu);
    if (st != SENSIM_OK) return st;
    const sensim_imu_sample *m = f->data;
    s->imu[s->nimu++] = (sensim_ekf_imu_input){f->t_capture, m->accel[0], m->gyro[2]};
  }
  return st;
}

/* Build the world, drive the manoeuvre, collect the sensors' output. */
static sensim_status simulate(const sensim_vepd_experiment_params *p,
                              const sensim_vepd_variant *v, sensim_vepd_manoeuvre m,
                              uint64_t seed, samples *s) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.seed = seed;
  wp.threads = 0;
  sensim_world *w = NULL;
  sensim_status st = sensim_world_create(&wp, &w);
  if (st != SENSIM_OK) return st;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  sensim_sensor *gnss = NULL, *imu = NULL;
  st = sensim_body_create(w, &bp, &car);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  if (st == SENSIM_OK) {
    sp.name = "gnss";
    sp.rate = p->gnss_rate;
    sensim_gnss_params gp;
    sensim_gnss_params_init(&gp);
    st = sensim_gnss_create(w, &sp, &gp, &gnss);
  }
  for (size_t i = 0; st == SENSIM_OK && i < v->nfilters; i++) {
    st = sensim_sensor_add_filter(gnss, v->filters[i], v->params[i]);
    if (st != SENSIM_OK) sensim_error_prefix("variant '%s'", v->name);
  }
  if (st == SENSIM_OK) {
    sp.name = "imu";
    sp.rate = p->imu_rate;
    sensim_imu_params ip;
    sensim_imu_params_init(&ip);
    st = sensim_imu_create(w, &sp, &ip, &imu);
  }
  if (st == SENSIM_OK) st = sensim_sensor_add_filter(imu, "imu_noise", p->imu_noise);
  size_t nsteps = (size_t)floor(p->duration * p->host_rate + 1e-9);
  for (size_t j = 0; st == SENSIM_OK && j <= nsteps; j++) {
    double t = (double)j / p->host_rate;
    sensim_body_state bs;
    sensim_tools__vepd_state(m, t, &bs);
    st = sensim_body_push_state(car, t, &bs);
    if (st == SENSIM_OK) st = sensim_world_advance(w, t);
    if (st == SENSIM_OK) st = collect(gnss, imu, s);
  }
  sensim_world_destroy(w);
  return st;
}

sensim_status sensim_vepd_simulate_run(const sensim_vepd_experiment_params *p,
                                       const sensim_vepd_variant *variant,
                                       sensim_vepd_manoeuvre m, uint64_t seed,
                                       sensim_vepd_run *out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "vepd simulate: NULL out");
  sensim_status st = check_params(p);
  if (st == SENSIM_OK) st = check_variant(variant, "the variant");
  if (st == SENSIM_OK && (m < SENSIM_VEPD_STRAIGHT || m > SENSIM_VEPD_HALF_SINE))
    st = sensim_error_set(SENSIM_EINVAL, "vepd simulate: unknown manoeuvre %d", (int)m);
  if (st != SENSIM_OK) return st;
  samples s = {0};
  st = simulate(p, variant, m, seed, &s);
  sensim_ekf_state *est = NULL;
  size_t n = 0;
  if (st == SENSIM_OK) st = sensim_ekf_run(&p->ekf, s.imu, s.nimu, s.gnss, s.ngnss, &est, &n);
  free(s.imu);
  free(s.gnss);
  sensim_vepd_run r = {n, 1, NULL, NULL, NULL};
  if (st == SENSIM_OK && n < 3)
    st = sensim_error_set(SENSIM_EINVAL, "vepd simulate: only %zu estimates (no fixes?)", n);
  if (st == SENSIM_OK) {
    r.t = malloc(n * sizeof *r.t);
    r.v_est = malloc(n * sizeof *r.v_est);
    r.v_true = malloc(n * sizeof *r.v_true);
    if (!r.t || !r.v_est || !r.v_true) st = sensim_error_set(SENSIM_ENOMEM, "vepd simulate: out of memory");
  }
  for (size_t i = 0; st == SENSIM_OK && i < n; i++) {
    sensim_body_state bs;
    r.t[i] = est[i].t;
    r.v_est[i] = est[i].x[3];
    r.v_true[i] = sensim_tools__vepd_state(m, est[i].t, &bs);
  }
  free(est);
  if (st != SENSIM_OK) {
    sensim_vepd_run_free(&r);
    return st;
  }
  *out = r;
  return SENSIM_OK;
}

/* ---- the experiment ------------------------------------------------------ */

/* K runs of one variant: seeds seed0 + k. Optionally written as CSV,
 * dir/<manoeuvre>/run_<k>.csv: one folder per manoeuvre is the set that
 * `sensim vepd` scores, and dir is what --real reads back (the layout of
 * real runs, DIR/<manoeuvre>/ *.csv). */
static sensim_status sim_set(const sensim_vepd_experiment_params *p, const sensim_vepd_variant *v,
                             sensim_vepd_manoeuvre m, uint64_t seed0, const char *dir,
                             sensim_vepd_run **runs) {
  sensim_vepd_run *r = calloc(p->runs, sizeof *r);
  if (!r) return sensim_error_set(SENSIM_ENOMEM, "vepd experiment: out of memory");
  sensim_status st = SENSIM_OK;
  char mdir[4096];
  if (dir) {
    snprintf(mdir, sizeof mdir, "%s/%s", dir, sensim_vepd_manoeuvre_name(m));
    st = sensim_mkdirs(mdir);
  }
  for (size_t k = 0; st == SENSIM_OK && k < p->runs; k++) {
    st = sensim_vepd_simulate_run(p, v, m, seed0 + k, &r[k]);
    if (st == SENSIM_OK && dir) {
      char path[4200];
      snprintf(path, sizeof path, "%s/run_%03zu.csv", mdir, k);
      st = sensim_vepd_run_write(path, &r[k]);
    }
  }
  if (st != SENSIM_OK) {
    sensim_vepd_runs_free(r, p->runs);
    return st;
  }
  *runs = r;
  return SENSIM_OK;
}

/* Everything for one manoeuvre: reference, variants, cells, files. */
static sensim_status run_manoeuvre(const sensim_vepd_experiment_params *p, sensim_vepd_manoeuvre m,
                                   sensim_vepd_experiment_result *out, FILE *table) {
  const char *mname = sensim_vepd_manoeuvre_name(m);
  char dir[4096];
  sensim_vepd_run *ref = NULL;
  size_t nref = 0;
  sensim_status st = SENSIM_OK;
  if (p->reference_dir) {
    snprintf(dir, sizeof dir, "%s/%s", p->reference_dir, mname);
    struct stat sb;
    if (stat(dir, &sb) != 0) {
      for (size_t v = 0; v < p->nvariants; v++) out->cell[v][m].status = SENSIM_ENOTFOUND;
      return SENSIM_OK; /* no real runs of this manoeuvre */
    }
    st = sensim_vepd_runs_read_dir(dir, &ref, &nref);
  } else {
    if (p->out_dir) snprintf(dir, sizeof dir, "%s/runs/reference", p->out_dir);
    nref = p->runs;
    st = sim_set(p, &p->variants[p->reference_variant], m, p->seed + p->runs,
                 p->out_dir ? dir : NULL, &ref);
    if (st != SENSIM_OK) sensim_error_prefix("reference set");
  }
  if (st != SENSIM_OK) return st;

  /* Per-run metrics for the histograms: [0] reference, [1 + v] variants. */
  double *vals = calloc(2 * (p->nvariants + 1) * (nref > p->runs ? nref : p->runs), sizeof *vals);
  sensim_vepd_run_metrics *met = malloc((nref + p->runs) * sizeof *met);
  if (!vals || !met) st = sensim_error_set(SENSIM_ENOMEM, "vepd experiment: out of memory");
  size_t stride = nref > p->runs ? nref : p->runs;
  double *rm[SENSIM_VEPD_MAX_VARIANTS + 1], *hd[SENSIM_VEPD_MAX_VARIANTS + 1];
  size_t cnt[SENSIM_VEPD_MAX_VARIANTS + 1] = {0};
  const char *names[SENSIM_VEPD_MAX_VARIANTS + 1] = {"reference"};
  for (size_t i = 0; vals && i <= p->nvariants; i++) {
    rm[i] = vals + 2 * i * stride;
    hd[i] = rm[i] + stride;
    if (i) names[i] = p->variants[i - 1].name;
  }
  for (size_t v = 0; st == SENSIM_OK && v < p->nvariants; v++) {
    sensim_vepd_cell *cell = &out->cell[v][m];
    sensim_vepd_run *runs = NULL;
    if (p->out_dir) snprintf(dir, sizeof dir, "%s/runs/%s", p->out_dir, p->variants[v].name);
    st = sim_set(p, &p->variants[v], m, p->seed, p->out_dir ? dir : NULL, &runs);
    if (st == SENSIM_ENOTFOUND) { /* a filter not built in: no numbers */
      cell->status = SENSIM_ENOTFOUND;
      st = SENSIM_OK;
      if (table) sensim_tools__vepd_table_row(table, p->variants[v].name, mname, NULL);
      continue;
    }
    if (st == SENSIM_OK)
      st = sensim_vepd_compute_bins(ref, nref, runs, p->runs, p->entropy_bins, &cell->result, met, met + nref);
    sensim_vepd_runs_free(runs, runs ? p->runs : 0);
    if (st != SENSIM_OK) {
      sensim_error_prefix("variant '%s', %s", p->variants[v].name, mname);
      break;
    }
    cell->status = SENSIM_OK;
    for (size_t k = 0; k < nref; k++) {
      rm[0][k] = met[k].rmse;
      hd[0][k] = met[k].h_diff;
    }
    cnt[0] = nref;
    for (size_t k = 0; k < p->runs; k++) {
      rm[v + 1][k] = met[nref + k].rmse;
      hd[v + 1][k] = met[nref + k].h_diff;
    }
    cnt[v + 1] = p->runs;
    if (table) sensim_tools__vepd_table_row(table, p->variants[v].name, mname, &cell->result);
  }
  if (st == SENSIM_OK && p->out_dir)
    st = sensim_tools__vepd_histograms(p->out_dir, mname, mname, rm, hd, cnt, names, p->nvariants + 1);
  free(vals);
  free(met);
  sensim_vepd_runs_free(ref, nref);
  return st;
}

sensim_status sensim_vepd_experiment_run(const sensim_vepd_experiment_params *p,
                                         sensim_vepd_experiment_result *out) {
  if (!out) return sensim_error_set(SENSIM_EINVAL, "vepd experiment: NULL out");
  sensim_status st = check_params(p);
  if (st != SENSIM_OK) return st;
  sensim_vepd_experiment_result *r = calloc(1, sizeof *r);
  if (!r) return sensim_error_set(SENSIM_ENOMEM, "vepd experiment: out of memory");
  r->nvariants = p->nvariants;
  sensim_atomic_file *af = NULL;
  FILE *table = NULL;
  if (p->out_dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/vepd_table.csv", p->out_dir);
    st = sensim_mkdirs(p->out_dir);
    if (st == SENSIM_OK) st = sensim_atomic_file_open(path, &af);
    if (st == SENSIM_OK) {
      table = sensim_atomic_file_stream(af);
      fputs(SENSIM_TOOLS_VEPD_TABLE_COLUMNS "\n", table);
    }
  }
  for (int m = 0; st == SENSIM_OK && m < SENSIM_VEPD_MANOEUVRES; m++)
    st = run_manoeuvre(p, (sensim_vepd_manoeuvre)m, r, table);
  int any = 0;
  for (size_t v = 0; v < p->nvariants; v++)
    for (int m = 0; m < SENSIM_VEPD_MANOEUVRES; m++) any |= r->cell[v][m].status == SENSIM_OK;
  if (st == SENSIM_OK && !any)
    st = sensim_error_set(SENSIM_ENOTFOUND, "vepd experiment: no variant could be scored (filters "
                                        "not built in, or no reference runs found)");
  if (af) {
    if (st == SENSIM_OK)
      st = sensim_atomic_file_commit(af);
    else
      sensim_atomic_file_abort(af);
  }
  if (st == SENSIM_OK) *out = *r;
  free(r);
  return st;
}
