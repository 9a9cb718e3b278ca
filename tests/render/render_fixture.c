/* tests/render/render_fixture.c: see render_fixture.h. */
#include <math.h>
#include "render/render_fixture.h"

sensim_world *rf_world(int threads) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.background[0] = p.background[1] = p.background[2] = 0.0f;
  p.ambient = 0.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  return w;
}

void rf_uniform_env(sensim_world *w, float r, float g, float b) {
  sensim_environment e;
  sensim_environment_init(&e);
  e.type = SENSIM_ENVIRONMENT_UNIFORM;
  e.radiance[0] = r, e.radiance[1] = g, e.radiance[2] = b;
  SENSIM_OK_OR_FAIL(sensim_world_set_environment(w, &e));
}

static void add_static_rot(sensim_world *w, sensim_mesh *mesh, sensim_vec3 c, sensim_quat q) {
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = c;
  bp.pose.rot = q;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
}

static void add_static(sensim_world *w, sensim_mesh *mesh, sensim_vec3 c) {
  add_static_rot(w, mesh, c, (sensim_quat){1, 0, 0, 0});
}

void rf_plane_rot(sensim_world *w, double size, sensim_vec3 c, sensim_quat q, const sensim_material *m) {
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {size, size, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, m, &mesh));
  add_static_rot(w, mesh, c, q);
}

void rf_sphere(sensim_world *w, double radius, int segments, sensim_vec3 c, const sensim_material *m) {
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_SPHERE, {radius, 0, 0}, segments};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, m, &mesh));
  add_static(w, mesh, c);
}

void rf_plane(sensim_world *w, double size, sensim_vec3 c, const sensim_material *m) {
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {size, size, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, m, &mesh));
  add_static(w, mesh, c);
}

/* The rotation taking +X to the unit vector d (shortest arc). */
static sensim_quat aim(sensim_vec3 d) {
  double n = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  d.x /= n, d.y /= n, d.z /= n;
  sensim_vec3 axis = {0, -d.z, d.y};
  double s = sqrt(axis.y * axis.y + axis.z * axis.z);
  if (s < 1e-12) return d.x > 0 ? (sensim_quat){1, 0, 0, 0} : (sensim_quat){0, 0, 0, 1};
  return sensim_quat_from_axis_angle(axis, atan2(s, d.x));
}

sensim_sensor *rf_camera(sensim_world *w, sensim_vec3 pos, sensim_vec3 dir, uint32_t width, uint32_t height,
                         double hfov, int spp, int bounces) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = pos;
  sp.mount.rot = aim(dir);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = width, cp.height = height;
  cp.hfov = hfov;
  cp.samples = spp;
  cp.max_bounces = bounces;
  cp.integrator = SENSIM_INTEGRATOR_PATH;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
  return s;
}

const sensim_frame *rf_render(sensim_world *w, sensim_sensor *s) {
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  return f;
}

double rf_mean(const sensim_frame *f, int c, double *sem) {
  const float *rgb = f->data;
  const size_t n = (size_t)f->width * f->height;
  double s = 0.0, s2 = 0.0;
  for (size_t i = 0; i < n; i++) {
    const double v = rgb[3 * i + c];
    s += v, s2 += v * v;
  }
  const double m = s / (double)n, var = s2 / (double)n - m * m;
  if (sem) *sem = sqrt((var > 0 ? var : 0) / (double)n);
  return m;
}
