/* Lidar: ranges and intensities against the closed form for a plane,
 * channel table, column timing, bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/vecmath.h"
#include "rt/rt.h"
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


/* A plane of two triangles with their own lidar reflectances. */
static sensim_world *two_tone_wall(double dist, float r_lower, float r_upper) {
  sensim_world *w = test_world(0, 5);
  /* The wall x = dist, y in [-20, 20], z in [-20, 20]; the lower-left
   * triangle (z below the diagonal) and the upper-right one. */
  const float v[12] = {(float)dist, 20, -20, (float)dist, -20, -20, (float)dist, -20, 20, (float)dist, 20, 20};
  const uint32_t ix[6] = {0, 1, 2, 0, 2, 3};
  const float tr[2] = {r_lower, r_upper};
  sensim_mesh_desc d = {v, NULL, 4, ix, 2, tr, NULL};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return w;
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

/* ---- speed paths: the scene cache and the batched random streams -------- */

/* A view of the snapshot at time t: [t, t], so every body has one step. */
static void view_at(sensim_world *w, double t, sensim_snapshot **snap, sensim_rt_binding **bind,
                    sensim_rt_view **view) {
  SENSIM_OK_OR_FAIL(sensim__snapshot_take(w, t, t, 1, -1, snap));
  SENSIM_OK_OR_FAIL(sensim__rt_bind(w, *snap, bind));
  SENSIM_OK_OR_FAIL(sensim__rt_view_create(*bind, *snap, view));
}

static float range_along_x(const sensim_rt_view *v) {
  sensim_rt_ray r = {{0, 0, 0}, {1, 0, 0}, 0.0f, INFINITY, 0.0};
  sensim_rt_hit h;
  sensim__rt_intersect(v, &r, &h, 1, 0);
  return h.t;
}

/* A capture whose instances equal the last scene built traces that scene
 * (no rebuild); one where a body moved builds its own and sees the body
 * where it now is; a view made before the cache moved on still traces its
 * own scene. */
static void test_lidar_scene_cache_reuses_only_unchanged_scenes(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *m = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {0.2, 4, 4}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  sensim_body *box = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &box));
  sensim_body_state st = test_state_xyzyaw(5.0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(box, 0.0, &st));
  sensim_snapshot *s1, *s2, *s3;
  sensim_rt_binding *b1, *b2, *b3;
  sensim_rt_view *v1, *v2, *v3;
  view_at(w, 0.0, &s1, &b1, &v1);
  unsigned long built = sensim__rt_scene_builds(w);
  assert_true(built >= 1);
  assert_near(range_along_x(v1), 4.9, 1e-5); /* front face at x = 5 - 0.1 */
  /* Pushed again at the same pose: the same instances, the cached scene. */
  SENSIM_OK_OR_FAIL(sensim_body_push_state(box, 0.5, &st));
  view_at(w, 0.5, &s2, &b2, &v2);
  assert_int_equal(sensim__rt_scene_builds(w), built);
  assert_near(range_along_x(v2), 4.9, 1e-5);
  /* Moved by 2 m: a new scene, and the box where it now is. */
  st = test_state_xyzyaw(7.0, 0, 0, 0);
  SENSIM_OK_OR_FAIL(sensim_body_push_state(box, 1.0, &st));
  view_at(w, 1.0, &s3, &b3, &v3);
  assert_int_equal(sensim__rt_scene_builds(w), built + 1);
  assert_near(range_along_x(v3), 6.9, 1e-5);
  /* The views made before still trace the scene of their snapshot. */
  assert_near(range_along_x(v1), 4.9, 1e-5);
  assert_near(range_along_x(v2), 4.9, 1e-5);
  sensim__rt_view_destroy(v1);
  sensim__rt_view_destroy(v3);
  assert_near(range_along_x(v2), 4.9, 1e-5);
  sensim__rt_view_destroy(v2);
  sensim_rt_binding *bs[3] = {b1, b2, b3};
  sensim_snapshot *ss[3] = {s1, s2, s3};
  for (int i = 0; i < 3; i++) {
    sensim__rt_binding_free(bs[i]);
    sensim__snapshot_free(ss[i]);
  }
  sensim_world_destroy(w);
}

