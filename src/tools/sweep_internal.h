/* tools/sweep_internal.h: what the sweep's files share (sensim_tools/
 * sweep.h): the loaded sweep, how a run's index maps to its axes' values,
 * and how its document is resolved. Loading is sweep_load.c, a run's
 * document, seed and digest sweep_plan.c, execution and the manifest
 * sweep_exec.c, the folder and reruns sweep_dir.c, the tables
 * sweep_reduce.c. Not installed. */
#ifndef SENSIM_TOOLS_SWEEP_INTERNAL_H
#define SENSIM_TOOLS_SWEEP_INTERNAL_H

#include <stdint.h>
#include <cjson/cJSON.h>
#include <sensim_tools/sweep.h>
#include <sensim_tools/ablate.h>
#include <sensim_tools/vepd.h>

typedef enum sweep_axis_type { SWEEP_SEEDS, SWEEP_POINTER, SWEEP_VARIANTS } sweep_axis_type;

/* One of the file's axes. Values are borrowed from the sweep's parsed
 * file (sensim_sweep.spec). */
typedef struct sweep_axis {
  const char *name;
  sweep_axis_type type;
  const char *pointer; /* SWEEP_POINTER */
  size_t n;            /* values, >= 1 */
  cJSON **values;      /* seeds (numbers), any JSON values, or variants ({"name", "set"}) */
  char **labels;       /* n: the value as compact JSON, a variant's name */
  char **sets;         /* SWEEP_VARIANTS: n, each variant's "set" as compact JSON */
  cJSON *owned;        /* the seeds of {"first", "count"}, made here */
} sweep_axis;

/* A vepd sweep's structure, from its "vepd" object as the file gives it. */
typedef struct sweep_vepd {
  sensim_vepd_experiment_params p; /* runs, seed, variants, reference; the
                                      per-run values come from each run's document */
  char *params_text[SENSIM_VEPD_MAX_VARIANTS][SENSIM_VEPD_MAX_CHAIN]; /* owned */
  char *reference_dir;       /* owned; real runs (NULL: the reference is a variant) */
  size_t nmodels;            /* (reference? 1 : 0) + nvariants */
  int manoeuvres[SENSIM_VEPD_MANOEUVRES];
  size_t nmanoeuvres;
} sweep_vepd;

struct sensim_sweep {
  char *name;
  char *source;   /* for messages */
  char *base_dir; /* what the runs' relative paths resolve against */
  sensim_sweep_kind kind;
  int threads;
  int zip;        /* "combine": "list" */
  cJSON *spec;    /* the parsed file, name filled in */
  cJSON *base;    /* the run document before overrides (the scenario, or "vepd") */
  char *base_text; /* base as compact JSON: what digests start from */
  size_t naxes;
  sweep_axis *axes;
  size_t ncombos; /* combinations of the file's axes */
  int seed_axis;  /* index of the seeds axis, or -1 */
  /* ablation: the implicit outer axis */
  sensim_ablation ablations[SENSIM_ABLATE_COUNT];
  size_t nablations;
  size_t ablation_frames;
  sweep_vepd vepd;
  size_t nruns;
  char **labels;     /* nruns */
  uint64_t *seeds;   /* nruns: each run's world seed */
  uint64_t *digests; /* nruns */
};

/* Where run i sits: the combination of the file's axes, each axis's value
 * index (at[naxes]), and the implicit axes' indices. */
typedef struct sweep_pos {
  size_t combo;
  size_t ablation;  /* ablation: index into ablations */
  size_t model;     /* vepd: 0 .. nmodels - 1 (0 is the reference when it is a variant) */
  size_t manoeuvre; /* vepd: index into vepd.manoeuvres */
  size_t k;         /* vepd: 0 .. runs - 1 */
} sweep_pos;

void sensim_tools__sweep_pos(const sensim_sweep *s, size_t i, sweep_pos *pos);
/* Axis a's value index in combination `combo`. */
size_t sensim_tools__sweep_axis_index(const sensim_sweep *s, size_t a, size_t combo);

/* Run i's document: the base with every axis's override applied, in file
 * order (a duplicate; cJSON_Delete it). SENSIM_EINVAL naming the run and
 * the axis when a pointer does not resolve. */
sensim_status sensim_tools__sweep_resolve(const sensim_sweep *s, size_t i, cJSON **doc);
/* Run i's digest: FNV-1a 64 of the kind, the base document, the run's
 * overrides in order and its implicit settings. The resolved document is
 * a function of exactly these, so this fingerprints it without printing
 * it (a sweep of 10^6 runs loads in seconds). */
uint64_t sensim_tools__sweep_digest(const sensim_sweep *s, size_t i);
/* Which of the sweep's distinct documents run i has: runs that differ
 * only in their seed or implicit axes share one. */
size_t sensim_tools__sweep_doc_key(const sensim_sweep *s, size_t i);
/* A scenario document's world seed (/world/seed; 1, the scenario's
 * default, when absent). SENSIM_EINVAL when it is not an integer in
 * 0..2^53. */
sensim_status sensim_tools__sweep_doc_seed(const cJSON *doc, uint64_t *seed);
/* A vepd run's model (the reference's variant for model 0 when the
 * reference is a variant) and its label ("reference" or the variant's name). */
const sensim_vepd_variant *sensim_tools__sweep_model(const sensim_sweep *s, size_t model, const char **label);

/* out_dir/run_NNNN, or out_dir/run_NNNN/leaf (malloc'd; NULL when out
 * of memory). */
char *sensim_tools__sweep_run_path(const char *out_dir, size_t i, const char *leaf);

/* Whether manifest m is run i's as the sweep has it now (sweep name, kind,
 * index and digest), and whether its status is "ok" (sweep_exec.c). */
int sensim_tools__sweep_record_matches(const sensim_sweep *s, size_t i, const cJSON *m);
int sensim_tools__sweep_record_ok(const cJSON *m);

/* A vepd run's values from its document onto *p (which holds the base's):
 * duration, rates, ekf, and imu_noise as a text into *imu_noise (malloc'd
 * or NULL; p->imu_noise points at it). SENSIM_EINVAL for a value of the
 * wrong type, SENSIM_EPARSE for an unknown ekf key. */
sensim_status sensim_tools__sweep_vepd_params(const cJSON *doc, sensim_vepd_experiment_params *p, char **imu_noise);

/* Remove path and everything under it (a missing path is fine).
 * SENSIM_EIO naming what could not be removed. */
sensim_status sensim_tools__remove_tree(const char *path);

/* Judge sweeps (sweep_judge.c): the "judge" object's keys (NULL-terminated),
 * a run's seed (its document's "seed"), and one run: `python3 -m
 * sensim.judge job` with the document's settings, its output in dir/log.txt,
 * its record (dir/result.json) merged into results. */
const char *const *sensim_tools__sweep_judge_keys(void);
sensim_status sensim_tools__sweep_judge_seed(const cJSON *doc, uint64_t *seed);
sensim_status sensim_tools__sweep_judge_run(const sensim_sweep *s, const cJSON *doc, const char *dir,
                                           cJSON *results);

#endif
