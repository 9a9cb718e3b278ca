/* tests/runtime/context_tests.c: the capture context the runtime hands a
 * generator (runtime/kind.h): resolved parameters, stream key, snapshot
 * window and the sensor's motion, checked against closed forms with a
 * recording kind that reads nothing but its context. */
#include <math.h>
#include <string.h>
#include "support/testutil.h"
#include "runtime/probe_kind.h"

/* The carrier drives along +X at 2 m/s while yawing at 0.3 rad/s; its
 * keyframes carry these exact velocities, so interpolation (linear in
 * position, slerp in rotation) reproduces the motion to rounding. */
static sensim_body_state carrier_at(double t) {
  sensim_body_state s = test_state_xyzyaw(2.0 * t, 0.0, 0.0, 0.3 * t);
  s.flags = SENSIM_STATE_VELOCITY;
  s.lin_vel = (sensim_vec3){2.0, 0.0, 0.0};
  s.ang_vel = (sensim_vec3){0.0, 0.0, 0.3};
  return s;
}

/* Closed form of the sensor pose at t: carrier pose composed with the mount
 * (translation m, yaw 0.2 rad). */
static sensim_pose expected_pose(double t, sensim_vec3 m) {
  double yaw = 0.3 * t, c = cos(yaw), s = sin(yaw);
  sensim_pose p;
  p.pos = (sensim_vec3){2.0 * t + c * m.x - s * m.y, s * m.x + c * m.y, m.z};
  double y = yaw + 0.2;
  p.rot = (sensim_quat){cos(y / 2), 0.0, 0.0, sin(y / 2)};
  return p;
}

static void assert_pose_near(sensim_pose a, sensim_pose b, double tol) {
  assert_near(a.pos.x, b.pos.x, tol);
  assert_near(a.pos.y, b.pos.y, tol);
  assert_near(a.pos.z, b.pos.z, tol);
  double dot = a.rot.w * b.rot.w + a.rot.x * b.rot.x + a.rot.y * b.rot.y + a.rot.z * b.rot.z;
  assert_near(fabs(dot), 1.0, tol);
}

static void test_context_carries_resolved_parameters_key_and_carrier_motion(void **state) {
  (void)state;
  sensim_world *w = test_world(2, 99);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  static probe p;
  probe_init(&p, 0.004);
  const sensim_vec3 m = {0.5, 0.1, 0.2};
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20.0;
  sp.phase = 0.01;
  sp.lag = 0.03;
  sp.body = car;
  sp.mount.pos = m;
  sp.mount.rot = (sensim_quat){cos(0.1), 0.0, 0.0, sin(0.1)};
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(probe_create(w, &sp, &p, &s));
  int delivered = 0;
  for (int i = 0; i <= 300; i++) {
    double t = i * 1e-3;
    sensim_body_state st = carrier_at(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f;
    while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
      double tk = 0.01 + (double)f->index / 20.0;
      assert_true(f->t_capture == tk);
      assert_true(f->t_deliver == tk + 0.03);
      assert_near(f->window, 0.004, 0);
      assert_pose_near(f->pose, expected_pose(tk, m), 1e-12);
      delivered++;
    }
  }
  /* t_k = 0.01 + k / 20 <= 0.3 for k = 0..5, and each t_k + lag <= 0.29. */
  assert_int_equal(p.n, 6);
  assert_int_equal(delivered, 6);
  for (int i = 0; i < p.n; i++) {
    const probe_record *r = &p.rec[i];
    const sensim_capture_ctx *x = &r->ctx;
    double tk = 0.01 + (double)x->index / 20.0;
    assert_true(x->t_capture == tk);
    assert_true(x->window == 0.004); /* resolved by the kind's default_window */
    assert_true(x->rate == 20.0 && x->phase == 0.01 && x->lag == 0.03);
    assert_memory_equal(&x->mount, &sp.mount, sizeof sp.mount);
    assert_int_equal(x->carrier, 0); /* the car is body 0 */
    assert_true(x->key.seed == 99);
    assert_int_equal(x->key.sensor, sensim_sensor_id(s));
    assert_true(x->key.frame == x->index);
    assert_int_equal(sensim__fork_threads(x->fork), 2);
    assert_true(r->snap_t0 == tk - 0.004 && r->snap_t1 == tk);
    assert_int_equal(r->carrier_static, 0);
    assert_int_equal(r->fixed, 0);
    assert_pose_near(r->pose_mid, expected_pose(tk - 0.002, m), 1e-12);
  }
  sensim_world_destroy(w);
  /* Every binding prepare() made was released, on the worker or at teardown. */
  assert_int_equal(p.prepared, 6);
  assert_int_equal(p.released, 6);
}

static void test_context_of_world_fixed_and_static_carried_sensors_is_fixed(void **state) {
  (void)state;
  for (int on_static = 0; on_static < 2; on_static++) {
    sensim_world *w = test_world(0, 1);
    static probe p;
    probe_init(&p, 0.0);
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.mount.pos = (sensim_vec3){1.0, 2.0, 3.0};
    sensim_body *pole = NULL;
    if (on_static) {
      sensim_body_params bp;
      sensim_body_params_init(&bp);
      bp.is_static = 1;
      bp.pose.pos = (sensim_vec3){10.0, 0.0, 0.0};
      SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &pole));
      sp.body = pole;
    }
    sensim_sensor *s = NULL;
    SENSIM_OK_OR_FAIL(probe_create(w, &sp, &p, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
    assert_int_equal(p.n, 1);
    assert_int_equal(p.rec[0].ctx.carrier, on_static ? 0 : -1);
    assert_int_equal(p.rec[0].carrier_static, on_static ? 1 : -1);
    assert_int_equal(p.rec[0].fixed, 1);
    assert_near(p.rec[0].pose_mid.pos.x, on_static ? 11.0 : 1.0, 0);
    assert_near(p.rec[0].pose_mid.pos.z, 3.0, 0);
    sensim_world_destroy(w);
  }
}

static void test_failed_prepare_reports_and_retries_the_same_capture(void **state) {
  (void)state;
  sensim_world *w = test_world(2, 3);
  static probe p;
  probe_init(&p, 0.0);
  p.fail_prepare = 1;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.name = "probe_a";
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(probe_create(w, &sp, &p, &s));
  assert_int_equal(sensim_world_advance(w, 0.0), SENSIM_EBACKEND);
  assert_non_null(strstr(sensim_last_error(), "probe_a"));
  assert_non_null(strstr(sensim_last_error(), "prepare refused"));
  assert_int_equal(sensim_sensor_frames_captured(s), 0);
  /* Nothing was lost: the next advance takes capture 0 again. */
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.05));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  assert_int_equal(f->index, 0);
  assert_int_equal(sensim_sensor_frames_captured(s), 1);
  sensim_world_destroy(w);
  assert_int_equal(p.prepared, p.released);
}

int sensim_test_capture_ctx(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_context_carries_resolved_parameters_key_and_carrier_motion),
      cmocka_unit_test(test_context_of_world_fixed_and_static_carried_sensors_is_fixed),
      cmocka_unit_test(test_failed_prepare_reports_and_retries_the_same_capture),
  };
  return cmocka_run_group_tests_name("capture_ctx", tests, NULL, NULL);
}
