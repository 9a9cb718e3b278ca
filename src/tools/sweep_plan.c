/* tools/sweep_plan.c: what run i of a sweep is: where its index sits among
 * the axes (the first axis outermost, the last fastest; "list" takes value
 * i of every axis; an ablation's implicit axis outermost, a vepd sweep's
 * model, manoeuvre and k innermost), its document with every override
 * applied, and its digest: the fingerprint a rerun compares to tell a
 * complete run from a stale one. The digest covers what the run computes
 * (its kind, document and implicit settings), not where the files are, so
 * a rerun from another folder still finds its runs complete. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/json_pointer.h"
#include "tools/sweep_internal.h"
#include "tools/tools_internal.h"

void sensim_tools__sweep_pos(const sensim_sweep *s, size_t i, sweep_pos *pos) {
  memset(pos, 0, sizeof *pos);
  if (s->kind == SENSIM_SWEEP_ABLATION) {
    pos->ablation = i / s->ncombos;
    pos->combo = i % s->ncombos;
  } else if (s->kind == SENSIM_SWEEP_VEPD) {
    size_t k = s->vepd.p.runs, per_model = s->vepd.nmanoeuvres * k;
    size_t inner = s->vepd.nmodels * per_model;
    pos->combo = i / inner;
    size_t r = i % inner;
    pos->model = r / per_model;
    r %= per_model;
    pos->manoeuvre = r / k;
    pos->k = r % k;
  } else {
    pos->combo = i;
  }
}

size_t sensim_tools__sweep_axis_index(const sensim_sweep *s, size_t a, size_t combo) {
  if (s->zip) return combo;
  size_t stride = 1;
  for (size_t b = a + 1; b < s->naxes; b++) stride *= s->axes[b].n;
  return combo / stride % s->axes[a].n;
}

const sensim_vepd_variant *sensim_tools__sweep_model(const sensim_sweep *s, size_t model, const char **label) {
  const sweep_vepd *d = &s->vepd;
  const sensim_vepd_variant *v;
  if (!d->reference_dir && model == 0) {
    v = &d->p.variants[d->p.reference_variant];
    if (label) *label = "reference";
    return v;
  }
  v = &d->p.variants[model - (d->reference_dir ? 0 : 1)];
  if (label) *label = v->name;
  return v;
}

const char *sensim_sweep_kind_name(sensim_sweep_kind k) {
  return k == SENSIM_SWEEP_JUDGE ? "judge" : k == SENSIM_SWEEP_VEPD ? "vepd" : k == SENSIM_SWEEP_ABLATION ? "ablation" : "scenario";
}

/* Set ptr in doc to a copy of v. */
static sensim_status set_copy(cJSON *doc, const char *ptr, const cJSON *v) {
  cJSON *c = cJSON_Duplicate(v, 1);
  if (!c) return sensim_error_set(SENSIM_ENOMEM, "%s: out of memory", ptr);
  sensim_status st = sensim_tools__json_pointer_set(doc, ptr, c);
  if (st != SENSIM_OK) cJSON_Delete(c);
  return st;
}

static sensim_status apply_axis(const sweep_axis *a, const cJSON *v, cJSON *doc) {
  if (a->type == SWEEP_SEEDS) {
    /* A scenario without a "world" object takes its defaults; the seed
     * needs one to live in. */
    if (!cJSON_GetObjectItemCaseSensitive(doc, "world") && !cJSON_AddObjectToObject(doc, "world"))
      return sensim_error_set(SENSIM_ENOMEM, "out of memory");
    return set_copy(doc, a->pointer, v);
  }
  if (a->type == SWEEP_POINTER) return set_copy(doc, a->pointer, v);
  const cJSON *set = cJSON_GetObjectItemCaseSensitive(v, "set");
  for (const cJSON *kv = set->child; kv; kv = kv->next) {
    sensim_status st = set_copy(doc, kv->string, kv);
    if (st != SENSIM_OK) return st;
  }
  return SENSIM_OK;
}

