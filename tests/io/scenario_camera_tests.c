/* tests/io/scenario_camera_tests.c: every camera key of docs/scenario.md
 * reaches the camera, bad keys fail naming the key, reference images
 * become reference statistics, and 16-bit chains write 16-bit PNGs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "io/scenario_internal.h"
#include "io/scenario_fixtures.h"

/* ---- camera keys, reference images, 16-bit outputs ------------------------ */

/* The camera's parameters as the loader handed them to sensim_camera_create. */
static const sensim_camera_params *camera_params_of(sensim_sensor *s) {
  static sensim_camera_params p;
  assert_non_null(s);
  SENSIM_OK_OR_FAIL(sensim_camera_params_get(s, &p));
  return &p;
}


/* Every camera key of docs/scenario.md reaches sensim_camera_params with
 * its unit conversion; a camera without the keys keeps the defaults. */
static void test_camera_keys_reach_the_params(void **state) {
  (void)state;
  const char *json = CAM_WRAP(
      "{\"name\": \"bc\", \"type\": \"camera\", \"width\": 64, \"height\": 48, \"hfov_deg\": 80,"
      " \"samples\": 9, \"fx\": 50.5, \"fy\": 51.25, \"cx\": 31.75, \"cy\": 23.5,"
      " \"lens\": \"brown_conrady\", \"dist\": [-0.05, 0.01, 0.001, -0.002, 0.003],"
      " \"vignetting\": true, \"vignetting_poly\": [-0.1, 0.02, -0.003],"
      " \"lateral_ca\": [1.002, 1, 0.998], \"exposure_time\": 0.004, \"line_time\": 2e-5,"
      " \"depth_along_ray\": true, \"max_bounces\": 3, \"fog_visibility\": 250},"
      "{\"name\": \"kb\", \"type\": \"camera\", \"width\": 40, \"height\": 40, \"hfov_deg\": 120,"
      " \"fx\": 12, \"fy\": 12, \"lens\": \"kannala_brandt\", \"dist\": [0.01, -0.002]},"
      "{\"name\": \"fov\", \"type\": \"camera\", \"width\": 32, \"height\": 24, \"lens\": \"fov\","
      " \"hfov_deg\": 100, \"vignetting\": false, \"depth_along_ray\": false, \"max_bounces\": 0},"
      "{\"name\": \"plain\", \"type\": \"camera\", \"width\": 16, \"height\": 12}");
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  sensim_world *w = sensim_scenario_world(scn);

  const sensim_camera_params *bc = camera_params_of(sensim_world_sensor_by_name(w, "bc"));
  assert_int_equal(bc->width, 64);
  assert_int_equal(bc->height, 48);
  assert_near(bc->hfov, 80 * PI / 180, 1e-15);
  assert_int_equal(bc->samples, 9);
  assert_near(bc->fx, 50.5, 0);
  assert_near(bc->fy, 51.25, 0);
  assert_near(bc->cx, 31.75, 0);
  assert_near(bc->cy, 23.5, 0);
  assert_int_equal(bc->lens, SENSIM_LENS_BROWN_CONRADY);
  const double dist[5] = {-0.05, 0.01, 0.001, -0.002, 0.003};
  for (int i = 0; i < 5; i++) assert_near(bc->dist[i], dist[i], 0);
  assert_int_equal(bc->vignetting, 1);
  assert_near(bc->vignetting_poly[0], -0.1, 0);
  assert_near(bc->vignetting_poly[1], 0.02, 0);
  assert_near(bc->vignetting_poly[2], -0.003, 0);
  assert_near(bc->lateral_ca[0], 1.002, 0);
  assert_near(bc->lateral_ca[1], 1, 0);
  assert_near(bc->lateral_ca[2], 0.998, 0);
  assert_near(bc->exposure_time, 0.004, 0);
  assert_near(bc->line_time, 2e-5, 0);
  assert_int_equal(bc->depth_along_ray, 1);
  assert_int_equal(bc->max_bounces, 3);
  assert_near(bc->fog_visibility, 250, 0);
  /* Behaviour too: the default window is exposure + (height - 1) line times
   * (camera.h). */
  assert_near(sensim_sensor_params_get(sensim_world_sensor_by_name(w, "bc"))->window,
              0.004 + 47 * 2e-5, 1e-15);

  /* fx/fy without cx/cy: the image centre ((w - 1) / 2, (h - 1) / 2);
   * missing trailing coefficients are 0 as in OpenCV. */
  const sensim_camera_params *kb = camera_params_of(sensim_world_sensor_by_name(w, "kb"));
  assert_int_equal(kb->lens, SENSIM_LENS_KANNALA_BRANDT);
  assert_near(kb->cx, 19.5, 0);
  assert_near(kb->cy, 19.5, 0);
  assert_near(kb->dist[0], 0.01, 0);
  assert_near(kb->dist[1], -0.002, 0);
  assert_near(kb->dist[2], 0, 0);
  assert_near(kb->dist[3], 0, 0);

  const sensim_camera_params *fov = camera_params_of(sensim_world_sensor_by_name(w, "fov"));
  assert_int_equal(fov->lens, SENSIM_LENS_FOV);
  assert_near(fov->hfov, 100 * PI / 180, 1e-15);
  assert_int_equal(fov->vignetting, 0);
  assert_int_equal(fov->depth_along_ray, 0);
  assert_int_equal(fov->max_bounces, 0);

  sensim_camera_params def;
  sensim_camera_params_init(&def);
  def.width = 16;
  def.height = 12;
  const sensim_camera_params *plain = camera_params_of(sensim_world_sensor_by_name(w, "plain"));
  assert_memory_equal(plain, &def, sizeof def);
  sensim_scenario_destroy(scn);
}