/* Through the sensor: a static scene is built once for any number of
 * captures and every capture sees it alike. */
static void test_lidar_static_scene_is_built_once(void **state) {
  (void)state;
  plane_scene ps = make_plane(10.0, 0.3);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10.0;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 8;
  lp.columns = 90;
  sensim_sensor *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(ps.w, &sp, &lp, &lid));
  sensim_beam first[8 * 90];
  unsigned long built = 0;
  for (int k = 0; k < 4; k++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(ps.w, 0.1 * k + 1e-9));
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(lid, &f));
    assert_non_null(f);
    assert_int_equal(f->count, 8 * 90);
    const sensim_beam *b = f->data;
    if (k == 0) {
      memcpy(first, b, sizeof first);
      built = sensim__rt_scene_builds(ps.w);
      assert_int_equal(built, 1);
      continue;
    }
    for (int i = 0; i < 8 * 90; i++) assert_true(b[i].range == first[i].range);
  }
  assert_int_equal(sensim__rt_scene_builds(ps.w), built);
  sensim_world_destroy(ps.w);
}

/* sensim_rng_fill_u32 is n calls of sensim_rng_u32, from any position in
 * the stream and for any n (its SIMD paths cover 4, 8 and 16 blocks). */
static void test_lidar_rng_batch_equals_the_stream(void **state) {
  (void)state;
  uint32_t w[700];
  for (int skip = 0; skip < 6; skip++)
    for (size_t n = 0; n <= 700; n += 23) {
      sensim_rng a, b;
      sensim_rng_init(&a, 0x123456789ull, 7, 11, 3);
      sensim_rng_init(&b, 0x123456789ull, 7, 11, 3);
      for (int i = 0; i < skip; i++) (void)sensim_rng_u32(&a), (void)sensim_rng_u32(&b);
      sensim_rng_fill_u32(&a, w, n);
      for (size_t i = 0; i < n; i++) assert_int_equal(w[i], sensim_rng_u32(&b));
      assert_int_equal(sensim_rng_u32(&a), sensim_rng_u32(&b));
    }
}

/* One scan of the two-tone wall plus a box in front of it (packets mix
 * bodies; the sky beside the wall gives misses), in fog, through
 * "lidar_noise" (its own intensity grid) and optionally "points"; the heap
 * is first filled with 0xFF where the scan's buffer will come from, so a
 * beam the lidar failed to write shows. Returns a copy of the frame's data. */
static void *poisoned_scan(sensim_return_mode mode, int points, size_t *bytes, size_t *count) {
  sensim_world *w = two_tone_wall(12.0, 0.3f, 0.7f);
  test_static_shape(w, SENSIM_SHAPE_BOX, v3(1.0, 2.0, 1.5), v3(6.0, 1.0, 0.0));
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 29; /* not a multiple of 8: a column's last packet is partial */
  lp.elev_min = -0.4;
  lp.elev_max = 0.6;
  lp.columns = 200;
  lp.returns = mode;
  lp.intensity_bits = 8;
  lp.fog_visibility = 300.0;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "lidar_noise", "{\"sigma_intensity\": 0.02, \"intensity_bits\": 8}"));
  if (points) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "points", NULL));
  const size_t R = mode == SENSIM_RETURN_DUAL ? 2 : 1, n = (size_t)lp.columns * lp.channels * R;
  unsigned char *junk = malloc(n * sizeof(sensim_beam));
  assert_non_null(junk);
  memset(junk, 0xFF, n * sizeof(sensim_beam));
  free(junk);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  *count = f->count;
  *bytes = f->count * sensim_payload_elem_size(f->type);
  void *copy = malloc(*bytes ? *bytes : 1);
  assert_non_null(copy);
  memcpy(copy, f->data, *bytes);
  if (!points) { /* every beam written whole: the organised layout, pad 0 */
    const sensim_beam *e = f->data;
    assert_int_equal(f->count, n);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
      assert_int_equal(e[i].return_index, i % R);
      assert_int_equal(e[i].pad, 0);
      assert_true(e[i].ring < lp.channels);
      assert_true(e[i].range >= 0.0f && e[i].range < 200.0f);
      assert_true(e[i].time_offset <= 0.0f && e[i].time_offset > -1.0f);
      hits += e[i].range > 0;
    }
    assert_true(hits > n / (4 * R) && hits < n / R); /* walls, box and sky all seen */
  }
  sensim_world_destroy(w);
  return copy;
}

