/* tools/sweep_load.c: reading a sweep file (sensim_tools/sweep.h): its
 * keys, the run document it names (a scenario, or the "vepd" object), its
 * axes and their combination, and the expansion into runs, each resolved
 * once here so that a pointer that does not resolve fails the load, not
 * the run that meets it hours later. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/json_pointer.h"
#include "tools/sweep_internal.h"
#include "tools/json_text.h"
#include "tools/tools_internal.h"

#define SEED_MAX 9007199254740992.0 /* 2^53, the scenario's bound */

/* SENSIM_EPARSE for a key of obj not in `known` (NULL-terminated). */
static sensim_status check_keys(const cJSON *obj, const char *const *known, const char *src, const char *where) {
  for (const cJSON *c = obj->child; c; c = c->next) {
    int ok = 0;
    for (size_t k = 0; known[k] && !ok; k++) ok = strcmp(c->string, known[k]) == 0;
    if (ok) continue;
    const char *near = sensim_suggest(c->string, known);
    return sensim_error_set(SENSIM_EPARSE, "%s: %s: unknown key '%s'%s%s%s", src, where, c->string,
                            near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  }
  return SENSIM_OK;
}

/* An integer in [lo, hi] (doubles hold them exactly up to 2^53). */
static int is_int_in(const cJSON *v, double lo, double hi) {
  return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi && floor(v->valuedouble) == v->valuedouble;
}

static void axis_free(sweep_axis *a) {
  for (size_t i = 0; a->labels && i < a->n; i++) free(a->labels[i]);
  for (size_t i = 0; a->sets && i < a->n; i++) free(a->sets[i]);
  free(a->labels);
  free(a->sets);
  free(a->values);
  cJSON_Delete(a->owned);
}

void sensim_sweep_destroy(sensim_sweep *s) {
  if (!s) return;
  for (size_t i = 0; i < s->naxes; i++) axis_free(&s->axes[i]);
  free(s->axes);
  for (size_t i = 0; s->labels && i < s->nruns; i++) free(s->labels[i]);
  free(s->labels);
  free(s->seeds);
  free(s->digests);
  for (size_t v = 0; v < SENSIM_VEPD_MAX_VARIANTS; v++)
    for (size_t f = 0; f < SENSIM_VEPD_MAX_CHAIN; f++) free(s->vepd.params_text[v][f]);
  free(s->vepd.reference_dir);
  cJSON_Delete(s->base);
  free(s->base_text);
  cJSON_Delete(s->spec);
  free(s->name);
  free(s->source);
  free(s->base_dir);
  free(s);
}

/* "dir/name.json" -> "name". */
static char *stem_of(const char *source) {
  const char *b = strrchr(source, '/');
  b = b ? b + 1 : source;
  size_t n = strlen(b);
  const char *dot = strrchr(b, '.');
  if (dot && dot != b) n = (size_t)(dot - b);
  char *out = malloc(n + 1);
  if (!out) return NULL;
  memcpy(out, b, n);
  out[n] = '\0';
  return out;
}

/* path joined to base_dir unless absolute (malloc'd). */
static char *join(const char *base_dir, const char *path) {
  if (path[0] == '/' || !base_dir || !*base_dir) return sensim_tools__strdup(path);
  size_t n = strlen(base_dir) + strlen(path) + 2;
  char *out = malloc(n);
  if (out) snprintf(out, n, "%s/%s", base_dir, path);
  return out;
}

/* A JSON text in the scenario dialect, parsed. */
static sensim_status parse_text(const char *text, const char *source, cJSON **out) {
  char *strict = NULL;
  sensim_status st = sensim_json_strict(text, source, &strict);
  if (st != SENSIM_OK) return st;
  *out = cJSON_Parse(strict);
  free(strict);
  return *out ? SENSIM_OK : sensim_error_set(SENSIM_ENOMEM, "%s: out of memory parsing", source);
}

/* ---- the run document ----------------------------------------------------- */

static sensim_status load_scenario(sensim_sweep *s, const cJSON *scn) {
  if (cJSON_IsObject(scn)) {
    s->base = cJSON_Duplicate(scn, 1);
    if (!s->base) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
    return SENSIM_OK;
  }
  if (!cJSON_IsString(scn) || !*scn->valuestring)
    return sensim_error_set(SENSIM_EINVAL, "%s: \"scenario\" must be a file name or a scenario object", s->source);
  char *path = join(s->base_dir, scn->valuestring);
  char *text = NULL;
  sensim_status st = path ? sensim_read_text_file(path, "scenario", &text) : SENSIM_ENOMEM;
  if (st == SENSIM_OK) st = parse_text(text, path, &s->base);
  if (st == SENSIM_OK && !cJSON_IsObject(s->base))
    st = sensim_error_set(SENSIM_EPARSE, "%s: a scenario is a JSON object", path);
  if (st == SENSIM_OK) {
    /* The scenario's own relative paths resolve against its folder. */
    free(s->base_dir);
    s->base_dir = sensim_tools__dirname(path);
    if (!s->base_dir) st = SENSIM_ENOMEM;
  }
  if (st != SENSIM_OK) sensim_error_prefix("%s", s->source);
  free(text);
  free(path);
  return st;
}

static sensim_status load_ablation(sensim_sweep *s, const cJSON *ab) {
  s->nablations = SENSIM_ABLATE_COUNT;
  for (int a = 0; a < SENSIM_ABLATE_COUNT; a++) s->ablations[a] = (sensim_ablation)a;
  if (!ab) return SENSIM_OK;
  static const char *const keys[] = {"variants", "frames", NULL};
  if (!cJSON_IsObject(ab)) return sensim_error_set(SENSIM_EINVAL, "%s: \"ablation\" must be an object", s->source);
  sensim_status st = check_keys(ab, keys, s->source, "ablation");
  if (st != SENSIM_OK) return st;
  const cJSON *fr = cJSON_GetObjectItemCaseSensitive(ab, "frames");
  if (fr && !is_int_in(fr, 1, 1e6))
    return sensim_error_set(SENSIM_EINVAL, "%s: ablation.frames must be an integer in 1..1000000", s->source);
  s->ablation_frames = fr ? (size_t)fr->valuedouble : 0;
  const cJSON *vs = cJSON_GetObjectItemCaseSensitive(ab, "variants");
  if (!vs) return SENSIM_OK;
  if (!cJSON_IsArray(vs) || cJSON_GetArraySize(vs) < 1 || cJSON_GetArraySize(vs) > SENSIM_ABLATE_COUNT)
    return sensim_error_set(SENSIM_EINVAL, "%s: ablation.variants must list 1..%d variant names", s->source,
                            SENSIM_ABLATE_COUNT);
  s->nablations = 0;
  for (const cJSON *v = vs->child; v; v = v->next) {
    sensim_ablation a;
    if (!cJSON_IsString(v) || sensim_ablation_from_name(v->valuestring, &a) != SENSIM_OK) {
      const char *names[SENSIM_ABLATE_COUNT + 1] = {NULL};
      for (int k = 0; k < SENSIM_ABLATE_COUNT; k++) names[k] = sensim_ablation_name((sensim_ablation)k);
      const char *near = cJSON_IsString(v) ? sensim_suggest(v->valuestring, names) : NULL;
      return sensim_error_set(SENSIM_EINVAL, "%s: ablation.variants: '%s' is not a variant%s%s%s", s->source,
                              cJSON_IsString(v) ? v->valuestring : "(not a string)", near ? "; did you mean '" : "",
                              near ? near : "", near ? "'?" : "");
    }
    for (size_t k = 0; k < s->nablations; k++)
      if (s->ablations[k] == a)
        return sensim_error_set(SENSIM_EINVAL, "%s: ablation.variants names '%s' twice", s->source, v->valuestring);
    s->ablations[s->nablations++] = a;
  }
  return SENSIM_OK;
}

/* The "vepd" object's structure; the values a run may override are read
 * per run (sweep_exec.c), and checked once here on the base. */
static const char *const kVepdKeys[] = {"runs",     "seed", "duration", "host_rate", "gnss_rate", "imu_rate",
                                        "imu_noise", "ekf", "variants", "reference", "manoeuvres", NULL};
static const char *const kVepdStructure[] = {"runs", "seed", "variants", "reference", "manoeuvres", NULL};

static sensim_status vepd_variants(sensim_sweep *s, const cJSON *vs) {
  sensim_vepd_experiment_params *p = &s->vepd.p;
  if (!cJSON_IsArray(vs) || cJSON_GetArraySize(vs) < 1 || cJSON_GetArraySize(vs) > SENSIM_VEPD_MAX_VARIANTS)
    return sensim_error_set(SENSIM_EINVAL, "%s: vepd.variants must list 1..%d variants", s->source,
                            SENSIM_VEPD_MAX_VARIANTS);
  static const char *const vkeys[] = {"name", "filters", NULL};
  static const char *const fkeys[] = {"name", "params", NULL};
  p->nvariants = 0;
  for (const cJSON *v = vs->child; v; v = v->next) {
    size_t i = p->nvariants;
    char where[64];
    snprintf(where, sizeof where, "vepd.variants[%zu]", i);
    if (!cJSON_IsObject(v)) return sensim_error_set(SENSIM_EINVAL, "%s: %s must be an object", s->source, where);
    sensim_status st = check_keys(v, vkeys, s->source, where);
    if (st != SENSIM_OK) return st;
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(v, "name");
    const cJSON *fs = cJSON_GetObjectItemCaseSensitive(v, "filters");
    if (!cJSON_IsString(nm) || !*nm->valuestring || strcmp(nm->valuestring, "reference") == 0)
      return sensim_error_set(SENSIM_EINVAL, "%s: %s.name must be a non-empty string other than 'reference'",
                              s->source, where);
    for (size_t k = 0; k < i; k++)
      if (strcmp(p->variants[k].name, nm->valuestring) == 0)
        return sensim_error_set(SENSIM_EINVAL, "%s: vepd.variants names '%s' twice", s->source, nm->valuestring);
    if (!cJSON_IsArray(fs) || cJSON_GetArraySize(fs) < 1 || cJSON_GetArraySize(fs) > SENSIM_VEPD_MAX_CHAIN)
      return sensim_error_set(SENSIM_EINVAL, "%s: %s.filters must list 1..%d GNSS filters", s->source, where,
                              SENSIM_VEPD_MAX_CHAIN);
    sensim_vepd_variant *var = &p->variants[i];
    memset(var, 0, sizeof *var);
    var->name = nm->valuestring;
    for (const cJSON *f = fs->child; f; f = f->next) {
      size_t j = var->nfilters;
      const cJSON *fn = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "name") : NULL;
      const cJSON *fp = cJSON_IsObject(f) ? cJSON_GetObjectItemCaseSensitive(f, "params") : NULL;
      if (!cJSON_IsString(fn) || (fp && !cJSON_IsObject(fp)))
        return sensim_error_set(SENSIM_EINVAL, "%s: %s.filters[%zu] must be {\"name\": ..., \"params\": {...}}",
                                s->source, where, j);
      st = check_keys(f, fkeys, s->source, where);
      if (st != SENSIM_OK) return st;
      var->filters[j] = fn->valuestring;
      if (fp) {
        s->vepd.params_text[i][j] = sensim_tools__json_print(fp, 0);
        if (!s->vepd.params_text[i][j]) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
        var->params[j] = s->vepd.params_text[i][j];
      }
      var->nfilters++;
    }
    p->nvariants++;
  }
  return SENSIM_OK;
}