static const bad_case bad_camera_cases[] = {
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"fisheye\"}"), SENSIM_EINVAL,
     "sensors[0].lens: unknown lens 'fisheye'"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": 3}"), SENSIM_EPARSE,
     "sensors[0].lens"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"dist\": [0.1]}"), SENSIM_EINVAL,
     "sensors[0].dist: only the brown_conrady, rational, kannala_brandt and division"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrady\", "
              "\"dist\": [0, 0, 0, 0, 0, 0]}"),
     SENSIM_EINVAL, "sensors[0].dist: 6 coefficients"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"kannala_brandt\", "
              "\"dist\": [0, 0, 0, 0, 0]}"),
     SENSIM_EINVAL, "at most 4"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrady\", "
              "\"dist\": [0.1, \"x\"]}"),
     SENSIM_EPARSE, "sensors[0].dist[1]"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lens\": \"brown_conrady\", "
              "\"dist\": 0.1}"),
     SENSIM_EPARSE, "sensors[0].dist"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fx\": 100}"), SENSIM_EINVAL,
     "sensors[0].fy: give fx and fy together"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"cx\": 100}"), SENSIM_EINVAL,
     "sensors[0].cx: the principal point needs fx and fy"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fx\": -100, \"fy\": 100}"),
     SENSIM_EINVAL, "sensors[0].fx: must be > 0"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fx\": 100, \"fy\": 0}"), SENSIM_EINVAL,
     "sensors[0].fy: must be > 0"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"vignetting\": 1}"), SENSIM_EPARSE,
     "sensors[0].vignetting"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"vignetting_poly\": [0.1, 0.2]}"),
     SENSIM_EPARSE, "sensors[0].vignetting_poly"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"lateral_ca\": [1, -1, 1]}"),
     SENSIM_EINVAL, "sensors[0].lateral_ca[1]"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"exposure_time\": -0.001}"),
     SENSIM_EINVAL, "sensors[0].exposure_time"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"line_time\": -1e-5}"), SENSIM_EINVAL,
     "sensors[0].line_time"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"depth_along_ray\": \"yes\"}"),
     SENSIM_EPARSE, "sensors[0].depth_along_ray"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"max_bounces\": 9}"), SENSIM_EINVAL,
     "sensors[0].max_bounces"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"max_bounces\": 1.5}"), SENSIM_EPARSE,
     "sensors[0].max_bounces"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"fog_visibility\": -10}"), SENSIM_EINVAL,
     "sensors[0].fog_visibility"},
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"focal_length\": 0.004}"), SENSIM_EPARSE,
     "sensors[0].focal_length: unknown key"},
    /* Values the loader passes on but the camera refuses: the camera's
     * message, prefixed with the sensor's path. */
    {CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"width\": 64, \"height\": 48, "
              "\"lens\": \"brown_conrady\", \"dist\": [-3, 0, 0, 0, 0]}"),
     SENSIM_EINVAL, "sensors[0]"},
};

