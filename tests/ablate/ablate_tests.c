/* tests/ablate/ablate_tests.c: camera-stage ablation of a scenario: the
 * JSON edits each variant makes, and renders of a tiny scene in which each
 * variant differs from the baseline only through the stage it removed. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

#define DIR_A ABLATE_TMP "/ablate"
#define EXAMPLES SENSIM_TEST_DATA "/../../examples"

/* A grey background (radiance 0.5) with a large red box left of centre.
 * "cam" has every stage; "clean" the same without noise and auto exposure
 * (so it is deterministic) and with a white balance of unit gains (so that
 * every stage acts locally: a gray-world balance would carry a change at
 * the box's edges into the whole image); a GNSS receiver is dropped by the
 * ablation.
 * 24 x 16 pixels, 4 frames at 10 Hz. */
static const char kScene[] =
    "// tiny ablation scene\n"
    "{\"world\": {\"seed\": 7, \"threads\": 1, \"background\": [0.5, 0.5, 0.5], \"ambient\": 0.2},\n"
    " \"duration\": 0.35,\n"
    " \"meshes\": [{\"name\": \"box\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},\n"
    "              \"material\": {\"base_color\": [0.9, 0.05, 0.05], \"roughness\": 1}}],\n"
    " \"lights\": [{\"kind\": \"directional\", \"direction\": [1, -0.2, -0.3], \"intensity\": 1.5}],\n"
    " \"bodies\": [{\"name\": \"box\", \"mesh\": \"box\", \"pose\": {\"position\": [3.5, 0.5, 0]}}],\n"
    " \"sensors\": [\n"
    "  {\"name\": \"gps\", \"type\": \"gnss\", \"rate\": 5},\n"
    "  {\"name\": \"cam\", \"type\": \"camera\", \"rate\": 10, \"width\": 24, \"height\": 16, \"hfov_deg\": 60,\n"
    "   \"samples\": 4, \"lens\": \"brown_conrady\", \"dist\": [-0.15, 0.02],\n"
    "   \"filters\": [{\"name\": \"image_sensor\", \"params\": {\"qe\": [0.4, 0.5, 0.6]}},\n"
    "               {\"name\": \"noise_emva1288\"}, {\"name\": \"cfa\"}, {\"name\": \"adc\"},\n"
    "               {\"name\": \"demosaic\"}, {\"name\": \"white_balance\"},\n"
    "               {\"name\": \"auto_exposure\", \"params\": {\"target\": 0.2, \"speed\": 1}},\n"
    "               {\"name\": \"tone\"}, {\"name\": \"quantize\"}]},\n"
    "  {\"name\": \"clean\", \"type\": \"camera\", \"rate\": 10, \"width\": 24, \"height\": 16, \"hfov_deg\": 60,\n"
    "   \"samples\": 4, \"lens\": \"brown_conrady\", \"dist\": [-0.15, 0.02],\n"
    "   \"filters\": [{\"name\": \"image_sensor\", \"params\": {\"qe\": [0.4, 0.5, 0.6]}},\n"
    "               {\"name\": \"cfa\"}, {\"name\": \"adc\"}, {\"name\": \"demosaic\"},\n"
    "               {\"name\": \"white_balance\", \"params\": {\"mode\": \"fixed\"}},\n"
    "               {\"name\": \"tone\"}, {\"name\": \"quantize\"}]}\n"
    " ]}\n";

/* The camera named `name` of a parsed (edited) scenario. */
static cJSON *camera(cJSON *root, const char *name) {
  cJSON *s;
  cJSON_ArrayForEach(s, cJSON_GetObjectItem(root, "sensors")) {
    if (strcmp(cJSON_GetObjectItem(s, "name")->valuestring, name) == 0) return s;
  }
  return NULL;
}

static cJSON *edited(sensim_ablation a, size_t frames, char *notes, size_t nn) {
  char *json = NULL;
  SENSIM_OK_OR_FAIL(sensim_ablation_edit(kScene, a, frames, &json, notes, nn));
  cJSON *root = cJSON_Parse(json);
  assert_non_null(root);
  free(json);
  return root;
}

static void remove_filter(cJSON *cam, const char *name) {
  cJSON *filters = cJSON_GetObjectItem(cam, "filters");
  for (int i = cJSON_GetArraySize(filters) - 1; i >= 0; i--)
    if (strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(filters, i), "name")->valuestring, name) == 0)
      cJSON_DeleteItemFromArray(filters, i);
}