static sensim_status load_vepd(sensim_sweep *s, const cJSON *v) {
  if (!cJSON_IsObject(v)) return sensim_error_set(SENSIM_EINVAL, "%s: \"vepd\" must be an object", s->source);
  sensim_status st = check_keys(v, kVepdKeys, s->source, "vepd");
  if (st != SENSIM_OK) return st;
  s->base = cJSON_Duplicate(v, 1);
  if (!s->base) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  sweep_vepd *d = &s->vepd;
  sensim_vepd_experiment_params_init(&d->p);
  /* The values a run may override, filled with the defaults where the
   * file leaves them out, so that an axis can point at "/ekf/gnss_sigma"
   * or "/imu_noise/accel_noise_density" without spelling out the rest. */
  const sensim_vepd_experiment_params *p0 = &d->p;
  const char *const top[] = {"duration", "host_rate", "gnss_rate", "imu_rate"};
  const double topv[] = {p0->duration, p0->host_rate, p0->gnss_rate, p0->imu_rate};
  for (size_t k = 0; k < 4; k++)
    if (!cJSON_GetObjectItemCaseSensitive(s->base, top[k]) && !cJSON_AddNumberToObject(s->base, top[k], topv[k]))
      return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  if (!cJSON_GetObjectItemCaseSensitive(s->base, "imu_noise") && !cJSON_AddObjectToObject(s->base, "imu_noise"))
    return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  cJSON *ekf = cJSON_GetObjectItemCaseSensitive(s->base, "ekf");
  if (!ekf) ekf = cJSON_AddObjectToObject(s->base, "ekf");
  if (!ekf) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  if (cJSON_IsObject(ekf)) {
    const char *const ek[] = {"accel_noise", "gyro_noise", "pos_noise", "gnss_sigma", "init_sigma_psi",
                              "init_sigma_v", "output_rate"};
    const double ev[] = {p0->ekf.accel_noise,    p0->ekf.gyro_noise,   p0->ekf.pos_noise, p0->ekf.gnss_sigma,
                         p0->ekf.init_sigma_psi, p0->ekf.init_sigma_v, p0->ekf.output_rate};
    for (size_t k = 0; k < 7; k++)
      if (!cJSON_GetObjectItemCaseSensitive(ekf, ek[k]) && !cJSON_AddNumberToObject(ekf, ek[k], ev[k]))
        return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  }
  const cJSON *runs = cJSON_GetObjectItemCaseSensitive(s->base, "runs");
  const cJSON *seed = cJSON_GetObjectItemCaseSensitive(s->base, "seed");
  if (runs && !is_int_in(runs, 1, 100000))
    return sensim_error_set(SENSIM_EINVAL, "%s: vepd.runs must be an integer in 1..100000", s->source);
  if (seed && !is_int_in(seed, 0, SEED_MAX))
    return sensim_error_set(SENSIM_EINVAL, "%s: vepd.seed must be an integer in 0..2^53", s->source);
  if (runs) d->p.runs = (size_t)runs->valuedouble;
  if (seed) d->p.seed = (uint64_t)seed->valuedouble;
  /* The drives' world seeds run up to seed + 2 runs - 1 (the reference's
   * last); past 2^53 the manifest's seed would not be the run's. Exact:
   * both sides are integers below 2^53. */
  if ((double)d->p.seed > SEED_MAX - (2.0 * (double)d->p.runs - 1.0))
    return sensim_error_set(SENSIM_EINVAL, "%s: vepd.seed + 2 vepd.runs - 1 (the last drive's world seed) must be "
                            "at most 2^53", s->source);
  const cJSON *vs = cJSON_GetObjectItemCaseSensitive(s->base, "variants");
  if (vs && (st = vepd_variants(s, vs)) != SENSIM_OK) return st;
  const cJSON *ref = cJSON_GetObjectItemCaseSensitive(s->base, "reference");
  if (cJSON_IsString(ref)) {
    d->p.reference_variant = -1;
    for (size_t i = 0; i < d->p.nvariants; i++)
      if (strcmp(d->p.variants[i].name, ref->valuestring) == 0) d->p.reference_variant = (int)i;
    if (d->p.reference_variant < 0)
      return sensim_error_set(SENSIM_EINVAL, "%s: vepd.reference '%s' is not one of vepd.variants", s->source,
                              ref->valuestring);
  } else if (ref) {
    const cJSON *real = cJSON_IsObject(ref) ? cJSON_GetObjectItemCaseSensitive(ref, "real") : NULL;
    if (!cJSON_IsString(real) || !*real->valuestring || cJSON_GetArraySize(ref) != 1)
      return sensim_error_set(SENSIM_EINVAL,
                              "%s: vepd.reference must be a variant's name or {\"real\": \"DIR\"} (real runs in "
                              "DIR/<manoeuvre>/*.csv)",
                              s->source);
    d->reference_dir = join(s->base_dir, real->valuestring);
    if (!d->reference_dir) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
    d->p.reference_dir = d->reference_dir;
  }
  d->nmodels = d->p.nvariants + (d->reference_dir ? 0 : 1);
  const cJSON *ms = cJSON_GetObjectItemCaseSensitive(s->base, "manoeuvres");
  if (!ms) {
    for (int m = 0; m < SENSIM_VEPD_MANOEUVRES; m++) d->manoeuvres[d->nmanoeuvres++] = m;
    return SENSIM_OK;
  }
  if (!cJSON_IsArray(ms) || cJSON_GetArraySize(ms) < 1)
    return sensim_error_set(SENSIM_EINVAL, "%s: vepd.manoeuvres must list manoeuvre names", s->source);
  int seen[SENSIM_VEPD_MANOEUVRES] = {0};
  for (const cJSON *m = ms->child; m; m = m->next) {
    int found = -1;
    for (int k = 0; k < SENSIM_VEPD_MANOEUVRES && cJSON_IsString(m); k++)
      if (strcmp(m->valuestring, sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)k)) == 0) found = k;
    if (found < 0 || seen[found]++)
      return sensim_error_set(SENSIM_EINVAL, "%s: vepd.manoeuvres: '%s' is not a manoeuvre named once (straight, "
                              "circle, half_sine)", s->source, cJSON_IsString(m) ? m->valuestring : "(not a string)");
  }
  /* In the experiment's order, whatever the file's: the table's rows are. */
  for (int m = 0; m < SENSIM_VEPD_MANOEUVRES; m++)
    if (seen[m]) d->manoeuvres[d->nmanoeuvres++] = m;
  return SENSIM_OK;
}

