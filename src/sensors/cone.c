/* sensors/cone.c: the cone sensor: parameters, validation, and the
 * generator that finds the nearest point of the bodies' meshes inside the
 * cone (cone_lines.c, cone_exact.c, cone_rays.c) and its speed.
 *
 * Elevation: the lines method is the published mode and reports the
 * thesis's Eq. 3.8, atan(y / z) in the cone frame (the angle in the
 * sensor's vertical XZ plane, atan2(Z, X) for the forward nappe); exact
 * and rays report the spherical elevation atan2(Z, sqrt(X^2 + Y^2)). The
 * two agree when Y = 0 (docs/cone.md: 0.004096 against 0.003334 deg for
 * the off-axis face at Y = 5 m).
 *
 * Speed, three ways (docs/cone.md):
 *  - speed, the published one (thesis Eq. 3.9): |q_k - q_{k-1}| /
 *    (t_k - t_{k-1}), q the nearest points in the sensor frame of this
 *    capture and of the previous one, over the simulation time between
 *    them (the thesis divides by the wall-clock frame time);
 *  - speed_diff, the range rate by differences: (R_k - R_{k-1}) /
 *    (t_k - t_{k-1}).
 *    Both need the previous capture's nearest point. It is recomputed from
 *    this capture's snapshot at t_{k-1} = phase + (k-1)/rate (the same
 *    keyframes give the same answer the previous capture gave), so captures
 *    stay independent and may run concurrently. NaN for k = 0, when either
 *    point is missing, or when the window does not reach back to t_{k-1}.
 *  - rel_vel and radial_speed, exact: the detected point moves with its
 *    body, v_p = v_B + w_B x (p - o_B) (rigid-body kinematics, e.g. Craig,
 *    "Introduction to Robotics", 3rd ed., 2005, sec. 5.3); the sensor origin
 *    moves with its carrier, v_S = v_C + w_C x (o_S - o_C). In the rotating
 *    sensor frame the point's coordinates change at
 *    rel_vel = R_S^T (v_p - v_S - w_C x (p - o_S)), and the range at
 *    radial_speed = (p - o_S).(v_p - v_S) / |p - o_S| (the rotation term is
 *    perpendicular to p - o_S), what a Doppler radar measures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "sensors/cone_internal.h"
#include "sensors/kinematics.h"
#include "sensors/traced.h"

void sensim_cone_params_init(sensim_cone_params *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->theta = 0.5 * M_PI;
  p->phi = 0.5 * M_PI;
  p->length = 10.0;
  p->method = SENSIM_CONE_EXACT;
  p->lines = 10;
  p->rays = 65;
  p->published_speed = 1;
}

static double cone_default_window(const void *impl, double rate) {
  (void)impl;
  return 1.0 / rate; /* back to the previous capture, for speed_diff */
}

static void cone_destroy(void *impl) { free(impl); }

/* Placement of body mesh frame in the cone frame at (body pose, sensor
 * pose): p_cone = P R_S^T (R_B v + o_B - o_S), P the renaming (x, y, z) =
 * (Y, Z, X). */
static void make_xf(sensim_pose body, sensim_pose sensor, sensim__cone_xf *x) {
  sensim_quat q = q_mul(q_conj(sensor.rot), body.rot);
  sensim_vec3 t = q_rotate_inv(sensor.rot, v3_sub(body.pos, sensor.pos));
  sensim_vec3 col[3] = {q_rotate(q, v3(1, 0, 0)), q_rotate(q, v3(0, 1, 0)), q_rotate(q, v3(0, 0, 1))};
  for (int j = 0; j < 3; j++) {
    x->R[0][j] = col[j].y;
    x->R[1][j] = col[j].z;
    x->R[2][j] = col[j].x;
  }
  x->t[0] = t.y;
  x->t[1] = t.z;
  x->t[2] = t.x;
}

/* The nearest point at time t; *pose gets the sensor pose then. */
static sensim_status query(const sensim_capture_ctx *ctx, const sensim_rt_view *view, double t,
                           sensim__cone_hit *hit, sensim_pose *pose) {
  const sensim__cone *c = ctx->impl;
  const sensim_snapshot *snap = ctx->snap;
  const int skip = ctx->carrier;
  *pose = sensim__ctx_pose_at(ctx, t);
  hit->dist = INFINITY;
  hit->body = -1;
  hit->elem = 0;
  if (c->p.method == SENSIM_CONE_RAYS) return sensim__cone_rays_query(c, view, *pose, t, skip, hit);
  for (size_t i = 0; i < snap->nbodies; i++) {
    const sensim_mesh *m = snap->bodies[i].mesh;
    if (!m || (int)i == skip || snap->bodies[i].group) continue; /* placements: the rays method only */
    sensim_body_state st;
    sensim__snap_state_at(snap, i, t, &st);
    sensim__cone_xf x;
    make_xf(st.pose, *pose, &x);
    if (c->p.method == SENSIM_CONE_LINES)
      sensim__cone_lines_mesh(&c->k, c->p.lines, m, &x, (int)i, hit);
    else
      sensim__cone_exact_mesh(&c->k, m, &x, (int)i, hit);
  }
  return SENSIM_OK;
}

