/* tests/render/gltf_path_tests.c: the path integrator with glTF-style
 * materials: an emissive texture is seen from either face as emission x
 * the decoded texel, and an emitter whose emission comes from a texture
 * lights a floor as the same emitter with the product as its factor does
 * (next-event estimation reads the texture at the sampled point). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_fixture.h"

static double srgb_decode(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static void test_path_sees_emissive_texture_from_either_face(void **state) {
  (void)state;
  for (int below = 0; below < 2; below++) {
    sensim_world *w = rf_world(0);
    const float px[4] = {0.5f, 1.0f, 0.25f, 1.0f};
    sensim_texture *t = NULL;
    SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 1, 1, px, 1, &t));
    sensim_material m;
    sensim_material_init(&m);
    m.base_color[0] = m.base_color[1] = m.base_color[2] = 0.0f;
    m.emission[0] = 2.0f, m.emission[1] = 1.0f, m.emission[2] = 0.5f;
    m.emissive_texture = t;
    rf_plane(w, 10, (sensim_vec3){0, 0, 0}, &m);
    sensim_sensor *cam = rf_camera(w, (sensim_vec3){0, 0, below ? -3 : 3}, (sensim_vec3){0, 0, below ? 1 : -1}, 8, 8,
                                   0.2, 1, 0);
    const sensim_frame *f = rf_render(w, cam);
    const float *rgb = f->data;
    for (size_t i = 0; i < 64; i++)
      for (int c = 0; c < 3; c++) {
        const double expect = m.emission[c] * srgb_decode(px[c]);
        assert_near(rgb[3 * i + c], expect, 1e-6 * expect);
      }
    sensim_world_destroy(w);
  }
}

/* Mean floor radiance per channel under a 1 m emitter 2 m up, whose
 * emission is `factor` times a 1 x 1 linear texture of `texel` (NULL: no
 * texture), seen from 1.5 m above the floor. The frame is copied to out. */
static void lit_floor(const float factor[3], const float *texel, float *out, size_t n) {
  sensim_world *w = rf_world(0);
  sensim_material floor;
  sensim_material_init(&floor);
  floor.base_color[0] = floor.base_color[1] = floor.base_color[2] = 0.5f;
  floor.specular = 0.0f;
  floor.roughness = 1.0f;
  rf_plane(w, 20, (sensim_vec3){0, 0, 0}, &floor);
  sensim_material lamp;
  sensim_material_init(&lamp);
  memcpy(lamp.emission, factor, sizeof lamp.emission);
  if (texel) {
    const float rgba[4] = {texel[0], texel[1], texel[2], 1.0f};
    sensim_texture *t = NULL;
    SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 1, 1, rgba, 0, &t));
    lamp.emissive_texture = t;
  }
  rf_plane_rot(w, 1, (sensim_vec3){0.5, 0, 2}, (sensim_quat){0, 1, 0, 0}, &lamp);
  sensim_sensor *cam = rf_camera(w, (sensim_vec3){0, 0, 1.5}, (sensim_vec3){0, 0, -1}, 16, 16, 0.5, 4, 2);
  const sensim_frame *f = rf_render(w, cam);
  memcpy(out, f->data, n * sizeof *out);
  sensim_world_destroy(w);
}

static void test_path_textured_emitter_lights_the_floor_like_its_plain_equivalent(void **state) {
  (void)state;
  enum { N = 16 * 16 * 3 };
  float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  assert_true(a && b);
  const float F[3] = {4.0f, 4.0f, 4.0f}, k[3] = {0.5f, 0.25f, 1.0f};
  const float Fk[3] = {F[0] * k[0], F[1] * k[1], F[2] * k[2]};
  lit_floor(F, k, a, N);
  lit_floor(Fk, NULL, b, N);
  double sum = 0;
  for (size_t i = 0; i < N; i++) {
    /* The same paths and samples: only the light-picking density's
     * rounding (luminance of F vs of F k over the total) may differ. */
    assert_near(a[i], b[i], 1e-4 * fabs(b[i]) + 1e-7);
    sum += b[i];
  }
  assert_true(sum > 0); /* the floor is lit */
  free(a);
  free(b);
}

int sensim_test_render_gltf(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_path_sees_emissive_texture_from_either_face),
      cmocka_unit_test(test_path_textured_emitter_lights_the_floor_like_its_plain_equivalent),
  };
  return cmocka_run_group_tests_name("render_gltf", tests, NULL, NULL);
}
