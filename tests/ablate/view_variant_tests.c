/* tests/ablate/view_variant_tests.c: the ablation's field-of-view and
 * lighting variants (lens_pinhole_fov, lighting_flat, fov_lighting)
 * against closed forms: the pinhole focal length for a field of view, an
 * equidistant fisheye's edge angles, the irradiance lights gave level
 * ground; and rendered: under flat lighting a box's faces look alike. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"
#include "tools/ablate_internal.h"

#define DIR_V ABLATE_TMP "/ablate_view"
static const double kPi = 3.14159265358979323846;

/* atan(a / f) + atan(b / f) = fov for the focal length returned, over
 * centred and off-centre principal points and fields on both sides of
 * 90 deg; a = b gives a / tan(fov / 2), fov = 90 deg gives sqrt(a b). */
static void test_pinhole_focal_for_fov_solves_the_angle_sum(void **state) {
  (void)state;
  const double ab[][2] = {{320, 320}, {100, 540}, {0.5, 12}, {7.5, 8.5}};
  const double fovs[] = {0.01, 0.5, kPi / 2, 2.0, 3.0};
  for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
    for (size_t k = 0; k < sizeof fovs / sizeof fovs[0]; k++) {
      double a = ab[i][0], b = ab[i][1], f = sensim_tools__pinhole_focal_for_fov(a, b, fovs[k]);
      assert_true(f > 0);
      assert_near(atan(a / f) + atan(b / f), fovs[k], 1e-12);
    }
  assert_near(sensim_tools__pinhole_focal_for_fov(320, 320, 1.2), 320 / tan(0.6), 1e-9);
  assert_near(sensim_tools__pinhole_focal_for_fov(100, 400, kPi / 2), 200, 1e-9);
}

/* A scenario with one camera of the given keys (JSON members). */
static char *scene_with_camera(const char *camera_keys) {
  char *t = malloc(1024);
  assert_non_null(t);
  snprintf(t, 1024,
           "{\"duration\": 0.05, \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 20, %s}]}",
           camera_keys);
  return t;
}

static cJSON *edit(const char *text, sensim_ablation a, sensim_status want, char *notes, size_t nn) {
  char *json = NULL;
  assert_int_equal(sensim_ablation_edit(text, a, 0, &json, notes, nn), want);
  if (want != SENSIM_OK) {
    assert_null(json);
    return NULL;
  }
  cJSON *root = cJSON_Parse(json);
  free(json);
  assert_non_null(root);
  return root;
}

static const cJSON *cam_of(const cJSON *root) {
  return cJSON_GetArrayItem(cJSON_GetObjectItem(root, "sensors"), 0);
}

/* An equidistant fisheye (Kannala-Brandt with k = 0: theta = r / f) of
 * f = 40 px on 64 x 48 pixels centred at (31.5, 23.5) sees 32 / 40 = 0.8
 * rad to each side and 24 / 40 = 0.6 rad up and down; the pinhole of the
 * same field has fx' = 32 / tan(0.8), fy' = 24 / tan(0.6) and keeps the
 * principal point. The loaded variant's own rays confirm it. */
static void test_lens_pinhole_fov_of_an_equidistant_fisheye_matches_the_closed_form(void **state) {
  (void)state;
  char *text = scene_with_camera("\"width\": 64, \"height\": 48, \"fx\": 40, \"fy\": 40, \"cx\": 31.5, \"cy\": 23.5, "
                                 "\"lens\": \"kannala_brandt\"");
  char notes[512];
  cJSON *root = edit(text, SENSIM_ABLATE_LENS_FOV, SENSIM_OK, notes, sizeof notes);
  const cJSON *c = cam_of(root);
  assert_string_equal(cJSON_GetObjectItem(c, "lens")->valuestring, "pinhole");
  assert_null(cJSON_GetObjectItem(c, "dist"));
  assert_near(cJSON_GetObjectItem(c, "fx")->valuedouble, 32 / tan(0.8), 1e-6);
  assert_near(cJSON_GetObjectItem(c, "fy")->valuedouble, 24 / tan(0.6), 1e-6);
  assert_near(cJSON_GetObjectItem(c, "cx")->valuedouble, 31.5, 0);
  assert_near(cJSON_GetObjectItem(c, "cy")->valuedouble, 23.5, 0);
  assert_non_null(strstr(notes, "cam: lens kannala_brandt -> pinhole of the same field of view, 91.67 x 68.75 deg"));
  /* The variant loads, and its rays at the image's edges leave at the
   * fisheye's angles. */
  char *json = cJSON_PrintUnformatted(root);
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  sensim_camera_params cp;
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(sensim_world_sensor(sensim_scenario_world(scn), 0), &cp));
  sensim_vec3 d;
  SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&cp, -0.5, 23.5, &d));
  assert_near(atan2(d.y, d.x), 0.8, 1e-9);
  SENSIM_OK_OR_FAIL(sensim_camera_pixel_ray(&cp, 31.5, 47.5, &d));
  assert_near(atan2(-d.z, d.x), 0.6, 1e-9);
  sensim_scenario_destroy(scn);
  free(json);
  cJSON_Delete(root);
  free(text);
}

