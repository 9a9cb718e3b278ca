/* filters/chain.c: appending to and running a sensor's filter chain. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/bands.h"
#include "filters/builtin.h"
#include "filters/chain.h"

void sensim__chain_init(sensim_chain *c, sensim_payload raw) {
  memset(c, 0, sizeof *c);
  c->raw = raw;
}

sensim_payload sensim__chain_output(const sensim_chain *c) {
  sensim_payload t = c->raw;
  for (size_t i = 0; i < c->n; i++)
    if (c->links[i].def.out != SENSIM_PAYLOAD_ANY) t = c->links[i].def.out;
  return t;
}

/* Move requests whose frame has come into effect, oldest request first. */
static void exposure_advance(sensim_exposure_state *x, uint64_t frame) {
  x->frame = frame;
  int keep = 0;
  for (int i = 0; i < x->npending; i++) {
    if (x->pending[i].from <= frame) {
      x->current = x->pending[i].e;
      x->valid = 1;
    } else {
      x->pending[keep++] = x->pending[i];
    }
  }
  x->npending = keep;
}

void sensim_filter_exposure_get(const sensim_filter_ctx *ctx, sensim_exposure *e, int *valid) {
  *valid = ctx->exposure->valid;
  if (*valid) *e = ctx->exposure->current;
}

void sensim_filter_exposure_set(sensim_filter_ctx *ctx, sensim_exposure e) {
  ctx->exposure->current = e;
  ctx->exposure->valid = 1;
}

sensim_status sensim_filter_exposure_request(sensim_filter_ctx *ctx, uint64_t from_frame, sensim_exposure e) {
  sensim_exposure_state *x = ctx->exposure;
  if (!(e.time > 0 && isfinite(e.time) && e.gain > 0 && isfinite(e.gain)))
    return sensim__fail(SENSIM_EINVAL, "exposure request (%g s, gain %g) must be positive and finite", e.time,
                        e.gain);
  if (from_frame <= x->frame)
    return sensim__fail(SENSIM_EINVAL, "exposure request for frame %llu is not after frame %llu",
                        (unsigned long long)from_frame, (unsigned long long)x->frame);
  if (x->npending == (int)(sizeof x->pending / sizeof x->pending[0]))
    return sensim__fail(SENSIM_ESTATE, "too many pending exposure requests (%d)", x->npending);
  x->pending[x->npending].from = from_frame;
  x->pending[x->npending].e = e;
  x->npending++;
  return SENSIM_OK;
}

sensim_status sensim__chain_append(sensim_chain *c, const sensim_filter_def *def, void *user) {
  const char *name = def->name ? def->name : "(user filter)";
  sensim_payload have = sensim__chain_output(c);
  if (def->in != SENSIM_PAYLOAD_ANY && def->in != have)
    return sensim__fail(SENSIM_ETYPE, "filter '%s' takes %s but the chain gives %s here", name,
                        sensim_payload_name(def->in), sensim_payload_name(have));
  if (def->out == SENSIM_PAYLOAD_NONE || def->in == SENSIM_PAYLOAD_NONE)
    return sensim__fail(SENSIM_ETYPE, "filter '%s' must take and give a payload", name);
  sensim_status rc = sensim__grow((void **)&c->links, &c->cap, c->n + 1, sizeof *c->links);
  if (rc) return rc;
  if (def->init) {
    rc = def->init(user, have);
    if (rc) {
      sensim__error_context("filter '%s' refused to start", name);
      return rc;
    }
  }
  sensim_chain_link *l = &c->links[c->n++];
  l->def = *def;
  l->user = user;
  l->in = have;
  return SENSIM_OK;
}

/* Run link i (its slot and stream stay i's, whatever the order) on f and
 * check it gave `want`. */
static sensim_status run_link(sensim_chain *c, size_t i, sensim_frame *f, uint64_t seed, uint32_t sensor_id,
                              sensim_payload want) {
  const sensim_chain_link *l = &c->links[i];
  sensim_filter_ctx ctx;
  ctx.seed = seed;
  ctx.sensor_id = sensor_id;
  ctx.exposure = &c->exposure;
  ctx.slot = (int)i;
  /* Element words above 2^31 are left for the generators' own streams. */
  sensim_rng_init(&ctx.rng, seed, sensor_id, f->index, 0x80000000u | (uint32_t)i);
  sensim_status rc = l->def.apply(l->user, f, &ctx);
  const char *name = l->def.name ? l->def.name : "(user filter)";
  if (rc) {
    sensim__error_context("filter %zu '%s'", i, name);
    return rc;
  }
  if (f->type != want)
    return sensim__fail(SENSIM_ETYPE, "filter %zu '%s' gave %s instead of %s", i, name, sensim_payload_name(f->type),
                        sensim_payload_name(want));
  return SENSIM_OK;
}

/* Whether link l works value by value with each value's result a function
 * of its own input and position (pixel, channel) alone, on rgb_f32 as on a
 * raw_f32 mosaic whose value's channel is its CFA colour: "image_sensor"
 * (per-channel scale, filters/image_sensor.c) and "noise_emva1288" (draws
 * keyed by position, filters/noise_models.c). */
