/* tests/gnss/satellite_sky_tests.c: ray-traced visibility and multipath
 * in an urban canyon whose answer is known in closed form. A probe kind
 * runs the receiver's own measurement step (sensors/gnss_observe.c) in a
 * real capture and keeps what it saw, so each satellite's path (line of
 * sight, reflected, lost) and multipath delay can be checked against the
 * canyon's geometry. */
#include <string.h>
#include "gnss/gnss_groups.h"
#include "sensim/geodesy.h"
#include "sensors/gnss_sat.h"
#include "sensors/traced.h"
#include "support/testutil.h"

/* The canyon: two walls W_HALF m either side of its axis, WALL_H high,
 * WALL_L long, WALL_T thick; the antenna on the axis at ANT_H. */
#define W_HALF 8.0
#define WALL_H 30.0
#define WALL_L 4000.0
#define WALL_T 10.0
#define ANT_H 1.5

static sensim__gnss_obs g_obs[SENSIM__GPS_PRN_MAX];
static int g_n;
static double g_rx[3];

static double no_window(const void *impl, double rate) {
  (void)impl;
  (void)rate;
  return 0.0;
}

static sensim_status probe_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  sensim_rt_view *view = NULL;
  sensim_status st = sensim__traced_view(&ctx, &view);
  double rv[3];
  if (st == SENSIM_OK) st = sensim__gnss_observe(&ctx, view, g_obs, &g_n, g_rx, rv);
  sensim__rt_view_destroy(view);
  return st != SENSIM_OK ? st : sensim_frame_alloc(frame, SENSIM_PAYLOAD_GNSS, 1, 1);
}

static const sensim_sensor_kind probe_kind = {
    .name = "gnss_probe",
    .raw_type = SENSIM_PAYLOAD_GNSS,
    .needs_geometry = 1,
    .default_window = no_window,
    .generate = probe_generate,
    .destroy = sensim__gnss_cfg_free,
    .prepare = sensim__traced_prepare,
    .release_aux = sensim__traced_release,
};

/* A wall along the canyon at yaw phi, on side `side` (+1 left, -1 right). */
static void wall(sensim_world *w, double phi, int side) {
  sensim_material m;
  sensim_material_init(&m);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {WALL_L, WALL_T, WALL_H}, 16};
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  const double off = side * (W_HALF + WALL_T / 2);
  bp.pose.pos = (sensim_vec3){-sin(phi) * off, cos(phi) * off, WALL_H / 2};
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, phi);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
}

/* Observe once (t = 0) from the canyon's axis; walls at yaw phi, or none. */
static void observe(double phi, int walls, const sensim_gnss_params *gp) {
  sensim_world *w = gt_sat_world(0);
  if (walls) {
    wall(w, phi, 1);
    wall(w, phi, -1);
  }
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){0, 0, ANT_H};
  sensim__gnss_cfg *cfg = NULL;
  SENSIM_OK_OR_FAIL(sensim__gnss_cfg_make(&sp, gp, &cfg));
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim__sensor_create(w, &sp, &probe_kind, cfg, &s));
  g_n = -1;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  assert_true(g_n > 0);
  sensim_world_destroy(w);
}

typedef struct expect {
  int state;     /* SENSIM__GNSS_* */
  double extra;  /* m */
  int marginal;  /* within 5 cm of a decision: not checked */
} expect;

/* The canyon in closed form, for world direction d: in the canyon's frame
 * (a along the axis, b across, c up), the line of sight meets the wall on
 * b's side after s = W / |b| at height ANT_H + c s; a blocked satellite is
 * reflected off the facing wall at the same point mirrored, and that
 * reflection reaches the antenna if the wave can pass over the near wall
 * on its way in (height ANT_H + 3 c s at the near facade); its extra path
 * is 2 W |b| (the image method). */
static expect canyon(sensim_vec3 d, double phi) {
  const double a = d.x * cos(phi) + d.y * sin(phi), b = -d.x * sin(phi) + d.y * cos(phi), c = d.z;
  expect e = {SENSIM__GNSS_LOS, 0.0, 0};
  if (fabs(b) < 1e-9) return e;
  const double s = W_HALF / fabs(b);
  const double z1 = ANT_H + c * s, along1 = fabs(a * s);
  const double z3 = ANT_H + 3 * c * s, along3 = fabs(3 * a * s);
  e.marginal = fabs(z1 - WALL_H) < 0.05 || fabs(along1 - WALL_L / 2) < 0.05 || fabs(z3 - WALL_H) < 0.05 ||
               fabs(along3 - WALL_L / 2) < 0.05;
  if (z1 > WALL_H || along1 > WALL_L / 2) return e; /* over or past the wall */
  e.state = (z3 > WALL_H || along3 > WALL_L / 2) ? SENSIM__GNSS_REFLECTED : SENSIM__GNSS_LOST;
  if (e.state == SENSIM__GNSS_REFLECTED) e.extra = 2 * W_HALF * fabs(b);
  return e;
}

