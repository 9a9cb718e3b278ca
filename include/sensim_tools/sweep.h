/* sensim_tools/sweep.h: sweeps: many runs of one scenario or experiment,
 * each with its own seed, parameter overrides and model variant, each
 * written to a folder of its own with a manifest, and tables reduced from
 * all of them.
 *
 * This library plans, executes and reduces; it knows nothing of who runs
 * what where. The `sensim sweep` program hands the runs out one by one to
 * the ranks of an MPI job, or runs them in turn without one
 * (docs/sweep.md). Any scheduler that calls sensim_sweep_execute once for
 * each run that is not complete (on any machine that sees the output
 * folder), and gives every run's record to sensim_sweep_reduce on one of
 * them, gets the same files, byte for byte: a run's output depends on the
 * sweep and the run's index alone, never on where or when it ran.
 *
 * ---- the sweep file -------------------------------------------------------
 * JSON in the scenario dialect (// and slash-star comments allowed):
 *
 *   {
 *     "name": "cart_noise",           // optional; default: the file's stem
 *     "scenario": "cart.json",        // what each run is (below)
 *     "threads": 0,                   // worker threads per run (default 0)
 *     "combine": "product",           // or "list"
 *     "axes": [
 *       {"name": "seed", "seeds": {"first": 1, "count": 4}},
 *       {"name": "sigma", "pointer": "/sensors/1/filters/0/params/sigma",
 *        "values": [0.01, 0.05]},
 *       {"name": "imu", "variants": [
 *          {"name": "consumer", "set": {"/sensors/2/filters/0/params/accel_noise_density": 0.004}},
 *          {"name": "tactical", "set": {"/sensors/2/filters/0/params/accel_noise_density": 0.0002}}]}
 *     ]
 *   }
 *
 * What a run is, one of:
 *   "scenario": "FILE.json" or {...}  a scenario (docs/scenario.md), run
 *       with sensim_scenario_run_ex into the run's folder. A file path is
 *       relative to the sweep file; relative paths inside the scenario
 *       resolve against the scenario file's folder (the sweep file's for
 *       an inline object).
 *   "experiment": "ablation", "scenario": ..., "ablation": {"variants":
 *       ["baseline", "noise_off", ...], "frames": N}  the scenario rendered
 *       once per camera-stage ablation (sensim_tools/ablate.h; default
 *       every variant, the file's duration): an implicit first axis named
 *       "ablation".
 *   "experiment": "vepd", "vepd": {...}  the VEPD experiment
 *       (sensim_tools/vepd.h), one simulated drive per run: keys "runs"
 *       (K), "seed", "duration", "host_rate", "gnss_rate", "imu_rate",
 *       "imu_noise" (the filter's params), "ekf" (sensim_ekf_params' fields
 *       by name), "variants" ([{"name", "filters": [{"name", "params"}]}],
 *       default the five of the published study), "reference" (a variant's
 *       name, default the first, whose drives with seeds seed + K + k form
 *       the reference set; or {"real": "DIR"}, real runs in
 *       DIR/<manoeuvre>/ *.csv) and "manoeuvres" (default all three). Its
 *       implicit axes are "model" (the reference's drives first, named
 *       "reference", then each variant), "manoeuvre" and "k" (0 .. K-1,
 *       world seed seed + k, or seed + K + k for the reference), innermost
 *       after every axis of the file; the file's axes override the "vepd"
 *       object by pointer ("/ekf/gnss_sigma", "/imu_noise/...",
 *       "/duration"), not its structure ("runs", "seed", "variants",
 *       "reference", "manoeuvres"), and take no "seeds".
 *   "experiment": "judge", "judge": {"dataset": DIR, "out": DIR,
 *       "variant": V, "seed": S, "epochs": N, ...}  one training of the
 *       perception judge's study per run (docs/judge.md): the file's axes
 *       set "/variant" and "/seed" (and any other setting of `sensim judge
 *       job`) by pointer; each run runs `python3 -m sensim.judge job`
 *       ($SENSIM_PYTHON names the interpreter), which trains into the
 *       study's folder "out" and resumes a killed training from its last
 *       epoch. Relative paths resolve against the sweep file's folder. No
 *       "seeds" axis: the seed is the document's "seed".
 *
 * Axes, applied to the run's document (the scenario, or the "vepd"
 * object) in file order:
 *   {"name", "seeds": [s, ...] | {"first": s, "count": n}}  world seeds
 *       (integers 0 .. 2^53), set at /world/seed; "name" defaults to "seed".
 *       One seeds axis at most, and it owns the seed: no other axis may
 *       set /world or /world/seed.
 *   {"name", "pointer": "/a/b/0", "values": [v, ...]}  any JSON values set
 *       at an RFC 6901 JSON pointer: an existing member or array element is
 *       replaced, a missing member of an existing object added, "-" appends
 *       to an array; the parent must exist.
 *   {"name", "variants": [{"name", "set": {POINTER: VALUE, ...}}, ...]}
 *       named bundles of such settings (model variants), applied in the
 *       order given.
 * "combine": "product" (default) runs every combination, the first axis
 * outermost, the last fastest; "list" runs value i of every axis together
 * (all axes the same length). Axis names are unique, non-empty and not
 * "run", "status", "error", "world_seed" nor another column of the
 * sweep's tables ("sim_time", "frames_*"; for vepd "model", "manoeuvre",
 * "k", "rmse", "variant", "w1", ...); every run's overrides are applied at load,
 * so a pointer that does not resolve fails the load, naming the run and
 * the axis, before anything runs. Value errors (a sigma < 0) fail that run
 * only. At most SENSIM_SWEEP_MAX_RUNS runs.
 *
 * ---- what a sweep writes under its output folder DIR ----------------------
 *   DIR/sweep.json              the sweep file's text: marks DIR as this
 *                               sweep's (a rerun checks the name)
 *   DIR/run_NNNN/               one per run (index, 4 digits or more):
 *     <sensor>/ ...             what the run wrote (scenario and ablation:
 *                               sensim_scenario_run_ex's layout; vepd:
 *                               run.csv, the EKF's speed against the truth)
 *     manifest.json             written last, atomically (below)
 *   DIR/summary.csv             one row per run (sensim_sweep_reduce)
 *   DIR/vepd_table.csv, DIR/hist_*.png   vepd: the experiment's table and
 *                               histograms from every run, the files and
 *                               format of sensim_vepd_experiment_run; with
 *                               axes in the file, the table has one leading
 *                               column per axis and the histograms of
 *                               combination c are hist_*_<manoeuvre>_cccc.png
 *
 * A run's manifest (its record) is a JSON object:
 *   {"sweep": NAME, "kind": "scenario"|"ablation"|"vepd", "run": i,
 *    "digest": "16 hex digits",  FNV-1a 64 of the run's kind, the base
 *                                document, the run's overrides in order
 *                                (with their axes' and variants' names)
 *                                and its implicit settings: what makes it
 *                                the same run on a rerun (not where the
 *                                files are)
 *    "seed": S,                  the world seed
 *    "parameters": {AXIS: VALUE, ...},  each axis's value (a variant's name)
 *    "status": "ok" | "failed", "error": "message" (failed only),
 *    "results": {...}}           ok only. scenario: {"sim_time": s,
 *                                "frames": {SENSOR: frames delivered, ...},
 *                                "warnings": [...] (the load's, if any)};
 *                                ablation: the same and "changes" (what
 *                                the variant changed, sensim_ablation_edit's
 *                                notes); vepd: {"estimates": n, "rmse",
 *                                "h_est", "h_true", "h_diff"} (vepd.h)
 * "parameters" also holds the implicit axes: "ablation"; "model",
 * "manoeuvre" and "k". Numbers are printed as the shortest of 15 and 17
 * significant digits that reads back exactly, so reading a record back
 * gives the very doubles the run computed. */