static void test_bad_camera_keys_fail_naming_the_key(void **state) {
  (void)state;
  scenario_expect_bad_cases(bad_camera_cases, sizeof bad_camera_cases / sizeof bad_camera_cases[0], NULL);
}

/* Two 8-bit RGB reference images with different content and sizes. */
static void write_reference_pngs(void) {
  uint8_t a[20 * 10 * 4], b[8 * 6 * 4];
  for (int i = 0; i < 20 * 10; i++) {
    a[4 * i] = (uint8_t)(40 + i % 100), a[4 * i + 1] = (uint8_t)(90 + (i * 7) % 60);
    a[4 * i + 2] = (uint8_t)(20 + (i * 13) % 30), a[4 * i + 3] = 255;
  }
  for (int i = 0; i < 8 * 6; i++) {
    b[4 * i] = (uint8_t)(200 - i), b[4 * i + 1] = (uint8_t)(150 + i % 5);
    b[4 * i + 2] = (uint8_t)(10 + 3 * i), b[4 * i + 3] = 255;
  }
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_RGBA8;
  f.width = 20, f.height = 10, f.count = 200, f.data = a;
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/ref_a.png", &f));
  f.width = 8, f.height = 6, f.count = 48, f.data = b;
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/ref_b.png", &f));
}

/* A lit box in front of a camera, its frame taken at t = 0; FILTER is the
 * one filter of the chain. */
#define REF_SCENE(FILTER)                                                                      \
  "{\"duration\": 1, \"world\": {\"threads\": 0},"                                             \
  " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},"     \
  "   \"material\": {\"base_color\": [0.7, 0.4, 0.2]}}],"                                      \
  " \"lights\": [{\"kind\": \"point\", \"position\": [-2, 1, 2], \"intensity\": 6}],"          \
  " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"pose\": {\"rpy\": [0, 0, 0.5]}}],"  \
  " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"width\": 32, \"height\": 24,"    \
  "   \"samples\": 1, \"mount\": {\"position\": [-3, 0, 0.3]}, \"filters\": [" FILTER "]}]}"

static void frame_stats(sensim_scenario *scn, double mean[3], double sd[3], double *ymean,
                        double *ysd) {
  sensim_world *w = sensim_scenario_world(scn);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(sensim_world_sensor_by_name(w, "cam"), &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RGB_F32);
  const float *rgb = f->data;
  double s[4] = {0}, ss[4] = {0};
  for (size_t i = 0; i < f->count; i++) {
    double y = 0.2126 * rgb[3 * i] + 0.7152 * rgb[3 * i + 1] + 0.0722 * rgb[3 * i + 2];
    for (int c = 0; c < 4; c++) {
      double v = c < 3 ? rgb[3 * i + c] : y;
      s[c] += v, ss[c] += v * v;
    }
  }
  double n = (double)f->count;
  for (int c = 0; c < 3; c++) {
    mean[c] = s[c] / n;
    sd[c] = sqrt(fmax(ss[c] / n - mean[c] * mean[c], 0));
  }
  *ymean = s[3] / n;
  *ysd = sqrt(fmax(ss[3] / n - *ymean * *ymean, 0));
}