/* ---- axes --------------------------------------------------------------------- */

/* A pointer a vepd sweep's axis may not set: the experiment's structure. */
static const char *vepd_structural(const char *ptr) {
  for (size_t k = 0; kVepdStructure[k]; k++) {
    size_t n = strlen(kVepdStructure[k]);
    if (ptr[0] == '/' && strncmp(ptr + 1, kVepdStructure[k], n) == 0 && (ptr[1 + n] == '/' || !ptr[1 + n]))
      return kVepdStructure[k];
  }
  return NULL;
}

static sensim_status check_pointer(const sensim_sweep *s, const char *ptr, const char *where) {
  if (ptr[0] != '/')
    return sensim_error_set(SENSIM_EINVAL, "%s: %s: pointer '%s' must start with '/' (RFC 6901)", s->source, where,
                            ptr);
  const char *k = s->kind == SENSIM_SWEEP_VEPD ? vepd_structural(ptr) : NULL;
  if (k)
    return sensim_error_set(SENSIM_EINVAL,
                            "%s: %s: '%s' sets the experiment's structure (\"%s\"), which a vepd sweep's axes do not "
                            "override; edit the \"vepd\" object instead",
                            s->source, where, ptr, k);
  return SENSIM_OK;
}

/* Names the summary's or the VEPD table's own columns use. */
static int reserved(const sensim_sweep *s, const char *name) {
  static const char *const common[] = {"run", "status", "error", "world_seed", NULL};
  static const char *const scenario[] = {"sim_time", "ablation", NULL};
  static const char *const vepd[] = {"model", "manoeuvre", "k", "estimates", "rmse", "h_est", "h_true", "h_diff",
                                     "variant", "w1", "w2", "vepd", "rmse_mean_ref", "rmse_mean_variant",
                                     "hdiff_mean_ref", "hdiff_mean_variant", NULL};
  for (size_t i = 0; common[i]; i++)
    if (strcmp(name, common[i]) == 0) return 1;
  static const char *const judge[] = {"epochs", "val_map", NULL};
  const char *const *own = s->kind == SENSIM_SWEEP_VEPD ? vepd : s->kind == SENSIM_SWEEP_JUDGE ? judge : scenario;
  for (size_t i = 0; own[i]; i++)
    if (strcmp(name, own[i]) == 0) return 1;
  return s->kind != SENSIM_SWEEP_VEPD && s->kind != SENSIM_SWEEP_JUDGE && strncmp(name, "frames_", 7) == 0;
}