/* Every satellite above the mask is classified as the canyon's geometry
 * says, reflected ones carry the extra path 2 W |b| in their pseudorange
 * (the open-sky pseudorange of the same frame and noise plus the delay, to
 * a micrometre), lost ones have no measurement; with multipath off the
 * reflected ones are lost too. Three canyon orientations. */
static void test_urban_canyon_paths_match_closed_form(void **state) {
  (void)state;
  sensim_gnss_params gp;
  gt_sat_params(&gp, 0);
  int seen[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    const double phi = k * M_PI / 3 + 0.2;
    observe(phi, 0, &gp);
    sensim__gnss_obs open[SENSIM__GPS_PRN_MAX];
    const int nopen = g_n;
    memcpy(open, g_obs, sizeof open);
    for (int mp = 1; mp >= 0; mp--) {
      gp.multipath = mp;
      observe(phi, 1, &gp);
      assert_int_equal(g_n, nopen);
      for (int i = 0; i < g_n; i++) {
        const sensim__gnss_obs *o = &g_obs[i];
        assert_int_equal(o->prn, open[i].prn);
        assert_true(open[i].path.state == SENSIM__GNSS_LOS);
        const expect e = canyon(o->dir, phi);
        if (e.marginal) continue;
        const int want = !mp && e.state == SENSIM__GNSS_REFLECTED ? SENSIM__GNSS_LOST : e.state;
        if (o->path.state != want)
          fail_msg("canyon %d, PRN %d (el %.1f, az %.1f deg): path %d, expected %d", k, o->prn, o->el * 180 / M_PI,
                   o->az * 180 / M_PI, o->path.state, want);
        seen[want]++;
        if (want == SENSIM__GNSS_LOST) {
          assert_true(isnan(o->pseudorange) && isnan(o->range_rate));
        } else {
          assert_near(o->path.extra, e.extra, 1e-4);
          assert_near(o->pseudorange - open[i].pseudorange, e.extra, 1e-4);
        }
        if (want == SENSIM__GNSS_REFLECTED) {
          assert_true(o->path.extra > 0.0);
          assert_near(o->path.point.z, ANT_H + o->dir.z * W_HALF / fabs(-o->dir.x * sin(phi) + o->dir.y * cos(phi)),
                      1e-3);
        }
      }
    }
    gp.multipath = 1;
  }
  /* The canyons show every case. */
  assert_true(seen[SENSIM__GNSS_LOS] > 0 && seen[SENSIM__GNSS_REFLECTED] > 0 && seen[SENSIM__GNSS_LOST] > 0);
}

/* Elevations are the angle above the local horizon at the antenna (the
 * ellipsoid normal there), every satellite kept is at or above the mask,
 * and raising the mask drops exactly those below it. */
static void test_elevation_mask_keeps_exactly_the_satellites_above(void **state) {
  (void)state;
  sensim_gnss_params gp;
  gt_sat_params(&gp, 1);
  gp.elevation_mask = 0.0;
  observe(0, 0, &gp);
  sensim__gnss_obs all[SENSIM__GPS_PRN_MAX];
  const int nall = g_n;
  memcpy(all, g_obs, sizeof all);
  double lat, lon, h;
  sensim_ecef_to_geodetic(g_rx, &lat, &lon, &h);
  lat *= M_PI / 180, lon *= M_PI / 180;
  const double up[3] = {cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)};
  int above30 = 0;
  for (int i = 0; i < nall; i++) {
    double d[3], n = 0;
    for (int j = 0; j < 3; j++) d[j] = all[i].sat_pos[j] - g_rx[j], n += d[j] * d[j];
    const double el = asin((d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / sqrt(n));
    assert_near(all[i].el, el, 1e-12);
    assert_true(el >= 0.0);
    above30 += el >= 30 * M_PI / 180;
  }
  assert_true(nall >= 9 && above30 >= 3 && above30 < nall);
  gp.elevation_mask = 30 * M_PI / 180;
  observe(0, 0, &gp);
  assert_int_equal(g_n, above30);
  for (int i = 0; i < g_n; i++) assert_true(g_obs[i].el >= gp.elevation_mask);
}

int sensim_test_gnss_satellite_sky(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_urban_canyon_paths_match_closed_form),
      cmocka_unit_test(test_elevation_mask_keeps_exactly_the_satellites_above),
  };
  return cmocka_run_group_tests_name("gnss_satellite_sky", tests, NULL, NULL);
}
