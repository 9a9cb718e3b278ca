/* tests/gnss/receiver_tests.c: the receiver through the world / schedule /
 * poll path: speed and course, the collection window, reported satellites
 * and DOPs, and its bad-input paths. */
#include <string.h>
#include "gnss/gnss_groups.h"
#include "support/testutil.h"

static sensim_world *world0(void) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = 0;
  p.origin_lat = gt_origin[0];
  p.origin_lon = gt_origin[1];
  p.origin_height = gt_origin[2];
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

static sensim_body *body(sensim_world *w) {
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return b;
}

static void check_course(double ve, double vn, double speed, double course) {
  sensim_gnss_fix f;
  memset(&f, 0, sizeof f);
  f.vel_enu[0] = ve;
  f.vel_enu[1] = vn;
  f.vel_enu[2] = 7.0; /* climbing does not count in speed over ground */
  sensim_gnss_fill_speed_course(&f);
  assert_near(f.speed, speed, 1e-12 * (1.0 + speed));
  assert_near(f.course, course, 1e-10);
  assert_true(f.course >= 0.0 && f.course < 360.0);
}

static void test_speed_and_course_match_closed_form(void **state) {
  (void)state;
  /* Course is the azimuth clockwise from north: atan2(east, north). */
  check_course(0.0, 2.0, 2.0, 0.0);
  check_course(2.0, 0.0, 2.0, 90.0);
  check_course(0.0, -2.0, 2.0, 180.0);
  check_course(-2.0, 0.0, 2.0, 270.0);
  check_course(1.0, 1.0, sqrt(2.0), 45.0);
  check_course(-3.0, 4.0, 5.0, 360.0 - atan(3.0 / 4.0) * 180.0 / M_PI);
  check_course(3.0, -4.0, 5.0, 180.0 - atan(3.0 / 4.0) * 180.0 / M_PI);
  /* At rest, and below SENSIM_GNSS_COURSE_MIN_SPEED, the course is 0. */
  check_course(0.0, 0.0, 0.0, 0.0);
  check_course(-1e-12, -1e-12, sqrt(2.0) * 1e-12, 0.0);
  /* Just west of north: -tiny + 360 rounds to 360, reported as [0, 360). */
  sensim_gnss_fix f;
  memset(&f, 0, sizeof f);
  f.vel_enu[0] = -1e-17;
  f.vel_enu[1] = 1.0;
  sensim_gnss_fill_speed_course(&f);
  assert_true(f.course >= 0.0 && f.course < 360.0);
  assert_true(f.course < 1e-9 || f.course > 360.0 - 1e-9);
}

/* Push p(t) = p0 + v0 t + a t^2 / 2 with its exact velocity and acceleration
 * every h seconds, and collect the fixes. */
static int run_track(sensim_world *w, sensim_body *car, sensim_sensor *g, double h, int nsteps,
                     const double p0[3], const double v0[3], const double a[3],
                     sensim_gnss_fix *fixes, double *times, int maxfix) {
  int n = 0;
  for (int i = 0; i <= nsteps; i++) {
    double t = i * h;
    sensim_body_state s;
    memset(&s, 0, sizeof s);
    s.pose = sensim_pose_identity();
    s.pose.pos = (sensim_vec3){p0[0] + v0[0] * t + 0.5 * a[0] * t * t,
                               p0[1] + v0[1] * t + 0.5 * a[1] * t * t,
                               p0[2] + v0[2] * t + 0.5 * a[2] * t * t};
    s.lin_vel = (sensim_vec3){v0[0] + a[0] * t, v0[1] + a[1] * t, v0[2] + a[2] * t};
    s.lin_acc = (sensim_vec3){a[0], a[1], a[2]};
    s.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f = NULL;
    while (sensim_sensor_poll(g, &f) == SENSIM_OK && f) {
      if (n < maxfix) {
        fixes[n] = *(const sensim_gnss_fix *)f->data;
        times[n] = f->t_capture;
        n++;
      }
    }
  }
  return n;
}

