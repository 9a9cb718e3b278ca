/* scene/track.c: time-ordered keyframe tracks, interpolation and the
 * estimation of derivatives the host did not give. */
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "scene/scene.h"

/* Weights of the derivative at time t of the quadratic Lagrange polynomial
 * through (t0, t1, t2): p'(t) = sum w1[i] p_i, p'' = sum w2[i] p_i. Exact for
 * quadratics, so the error is O(h^2) for p' at any node and for p'' at the
 * middle node of an even spacing, O(h) for p'' at an end node. */
static void lagrange_weights(const double tt[3], double t, double w1[3], double w2[3]) {
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    double den = (tt[i] - tt[j]) * (tt[i] - tt[k]);
    w1[i] = (2.0 * t - tt[j] - tt[k]) / den;
    w2[i] = 2.0 / den;
  }
}

/* Fill the derivatives of keyframe `at` (one of a, a+1, a+2) that the host
 * did not give, from the quadratic through keyframes a..a+2. Rotation is
 * handled through rotation vectors relative to the middle keyframe, where
 * the logarithm's derivative is the body-frame angular velocity. */
static void estimate3(sensim_keyframe *k, size_t a, size_t at) {
  double tt[3] = {k[a].t, k[a + 1].t, k[a + 2].t};
  double w1[3], w2[3];
  lagrange_weights(tt, k[at].t, w1, w2);
  sensim_vec3 v = v3(0, 0, 0), acc = v3(0, 0, 0), wb = v3(0, 0, 0), ab = v3(0, 0, 0);
  sensim_quat qm_inv = q_conj(k[a + 1].s.pose.rot);
  for (int i = 0; i < 3; i++) {
    sensim_vec3 p = k[a + i].s.pose.pos;
    sensim_vec3 r = q_log(q_mul(qm_inv, k[a + i].s.pose.rot));
    v = v3_add(v, v3_scale(p, w1[i]));
    acc = v3_add(acc, v3_scale(p, w2[i]));
    wb = v3_add(wb, v3_scale(r, w1[i]));
    ab = v3_add(ab, v3_scale(r, w2[i]));
  }
  sensim_body_state *s = &k[at].s;
  /* Body-frame rates are relative to the middle keyframe's frame. */
  sensim_quat qm = k[a + 1].s.pose.rot;
  if (!(k[at].given & SENSIM_STATE_VELOCITY)) {
    s->lin_vel = v;
    s->ang_vel = q_rotate(qm, wb);
  }
  if (!(k[at].given & SENSIM_STATE_ACCELERATION)) {
    s->lin_acc = acc;
    s->ang_acc = q_rotate(qm, ab);
  }
}

static void estimate2(sensim_keyframe *k, size_t a, size_t at) {
  double dt = k[a + 1].t - k[a].t;
  sensim_body_state *s = &k[at].s;
  if (!(k[at].given & SENSIM_STATE_VELOCITY)) {
    s->lin_vel = v3_scale(v3_sub(k[a + 1].s.pose.pos, k[a].s.pose.pos), 1.0 / dt);
    sensim_vec3 r = q_log(q_mul(q_conj(k[a].s.pose.rot), k[a + 1].s.pose.rot));
    s->ang_vel = q_rotate(k[a].s.pose.rot, v3_scale(r, 1.0 / dt));
  }
  if (!(k[at].given & SENSIM_STATE_ACCELERATION)) {
    s->lin_acc = v3(0, 0, 0);
    s->ang_acc = v3(0, 0, 0);
  }
}

sensim_status sensim__track_push(sensim_track *tr, double t, const sensim_body_state *st) {
  if (tr->n > 0 && !(t > tr->k[tr->n - 1].t))
    return sensim__fail(SENSIM_ESTATE, "state time %.9g s is not after the previous one (%.9g s)", t,
                        tr->k[tr->n - 1].t);
  sensim_status rc = sensim__grow((void **)&tr->k, &tr->cap, tr->n + 1, sizeof *tr->k);
  if (rc) return rc;
  sensim_keyframe *kf = &tr->k[tr->n++];
  kf->t = t;
  kf->s = *st;
  kf->given = st->flags & (SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION);
  kf->s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  if (!(kf->given & SENSIM_STATE_VELOCITY)) kf->s.lin_vel = kf->s.ang_vel = v3(0, 0, 0);
  if (!(kf->given & SENSIM_STATE_ACCELERATION)) kf->s.lin_acc = kf->s.ang_acc = v3(0, 0, 0);
  size_t n = tr->n;
  if (n == 2) {
    estimate2(tr->k, 0, 0);
    estimate2(tr->k, 0, 1);
  } else if (n >= 3) {
    estimate3(tr->k, n - 3, n - 2); /* the previous keyframe now has a successor */
    estimate3(tr->k, n - 3, n - 1);
    if (n == 3) estimate3(tr->k, 0, 0);
  }
  return SENSIM_OK;
}

void sensim__track_state_at(const sensim_keyframe *k, size_t n, double t, sensim_body_state *out) {
  if (n == 0) {
    memset(out, 0, sizeof *out);
    out->pose = sensim_pose_identity();
    return;
  }
  if (n == 1 || t <= k[0].t) {
    *out = k[0].s;
    return;
  }
  if (t >= k[n - 1].t) {
    *out = k[n - 1].s;
    return;
  }
  size_t lo = 0, hi = n - 1; /* k[lo].t <= t < k[hi].t */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (k[mid].t <= t) lo = mid;
    else hi = mid;
  }
  const sensim_body_state *a = &k[lo].s, *b = &k[hi].s;
  double s = (t - k[lo].t) / (k[hi].t - k[lo].t);
  out->pose.pos = v3_lerp(a->pose.pos, b->pose.pos, s);
  out->pose.rot = sensim_quat_slerp(a->pose.rot, b->pose.rot, s);
  out->flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  out->lin_vel = v3_lerp(a->lin_vel, b->lin_vel, s);
  out->ang_vel = v3_lerp(a->ang_vel, b->ang_vel, s);
  out->lin_acc = v3_lerp(a->lin_acc, b->lin_acc, s);
  out->ang_acc = v3_lerp(a->ang_acc, b->ang_acc, s);
}

void sensim__track_trim(sensim_track *tr, double t_keep) {
  /* Keep the last keyframe at or before t_keep (it brackets t_keep) and at
   * least three keyframes, which the derivative estimate needs. */
  size_t drop = 0;
  while (drop + 1 < tr->n && tr->k[drop + 1].t <= t_keep) drop++;
  if (tr->n - drop < 3) drop = tr->n > 3 ? tr->n - 3 : 0;
  if (drop == 0) return;
  memmove(tr->k, tr->k + drop, (tr->n - drop) * sizeof *tr->k);
  tr->n -= drop;
}

void sensim__track_free(sensim_track *tr) {
  free(tr->k);
  tr->k = NULL;
  tr->n = tr->cap = 0;
}

sensim_status sensim__track_start(sensim_track *tr, sensim_pose pose) {
  sensim_status rc = sensim__grow((void **)&tr->k, &tr->cap, 1, sizeof *tr->k);
  if (rc) return rc;
  memset(&tr->k[0], 0, sizeof tr->k[0]);
  tr->k[0].t = -INFINITY;
  tr->k[0].s.pose = pose;
  tr->k[0].s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  tr->k[0].given = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
  tr->n = 1;
  return SENSIM_OK;
}
