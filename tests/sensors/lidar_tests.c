/* tests/sensors/lidar_tests.c: the lidar's geometry and timing. Ranges and
 * intensities against the closed form for a plane, the channel table,
 * column and firing times (counter-clockwise, clockwise, grid read-out),
 * blanking, detection against the lidar equation and fog, the "points"
 * filter, and refused parameters. The speed paths (scene cache, batched
 * random streams, SIMD kernels) are in lidar_speed_tests.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/vecmath.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

static void test_lidar_range_to_tilted_plane_matches_closed_form(void **state) {
  (void)state;
  plane_scene ps = make_plane(10.0, 0.5);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 16;
  lp.columns = 720;
  lp.detection_range = 1e4;  /* geometry only: every surface within range is detected */
  lp.intensity_bits = 16;
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
    assert_near(b[i].intensity, ps.refl * fabs(dn), 1e-5 + 0.5 / 65535.0); /* 16-bit intensity */
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

static const sensim_frame *scan_once(sensim_world *w, const sensim_lidar_params *lp, sensim_sensor **out) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, lp, out));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(*out, &f));
  assert_non_null(f);
  return f;
}

static void test_lidar_intensity_per_triangle_and_quantised(void **state) {
  (void)state;
  sensim_world *w = two_tone_wall(8.0, 0.2f, 0.9f);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.columns = 360;
  lp.intensity_bits = 8;
  sensim_sensor *s = NULL;
  const sensim_frame *f = scan_once(w, &lp, &s);
  const sensim_beam *b = f->data;
  int lower = 0, upper = 0;
  for (size_t i = 0; i < f->count; i++) {
    if (!(b[i].range > 0)) continue;
    double ce = cos(b[i].elevation);
    double dx = ce * cos(b[i].azimuth), dy = ce * sin(b[i].azimuth), dz = sin(b[i].elevation);
    double r = 8.0 / dx;
    double y = r * dy, z = r * dz;
    if (fabs(y + z) < 0.05) continue; /* on the diagonal */
    double rho = (z < -y) ? 0.2 : 0.9; /* lower-left triangle: below the line z = -y */
    lower += rho < 0.5;
    upper += rho > 0.5;
    double expect = rho * dx; /* |cos(incidence)| = the ray's x component */
    assert_near(b[i].range, r, 1e-4 * r);
    /* Quantised to 8 bits: a multiple of 1/255 within half a step. */
    double q = b[i].intensity * 255.0;
    assert_near(q, nearbyint(q), 1e-3);
    assert_near(b[i].intensity, expect, 0.5 / 255.0 + 1e-6);
  }
  assert_true(lower > 100 && upper > 100);
  sensim_world_destroy(w);
}

static void test_lidar_detection_follows_lidar_equation_and_fog(void **state) {
  (void)state;
  /* Detected iff rho exp(-2 beta R) / R^2 >= 0.8 / Rd^2 at normal incidence. */
  const double Rd = 50.0;
  const double dists[3] = {30.0, 55.0, 60.0};
  const float refl[3] = {0.8f, 0.8f, 0.2f};
  const double fog[3] = {0.0, 0.0, 0.0};
  const int expect[3] = {1, 0, 0};
  for (int k = 0; k < 4; k++) {
    double d = k < 3 ? dists[k] : 30.0;
    sensim_world *w = two_tone_wall(d, k < 3 ? refl[k] : 0.8f, k < 3 ? refl[k] : 0.8f);
    sensim_lidar_params lp;
    sensim_lidar_params_init(&lp);
    lp.channels = 1;
    lp.elev_min = lp.elev_max = 0.0;
    lp.columns = 4;
    lp.start_azimuth = 0.0;
    lp.detection_range = Rd;
    /* k = 3: fog with visibility 40 m: beta = 3.912 / 40, so at 30 m the
     * two-way transmission exp(-2 beta 30) = 0.0028 hides the wall. */
    lp.fog_visibility = k < 3 ? fog[k] : 40.0;
    sensim_sensor *s = NULL;
    const sensim_frame *f = scan_once(w, &lp, &s);
    const sensim_beam *b = f->data; /* column 0 looks straight at the wall */
    int detected = b[0].range > 0;
    assert_int_equal(detected, k < 3 ? expect[k] : 0);
    if (detected) assert_near(b[0].range, d, 1e-4);
    sensim_world_destroy(w);
  }
}

