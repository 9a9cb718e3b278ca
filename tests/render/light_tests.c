/* Area and soft lights of the path integrator against closed forms: a
 * Lambertian floor point of albedo rho under a parallel emitter at height
 * h returns rho L F, F the point-to-emitter form factor (Howell, "A
 * Catalog of Radiation Heat Transfer Configuration Factors", 3rd ed.:
 * B-3, differential element to a parallel rectangle with a corner above
 * it; B-12... the coaxial disc R^2 / (h^2 + R^2)); a sphere light of
 * intensity I lights like a point, E = I / d^2, wherever it is fully above
 * the horizon. */
#include <math.h>
#include "render/render_fixture.h"

#define RHO 0.5

/* A black-sky world with a Lambertian floor of albedo RHO. */
static sensim_world *floor_world(void) {
  sensim_world *w = rf_world(0);
  sensim_material m;
  sensim_material_init(&m);
  m.specular = 0.0f;
  m.base_color[0] = m.base_color[1] = m.base_color[2] = (float)RHO;
  rf_plane(w, 100, (sensim_vec3){0, 0, 0}, &m);
  return w;
}

/* Mean radiance of the floor around the origin, seen from the side (a
 * narrow view under any emitter at height >= 1), 8 x 8 pixels x 1024. */
static double floor_radiance(sensim_world *w, double *sem) {
  sensim_sensor *cam =
      rf_camera(w, (sensim_vec3){-3, 0, 0.5}, (sensim_vec3){3, 0, -0.5}, 8, 8, 1e-4, 1024, 1);
  const sensim_frame *f = rf_render(w, cam);
  return rf_mean(f, 1, sem);
}

/* Form factor from a point to a parallel rectangle a x b with a corner
 * straight above it at height c. */
static double f_corner(double a, double b, double c) {
  const double A = a / c, B = b / c, sa = sqrt(1 + A * A), sb = sqrt(1 + B * B);
  return (A / sa * atan(B / sa) + B / sb * atan(A / sb)) / (2 * M_PI);
}

static void expect(double got, double sem, double want, const char *what) {
  print_message("%s: %.5f (want %.5f, sem %.5f)\n", what, got, want, sem);
  assert_true(sem < 0.0025 * want);
  assert_true(fabs(got - want) < 0.01 * want);
}

static void test_emissive_quad_lights_floor_by_form_factor(void **state) {
  (void)state;
  sensim_world *w = floor_world();
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = m.base_color[1] = m.base_color[2] = 0.0f;
  m.specular = 0.0f;
  m.emission[0] = m.emission[1] = m.emission[2] = 3.0f;
  /* A 2 m square at 1 m, turned to face down (half a turn about X). */
  rf_plane_rot(w, 2, (sensim_vec3){0, 0, 1}, (sensim_quat){0, 1, 0, 0}, &m);
  double sem, got = floor_radiance(w, &sem);
  expect(got, sem, RHO * 3.0 * 4 * f_corner(1, 1, 1), "emissive quad");
  sensim_world_destroy(w);
}

static void test_rect_light_lights_floor_by_form_factor(void **state) {
  (void)state;
  sensim_world *w = floor_world();
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_RECT;
  l.position = (sensim_vec3){0.5, 0, 1.5};
  l.edge_u = (sensim_vec3){2, 0, 0};
  l.edge_v = (sensim_vec3){0, -3, 0}; /* u x v = -Z: facing the floor */
  l.intensity = 2.0f;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  /* The 2 x 3 rectangle from x -0.5..1.5, y -1.5..1.5 as four corner pieces. */
  const double F = 2 * f_corner(0.5, 1.5, 1.5) + 2 * f_corner(1.5, 1.5, 1.5);
  double sem, got = floor_radiance(w, &sem);
  expect(got, sem, RHO * 2.0 * F, "rect light");
  sensim_world_destroy(w);
}

static void test_disc_light_lights_floor_by_form_factor(void **state) {
  (void)state;
  sensim_world *w = floor_world();
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_DISC;
  l.position = (sensim_vec3){0, 0, 1.2};
  l.direction = (sensim_vec3){0, 0, -1};
  l.radius = 0.8f;
  l.intensity = 5.0f;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  double sem, got = floor_radiance(w, &sem);
  expect(got, sem, RHO * 5.0 * 0.64 / (1.44 + 0.64), "disc light");
  sensim_world_destroy(w);
}

static void test_sphere_light_lights_like_its_point(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    sensim_world *w = floor_world();
    sensim_light l;
    sensim_light_init(&l);
    l.kind = SENSIM_LIGHT_POINT;
    l.position = (sensim_vec3){0, 0, 2};
    l.intensity = 8.0f;
    l.radius = k ? 0.6f : 0.0f;
    SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
    double sem, got = floor_radiance(w, &sem);
    /* E = I / d^2 at normal incidence; L = rho E / pi. */
    if (k == 0) sem = 1e-9; /* a delta: no noise */
    expect(got, sem, RHO * 8.0 / 4.0 / M_PI, k ? "sphere light" : "point light");
    sensim_world_destroy(w);
  }
}

/* The direct integrator sees a rect or disc light as a point at its centre
 * of intensity L A cos(theta_e) (Lambert's cosine law): under a disc of
 * radius R facing down at height h, the floor gets L pi R^2 / h^2. */
static void test_direct_integrator_lights_by_area_light_centre(void **state) {
  (void)state;
  sensim_world *w = floor_world();
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_DISC;
  l.position = (sensim_vec3){0, 0, 4};
  l.direction = (sensim_vec3){0, 0, -1};
  l.radius = 0.5f;
  l.intensity = 10.0f;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){0, 0, 1};
  sp.mount.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, M_PI / 2); /* looking down */
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = cp.height = 1;
  cp.hfov = 1e-4;
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  const float *px = rf_render(w, cam)->data;
  /* E = L pi R^2 / h^2 times the direct integrator's BRDF at normal
   * incidence (its layer ignores `specular`): (1 - F0) rho / pi + F0 D / 4,
   * F0 = 0.04, D = 1 / (pi alpha^2), alpha = 0.5^2 (G = 1 there). */
  const double E = 10.0 * M_PI * 0.25 / 16.0, a = 0.25;
  const double want = E * (0.96 * RHO / M_PI + 0.04 / (M_PI * a * a) / 4);
  print_message("direct, disc light: %.6f (want %.6f)\n", px[1], want);
  assert_true(fabs(px[1] - want) < 1e-4 * want);
  sensim_world_destroy(w);
}

int sensim_test_render_lights(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emissive_quad_lights_floor_by_form_factor),
      cmocka_unit_test(test_rect_light_lights_floor_by_form_factor),
      cmocka_unit_test(test_disc_light_lights_floor_by_form_factor),
      cmocka_unit_test(test_sphere_light_lights_like_its_point),
      cmocka_unit_test(test_direct_integrator_lights_by_area_light_centre),
  };
  return cmocka_run_group_tests_name("render_lights", tests, NULL, NULL);
}
