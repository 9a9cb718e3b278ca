/* tests/scene/materials_tests.c: what glTF-style materials need of the
 * scene: RGBA textures decoded per use (colour sRGB, data as stored),
 * alpha kept from PNG files, MikkTSpace-style tangents against
 * hand-worked triangles, and meshes refusing bad normals, tangents and
 * material indices. Expected values are worked out here by hand or from
 * IEC 61966-2-1, independently of src/scene. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include "scene/scene.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/materials"

static double srgb_decode(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static void test_texture_decodes_srgb_for_colour_and_keeps_values_for_data(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  /* Two texels: (0.5, 0.2, 1.0, alpha 0.25) and (0.04, 0.8, 0.0, alpha 1). */
  const float px[8] = {0.5f, 0.2f, 1.0f, 0.25f, 0.04f, 0.8f, 0.0f, 1.0f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create_rgba(w, 2, 1, px, 1, &t));
  assert_true(t->has_alpha);
  for (int i = 0; i < 2; i++) {
    float col[4], dat[4];
    sensim__texture_sample4(t, (i + 0.5f) / 2, 0.5f, SENSIM__TEX_COLOR, col);
    sensim__texture_sample4(t, (i + 0.5f) / 2, 0.5f, SENSIM__TEX_DATA, dat);
    for (int c = 0; c < 3; c++) {
      assert_near(col[c], srgb_decode(px[4 * i + c]), 1e-6);
      assert_near(dat[c], px[4 * i + c], 1e-7);
    }
    assert_near(col[3], px[4 * i + 3], 1e-7); /* alpha is linear in both uses */
    assert_near(dat[3], px[4 * i + 3], 1e-7);
  }
  /* Colour is filtered as linear light: half way, the mean of the decoded
   * values, not the decoded mean. */
  float mid[4];
  sensim__texture_sample4(t, 0.5f, 0.5f, SENSIM__TEX_COLOR, mid);
  assert_near(mid[1], 0.5 * (srgb_decode(0.2) + srgb_decode(0.8)), 1e-6);
  /* A linear texture reads the same in both uses; RGB has alpha 1. */
  const float rgb[3] = {0.3f, 0.6f, 0.9f};
  SENSIM_OK_OR_FAIL(sensim_texture_create(w, 1, 1, rgb, &t));
  assert_false(t->has_alpha);
  float c4[4], d4[4];
  sensim__texture_sample4(t, 0.1f, 0.7f, SENSIM__TEX_COLOR, c4);
  sensim__texture_sample4(t, 0.1f, 0.7f, SENSIM__TEX_DATA, d4);
  for (int c = 0; c < 3; c++) assert_true(c4[c] == rgb[c] && d4[c] == rgb[c]);
  assert_true(c4[3] == 1.0f);
  /* Out of range and NULL are refused with nothing made. */
  size_t before = w->ntextures;
  const float bad[4] = {0.5f, 0.5f, 0.5f, 1.5f};
  assert_int_equal(sensim_texture_create_rgba(w, 1, 1, bad, 0, &t), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "value 3"));
  assert_int_equal(sensim_texture_create_rgba(w, 1, 1, NULL, 0, &t), SENSIM_EINVAL);
  assert_int_equal(w->ntextures, before);
  sensim_world_destroy(w);
}

static void test_texture_png_keeps_alpha(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  const uint8_t px[8] = {255, 128, 0, 128, 10, 20, 30, 255};
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGBA8, 2, 1));
  memcpy(f.data, px, sizeof px);
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/alpha.png", &f));
  free(f.data);
  sensim_world *w = test_world(0, 1);
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_load_png(w, TMP "/alpha.png", &t));
  assert_true(t->srgb && t->has_alpha);
  float c[4], d[4];
  sensim__texture_sample4(t, 0.25f, 0.5f, SENSIM__TEX_COLOR, c);
  sensim__texture_sample4(t, 0.25f, 0.5f, SENSIM__TEX_DATA, d);
  assert_near(c[3], 128 / 255.0, 1e-6);
  assert_near(c[1], srgb_decode(128 / 255.0), 1e-6);
  assert_near(d[1], 128 / 255.0, 1e-6);
  sensim_world_destroy(w);
}

