/* tests/cone/cone_fixtures.c: helpers the cone groups share. */
#include "support/testutil.h"
#include "cone/cone_groups.h"

sensim_cone_shape cone_shape_deg(double theta_deg, double phi_deg, double length) {
  sensim_cone_params p;
  sensim_cone_params_init(&p);
  p.theta = theta_deg * M_PI / 180.0;
  p.phi = phi_deg * M_PI / 180.0;
  p.length = length;
  sensim_cone_shape k = {0, 0, 0};
  SENSIM_OK_OR_FAIL(sensim_cone_shape_init(&p, &k));
  return k;
}

sensim_world *cone_world(void) { return test_world(0, 7); }

sensim_body *cone_thin_box(sensim_world *w, double dx, double dy, double dz, sensim_vec3 face, double yaw,
                           int is_static) {
  sensim_shape sh = {SENSIM_SHAPE_BOX, {dx, dy, dz}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, NULL, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = is_static;
  bp.class_id = 3;
  /* The box is centred on its origin: its -X face sits dx/2 behind it. */
  sensim_vec3 n = {cos(yaw), sin(yaw), 0.0};
  bp.pose.pos = (sensim_vec3){face.x + 0.5 * dx * n.x, face.y + 0.5 * dx * n.y, face.z};
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, yaw);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  return b;
}

sensim_detection cone_detect_once(sensim_world *w, sensim_sensor *s) {
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_DETECTION);
  assert_int_equal(f->count, 1);
  return *(const sensim_detection *)f->data;
}