static int have_filter(const char *name) {
  if (sensim__filter_find(name)) return 1;
  print_message("note: no \"%s\" filter in this build; skipped\n", name);
  return 0;
}

/* "reference_images" become the statistics of those files: match_stats
 * then gives the frame exactly the reference's per-channel mean and
 * standard deviation (or its luminance's, with per_channel false), and
 * white_balance "reference" the reference's channel means. */
static void test_reference_images_become_reference_statistics(void **state) {
  (void)state;
  if (!have_filter("match_stats") || !have_filter("white_balance")) skip();
  write_reference_pngs();
  const char *refs[2] = {TMP "/ref_a.png", TMP "/ref_b.png"};
  double rm[3], rs[3], ym, ys;
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(refs, 2, rm, rs));
  const double w709[3] = {0.2126, 0.7152, 0.0722};
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs_weighted(refs, 2, w709, &ym, &ys));
  double mean[3], sd[3], fy, fys;
  sensim_scenario *scn = NULL;

  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": [\"" TMP
                "/ref_a.png\", \"" TMP "/ref_b.png\"]}}"),
      NULL, &scn));
  frame_stats(scn, mean, sd, &fy, &fys);
  for (int c = 0; c < 3; c++) {
    assert_near(mean[c], rm[c], 1e-5);
    assert_near(sd[c], rs[c], 1e-5);
  }
  sensim_scenario_destroy(scn);

  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"per_channel\": false, "
                "\"reference_images\": [\"" TMP "/ref_a.png\", \"" TMP "/ref_b.png\"]}}"),
      NULL, &scn));
  frame_stats(scn, mean, sd, &fy, &fys);
  assert_near(fy, ym, 1e-5);
  assert_near(fys, ys, 1e-5);
  sensim_scenario_destroy(scn);

  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"white_balance\", \"params\": {\"reference_images\": [\"" TMP
                "/ref_b.png\"]}}"),
      NULL, &scn));
  const char *one[1] = {TMP "/ref_b.png"};
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(one, 1, rm, rs));
  frame_stats(scn, mean, sd, &fy, &fys);
  for (int c = 0; c < 3; c++) assert_near(mean[c], rm[c], 1e-5);
  sensim_scenario_destroy(scn);
}

/* Relative names resolve against the scenario's folder (base_dir). */
static void test_reference_images_resolve_against_the_scenario_folder(void **state) {
  (void)state;
  if (!have_filter("match_stats")) skip();
  write_reference_pngs();
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": "
                "[\"ref_a.png\"]}}"),
      TMP, &scn));
  const char *one[1] = {TMP "/ref_a.png"};
  double rm[3], rs[3], mean[3], sd[3], fy, fys;
  SENSIM_OK_OR_FAIL(sensim_image_stats_pngs(one, 1, rm, rs));
  frame_stats(scn, mean, sd, &fy, &fys);
  for (int c = 0; c < 3; c++) assert_near(mean[c], rm[c], 1e-5);
  sensim_scenario_destroy(scn);
}

static void test_bad_reference_images_fail_naming_the_path(void **state) {
  (void)state;
  if (!have_filter("match_stats")) skip();
  write_reference_pngs();
  static const bad_case cases[] = {
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": "
                 "[\"" TMP "/missing.png\"]}}"),
       SENSIM_ENOTFOUND, "sensors[0].filters[0].params.reference_images"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": []}}"),
       SENSIM_EINVAL, "reference_images: needs at least one image"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": [3]}}"),
       SENSIM_EPARSE, "reference_images[0]"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": \"a.png\"}}"),
       SENSIM_EPARSE, "reference_images: must be an array"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": [\"" TMP
                 "/ref_a.png\"], \"reference_mean\": [0.1, 0.1, 0.1]}}"),
       SENSIM_EINVAL, "not both"},
      {REF_SCENE("{\"name\": \"match_stats\", \"params\": {\"reference_images\": "
                 "[\"" TMP "/mesh_ref.json\"]}}"),
       SENSIM_EPARSE, "mesh_ref.json"},
      /* Other filters do not take the key. */
      {REF_SCENE("{\"name\": \"image_noise\", \"params\": {\"reference_images\": [\"a.png\"]}}"),
       SENSIM_EINVAL, "sensors[0].filters[0]"},
  };
  FILE *fp = fopen(TMP "/mesh_ref.json", "w");
  assert_non_null(fp);
  fputs("{}", fp);
  fclose(fp);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sensim_scenario *scn = (sensim_scenario *)&scn;
    sensim_status st = sensim_scenario_load_string(cases[i].json, NULL, &scn);
    if (st != cases[i].code || !strstr(sensim_last_error(), cases[i].message))
      fail_msg("case %zu: got %d '%s', expected %d containing '%s'", i, st, sensim_last_error(),
               cases[i].code, cases[i].message);
    assert_null(scn);
  }
}