/* The normalised image coordinate x_n of Brown-Conrady's radial model
 * (k1, k2; no tangential term on the principal row and column) that lands
 * at the distorted coordinate x_d: x_n (1 + k1 x_n^2 + k2 x_n^4) = x_d,
 * by Newton's method from x_d (independent of the library's inverse). */
static double undistort(double x_d, double k1, double k2) {
  double x = x_d;
  for (int i = 0; i < 50; i++) {
    double r2 = x * x, f = x * (1 + k1 * r2 + k2 * r2 * r2) - x_d, df = 1 + 3 * k1 * r2 + 5 * k2 * r2 * r2;
    x -= f / df;
  }
  return x;
}

/* lens_pinhole_fov on kScene's cameras (24 x 16, hfov 60 deg, so fx = fy
 * = 12 / tan(30 deg), centre (11.5, 7.5); k1 -0.15, k2 0.02): the image's
 * edges sit 12 and 8 px from the centre, at x_d = 12 / fx and y_d = 8 / fy;
 * the rays there have tan(angle) = undistort(x_d), so the pinhole that
 * sees the same angles has fx' = 12 / undistort(12 / fx), fy' = 8 /
 * undistort(8 / fy). */
static void expect_pinhole_fov(cJSON *want, const cJSON *got) {
  const double f = 12.0 / tan(30.0 * 3.14159265358979323846 / 180.0);
  const double fx = 12.0 / undistort(12.0 / f, -0.15, 0.02), fy = 8.0 / undistort(8.0 / f, -0.15, 0.02);
  assert_near(cJSON_GetObjectItem(got, "fx")->valuedouble, fx, 1e-6 * fx);
  assert_near(cJSON_GetObjectItem(got, "fy")->valuedouble, fy, 1e-6 * fy);
  /* Barrel distortion (k1 < 0) sees more than its focal length says: the
   * pinhole of the same field has the shorter focal length. */
  assert_true(fx < f && fy < f && fx != fy);
  cJSON_ReplaceItemInObject(want, "lens", cJSON_CreateString("pinhole"));
  cJSON_DeleteItemFromObject(want, "dist");
  cJSON_DeleteItemFromObject(want, "hfov_deg");
  cJSON_AddNumberToObject(want, "fx", cJSON_GetObjectItem(got, "fx")->valuedouble);
  cJSON_AddNumberToObject(want, "fy", cJSON_GetObjectItem(got, "fy")->valuedouble);
  cJSON_AddNumberToObject(want, "cx", 11.5);
  cJSON_AddNumberToObject(want, "cy", 7.5);
}

/* lighting_flat on kScene: its one light (direction (1, -0.2, -0.3),
 * intensity 1.5, white) gave level ground 1.5 * 0.3 / |d|; the ambient
 * 0.2 grows by that and the lights go. */
static void expect_flat_lighting(cJSON *want, const cJSON *got) {
  const double e = 0.2 + 1.5 * 0.3 / sqrt(1 + 0.04 + 0.09);
  double a = cJSON_GetObjectItem(cJSON_GetObjectItem(got, "world"), "ambient")->valuedouble;
  assert_near(a, e, 1e-15);
  cJSON_DeleteItemFromObject(want, "lights");
  cJSON_ReplaceItemInObject(cJSON_GetObjectItem(want, "world"), "ambient", cJSON_CreateNumber(a));
}

/* Each variant's tree equals the baseline's with exactly the documented
 * change applied by hand (cJSON_Compare, strict). */
