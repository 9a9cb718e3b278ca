/* tests/scene/keyframes_tests.c: body keyframe tracks (src/scene/track.c,
 * src/scene/body.c): interpolation against closed forms, clamping, the
 * order of accuracy of estimated derivatives (include/sensim/world.h:
 * second order at evenly spaced interior keyframes, first order at the
 * ends), rejected pushes that leave the track unchanged, and trimming. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "core/vecmath.h"
#include "scene/scene.h"
#include "sensim/lidar.h"

static void assert_vec_near(sensim_vec3 a, sensim_vec3 b, double tol) {
  assert_near(a.x, b.x, tol);
  assert_near(a.y, b.y, tol);
  assert_near(a.z, b.z, tol);
}

static void assert_same_rotation(sensim_quat a, sensim_quat b, double tol) {
  double sg = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z < 0 ? -1.0 : 1.0;
  assert_near(a.w, sg * b.w, tol);
  assert_near(a.x, sg * b.x, tol);
  assert_near(a.y, sg * b.y, tol);
  assert_near(a.z, sg * b.z, tol);
}

static void assert_state_equal(const sensim_body_state *a, const sensim_body_state *b) {
  assert_memory_equal(&a->pose.pos, &b->pose.pos, sizeof a->pose.pos);
  assert_memory_equal(&a->pose.rot, &b->pose.rot, sizeof a->pose.rot);
  assert_int_equal(a->flags, b->flags);
  assert_memory_equal(&a->lin_vel, &b->lin_vel, sizeof a->lin_vel);
  assert_memory_equal(&a->ang_vel, &b->ang_vel, sizeof a->ang_vel);
  assert_memory_equal(&a->lin_acc, &b->lin_acc, sizeof a->lin_acc);
  assert_memory_equal(&a->ang_acc, &b->ang_acc, sizeof a->ang_acc);
}

static sensim_body *dynamic_body(sensim_world *w) {
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return b;
}

static sensim_body_state pose_state(sensim_vec3 pos, sensim_quat rot) {
  sensim_body_state s;
  memset(&s, 0, sizeof s);
  s.pose.pos = pos;
  s.pose.rot = rot;
  return s;
}

/* ---- interpolation ------------------------------------------------------- */

/* Between keyframes: position linear in t, rotation the slerp, i.e. a
 * rotation about the fixed axis of a^-1 b by the fraction of its angle. */
static void test_state_between_keyframes_is_linear_and_slerp(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body *b = dynamic_body(w);
  sensim_quat a = sensim_quat_from_ypr(0.4, -0.3, 1.0);
  sensim_vec3 axis = v3_normalize(v3(0.2, -1.0, 0.5));
  const double angle = 1.3;
  sensim_quat qb = q_mul(a, sensim_quat_from_axis_angle(axis, angle));
  sensim_body_state s0 = pose_state(v3(1, 2, 3), a);
  sensim_body_state s1 = pose_state(v3(3, -2, 9), qb);
  sensim_body_state s2 = pose_state(v3(0, 0, 0), qb);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 1.0, &s0));
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 3.0, &s1));
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 7.0, &s2));
  assert_int_equal(sensim_body_keyframe_count(b), 3);
  for (int i = 0; i <= 8; i++) {
    double f = i / 8.0, t = 1.0 + 2.0 * f;
    sensim_body_state o;
    SENSIM_OK_OR_FAIL(sensim_body_state_at(b, t, &o));
    assert_vec_near(o.pose.pos, v3(1 + 2 * f, 2 - 4 * f, 3 + 6 * f), 1e-14);
    assert_same_rotation(o.pose.rot, q_mul(a, sensim_quat_from_axis_angle(axis, f * angle)), 1e-12);
  }
  /* Second interval: constant rotation, position towards the origin. */
  sensim_body_state o;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 6.0, &o));
  assert_vec_near(o.pose.pos, v3(3 * 0.25, -2 * 0.25, 9 * 0.25), 1e-14);
  assert_same_rotation(o.pose.rot, qb, 1e-14);
  sensim_world_destroy(w);
}

