/* sensors/traced.c: what ray-traced sensor kinds share: binding the
 * world's acceleration structures to a capture on the host thread, and
 * building the capture's view on the worker. */
#include "core/internal.h"
#include "sensors/traced.h"

sensim_status sensim__traced_prepare(const void *impl, sensim_world *w, const sensim_snapshot *snap, void **aux) {
  (void)impl;
  sensim_rt_binding *b = NULL;
  sensim_status rc = sensim__rt_bind(w, snap, &b);
  if (rc) return rc;
  *aux = b;
  return SENSIM_OK;
}

void sensim__traced_release(void *aux) { sensim__rt_binding_free(aux); }

sensim_status sensim__traced_view(const sensim_capture_ctx *ctx, sensim_rt_view **out) {
  return sensim__rt_view_create(ctx->aux, ctx->snap, out);
}