/* No pinhole sees 90 deg or more to one side: a fisheye whose edge is
 * 2.5 rad off the axis is refused, naming the camera; a pinhole is left
 * as it is. */
static void test_lens_pinhole_fov_refuses_what_no_pinhole_sees_and_keeps_a_pinhole(void **state) {
  (void)state;
  char *fish = scene_with_camera("\"width\": 100, \"height\": 50, \"fx\": 20, \"fy\": 20, \"cx\": 49.5, \"cy\": 24.5, "
                                 "\"lens\": \"kannala_brandt\"");
  edit(fish, SENSIM_ABLATE_LENS_FOV, SENSIM_EINVAL, NULL, 0);
  assert_non_null(strstr(sensim_last_error(), "cam"));
  assert_non_null(strstr(sensim_last_error(), "no pinhole"));
  edit(fish, SENSIM_ABLATE_COMBINED, SENSIM_EINVAL, NULL, 0);
  char *pin = scene_with_camera("\"width\": 32, \"height\": 24, \"hfov_deg\": 70");
  char notes[256];
  cJSON *root = edit(pin, SENSIM_ABLATE_LENS_FOV, SENSIM_OK, notes, sizeof notes);
  assert_string_equal(notes, "cam: lens is already pinhole: unchanged\n");
  assert_int_equal(cJSON_GetObjectItem(cam_of(root), "hfov_deg")->valuedouble, 70);
  assert_null(cJSON_GetObjectItem(cam_of(root), "fx"));
  cJSON_Delete(root);
  free(fish);
  free(pin);
}

/* Level ground got I (mean tint) cos(zenith) from each directional light:
 * 2 * (1 + 0.5 + 0) / 3 * 0.6 = 0.6 from a sun 53.13 deg from the zenith,
 * nothing from one shining upwards; a point light is dropped; with no
 * "world" the default ambient 0.1 is the start. */
static void test_lighting_flat_adds_what_the_suns_gave_level_ground(void **state) {
  (void)state;
  const char *text =
      "{\"duration\": 0.05, \"lights\": [\n"
      "  {\"kind\": \"directional\", \"direction\": [0.8, 0, -0.6], \"intensity\": 2, \"color\": [1, 0.5, 0]},\n"
      "  {\"kind\": \"directional\", \"direction\": [0, 0, 1], \"intensity\": 5},\n"
      "  {\"kind\": \"point\", \"position\": [0, 0, 3], \"intensity\": 9}],\n"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 20}]}";
  char notes[512];
  cJSON *root = edit(text, SENSIM_ABLATE_LIGHTING, SENSIM_OK, notes, sizeof notes);
  assert_null(cJSON_GetObjectItem(root, "lights"));
  assert_near(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "world"), "ambient")->valuedouble, 0.1 + 0.6, 1e-15);
  assert_non_null(strstr(notes, "lights: 2 directional lights removed (0.6 on level ground), ambient 0.1 -> 0.7"));
  assert_non_null(strstr(notes, "point and spot lights dropped"));
  cJSON_Delete(root);
  /* A zero direction is refused. */
  edit("{\"duration\": 1, \"lights\": [{\"kind\": \"directional\", \"direction\": [0, 0, 0]}], \"sensors\": "
       "[{\"name\": \"cam\", \"type\": \"camera\"}]}",
       SENSIM_ABLATE_LIGHTING, SENSIM_EINVAL, NULL, 0);
  edit("{\"duration\": 1, \"lights\": {}, \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\"}]}",
       SENSIM_ABLATE_LIGHTING, SENSIM_EPARSE, NULL, 0);
}