static void test_each_variant_edits_only_its_stage(void **state) {
  (void)state;
  char notes[1024];
  cJSON *base = edited(SENSIM_ABLATE_BASELINE, 0, notes, sizeof notes);
  assert_string_equal(notes, "");
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(base, "sensors")), 2); /* gnss dropped */
  for (int a = 1; a < SENSIM_ABLATE_COUNT; a++) {
    cJSON *want = cJSON_Duplicate(base, 1), *got = edited((sensim_ablation)a, 0, notes, sizeof notes);
    const char *cams[2] = {"cam", "clean"};
    for (int k = 0; k < 2; k++) {
      cJSON *c = camera(want, cams[k]);
      switch ((sensim_ablation)a) {
        case SENSIM_ABLATE_LENS:
          cJSON_ReplaceItemInObject(c, "lens", cJSON_CreateString("pinhole"));
          cJSON_DeleteItemFromObject(c, "dist");
          break;
        case SENSIM_ABLATE_NOISE: remove_filter(c, "noise_emva1288"); break;
        case SENSIM_ABLATE_DEMOSAIC:
          remove_filter(c, "cfa");
          remove_filter(c, "demosaic");
          break;
        case SENSIM_ABLATE_WHITE_BALANCE: {
          cJSON *filters = cJSON_GetObjectItem(c, "filters");
          for (int i = 0; i < cJSON_GetArraySize(filters); i++) {
            cJSON *f = cJSON_GetArrayItem(filters, i);
            if (strcmp(cJSON_GetObjectItem(f, "name")->valuestring, "white_balance")) continue;
            /* qe (0.4, 0.5, 0.6): gains qe_G / qe_c. */
            const double g[3] = {0.5 / 0.4, 1, 0.5 / 0.6};
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "mode", "fixed");
            cJSON_AddItemToObject(p, "gains", cJSON_CreateDoubleArray(g, 3));
            if (cJSON_GetObjectItem(f, "params"))
              cJSON_ReplaceItemInObject(f, "params", p);
            else
              cJSON_AddItemToObject(f, "params", p);
          }
          break;
        }
        case SENSIM_ABLATE_EXPOSURE: remove_filter(c, "auto_exposure"); break;
        case SENSIM_ABLATE_SUPERSAMPLING:
          cJSON_ReplaceItemInObject(c, "samples", cJSON_CreateNumber(1));
          break;
        case SENSIM_ABLATE_LENS_FOV:
        case SENSIM_ABLATE_COMBINED: expect_pinhole_fov(c, camera(got, cams[k])); break;
        case SENSIM_ABLATE_REFLECTIONS: cJSON_AddNumberToObject(c, "max_bounces", 0); break;
        case SENSIM_ABLATE_FOV_LENS: {
          /* The FOV lens of the Brown-Conrady lens's horizontal field: the
           * edge rays of the principal row (12 px from the centre) have
           * tan(angle) = undistort(12 / f), so hfov = 2 atan of that. */
          const double f = 12.0 / tan(30.0 * 3.14159265358979323846 / 180.0);
          const double hfov = 2.0 * atan(undistort(12.0 / f, -0.15, 0.02)) * 180.0 / 3.14159265358979323846;
          double got_h = cJSON_GetObjectItem(camera(got, cams[k]), "hfov_deg")->valuedouble;
          assert_near(got_h, hfov, 1e-6 * hfov);
          assert_true(hfov > 60.0); /* barrel distortion sees more than its focal length says */
          cJSON_ReplaceItemInObject(c, "lens", cJSON_CreateString("fov"));
          cJSON_DeleteItemFromObject(c, "dist");
          cJSON_ReplaceItemInObject(c, "hfov_deg", cJSON_CreateNumber(got_h));
          break;
        }
        default: break;
      }
    }
    if (a == SENSIM_ABLATE_LIGHTING || a == SENSIM_ABLATE_COMBINED) expect_flat_lighting(want, got);
    if (!cJSON_Compare(want, got, 1)) {
      char *w = cJSON_Print(want), *g = cJSON_Print(got);
      fail_msg("variant %s:\nwant %s\ngot %s", sensim_ablation_name((sensim_ablation)a), w, g);
    }
    /* One note per camera, and the lights' for the lighting variants. */
    if (a != SENSIM_ABLATE_LIGHTING && a != SENSIM_ABLATE_SINGLE_LIGHT) {
      assert_non_null(strstr(notes, "cam: "));
      assert_non_null(strstr(notes, "clean: "));
    }
    if (a == SENSIM_ABLATE_LIGHTING || a == SENSIM_ABLATE_COMBINED)
      assert_non_null(strstr(notes, "lights: 1 directional light removed"));
    if (a == SENSIM_ABLATE_NOISE) assert_non_null(strstr(notes, "clean: no noise filter: unchanged"));
    if (a == SENSIM_ABLATE_EXPOSURE) assert_non_null(strstr(notes, "clean: no auto_exposure: unchanged"));
    if (a == SENSIM_ABLATE_SINGLE_LIGHT) assert_non_null(strstr(notes, "lights: one light already: unchanged"));
    if (a == SENSIM_ABLATE_REFLECTIONS) assert_non_null(strstr(notes, "no material of roughness < 0.1"));
    cJSON_Delete(want);
    cJSON_Delete(got);
  }
  cJSON_Delete(base);
}