/* Outside the keyframes held the state is that of the nearest end. */
static void test_state_outside_keyframes_is_clamped(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body *b = dynamic_body(w);
  sensim_body_state s0 = pose_state(v3(1, 0, 0), sensim_quat_from_ypr(0.1, 0, 0));
  sensim_body_state s1 = pose_state(v3(2, 0, 0), sensim_quat_from_ypr(0.2, 0, 0));
  sensim_body_state s2 = pose_state(v3(4, 1, 0), sensim_quat_from_ypr(0.3, 0.1, 0));
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 10.0, &s0));
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 11.0, &s1));
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 12.0, &s2));
  sensim_body_state first, last, o;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 10.0, &first));
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 12.0, &last));
  assert_vec_near(first.pose.pos, s0.pose.pos, 0);
  assert_vec_near(last.pose.pos, s2.pose.pos, 0);
  const double before[] = {9.999, 0.0, -1e9, -INFINITY};
  const double after[] = {12.001, 1e9, INFINITY};
  for (size_t i = 0; i < sizeof before / sizeof before[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_body_state_at(b, before[i], &o));
    assert_state_equal(&o, &first);
  }
  for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) {
    SENSIM_OK_OR_FAIL(sensim_body_state_at(b, after[i], &o));
    assert_state_equal(&o, &last);
  }
  assert_int_equal(sensim_body_state_at(b, NAN, &o), SENSIM_EINVAL);
  sensim_world_destroy(w);
}

/* A body never pushed stays at its creation pose at every time. */
static void test_unpushed_body_holds_creation_pose(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.pose.pos = v3(5, -6, 7);
  bp.pose.rot = sensim_quat_from_ypr(1.0, 0.2, -0.1);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  assert_int_equal(sensim_body_keyframe_count(b), 1);
  sensim_body_state o;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 3.0, &o));
  assert_vec_near(o.pose.pos, bp.pose.pos, 0);
  assert_same_rotation(o.pose.rot, bp.pose.rot, 0);
  assert_vec_near(o.lin_vel, v3(0, 0, 0), 0);
  /* The first push replaces the creation pose rather than adding to it. */
  sensim_body_state s = pose_state(v3(0, 0, 0), q_make(1, 0, 0, 0));
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.5, &s));
  assert_int_equal(sensim_body_keyframe_count(b), 1);
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, -10.0, &o));
  assert_vec_near(o.pose.pos, v3(0, 0, 0), 0);
  sensim_world_destroy(w);
}

/* ---- derivative estimation ------------------------------------------------ */

/* Uniform circular motion of radius CR at angular speed CW about +Z,
 * p = CR (cos CW t, sin CW t, 0), while the body's attitude also nods:
 * yaw = CW t + pi/2, pitch = P0 sin(P1 t), roll = R0 cos(R1 t). Closed
 * forms: v = CR CW (-sin, cos, 0), a = -CR CW^2 (cos, sin, 0). For
 * R = Rz(yaw) Ry(pitch) Rx(roll) each angle's rate turns about its own
 * axis as seen in the world, i.e. after the rotations to its left:
 *   w = yaw' z + pitch' Rz(yaw) y + roll' Rz(yaw) Ry(pitch) x. */
#define CR 5.0
#define CW 2.0
#define P0 0.3
#define P1 1.5
#define R0 0.2
#define R1 2.0

static void ypr_at(double t, double *y, double *p, double *r) {
  *y = CW * t + 0.5 * 3.14159265358979323846;
  *p = P0 * sin(P1 * t);
  *r = R0 * cos(R1 * t);
}

static sensim_body_state circle_pose(double t) {
  double y, p, r;
  ypr_at(t, &y, &p, &r);
  return pose_state(v3(CR * cos(CW * t), CR * sin(CW * t), 0), sensim_quat_from_ypr(y, p, r));
}