#ifndef SENSIM_TOOLS_SWEEP_H
#define SENSIM_TOOLS_SWEEP_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs in one sweep, at most. */
#define SENSIM_SWEEP_MAX_RUNS 1000000

typedef struct sensim_sweep sensim_sweep;

typedef enum sensim_sweep_kind {
  SENSIM_SWEEP_SCENARIO = 0,
  SENSIM_SWEEP_ABLATION = 1,
  SENSIM_SWEEP_VEPD = 2,
  SENSIM_SWEEP_JUDGE = 3
} sensim_sweep_kind;

/* Load a sweep file, expand its axes into runs and resolve every run's
 * document (so a bad pointer fails here, not midway). SENSIM_ENOTFOUND for
 * a missing file (the sweep's or its scenario's), SENSIM_EPARSE for bad
 * JSON or an unknown key (file:line:column, or the key's path with a
 * suggestion), SENSIM_EINVAL for a bad value or a pointer that does not
 * resolve (naming the run and the axis). Nothing is left allocated on
 * failure. */
SENSIM_TOOLS_API sensim_status sensim_sweep_load(const char *path, sensim_sweep **out);
/* The same from a text; `source` names it in messages (NULL: "sweep") and
 * its stem is the default name; relative paths resolve against base_dir
 * (NULL: the current folder). */
SENSIM_TOOLS_API sensim_status sensim_sweep_load_string(const char *json, const char *source,
                                                       const char *base_dir, sensim_sweep **out);
SENSIM_TOOLS_API void sensim_sweep_destroy(sensim_sweep *s);

