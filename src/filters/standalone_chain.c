/* filters/standalone_chain.c: a filter chain outside any sensor (filter.h,
 * "standalone chains"). It is the chain a sensor runs (filters/chain.c)
 * behind a public handle, with the same checks as sensim_sensor_add_filter
 * applies, so that code built on the public API (the tools library's image
 * augmentation, a host's own pipeline) runs the built-in filters without
 * copying them. */
#include <stdlib.h>
#include "core/internal.h"
#include "filters/chain.h"

struct sensim_filter_chain {
  sensim_payload input;
  sensim_chain chain;
};

sensim_status sensim_filter_chain_create(sensim_payload input, sensim_filter_chain **out) {
  if (!out) return sensim__fail(SENSIM_EINVAL, "sensim_filter_chain_create: NULL out");
  *out = NULL;
  if (input == SENSIM_PAYLOAD_NONE || input == SENSIM_PAYLOAD_ANY || sensim_payload_elem_size(input) == 0)
    return sensim__fail(SENSIM_EINVAL, "filter chain: input payload %d (%s) is not a payload type", (int)input,
                        sensim_payload_name(input));
  sensim_filter_chain *c = calloc(1, sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "filter chain: out of memory");
  c->input = input;
  sensim__chain_init(&c->chain, input);
  *out = c;
  return SENSIM_OK;
}

sensim_status sensim_filter_chain_add(sensim_filter_chain *c, const char *name, const char *params_json) {
  if (!c || !name) return sensim__fail(SENSIM_EINVAL, "sensim_filter_chain_add: NULL argument");
  sensim_status st = sensim__chain_append_builtin(&c->chain, name, params_json, NULL);
  if (st) sensim__error_context("filter chain");
  return st;
}

sensim_status sensim_filter_chain_add_user(sensim_filter_chain *c, const sensim_filter_def *def, void *user) {
  if (!c || !def || !def->apply)
    return sensim__fail(SENSIM_EINVAL, "sensim_filter_chain_add_user: NULL chain, definition or apply");
  return sensim__chain_append(&c->chain, def, user);
}

sensim_payload sensim_filter_chain_output(const sensim_filter_chain *c) {
  return c ? sensim__chain_output(&c->chain) : SENSIM_PAYLOAD_NONE;
}

sensim_status sensim_filter_chain_run(sensim_filter_chain *c, sensim_frame *frame, uint64_t seed, uint32_t stream) {
  if (!c || !frame) return sensim__fail(SENSIM_EINVAL, "sensim_filter_chain_run: NULL argument");
  if (frame->type != c->input)
    return sensim__fail(SENSIM_ETYPE, "filter chain: frame is %s, the chain takes %s", sensim_payload_name(frame->type),
                        sensim_payload_name(c->input));
  if (!frame->data)
    return sensim__fail(SENSIM_EINVAL, "filter chain: frame has no %s buffer", sensim_payload_name(frame->type));
  return sensim__chain_run(&c->chain, frame, seed, stream);
}

void sensim_filter_chain_destroy(sensim_filter_chain *c) {
  if (!c) return;
  sensim__chain_free(&c->chain);
  free(c);
}