/* --frames: the last camera frame N - 1 is delivered at phase + (N - 1) /
 * rate + lag; one more step reaches it: 0.3 + 0.001. */
static void test_frames_sets_the_duration(void **state) {
  (void)state;
  cJSON *root = edited(SENSIM_ABLATE_NOISE, 4, NULL, 0);
  assert_near(cJSON_GetObjectItem(root, "duration")->valuedouble, 0.301, 1e-12);
  cJSON_Delete(root);
}

static void test_every_example_scenario_edits_and_loads_for_every_variant(void **state) {
  (void)state;
  const char *files[] = {EXAMPLES "/ablation.json", EXAMPLES "/orbit.json"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char *text = test_slurp_if(files[f], NULL);
    if (!text) fail_msg("cannot read %s", files[f]);
    for (int a = 0; a < SENSIM_ABLATE_COUNT; a++) {
      char *json = NULL;
      SENSIM_OK_OR_FAIL(sensim_ablation_edit(text, (sensim_ablation)a, 1, &json, NULL, 0));
      sensim_scenario *scn = NULL;
      sensim_status st = sensim_scenario_load_string(json, EXAMPLES, &scn);
      if (st) fail_msg("%s variant %s: %s", files[f], sensim_ablation_name((sensim_ablation)a), sensim_last_error());
      sensim_scenario_destroy(scn);
      free(json);
    }
    free(text);
  }
}

static void test_ablation_bad_input(void **state) {
  (void)state;
  char *json = NULL;
  assert_int_equal(sensim_ablation_edit("{\"duration\": 1, \"sensors\": [{\"name\": \"g\", \"type\": \"gnss\"}]}",
                                        SENSIM_ABLATE_NOISE, 0, &json, NULL, 0),
                   SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "no camera"));
  assert_int_equal(sensim_ablation_edit("{\"sensors\": [", SENSIM_ABLATE_NOISE, 0, &json, NULL, 0), SENSIM_EPARSE);
  assert_int_equal(sensim_ablation_edit(kScene, SENSIM_ABLATE_COUNT, 0, &json, NULL, 0), SENSIM_EINVAL);
  assert_int_equal(sensim_ablation_edit(kScene, (sensim_ablation)-1, 0, &json, NULL, 0), SENSIM_EINVAL);
  assert_null(json);
  sensim_ablation a;
  assert_int_equal(sensim_ablation_from_name("lens_off", &a), SENSIM_ENOTFOUND);
  SENSIM_OK_OR_FAIL(sensim_ablation_from_name("wb_ideal", &a));
  assert_int_equal(a, SENSIM_ABLATE_WHITE_BALANCE);
  assert_null(sensim_ablation_name(SENSIM_ABLATE_COUNT));
  sensim_ablate_options o;
  sensim_ablate_options_init(&o);
  assert_int_equal(sensim_ablate_run(DIR_A "/no_such.json", DIR_A "/x", &o), SENSIM_ENOTFOUND);
  sensim_ablation bad = SENSIM_ABLATE_COUNT;
  o.variants = &bad;
  o.nvariants = 1;
  assert_int_equal(sensim_ablate_run(DIR_A "/no_such.json", DIR_A "/x", &o), SENSIM_EINVAL);
}

/* ---- rendered ---- */

static int rendered = 0;

static int render_setup(void **state) {
  (void)state;
  if (rendered) return 0;
  ablate_fresh_dir(DIR_A);
  ablate_write_text(DIR_A "/scene.json", kScene);
  sensim_ablate_options o;
  sensim_ablate_options_init(&o);
  o.threads = 2;
  o.frames = 4;
  if (sensim_ablate_run(DIR_A "/scene.json", DIR_A "/out", &o) != SENSIM_OK) {
    fprintf(stderr, "ablate run failed: %s\n", sensim_last_error());
    return -1;
  }
  rendered = 1;
  return 0;
}