/* Window averaging on a constant-acceleration track. The exact time mean of
 * p over [t - w, t] is p(t) - v(t) w / 2 + a w^2 / 6 and of v is
 * v(t) - a w / 2. The receiver averages the keyframe track, which is linear
 * between keyframes h apart; the trapezoid rule on a quadratic overestimates
 * its mean by exactly a h^2 / 12 (composite trapezoid error (b - a) h^2
 * f'' / 12, Press et al., "Numerical Recipes", 3rd ed., eq. 4.2.4, exact for
 * quadratics), so the expected mean includes that term; velocity is linear
 * in t and averages exactly. A receiver that sampled instead of averaging
 * would miss by v w / 2 (0.2 m here). */
static void test_window_average_on_constant_acceleration_track_matches_closed_form(void **state) {
  (void)state;
  sensim_world *w = world0();
  sensim_body *car = body(w);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sp.rate = 10.0;
  sp.window = 0.1;
  sp.mount.pos = (sensim_vec3){0.5, -0.25, 1.2};
  sensim_sensor *g = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g));
  const double p0[3] = {10.0, -4.0, 1.0}, v0[3] = {4.0, -2.0, 0.5}, a[3] = {2.0, 1.0, -0.3};
  const double h = 0.01, win = 0.1;
  sensim_gnss_fix fixes[16];
  double times[16];
  int n = run_track(w, car, g, h, 100, p0, v0, a, fixes, times, 16);
  assert_true(n >= 9);
  const double mount[3] = {0.5, -0.25, 1.2};
  for (int k = 1; k < n; k++) { /* k = 0's window starts before the track */
    double t = times[k];
    for (int i = 0; i < 3; i++) {
      double pt = p0[i] + v0[i] * t + 0.5 * a[i] * t * t + mount[i];
      double vt = v0[i] + a[i] * t;
      double mean_p = pt - vt * win / 2.0 + a[i] * win * win / 6.0 + a[i] * h * h / 12.0;
      assert_near(fixes[k].enu[i], mean_p, 1e-9);
      assert_near(fixes[k].vel_enu[i], vt - a[i] * win / 2.0, 1e-9);
    }
    double lat, lon, hh;
    sensim_enu_to_geodetic(gt_origin, fixes[k].enu, &lat, &lon, &hh);
    assert_near(fixes[k].lat, lat, 1e-12);
    assert_near(fixes[k].lon, lon, 1e-12);
    assert_near(fixes[k].height, hh, 1e-9);
    assert_near(fixes[k].speed, hypot(fixes[k].vel_enu[0], fixes[k].vel_enu[1]), 1e-12);
  }
  sensim_world_destroy(w);
}

static void test_zero_window_is_instantaneous_fix_with_reported_dops(void **state) {
  (void)state;
  sensim_world *w = world0();
  sensim_body *car = body(w);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sp.rate = 5.0;
  sensim_gnss_params gp;
  sensim_gnss_params_init(&gp);
  assert_int_equal(gp.satellites, 10);
  gp.satellites = 7;
  gp.hdop = 1.1;
  gp.vdop = 0.0;
  sensim_sensor *g = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &g));
  assert_near(sensim_sensor_params_get(g)->window, 0.0, 0.0);
  const double p0[3] = {1.0, 2.0, 3.0}, v0[3] = {-3.0, 4.0, 0.0}, a[3] = {0.5, 0.0, 0.0};
  sensim_gnss_fix fixes[16];
  double times[16];
  int n = run_track(w, car, g, 0.01, 100, p0, v0, a, fixes, times, 16);
  assert_true(n >= 5);
  for (int k = 0; k < n; k++) {
    double t = times[k];
    for (int i = 0; i < 3; i++) {
      /* Position is interpolated linearly between keyframes 0.01 s apart:
       * at most a h^2 / 8 off the parabola between them. */
      assert_near(fixes[k].enu[i], p0[i] + v0[i] * t + 0.5 * a[i] * t * t, a[i] * 1e-4 / 8 + 1e-9);
      assert_near(fixes[k].vel_enu[i], v0[i] + a[i] * t, 1e-9);
    }
    double ve = v0[0] + a[0] * t, vn = v0[1];
    assert_near(fixes[k].speed, hypot(ve, vn), 1e-9);
    assert_near(fixes[k].course, 360.0 + atan2(ve, vn) * 180.0 / M_PI, 1e-7);
    assert_int_equal(fixes[k].satellites, 7);
    assert_near(fixes[k].hdop, 1.1, 0.0);
    assert_near(fixes[k].vdop, 0.0, 0.0);
    assert_near(fixes[k].pdop, 1.1, 1e-15);
    assert_int_equal(fixes[k].fix_type, 1);
    for (int i = 0; i < 9; i++) assert_true(fixes[k].cov_enu[i] == 0.0);
  }
  sensim_world_destroy(w);
}

