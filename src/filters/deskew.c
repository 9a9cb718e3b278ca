/* filters/deskew.c: remove a spinning lidar's motion distortion.
 *
 * A raw point is in the sensor frame as it stood when its beam fired,
 * t_capture + time_offset. Deskewing maps it into the sensor frame at
 * t_capture using the sensor's own trajectory (frame->trajectory: ntraj
 * poses in the world, evenly spaced over [t_capture - window, t_capture]),
 * as a driver does with the poses it integrates from an IMU:
 *
 *   p_c = T_c^-1 T(t) p,   T(t) interpolated between trajectory samples:
 *   position linearly, rotation by slerp.
 *
 * Interpolation is done on the poses relative to T_c (the last sample),
 * R_i = T_c^-1 T_i. That is exact, not an approximation: an affine map
 * commutes with linear interpolation of positions, and left-multiplying
 * both ends by a fixed rotation c commutes with slerp:
 * c slerp(a, b, s) = slerp(c a, c b, s). Per segment the relative rotation
 * is kept as a rotation vector w_i = log(R_i^-1 R_i+1), so a point costs
 * one exp: q(s) = R_i exp(s w_i), which is slerp written in Lie form. */
#include <math.h>
#include <stdlib.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "filters/chain.h"

static sensim_status deskew_create(const cJSON *params, void **user) {
  static const char *const none[] = {NULL};
  *user = NULL;
  return sensim__param_only(params, "deskew", none);
}

typedef struct segment {
  sensim_vec3 p0, dp; /* relative position at the segment's start, and its change, m */
  sensim_quat q0;     /* relative rotation at the start */
  sensim_vec3 w;      /* rotation vector from start to end, rad, in the start's frame */
  int rotates;        /* w is not zero */
} segment;

static int pose_finite(const sensim_pose *p) {
  return sensim__finite3(p->pos) && isfinite(p->rot.w) && isfinite(p->rot.x) && isfinite(p->rot.y) &&
         isfinite(p->rot.z) && q_norm(p->rot) > 0.5;
}

static sensim_status deskew_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)user;
  (void)ctx;
  if (!f->trajectory || f->ntraj == 0) return sensim__fail(SENSIM_ETYPE, "deskew needs the lidar's trajectory");
  const uint32_t n = f->ntraj;
  for (uint32_t i = 0; i < n; i++)
    if (!pose_finite(&f->trajectory[i]))
      return sensim__fail(SENSIM_EINVAL, "deskew: trajectory pose %u of %u is not finite", i, n);
  /* One pose: the sensor could not move during the window; nor could it in
   * a window of zero length. */
  if (n == 1 || !(f->window > 0)) return SENSIM_OK;

  segment *seg = malloc((size_t)(n - 1) * sizeof *seg);
  if (!seg) return sensim__fail(SENSIM_ENOMEM, "deskew: out of memory for %u trajectory segments", n - 1);
  const sensim_pose ref = f->trajectory[n - 1];
  const sensim_quat ref_inv = q_conj(q_normalize(ref.rot));
  sensim_vec3 prev_p = v3(0, 0, 0);
  sensim_quat prev_q = q_make(1, 0, 0, 0);
  for (uint32_t i = 0; i < n; i++) {
    const sensim_pose *t = &f->trajectory[i];
    sensim_vec3 p = q_rotate(ref_inv, v3_sub(t->pos, ref.pos));
    sensim_quat q = q_normalize(q_mul(ref_inv, q_normalize(t->rot)));
    if (i > 0) {
      segment *s = &seg[i - 1];
      s->p0 = prev_p;
      s->dp = v3_sub(p, prev_p);
      s->q0 = prev_q;
      s->w = q_log(q_mul(q_conj(prev_q), q));
      s->rotates = v3_norm(s->w) > 0.0;
    }
    prev_p = p;
    prev_q = q;
  }

  sensim_point *pt = f->data;
  const double window = f->window, scale = (double)(n - 1) / window;
  for (size_t k = 0; k < f->count; k++) {
    sensim_point *a = &pt[k];
    if (!(isfinite(a->x) && isfinite(a->y) && isfinite(a->z) && isfinite(a->time_offset))) continue;
    /* Fractional position of the firing time on the trajectory's grid. */
    double u = ((double)a->time_offset + window) * scale;
    if (u < 0) u = 0;
    if (u > (double)(n - 1)) u = (double)(n - 1);
    uint32_t i = (uint32_t)u;
    if (i > n - 2) i = n - 2;
    double s = u - (double)i;
    const segment *g = &seg[i];
    sensim_quat q = g->rotates ? q_mul(g->q0, q_exp(v3_scale(g->w, s))) : g->q0;
    sensim_vec3 v = v3_add(q_rotate(q, v3(a->x, a->y, a->z)), v3_add(g->p0, v3_scale(g->dp, s)));
    a->x = (float)v.x;
    a->y = (float)v.y;
    a->z = (float)v.z;
  }
  free(seg);
  return SENSIM_OK;
}

const sensim_builtin_filter sensim__filter_deskew = {
    .def = {.name = "deskew",
            .in = SENSIM_PAYLOAD_POINTS,
            .out = SENSIM_PAYLOAD_POINTS,
            .init = NULL,
            .apply = deskew_apply,
            .destroy = NULL},
    .create = deskew_create,
    .accepts = NULL};