static sensim_status load_seeds(const sensim_sweep *s, sweep_axis *a, const cJSON *seeds, const char *where) {
  if (s->kind == SENSIM_SWEEP_JUDGE)
    return sensim_error_set(SENSIM_EINVAL, "%s: %s: a judge sweep takes no \"seeds\" axis: set \"/seed\" by pointer",
                            s->source, where);
  if (s->kind == SENSIM_SWEEP_VEPD)
    return sensim_error_set(SENSIM_EINVAL,
                            "%s: %s: a vepd sweep takes no \"seeds\" axis: its seeds are vepd.seed + k for k < "
                            "vepd.runs (docs/sweep.md)",
                            s->source, where);
  if (cJSON_IsObject(seeds)) {
    static const char *const keys[] = {"first", "count", NULL};
    sensim_status st = check_keys(seeds, keys, s->source, where);
    if (st != SENSIM_OK) return st;
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(seeds, "first");
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(seeds, "count");
    /* count - 1 > SEED_MAX - first, not first + count - 1 > SEED_MAX: the
     * sum past 2^53 rounds back to it in doubles; both sides here are exact. */
    if (!is_int_in(first, 0, SEED_MAX) || !is_int_in(count, 1, SENSIM_SWEEP_MAX_RUNS) ||
        count->valuedouble - 1 > SEED_MAX - first->valuedouble)
      return sensim_error_set(SENSIM_EINVAL,
                              "%s: %s.seeds: {\"first\": s, \"count\": n} with integers s >= 0, 1 <= n <= %d and s + "
                              "n - 1 <= 2^53",
                              s->source, where, SENSIM_SWEEP_MAX_RUNS);
    a->owned = cJSON_CreateArray();
    for (double k = 0; a->owned && k < count->valuedouble; k++) {
      cJSON *n = cJSON_CreateNumber(first->valuedouble + k);
      if (!n || !cJSON_AddItemToArray(a->owned, n)) {
        cJSON_Delete(n);
        return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
      }
    }
    if (!a->owned) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
    seeds = a->owned;
  }
  if (!cJSON_IsArray(seeds) || cJSON_GetArraySize(seeds) < 1)
    return sensim_error_set(SENSIM_EINVAL, "%s: %s.seeds must be a non-empty list or {\"first\", \"count\"}",
                            s->source, where);
  for (const cJSON *v = seeds->child; v; v = v->next)
    if (!is_int_in(v, 0, SEED_MAX))
      return sensim_error_set(SENSIM_EINVAL, "%s: %s.seeds: every seed is an integer in 0..2^53", s->source, where);
  a->type = SWEEP_SEEDS;
  a->pointer = "/world/seed";
  return SENSIM_OK;
}

