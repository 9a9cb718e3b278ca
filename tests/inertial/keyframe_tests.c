/* tests/inertial/keyframe_tests.c: the accuracy of the derivatives sensim
 * estimates when the host pushes poses only (scene/track.c: the quadratic
 * Lagrange polynomial through three keyframes), against a closed-form
 * sinusoidal trajectory, as the keyframe spacing h halves.
 *
 * Taylor expansion of the three-point formulas for p(t) = A sin(w t):
 *   interior keyframe (central):  v error = +h^2/6 p'''   a error = +h^2/12 p''''
 *   newest keyframe (one-sided):  v error = -h^2/3 p'''   a error = -h p''' + O(h^2)
 * (estimate minus truth; e.g. Fornberg 1988, Math. Comp. 51(184), Table 1).
 * So halving h divides the interior errors and the newest keyframe's
 * velocity error by 4 and its acceleration error by 2. The same weights act
 * on rotation vectors, so a yaw of B sin(w t) about a fixed axis has the
 * same errors for the yaw rate and yaw acceleration (docs/imu.md). */
#include <math.h>
#include "inertial/inertial_groups.h"

#define AMP 0.8   /* m */
#define BYAW 0.6  /* rad */
#define WF (2.0 * M_PI * 0.8) /* rad/s */

typedef struct errs {
  double v, a, w, al; /* estimate minus truth: lin_vel.x, lin_acc.x, ang_vel.z, ang_acc.z */
} errs;

/* Push poses at spacing h over [0, t_end]; the state at t_q. */
static errs run(double h, double t_end, double t_q) {
  sensim_world *w = test_world(0, 1);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  long n = lround(t_end / h);
  for (long j = 0; j <= n; j++) {
    double t = (double)j * h;
    sensim_body_state s = {0};
    s.pose.pos.x = AMP * sin(WF * t);
    s.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, BYAW * sin(WF * t));
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &s));
  }
  sensim_body_state s;
  SENSIM_OK_OR_FAIL(sensim_body_state_at(b, t_q, &s));
  errs e;
  double c = cos(WF * t_q), sn = sin(WF * t_q);
  e.v = s.lin_vel.x - AMP * WF * c;
  e.a = s.lin_acc.x + AMP * WF * WF * sn;
  e.w = s.ang_vel.z - BYAW * WF * c;
  e.al = s.ang_acc.z + BYAW * WF * WF * sn;
  sensim_world_destroy(w);
  return e;
}

static void test_keyframe_derivatives_interior_error_is_second_order_and_matches_taylor(void **st) {
  (void)st;
  const double tq = 0.5, c = cos(WF * tq), sn = sin(WF * tq);
  const double p3 = -WF * WF * WF * c, p4 = WF * WF * WF * WF * sn; /* per unit amplitude */
  double prev_v = 0, prev_a = 0;
  for (int k = 0; k < 3; k++) {
    double h = 0.02 / (1 << k);
    errs e = run(h, 1.0, tq);
    /* Leading terms; the next ones are (w h)^2 / 20 relative, < 1 %. */
    assert_near(e.v / (AMP * h * h / 6.0 * p3), 1.0, 0.01);
    assert_near(e.a / (AMP * h * h / 12.0 * p4), 1.0, 0.01);
    assert_near(e.w / (BYAW * h * h / 6.0 * p3), 1.0, 0.01);
    assert_near(e.al / (BYAW * h * h / 12.0 * p4), 1.0, 0.01);
    if (k > 0) {
      assert_near(prev_v / e.v, 4.0, 0.05);
      assert_near(prev_a / e.a, 4.0, 0.05);
    }
    prev_v = e.v;
    prev_a = e.a;
  }
}

static void test_keyframe_derivatives_at_newest_keyframe_velocity_second_acceleration_first_order(void **st) {
  (void)st;
  /* The newest keyframe is where an IMU sampling at the host's current
   * time reads (sensors/imu.c): its acceleration is first-order. */
  const double te = 0.5, c = cos(WF * te);
  const double p3 = -WF * WF * WF * c;
  double prev_v = 0, prev_a = 0;
  for (int k = 0; k < 3; k++) {
    double h = 0.01 / (1 << k);
    errs e = run(h, te, te);
    assert_near(e.v / (-AMP * h * h / 3.0 * p3), 1.0, 0.03);
    /* -h p''' plus an O(h^2) remainder: within 3 w h of the leading term. */
    assert_near(e.a / (-AMP * h * p3), 1.0, 3.0 * WF * h);
    assert_near(e.al / (-BYAW * h * p3), 1.0, 3.0 * WF * h);
    if (k > 0) {
      assert_near(prev_v / e.v, 4.0, 0.1);
      assert_near(prev_a / e.a, 2.0, 0.1);
    }
    prev_v = e.v;
    prev_a = e.a;
  }
}

int sensim_test_inertial_keyframes(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_keyframe_derivatives_interior_error_is_second_order_and_matches_taylor),
      cmocka_unit_test(test_keyframe_derivatives_at_newest_keyframe_velocity_second_acceleration_first_order),
  };
  return cmocka_run_group_tests_name("inertial_keyframes", tests, NULL, NULL);
}
