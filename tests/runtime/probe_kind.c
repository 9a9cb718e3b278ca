/* tests/runtime/probe_kind.c: the recording sensor kind (probe_kind.h). */
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "core/internal.h"
#include "runtime/probe_kind.h"

/* impl is a pointer to the probe: the configuration is immutable, the
 * recorder it points at is not. */
typedef struct probe_impl {
  probe *p;
} probe_impl;

static double probe_window(const void *impl, double rate) {
  (void)rate;
  return ((const probe_impl *)impl)->p->window;
}

static sensim_status probe_generate(sensim_capture_ctx ctx, sensim_frame *f) {
  probe *p = ((const probe_impl *)ctx.impl)->p;
  sensim_status rc = sensim_frame_alloc(f, SENSIM_PAYLOAD_IMU, 1, 1);
  if (rc) return rc;
  probe_record r;
  r.ctx = ctx;
  r.snap_t0 = ctx.snap->t0;
  r.snap_t1 = ctx.snap->t1;
  r.carrier_static = ctx.carrier >= 0 ? ctx.snap->bodies[ctx.carrier].is_static : -1;
  r.pose_mid = sensim__ctx_pose_at(&ctx, ctx.t_capture - ctx.window / 2);
  r.fixed = sensim__ctx_fixed(&ctx);
  pthread_mutex_lock(&p->mu);
  if (p->n < PROBE_MAX) p->rec[p->n++] = r;
  pthread_mutex_unlock(&p->mu);
  return SENSIM_OK;
}

static sensim_status probe_prepare(const void *impl, sensim_world *w, const sensim_snapshot *snap, void **aux) {
  (void)w;
  (void)snap;
  probe *p = ((const probe_impl *)impl)->p;
  if (p->fail_prepare > 0) {
    p->fail_prepare--;
    return sensim__fail(SENSIM_EBACKEND, "probe: prepare refused");
  }
  p->prepared++;
  *aux = p;
  return SENSIM_OK;
}

static void probe_release(void *aux) {
  probe *p = aux;
  pthread_mutex_lock(&p->mu);
  p->released++;
  pthread_mutex_unlock(&p->mu);
}

static void probe_destroy(void *impl) { free(impl); }

static const sensim_sensor_kind probe_kind = {
    .name = "probe",
    .raw_type = SENSIM_PAYLOAD_IMU,
    .needs_geometry = 0,
    .default_window = probe_window,
    .generate = probe_generate,
    .destroy = probe_destroy,
    .prepare = probe_prepare,
    .release_aux = probe_release,
};

void probe_init(probe *p, double window) {
  memset(p, 0, sizeof *p);
  pthread_mutex_init(&p->mu, NULL);
  p->window = window;
}

sensim_status probe_create(sensim_world *w, const sensim_sensor_params *sp, probe *p, sensim_sensor **out) {
  probe_impl *impl = malloc(sizeof *impl);
  if (!impl) return SENSIM_ENOMEM;
  impl->p = p;
  return sensim__sensor_create(w, sp, &probe_kind, impl, out);
}
