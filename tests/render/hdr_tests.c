/* Radiance .hdr files and environment maps: RGBE round trips within the
 * format's precision (8 mantissa bits of the largest channel), run-length
 * and flat scanlines; malformed files refused naming the file and fault;
 * a map's radiance importance-sampled so that a Lambertian floor under it
 * gets the irradiance summed pixel by pixel in closed form, and a constant
 * map passes the white furnace. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_fixture.h"

#define TMP SENSIM_TEST_TMP "/hdr"

static const char *tmp(const char *name) {
  static char buf[512];
  snprintf(buf, sizeof buf, "%s/%s", TMP, name);
  return buf;
}

static void write_bytes(const char *path, const void *b, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b, 1, n, f), n);
  fclose(f);
}

static void test_hdr_round_trips_within_rgbe_precision(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  const uint32_t widths[2] = {37, 5}; /* run-length encoded, flat */
  for (int k = 0; k < 2; k++) {
    const uint32_t W = widths[k], H = 6;
    float *rgb = malloc(3 * W * H * sizeof *rgb);
    uint32_t s = 12345;
    for (size_t i = 0; i < 3 * (size_t)W * H; i++) {
      s = s * 1664525u + 1013904223u;
      /* Runs of equal values (RLE runs) and values over 8 decades. */
      rgb[i] = (i / 12) % 3 == 0 ? 0.25f : (float)pow(10.0, -3.0 + 7.0 * (s >> 8) * 0x1p-24);
    }
    rgb[0] = rgb[1] = rgb[2] = 0.0f;
    SENSIM_OK_OR_FAIL(sensim_write_hdr(tmp("rt.hdr"), W, H, rgb));
    sensim_image img;
    SENSIM_OK_OR_FAIL(sensim_read_hdr(tmp("rt.hdr"), &img));
    assert_int_equal(img.width, W);
    assert_int_equal(img.height, H);
    assert_int_equal(img.channels, 3);
    for (size_t p = 0; p < (size_t)W * H; p++) {
      const float *a = rgb + 3 * p, *b = img.data + 3 * p;
      const float mx = fmaxf(a[0], fmaxf(a[1], a[2]));
      for (int c = 0; c < 3; c++) assert_true(fabsf(a[c] - b[c]) <= mx / 128.0f + 1e-30f);
    }
    sensim_image_free(&img);
    free(rgb);
  }
}

static void test_hdr_refuses_malformed_files(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  sensim_image img;
  assert_int_equal(sensim_read_hdr(tmp("missing.hdr"), &img), SENSIM_ENOTFOUND);
  const char *wrong = "P6\n2 2\n255\n";
  write_bytes(tmp("wrong.hdr"), wrong, strlen(wrong));
  assert_int_equal(sensim_read_hdr(tmp("wrong.hdr"), &img), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "wrong.hdr"));
  const char *zero = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 0 +X 0\n";
  write_bytes(tmp("zero.hdr"), zero, strlen(zero));
  assert_int_equal(sensim_read_hdr(tmp("zero.hdr"), &img), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "0x0"));
  const char *orient = "#?RADIANCE\n\n+Y 2 +X 2\n";
  write_bytes(tmp("orient.hdr"), orient, strlen(orient));
  assert_int_equal(sensim_read_hdr(tmp("orient.hdr"), &img), SENSIM_EPARSE);
  const char *xyze = "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\nabcd";
  write_bytes(tmp("xyze.hdr"), xyze, strlen(xyze));
  assert_int_equal(sensim_read_hdr(tmp("xyze.hdr"), &img), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "FORMAT"));
  const char *trunc = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n\x80\x80\x80\x81";
  write_bytes(tmp("trunc.hdr"), trunc, strlen(trunc));
  assert_int_equal(sensim_read_hdr(tmp("trunc.hdr"), &img), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "truncated"));
  /* An RLE scanline whose run overflows the width. */
  const unsigned char rle[] = "#?RADIANCE\n\n-Y 1 +X 8\n\x02\x02\x00\x08\xff\x01";
  write_bytes(tmp("rle.hdr"), rle, sizeof rle - 1);
  assert_int_equal(sensim_read_hdr(tmp("rle.hdr"), &img), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "corrupt"));
  assert_null(img.data);
  /* Writing and creating refuse NaN, negative and infinite texels. */
  const float bad[3][3] = {{NAN, 0, 0}, {0, -1, 0}, {0, 0, INFINITY}};
  sensim_world *w = rf_world(0);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(sensim_write_hdr(tmp("bad.hdr"), 1, 1, bad[k]), SENSIM_EINVAL);
    sensim_texture *t = NULL;
    assert_int_equal(sensim_texture_create_hdr(w, 1, 1, bad[k], &t), SENSIM_EINVAL);
    assert_null(t);
  }
  const float big[3] = {1e6f, 2.0f, 0.0f};
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create_hdr(w, 1, 1, big, &t));
  assert_int_equal(sensim_texture_create(w, 1, 1, big, &t), SENSIM_EINVAL); /* LDR: [0, 1] */
  sensim_environment e;
  sensim_environment_init(&e);
  e.type = SENSIM_ENVIRONMENT_MAP;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "map"));
  e.map = t;
  e.scale = -1.0f;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "scale"));
  assert_int_equal(sensim_world_set_environment_json(w, "{\"type\": \"map\", \"path\": \"/nonexistent/x.hdr\"}", NULL),
                   SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "x.hdr"));
  sensim_world_destroy(w);
}

