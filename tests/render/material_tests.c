/* Dielectrics and mirrors of the path integrator against Fresnel: a
 * pencil camera looks at a flat glass slab (or a polished metal) at a
 * chosen incidence under an emitting ceiling and no other light; the
 * reflected ray reaches the ceiling, the refracted one never does (the
 * slab is 100 m deep and paths end at the second bounce), so the radiance
 * is R(theta) x L_ceiling: Fresnel's equations for glass (recomputed here
 * in double precision, Born & Wolf sec. 1.5.2), Schlick's form of the
 * metallic-roughness model for metal. The glass lobe is sampled by
 * choosing reflection with probability R, so the tolerance is 4 standard
 * errors of that Bernoulli draw. A glass sphere in a uniform environment
 * returns its radiance (the 1 / eta^2 of entering and leaving cancel). */
#include <math.h>
#include "render/render_fixture.h"

static double fresnel(double ci, double eta) {
  const double s2 = (1 - ci * ci) / (eta * eta);
  if (s2 >= 1) return 1;
  const double ct = sqrt(1 - s2);
  const double rs = (ci - eta * ct) / (ci + eta * ct), rp = (eta * ci - ct) / (eta * ci + ct);
  return 0.5 * (rs * rs + rp * rp);
}

/* Radiance seen at incidence theta off a slab of material m under a
 * ceiling of emission Le at 2 m (16 x 16 pencil pixels x 1024). */
static double reflected(const sensim_material *m, double theta, double Le, size_t *n) {
  sensim_world *w = rf_world(0);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {400, 400, 100}, 0};
  sensim_mesh *slab = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, m, &slab));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = slab;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){0, 0, -50};
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_material c;
  sensim_material_init(&c);
  c.base_color[0] = c.base_color[1] = c.base_color[2] = 0.0f;
  c.specular = 0.0f;
  c.emission[0] = c.emission[1] = c.emission[2] = (float)Le;
  rf_plane(w, 2000, (sensim_vec3){0, 0, 2}, &c);
  sensim_sensor *cam = rf_camera(w, (sensim_vec3){0, 0, 1}, (sensim_vec3){sin(theta), 0, -cos(theta)}, 16, 16,
                                 1e-5, 1024, 2);
  const sensim_frame *f = rf_render(w, cam);
  *n = (size_t)f->width * f->height * 1024;
  const double v = rf_mean(f, 1, NULL);
  sensim_world_destroy(w);
  return v;
}

static void test_glass_reflects_by_fresnel_equations_normal_to_grazing(void **state) {
  (void)state;
  sensim_material m;
  sensim_material_init(&m);
  m.transmission = 1.0f;
  m.roughness = 0.0f;
  m.ior = 1.5f;
  m.base_color[0] = m.base_color[1] = m.base_color[2] = 1.0f;
  const double deg[4] = {0.5, 45, 70, 85};
  for (int k = 0; k < 4; k++) {
    size_t n;
    const double th = deg[k] * M_PI / 180, got = reflected(&m, th, 1.0, &n), R = fresnel(cos(th), 1.5);
    const double sem = sqrt(R * (1 - R) / (double)n);
    print_message("glass at %4.1f deg: R %.5f (Fresnel %.5f, sem %.5f)\n", deg[k], got, R, sem);
    assert_true(fabs(got - R) < 4 * sem + 1e-4 * R);
  }
}

static void test_polished_metal_reflects_by_schlick(void **state) {
  (void)state;
  sensim_material m;
  sensim_material_init(&m);
  m.metallic = 1.0f;
  m.roughness = 0.0f;
  m.base_color[0] = m.base_color[1] = m.base_color[2] = 0.6f;
  const double deg[3] = {0.5, 60, 85};
  for (int k = 0; k < 3; k++) {
    size_t n;
    const double th = deg[k] * M_PI / 180, got = reflected(&m, th, 1.0, &n);
    const double F = 0.6 + 0.4 * pow(1 - cos(th), 5);
    print_message("metal at %4.1f deg: %.5f (Schlick %.5f)\n", deg[k], got, F);
    assert_true(fabs(got - F) < 0.01 * F);
  }
}

static void test_glass_sphere_in_uniform_light_returns_it(void **state) {
  (void)state;
  const int thin[2] = {0, 1};
  for (int k = 0; k < 2; k++) {
    sensim_world *w = rf_world(0);
    rf_uniform_env(w, 1.0f, 1.0f, 1.0f);
    sensim_material m;
    sensim_material_init(&m);
    m.transmission = 1.0f;
    m.roughness = 0.0f;
    m.thin_walled = thin[k];
    m.base_color[0] = m.base_color[1] = m.base_color[2] = 1.0f;
    rf_sphere(w, 1.0, 64, (sensim_vec3){0, 0, 0}, &m);
    sensim_sensor *cam = rf_camera(w, (sensim_vec3){-4, 0, 0}, (sensim_vec3){1, 0, 0}, 48, 48, 14.0 * M_PI / 180, 16, 64);
    double sem;
    const double got = rf_mean(rf_render(w, cam), 1, &sem);
    print_message("glass sphere (thin %d): %.5f (want 1, sem %.5f)\n", thin[k], got, sem);
    assert_true(fabs(got - 1.0) < 0.01);
    sensim_world_destroy(w);
  }
}

int sensim_test_render_materials(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_glass_reflects_by_fresnel_equations_normal_to_grazing),
      cmocka_unit_test(test_polished_metal_reflects_by_schlick),
      cmocka_unit_test(test_glass_sphere_in_uniform_light_returns_it),
  };
  return cmocka_run_group_tests_name("render_materials", tests, NULL, NULL);
}