static void test_default_receiver_reports_nominal_dops(void **state) {
  (void)state;
  sensim_world *w = world0();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *g = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(g, &f));
  assert_non_null(f);
  const sensim_gnss_fix *fix = f->data;
  assert_int_equal(fix->satellites, 10);
  assert_near(fix->hdop, 0.9, 0.0);
  assert_near(fix->vdop, 1.5, 0.0);
  assert_near(fix->pdop, sqrt(0.81 + 2.25), 1e-15);
  assert_near(fix->speed, 0.0, 0.0);
  assert_near(fix->course, 0.0, 0.0);
  /* A world-fixed antenna at the identity mount sits at the origin. */
  assert_near(fix->lat, gt_origin[0], 1e-12);
  assert_near(fix->height, gt_origin[2], 1e-9);
  sensim_world_destroy(w);
}

static void test_window_longer_than_update_period_is_refused(void **state) {
  (void)state;
  sensim_world *w = world0();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10.0;
  sp.window = 0.2;
  sensim_sensor *g = NULL;
  assert_int_equal(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "window"));
  assert_null(g);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  /* Exactly one period (as computed by the caller) is allowed. */
  sp.rate = 3.0;
  sp.window = 1.0 / 3.0;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g));
  assert_int_equal(sensim_world_sensor_count(w), 1);
  sensim_world_destroy(w);
}

static void test_bad_receiver_params_are_refused_and_world_stays_usable(void **state) {
  (void)state;
  sensim_world *w = world0();
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_gnss_params gp;
  sensim_sensor *g = NULL;
  struct {
    int sats;
    double hdop, vdop;
  } bad[] = {{-1, 1, 1},  {100, 1, 1},       {10, NAN, 1},      {10, -0.5, 1},
             {10, 1000, 1}, {10, 1, INFINITY}, {10, 1, -1e-300}, {10, 1, NAN}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_gnss_params_init(&gp);
    gp.satellites = bad[i].sats;
    gp.hdop = bad[i].hdop;
    gp.vdop = bad[i].vdop;
    assert_int_equal(sensim_gnss_create(w, &sp, &gp, &g), SENSIM_EINVAL);
    assert_true(strlen(sensim_last_error()) > 0);
  }
  sensim_gnss_params_init(&gp);
  assert_int_equal(sensim_gnss_create(NULL, &sp, &gp, &g), SENSIM_EINVAL);
  assert_int_equal(sensim_gnss_create(w, NULL, &gp, &g), SENSIM_EINVAL);
  assert_int_equal(sensim_gnss_create(w, &sp, &gp, NULL), SENSIM_EINVAL);
  sp.rate = NAN;
  assert_int_equal(sensim_gnss_create(w, &sp, &gp, &g), SENSIM_EINVAL);
  sp.rate = 10.0;
  sp.window = NAN;
  assert_int_equal(sensim_gnss_create(w, &sp, &gp, &g), SENSIM_EINVAL);
  sp.window = -1.0;
  assert_int_equal(sensim_world_sensor_count(w), 0);
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, &gp, &g));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(g, &f));
  assert_non_null(f);
  sensim_world_destroy(w);
}

