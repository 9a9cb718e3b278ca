/* tests/scene/gltf_material_tests.c: glTF 2.0 materials through
 * sensim_mesh_load (src/scene/mesh_import.c, mesh_gltf.c) on the files
 * tests/data/gltf/make_gltf.py writes: every mapped field of the
 * metallic-roughness material round-trips (factors, the four textures as
 * stored, alpha mode and cutoff, transmission, ior, emissive strength),
 * per-primitive materials become per-triangle ids, vertex normals and
 * tangents (the file's handedness, generated ones where a primitive has
 * none), the same from a GLB; and broken files (a missing texture, a
 * negative ior, an image that is not a PNG, malformed JSON) are refused
 * naming the file with nothing left in the world. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "scene/scene.h"
#include "support/testutil.h"

#define GLTF SENSIM_TEST_DATA "/gltf/"

static void assert_texel(const sensim_texture *t, int x, int y, const double expect[4]) {
  assert_non_null(t);
  const float *p = t->stored + 4 * ((size_t)y * t->width + (size_t)x);
  for (int c = 0; c < 4; c++) assert_near(p[c], expect[c], 1e-6);
}

/* Material 0 ("every_field") on the triangles with x < 1.5, material 1
 * ("blended") on the others. */
static void check_materials_mesh(const sensim_mesh *m) {
  assert_int_equal(m->ntri, 4);
  assert_int_equal(m->nvert, 8);
  assert_int_equal(m->nmaterials, 2);
  assert_non_null(m->tri_material);
  assert_non_null(m->normals);
  assert_non_null(m->tangents);
  for (unsigned t = 0; t < m->ntri; t++) {
    const uint32_t *ix = m->indices + 3 * t;
    const double cx = (m->vertices[3 * ix[0]] + m->vertices[3 * ix[1]] + m->vertices[3 * ix[2]]) / 3;
    const sensim_material *mat = sensim__mesh_tri_material(m, t);
    if (cx < 1.5) {
      assert_int_equal(mat->alpha_mode, SENSIM_ALPHA_MASK);
    } else {
      assert_int_equal(mat->alpha_mode, SENSIM_ALPHA_BLEND);
    }
    for (int k = 0; k < 3; k++) {
      const float *n = m->normals + 3 * ix[k], *tg = m->tangents + 4 * ix[k];
      assert_near(n[2], 1.0, 1e-6);
      assert_near(tg[0], 1.0, 1e-6);
      /* The file's w = -1 on primitive 0; generated (u along +x, v down
       * the image: w = +1) on primitive 1. */
      assert_near(tg[3], cx < 1.5 ? -1.0 : 1.0, 0);
    }
  }
  const sensim_material *a = NULL, *b = NULL;
  for (size_t i = 0; i < m->nmaterials; i++) {
    if (m->materials[i].alpha_mode == SENSIM_ALPHA_MASK) a = &m->materials[i];
    if (m->materials[i].alpha_mode == SENSIM_ALPHA_BLEND) b = &m->materials[i];
  }
  assert_non_null(a);
  assert_non_null(b);
  const double base[3] = {0.8, 0.6, 0.4};
  for (int c = 0; c < 3; c++) assert_near(a->base_color[c], base[c], 1e-6);
  assert_near(a->alpha, 0.9, 1e-6);
  assert_near(a->metallic, 0.7, 1e-6);
  assert_near(a->roughness, 0.6, 1e-6);
  assert_near(a->normal_scale, 0.5, 1e-6);
  assert_near(a->alpha_cutoff, 0.3, 1e-6);
  assert_near(a->transmission, 0.25, 1e-6);
  assert_near(a->ior, 1.33, 1e-6);
  /* emissiveFactor x KHR_materials_emissive_strength 4 (which Assimp
   * 5.2.5 drops; sensim reads it from the file's JSON). */
  const double em[3] = {4.0, 2.0, 1.0};
  for (int c = 0; c < 3; c++) assert_near(a->emission[c], em[c], 1e-6);
  /* Textures as the PNGs store them (sRGB-encoded codes / 255); the
   * base-colour texture keeps its alpha. */
  const double t0[4] = {1, 128 / 255.0, 0, 64 / 255.0}, t1[4] = {0, 0, 1, 1};
  assert_texel(a->texture, 0, 0, t0);
  assert_texel(a->texture, 1, 0, t1);
  assert_true(a->texture->srgb && a->texture->has_alpha);
  const double mr[4] = {0, 128 / 255.0, 64 / 255.0, 1}, nm[4] = {204 / 255.0, 128 / 255.0, 230 / 255.0, 1},
               et[4] = {1, 128 / 255.0, 0, 1};
  assert_texel(a->metallic_roughness_texture, 0, 0, mr);
  assert_texel(a->normal_texture, 0, 0, nm);
  assert_texel(a->emissive_texture, 0, 0, et);
  const double bb[3] = {0.1, 0.2, 0.3};
  for (int c = 0; c < 3; c++) assert_near(b->base_color[c], bb[c], 1e-6);
  assert_near(b->alpha, 0.5, 1e-6);
  assert_near(b->metallic, 0.0, 1e-6);
  assert_near(b->roughness, 1.0, 1e-6);
  assert_null(b->texture);
  /* The mesh's own material (radar, lidar) is its first. */
  assert_memory_equal(&m->material, &m->materials[0], sizeof m->material);
}