static sensim_status load_variants(const sensim_sweep *s, sweep_axis *a, const cJSON *vs, const char *where) {
  if (!cJSON_IsArray(vs) || cJSON_GetArraySize(vs) < 1)
    return sensim_error_set(SENSIM_EINVAL, "%s: %s.variants must be a non-empty list", s->source, where);
  static const char *const keys[] = {"name", "set", "description", NULL};
  size_t i = 0;
  for (const cJSON *v = vs->child; v; v = v->next, i++) {
    char w[160];
    snprintf(w, sizeof w, "%s.variants[%zu]", where, i);
    if (!cJSON_IsObject(v)) return sensim_error_set(SENSIM_EINVAL, "%s: %s must be an object", s->source, w);
    sensim_status st = check_keys(v, keys, s->source, w);
    if (st != SENSIM_OK) return st;
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(v, "name");
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(v, "set");
    if (!cJSON_IsString(nm) || !*nm->valuestring)
      return sensim_error_set(SENSIM_EINVAL, "%s: %s.name must be a non-empty string", s->source, w);
    for (const cJSON *u = vs->child; u != v; u = u->next)
      if (strcmp(cJSON_GetObjectItemCaseSensitive(u, "name")->valuestring, nm->valuestring) == 0)
        return sensim_error_set(SENSIM_EINVAL, "%s: %s: two variants are named '%s'", s->source, where,
                                nm->valuestring);
    if (!cJSON_IsObject(set))
      return sensim_error_set(SENSIM_EINVAL, "%s: %s.set must be an object of {\"/json/pointer\": value}", s->source,
                              w);
    for (const cJSON *kv = set->child; kv; kv = kv->next)
      if ((st = check_pointer(s, kv->string, w)) != SENSIM_OK) return st;
  }
  a->type = SWEEP_VARIANTS;
  return SENSIM_OK;
}

static sensim_status load_axis(sensim_sweep *s, const cJSON *ax, size_t i) {
  sweep_axis *a = &s->axes[i];
  char where[48];
  snprintf(where, sizeof where, "axes[%zu]", i);
  if (!cJSON_IsObject(ax)) return sensim_error_set(SENSIM_EINVAL, "%s: %s must be an object", s->source, where);
  static const char *const keys[] = {"name", "seeds", "pointer", "values", "variants", "description", NULL};
  sensim_status st = check_keys(ax, keys, s->source, where);
  if (st != SENSIM_OK) return st;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ax, "name");
  const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(ax, "seeds");
  const cJSON *ptr = cJSON_GetObjectItemCaseSensitive(ax, "pointer");
  const cJSON *values = cJSON_GetObjectItemCaseSensitive(ax, "values");
  const cJSON *vars = cJSON_GetObjectItemCaseSensitive(ax, "variants");
  if ((seeds != NULL) + (ptr != NULL || values != NULL) + (vars != NULL) != 1)
    return sensim_error_set(SENSIM_EINVAL,
                            "%s: %s must have exactly one of \"seeds\", \"pointer\" with \"values\", or \"variants\"",
                            s->source, where);
  if (nm && (!cJSON_IsString(nm) || !*nm->valuestring))
    return sensim_error_set(SENSIM_EINVAL, "%s: %s.name must be a non-empty string", s->source, where);
  if (!nm && !seeds) return sensim_error_set(SENSIM_EINVAL, "%s: %s needs a \"name\"", s->source, where);
  a->name = nm ? nm->valuestring : "seed";
  if (reserved(s, a->name))
    return sensim_error_set(SENSIM_EINVAL, "%s: %s: the name '%s' is a column of the sweep's own tables; choose another",
                            s->source, where, a->name);
  for (size_t k = 0; k < i; k++)
    if (strcmp(s->axes[k].name, a->name) == 0)
      return sensim_error_set(SENSIM_EINVAL, "%s: axes[%zu] and axes[%zu] are both named '%s'", s->source, k, i,
                              a->name);
  const cJSON *list = NULL;
  if (seeds) {
    st = load_seeds(s, a, seeds, where);
    list = a->owned ? a->owned : seeds;
  } else if (vars) {
    st = load_variants(s, a, vars, where);
    list = vars;
  } else {
    if (!cJSON_IsString(ptr) || !cJSON_IsArray(values) || cJSON_GetArraySize(values) < 1)
      return sensim_error_set(SENSIM_EINVAL, "%s: %s needs \"pointer\" (a string) and \"values\" (a non-empty list)",
                              s->source, where);
    st = check_pointer(s, ptr->valuestring, where);
    a->type = SWEEP_POINTER;
    a->pointer = ptr->valuestring;
    list = values;
  }
  if (st != SENSIM_OK) return st;
  a->n = (size_t)cJSON_GetArraySize(list);
  a->values = calloc(a->n, sizeof *a->values);
  a->labels = calloc(a->n, sizeof *a->labels);
  a->sets = a->type == SWEEP_VARIANTS ? calloc(a->n, sizeof *a->sets) : NULL;
  if (!a->values || !a->labels || (a->type == SWEEP_VARIANTS && !a->sets)) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  size_t k = 0;
  for (cJSON *v = list->child; v; v = v->next, k++) {
    a->values[k] = v;
    a->labels[k] = a->type == SWEEP_VARIANTS
                       ? sensim_tools__strdup(cJSON_GetObjectItemCaseSensitive(v, "name")->valuestring)
                       : sensim_tools__json_print(v, 0);
    if (a->sets) a->sets[k] = sensim_tools__json_print(cJSON_GetObjectItemCaseSensitive(v, "set"), 0);
    if (!a->labels[k] || (a->sets && !a->sets[k]))
      return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  }
  return SENSIM_OK;
}