static sensim_image frame(const char *variant, const char *cam, int k) {
  char p[512];
  snprintf(p, sizeof p, DIR_A "/out/%s/%s/frame_%06d.png", variant, cam, k);
  sensim_image img;
  SENSIM_OK_OR_FAIL(sensim_read_png(p, &img));
  assert_int_equal(img.channels, 3);
  return img;
}

/* A background patch far from the box and the image edges. */
#define PATCH_X0 17
#define PATCH_X1 22
#define PATCH_Y0 3
#define PATCH_Y1 13

static void patch_moments(const sensim_image *img, int c, double *mean, double *var) {
  double s = 0, q = 0, n = 0;
  for (int y = PATCH_Y0; y < PATCH_Y1; y++)
    for (int x = PATCH_X0; x < PATCH_X1; x++) {
      double v = img->data[3 * (y * 24 + x) + c] * 255.0;
      s += v, q += v * v, n++;
    }
  *mean = s / n;
  *var = q / n - *mean * *mean;
}

static void test_ablate_writes_every_variant_with_the_same_frame_names(void **state) {
  (void)state;
  char *want = ablate_png_names(DIR_A "/out/baseline/cam");
  assert_string_equal(want, "frame_000000.png\nframe_000001.png\nframe_000002.png\nframe_000003.png\n");
  for (int a = 0; a < SENSIM_ABLATE_COUNT; a++)
    for (int k = 0; k < 2; k++) {
      char d[512];
      snprintf(d, sizeof d, DIR_A "/out/%s/%s", sensim_ablation_name((sensim_ablation)a), k ? "clean" : "cam");
      char *got = ablate_png_names(d);
      if (strcmp(got, want)) fail_msg("%s holds\n%s", d, got);
      free(got);
    }
  assert_false(test_file_exists(DIR_A "/out/baseline/gps"));
  free(want);
}

/* The background is flat radiance: only noise makes it vary. Without the
 * noise stage every stage after it is deterministic and exact on a flat
 * patch (the demosaic returns a uniform colour exactly), so the variance is
 * zero; with it, EMVA 1288 noise at several thousand electrons is several
 * 8-bit levels. */
static void test_ablate_noise_off_has_no_variance_on_a_flat_region(void **state) {
  (void)state;
  for (int k = 0; k < 4; k++) {
    sensim_image base = frame("baseline", "cam", k), off = frame("noise_off", "cam", k);
    for (int c = 0; c < 3; c++) {
      double mb, vb, mo, vo;
      patch_moments(&base, c, &mb, &vb);
      patch_moments(&off, c, &mo, &vo);
      assert_near(vo, 0, 1e-9);
      if (!(vb > 0.5)) fail_msg("frame %d channel %d: baseline variance %g", k, c, vb);
    }
    sensim_image_free(&base);
    sensim_image_free(&off);
  }
}

static int same_image(const sensim_image *a, const sensim_image *b) {
  return memcmp(a->data, b->data, (size_t)a->width * a->height * 3 * sizeof(float)) == 0;
}

static int same_patch(const sensim_image *a, const sensim_image *b) {
  for (int y = PATCH_Y0; y < PATCH_Y1; y++)
    for (int x = PATCH_X0; x < PATCH_X1; x++)
      for (int c = 0; c < 3; c++)
        if (a->data[3 * (y * 24 + x) + c] != b->data[3 * (y * 24 + x) + c]) return 0;
  return 1;
}

/* The "clean" camera has no noise and no auto exposure: those variants
 * give it byte-identical frames, as do reflections_off and light_single
 * (kScene has no mirror and one light); lens, demosaic and supersampling change
 * the box's edges but not the flat background; white balance changes the
 * whole colour balance. */
static void test_ablate_clean_camera_changes_only_where_the_stage_acts(void **state) {
  (void)state;
  for (int k = 0; k < 4; k++) {
    sensim_image base = frame("baseline", "clean", k);
    for (int a = 1; a < SENSIM_ABLATE_COUNT; a++) {
      sensim_image v = frame(sensim_ablation_name((sensim_ablation)a), "clean", k);
      const char *name = sensim_ablation_name((sensim_ablation)a);
      int same = same_image(&base, &v), patch = same_patch(&base, &v);
      switch ((sensim_ablation)a) {
        case SENSIM_ABLATE_NOISE:
        case SENSIM_ABLATE_EXPOSURE:
        case SENSIM_ABLATE_REFLECTIONS:  /* no mirror in kScene */
        case SENSIM_ABLATE_SINGLE_LIGHT: /* one light in kScene */
          if (!same) fail_msg("%s frame %d differs from the baseline", name, k);
          break;
        case SENSIM_ABLATE_WHITE_BALANCE:
          if (same || patch) fail_msg("%s frame %d: the colour balance did not change", name, k);
          break;
        default:
          if (same || !patch) fail_msg("%s frame %d: same %d, background same %d", name, k, same, patch);
      }
      sensim_image_free(&v);
    }
    sensim_image_free(&base);
  }
}