/* Bit depth and colour type from a PNG's IHDR (bytes 24 and 25). */
static void png_depth_color(const char *path, int *depth, int *color) {
  unsigned char b[26];
  FILE *fp = fopen(path, "rb");
  if (!fp) fail_msg("cannot open %s", path);
  assert_int_equal(fread(b, 1, 26, fp), 26);
  fclose(fp);
  *depth = b[24];
  *color = b[25];
}

/* rgb16 and raw16 chains write 16-bit RGB and 16-bit grey PNGs, by default
 * and when asked; a float chain cannot ask for png. */
static void test_16bit_chains_write_16bit_pngs(void **state) {
  (void)state;
  if (!have_filter("quantize16") || !have_filter("image_sensor") || !have_filter("cfa") ||
      !have_filter("raw16"))
    skip();
  const char *json = CAM_WRAP(
      "{\"name\": \"c16\", \"type\": \"camera\", \"width\": 8, \"height\": 6, \"samples\": 1,"
      " \"filters\": [{\"name\": \"quantize16\"}]},"
      "{\"name\": \"raw\", \"type\": \"camera\", \"width\": 8, \"height\": 6, \"samples\": 1,"
      " \"filters\": [{\"name\": \"image_sensor\"}, {\"name\": \"cfa\"}, {\"name\": \"raw16\"}],"
      " \"output\": {\"format\": \"png\"}}");
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, NULL, &scn));
  assert_int_equal(scn->sensors[0].format, SENSIM__OUT_PNG);
  assert_int_equal(scn->sensors[1].format, SENSIM__OUT_PNG);
  SENSIM_OK_OR_FAIL(sensim_scenario_run(scn, TMP "/out16", NULL, NULL, NULL));
  sensim_scenario_destroy(scn);
  int depth, color;
  png_depth_color(TMP "/out16/c16/frame_000000.png", &depth, &color);
  assert_int_equal(depth, 16);
  assert_int_equal(color, 2); /* RGB */
  png_depth_color(TMP "/out16/raw/frame_000000.png", &depth, &color);
  assert_int_equal(depth, 16);
  assert_int_equal(color, 0); /* grey */

  scn = (sensim_scenario *)&scn;
  assert_int_equal(sensim_scenario_load_string(
                       CAM_WRAP("{\"name\": \"c\", \"type\": \"camera\", \"width\": 8, "
                                "\"height\": 6, \"output\": {\"format\": \"png\"}}"),
                       NULL, &scn),
                   SENSIM_ETYPE);
  assert_null(scn);
}


int sensim_test_scenario_camera(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_camera_keys_reach_the_params),
      cmocka_unit_test(test_bad_camera_keys_fail_naming_the_key),
      cmocka_unit_test(test_reference_images_become_reference_statistics),
      cmocka_unit_test(test_reference_images_resolve_against_the_scenario_folder),
      cmocka_unit_test(test_bad_reference_images_fail_naming_the_path),
      cmocka_unit_test(test_16bit_chains_write_16bit_pngs),
  };
  return cmocka_run_group_tests_name("scenario_camera", tests, scenario_setup, NULL);
}