static sensim_vec3 circle_vel(double t) { return v3(-CR * CW * sin(CW * t), CR * CW * cos(CW * t), 0); }
static sensim_vec3 circle_acc(double t) {
  return v3(-CR * CW * CW * cos(CW * t), -CR * CW * CW * sin(CW * t), 0);
}

static sensim_vec3 circle_omega(double t) {
  double y, p, r;
  ypr_at(t, &y, &p, &r);
  double dy = CW, dp = P0 * P1 * cos(P1 * t), dr = -R0 * R1 * sin(R1 * t);
  sensim_vec3 w = v3(0, 0, dy);
  w = v3_add(w, v3_scale(v3(-sin(y), cos(y), 0), dp));
  w = v3_add(w, v3_scale(v3(cos(y) * cos(p), sin(y) * cos(p), -sin(p)), dr));
  return w;
}

/* d omega / dt by a central difference of the closed form with h = 1e-5 s:
 * truncation h^2/6 |w'''| ~ 1e-10, rounding ~1e-11, both far below the
 * errors measured below. */
static sensim_vec3 circle_alpha(double t) {
  const double h = 1e-5;
  return v3_scale(v3_sub(circle_omega(t + h), circle_omega(t - h)), 0.5 / h);
}

typedef struct deriv_errors {
  double v, a, w, al; /* |error| of lin_vel, lin_acc, ang_vel, ang_acc */
} deriv_errors;

/* Push the motion at `rate` Hz over [0, 0.2] s with poses only, then
 * compare the state at keyframe time `t_check` with the closed forms. */
static deriv_errors circle_errors(double rate, double t_check) {
  sensim_world *w = test_world(0, 1);
  sensim_body *b = dynamic_body(w);
  int n = (int)lrint(0.2 * rate);
  for (int j = 0; j <= n; j++) {
    double t = j / rate;
    sensim_body_state s = circle_pose(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
  }
  sensim_body_state o;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, t_check, &o));
  deriv_errors e;
  e.v = v3_norm(v3_sub(o.lin_vel, circle_vel(t_check)));
  e.a = v3_norm(v3_sub(o.lin_acc, circle_acc(t_check)));
  e.w = v3_norm(v3_sub(o.ang_vel, circle_omega(t_check)));
  e.al = v3_norm(v3_sub(o.ang_acc, circle_alpha(t_check)));
  sensim_world_destroy(w);
  return e;
}

static void assert_ratio(double coarse, double fine, double lo, double hi, const char *what) {
  double r = coarse / fine;
  if (!(r >= lo && r <= hi))
    fail_msg("%s: error %.3g at 1 kHz, %.3g at 2 kHz: ratio %.3f not in [%.2f, %.2f]", what, coarse, fine, r,
             lo, hi);
}

/* At an interior keyframe the estimates are central differences: the
 * velocity's leading error is h^2/6 |p'''| = h^2/6 CR CW^3, the
 * acceleration's h^2/12 |p''''| = h^2/12 CR CW^4 (Taylor series of the
 * three-point stencils). Halving h divides every error by 4. */
static void test_estimated_derivatives_second_order_at_interior_keyframes(void **state) {
  (void)state;
  const double tc = 0.1; /* a keyframe at both rates, far from the ends */
  deriv_errors e1 = circle_errors(1000.0, tc), e2 = circle_errors(2000.0, tc);
  const double h = 1e-3;
  assert_near(e1.v, h * h / 6.0 * CR * CW * CW * CW, 0.05 * h * h / 6.0 * CR * CW * CW * CW);
  assert_near(e1.a, h * h / 12.0 * CR * pow(CW, 4), 0.05 * h * h / 12.0 * CR * pow(CW, 4));
  assert_ratio(e1.v, e2.v, 3.6, 4.4, "linear velocity");
  assert_ratio(e1.a, e2.a, 3.6, 4.4, "linear acceleration");
  assert_ratio(e1.w, e2.w, 3.6, 4.4, "angular velocity");
  assert_ratio(e1.al, e2.al, 3.6, 4.4, "angular acceleration");
  /* And the errors are small in absolute terms (centripetal 20 m/s^2). */
  assert_true(e1.v < 1e-5 && e1.a < 1e-5 && e1.w < 1e-5 && e1.al < 1e-4);
}