static void fill(const sensim_capture_ctx *ctx, double t, const sensim__cone_hit *hit, sensim_pose pose,
                 sensim_detection *d) {
  const sensim_snapshot *snap = ctx->snap;
  double ps[3];
  sensim_cone_to_sensor(hit->p, ps);
  const sensim_body_snap *b = &snap->bodies[hit->body];
  d->detected = 1;
  sensim__hit_ids(b->group, b->class_id, b->instance_id, hit->elem, &d->class_id, &d->instance_id);
  d->range = hit->dist;
  d->azimuth = atan2(ps[1], ps[0]);
  const sensim__cone *c = ctx->impl;
  d->elevation = c->p.method == SENSIM_CONE_LINES ? atan2(ps[2], ps[0]) : atan2(ps[2], hypot(ps[0], ps[1]));
  memcpy(d->point, ps, sizeof ps);
  sensim_vec3 rel = v3(ps[0], ps[1], ps[2]);
  sensim_vec3 pw = v3_add(pose.pos, q_rotate(pose.rot, rel));
  sensim_vec3 wc;
  sensim_vec3 vp = sensim__snap_point_velocity(snap, (size_t)hit->body, t, pw);
  sensim_vec3 vs = sensim__ctx_origin_velocity(ctx, t, pose.pos, &wc);
  sensim_vec3 dv = v3_sub(vp, vs), rw = v3_sub(pw, pose.pos);
  sensim_vec3 rv = q_rotate_inv(pose.rot, v3_sub(dv, v3_cross(wc, rw)));
  d->rel_vel[0] = rv.x;
  d->rel_vel[1] = rv.y;
  d->rel_vel[2] = rv.z;
  double rn = v3_norm(rw);
  d->radial_speed = rn > 0.0 ? v3_dot(rw, dv) / rn : 0.0;
}

static sensim_status cone_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  const sensim__cone *c = ctx.impl;
  const sensim_snapshot *snap = ctx.snap;
  sensim_rt_view *view = NULL;
  sensim_status rc = sensim_frame_alloc(frame, SENSIM_PAYLOAD_DETECTION, 1, 1);
  if (rc) return rc;
  if (c->p.method == SENSIM_CONE_RAYS && (rc = sensim__traced_view(&ctx, &view))) return rc;
  sensim_detection *d = frame->data;
  memset(d, 0, sizeof *d);
  d->range = d->azimuth = d->elevation = NAN;
  d->speed_diff = d->radial_speed = d->speed = NAN;
  for (int i = 0; i < 3; i++) d->point[i] = d->rel_vel[i] = NAN;
  sensim__cone_hit hit;
  sensim_pose pose;
  const double t = ctx.t_capture;
  if ((rc = query(&ctx, view, t, &hit, &pose))) goto done;
  if (hit.body >= 0) fill(&ctx, t, &hit, pose, d);
  double tp = ctx.phase + (double)(ctx.index - 1) / ctx.rate;
  /* The window must reach t_{k-1} (1e-9 relative slack for rounding of
   * t_k - 1/rate against phase + (k-1)/rate). */
  if (c->p.published_speed && hit.body >= 0 && ctx.index >= 1 && tp >= snap->t0 - 1e-9 * (1.0 + fabs(t))) {
    sensim__cone_hit prev;
    sensim_pose pp;
    if ((rc = query(&ctx, view, tp, &prev, &pp))) goto done;
    if (prev.body >= 0) {
      const double dq[3] = {hit.p[0] - prev.p[0], hit.p[1] - prev.p[1], hit.p[2] - prev.p[2]};
      d->speed_diff = (hit.dist - prev.dist) / (t - tp);
      d->speed = sqrt(dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2]) / (t - tp);
    }
  }
done:
  sensim__rt_view_destroy(view);
  return rc;
}

static const sensim_sensor_kind cone_kind = {
    .name = "cone",
    .raw_type = SENSIM_PAYLOAD_DETECTION,
    .needs_geometry = 1,
    .default_window = cone_default_window,
    .generate = cone_generate,
    .destroy = cone_destroy,
};

/* The rays method binds the kernel's acceleration structures. */
static const sensim_sensor_kind cone_rays_kind = {
    .name = "cone",
    .raw_type = SENSIM_PAYLOAD_DETECTION,
    .needs_geometry = 1,
    .default_window = cone_default_window,
    .generate = cone_generate,
    .destroy = cone_destroy,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
};

sensim_status sensim_cone_create(sensim_world *world, const sensim_sensor_params *sp,
                                 const sensim_cone_params *cp, sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "cone: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "cone: sensor params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "cone: out is NULL");
  sensim_cone_shape k;
  sensim_status rc = sensim_cone_shape_init(cp, &k);
  if (rc) return rc;
  sensim__cone *c = malloc(sizeof *c);
  if (!c) return sensim__fail(SENSIM_ENOMEM, "out of memory for a cone sensor");
  c->p = *cp;
  c->k = k;
  return sensim__sensor_create(world, sp, cp->method == SENSIM_CONE_RAYS ? &cone_rays_kind : &cone_kind, c, out);
}
