/* The path integrator's inputs: bad integrators, environments and
 * materials refused with the key named and nothing changed; the scenario
 * keys reach the renderer; frames are bit-identical at 0, 1 and 2
 * threads; a Lambertian plane under a uniform sky. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_fixture.h"

static void test_path_rejects_bad_integrator_and_bounces(void **state) {
  (void)state;
  sensim_world *w = rf_world(0);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  sensim_sensor *s = NULL;
  cp.integrator = (sensim_integrator)7;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "integrator"));
  cp.integrator = SENSIM_INTEGRATOR_DIRECT;
  cp.max_bounces = 9;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
  cp.integrator = SENSIM_INTEGRATOR_PATH;
  cp.max_bounces = 65;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "max_bounces"));
  assert_null(s);
  cp.max_bounces = 64;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
  sensim_world_destroy(w);
}

static void test_environment_rejects_bad_input_and_keeps_the_old_one(void **state) {
  (void)state;
  sensim_world *w = rf_world(0);
  rf_uniform_env(w, 1, 2, 3);
  sensim_environment e, got;
  sensim_environment_init(&e);
  e.type = (sensim_environment_type)9;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "type"));
  e.type = SENSIM_ENVIRONMENT_UNIFORM;
  e.radiance[1] = -1.0f;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "radiance[1]"));
  e.radiance[1] = NAN;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_int_equal(sensim_world_set_environment(NULL, &e), SENSIM_EINVAL);
  assert_int_equal(sensim_world_set_environment(w, NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_world_set_environment_json(w, "{\"type\": \"unifrm\"}", NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "uniform")); /* did you mean */
  assert_int_equal(sensim_world_set_environment_json(w, "{\"type\": \"uniform\", \"radiance\": [1, 2", "env.json"),
                   SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "env.json"));
  SENSIM_OK_OR_FAIL(sensim_world_get_environment(w, &got));
  assert_int_equal(got.type, SENSIM_ENVIRONMENT_UNIFORM);
  assert_true(got.radiance[0] == 1.0f && got.radiance[1] == 2.0f && got.radiance[2] == 3.0f);
  SENSIM_OK_OR_FAIL(sensim_world_set_environment_json(w, "{\"type\": \"none\"}", NULL));
  SENSIM_OK_OR_FAIL(sensim_world_get_environment(w, &got));
  assert_int_equal(got.type, SENSIM_ENVIRONMENT_NONE);
  sensim_world_destroy(w);
}

static void test_material_rejects_bad_light_transport_fields(void **state) {
  (void)state;
  sensim_world *w = rf_world(0);
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  sensim_mesh *mesh = NULL;
  sensim_material m;
  sensim_material_init(&m);
  m.ior = 0.0f;
  assert_int_equal(sensim_mesh_create_shape(w, &sh, &m, &mesh), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "ior"));
  sensim_material_init(&m);
  m.emission[2] = -0.5f;
  assert_int_equal(sensim_mesh_create_shape(w, &sh, &m, &mesh), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "emission[2]"));
  sensim_material_init(&m);
  m.specular = 1.5f;
  assert_int_equal(sensim_mesh_create_shape(w, &sh, &m, &mesh), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "specular"));
  assert_null(mesh);
  sensim_world_destroy(w);
}

/* A scene with every kind of path: a sphere, a metal box, a glass sphere
 * and a plane, a point light and the environment. */
static sensim_world *busy_world_seeded(int threads, uint64_t seed) {
  sensim_world_params p;
  sensim_world_params_init(&p);
  p.threads = threads;
  p.seed = seed;
  p.background[0] = p.background[1] = p.background[2] = 0.0f;
  p.ambient = 0.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&p, &w));
  rf_uniform_env(w, 0.3f, 0.4f, 0.5f);
  sensim_material m;
  sensim_material_init(&m);
  rf_plane(w, 20, (sensim_vec3){0, 0, 0}, &m);
  m.base_color[0] = 0.8f;
  rf_sphere(w, 0.5, 24, (sensim_vec3){3, 0, 0.5}, &m);
  m.metallic = 1.0f, m.roughness = 0.3f;
  rf_sphere(w, 0.4, 24, (sensim_vec3){3, 1, 0.4}, &m);
  sensim_material_init(&m);
  m.transmission = 1.0f, m.roughness = 0.0f, m.base_color[0] = m.base_color[1] = m.base_color[2] = 1.0f;
  rf_sphere(w, 0.4, 24, (sensim_vec3){3, -1, 0.4}, &m);
  sensim_light l;
  sensim_light_init(&l);
  l.kind = SENSIM_LIGHT_POINT;
  l.position = (sensim_vec3){1, 0, 3};
  l.intensity = 5.0f;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  return w;
}

static sensim_world *busy_world(int threads) { return busy_world_seeded(threads, 1); }

static void test_path_frames_are_bit_identical_at_0_1_2_threads(void **state) {
  (void)state;
  float *ref = NULL;
  size_t n = 0;
  for (int threads = 0; threads <= 2; threads++) {
    sensim_world *w = busy_world(threads);
    sensim_sensor *cam = rf_camera(w, (sensim_vec3){0, 0, 1}, (sensim_vec3){1, 0, -0.2}, 48, 36, 1.2, 4, 6);
    const sensim_frame *f = rf_render(w, cam);
    n = 3 * (size_t)f->width * f->height;
    if (!ref) {
      ref = malloc(n * sizeof *ref);
      memcpy(ref, f->data, n * sizeof *ref);
      double sum = 0;
      for (size_t i = 0; i < n; i++) sum += ref[i];
      assert_true(sum > 0.0);
    } else {
      assert_memory_equal(ref, f->data, n * sizeof *ref);
    }
    sensim_world_destroy(w);
  }
  free(ref);
}

