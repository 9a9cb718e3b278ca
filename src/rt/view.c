/* rt/view.c: per-capture top-level scenes with motion-blurred instances. */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "rt/rt_internal.h"

/* Steps for a body over the window: one where it cannot move, else one per
 * keyframe in the window (at least 2), capped. Between steps Embree
 * interpolates, so a keyframe-rate sampling loses nothing the track holds. */
static int step_count(const sensim_body_snap *b, double t0, double t1) {
  if (b->is_static || b->nk <= 1 || !(t1 > t0)) return 1;
  int n = (int)b->nk;
  if (n < 2) n = 2;
  return n > SENSIM_RT_MAX_STEPS ? SENSIM_RT_MAX_STEPS : n;
}

sensim_status sensim__rt_view_create(const sensim_rt_binding *b, const sensim_snapshot *snap,
                                     sensim_rt_view **out) {
  sensim_rt_view *v = calloc(1, sizeof *v);
  if (!v) return sensim__fail(SENSIM_ENOMEM, "out of memory for a view");
  size_t nb = snap->nbodies;
  v->nsteps = calloc(nb ? nb : 1, sizeof *v->nsteps);
  v->first = calloc(nb ? nb : 1, sizeof *v->first);
  size_t total = 0;
  for (size_t i = 0; i < nb; i++)
    if (b->blas[i]) total += (size_t)step_count(&snap->bodies[i], snap->t0, snap->t1);
  v->rot = malloc((total ? total : 1) * sizeof *v->rot);
  v->scene = rtcNewScene(b->device);
  if (!v->nsteps || !v->first || !v->rot || !v->scene) {
    sensim__rt_view_destroy(v);
    return sensim__fail(SENSIM_ENOMEM, "out of memory for a view of %zu bodies", nb);
  }
  v->t0 = snap->t0;
  v->t1 = snap->t1;
  v->snap = snap;
  size_t at = 0;
  for (size_t i = 0; i < nb; i++) {
    if (!b->blas[i]) continue;
    const sensim_body_snap *bs = &snap->bodies[i];
    int ns = step_count(bs, snap->t0, snap->t1);
    RTCGeometry g = rtcNewGeometry(b->device, RTC_GEOMETRY_TYPE_INSTANCE);
    if (!g) {
      sensim__rt_view_destroy(v);
      return sensim__fail(SENSIM_EBACKEND, "Embree: could not create an instance");
    }
    rtcSetGeometryInstancedScene(g, b->blas[i]);
    rtcSetGeometryTimeStepCount(g, (unsigned)ns);
    v->nsteps[i] = ns;
    v->first[i] = at;
    for (int k = 0; k < ns; k++) {
      double t = ns == 1 ? snap->t1 : snap->t0 + (snap->t1 - snap->t0) * k / (ns - 1);
      sensim_body_state st;
      sensim__snap_state_at(snap, i, t, &st);
      struct RTCQuaternionDecomposition qd;
      rtcInitQuaternionDecomposition(&qd);
      rtcQuaternionDecompositionSetQuaternion(&qd, (float)st.pose.rot.w, (float)st.pose.rot.x,
                                              (float)st.pose.rot.y, (float)st.pose.rot.z);
      rtcQuaternionDecompositionSetTranslation(&qd, (float)st.pose.pos.x, (float)st.pose.pos.y,
                                               (float)st.pose.pos.z);
      rtcSetGeometryTransformQuaternion(g, (unsigned)k, &qd);
      v->rot[at++] = st.pose.rot;
    }
    rtcCommitGeometry(g);
    rtcAttachGeometryByID(v->scene, g, (unsigned)i);
    rtcReleaseGeometry(g);
  }
  rtcCommitScene(v->scene);
  if (rtcGetDeviceError(b->device) != RTC_ERROR_NONE) {
    sensim__rt_view_destroy(v);
    return sensim__fail(SENSIM_EBACKEND, "Embree: building a view failed");
  }
  *out = v;
  return SENSIM_OK;
}

void sensim__rt_view_destroy(sensim_rt_view *v) {
  if (!v) return;
  if (v->scene) rtcReleaseScene(v->scene);
  free(v->nsteps);
  free(v->first);
  free(v->rot);
  free(v);
}