sensim_status sensim_tools__sweep_resolve(const sensim_sweep *s, size_t i, cJSON **out) {
  cJSON *doc = cJSON_Duplicate(s->base, 1);
  if (!doc) return sensim_error_set(SENSIM_ENOMEM, "sweep: out of memory");
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  for (size_t a = 0; a < s->naxes; a++) {
    size_t k = sensim_tools__sweep_axis_index(s, a, pos.combo);
    sensim_status st = apply_axis(&s->axes[a], s->axes[a].values[k], doc);
    if (st != SENSIM_OK) {
      cJSON_Delete(doc);
      char dir[32];
      sensim_sweep_run_dir(i, dir, sizeof dir);
      sensim_error_prefix("%s (%s): axes[%zu] '%s' = %s", dir, s->labels && s->labels[i] ? s->labels[i] : "", a,
                          s->axes[a].name, s->axes[a].labels[k]);
      return st;
    }
  }
  *out = doc;
  return SENSIM_OK;
}

/* FNV-1a, 64 bits (Fowler, Noll, Vo; the IETF draft
 * draft-eastlake-fnv): offset basis 14695981039346656037, prime
 * 1099511628211. A fingerprint against edits, not against an adversary. */
static uint64_t fnv(uint64_t h, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

static uint64_t fnv_str(uint64_t h, const char *p) { return fnv(h, p ? p : "", (p ? strlen(p) : 0) + 1); }

uint64_t sensim_tools__sweep_digest(const sensim_sweep *s, size_t i) {
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  uint64_t h = 14695981039346656037ULL;
  h = fnv_str(h, sensim_sweep_kind_name(s->kind));
  h = fnv_str(h, s->base_text);
  for (size_t a = 0; a < s->naxes; a++) {
    const sweep_axis *ax = &s->axes[a];
    size_t k = sensim_tools__sweep_axis_index(s, a, pos.combo);
    /* The axis's name and a variant's name too: the manifest records the
     * run's parameters by them, so a rename makes its records stale. */
    h = fnv_str(h, ax->name);
    h = fnv_str(h, ax->type == SWEEP_VARIANTS ? "set" : ax->pointer);
    h = fnv_str(h, ax->type == SWEEP_VARIANTS ? ax->sets[k] : ax->labels[k]);
    if (ax->type == SWEEP_VARIANTS) h = fnv_str(h, ax->labels[k]);
  }
  char extra[256] = "";
  if (s->kind == SENSIM_SWEEP_VEPD) {
    const char *label;
    sensim_tools__sweep_model(s, pos.model, &label);
    snprintf(extra, sizeof extra, "model=%s manoeuvre=%s k=%zu seed=%llu", label,
             sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)s->vepd.manoeuvres[pos.manoeuvre]), pos.k,
             (unsigned long long)s->seeds[i]);
  } else if (s->kind == SENSIM_SWEEP_ABLATION) {
    snprintf(extra, sizeof extra, "ablation=%s frames=%zu", sensim_ablation_name(s->ablations[pos.ablation]),
             s->ablation_frames);
  }
  return fnv_str(h, extra);
}

size_t sensim_tools__sweep_doc_key(const sensim_sweep *s, size_t i) {
  sweep_pos pos;
  sensim_tools__sweep_pos(s, i, &pos);
  if (s->zip) return s->seed_axis >= 0 && s->naxes == 1 ? 0 : pos.combo;
  size_t key = 0;
  for (size_t a = 0; a < s->naxes; a++)
    if ((int)a != s->seed_axis) key = key * s->axes[a].n + sensim_tools__sweep_axis_index(s, a, pos.combo);
  return key;
}

sensim_status sensim_tools__sweep_doc_seed(const cJSON *doc, uint64_t *seed) {
  const cJSON *w = cJSON_GetObjectItemCaseSensitive(doc, "world");
  const cJSON *sd = cJSON_IsObject(w) ? cJSON_GetObjectItemCaseSensitive(w, "seed") : NULL;
  if (!sd) {
    *seed = 1;
    return SENSIM_OK;
  }
  double v = cJSON_IsNumber(sd) ? sd->valuedouble : -1;
  if (!(v >= 0 && v <= 9007199254740992.0 && floor(v) == v))
    return sensim_error_set(SENSIM_EINVAL, "world.seed must be an integer in 0..2^53");
  *seed = (uint64_t)v;
  return SENSIM_OK;
}