/* At the newest keyframe the one-sided three-point stencil still gives the
 * velocity to O(h^2) (error h^2/3 |p'''|), but the acceleration only to
 * O(h) (error h |p'''|): halving h divides them by 4 and by 2. */
static void test_estimated_derivatives_at_track_end_orders_two_and_one(void **state) {
  (void)state;
  const double tc = 0.2; /* the last keyframe at both rates */
  deriv_errors e1 = circle_errors(1000.0, tc), e2 = circle_errors(2000.0, tc);
  const double h = 1e-3;
  assert_near(e1.v, h * h / 3.0 * CR * pow(CW, 3), 0.05 * h * h / 3.0 * CR * pow(CW, 3));
  assert_near(e1.a, h * CR * pow(CW, 3), 0.05 * h * CR * pow(CW, 3));
  assert_ratio(e1.v, e2.v, 3.6, 4.4, "end velocity");
  assert_ratio(e1.a, e2.a, 1.8, 2.2, "end acceleration");
  assert_ratio(e1.w, e2.w, 3.6, 4.4, "end angular velocity");
}

/* Derivatives the host gives are stored as given, even when they disagree
 * with the poses; the ones it does not give are estimated. */
static void test_host_given_derivatives_are_kept_untouched(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body *bv = dynamic_body(w), *ba = dynamic_body(w);
  for (int j = 0; j <= 200; j++) {
    double t = j / 1000.0;
    sensim_body_state s = circle_pose(t);
    s.flags = SENSIM_STATE_VELOCITY;
    s.lin_vel = v3(100 + j, 200, 300);
    s.ang_vel = v3(-1, -2, -3 - j);
    s.lin_acc = v3(NAN, NAN, NAN); /* not flagged: ignored, not validated */
    SENSIM_OK_OR_FAIL(sensim_body_push_state(bv, t, &s));
    s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    s.lin_acc = v3(7, 8, 9 + j);
    s.ang_acc = v3(0.5, 0.25, -j);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(ba, t, &s));
  }
  for (int j = 1; j <= 200; j += 37) {
    double t = j / 1000.0;
    sensim_body_state o;
    SENSIM_OK_OR_FAIL(sensim_body_state_at(bv, t, &o));
    assert_true(o.lin_vel.x == 100 + j && o.lin_vel.y == 200 && o.lin_vel.z == 300);
    assert_true(o.ang_vel.x == -1 && o.ang_vel.y == -2 && o.ang_vel.z == -3 - j);
    /* Acceleration was not given: estimated from the poses. */
    if (j < 200) assert_vec_near(o.lin_acc, circle_acc(t), 1e-4);
    assert_true(isfinite(o.ang_acc.x) && isfinite(o.ang_acc.y) && isfinite(o.ang_acc.z));
    assert_int_equal(o.flags, SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION);
    SENSIM_OK_OR_FAIL(sensim_body_state_at(ba, t, &o));
    assert_true(o.lin_vel.x == 100 + j && o.ang_vel.z == -3 - j);
    assert_true(o.lin_acc.x == 7 && o.lin_acc.y == 8 && o.lin_acc.z == 9 + j);
    assert_true(o.ang_acc.x == 0.5 && o.ang_acc.y == 0.25 && o.ang_acc.z == -j);
  }
  sensim_world_destroy(w);
}

/* ---- rejected pushes -------------------------------------------------------- */

