/* Lidar: ranges and intensities against the closed form for a plane,
 * channel table, column timing, bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"

typedef struct plane_scene {
  sensim_world *w;
  sensim_vec3 n, p0; /* world normal and a point of the plane */
  double half;       /* half extent of the square plane, m */
  double refl;
} plane_scene;

/* A 40 m square plane at distance `dist` ahead, tilted by `tilt` about Z
 * (so beams meet it at varied incidence). */
static plane_scene make_plane(double dist, double tilt) {
  plane_scene ps;
  ps.w = test_world(0, 3);
  ps.half = 20.0;
  ps.refl = 0.8;
  sensim_material mat;
  sensim_material_init(&mat);
  mat.reflectance = (float)ps.refl;
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {2 * ps.half, 2 * ps.half, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(ps.w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){dist, 0, 0};
  /* Plane normal +Z turned to -X by -90 deg about Y, then tilted about Z. */
  sensim_quat qy = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2);
  sensim_quat qz = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, tilt);
  sensim_pose a = {{0, 0, 0}, qz}, b = {{0, 0, 0}, qy};
  bp.pose.rot = sensim_pose_compose(a, b).rot;
  sensim_body *body = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(ps.w, &bp, &body));
  ps.n = sensim_quat_rotate(bp.pose.rot, (sensim_vec3){0, 0, 1});
  ps.p0 = bp.pose.pos;
  return ps;
}

static void test_lidar_range_to_tilted_plane_matches_closed_form(void **state) {
  (void)state;
  plane_scene ps = make_plane(10.0, 0.5);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 16;
  lp.columns = 720;
  sensim_sensor *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(ps.w, &sp, &lp, &lid));
  SENSIM_OK_OR_FAIL(sensim_world_advance(ps.w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_BEAMS);
  assert_int_equal(f->count, 16 * 720);
  const sensim_beam *b = f->data;
  int hits = 0, checked = 0;
  for (size_t i = 0; i < f->count; i++) {
    double ce = cos(b[i].elevation);
    sensim_vec3 d = {ce * cos(b[i].azimuth), ce * sin(b[i].azimuth), sin(b[i].elevation)};
    double dn = d.x * ps.n.x + d.y * ps.n.y + d.z * ps.n.z;
    double r = (ps.p0.x * ps.n.x + ps.p0.y * ps.n.y + ps.p0.z * ps.n.z) / dn; /* sensor at origin */
    if (!(r > lp.min_range && r < lp.max_range)) {
      /* Behind the sensor or beyond its range: no return, whatever the
       * plane's extent. */
      checked++;
      assert_true(b[i].range == 0.0f);
      continue;
    }
    sensim_vec3 q = {r * d.x - ps.p0.x, r * d.y - ps.p0.y, r * d.z - ps.p0.z};
    double inplane = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (inplane > ps.half * 0.98) continue; /* near or past the square's edge */
    checked++;
    hits++;
    assert_true(b[i].range > 0);
    assert_near(b[i].range, r, 1e-4 * r);
    assert_near(b[i].intensity, ps.refl * fabs(dn), 1e-5);
  }
  assert_true(hits > 1000);
  assert_true(checked > hits);
  sensim_world_destroy(ps.w);
}

static void test_lidar_channel_table_and_column_times(void **state) {
  (void)state;
  plane_scene ps = make_plane(5.0, 0.0);
  const double el[4] = {-0.2, -0.05, 0.0, 0.15};
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20.0;
  sp.phase = 0.1;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 4;
  lp.elevations = el;
  lp.columns = 100;
  lp.hfov = M_PI / 2;
  lp.start_azimuth = -M_PI / 4;
  sensim_sensor *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(ps.w, &sp, &lp, &lid));
  assert_near(sensim_sensor_params_get(lid)->window, 0.05, 0.0); /* default: one revolution */
  SENSIM_OK_OR_FAIL(sensim_world_advance(ps.w, 0.1));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &f));
  assert_non_null(f);
  const sensim_beam *b = f->data;
  for (int j = 0; j < 100; j++)
    for (int c = 0; c < 4; c++) {
      const sensim_beam *x = &b[j * 4 + c];
      assert_int_equal(x->ring, c);
      assert_near(x->elevation, el[c], 1e-7);
      assert_near(x->azimuth, -M_PI / 4 + (M_PI / 2) * j / 100, 1e-6);
      /* Column j fires at t_capture - window + window j / columns. */
      assert_near(x->time_offset, -0.05 + 0.05 * j / 100, 1e-7);
      /* A wall 5 m ahead facing the sensor: r = 5 / (cos(el) cos(az)). */
      assert_near(x->range, 5.0 / (cos(el[c]) * cos(x->azimuth)), 1e-3);
    }
  sensim_world_destroy(ps.w);
}

static void test_lidar_points_filter_gives_cartesian_cloud(void **state) {
  (void)state;
  plane_scene ps = make_plane(5.0, 0.0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.columns = 360;
  sensim_sensor *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(ps.w, &sp, &lp, &lid));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(lid, "points", NULL));
  assert_int_equal(sensim_sensor_output_type(lid), SENSIM_PAYLOAD_POINTS);
  SENSIM_OK_OR_FAIL(sensim_world_advance(ps.w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &f));
  assert_non_null(f);
  const sensim_point *p = f->data;
  assert_true(f->count > 100 && f->count < 16 * 360);
  for (size_t i = 0; i < f->count; i++) assert_near(p[i].x, 5.0, 1e-3); /* all on the wall */
  sensim_world_destroy(ps.w);
}

static void test_lidar_rejects_bad_params(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_lidar_params lp;
  sensim_sensor *s = NULL;
  const double desc[3] = {0.1, 0.0, -0.1};
  for (int k = 0; k < 7; k++) {
    sensim_lidar_params_init(&lp);
    switch (k) {
      case 0: lp.channels = 0; break;
      case 1: lp.columns = 0; break;
      case 2: lp.hfov = 7.0; break;
      case 3: lp.min_range = 5; lp.max_range = 1; break;
      case 4: lp.max_range = INFINITY; break;
      case 5: lp.channels = 3; lp.elevations = desc; break;
      case 6: lp.elev_min = NAN; break;
    }
    assert_int_equal(sensim_lidar_create(w, &sp, &lp, &s), SENSIM_EINVAL);
  }
  assert_int_equal(sensim_world_sensor_count(w), 0);
  sensim_lidar_params_init(&lp);
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
  sensim_world_destroy(w);
}

int sensim_test_lidar(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_range_to_tilted_plane_matches_closed_form),
      cmocka_unit_test(test_lidar_channel_table_and_column_times),
      cmocka_unit_test(test_lidar_points_filter_gives_cartesian_cloud),
      cmocka_unit_test(test_lidar_rejects_bad_params),
  };
  return cmocka_run_group_tests_name("lidar", tests, NULL, NULL);
}
