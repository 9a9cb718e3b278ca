/* tests/io/record_frames_tests.c: REP 105 frames in a recording (map ->
 * odom -> bodies, names configurable) and the odometry error model that
 * makes odom drift (io/odom_drift.c): its walk's variance grows linearly
 * with the distance travelled, and the covariance it reports is the one
 * its samples have. docs/recording.md, "Frames". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/mcap_read.h"
#include "io/odom_drift.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/record_frames"

static int setup(void **state) {
  (void)state;
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

typedef struct tf_in {
  uint64_t stamp;
  const char *parent, *child;
  sensim_pose pose;
} tf_in;

static sensim_pose cdr_pose(cdr_in *c) {
  sensim_pose p;
  p.pos.x = cdr_f64(c), p.pos.y = cdr_f64(c), p.pos.z = cdr_f64(c);
  p.rot.x = cdr_f64(c), p.rot.y = cdr_f64(c), p.rot.z = cdr_f64(c), p.rot.w = cdr_f64(c);
  return p;
}

/* A TFMessage's transforms (at most n). */
static size_t read_tf(const rmsg *m, tf_in *out, size_t n) {
  cdr_in c = cdr_open(m);
  uint32_t k = cdr_u32(&c);
  assert_true(k <= n);
  for (uint32_t i = 0; i < k; i++) {
    out[i].stamp = cdr_header(&c, &out[i].parent);
    out[i].child = cdr_str(&c);
    out[i].pose = cdr_pose(&c);
  }
  return k;
}

static double pose_gap(sensim_pose a, sensim_pose b) {
  double dq = fabs(a.rot.w * b.rot.w + a.rot.x * b.rot.x + a.rot.y * b.rot.y + a.rot.z * b.rot.z);
  return hypot(hypot(a.pos.x - b.pos.x, a.pos.y - b.pos.y), a.pos.z - b.pos.z) + (1.0 - fmin(dq, 1.0));
}

/* A cart drives a curve and a ball rolls by, recorded with renamed frames
 * and a drift model: every /tf message is world -> odom_x, then odom_x ->
 * cart and odom_x -> ball; world -> odom_x -> body is each body's truth;
 * /cart/odom is the cart's pose in odom_x with a growing (x, y, yaw)
 * covariance, /ball/odom the ball's with the exact 1e-9. Without a model,
 * map -> odom is the identity. */
static sensim_body_state cart_at(double t) {
  return test_state_xyzyaw(2.0 * sin(0.5 * t), 2.0 - 2.0 * cos(0.5 * t), 0.1, 0.5 * t);
}
static sensim_body_state ball_at(double t) { return test_state_xyzyaw(3.0, -1.0 + t, 0.2, 1.0); }

static void record_two_bodies(const char *path, const sensim_recorder_params *rp, sensim_world **wout,
                              sensim_body **cart, sensim_body **ball) {
  sensim_world *w = test_world(1, 21);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, cart));
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, ball));
  sensim_recorder *r = NULL;
  SENSIM_OK_OR_FAIL(sensim_recorder_open(path, w, rp, &r));
  SENSIM_OK_OR_FAIL(sensim_recorder_add_body(r, *ball, "ball"));
  SENSIM_OK_OR_FAIL(sensim_recorder_add_body(r, *cart, "cart"));
  for (int k = 0; k <= 200; k++) {
    double t = k * 0.01;
    sensim_body_state a = cart_at(t), b = ball_at(t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(*cart, t, &a));
    SENSIM_OK_OR_FAIL(sensim_body_push_state(*ball, t, &b));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    SENSIM_OK_OR_FAIL(sensim_recorder_advance(r, t));
  }
  SENSIM_OK_OR_FAIL(sensim_recorder_close(r));
  *wout = w;
}