static sensim_status load_axes(sensim_sweep *s) {
  const cJSON *axes = cJSON_GetObjectItemCaseSensitive(s->spec, "axes");
  const cJSON *comb = cJSON_GetObjectItemCaseSensitive(s->spec, "combine");
  if (comb && !(cJSON_IsString(comb) && (strcmp(comb->valuestring, "product") == 0 ||
                                         strcmp(comb->valuestring, "list") == 0)))
    return sensim_error_set(SENSIM_EINVAL, "%s: \"combine\" must be \"product\" or \"list\"", s->source);
  s->zip = comb && strcmp(comb->valuestring, "list") == 0;
  if (axes && !cJSON_IsArray(axes)) return sensim_error_set(SENSIM_EINVAL, "%s: \"axes\" must be a list", s->source);
  s->naxes = axes ? (size_t)cJSON_GetArraySize(axes) : 0;
  if (s->naxes > 64) return sensim_error_set(SENSIM_EINVAL, "%s: %zu axes (at most 64)", s->source, s->naxes);
  s->axes = calloc(s->naxes ? s->naxes : 1, sizeof *s->axes);
  if (!s->axes) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  size_t i = 0;
  for (const cJSON *ax = axes ? axes->child : NULL; ax; ax = ax->next, i++) {
    sensim_status st = load_axis(s, ax, i);
    if (st != SENSIM_OK) return st;
  }
  s->seed_axis = -1;
  for (i = 0; i < s->naxes; i++) {
    if (s->axes[i].type != SWEEP_SEEDS) continue;
    if (s->seed_axis >= 0)
      return sensim_error_set(SENSIM_EINVAL, "%s: axes[%d] and axes[%zu] both give seeds; a sweep has one seeds axis",
                              s->source, s->seed_axis, i);
    s->seed_axis = (int)i;
  }
  /* The seeds axis owns /world/seed: nothing else may set it, or the
   * seed a run reports would not be the one it ran with. */
  for (i = 0; s->seed_axis >= 0 && i < s->naxes; i++) {
    const sweep_axis *a = &s->axes[i];
    for (size_t k = 0; a->type != SWEEP_SEEDS && k < (a->type == SWEEP_VARIANTS ? a->n : 1); k++) {
      const cJSON *set = a->type == SWEEP_VARIANTS ? cJSON_GetObjectItemCaseSensitive(a->values[k], "set") : NULL;
      for (const cJSON *kv = set ? set->child : NULL;; kv = kv->next) {
        const char *ptr = set ? (kv ? kv->string : NULL) : a->pointer;
        if (!ptr) break;
        if (strcmp(ptr, "/world") == 0 || strcmp(ptr, "/world/seed") == 0 || strncmp(ptr, "/world/seed/", 12) == 0)
          return sensim_error_set(SENSIM_EINVAL,
                                  "%s: axes[%zu] '%s' sets %s, which the seeds axis '%s' owns", s->source, i, a->name,
                                  ptr, s->axes[s->seed_axis].name);
        if (!set) break;
      }
    }
  }
  s->ncombos = 1;
  for (i = 0; i < s->naxes; i++) {
    if (s->zip) {
      if (s->axes[i].n != s->axes[0].n)
        return sensim_error_set(SENSIM_EINVAL,
                                "%s: \"combine\": \"list\" runs value i of every axis together, but axis '%s' has %zu "
                                "values and '%s' %zu",
                                s->source, s->axes[0].name, s->axes[0].n, s->axes[i].name, s->axes[i].n);
      s->ncombos = s->axes[0].n;
    } else if (s->axes[i].n > SENSIM_SWEEP_MAX_RUNS / s->ncombos) {
      return sensim_error_set(SENSIM_EINVAL, "%s: the axes' product exceeds %d runs", s->source,
                              SENSIM_SWEEP_MAX_RUNS);
    } else {
      s->ncombos *= s->axes[i].n;
    }
  }
  return SENSIM_OK;
}

/* ---- runs ----------------------------------------------------------------------- */

static sensim_status count_runs(sensim_sweep *s) {
  size_t per = 1;
  if (s->kind == SENSIM_SWEEP_ABLATION) per = s->nablations;
  if (s->kind == SENSIM_SWEEP_VEPD) {
    per = s->vepd.nmodels * s->vepd.nmanoeuvres;
    if (s->vepd.p.runs > SENSIM_SWEEP_MAX_RUNS / per)
      return sensim_error_set(SENSIM_EINVAL, "%s: more than %d runs", s->source, SENSIM_SWEEP_MAX_RUNS);
    per *= s->vepd.p.runs;
  }
  if (per > SENSIM_SWEEP_MAX_RUNS / s->ncombos)
    return sensim_error_set(SENSIM_EINVAL, "%s: %zu combinations of the axes times %zu runs each exceed %d runs",
                            s->source, s->ncombos, per, SENSIM_SWEEP_MAX_RUNS);
  s->nruns = s->ncombos * per;
  return SENSIM_OK;
}

/* "seed=3 sigma=0.05 imu=consumer", the implicit axes where they sit. */
static char *make_label(const sensim_sweep *s, size_t i) {
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  size_t cap = 256, len = 0;
  char *out = malloc(cap);
#define APPEND(...)                                                              \
  do {                                                                           \
    for (;;) {                                                                   \
      if (!out) return NULL;                                                     \
      int n_ = snprintf(out + len, cap - len, __VA_ARGS__);                      \
      if (n_ < 0) { free(out); return NULL; }                                    \
      if ((size_t)n_ < cap - len) { len += (size_t)n_; break; }                  \
      char *o_ = realloc(out, cap * 2 + (size_t)n_);                             \
      if (!o_) { free(out); return NULL; }                                       \
      out = o_;                                                                  \
      cap = cap * 2 + (size_t)n_;                                                \
    }                                                                            \
  } while (0)
  if (!out) return NULL;
  out[0] = '\0';
  if (s->kind == SENSIM_SWEEP_ABLATION) APPEND("ablation=%s", sensim_ablation_name(s->ablations[pos.ablation]));
  for (size_t a = 0; a < s->naxes; a++)
    APPEND("%s%s=%s", len ? " " : "", s->axes[a].name,
           s->axes[a].labels[sensim_tools__sweep_axis_index(s, a, pos.combo)]);
  if (s->kind == SENSIM_SWEEP_VEPD) {
    const char *model;
    sensim_tools__sweep_model(s, pos.model, &model);
    APPEND("%smodel=%s manoeuvre=%s k=%zu", len ? " " : "", model,
           sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)s->vepd.manoeuvres[pos.manoeuvre]), pos.k);
  }