static void test_lidar_clockwise_firing_offsets_and_blanking(void **state) {
  (void)state;
  sensim_world *w = two_tone_wall(5.0, 0.5f, 0.5f);
  /* A small plate 5 cm ahead of the sensor, inside the 0.1 m blanking. */
  sensim_material m;
  sensim_material_init(&m);
  sensim_mesh *plate = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.01, 0.02, 0.004}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &plate));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = plate;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){0.05, 0, 0};
  sensim_body *b0 = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b0));
  const double el[2] = {0.0, 0.1}, fire[2] = {0.0, 2e-6};
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 2;
  lp.elevations = el;
  lp.firing_offsets = fire;
  lp.columns = 36;
  lp.start_azimuth = 0.0;
  lp.clockwise = 1;
  sensim_sensor *s = NULL;
  const sensim_frame *f = scan_once(w, &lp, &s);
  const sensim_beam *b = f->data;
  for (int j = 0; j < 36; j++)
    for (int c = 0; c < 2; c++) {
      const sensim_beam *x = &b[j * 2 + c];
      /* Clockwise: azimuth decreases by column, and by the angle the head
       * turns during the channel's firing delay (2 pi per 0.1 s window). */
      double az = -2.0 * M_PI * j / 36 - 2.0 * M_PI / 0.1 * fire[c];
      assert_near(cos(x->azimuth), cos(az), 1e-6);
      assert_near(sin(x->azimuth), sin(az), 1e-6);
      assert_near(x->time_offset, -0.1 + 0.1 * j / 36 + fire[c], 1e-7);
    }
  /* Column 0 channel 0 points at the plate: blanked, and the plate blocks
   * the wall behind it. Channel 1 (0.1 rad up) passes above the plate. */
  assert_true(b[0].range == 0.0f);
  assert_near(b[1].range, 5.0 / cos(0.1), 1e-3);
  sensim_world_destroy(w);
}

static void test_lidar_grid_reads_row_by_row(void **state) {
  (void)state;
  sensim_world *w = two_tone_wall(5.0, 0.5f, 0.5f);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.pattern = SENSIM_LIDAR_GRID;
  lp.channels = 4;
  lp.elev_min = -0.1;
  lp.elev_max = 0.1;
  lp.columns = 8;
  lp.hfov = 0.4;
  lp.start_azimuth = -0.2;
  sensim_sensor *s = NULL;
  const sensim_frame *f = scan_once(w, &lp, &s);
  const sensim_beam *b = f->data;
  for (int j = 0; j < 8; j++)
    for (int c = 0; c < 4; c++) {
      /* Point (row c, column j) is read at window (c N + j) / (C N). */
      assert_near(b[j * 4 + c].time_offset, -0.1 + 0.1 * (c * 8 + j) / 32.0, 1e-7);
      assert_true(b[j * 4 + c].range > 0);
    }
  sensim_world_destroy(w);
}

static void test_lidar_rejects_bad_params(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_lidar_params lp;
  sensim_sensor *s = NULL;
  const double nan_el[3] = {0.1, NAN, 0.0};
  const double slow_fire[2] = {0.0, 2e-4};
  for (int k = 0; k < 13; k++) {
    sensim_lidar_params_init(&lp);
    switch (k) {
      case 0: lp.channels = 0; break; /* an empty beam table */
      case 1: lp.columns = 0; break;
      case 2: lp.hfov = 7.0; break;
      case 3: lp.min_range = 5; lp.max_range = 1; break;
      case 4: lp.max_range = INFINITY; break;
      case 5: lp.channels = 3; lp.elevations = nan_el; break;
      case 6: lp.elev_min = NAN; break;
      case 7: lp.subrays = 4; break; /* sub-rays without divergence */
      case 8: lp.intensity_bits = 0; break;
      case 9: lp.range_resolution = 0; break;
      case 10: lp.returns = (sensim_return_mode)9; break;
      case 11: lp.div_h = -0.001; break;
      case 12: /* a 0.2 ms firing delay cannot fit in the 0.1 ms columns of 1000 per 0.1 s */
        lp.channels = 2;
        lp.elev_min = -0.1;
        lp.elev_max = 0.1;
        lp.firing_offsets = slow_fire;
        lp.columns = 1000;
        break;
    }
    assert_int_equal(sensim_lidar_create(w, &sp, &lp, &s), SENSIM_EINVAL);
  }
  /* A head that does not turn (rate 0) cannot scan. */
  sensim_lidar_params_init(&lp);
  sp.rate = 0.0;
  assert_int_equal(sensim_lidar_create(w, &sp, &lp, &s), SENSIM_EINVAL);
  sp.rate = 10.0;
  assert_int_equal(sensim_world_sensor_count(w), 0);
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
  sensim_world_destroy(w);
}

int sensim_test_lidar(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_range_to_tilted_plane_matches_closed_form),
      cmocka_unit_test(test_lidar_channel_table_and_column_times),
      cmocka_unit_test(test_lidar_points_filter_gives_cartesian_cloud),
      cmocka_unit_test(test_lidar_intensity_per_triangle_and_quantised),
      cmocka_unit_test(test_lidar_detection_follows_lidar_equation_and_fog),
      cmocka_unit_test(test_lidar_clockwise_firing_offsets_and_blanking),
      cmocka_unit_test(test_lidar_grid_reads_row_by_row),
      cmocka_unit_test(test_lidar_rejects_bad_params),
  };
  return cmocka_run_group_tests_name("lidar", tests, NULL, NULL);
}