static void test_tf_tree_is_map_odom_bodies_with_configured_names(void **state) {
  (void)state;
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  rp.map_frame = "world";
  rp.odom_frame = "odom_x";
  rp.odom_body = "cart";
  rp.odom_drift.sigma_xy = 0.05;
  rp.odom_drift.sigma_yaw = 0.02;
  const char *path = TMP "/rep105.mcap";
  sensim_world *w;
  sensim_body *cart, *ball;
  record_two_bodies(path, &rp, &w, &cart, &ball);
  mcap_file mf;
  read_mcap(path, &mf);
  size_t n = count_topic(&mf, "/tf");
  assert_true(n >= 100);
  double drift = 0, last_var = 0;
  for (size_t k = 0; k < n; k++) {
    tf_in tf[4];
    assert_int_equal(read_tf(nth(&mf, "/tf", k), tf, 4), 3);
    assert_string_equal(tf[0].parent, "world");
    assert_string_equal(tf[0].child, "odom_x");
    assert_string_equal(tf[1].parent, "odom_x");
    assert_string_equal(tf[1].child, "ball");
    assert_string_equal(tf[2].parent, "odom_x");
    assert_string_equal(tf[2].child, "cart");
    const double t = (double)tf[0].stamp * 1e-9;
    /* The truth, from the motion pushed (the world keeps only a recent
     * window of states). */
    const sensim_pose sc = cart_at(t).pose, sb = ball_at(t).pose;
    assert_true(pose_gap(sensim_pose_compose(tf[0].pose, tf[2].pose), sc) < 1e-9);
    assert_true(pose_gap(sensim_pose_compose(tf[0].pose, tf[1].pose), sb) < 1e-9);
    drift = fmax(drift, pose_gap(tf[0].pose, sensim_pose_identity()));
    /* The odometry: the same pose in odom_x, the model's covariance. */
    cdr_in c = cdr_open(nth(&mf, "/cart/odom", k));
    const char *frame;
    assert_int_equal(cdr_header(&c, &frame), tf[0].stamp);
    assert_string_equal(frame, "odom_x");
    assert_string_equal(cdr_str(&c), "cart");
    assert_true(pose_gap(cdr_pose(&c), tf[2].pose) < 1e-12);
    double cov[36];
    for (int i = 0; i < 36; i++) cov[i] = cdr_f64(&c);
    assert_true(cov[0] >= last_var && cov[7] > 0 && cov[35] > 0);
    assert_true(cov[14] == 1e-9 && cov[21] == 1e-9 && cov[28] == 1e-9); /* z, roll, pitch exact */
    assert_true(cov[5] == cov[30]);                                      /* symmetric */
    last_var = cov[0];
    c = cdr_open(nth(&mf, "/ball/odom", k));
    cdr_header(&c, &frame);
    assert_string_equal(frame, "odom_x");
    cdr_str(&c);
    cdr_pose(&c);
    for (int i = 0; i < 36; i++) assert_true(cdr_f64(&c) == (i % 7 == 0 ? 1e-9 : 0.0));
  }
  assert_true(drift > 1e-4);    /* odom moved away from world */
  assert_true(last_var > 1e-3); /* sigma_xy^2 x ~2 m travelled = 5e-3 m^2 */
  free_mcap(&mf);
  sensim_world_destroy(w);

  /* Defaults: map -> odom, the identity. */
  sensim_recorder_params_init(&rp);
  path = TMP "/rep105_default.mcap";
  record_two_bodies(path, &rp, &w, &cart, &ball);
  read_mcap(path, &mf);
  tf_in tf[4];
  read_tf(nth(&mf, "/tf", 50), tf, 4);
  assert_string_equal(tf[0].parent, "map");
  assert_string_equal(tf[0].child, "odom");
  assert_true(pose_gap(tf[0].pose, sensim_pose_identity()) == 0);
  free_mcap(&mf);
  sensim_world_destroy(w);
}