#undef APPEND
  return out;
}

/* Labels, seeds and digests of every run, and each distinct document
 * resolved once: a pointer that does not resolve fails the load. */
static sensim_status plan_runs(sensim_sweep *s) {
  s->labels = calloc(s->nruns, sizeof *s->labels);
  s->seeds = calloc(s->nruns, sizeof *s->seeds);
  s->digests = calloc(s->nruns, sizeof *s->digests);
  s->base_text = sensim_tools__json_print(s->base, 0);
  size_t ndocs = 1;
  for (size_t a = 0; a < s->naxes && !s->zip; a++)
    if ((int)a != s->seed_axis) ndocs *= s->axes[a].n;
  if (s->zip) ndocs = s->seed_axis >= 0 && s->naxes == 1 ? 1 : s->ncombos;
  unsigned char *checked = calloc(ndocs, 1);
  uint64_t *doc_seed = calloc(ndocs, sizeof *doc_seed);
  sensim_status st = s->labels && s->seeds && s->digests && s->base_text && checked && doc_seed
                         ? SENSIM_OK
                         : sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  for (size_t i = 0; st == SENSIM_OK && i < s->nruns; i++) {
    s->labels[i] = make_label(s, i);
    if (!s->labels[i]) {
      st = sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
      break;
    }
    size_t key = sensim_tools__sweep_doc_key(s, i);
    if (!checked[key]) {
      cJSON *doc = NULL;
      st = sensim_tools__sweep_resolve(s, i, &doc);
      if (st == SENSIM_OK && s->kind == SENSIM_SWEEP_VEPD) {
        /* Types and keys now; domains (a duration < 2 s) fail the run. */
        sensim_vepd_experiment_params p = s->vepd.p;
        char *imu = NULL;
        st = sensim_tools__sweep_vepd_params(doc, &p, &imu);
        free(imu);
      } else if (st == SENSIM_OK && s->kind == SENSIM_SWEEP_JUDGE) {
        st = sensim_tools__sweep_judge_seed(doc, &doc_seed[key]);
      } else if (st == SENSIM_OK && s->seed_axis < 0) {
        st = sensim_tools__sweep_doc_seed(doc, &doc_seed[key]);
      }
      if (st != SENSIM_OK && doc) sensim_error_prefix("run_%04zu (%s)", i, s->labels[i]);
      cJSON_Delete(doc);
      if (st != SENSIM_OK) break; /* the message names the run */
      checked[key] = 1;
    }
    sweep_pos pos;
    sensim_tools__sweep_pos(s, i, &pos);
    if (s->kind == SENSIM_SWEEP_VEPD)
      s->seeds[i] = s->vepd.p.seed + (!s->vepd.reference_dir && pos.model == 0 ? s->vepd.p.runs : 0) + pos.k;
    else if (s->seed_axis >= 0)
      s->seeds[i] = (uint64_t)s->axes[s->seed_axis]
                        .values[sensim_tools__sweep_axis_index(s, (size_t)s->seed_axis, pos.combo)]
                        ->valuedouble;
    else
      s->seeds[i] = doc_seed[key];
    s->digests[i] = sensim_tools__sweep_digest(s, i);
  }
  free(checked);
  free(doc_seed);
  if (st != SENSIM_OK) sensim_error_prefix("%s", s->source);
  return st;
}

/* ---- the file ---------------------------------------------------------------------- */