/* The SIMD kernels on a scan's path (packet beams and normals, the noise
 * filter's perturbation and normals, beams to points) give the bits of
 * their plain twins, and the lidar writes every beam of its buffer. */
static void test_lidar_simd_and_plain_paths_give_the_same_frame(void **state) {
  (void)state;
  const sensim_return_mode modes[2] = {SENSIM_RETURN_STRONGEST, SENSIM_RETURN_DUAL};
  for (int k = 0; k < 4; k++) {
    size_t bytes[2], count[2];
    void *frame[2];
    for (int plain = 0; plain < 2; plain++) {
      atomic_store(&sensim__cpu_avx2_off, plain);
      frame[plain] = poisoned_scan(modes[k / 2], k % 2, &bytes[plain], &count[plain]);
    }
    atomic_store(&sensim__cpu_avx2_off, 0);
    assert_int_equal(count[0], count[1]);
    assert_int_equal(bytes[0], bytes[1]);
    assert_memory_equal(frame[0], frame[1], bytes[0]);
    free(frame[0]);
    free(frame[1]);
  }
}

/* sensim_rng_normal2f_n gives normal2f's pairs to a few float ulps (its ln,
 * sin and cos approximations are good to 3e-8; the worst pair, out at
 * 5.8 sigma, moves by under 4e-6), the same bits whatever the batch size
 * (the scalar, SSE2 and AVX2 paths do the same float operations), and
 * consumes the same words. */
static void test_lidar_rng_batched_normals_match_normal2f(void **state) {
  (void)state;
  enum { P = 20000 };
  float *one = malloc(2 * P * sizeof *one), *all = malloc(2 * P * sizeof *all);
  assert_non_null(one);
  assert_non_null(all);
  sensim_rng a, b, c;
  sensim_rng_init(&a, 42, 1, 2, 3);
  sensim_rng_init(&b, 42, 1, 2, 3);
  sensim_rng_init(&c, 42, 1, 2, 3);
  sensim_rng_normal2f_n(&a, all, P);
  for (size_t i = 0; i < P;) { /* batches of 1, 2, ..., 37 pairs */
    size_t n = 1 + i % 37;
    if (n > P - i) n = P - i;
    sensim_rng_normal2f_n(&b, one + 2 * i, n);
    i += n;
  }
  assert_memory_equal(one, all, 2 * P * sizeof *one);
  double worst = 0.0;
  for (size_t i = 0; i < P; i++) {
    float x, y;
    sensim_rng_normal2f(&c, &x, &y);
    double d = fmax(fabs(x - all[2 * i]), fabs(y - all[2 * i + 1]));
    worst = d > worst ? d : worst;
  }
  assert_true(worst < 4e-6);
  assert_int_equal(sensim_rng_u32(&a), sensim_rng_u32(&c));
  free(one);
  free(all);
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
      cmocka_unit_test(test_lidar_scene_cache_reuses_only_unchanged_scenes),
      cmocka_unit_test(test_lidar_static_scene_is_built_once),
      cmocka_unit_test(test_lidar_rng_batch_equals_the_stream),
      cmocka_unit_test(test_lidar_rng_batched_normals_match_normal2f),
      cmocka_unit_test(test_lidar_simd_and_plain_paths_give_the_same_frame),
  };
  return cmocka_run_group_tests_name("lidar", tests, NULL, NULL);
}