/* A 16 x 8 map with a bright patch over a Lambertian floor: the floor's
 * radiance is rho / pi x sum over the upper pixels of L_ij dphi (sin^2
 * theta_1 - sin^2 theta_0) / 2 (the cosine-weighted solid angle of each
 * cell). */
static void test_map_lights_floor_by_pixel_sum(void **state) {
  (void)state;
  const int W = 16, H = 8;
  float map[3 * 16 * 8];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 3; c++) map[3 * (y * W + x) + c] = (float)(0.2 + 0.05 * ((x * 7 + y * 3 + c) % 5));
  map[3 * (2 * W + 5) + 1] = 40.0f; /* a sun-like patch, green */
  double want = 0;
  for (int y = 0; y < H / 2; y++) {
    const double t0 = M_PI * y / H, t1 = M_PI * (y + 1) / H;
    for (int x = 0; x < W; x++)
      want += map[3 * (y * W + x) + 1] * (2 * M_PI / W) * (sin(t1) * sin(t1) - sin(t0) * sin(t0)) / 2;
  }
  want *= 0.5 / M_PI;
  sensim_world *w = rf_world(0);
  sensim_texture *t = NULL;
  SENSIM_OK_OR_FAIL(sensim_texture_create_hdr(w, W, H, map, &t));
  sensim_environment e;
  sensim_environment_init(&e);
  e.type = SENSIM_ENVIRONMENT_MAP;
  e.map = t;
  SENSIM_OK_OR_FAIL(sensim_world_set_environment(w, &e));
  sensim_material m;
  sensim_material_init(&m);
  m.specular = 0.0f;
  rf_plane(w, 1000, (sensim_vec3){0, 0, 0}, &m);
  sensim_sensor *cam = rf_camera(w, (sensim_vec3){-3, 0, 0.5}, (sensim_vec3){3, 0, -0.5}, 16, 16, 1e-4, 1024, 1);
  double sem;
  const double got = rf_mean(rf_render(w, cam), 1, &sem);
  print_message("map over floor: %.5f (want %.5f, sem %.5f)\n", got, want, sem);
  assert_true(sem < 0.0025 * want);
  assert_true(fabs(got - want) < 0.01 * want);
  sensim_world_destroy(w);
}

/* The white furnace through a map file and the scenario key. */
static void test_constant_map_from_scenario_passes_furnace(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  float px[3 * 12 * 6];
  for (int i = 0; i < 3 * 12 * 6; i++) px[i] = 2.0f;
  SENSIM_OK_OR_FAIL(sensim_write_hdr(tmp("two.hdr"), 12, 6, px));
  const char *json =
      "{\"duration\": 1, \"world\": {\"threads\": 0, \"background\": [0, 0, 0], \"ambient\": 0,"
      " \"environment\": {\"type\": \"map\", \"path\": \"two.hdr\", \"scale\": 0.5}},"
      " \"meshes\": [{\"name\": \"ball\", \"shape\": {\"kind\": \"sphere\", \"size\": [1, 0, 0], \"segments\": 48},"
      "   \"material\": {\"base_color\": [0.5, 0.5, 0.5], \"specular\": 0, \"roughness\": 1}}],"
      " \"bodies\": [{\"name\": \"b\", \"mesh\": \"ball\", \"static\": true}],"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"integrator\": \"path\", \"max_bounces\": 4,"
      "   \"width\": 48, \"height\": 48, \"hfov_deg\": 14, \"samples\": 16, \"mount\": {\"position\": [-4, 0, 0]}}]}";
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(json, TMP, &scn));
  sensim_world *w = sensim_scenario_world(scn);
  const double got = rf_mean(rf_render(w, sensim_world_sensor_by_name(w, "cam")), 0, NULL);
  print_message("map furnace: %.5f (want 0.5)\n", got);
  assert_true(fabs(got - 0.5) < 0.005);
  sensim_scenario_destroy(scn);
}

int sensim_test_render_hdr(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hdr_round_trips_within_rgbe_precision),
      cmocka_unit_test(test_hdr_refuses_malformed_files),
      cmocka_unit_test(test_map_lights_floor_by_pixel_sum),
      cmocka_unit_test(test_constant_map_from_scenario_passes_furnace),
  };
  return cmocka_run_group_tests_name("render_hdr", tests, NULL, NULL);
}
