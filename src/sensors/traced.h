/* sensors/traced.h: shared plumbing of ray-traced sensor kinds. */
#ifndef SENSIM_SENSORS_TRACED_H
#define SENSIM_SENSORS_TRACED_H

#include "rt/rt.h"
#include "runtime/kind.h"

/* sensim_sensor_kind.prepare / .release_aux for ray-traced kinds. */
sensim_status sensim__traced_prepare(const void *impl, sensim_world *w, const sensim_snapshot *snap, void **aux);
void sensim__traced_release(void *aux);
/* The capture's view of the scene (worker thread); destroy after tracing. */
sensim_status sensim__traced_view(const sensim_capture_ctx *ctx, sensim_rt_view **out);

#endif
