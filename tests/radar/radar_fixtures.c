/* tests/radar/radar_fixtures.c: scenes and sensors the radar groups share. */
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"

sensim_radar_params radar_test_params(void) {
  sensim_radar_params p;
  sensim_radar_params_init(&p);
  p.hfov = p.vfov = 3.0 * M_PI / 180.0;
  p.ray_spacing = 0.015 * M_PI / 180.0;
  p.max_range = 400.0;
  p.sigma_range = p.sigma_azimuth = p.sigma_elevation = p.sigma_velocity = 0.0;
  return p;
}

sensim_sensor *radar_test_sensor(sensim_world *w, const sensim_radar_params *rp) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10.0;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_radar_create(w, &sp, rp, &s));
  return s;
}

static sensim_mesh *mesh_of(sensim_world *w, const float *v, size_t nv, const uint32_t *ix, size_t nt, float spec,
                            float diff) {
  sensim_material m;
  sensim_material_init(&m);
  m.radar_specular = spec;
  m.radar_diffuse = diff;
  sensim_mesh_desc d = test_mesh_desc(v, nv, ix, nt, &m);
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  return mesh;
}

/* Rotation taking unit u onto unit v (about u x v). */
static sensim_quat rotation_onto(sensim_vec3 u, sensim_vec3 v) {
  sensim_vec3 ax = {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
  double s = sqrt(ax.x * ax.x + ax.y * ax.y + ax.z * ax.z), c = u.x * v.x + u.y * v.y + u.z * v.z;
  sensim_vec3 n = {ax.x / s, ax.y / s, ax.z / s};
  return sensim_quat_from_axis_angle(n, atan2(s, c));
}

static void push_line(sensim_body *b, sensim_pose p0, sensim_vec3 vel) {
  for (int i = 0; i <= 4; i++) {
    double t = -0.2 + 0.05 * i;
    sensim_body_state st;
    memset(&st, 0, sizeof st);
    st.pose.rot = p0.rot;
    st.pose.pos = (sensim_vec3){p0.pos.x + vel.x * t, p0.pos.y + vel.y * t, p0.pos.z + vel.z * t};
    st.flags = SENSIM_STATE_VELOCITY;
    st.lin_vel = vel;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, t, &st));
  }
}

static sensim_body *corner(sensim_world *w, double a, sensim_vec3 apex, const sensim_vec3 *vel) {
  const float A = (float)a;
  /* Three squares in the planes x = 0, y = 0, z = 0 of [0, a]^3. */
  const float v[] = {0, 0, 0, 0, A, 0, 0, A, A, 0, 0, A,   /* x = 0 */
                     0, 0, 0, A, 0, 0, A, 0, A, 0, 0, A,   /* y = 0 */
                     0, 0, 0, A, 0, 0, A, A, 0, 0, A, 0};  /* z = 0 */
  const uint32_t ix[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 8, 9, 10, 8, 10, 11};
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh_of(w, v, 12, ix, 6, 1.0f, 0.0f);
  bp.is_static = vel == NULL;
  bp.instance_id = 7;
  bp.pose.pos = apex;
  double r = sqrt(apex.x * apex.x + apex.y * apex.y + apex.z * apex.z);
  sensim_vec3 to_radar = {-apex.x / r, -apex.y / r, -apex.z / r};
  double k = 1.0 / sqrt(3.0);
  bp.pose.rot = rotation_onto((sensim_vec3){k, k, k}, to_radar);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  if (vel) push_line(b, bp.pose, *vel);
  return b;
}

sensim_body *radar_corner(sensim_world *w, double a, sensim_vec3 apex) { return corner(w, a, apex, NULL); }

sensim_body *radar_corner_moving(sensim_world *w, double a, sensim_vec3 apex, sensim_vec3 vel) {
  return corner(w, a, apex, &vel);
}

static sensim_body *plate(sensim_world *w, double side, sensim_vec3 c, double yaw, const sensim_vec3 *vel, float spec,
                          float diff) {
  const float h = (float)(0.5 * side);
  const float v[] = {0, -h, -h, 0, h, -h, 0, h, h, 0, -h, h};
  const uint32_t ix[] = {0, 2, 1, 0, 3, 2};
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh_of(w, v, 4, ix, 2, spec, diff);
  bp.is_static = vel == NULL;
  bp.instance_id = 9;
  bp.pose.pos = c;
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  if (vel) push_line(b, bp.pose, *vel);
  return b;
}

sensim_body *radar_plate(sensim_world *w, double side, sensim_vec3 c, const sensim_vec3 *vel) {
  return plate(w, side, c, 0.0, vel, 1.0f, 0.0f);
}

sensim_body *radar_plate_facing(sensim_world *w, double side, sensim_vec3 c, sensim_vec3 vel) {
  return plate(w, side, c, atan2(c.y, c.x), &vel, 1.0f, 0.0f);
}

sensim_body *radar_plate_material(sensim_world *w, double side, sensim_vec3 c, double yaw, float specular,
                                  float diffuse) {
  return plate(w, side, c, yaw, NULL, specular, diffuse);
}

size_t radar_capture(sensim_world *w, sensim_sensor *s, sensim_radar_detection *out, size_t max) {
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RADAR);
  for (size_t i = 0; i < f->count && i < max; i++) out[i] = ((const sensim_radar_detection *)f->data)[i];
  return f->count;
}

double radar_trihedral_rcs(double a, double frequency) {
  double lambda = 299792458.0 / frequency;
  return 12.0 * M_PI * a * a * a * a / (lambda * lambda);
}