/* Ideal white balance (gains qe_G / qe_c) makes the grey background grey,
 * up to the adc's rounding (1/2 of a 12-bit step, times a gain up to 1.25,
 * is well under one 8-bit level); the baseline's unit gains leave the
 * sensor's cast (qe 0.4 : 0.5 : 0.6), tens of levels after the sRGB curve. */
static void test_ablate_wb_ideal_makes_the_grey_background_grey(void **state) {
  (void)state;
  sensim_image base = frame("baseline", "clean", 0), wb = frame("wb_ideal", "clean", 0);
  double m[3], b[3], v;
  for (int c = 0; c < 3; c++) {
    patch_moments(&wb, c, &m[c], &v);
    patch_moments(&base, c, &b[c], &v);
  }
  assert_near(m[0], m[1], 1.0);
  assert_near(m[2], m[1], 1.0);
  if (!(b[1] - b[0] > 10 && b[2] - b[1] > 10)) fail_msg("no cast in the baseline: R %g G %g B %g", b[0], b[1], b[2]);
  sensim_image_free(&base);
  sensim_image_free(&wb);
}

/* Auto exposure (target 0.2, speed 1, delay 2) darkens the bright
 * background from frame 2 on; with it removed every frame has the
 * exposure of frame 0 (the patch mean changes by noise only: sd ~ 3 / sqrt(50)
 * levels). */
static void test_ablate_exposure_fixed_keeps_the_brightness(void **state) {
  (void)state;
  double m0, m3, v, f0, f3;
  sensim_image b0 = frame("baseline", "cam", 0), b3 = frame("baseline", "cam", 3);
  sensim_image x0 = frame("exposure_fixed", "cam", 0), x3 = frame("exposure_fixed", "cam", 3);
  patch_moments(&b0, 1, &m0, &v);
  patch_moments(&b3, 1, &m3, &v);
  patch_moments(&x0, 1, &f0, &v);
  patch_moments(&x3, 1, &f3, &v);
  if (!(m0 - m3 > 10)) fail_msg("auto exposure did not darken: %g -> %g", m0, m3);
  assert_near(f3, f0, 2.0);
  assert_near(f0, m0, 2.0);
  sensim_image_free(&b0);
  sensim_image_free(&b3);
  sensim_image_free(&x0);
  sensim_image_free(&x3);
}

/* ---- the camera component study's variants (issue 28) ---- */

/* A mirror floor (roughness 0.02, grey) under a blue sky, lit straight
 * down by two directional lights (intensities 1 and 0.5) and a point
 * light, seen from 1.5 m up looking 40 deg down: the lower image is floor.
 * No noise, linear output (quantize only), one sample per pixel. */
static const char kStudy[] =
    "{\"world\": {\"seed\": 3, \"threads\": 1, \"background\": [0.05, 0.05, 1.0], \"ambient\": 0.1},\n"
    " \"duration\": 0.15,\n"
    " \"meshes\": [{\"name\": \"floor\", \"shape\": {\"kind\": \"plane\", \"size\": [40, 40, 0]},\n"
    "              \"material\": {\"base_color\": [0.3, 0.3, 0.3], \"roughness\": 0.02}},\n"
    "             {\"name\": \"matte\", \"shape\": {\"kind\": \"box\", \"size\": [1, 1, 1]},\n"
    "              \"material\": {\"roughness\": 0.8}}],\n"
    " \"lights\": [{\"kind\": \"directional\", \"direction\": [0, 0, -1], \"intensity\": 0.5},\n"
    "            {\"kind\": \"directional\", \"direction\": [0, 0, -1], \"intensity\": 1},\n"
    "            {\"kind\": \"point\", \"position\": [0, 0, 3], \"intensity\": 2}],\n"
    " \"bodies\": [{\"name\": \"floor\", \"mesh\": \"floor\"},\n"
    "            {\"name\": \"rig\", \"pose\": {\"position\": [0, 0, 1.5]}}],\n"
    " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"body\": \"rig\", \"rate\": 10,\n"
    "   \"mount\": {\"rpy\": [0, 0.7, 0]}, \"width\": 24, \"height\": 16, \"hfov_deg\": 60, \"samples\": 1,\n"
    "   \"filters\": [{\"name\": \"quantize\"}]}]}\n";