static void expect_rejected(sensim_body *b, double t, const sensim_body_state *s, sensim_status want) {
  size_t n0 = sensim_body_keyframe_count(b);
  sensim_body_state before, after;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, INFINITY, &before));
  sensim_status rc = sensim_body_push_state(b, t, s);
  if (rc != want) fail_msg("push at t = %g gave %d, expected %d (%s)", t, rc, want, sensim_last_error());
  assert_true(sensim_last_error()[0] != '\0');
  assert_int_equal(sensim_body_keyframe_count(b), n0);
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, INFINITY, &after));
  assert_state_equal(&before, &after);
}

static void test_bad_pushes_are_rejected_and_leave_track_unchanged(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body *b = dynamic_body(w);
  for (int j = 0; j < 10; j++) {
    sensim_body_state s = circle_pose(j * 0.01);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, j * 0.01, &s));
  }
  const double tl = 0.09, tn = 0.1;
  sensim_body_state good = circle_pose(tn), s;
  /* Out of time order: equal to and before the last push. */
  expect_rejected(b, tl, &good, SENSIM_ESTATE);
  expect_rejected(b, 0.05, &good, SENSIM_ESTATE);
  /* Non-finite times. */
  expect_rejected(b, NAN, &good, SENSIM_EINVAL);
  expect_rejected(b, INFINITY, &good, SENSIM_EINVAL);
  /* Non-finite positions. */
  s = good;
  s.pose.pos.y = NAN;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  s = good;
  s.pose.pos.z = -INFINITY;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  /* A quaternion of norm 1.1, and one with a NaN. */
  s = good;
  s.pose.rot = q_make(1.1 * good.pose.rot.w, 1.1 * good.pose.rot.x, 1.1 * good.pose.rot.y, 1.1 * good.pose.rot.z);
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  s = good;
  s.pose.rot.x = NAN;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  /* Flag bits the API does not define. */
  s = good;
  s.flags = 1u << 5;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  s.flags = SENSIM_STATE_VELOCITY | 0x80000000u;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  /* Flagged derivatives that are not finite. */
  s = good;
  s.flags = SENSIM_STATE_VELOCITY;
  s.ang_vel.x = NAN;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  s = good;
  s.flags = SENSIM_STATE_ACCELERATION;
  s.lin_acc.z = INFINITY;
  expect_rejected(b, tn, &s, SENSIM_EINVAL);
  assert_int_equal(sensim_body_push_state(NULL, tn, &good), SENSIM_EINVAL);
  assert_int_equal(sensim_body_push_state(b, tn, NULL), SENSIM_EINVAL);
  /* Still usable: the good state goes in. */
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, tn, &good));
  assert_int_equal(sensim_body_keyframe_count(b), 11);
  /* A time before the world's clock is refused even if after the last push. */
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.5));
  s = circle_pose(0.4);
  expect_rejected(b, 0.4, &s, SENSIM_ESTATE);
  s = circle_pose(0.5);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.5, &s));
  sensim_world_destroy(w);
}

static void test_push_on_static_body_is_refused(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.pose.pos = v3(1, 2, 3);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_body_state s = circle_pose(0.0);
  expect_rejected(b, 0.0, &s, SENSIM_ESTATE);
  assert_int_equal(sensim_body_keyframe_count(b), 1);
  sensim_body_state o;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 0.0, &o));
  assert_vec_near(o.pose.pos, v3(1, 2, 3), 0);
  /* A refused first push on a dynamic body keeps its creation pose. */
  bp.is_static = 0;
  bp.pose.pos = v3(-4, 0, 1);
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  s.pose.pos.x = NAN;
  expect_rejected(b, 0.0, &s, SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 0.0, &o));
  assert_vec_near(o.pose.pos, v3(-4, 0, 1), 0);
  sensim_world_destroy(w);
}

/* ---- snapshots ---------------------------------------------------------------- */

/* A snapshot copies a dynamic body's keyframes over the window and points
 * at a static body's own (immutable) keyframe; both give the body's state.
 * Destroying the static body leaves that keyframe where it was, so a
 * capture still holding the snapshot reads what it read before; pushes
 * after the snapshot do not reach it. */
