/* Textures from PNG files, and the scenario keys for textures and spot
 * lights. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scene/scene.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/texture"

/* IEC 61966-2-1 decoding, written out independently of src/io. */
static double srgb_decode(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static void write_rgba(const char *path, const uint8_t *px, uint32_t w, uint32_t h) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGBA8, w, h));
  memcpy(f.data, px, (size_t)w * h * 4);
  SENSIM_OK_OR_FAIL(sensim_write_png(path, &f));
  free(f.data);
}

static void test_texture_png_is_linearised_from_srgb(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  const uint8_t px[16] = {255, 0, 0, 255, 0, 128, 0, 255, 0, 0, 10, 255, 200, 200, 200, 255};
  write_rgba(TMP "/tex.png", px, 2, 2);
  sensim_world *w = test_world(0, 1);
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_load_png(w, TMP "/tex.png", &t));
  assert_int_equal(t->width, 2);
  assert_int_equal(t->height, 2);
  for (int i = 0; i < 4; i++) {
    float rgb[3];
    /* Texel centres: bilinear sampling returns the texel itself. */
    sensim__texture_sample(t, (i % 2 + 0.5f) / 2, (i / 2 + 0.5f) / 2, rgb);
    for (int c = 0; c < 3; c++) assert_near(rgb[c], srgb_decode(px[4 * i + c] / 255.0), 1e-6);
  }
  /* Half way between the two top texels: their mean (bilinear). */
  float mid[3];
  sensim__texture_sample(t, 0.5f, 0.25f, mid);
  assert_near(mid[0], 0.5 * (1.0 + 0.0), 1e-6);
  assert_near(mid[1], 0.5 * srgb_decode(128 / 255.0), 1e-6);
  assert_int_equal(sensim_texture_load_png(w, TMP "/missing.png", &t), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "missing.png"));
  sensim_world_destroy(w);
}

static void test_scenario_texture_and_spot_light_keys(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  const uint8_t px[4] = {255, 255, 255, 255};
  write_rgba(TMP "/white.png", px, 1, 1);
  const char *json =
      "{\"duration\": 0.1, \"world\": {\"threads\": 0},"
      " \"meshes\": [{\"name\": \"floor\", \"shape\": {\"kind\": \"plane\", \"size\": [10, 10, 0]},"
      "   \"material\": {\"texture\": \"white.png\", \"base_color\": [1, 1, 1]}}],"
      " \"lights\": [{\"kind\": \"spot\", \"position\": [0, 0, 3], \"direction\": [0, 0, -1],"
      "   \"intensity\": 9, \"spot_inner\": 0.3, \"spot_outer\": 0.5}],"
      " \"bodies\": [{\"name\": \"f\", \"mesh\": \"floor\", \"static\": true}]}";
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, TMP, &scn));
  sensim_world *w = sensim_scenario_world(scn);
  assert_int_equal(w->ntextures, 1);
  assert_ptr_equal(w->meshes[0]->material.texture, w->textures[0]);
  assert_int_equal(w->nlights, 1);
  assert_int_equal(w->lights[0].kind, SENSIM_LIGHT_SPOT);
  assert_near(w->lights[0].spot_outer, 0.5, 1e-7);
  sensim_scenario_destroy(scn);
  const char *bad[] = {
      "{\"duration\": 1, \"meshes\": [{\"name\": \"m\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},"
      " \"material\": {\"texture\": \"nope.png\"}}]}",
      "{\"duration\": 1, \"lights\": [{\"kind\": \"point\", \"spot_outer\": 0.5}]}",
      "{\"duration\": 1, \"lights\": [{\"kind\": \"spot\", \"spot_inner\": 0.6, \"spot_outer\": 0.5}]}"};
  const char *where[] = {"meshes[0].material.texture", "lights[0]", "lights[0]"};
  for (int i = 0; i < 3; i++) {
    scn = NULL;
    assert_true(sensim_scenario_load_string(bad[i], TMP, &scn) < 0);
    assert_null(scn);
    if (!strstr(sensim_last_error(), where[i])) fail_msg("error '%s' does not name %s", sensim_last_error(), where[i]);
  }
}

int sensim_test_texture_png(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_texture_png_is_linearised_from_srgb),
      cmocka_unit_test(test_scenario_texture_and_spot_light_keys),
  };
  return cmocka_run_group_tests_name("texture_png", tests, NULL, NULL);
}