/* The sweep's name, kind, runs and worker threads per run; NULL or 0 for NULL. */
SENSIM_TOOLS_API const char *sensim_sweep_name(const sensim_sweep *s);
SENSIM_TOOLS_API sensim_sweep_kind sensim_sweep_kind_of(const sensim_sweep *s);
/* A kind's name as manifests give it: "scenario", "ablation", "vepd", "judge". */
SENSIM_TOOLS_API const char *sensim_sweep_kind_name(sensim_sweep_kind k);
SENSIM_TOOLS_API size_t sensim_sweep_run_count(const sensim_sweep *s);
SENSIM_TOOLS_API int sensim_sweep_threads(const sensim_sweep *s);
/* Worker threads of every run from now on, 0..1024 (a command line's
 * --threads; the output does not depend on it). SENSIM_EINVAL otherwise. */
SENSIM_TOOLS_API sensim_status sensim_sweep_set_threads(sensim_sweep *s, int threads);

/* Run i in one line, its axes' values in file order: "seed=3 sigma=0.05
 * imu=consumer" (owned by the sweep; NULL for i out of range). */
SENSIM_TOOLS_API const char *sensim_sweep_run_label(const sensim_sweep *s, size_t i);
/* Run i's folder name, "run_0007" (at least 4 digits), into buf.
 * SENSIM_EINVAL when it does not fit. */
SENSIM_TOOLS_API sensim_status sensim_sweep_run_dir(size_t i, char *buf, size_t size);

/* Make out_dir ready for the sweep: created if missing; an empty folder,
 * or one holding a sweep.json of a sweep of the same name, is taken; any
 * other non-empty folder is refused with SENSIM_ESTATE and a message
 * naming what is there, so a sweep never writes among other files.
 * Writes out_dir/sweep.json (the sweep file's text). SENSIM_EIO when the
 * folder cannot be made or written. */
SENSIM_TOOLS_API sensim_status sensim_sweep_prepare(const sensim_sweep *s, const char *out_dir);

/* Whether run i is complete in out_dir: its manifest exists, reads, says
 * "ok" and carries the digest run i has now. 1 and (unless record is
 * NULL) the manifest's text in *record (malloc'd; free() it); 0 when not
 * (a missing, failed, stale or unreadable manifest: the run is to be
 * done), *record untouched. */
SENSIM_TOOLS_API int sensim_sweep_run_complete(const sensim_sweep *s, const char *out_dir, size_t i,
                                              char **record);

/* Execute run i into out_dir/run_NNNN/ (emptied first: what a failed or
 * stale attempt left is removed) and write its manifest there last. A
 * run that fails (a value out of its domain, a failed write) is recorded
 * with status "failed" and its message, and this call still returns
 * SENSIM_OK: the sweep goes on. *record gets the manifest's text
 * (malloc'd; free() it) either way. Another status only when nothing
 * could be recorded: SENSIM_EINVAL for NULL arguments or i out of range,
 * SENSIM_EIO when the folder or the manifest cannot be written, SENSIM_ENOMEM
 * when memory runs out. Safe to call for different runs at once, from
 * several processes or threads:
 * each run is a world of its own (with sensim_sweep_threads workers), and
 * the sweep is only read. Not while sensim_sweep_set_threads runs. */
SENSIM_TOOLS_API sensim_status sensim_sweep_execute(const sensim_sweep *s, size_t i, const char *out_dir,
                                                   char **record);

/* What a reduction counted. */
typedef struct sensim_sweep_totals {
  size_t runs;    /* runs in the sweep */
  size_t ok;      /* records with status "ok" */
  size_t failed;  /* records with status "failed" */
  size_t missing; /* runs without a record (NULL) */
} sensim_sweep_totals;

/* Reduce every run's record (records[i] for run i, run_count of them;
 * NULL for a run with none) into out_dir/summary.csv and, for a vepd
 * sweep, vepd_table.csv and the histograms, each written atomically.
 *
 * summary.csv: a header, then one row per run in index order: run (the
 * folder name), status (ok, failed or missing), one column per axis (the
 * value as compact JSON, a variant's name; the implicit axes where they
 * sit: ablation first, model, manoeuvre and k last), world_seed, the
 * results (scenario and ablation: sim_time and frames_<sensor> for every
 * sensor any record names, in order of first appearance; vepd: estimates,
 * rmse, h_est, h_true, h_diff) and error; RFC 4180 quoting where a field
 * holds a comma, a quote or a line break. A VEPD cell whose sets have a
 * failed or missing run has status "incomplete" and no numbers.
 *
 * SENSIM_EINVAL for a record that does not parse or belongs to another
 * run or sweep (its message names the run); SENSIM_EIO for a write. */
SENSIM_TOOLS_API sensim_status sensim_sweep_reduce(const sensim_sweep *s, const char *out_dir,
                                                  char *const *records, sensim_sweep_totals *totals);

#ifdef __cplusplus
}
#endif
#endif