static void test_study_variants_edit_the_scene_as_documented(void **state) {
  (void)state;
  char *json = NULL, notes[1024];
  /* light_single: the stronger directional light (1 on level ground)
   * stays, the weaker and the point light go. */
  SENSIM_OK_OR_FAIL(sensim_ablation_edit(kStudy, SENSIM_ABLATE_SINGLE_LIGHT, 0, &json, notes, sizeof notes));
  cJSON *got = cJSON_Parse(json), *want = cJSON_Parse(kStudy);
  free(json);
  cJSON *lights = cJSON_GetObjectItem(want, "lights");
  cJSON_DeleteItemFromArray(lights, 2);
  cJSON_DeleteItemFromArray(lights, 0);
  assert_true(cJSON_Compare(want, got, 1));
  assert_non_null(strstr(notes, "kept lights[1]"));
  assert_non_null(strstr(notes, "2 other lights removed"));
  cJSON_Delete(got);
  cJSON_Delete(want);
  /* reflections_off names the mirroring floor and sets max_bounces 0. */
  SENSIM_OK_OR_FAIL(sensim_ablation_edit(kStudy, SENSIM_ABLATE_REFLECTIONS, 0, &json, notes, sizeof notes));
  got = cJSON_Parse(json);
  free(json);
  want = cJSON_Parse(kStudy);
  cJSON_AddNumberToObject(cJSON_GetArrayItem(cJSON_GetObjectItem(want, "sensors"), 0), "max_bounces", 0);
  assert_true(cJSON_Compare(want, got, 1));
  assert_non_null(strstr(notes, "cam: max_bounces 1 -> 0: no mirror reflections (mirroring: floor)"));
  cJSON_Delete(got);
  cJSON_Delete(want);
  /* lens_fov: a pinhole of hfov 60 deg becomes the FOV lens of 60 deg. */
  SENSIM_OK_OR_FAIL(sensim_ablation_edit(kStudy, SENSIM_ABLATE_FOV_LENS, 0, &json, notes, sizeof notes));
  got = cJSON_Parse(json);
  free(json);
  cJSON *cam = cJSON_GetArrayItem(cJSON_GetObjectItem(got, "sensors"), 0);
  assert_string_equal(cJSON_GetObjectItem(cam, "lens")->valuestring, "fov");
  assert_near(cJSON_GetObjectItem(cam, "hfov_deg")->valuedouble, 60.0, 1e-9);
  assert_non_null(strstr(notes, "lens pinhole -> fov"));
  cJSON_Delete(got);
  /* Bad input: a malformed light; a field no FOV lens has. */
  assert_int_equal(sensim_ablation_edit("{\"lights\": [{\"kind\": \"directional\", \"intensity\": \"x\"}, "
                                        "{\"kind\": \"point\"}], \"sensors\": [{\"type\": \"camera\"}]}",
                                        SENSIM_ABLATE_SINGLE_LIGHT, 0, &json, NULL, 0),
                   SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "lights[0]"));
  assert_int_equal(sensim_ablation_edit("{\"lights\": 3, \"sensors\": [{\"type\": \"camera\"}]}",
                                        SENSIM_ABLATE_SINGLE_LIGHT, 0, &json, NULL, 0),
                   SENSIM_EPARSE);
  assert_int_equal(sensim_ablation_edit("{\"sensors\": [{\"name\": \"wide\", \"type\": \"camera\", \"width\": 64, "
                                        "\"height\": 64, \"lens\": \"kannala_brandt\", \"hfov_deg\": 170, "
                                        "\"dist\": [0, 0, 0, 0]}]}",
                                        SENSIM_ABLATE_FOV_LENS, 0, &json, NULL, 0),
                   SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "wide"));
  assert_null(json);
  sensim_ablation a;
  SENSIM_OK_OR_FAIL(sensim_ablation_from_name("light_single", &a));
  assert_int_equal(a, SENSIM_ABLATE_SINGLE_LIGHT);
}

