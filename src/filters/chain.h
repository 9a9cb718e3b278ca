/* filters/chain.h: a sensor's filter chain and the registry of built-in
 * filters. Not installed. */
#ifndef SENSIM_FILTERS_CHAIN_H
#define SENSIM_FILTERS_CHAIN_H

#include <cjson/cJSON.h>
#include "core/fork.h"
#include "sensim/filter.h"

/* A built-in filter: `create` parses its JSON parameters (params may be
 * NULL: all defaults) into a user pointer handed to def.apply/def.destroy.
 * Unknown keys and out-of-domain values are SENSIM_EINVAL with a message. */
typedef struct sensim_builtin_filter {
  sensim_filter_def def;
  sensim_status (*create)(const cJSON *params, void **user);
  /* With def.in == SENSIM_PAYLOAD_ANY: the payloads it takes, ending with
   * SENSIM_PAYLOAD_NONE (NULL: any). def.out ANY gives back what it took. */
  const sensim_payload *accepts;
} sensim_builtin_filter;

/* Look up a built-in filter by name; NULL if unknown. */
const sensim_builtin_filter *sensim__filter_find(const char *name);

typedef struct sensim_chain_link {
  sensim_filter_def def;
  void *user;
  sensim_payload in;            /* resolved payload taken */
} sensim_chain_link;

struct sensim_exposure_state {
  sensim_exposure current;
  int valid;
  struct {
    uint64_t from;
    sensim_exposure e;
  } pending[16];                /* requests not yet in effect, in request order */
  int npending;
  uint64_t frame;               /* index of the frame being filtered */
};

typedef struct sensim_chain {
  sensim_payload raw;           /* what the generator gives */
  sensim_chain_link *links;
  size_t n, cap;
  sensim_exposure_state exposure;
  /* Nonzero: run the links in their order even where "cfa" could go
   * before the per-value stages ahead of it (sensim__chain_run). The
   * result is the same bits either way; tests compare the two. */
  int keep_order;
} sensim_chain;

void sensim__chain_init(sensim_chain *c, sensim_payload raw);
/* Payload the chain gives after its last filter. */
sensim_payload sensim__chain_output(const sensim_chain *c);
/* Append, checking payload types. On failure the chain is unchanged and
 * nothing of def/user is retained (destroy is not called). */
sensim_status sensim__chain_append(sensim_chain *c, const sensim_filter_def *def, void *user);
/* Append built-in filter `name`, created from params_json (a JSON object, or
 * NULL for its defaults). The filter must take what the chain gives now: its
 * declared input, or for a filter of any input one of the payloads it
 * lists. *used (may be NULL) gets the filter's registry entry. On failure
 * the chain is unchanged and the message names the filter; callers add
 * their own context (a sensor's name, "filter chain"). */
sensim_status sensim__chain_append_builtin(sensim_chain *c, const char *name, const char *params_json,
                                           const sensim_builtin_filter **used);
/* Run every filter on the frame; stops at the first error. Frames of one
 * chain are run one at a time in index order (the exposure state and
 * stateful filters rely on it). */
sensim_status sensim__chain_run(sensim_chain *c, sensim_frame *f, uint64_t seed, uint32_t sensor_id);
/* The same inside a capture job: the heavy per-pixel filters split their
 * rows into bands on `fork` (filters/bands.h); the result is the same bits
 * as sensim__chain_run's for any thread count. */
sensim_status sensim__chain_run_forked(sensim_chain *c, sensim_frame *f, uint64_t seed, uint32_t sensor_id,
                                      sensim_fork fork);
/* Calls every destroy callback and frees the chain. */
void sensim__chain_free(sensim_chain *c);

/* A beam's return in the sensor frame (X forward, Z up): azimuth
 * counter-clockwise from +X, elevation up from the XY plane. One function
 * for every lidar filter, so "points" and "organized" agree to the bit.
 * Single-precision trig: the point is a float, so double trig adds nothing
 * but time (filters/lidar_filters.c). */
void sensim__beam_xyz(const sensim_beam *b, float xyz[3]);

/* Helpers for built-in filters' create(): read an optional number or a
 * 3-vector from params, rejecting wrong types. */
sensim_status sensim__param_number(const cJSON *params, const char *key, double *v);
sensim_status sensim__param_vec3(const cJSON *params, const char *key, double v[3]);
/* `key` as one number for all three (a qe for every channel, a sigma for
 * every axis) or as an array of 3; absent keeps v; every value finite. */
sensim_status sensim__param_number_or_vec3(const cJSON *params, const char *key, double v[3]);
/* Reject keys not in the NULL-terminated list `known`. */
sensim_status sensim__param_only(const cJSON *params, const char *filter, const char *const *known);

#endif