/* An 8 x 8 JPEG of one colour at quality 100 (libjpeg), into `path`. */
static void write_jpeg(const char *path, const uint8_t rgb[3]) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_compress(&c);
  jpeg_stdio_dest(&c, f);
  c.image_width = c.image_height = 8;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 100, TRUE);
  jpeg_start_compress(&c, TRUE);
  uint8_t row[24];
  for (int i = 0; i < 24; i++) row[i] = rgb[i % 3];
  while (c.next_scanline < 8) {
    JSAMPROW r = row;
    jpeg_write_scanlines(&c, &r, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  fclose(f);
}

static void test_texture_from_jpeg_and_broken_images(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  const uint8_t rgb[3] = {200, 100, 50};
  write_jpeg(TMP "/flat.jpg", rgb);
  sensim_world *w = test_world(0, 1);
  FILE *f = fopen(TMP "/flat.jpg", "rb");
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim__texture_from_png(w, f, "flat.jpg", &t));
  fclose(f);
  assert_true(t->srgb && !t->has_alpha);
  float d[4];
  sensim__texture_sample4(t, 0.3f, 0.6f, SENSIM__TEX_DATA, d);
  /* Quality 100 on a flat block: the codes back within rounding of the
   * colour conversion (+-2). */
  for (int c = 0; c < 3; c++) assert_near(d[c], rgb[c] / 255.0, 2.5 / 255.0);
  /* Cut short, or neither PNG nor JPEG: EPARSE naming the image, nothing made. */
  const size_t before = w->ntextures;
  FILE *cut = fopen(TMP "/flat.jpg", "rb");
  unsigned char buf[64];
  const size_t n = fread(buf, 1, sizeof buf, cut);
  fclose(cut);
  FILE *m = fmemopen(buf, n, "rb");
  assert_int_equal(sensim__texture_from_png(w, m, "cut.jpg", &t), SENSIM_EPARSE);
  fclose(m);
  assert_non_null(strstr(sensim_last_error(), "cut.jpg"));
  char junk[] = "GIF89a not an image sensim reads";
  m = fmemopen(junk, sizeof junk, "rb");
  assert_int_equal(sensim__texture_from_png(w, m, "junk.gif", &t), SENSIM_EPARSE);
  fclose(m);
  assert_non_null(strstr(sensim_last_error(), "junk.gif"));
  assert_int_equal(w->ntextures, before);
  sensim_world_destroy(w);
}

/* Tangents of one triangle p0 p1 p2 with uvs, optionally vertex normals. */
static void tangents_of(const float p[9], const float uv[6], const float *n, float out[12]) {
  const uint32_t ix[3] = {0, 1, 2};
  float *t = sensim__mesh_tangents(p, uv, n, 3, ix, 1);
  assert_non_null(t);
  memcpy(out, t, 12 * sizeof *out);
  free(t);
}

static void test_tangents_match_hand_worked_triangles(void **state) {
  (void)state;
  float t[12];
  /* The unit square's lower triangle in the XY plane, u along +x and v
   * down (v = 1 - y): T = dP/du = +x, the bitangent up the image is +y =
   * z x x, so w = +1 (glTF's usual right-handed frame). */
  const float sq[9] = {0, 0, 0, 1, 0, 0, 1, 1, 0};
  const float uv[6] = {0, 1, 1, 1, 1, 0};
  tangents_of(sq, uv, NULL, t);
  for (int i = 0; i < 3; i++) {
    assert_near(t[4 * i], 1, 1e-6);
    assert_near(t[4 * i + 1], 0, 1e-6);
    assert_near(t[4 * i + 2], 0, 1e-6);
    assert_true(t[4 * i + 3] == 1.0f);
  }
  /* u mirrored (u = 1 - x): T = -x, and z x (-x) = -y points down while
   * the image's up is still +y: w = -1. */
  const float uvm[6] = {1, 1, 0, 1, 0, 0};
  tangents_of(sq, uvm, NULL, t);
  for (int i = 0; i < 3; i++) {
    assert_near(t[4 * i], -1, 1e-6);
    assert_true(t[4 * i + 3] == -1.0f);
  }
  /* Sheared uvs: e1 = x, e2 = y with uv steps (1, -0.5) and (0, -1).
   * P = a e1 + b e2 with du = a, dv = -0.5 a - b, so dP/du = e1 - 0.5 e2 =
   * (1, -0.5, 0) -> (2, -1, 0) / sqrt 5; dP/dv = -e2 and z x T = (1, 2,
   * 0) / sqrt 5 has a positive part along -dP/dv: w = +1. */
  const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const float uvs[6] = {0, 1, 1, 0.5f, 0, 0};
  tangents_of(tri, uvs, NULL, t);
  for (int i = 0; i < 3; i++) {
    assert_near(t[4 * i], 2 / sqrt(5), 1e-6);
    assert_near(t[4 * i + 1], -1 / sqrt(5), 1e-6);
    assert_near(t[4 * i + 2], 0, 1e-6);
    assert_true(t[4 * i + 3] == 1.0f);
  }
  /* Tilted vertex normals n = (0.6, 0, 0.8): Gram-Schmidt of that T
   * against n, T - n (n . T), normalised. */
  const float nrm[9] = {0.6f, 0, 0.8f, 0.6f, 0, 0.8f, 0.6f, 0, 0.8f};
  tangents_of(tri, uvs, nrm, t);
  double T[3] = {2 / sqrt(5), -1 / sqrt(5), 0}, nn[3] = {0.6, 0, 0.8};
  double d = T[0] * nn[0] + T[2] * nn[2];
  for (int k = 0; k < 3; k++) T[k] -= nn[k] * d;
  double l = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 3; k++) assert_near(t[4 * i + k], T[k] / l, 1e-6);
  /* A quad of two triangles with one mapping: the shared vertices'
   * accumulated frames agree with each triangle's. */
  const float quad[12] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0};
  const float quv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
  const uint32_t qix[6] = {0, 1, 2, 0, 2, 3};
  float *q = sensim__mesh_tangents(quad, quv, NULL, 4, qix, 2);
  assert_non_null(q);
  for (int i = 0; i < 4; i++) {
    assert_near(q[4 * i], 1, 1e-6);
    assert_true(q[4 * i + 3] == 1.0f);
  }
  free(q);
}