static int per_value(const sensim_chain_link *l) {
  return l->in == SENSIM_PAYLOAD_RGB_F32 && (l->def.apply == sensim__filter_image_sensor.def.apply ||
                                              l->def.apply == sensim__filter_noise_emva1288.def.apply);
}

/* The links [i, e) are per_value and link e is "cfa": 0 when not. */
static size_t cfa_after_run(const sensim_chain *c, size_t i) {
  size_t e = i;
  while (e < c->n && per_value(&c->links[e])) e++;
  return e > i && e < c->n && c->links[e].def.apply == sensim__filter_cfa.def.apply ? e : 0;
}

sensim_status sensim__chain_run_forked(sensim_chain *c, sensim_frame *f, uint64_t seed, uint32_t sensor_id,
                                      sensim_fork fork) {
  const sensim_fork *old = sensim__filter_fork_swap(&fork);
  sensim_status rc = sensim__chain_run(c, f, seed, sensor_id);
  sensim__filter_fork_swap(old);
  return rc;
}

sensim_status sensim__chain_run(sensim_chain *c, sensim_frame *f, uint64_t seed, uint32_t sensor_id) {
  exposure_advance(&c->exposure, f->index);
  for (size_t i = 0; i < c->n; i++) {
    /* "cfa" keeps one of each pixel's three values. When it follows
     * per-value stages, running it first and those stages on the mosaic
     * gives the same bits (each kept value sees exactly what it would have
     * seen in the rgb frame) for a third of the work. */
    size_t e = c->keep_order ? 0 : cfa_after_run(c, i);
    if (e) {
      sensim_status rc = run_link(c, e, f, seed, sensor_id, SENSIM_PAYLOAD_RAW_F32);
      for (size_t j = i; !rc && j < e; j++) rc = run_link(c, j, f, seed, sensor_id, SENSIM_PAYLOAD_RAW_F32);
      if (rc) return rc;
      i = e;
      continue;
    }
    const sensim_chain_link *l = &c->links[i];
    sensim_status rc = run_link(c, i, f, seed, sensor_id, l->def.out == SENSIM_PAYLOAD_ANY ? l->in : l->def.out);
    if (rc) return rc;
  }
  return SENSIM_OK;
}

void sensim__chain_free(sensim_chain *c) {
  for (size_t i = 0; i < c->n; i++)
    if (c->links[i].def.destroy) c->links[i].def.destroy(c->links[i].user);
  free(c->links);
  c->links = NULL;
  c->n = c->cap = 0;
}

/* Whether built-in filter b takes payload `have`: its declared input, or
 * for a filter of any input, one of the payloads it lists. */
static int builtin_takes(const sensim_builtin_filter *b, sensim_payload have) {
  if (b->def.in != SENSIM_PAYLOAD_ANY) return b->def.in == have;
  if (!b->accepts) return 1;
  for (const sensim_payload *a = b->accepts; *a != SENSIM_PAYLOAD_NONE; a++)
    if (*a == have) return 1;
  return 0;
}

sensim_status sensim__chain_append_builtin(sensim_chain *c, const char *name, const char *params_json,
                                           const sensim_builtin_filter **used) {
  const sensim_builtin_filter *b = sensim__filter_find(name);
  if (!b) {
    char hint[96];
    return sensim__fail(SENSIM_ENOTFOUND, "unknown filter '%s'%s", name,
                        sensim__did_you_mean(hint, sizeof hint, name, sensim_filter_names()));
  }
  sensim_payload have = sensim__chain_output(c);
  if (!builtin_takes(b, have))
    return sensim__fail(SENSIM_ETYPE, "filter '%s' does not take %s%s%s", name, sensim_payload_name(have),
                        b->def.in == SENSIM_PAYLOAD_ANY ? "" : ", it takes ",
                        b->def.in == SENSIM_PAYLOAD_ANY ? "" : sensim_payload_name(b->def.in));
  cJSON *params = NULL;
  if (params_json) {
    /* The whole text must be the object: cJSON_Parse alone ignores what
     * follows it ("{...} junk"). */
    params = cJSON_ParseWithOpts(params_json, NULL, 1);
    if (!params || !cJSON_IsObject(params)) {
      cJSON_Delete(params);
      return sensim__fail(SENSIM_EPARSE, "filter '%s' parameters are not a JSON object", name);
    }
    /* cJSON keeps a repeated key twice and the filters read the first:
     * {"sigma": 0.1, "sigma": 0.2} would silently mean 0.1. */
    for (const cJSON *a = params->child; a; a = a->next)
      for (const cJSON *b2 = a->next; b2; b2 = b2->next)
        if (a->string && b2->string && strcmp(a->string, b2->string) == 0) {
          sensim_status st = sensim__fail(SENSIM_EPARSE, "filter '%s' parameter '%s' is given twice", name, b2->string);
          cJSON_Delete(params);
          return st;
        }
  }
  void *user = NULL;
  sensim_status rc = b->create(params, &user);
  cJSON_Delete(params);
  if (rc) {
    sensim__error_context("filter '%s'", name);
    return rc;
  }
  if ((rc = sensim__chain_append(c, &b->def, user))) {
    if (b->def.destroy) b->def.destroy(user);
    return rc;
  }
  if (used) *used = b;
  return SENSIM_OK;
}