static void test_bad_frame_names_and_drift_are_refused(void **state) {
  (void)state;
  sensim_world *w = test_world(1, 1);
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  sensim_recorder *r = NULL;
  rp.odom_frame = "map";
  assert_int_equal(sensim_recorder_open(TMP "/bad.mcap", w, &rp, &r), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "both 'map'"));
  sensim_recorder_params_init(&rp);
  rp.odom_drift.sigma_yaw = -1;
  assert_int_equal(sensim_recorder_open(TMP "/bad.mcap", w, &rp, &r), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "sigma_yaw"));
  assert_null(r);
  sensim_recorder_params_init(&rp);
  rp.odom_body = "nobody";
  SENSIM_OK_OR_FAIL(sensim_recorder_open(TMP "/bad.mcap", w, &rp, &r));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_body_state s = test_state_xyzyaw(0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0, &s));
  SENSIM_OK_OR_FAIL(sensim_recorder_add_body(r, b, "cart"));
  assert_int_equal(sensim_recorder_advance(r, 0), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "'nobody' is not a recorded body"));
  sensim_recorder_abort(r);
  sensim_world_destroy(w);
}

/* N independent runs (seeds) drive straight along x at 1 m/s, stepped at
 * 50 Hz. With sigma_xy only, the errors of x and y at L metres have
 * variance sigma_xy^2 L (linear in the distance: checked at 10 and 20 m)
 * and the model reports exactly that; with sigma_yaw only, the yaw error
 * has variance sigma_yaw^2 L, and the y error, the yaw error integrated
 * over the distance, sigma_yaw^2 L^3 / 3, which the propagated covariance
 * reports. Sample variances agree within 5 standard errors, sqrt(2 / N)
 * relative. */
static void walk(const sensim_odom_drift *p, int runs, double L, double *var_out, double *model) {
  for (int i = 0; i < 3; i++) var_out[i] = 0;
  const int steps = (int)lround(L * 50);
  for (int s = 0; s < runs; s++) {
    sensim__odom_drift d;
    sensim__odom_drift_init(&d, p, 1000 + (uint64_t)s);
    for (int k = 0; k <= steps; k++) {
      const double t = k / 50.0;
      sensim_pose truth = {{t, 0, 0}, {1, 0, 0, 0}};
      sensim__odom_drift_step(&d, truth, t);
    }
    const double e[3] = {d.est[0] - L, d.est[1], d.est[2]};
    for (int i = 0; i < 3; i++) var_out[i] += e[i] * e[i] / runs;
    for (int i = 0; i < 9; i++) model[i] = d.cov[i];
  }
}

static void test_odometry_drift_variance_grows_linearly_with_distance(void **state) {
  (void)state;
  const int N = 2000;
  const double tol = 5.0 * sqrt(2.0 / N);
  sensim_odom_drift p = {0.05, 0, 0, 0};
  double v[3], P[9];
  for (double L = 10; L <= 20; L += 10) {
    walk(&p, N, L, v, P);
    const double want = 0.05 * 0.05 * L;
    assert_near(P[0], want, 1e-12);
    assert_near(P[4], want, 1e-12);
    assert_true(P[8] == 0);
    if (fabs(v[0] / want - 1) > tol || fabs(v[1] / want - 1) > tol)
      fail_msg("L = %g m: variances %g, %g m^2, sigma^2 L = %g", L, v[0], v[1], want);
  }
  sensim_odom_drift q = {0, 0.01, 0, 0};
  const double L = 10;
  walk(&q, N, L, v, P);
  assert_near(P[8], 1e-4 * L, 1e-12);
  assert_true(fabs(v[2] / P[8] - 1) < tol);
  /* The linearised propagation: sigma_yaw^2 L^3 / 3 up to the step's discretisation. */
  assert_true(fabs(P[4] / (1e-4 * L * L * L / 3) - 1) < 0.01);
  if (fabs(v[1] / P[4] - 1) > tol) fail_msg("y variance %g m^2, model %g m^2", v[1], P[4]);
  /* The walk is the seed's: the same seed gives the same bits. */
  sensim__odom_drift a, b;
  sensim__odom_drift_init(&a, &p, 7);
  sensim__odom_drift_init(&b, &p, 7);
  for (int k = 0; k < 100; k++) {
    sensim_pose truth = {{k * 0.02, 0, 0}, {1, 0, 0, 0}};
    sensim__odom_drift_step(&a, truth, k * 0.02);
    sensim__odom_drift_step(&b, truth, k * 0.02);
  }
  assert_memory_equal(a.est, b.est, sizeof a.est);
}