static void test_snapshot_copies_dynamic_and_shares_static_keyframes(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.is_static = 1;
  bp.pose.pos = v3(5, 6, 7);
  sensim_body *st = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &st));
  sensim_body *dyn = dynamic_body(w);
  for (int k = 0; k <= 4; k++) {
    sensim_body_state s = pose_state(v3(k, 0, 0), sensim_pose_identity().rot);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(dyn, 0.1 * k, &s));
  }
  sensim_snapshot *snap = NULL;
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, 0.1, 0.2, 1, -1, &snap));
  const sensim_body_snap *ss = &snap->bodies[st->index], *ds = &snap->bodies[dyn->index];
  assert_true(ss->k == st->track.k); /* shared, not copied */
  assert_int_equal(ss->nk, 1);
  assert_true(ds->k != dyn->track.k + 1); /* a copy of the keyframes at 0.1 and 0.2 */
  assert_int_equal(ds->nk, 2);
  assert_memory_equal(ds->k, dyn->track.k + 1, 2 * sizeof *ds->k);
  sensim_body_state o;
  sensim__snap_state_at(snap, (size_t)st->index, 0.15, &o);
  assert_vec_near(o.pose.pos, v3(5, 6, 7), 0);
  sensim__snap_state_at(snap, (size_t)dyn->index, 0.15, &o);
  assert_vec_near(o.pose.pos, v3(1.5, 0, 0), 1e-12);
  /* The world moves on; the snapshot does not. */
  sensim_body_state s = pose_state(v3(-9, -9, -9), sensim_pose_identity().rot);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(dyn, 0.5, &s));
  SENSIM_OK_OR_FAIL(sensim_body_destroy(st));
  assert_true(st->track.k == ss->k && st->track.n == 1);
  sensim__snap_state_at(snap, (size_t)st->index, 0.15, &o);
  assert_vec_near(o.pose.pos, v3(5, 6, 7), 0);
  sensim__snap_state_at(snap, (size_t)dyn->index, 0.2, &o);
  assert_vec_near(o.pose.pos, v3(2, 0, 0), 1e-12);
  sensim__snapshot_free(snap);
  /* The static body's pose rides in the snapshot's table; the world lists
   * only the dynamic body for its per-advance upkeep, until it goes. */
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, 0.1, 0.2, 1, -1, &snap));
  assert_vec_near(snap->bodies[st->index].pose.pos, v3(5, 6, 7), 0);
  sensim__snapshot_free(snap);
  assert_int_equal(w->ndynamic, 1);
  assert_int_equal(w->dynamic[0], (size_t)dyn->index);
  SENSIM_OK_OR_FAIL(sensim_body_destroy(dyn));
  assert_int_equal(w->ndynamic, 0);
  /* Destroyed, the dynamic body is static and meshless in later snapshots,
   * standing on its last keyframe. */
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, 0.6, 0.7, 1, -1, &snap));
  ds = &snap->bodies[dyn->index];
  assert_true(ds->is_static && ds->mesh == NULL && ds->nk == 1 && ds->k == dyn->track.k);
  sensim__snap_state_at(snap, (size_t)dyn->index, 0.65, &o);
  assert_vec_near(o.pose.pos, v3(-9, -9, -9), 0);
  sensim__snapshot_free(snap);
  sensim_world_destroy(w);
}

/* A capture record keeps its snapshot's block for the sensor's next
 * snapshot (runtime/capture.c): reused when it holds the new one, replaced
 * by a bigger block when not, and the snapshot is the same either way. */
