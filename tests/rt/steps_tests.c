/* tests/rt/steps_tests.c: how many motion steps a moving body gets in a
 * capture's view (rt/view.c, sensim__rt_step_count): the fewest evenly
 * spaced steps whose interpolation (translation linear, rotation slerp, as
 * Embree interpolates a quaternion decomposition) meets the tolerances at
 * every keyframe in the window: every vertex within SENSIM_RT_STEP_TOL,
 * bounded by the origin's error plus the angle error times the mesh's
 * radius. */
#include <math.h>
#include <string.h>
#include "core/vecmath.h"
#include "rt/rt_internal.h"
#include "support/testutil.h"

enum { NK = 53 };

/* Keyframes every 2 ms over [-2 ms, 102 ms] (a lidar's 0.1 s window and
 * one keyframe beyond each end, as a snapshot holds them). */
static sensim_mesh half_metre; /* only its radius is read */

static void fill(sensim_keyframe *k, sensim_body_snap *b, void (*pose)(double t, sensim_pose *p)) {
  memset(b, 0, sizeof *b);
  half_metre.radius = 0.5;
  b->mesh = &half_metre;
  for (int i = 0; i < NK; i++) {
    memset(&k[i], 0, sizeof k[i]);
    k[i].t = -0.002 + 0.002 * i;
    pose(k[i].t, &k[i].s.pose);
  }
  b->k = k;
  b->nk = NK;
}

static void straight(double t, sensim_pose *p) {
  p->pos = v3(3.0 + 20.0 * t, -1.0 + 5.0 * t, 0.5);
  p->rot = q_make(1, 0, 0, 0);
}

/* 8 rad/s about a fixed tilted axis while moving straight: slerp between
 * any two steps is exact for a constant-rate turn about a fixed axis. */
static void spinning(double t, sensim_pose *p) {
  straight(t, p);
  p->rot = q_exp(v3_scale(v3_normalize(v3(1, 2, 3)), 8.0 * t));
}

/* A weave: 0.2 m at 5 Hz across the track, the heading swinging with it
 * by 0.3 rad, so both the path and the turn rate vary. */
static void weaving(double t, sensim_pose *p) {
  straight(t, p);
  p->pos.y += 0.2 * sin(2 * M_PI * 5.0 * t);
  p->rot = q_exp(v3(0, 0, 0.3 * cos(2 * M_PI * 5.0 * t)));
}

/* Largest bound on a vertex's interpolation error at the keyframes inside
 * (t0, t1) with ns steps (m), computed here independently. */
static double worst(const sensim_body_snap *b, double t0, double t1, int ns) {
  double w = 0.0;
  double h = (t1 - t0) / (ns - 1);
  for (size_t i = 0; i < b->nk; i++) {
    double t = b->k[i].t;
    if (!(t > t0 && t < t1)) continue;
    int g = (int)floor((t - t0) / h);
    if (g > ns - 2) g = ns - 2;
    sensim_body_state a, c;
    sensim__track_state_at(b->k, b->nk, t0 + h * g, &a);
    sensim__track_state_at(b->k, b->nk, t0 + h * (g + 1), &c);
    double u = (t - t0 - h * g) / h;
    sensim_vec3 p = v3_lerp(a.pose.pos, c.pose.pos, u);
    sensim_quat q = sensim_quat_slerp(a.pose.rot, c.pose.rot, u);
    double d = fabs(q.w * b->k[i].s.pose.rot.w + q.x * b->k[i].s.pose.rot.x +
                    q.y * b->k[i].s.pose.rot.y + q.z * b->k[i].s.pose.rot.z);
    double ang = d >= 1 ? 0 : 2 * acos(d);
    double e = v3_norm(v3_sub(p, b->k[i].s.pose.pos)) + ang * b->mesh->radius;
    if (e > w) w = e;
  }
  return w;
}

static void test_rt_steps_static_or_instant_is_one(void **state) {
  (void)state;
  sensim_keyframe k[NK];
  sensim_body_snap b;
  fill(k, &b, weaving);
  assert_int_equal(sensim__rt_step_count(&b, 0.0, 0.0), 1); /* no window */
  b.is_static = 1;
  assert_int_equal(sensim__rt_step_count(&b, 0.0, 0.1), 1);
}

static void test_rt_steps_straight_and_uniform_turn_need_two(void **state) {
  (void)state;
  sensim_keyframe k[NK];
  sensim_body_snap b;
  fill(k, &b, straight);
  assert_int_equal(sensim__rt_step_count(&b, 0.0, 0.1), 2);
  fill(k, &b, spinning);
  assert_int_equal(sensim__rt_step_count(&b, 0.0, 0.1), 2);
}

/* A curved path gets the fewest steps that meet the tolerance: with them
 * the error is within it, with one fewer it is not. */
static void test_rt_steps_curved_path_gets_the_fewest_that_fit(void **state) {
  (void)state;
  sensim_keyframe k[NK];
  sensim_body_snap b;
  fill(k, &b, weaving);
  int ns = sensim__rt_step_count(&b, 0.0, 0.1);
  assert_true(ns > 2 && ns < 51);
  assert_true(worst(&b, 0.0, 0.1, ns) <= SENSIM_RT_STEP_TOL);
  assert_true(worst(&b, 0.0, 0.1, ns - 1) > SENSIM_RT_STEP_TOL);
  /* A larger body needs more steps for the same turn. */
  half_metre.radius = 5.0;
  assert_true(sensim__rt_step_count(&b, 0.0, 0.1) > ns);
}

int sensim_test_rt_steps(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rt_steps_static_or_instant_is_one),
      cmocka_unit_test(test_rt_steps_straight_and_uniform_turn_need_two),
      cmocka_unit_test(test_rt_steps_curved_path_gets_the_fewest_that_fit),
  };
  return cmocka_run_group_tests_name("rt_steps", tests, NULL, NULL);
}