/* Mean of channel c over the image's lower rows (the floor), 8-bit levels. */
static double floor_mean(const sensim_image *img, int c) {
  double s = 0, n = 0;
  for (int y = 12; y < 16; y++)
    for (int x = 4; x < 20; x++) {
      s += img->data[3 * (y * 24 + x) + c] * 255.0;
      n++;
    }
  return s / n;
}

static sensim_image study_frame(const char *variant) {
  char p[512];
  snprintf(p, sizeof p, DIR_A "/study/%s/cam/frame_000000.png", variant);
  sensim_image img;
  SENSIM_OK_OR_FAIL(sensim_read_png(p, &img));
  return img;
}

/* Rendered: the mirror floor shows the blue sky in the baseline and its
 * own grey with reflections off; with one light the floor is darker; the
 * FOV lens moves the horizon (the image changes) but keeps the field. */
static void test_study_variants_render_what_they_remove(void **state) {
  (void)state;
  ablate_fresh_dir(DIR_A "/study");
  ablate_write_text(DIR_A "/study/scene.json", kStudy);
  const sensim_ablation vs[4] = {SENSIM_ABLATE_BASELINE, SENSIM_ABLATE_REFLECTIONS, SENSIM_ABLATE_SINGLE_LIGHT,
                                 SENSIM_ABLATE_FOV_LENS};
  sensim_ablate_options o;
  sensim_ablate_options_init(&o);
  o.variants = vs;
  o.nvariants = 4;
  o.frames = 1;
  SENSIM_OK_OR_FAIL(sensim_ablate_run(DIR_A "/study/scene.json", DIR_A "/study", &o));
  sensim_image base = study_frame("baseline"), refl = study_frame("reflections_off");
  sensim_image one = study_frame("light_single"), fov = study_frame("lens_fov");
  double br = floor_mean(&base, 0), bb = floor_mean(&base, 2);
  double rr = floor_mean(&refl, 0), rg = floor_mean(&refl, 1), rb = floor_mean(&refl, 2);
  print_message("floor R/G/B: baseline %.1f/%.1f, reflections_off %.1f/%.1f/%.1f, single light G %.1f\n", br, bb, rr,
                rg, rb, floor_mean(&one, 1));
  /* The sky's blue in the mirror: B well above R; without it grey. */
  if (!(bb - br > 6)) fail_msg("baseline floor does not mirror the blue sky: R %g B %g", br, bb);
  assert_near(rb, rr, 1.0);
  assert_near(rg, rr, 1.0);
  /* One light of the three: less light on the floor. */
  if (!(floor_mean(&one, 1) < floor_mean(&base, 1) - 5))
    fail_msg("single light is not darker: %g against %g", floor_mean(&one, 1), floor_mean(&base, 1));
  assert_false(same_image(&base, &fov));
  sensim_image_free(&base);
  sensim_image_free(&refl);
  sensim_image_free(&one);
  sensim_image_free(&fov);
}

int sensim_test_ablate_scenario(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_each_variant_edits_only_its_stage),
      cmocka_unit_test(test_frames_sets_the_duration),
      cmocka_unit_test(test_every_example_scenario_edits_and_loads_for_every_variant),
      cmocka_unit_test(test_ablation_bad_input),
      cmocka_unit_test_setup(test_ablate_writes_every_variant_with_the_same_frame_names, render_setup),
      cmocka_unit_test_setup(test_ablate_noise_off_has_no_variance_on_a_flat_region, render_setup),
      cmocka_unit_test_setup(test_ablate_clean_camera_changes_only_where_the_stage_acts, render_setup),
      cmocka_unit_test_setup(test_ablate_wb_ideal_makes_the_grey_background_grey, render_setup),
      cmocka_unit_test_setup(test_ablate_exposure_fixed_keeps_the_brightness, render_setup),
      cmocka_unit_test(test_study_variants_edit_the_scene_as_documented),
      cmocka_unit_test(test_study_variants_render_what_they_remove),
  };
  return cmocka_run_group_tests_name("ablate_scenario", tests, NULL, NULL);
}
