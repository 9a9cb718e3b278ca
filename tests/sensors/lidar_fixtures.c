/* tests/sensors/lidar_fixtures.c: helpers the lidar groups share (declared
 * and described in lidar_fixtures.h). Moved verbatim from the groups they
 * came from; no longer static since two groups or more call them. */
#include <math.h>
#include <string.h>
#include "core/vecmath.h"
#include "filters/chain.h"
#include "support/testutil.h"
#include "sensors/lidar_fixtures.h"

/* ---- walls and planes (from lidar_tests.c) ---- */

/* A 40 m square plane at distance `dist` ahead, tilted by `tilt` about Z
 * (so beams meet it at varied incidence). */
plane_scene make_plane(double dist, double tilt) {
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

/* A plane of two triangles with their own lidar reflectances. */
sensim_world *two_tone_wall(double dist, float r_lower, float r_upper) {
  sensim_world *w = test_world(0, 5);
  /* The wall x = dist, y in [-20, 20], z in [-20, 20]; the lower-left
   * triangle (z below the diagonal) and the upper-right one. */
  const float v[12] = {(float)dist, 20, -20, (float)dist, -20, -20, (float)dist, -20, 20, (float)dist, 20, 20};
  const uint32_t ix[6] = {0, 1, 2, 0, 2, 3};
  const float tr[2] = {r_lower, r_upper};
  sensim_mesh_desc d = {.vertices = v, .nvert = 4, .indices = ix, .ntri = 2, .tri_reflectance = tr};
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

/* ---- the beam model (from lidar_beam_tests.c) ---- */

sensim_lidar_params beam_params(sensim_beam_shape shape, double dh, double dv, int n) {
  sensim_lidar_params p;
  sensim_lidar_params_init(&p);
  p.shape = shape;
  p.div_h = dh;
  p.div_v = dv;
  p.subrays = n;
  return p;
}

sensim_lidar_footprint fp_make(sensim_beam_shape shape, double dh, double dv, int n) {
  sensim_lidar_params p = beam_params(shape, dh, dv, n);
  sensim_lidar_footprint fp;
  SENSIM_OK_OR_FAIL(sensim__lidar_footprint_init(&p, &fp));
  return fp;
}

/* A quad wall x = d, y in [y0, y1], z in [-h, h], facing the sensor. */
void add_wall(sensim_world *w, double d, double y0, double y1, double h, float rho) {
  add_wall_ids(w, d, y0, y1, h, rho, 0, 0);
}

/* add_wall with the body's class and instance ids (0: sensim assigns). */
void add_wall_ids(sensim_world *w, double d, double y0, double y1, double h, float rho, uint16_t class_id,
                  uint32_t instance_id) {
  const float v[12] = {(float)d, (float)y1, (float)-h, (float)d, (float)y0, (float)-h,
                       (float)d, (float)y0, (float)h,  (float)d, (float)y1, (float)h};
  const uint32_t ix[6] = {0, 1, 2, 0, 2, 3};
  sensim_material m;
  sensim_material_init(&m);
  m.reflectance = rho;
  sensim_mesh_desc desc = {.vertices = v, .nvert = 4, .indices = ix, .ntri = 2, .material = &m};
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &desc, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.class_id = class_id;
  bp.instance_id = instance_id;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
}

/* One beam along +X. */
sensim_lidar_params one_beam(void) {
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0.0;
  lp.columns = 1;
  lp.start_azimuth = 0.0;
  return lp;
}

sensim_sensor *add_lidar(sensim_world *w, const sensim_lidar_params *lp, const char *filter,
                         const char *json) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, lp, &s));
  if (filter) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, filter, json));
  return s;
}

const sensim_frame *poll1(sensim_sensor *s) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  return f;
}

/* ---- deskew (from lidar_scan_tests.c) ---- */

/* Run the registered "deskew" filter on a frame, as a chain would. */
sensim_status run_deskew(sensim_frame *f) {
  const sensim_builtin_filter *d = sensim__filter_find("deskew");
  assert_non_null(d);
  assert_int_equal(d->def.in, SENSIM_PAYLOAD_POINTS);
  assert_int_equal(d->def.out, SENSIM_PAYLOAD_POINTS);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(d->create(NULL, &user));
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  sensim_status rc = d->def.apply(user, f, &ctx);
  if (d->def.destroy) d->def.destroy(user);
  return rc;
}
