/* White furnace tests of the path integrator: a convex sphere in a
 * uniform environment of radiance L reflects rho L towards every viewer
 * when its BSDF reflects the fraction rho of the light it gets, whatever
 * the angle (a Lambertian sphere of albedo rho; a white layered or metal
 * surface, rho = 1, at every roughness). A convex body never sees itself,
 * so every path is one bounce plus the environment; the tolerance is 1 %
 * of rho L, and the frame's standard error is checked to be far below it. */
#include <math.h>
#include "render/render_fixture.h"

/* Mean radiance of a 64 x 64 view filled by a unit sphere of material m in
 * a uniform environment of radiance (L, L/2, L/4). */
static void furnace(const sensim_material *m, double expect_rho, int threads) {
  sensim_world *w = rf_world(threads);
  const float L = 2.0f;
  rf_uniform_env(w, L, 0.5f * L, 0.25f * L);
  rf_sphere(w, 1.0, 48, (sensim_vec3){0, 0, 0}, m);
  /* 4 m away the sphere spans 14.5 deg about the axis: a 14 deg view sees
   * only the sphere (checked through the depth plane). */
  sensim_sensor *cam = rf_camera(w, (sensim_vec3){-4, 0, 0}, (sensim_vec3){1, 0, 0}, 64, 64, 14.0 * M_PI / 180, 16, 8);
  const sensim_frame *f = rf_render(w, cam);
  for (size_t i = 0; i < (size_t)f->width * f->height; i++) assert_true(f->depth[i] > 0.0f);
  for (int c = 0; c < 3; c++) {
    double sem;
    const double mean = rf_mean(f, c, &sem), want = expect_rho * L / (double)(1 << c);
    print_message("furnace rho %.2f channel %d: %.5f (want %.5f, sem %.5f)\n", expect_rho, c, mean, want, sem);
    assert_true(sem < 0.0025 * want); /* the test resolves 1 % (4 sem) */
    assert_true(fabs(mean - want) < 0.01 * want);
  }
  sensim_world_destroy(w);
}

static sensim_material lambert(float rho) {
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = m.base_color[1] = m.base_color[2] = rho;
  m.specular = 0.0f; /* no specular layer: Lambertian */
  m.roughness = 1.0f;
  return m;
}

static void test_path_furnace_lambertian_sphere_at_albedo_1(void **state) {
  (void)state;
  sensim_material m = lambert(1.0f);
  furnace(&m, 1.0, 0);
}

static void test_path_furnace_lambertian_sphere_at_albedo_0_5(void **state) {
  (void)state;
  sensim_material m = lambert(0.5f);
  furnace(&m, 0.5, 0);
}

static void test_path_furnace_lambertian_sphere_at_albedo_0_18(void **state) {
  (void)state;
  sensim_material m = lambert(0.18f);
  furnace(&m, 0.18, 2);
}

/* The default material's specular layer over a white base conserves
 * energy: smooth, medium and rough. */
static void test_path_furnace_white_layered_dielectric_reflects_everything(void **state) {
  (void)state;
  const float rough[3] = {0.05f, 0.5f, 1.0f};
  for (int k = 0; k < 3; k++) {
    sensim_material m;
    sensim_material_init(&m);
    m.base_color[0] = m.base_color[1] = m.base_color[2] = 1.0f;
    m.roughness = rough[k];
    furnace(&m, 1.0, 0);
  }
}

/* A white metal keeps what single scattering loses through Kulla and
 * Conty's multiple-scattering lobe. */
static void test_path_furnace_white_rough_metal_reflects_everything(void **state) {
  (void)state;
  const float rough[3] = {0.2f, 0.6f, 1.0f};
  for (int k = 0; k < 3; k++) {
    sensim_material m;
    sensim_material_init(&m);
    m.base_color[0] = m.base_color[1] = m.base_color[2] = 1.0f;
    m.metallic = 1.0f;
    m.roughness = rough[k];
    furnace(&m, 1.0, 0);
  }
}

int sensim_test_render_furnace(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_path_furnace_lambertian_sphere_at_albedo_1),
      cmocka_unit_test(test_path_furnace_lambertian_sphere_at_albedo_0_5),
      cmocka_unit_test(test_path_furnace_lambertian_sphere_at_albedo_0_18),
      cmocka_unit_test(test_path_furnace_white_layered_dielectric_reflects_everything),
      cmocka_unit_test(test_path_furnace_white_rough_metal_reflects_everything),
  };
  return cmocka_run_group_tests_name("render_furnace", tests, NULL, NULL);
}