/* A scenario's "record" section: checked at load (keys, types, sigmas)
 * and, for odom_body, before the run makes any folder; its frame names
 * reach the recording. */
#define SCN_HEAD                                                                                   \
  "{\"duration\": 0.1, \"step\": 0.01,"                                                           \
  " \"bodies\": [{\"name\": \"cart\", \"motion\": {\"type\": \"line\", \"start\": [0, 0, 0], \"velocity\": [1, 0, 0]}}]," \
  " \"sensors\": [{\"name\": \"imu\", \"type\": \"imu\", \"body\": \"cart\", \"rate\": 50}], \"record\": "

static sensim_status load(const char *record, sensim_scenario **scn) {
  char text[1024];
  snprintf(text, sizeof text, "%s%s}", SCN_HEAD, record);
  return sensim_scenario_load_string(text, NULL, scn);
}

static void test_scenario_record_section_is_checked_and_names_the_frames(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  assert_int_equal(load("{\"bogus\": 1}", &scn), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "bogus"));
  assert_int_equal(load("{\"odom_frame\": 3}", &scn), SENSIM_EPARSE);
  assert_int_equal(load("{\"odom_drift\": {\"sigma_xy\": -1}}", &scn), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "sigma_xy"));
  assert_null(scn);
  SENSIM_OK_OR_FAIL(load("{\"odom_body\": \"nobody\"}", &scn));
  sensim_scenario_run_options o;
  sensim_scenario_run_options_init(&o);
  o.out_dir = TMP "/scn_bad";
  o.mcap = TMP "/scn_bad.mcap";
  assert_int_equal(sensim_scenario_run_ex(scn, &o, NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "record.odom_body: 'nobody'"));
  assert_null(fopen(TMP "/scn_bad/imu/imu.csv", "r"));
  sensim_scenario_destroy(scn);
  SENSIM_OK_OR_FAIL(load("{\"map_frame\": \"world\", \"odom_frame\": \"odo\","
                         " \"odom_drift\": {\"sigma_xy_time\": 0.01, \"sigma_yaw_time\": 0.001}}", &scn));
  o.out_dir = TMP "/scn_ok";
  o.mcap = TMP "/scn_ok.mcap";
  SENSIM_OK_OR_FAIL(sensim_scenario_run_ex(scn, &o, NULL));
  sensim_scenario_destroy(scn);
  mcap_file mf;
  read_mcap(TMP "/scn_ok.mcap", &mf);
  tf_in tf[3];
  assert_int_equal(read_tf(nth(&mf, "/tf", 3), tf, 3), 2);
  assert_string_equal(tf[0].parent, "world");
  assert_string_equal(tf[0].child, "odo");
  assert_string_equal(tf[1].parent, "odo");
  assert_string_equal(tf[1].child, "cart");
  assert_true(pose_gap(tf[0].pose, sensim_pose_identity()) > 0); /* drifting with time alone */
  free_mcap(&mf);
}

int sensim_test_record_frames(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tf_tree_is_map_odom_bodies_with_configured_names),
      cmocka_unit_test(test_bad_frame_names_and_drift_are_refused),
      cmocka_unit_test(test_odometry_drift_variance_grows_linearly_with_distance),
      cmocka_unit_test(test_scenario_record_section_is_checked_and_names_the_frames),
  };
  return cmocka_run_group_tests_name("record_frames", tests, setup, NULL);
}