/* The red of the box's pixels whose 8 neighbours are box too, min and max
 * (its visible faces, away from edges mixed with the background). */
static void box_red_range(const sensim_image *img, double *lo, double *hi) {
  *lo = 1e9, *hi = -1e9;
  int w = (int)img->width, h = (int)img->height, n = 0;
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w - 1; x++) {
      int inside = 1;
      for (int dy = -1; dy <= 1 && inside; dy++)
        for (int dx = -1; dx <= 1 && inside; dx++) {
          const float *p = img->data + 3 * ((y + dy) * w + x + dx);
          inside = p[0] > p[1] + 0.15f;
        }
      if (!inside) continue;
      double r = img->data[3 * (y * w + x)];
      if (r < *lo) *lo = r;
      if (r > *hi) *hi = r;
      n++;
    }
  assert_true(n >= 20);
}

/* A box seen across a corner: under the sun its two visible faces differ
 * (the sun lights one and grazes the other); under flat lighting both are the
 * albedo under the same sky, the same value to the last bit. No noise, a
 * fixed exposure, one sample per pixel. */
static void test_lighting_flat_makes_the_box_faces_alike(void **state) {
  (void)state;
  const char *text =
      "{\"world\": {\"seed\": 3, \"threads\": 0, \"background\": [0.1, 0.1, 0.1], \"ambient\": 0.5},\n"
      " \"duration\": 0.05,\n"
      " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},\n"
      "              \"material\": {\"base_color\": [0.8, 0.1, 0.1], \"roughness\": 1}}],\n"
      " \"lights\": [{\"kind\": \"directional\", \"direction\": [0.6, 0.8, -0.5], \"intensity\": 3}],\n"
      " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\",\n"
      "   \"pose\": {\"position\": [3, 0, 0], \"quaternion\": [0.9238795, 0, 0, 0.3826834]}}],\n"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 20, \"width\": 48, \"height\": 32,\n"
      "   \"hfov_deg\": 40, \"samples\": 1,\n"
      "   \"filters\": [{\"name\": \"srgb8\"}]}]}";
  ablate_fresh_dir(DIR_V);
  double lo[2], hi[2];
  for (int v = 0; v < 2; v++) {
    char *json = NULL;
    SENSIM_OK_OR_FAIL(sensim_ablation_edit(text, v ? SENSIM_ABLATE_LIGHTING : SENSIM_ABLATE_BASELINE, 1, &json, NULL, 0));
    sensim_scenario *scn = NULL;
    SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
    char dir[256];
    snprintf(dir, sizeof dir, DIR_V "/%d", v);
    sensim_run_summary sum;
    SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, dir, NULL, NULL, &sum));
    sensim_scenario_destroy(scn);
    free(json);
    char png[300];
    snprintf(png, sizeof png, "%s/cam/frame_000000.png", dir);
    sensim_image img;
    SENSIM_OK_OR_FAIL(sensim_read_png(png, &img));
    box_red_range(&img, &lo[v], &hi[v]);
    sensim_image_free(&img);
  }
  if (!(hi[0] - lo[0] > 0.1)) fail_msg("baseline: the faces do not differ (red %g .. %g)", lo[0], hi[0]);
  if (hi[1] != lo[1]) fail_msg("lighting_flat: the faces differ (red %g .. %g)", lo[1], hi[1]);
}

int sensim_test_ablate_view_variants(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pinhole_focal_for_fov_solves_the_angle_sum),
      cmocka_unit_test(test_lens_pinhole_fov_of_an_equidistant_fisheye_matches_the_closed_form),
      cmocka_unit_test(test_lens_pinhole_fov_refuses_what_no_pinhole_sees_and_keeps_a_pinhole),
      cmocka_unit_test(test_lighting_flat_adds_what_the_suns_gave_level_ground),
      cmocka_unit_test(test_lighting_flat_makes_the_box_faces_alike),
  };
  return cmocka_run_group_tests_name("ablate_view_variants", tests, NULL, NULL);
}