static void test_mesh_generates_tangents_for_normal_maps(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const float tex[3] = {0.5f, 0.5f, 1.0f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create(w, 1, 1, tex, &t));
  sensim_material m;
  sensim_material_init(&m);
  const float v[9] = {0, 0, 0, 1, 0, 0, 1, 1, 0}, uv[6] = {0, 1, 1, 1, 1, 0};
  const uint32_t ix[3] = {0, 1, 2};
  sensim_mesh_desc d = test_mesh_desc(v, 3, ix, 1, &m);
  d.uvs = uv;
  sensim_mesh *mesh = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  assert_null(mesh->tangents); /* no normal map: none needed */
  m.normal_texture = t;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  assert_non_null(mesh->tangents);
  assert_near(mesh->tangents[0], 1, 1e-6);
  /* Given tangents and normals are kept, normalised. */
  const float tg[12] = {2, 0, 0, -1, 2, 0, 0, -1, 2, 0, 0, -1}, nr[9] = {0, 0, 3, 0, 0, 3, 0, 0, 3};
  d.tangents = tg;
  d.normals = nr;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &mesh));
  assert_true(mesh->tangents[0] == 1.0f && mesh->tangents[3] == -1.0f);
  assert_true(mesh->normals[2] == 1.0f);
  sensim_world_destroy(w);
}

static void test_mesh_refuses_bad_normals_tangents_and_materials(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  const float v[9] = {0, 0, 0, 1, 0, 0, 1, 1, 0};
  const uint32_t ix[3] = {0, 1, 2};
  const float zero_n[9] = {0, 0, 1, 0, 0, 0, 0, 0, 1}, nan_n[9] = {0, 0, 1, 0, 0, NAN, 0, 0, 1};
  const float bad_w[12] = {1, 0, 0, 1, 1, 0, 0, 0.5f, 1, 0, 0, 1}, zero_t[12] = {1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1};
  sensim_material mats[2];
  sensim_material_init(&mats[0]);
  sensim_material_init(&mats[1]);
  const uint32_t tm_bad[1] = {2};
  sensim_material bad_mat;
  sensim_material_init(&bad_mat);
  bad_mat.ior = -1.0f;
  sensim_material two_bad[2] = {mats[0], bad_mat};
  size_t before = w->nmeshes;
  for (int k = 0; k < 7; k++) {
    sensim_mesh_desc d = test_mesh_desc(v, 3, ix, 1, NULL);
    const char *expect = NULL;
    switch (k) {
      case 0: d.normals = zero_n, expect = "normal 1"; break;
      case 1: d.normals = nan_n, expect = "normal 1"; break;
      case 2: d.tangents = bad_w, expect = "handedness"; break;
      case 3: d.tangents = zero_t, expect = "tangent 1"; break;
      case 4: d.materials = mats, d.nmaterials = 2, d.tri_material = tm_bad, expect = "material 2 of 2"; break;
      case 5: d.materials = mats, d.nmaterials = 2, d.material = &mats[0], expect = "both"; break;
      default: d.materials = two_bad, d.nmaterials = 2, expect = "materials[1]"; break;
    }
    sensim_mesh *m = NULL;
    assert_int_equal(sensim_mesh_create(w, &d, &m), SENSIM_EINVAL);
    if (!strstr(sensim_last_error(), expect)) fail_msg("case %d: '%s' does not say '%s'", k, sensim_last_error(), expect);
    assert_null(m);
  }
  assert_int_equal(w->nmeshes, before);
  /* Per-triangle materials: triangle i reads materials[tri_material[i]],
   * the mesh's own is materials[0]. */
  const float v2[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  const uint32_t ix2[6] = {0, 1, 2, 0, 2, 3}, tm[2] = {1, 0};
  mats[1].base_color[0] = 0.9f;
  sensim_mesh_desc d = test_mesh_desc(v2, 4, ix2, 2, NULL);
  d.materials = mats, d.nmaterials = 2, d.tri_material = tm;
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  assert_near(sensim__mesh_tri_material(m, 0)->base_color[0], 0.9, 1e-7);
  assert_near(sensim__mesh_tri_material(m, 1)->base_color[0], 0.5, 1e-7);
  assert_near(m->material.base_color[0], 0.5, 1e-7);
  sensim_world_destroy(w);
}

int sensim_test_materials(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_texture_decodes_srgb_for_colour_and_keeps_values_for_data),
      cmocka_unit_test(test_texture_png_keeps_alpha),
      cmocka_unit_test(test_texture_from_jpeg_and_broken_images),
      cmocka_unit_test(test_tangents_match_hand_worked_triangles),
      cmocka_unit_test(test_mesh_generates_tangents_for_normal_maps),
      cmocka_unit_test(test_mesh_refuses_bad_normals_tangents_and_materials),
  };
  return cmocka_run_group_tests_name("materials", tests, NULL, NULL);
}