static void test_snapshot_into_a_kept_block_equals_a_fresh_one(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body *dyn = dynamic_body(w);
  for (int k = 0; k <= 20; k++) {
    sensim_body_state s = pose_state(v3(k, -k, 0.5 * k), sensim_pose_identity().rot);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(dyn, 0.1 * k, &s));
  }
  void *block = NULL;
  size_t cap = 0;
  /* Windows of a few, about 11, then a few keyframes: grown once, then
   * reused. */
  const double win[3][2] = {{0.1, 0.2}, {0.3, 1.3}, {1.5, 1.6}};
  void *first = NULL;
  for (int i = 0; i < 3; i++) {
    sensim_snapshot *kept = NULL, *fresh = NULL;
    SENSIM_OK_OR_FAIL(sensim__snapshot_take_into(w, win[i][0], win[i][1], 1, -1, NULL, &block, &cap, &kept));
    SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, win[i][0], win[i][1], 1, -1, &fresh));
    assert_ptr_equal(kept, block);
    if (i == 0) first = block;
    if (i == 1) assert_ptr_not_equal(block, first); /* 11 keyframes did not fit */
    const sensim_body_snap *a = &kept->bodies[dyn->index], *b = &fresh->bodies[dyn->index];
    assert_int_equal(a->nk, b->nk);
    assert_true(i == 1 ? a->nk >= 10 : a->nk <= 3);
    assert_memory_equal(a->k, b->k, a->nk * sizeof *a->k);
    assert_true(kept->t0 == win[i][0] && kept->t1 == win[i][1]);
    sensim__snapshot_free(fresh);
  }
  void *grown = block;
  sensim_snapshot *again = NULL;
  SENSIM_OK_OR_FAIL(sensim__snapshot_take_into(w, 0.1, 0.2, 1, -1, NULL, &block, &cap, &again));
  assert_ptr_equal(block, grown); /* smaller: the same block */
  free(block);
  sensim_world_destroy(w);
}

/* ---- the internal track ------------------------------------------------------ */

static void test_internal_track_push_interpolate_and_trim(void **state) {
  (void)state;
  sensim_track tr;
  memset(&tr, 0, sizeof tr);
  for (int j = 0; j < 10; j++) {
    sensim_body_state s = pose_state(v3(j, 2.0 * j, 0), q_make(1, 0, 0, 0));
    SENSIM_OK_OR_FAIL(sensim__track_push(&tr, j * 0.5, &s));
  }
  sensim_body_state s = pose_state(v3(0, 0, 0), q_make(1, 0, 0, 0));
  assert_int_equal(sensim__track_push(&tr, 4.5, &s), SENSIM_ESTATE);
  assert_int_equal(tr.n, 10);
  sensim_body_state o;
  sensim__track_state_at(tr.k, tr.n, 1.25, &o);
  assert_vec_near(o.pose.pos, v3(2.5, 5.0, 0), 1e-15);
  /* Constant velocity (2, 4, 0) m/s is estimated exactly everywhere. */
  assert_vec_near(o.lin_vel, v3(2, 4, 0), 1e-12);
  assert_vec_near(o.lin_acc, v3(0, 0, 0), 1e-12);
  /* Trim to 2.2 s: keeps the keyframe at 2.0 s (it brackets 2.2 s). */
  sensim__track_trim(&tr, 2.2);
  assert_int_equal(tr.n, 6);
  assert_true(tr.k[0].t == 2.0);
  /* Trimming never leaves fewer than three keyframes. */
  sensim__track_trim(&tr, 100.0);
  assert_int_equal(tr.n, 3);
  assert_true(tr.k[2].t == 4.5);
  sensim__track_free(&tr);
  assert_int_equal(tr.n, 0);
  /* An empty track gives the identity at rest. */
  sensim__track_state_at(tr.k, 0, 1.0, &o);
  assert_vec_near(o.pose.pos, v3(0, 0, 0), 0);
  assert_same_rotation(o.pose.rot, q_make(1, 0, 0, 0), 0);
}

/* ---- trimming ------------------------------------------------------------------ */

/* 100 s of 1 kHz pushes with a sensor whose window is 0.1 s: the track
 * needs about 0.1 s of keyframes, so it must stay near 100 of them, not
 * grow to 100000. */