static sensim_status load(sensim_sweep *s, const char *text) {
  sensim_status st = parse_text(text, s->source, &s->spec);
  if (st != SENSIM_OK) return st;
  if (!cJSON_IsObject(s->spec)) return sensim_error_set(SENSIM_EPARSE, "%s: a sweep is a JSON object", s->source);
  static const char *const keys[] = {"name",    "description", "scenario", "experiment", "ablation", "vepd",
                                     "judge",   "threads",     "combine",  "axes",       NULL};
  if ((st = check_keys(s->spec, keys, s->source, "sweep")) != SENSIM_OK) return st;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(s->spec, "name");
  if (nm && (!cJSON_IsString(nm) || !*nm->valuestring))
    return sensim_error_set(SENSIM_EINVAL, "%s: \"name\" must be a non-empty string", s->source);
  s->name = nm ? sensim_tools__strdup(nm->valuestring) : stem_of(s->source);
  if (!s->name || !*s->name) return sensim_error_set(SENSIM_EINVAL, "%s: the sweep needs a \"name\"", s->source);
  if (!nm && !cJSON_AddStringToObject(s->spec, "name", s->name))
    return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  const cJSON *th = cJSON_GetObjectItemCaseSensitive(s->spec, "threads");
  if (th && !is_int_in(th, 0, 1024))
    return sensim_error_set(SENSIM_EINVAL, "%s: \"threads\" must be an integer in 0..1024", s->source);
  s->threads = th ? (int)th->valuedouble : 0;

  const cJSON *ex = cJSON_GetObjectItemCaseSensitive(s->spec, "experiment");
  const cJSON *scn = cJSON_GetObjectItemCaseSensitive(s->spec, "scenario");
  const cJSON *ab = cJSON_GetObjectItemCaseSensitive(s->spec, "ablation");
  const cJSON *vp = cJSON_GetObjectItemCaseSensitive(s->spec, "vepd");
  static const char *const kinds[] = {"ablation", "vepd", "judge", NULL};
  const cJSON *jd = cJSON_GetObjectItemCaseSensitive(s->spec, "judge");
  if (ex && !cJSON_IsString(ex))
    return sensim_error_set(SENSIM_EINVAL, "%s: \"experiment\" must be \"ablation\" or \"vepd\"", s->source);
  if (!ex) {
    s->kind = SENSIM_SWEEP_SCENARIO;
  } else if (strcmp(ex->valuestring, "ablation") == 0) {
    s->kind = SENSIM_SWEEP_ABLATION;
  } else if (strcmp(ex->valuestring, "vepd") == 0) {
    s->kind = SENSIM_SWEEP_VEPD;
  } else if (strcmp(ex->valuestring, "judge") == 0) {
    s->kind = SENSIM_SWEEP_JUDGE;
  } else {
    const char *near = sensim_suggest(ex->valuestring, kinds);
    return sensim_error_set(SENSIM_EINVAL, "%s: unknown experiment '%s' (ablation, vepd, judge)%s%s%s", s->source,
                            ex->valuestring, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  }
  if (s->kind != SENSIM_SWEEP_JUDGE && jd)
    return sensim_error_set(SENSIM_EINVAL, "%s: \"judge\" belongs to \"experiment\": \"judge\"", s->source);
  if (s->kind == SENSIM_SWEEP_JUDGE) {
    if (scn || ab || vp)
      return sensim_error_set(SENSIM_EINVAL, "%s: a judge sweep trains detectors: no \"%s\"", s->source,
                              scn ? "scenario" : ab ? "ablation" : "vepd");
    if (!cJSON_IsObject(jd))
      return sensim_error_set(SENSIM_EINVAL, "%s: a judge sweep needs a \"judge\" object", s->source);
    st = check_keys(jd, sensim_tools__sweep_judge_keys(), s->source, "judge");
    if (st == SENSIM_OK && !(s->base = cJSON_Duplicate(jd, 1)))
      st = sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", s->source);
  } else if (s->kind == SENSIM_SWEEP_VEPD) {
    if (scn || ab)
      return sensim_error_set(SENSIM_EINVAL, "%s: a vepd sweep simulates its own drives: no \"%s\"", s->source,
                              scn ? "scenario" : "ablation");
    if (!vp) return sensim_error_set(SENSIM_EINVAL, "%s: a vepd sweep needs a \"vepd\" object", s->source);
    st = load_vepd(s, vp);
  } else {
    if (vp) return sensim_error_set(SENSIM_EINVAL, "%s: \"vepd\" belongs to \"experiment\": \"vepd\"", s->source);
    if (ab && s->kind != SENSIM_SWEEP_ABLATION)
      return sensim_error_set(SENSIM_EINVAL, "%s: \"ablation\" belongs to \"experiment\": \"ablation\"", s->source);
    if (!scn)
      return sensim_error_set(SENSIM_EINVAL, "%s: what does each run do? Give \"scenario\" (a file or an object), or "
                              "\"experiment\": \"vepd\" with a \"vepd\" object", s->source);
    st = load_scenario(s, scn);
    if (st == SENSIM_OK && s->kind == SENSIM_SWEEP_ABLATION) st = load_ablation(s, ab);
  }
  if (st == SENSIM_OK) st = load_axes(s);
  if (st == SENSIM_OK) st = count_runs(s);
  if (st == SENSIM_OK) st = plan_runs(s);
  return st;
}

sensim_status sensim_sweep_load_string(const char *json, const char *source, const char *base_dir,
                                       sensim_sweep **out) {
  if (!json || !out) return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_load_string: NULL argument");
  sensim_sweep *s = calloc(1, sizeof *s);
  if (!s) return sensim_error_set(SENSIM_ENOMEM, "sweep: out of memory");
  s->source = sensim_tools__strdup(source ? source : "sweep");
  s->base_dir = base_dir ? sensim_tools__strdup(base_dir) : NULL;
  sensim_status st = s->source && (s->base_dir || !base_dir) ? load(s, json) : SENSIM_ENOMEM;
  if (st != SENSIM_OK) {
    sensim_sweep_destroy(s);
    return st;
  }
  *out = s;
  return SENSIM_OK;
}

sensim_status sensim_sweep_load(const char *path, sensim_sweep **out) {
  if (!path || !out) return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_load: NULL argument");
  char *text = NULL;
  sensim_status st = sensim_read_text_file(path, "sweep", &text);
  if (st != SENSIM_OK) return st;
  char *dir = sensim_tools__dirname(path);
  st = dir ? sensim_sweep_load_string(text, path, dir, out) : SENSIM_ENOMEM;
  free(dir);
  free(text);
  return st;
}

const char *sensim_sweep_name(const sensim_sweep *s) { return s ? s->name : NULL; }
sensim_sweep_kind sensim_sweep_kind_of(const sensim_sweep *s) { return s ? s->kind : SENSIM_SWEEP_SCENARIO; }
size_t sensim_sweep_run_count(const sensim_sweep *s) { return s ? s->nruns : 0; }
int sensim_sweep_threads(const sensim_sweep *s) { return s ? s->threads : 0; }

sensim_status sensim_sweep_set_threads(sensim_sweep *s, int threads) {
  if (!s || threads < 0 || threads > 1024)
    return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_set_threads: %d threads (0..1024)", threads);
  s->threads = threads;
  return SENSIM_OK;
}

const char *sensim_sweep_run_label(const sensim_sweep *s, size_t i) {
  return s && i < s->nruns ? s->labels[i] : NULL;
}

sensim_status sensim_sweep_run_dir(size_t i, char *buf, size_t size) {
  int n = buf ? snprintf(buf, size, "run_%04zu", i) : -1;
  if (n < 0 || (size_t)n >= size)
    return sensim_error_set(SENSIM_EINVAL, "sensim_sweep_run_dir: no room for run %zu's folder name", i);
  return SENSIM_OK;
}