/* A Lambertian plane seen from above under a uniform sky of radiance L
 * (nothing else in its upper hemisphere): radiance rho L. */
static void test_path_lambertian_plane_under_uniform_sky_has_radiance_rho_l(void **state) {
  (void)state;
  sensim_world *w = rf_world(0);
  rf_uniform_env(w, 1.5f, 1.5f, 1.5f);
  sensim_material m;
  sensim_material_init(&m);
  m.specular = 0.0f;
  m.base_color[0] = m.base_color[1] = m.base_color[2] = 0.3f;
  rf_plane(w, 1000, (sensim_vec3){0, 0, 0}, &m);
  sensim_sensor *cam = rf_camera(w, (sensim_vec3){0, 0, 2}, (sensim_vec3){0.3, 0, -1}, 48, 48, 1.0, 16, 4);
  const sensim_frame *f = rf_render(w, cam);
  for (int c = 0; c < 3; c++) {
    double sem;
    const double mean = rf_mean(f, c, &sem);
    assert_true(sem < 0.0025 * 0.45);
    assert_true(fabs(mean - 0.45) < 0.01 * 0.45);
  }
  sensim_world_destroy(w);
}

/* Convergence: the mean squared error against a 4096-sample reference
 * (four 1024-sample frames of other seeds, so its noise is independent)
 * falls as 1 / spp: the least-squares slope of log MSE over log spp at 1,
 * 4, 16, 64 samples is -1 +- 0.1. The reference's own variance adds
 * var / 4096, 1.6 % of the 64-sample MSE. */
#define CW 24
#define CH 18
static void render_busy(uint64_t seed, int spp, double *acc) {
  sensim_world *w = busy_world_seeded(2, seed);
  sensim_sensor *c = rf_camera(w, (sensim_vec3){0, 0, 1}, (sensim_vec3){1, 0, -0.2}, CW, CH, 1.2, spp, 6);
  const float *d = rf_render(w, c)->data;
  for (size_t i = 0; i < 3 * (size_t)CW * CH; i++) acc[i] += d[i];
  sensim_world_destroy(w);
}

static void test_path_mse_falls_as_one_over_samples(void **state) {
  (void)state;
  const size_t n = 3 * (size_t)CW * CH;
  double *ref = calloc(n, sizeof *ref), *img = malloc(n * sizeof *img);
  for (uint64_t seed = 100; seed < 104; seed++) render_busy(seed, 1024, ref);
  for (size_t i = 0; i < n; i++) ref[i] /= 4;
  const int spp[4] = {1, 4, 16, 64};
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < 4; k++) {
    memset(img, 0, n * sizeof *img);
    render_busy(7, spp[k], img);
    double mse = 0;
    for (size_t i = 0; i < n; i++) mse += (img[i] - ref[i]) * (img[i] - ref[i]);
    mse /= (double)n;
    const double x = log((double)spp[k]), y = log(mse);
    print_message("spp %2d: MSE %.6g\n", spp[k], mse);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double slope = (4 * sxy - sx * sy) / (4 * sxx - sx * sx);
  print_message("log-log slope %.3f\n", slope);
  assert_true(fabs(slope + 1.0) < 0.1);
  free(ref);
  free(img);
}

/* The scenario keys reach the renderer: a furnace through JSON. */
static void test_scenario_keys_drive_the_path_integrator(void **state) {
  (void)state;
  const char *json =
      "{\"duration\": 1, \"world\": {\"threads\": 0, \"background\": [0, 0, 0], \"ambient\": 0,"
      " \"environment\": {\"type\": \"uniform\", \"radiance\": [2, 2, 2]}},"
      " \"meshes\": [{\"name\": \"ball\", \"shape\": {\"kind\": \"sphere\", \"size\": [1, 0, 0], \"segments\": 48},"
      "   \"material\": {\"base_color\": [0.5, 0.5, 0.5], \"specular\": 0, \"roughness\": 1}}],"
      " \"bodies\": [{\"name\": \"b\", \"mesh\": \"ball\", \"static\": true}],"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"integrator\": \"path\", \"max_bounces\": 12,"
      "   \"width\": 48, \"height\": 48, \"hfov_deg\": 14, \"samples\": 16, \"mount\": {\"position\": [-4, 0, 0]}}]}";
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  sensim_world *w = sensim_scenario_world(scn);
  sensim_sensor *cam = sensim_world_sensor_by_name(w, "cam");
  assert_non_null(cam);
  sensim_camera_params cp;
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(cam, &cp));
  assert_int_equal(cp.integrator, SENSIM_INTEGRATOR_PATH);
  assert_int_equal(cp.max_bounces, 12);
  const sensim_frame *f = rf_render(w, cam);
  double sem;
  const double mean = rf_mean(f, 1, &sem);
  assert_true(fabs(mean - 1.0) < 0.01);
  sensim_scenario_destroy(scn);
}

int sensim_test_render_input(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_path_rejects_bad_integrator_and_bounces),
      cmocka_unit_test(test_environment_rejects_bad_input_and_keeps_the_old_one),
      cmocka_unit_test(test_material_rejects_bad_light_transport_fields),
      cmocka_unit_test(test_path_frames_are_bit_identical_at_0_1_2_threads),
      cmocka_unit_test(test_path_lambertian_plane_under_uniform_sky_has_radiance_rho_l),
      cmocka_unit_test(test_scenario_keys_drive_the_path_integrator),
      cmocka_unit_test(test_path_mse_falls_as_one_over_samples),
  };
  return cmocka_run_group_tests_name("render_input", tests, NULL, NULL);
}