static void test_track_stays_bounded_over_100000_pushes(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 3);
  sensim_body *b = dynamic_body(w);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = b;
  sp.rate = 10.0;
  sp.window = 0.1;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0.0;
  lp.columns = 4;
  sensim_sensor *lidar = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &lidar));
  size_t most = 0;
  for (int j = 0; j < 100000; j++) {
    double t = j / 1000.0;
    sensim_body_state s = circle_pose(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
    size_t n = sensim_body_keyframe_count(b);
    if (n > most) most = n;
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    do SENSIM_OK_OR_FAIL(sensim_sensor_poll(lidar, &f));
    while (f);
  }
  /* 0.1 s at 1 kHz plus the bracketing keyframe and the newest push. */
  if (most > 110) fail_msg("track grew to %zu keyframes", most);
  assert_true(most >= 100); /* and it kept what the window needs */
  assert_int_equal(sensim_sensor_frames_delivered(lidar), 1000);
  /* The state over the last window is still the motion pushed. */
  sensim_body_state o;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, 99.95, &o));
  assert_vec_near(o.pose.pos, circle_pose(99.95).pose.pos, 1e-4);
  sensim_world_destroy(w);
}

/* Before the first advance there is no clock to trim by; the track must
 * still not grow without bound. */
static void test_track_bounded_without_advancing(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_body *b = dynamic_body(w);
  for (int j = 0; j < 20000; j++) {
    double t = j / 1000.0;
    sensim_body_state s = circle_pose(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
  }
  size_t n = sensim_body_keyframe_count(b);
  if (n > 2000) fail_msg("track of a never-advanced world grew to %zu keyframes", n);
  sensim_world_destroy(w);
}

/* sensim__track_window's binary searches against the definition read
 * straight: the last keyframe at or before t0 (else the first), then up
 * to the first at or after t1 (else the last), for tracks of 0 to 9
 * keyframes and windows falling before, on, between and after them. */
static void test_track_window_against_a_linear_scan(void **state) {
  (void)state;
  sensim_keyframe k[9];
  memset(k, 0, sizeof k);
  for (int i = 0; i < 9; i++) k[i].t = 1.0 + i;
  for (size_t nk = 0; nk <= 9; nk++) {
    sensim_track tr = {k, nk, 9};
    for (int x = 0; x <= 24; x++)
      for (int y = x; y <= 24; y++) {
        double t0 = 0.5 * x, t1 = 0.5 * y;
        size_t a = 0, b, first, n;
        while (a + 1 < nk && k[a + 1].t <= t0) a++;
        b = a;
        while (b + 1 < nk && k[b].t < t1) b++;
        sensim__track_window(&tr, t0, t1, &first, &n);
        assert_int_equal(n, nk ? b - a + 1 : 0);
        if (nk) assert_int_equal(first, a);
      }
  }
}

int sensim_test_keyframes(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_state_between_keyframes_is_linear_and_slerp),
      cmocka_unit_test(test_state_outside_keyframes_is_clamped),
      cmocka_unit_test(test_unpushed_body_holds_creation_pose),
      cmocka_unit_test(test_estimated_derivatives_second_order_at_interior_keyframes),
      cmocka_unit_test(test_estimated_derivatives_at_track_end_orders_two_and_one),
      cmocka_unit_test(test_host_given_derivatives_are_kept_untouched),
      cmocka_unit_test(test_bad_pushes_are_rejected_and_leave_track_unchanged),
      cmocka_unit_test(test_push_on_static_body_is_refused),
      cmocka_unit_test(test_snapshot_copies_dynamic_and_shares_static_keyframes),
      cmocka_unit_test(test_snapshot_into_a_kept_block_equals_a_fresh_one),
      cmocka_unit_test(test_internal_track_push_interpolate_and_trim),
      cmocka_unit_test(test_track_stays_bounded_over_100000_pushes),
      cmocka_unit_test(test_track_bounded_without_advancing),
      cmocka_unit_test(test_track_window_against_a_linear_scan),
  };
  return cmocka_run_group_tests_name("keyframes", tests, NULL, NULL);
}