static void test_gltf_material_fields_round_trip(void **state) {
  (void)state;
  const char *files[2] = {GLTF "materials.gltf", GLTF "materials.glb"};
  for (int i = 0; i < 2; i++) {
    sensim_world *w = test_world(0, 1);
    sensim_mesh *m = NULL;
    SENSIM_OK_OR_FAIL(sensim_mesh_load(w, files[i], NULL, &m));
    check_materials_mesh(m);
    /* Four images, each made once. */
    assert_int_equal(w->ntextures, 4);
    /* A caller's material replaces the file's, as for other formats. */
    sensim_material mine;
    sensim_material_init(&mine);
    mine.base_color[0] = 0.25f;
    sensim_mesh *m2 = NULL;
    SENSIM_OK_OR_FAIL(sensim_mesh_load(w, files[i], &mine, &m2));
    assert_null(m2->materials);
    assert_near(m2->material.base_color[0], 0.25, 1e-7);
    assert_int_equal(w->ntextures, 4);
    sensim_world_destroy(w);
  }
}

static void test_gltf_broken_files_are_refused_naming_them(void **state) {
  (void)state;
  static const struct {
    const char *file;
    sensim_status st;
    const char *says;
  } cases[] = {
      {GLTF "missing_texture.gltf", SENSIM_EPARSE, "missing_base.png"},
      {GLTF "negative_ior.gltf", SENSIM_EPARSE, "ior"},
      {GLTF "bad_image.gltf", SENSIM_EPARSE, "not_a_png.png"},
      {GLTF "negative_emissive_strength.gltf", SENSIM_EPARSE, "emissiveStrength"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sensim_world *w = test_world(0, 1);
    sensim_mesh *m = NULL;
    assert_int_equal(sensim_mesh_load(w, cases[i].file, NULL, &m), cases[i].st);
    const char *e = sensim_last_error();
    if (!strstr(e, cases[i].says) || !strstr(e, cases[i].file))
      fail_msg("'%s' does not name '%s' and the file", e, cases[i].says);
    assert_null(m);
    /* Nothing half-created: no mesh, and the textures made before the
     * fault are gone. */
    assert_int_equal(w->nmeshes, 0);
    assert_int_equal(w->ntextures, 0);
    sensim_world_destroy(w);
  }
}

int sensim_test_gltf_materials(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gltf_material_fields_round_trip),
      cmocka_unit_test(test_gltf_broken_files_are_refused_naming_them),
  };
  return cmocka_run_group_tests_name("gltf_materials", tests, NULL, NULL);
}