static void test_world_origin_latitude_outside_range_is_refused(void **state) {
  (void)state;
  const double bad[] = {90.000001, -90.5, 180.0, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sensim_world_params p;
    sensim_world_params_init(&p);
    p.threads = 0;
    p.origin_lat = bad[i];
    sensim_world *w = NULL;
    assert_int_equal(sensim_world_create(&p, &w), SENSIM_EINVAL);
    assert_null(w);
    assert_non_null(strstr(sensim_last_error(), "origin_lat"));
  }
  const double good[] = {90.0, -90.0};
  for (size_t i = 0; i < 2; i++) {
    sensim_world_params p;
    sensim_world_params_init(&p);
    p.threads = 0;
    p.origin_lat = good[i];
    sensim_world *w = NULL;
    SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
    sensim_world_destroy(w);
  }
}

/* Stateful error filters keep their state per sensor and run frames in
 * order, so the same seed gives bit-identical fixes with 0 or 2 worker
 * threads (DESIGN.md, "Randomness and determinism"). */
static void run_chain(int threads, sensim_gnss_fix *out, int nmax, int *n) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.seed = 77;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  sensim_body *car = body(w);
  sensim_sensor *g[3];
  for (int i = 0; i < 3; i++) {
    sensim_sensor_params sp;
    sensim_sensor_params_init(&sp);
    sp.body = car;
    sp.rate = 20.0;
    sp.window = 0.02;
    SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g[i]));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g[i], "gnss_random_walk", "{\"accel_sigma\": 0.5}"));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g[i], "gnss_gauss_markov", NULL));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g[i], "gnss_noise", NULL));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g[i], "gnss_hdop", NULL));
  }
  *n = 0;
  for (int k = 0; k <= 300; k++) {
    double t = k * 0.01;
    sensim_body_state s = test_state_xyzyaw(3.0 * t, sin(t), 0.0, 0.2 * t);
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    for (int i = 0; i < 3; i++) {
      const sensim_frame *f = NULL;
      while (sensim_sensor_poll(g[i], &f) == SENSIM_OK && f)
        if (*n < nmax) out[(*n)++] = *(const sensim_gnss_fix *)f->data;
    }
  }
  sensim_world_destroy(w);
}

static void test_stateful_chains_are_bit_identical_for_any_thread_count(void **state) {
  (void)state;
  static sensim_gnss_fix a[256], b[256];
  int na = 0, nb = 0;
  run_chain(0, a, 256, &na);
  run_chain(2, b, 256, &nb);
  assert_int_equal(na, 3 * 61);
  assert_int_equal(na, nb);
  assert_memory_equal(a, b, sizeof a[0] * (size_t)na);
  /* The three receivers' errors differ (streams keyed by sensor). */
  assert_true(a[0].enu[0] != a[1].enu[0]);
}

int sensim_test_gnss_receiver(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_speed_and_course_match_closed_form),
      cmocka_unit_test(test_window_average_on_constant_acceleration_track_matches_closed_form),
      cmocka_unit_test(test_zero_window_is_instantaneous_fix_with_reported_dops),
      cmocka_unit_test(test_default_receiver_reports_nominal_dops),
      cmocka_unit_test(test_window_longer_than_update_period_is_refused),
      cmocka_unit_test(test_bad_receiver_params_are_refused_and_world_stays_usable),
      cmocka_unit_test(test_world_origin_latitude_outside_range_is_refused),
      cmocka_unit_test(test_stateful_chains_are_bit_identical_for_any_thread_count),
  };
  return cmocka_run_group_tests_name("gnss_receiver", tests, NULL, NULL);
}
