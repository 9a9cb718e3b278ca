/* tests/filters/isp_color_tests.c: the ISP's "demosaic", "white_balance",
 * "ccm" and "match_stats" on hand-made frames, and the demosaic PSNR
 * comparison on a scene rendered through the real camera path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "support/filter_harness.h"
#include "filters/builtin.h"

static const sensim_cfa kCfas[4] = {SENSIM_CFA_RGGB, SENSIM_CFA_BGGR, SENSIM_CFA_GRBG, SENSIM_CFA_GBRG};
static const char *const kCfaNames[4] = {"RGGB", "BGGR", "GRBG", "GBRG"};

/* Colour sampled at (x, y) under `cfa`, from frame.h's naming of the 2 x 2 cell. */
static int cfa_colour(sensim_cfa cfa, uint32_t x, uint32_t y) {
  const char *name = kCfaNames[cfa - SENSIM_CFA_RGGB];
  char c = name[(x & 1) + 2 * (y & 1)];
  return c == 'R' ? 0 : c == 'G' ? 1 : 2;
}

/* A raw_f32 mosaic of an rgb image (w x h x 3). */
static sensim_frame mosaic(const float *rgb, uint32_t w, uint32_t h, sensim_cfa cfa) {
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RAW_F32, w, h);
  f.cfa = cfa;
  float *d = f.data;
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) d[y * w + x] = rgb[3 * (y * w + x) + cfa_colour(cfa, x, y)];
  return f;
}

/* PSNR (peak 1) of `est` against `truth` over pixels at least `border` from the edge. */
static double psnr(const float *est, const float *truth, uint32_t w, uint32_t h, uint32_t border) {
  double se = 0.0;
  size_t n = 0;
  for (uint32_t y = border; y + border < h; y++)
    for (uint32_t x = border; x + border < w; x++)
      for (int c = 0; c < 3; c++) {
        double d = est[3 * (y * w + x) + c] - truth[3 * (y * w + x) + c];
        se += d * d;
        n++;
      }
  return 10.0 * log10(1.0 / (se / (double)n));
}

static double demosaic_psnr(const float *truth, uint32_t w, uint32_t h, sensim_cfa cfa, const char *method) {
  sensim_frame f = mosaic(truth, w, h, cfa);
  char json[64];
  snprintf(json, sizeof json, "{\"method\": \"%s\"}", method);
  fh_run_ok(&sensim__filter_demosaic, json, &f);
  assert_int_equal(f.type, SENSIM_PAYLOAD_RGB_F32);
  double p = psnr(f.data, truth, w, h, 2);
  sensim__frame_release(&f);
  return p;
}

/* ---- demosaic ----------------------------------------------------------- */

/* Each channel affine in (x, y) with integer coefficients: every kernel sum
 * is then exact in double, so "exactly" means bit for bit. */
static double ramp(int c, uint32_t x, uint32_t y) {
  static const double a[3][3] = {{7, 3, 2}, {100, -1, 5}, {40, 4, -3}};
  return a[c][0] + a[c][1] * x + a[c][2] * y;
}

static void test_demosaic_reproduces_linear_ramp_away_from_borders_for_every_cfa(void **state) {
  (void)state;
  const uint32_t W = 17, H = 12;
  float truth[17 * 12 * 3];
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++)
      for (int c = 0; c < 3; c++) truth[3 * (y * W + x) + c] = (float)ramp(c, x, y);
  for (int m = 0; m < 2; m++) {
    /* Bilinear reads a 3 x 3 neighbourhood, MHC 5 x 5. */
    const char *json = m == 0 ? "{\"method\": \"bilinear\"}" : "{\"method\": \"mhc\"}";
    uint32_t border = m == 0 ? 1 : 2;
    for (int k = 0; k < 4; k++) {
      sensim_frame f = mosaic(truth, W, H, kCfas[k]);
      f.unit = SENSIM_UNIT_ELECTRONS;
      fh_run_ok(&sensim__filter_demosaic, json, &f);
      assert_int_equal(f.type, SENSIM_PAYLOAD_RGB_F32);
      assert_int_equal(f.cfa, SENSIM_CFA_NONE);
      assert_int_equal(f.unit, SENSIM_UNIT_ELECTRONS);
      const float *o = f.data;
      for (uint32_t y = border; y + border < H; y++)
        for (uint32_t x = border; x + border < W; x++)
          for (int c = 0; c < 3; c++)
            if (o[3 * (y * W + x) + c] != truth[3 * (y * W + x) + c])
              fail_msg("%s %s: pixel (%u, %u) channel %d = %g, ramp %g", json, kCfaNames[k], x, y, c,
                       o[3 * (y * W + x) + c], truth[3 * (y * W + x) + c]);
      sensim__frame_release(&f);
    }
  }
}

/* Mirroring without repeating the edge keeps the CFA parity, so a uniform
 * colour comes back exactly on every pixel, borders included (replicating
 * the edge would put wrong colours into the kernels there), and the
 * missing colour at a border pixel reads its mirrored neighbour. */
static void test_demosaic_mirror_border_keeps_colours_and_mirrors_neighbours(void **state) {
  (void)state;
  const uint32_t W = 6, H = 5;
  float flat[6 * 5 * 3], xr[6 * 5 * 3];
  for (uint32_t i = 0; i < W * H; i++) {
    flat[3 * i] = 0.7f, flat[3 * i + 1] = 0.25f, flat[3 * i + 2] = 0.125f;
    for (int c = 0; c < 3; c++) xr[3 * i + c] = (float)(i % W); /* every channel = x */
  }
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 4; k++) {
      sensim_frame f = mosaic(flat, W, H, kCfas[k]);
      fh_run_ok(&sensim__filter_demosaic, m ? "{\"method\": \"mhc\"}" : "{\"method\": \"bilinear\"}", &f);
      const float *o = f.data;
      for (uint32_t i = 0; i < 3 * W * H; i++) assert_near(o[i], flat[i % 3], 1e-6);
      sensim__frame_release(&f);
    }
  /* RGGB: pixel (0, 1) is G in a G B row; its B comes from (-1, 1) and
   * (1, 1), and (-1, 1) mirrors to (1, 1): B(0, 1) = x of (1, 1) = 1. */
  sensim_frame f = mosaic(xr, W, H, SENSIM_CFA_RGGB);
  fh_run_ok(&sensim__filter_demosaic, "{\"method\": \"bilinear\"}", &f);
  assert_true(((const float *)f.data)[3 * (1 * W + 0) + 2] == 1.0f);
  sensim__frame_release(&f);
}

/* A smooth image with natural images' inter-channel correlation: a shared
 * luminance pattern times slowly varying chroma. */
static void test_demosaic_mhc_beats_bilinear_on_smooth_colour_image(void **state) {
  (void)state;
  const uint32_t W = 96, H = 80;
  float *truth = malloc(sizeof(float) * 3 * W * H);
  assert_non_null(truth);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      double lum = 0.5 + 0.3 * sin(2 * M_PI * x / 7.0 + 0.3) * cos(2 * M_PI * y / 9.0);
      double cr = 1.0 + 0.3 * sin(2 * M_PI * x / 61.0), cb = 0.8 + 0.2 * cos(2 * M_PI * y / 53.0);
      truth[3 * (y * W + x)] = (float)(0.9 * lum * cr);
      truth[3 * (y * W + x) + 1] = (float)(0.9 * lum);
      truth[3 * (y * W + x) + 2] = (float)(0.9 * lum * cb);
    }
  for (int k = 0; k < 4; k++) {
    double pb = demosaic_psnr(truth, W, H, kCfas[k], "bilinear");
    double pm = demosaic_psnr(truth, W, H, kCfas[k], "mhc");
    /* Malvar et al. report ~5 dB over bilinear on the Kodak set; ask for 3. */
    if (!(pm > pb + 3.0)) fail_msg("%s: MHC %.2f dB vs bilinear %.2f dB", kCfaNames[k], pm, pb);
  }
  free(truth);
}

/* A scene of untextured coloured boxes under a sun with shadows, rendered
 * by the camera (16 stratified rays per pixel, so edges are antialiased as
 * a real lens blurs them), mosaicked and demosaicked both ways. The mosaic
 * is made here (and checked against the "cfa" filter's when it is linked)
 * so that both methods see the same rendered frame. */
static void test_demosaic_mhc_beats_bilinear_on_rendered_scene(void **state) {
  (void)state;
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.background[0] = 0.35f, wp.background[1] = 0.5f, wp.background[2] = 0.75f;
  wp.ambient = 0.25f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  struct {
    sensim_shape_kind kind;
    sensim_vec3 size, pos;
    float rgb[3];
  } objs[] = {
      {SENSIM_SHAPE_PLANE, {60, 60, 0}, {0, 0, 0}, {0.35f, 0.4f, 0.3f}},
      {SENSIM_SHAPE_BOX, {1, 1, 1}, {6, -1.2, 0.5}, {0.8f, 0.1f, 0.1f}},
      {SENSIM_SHAPE_BOX, {1.5, 1.5, 1.5}, {9, 1.5, 0.75}, {0.1f, 0.7f, 0.2f}},
      {SENSIM_SHAPE_BOX, {0.8, 0.8, 0.8}, {5, 0.9, 0.4}, {0.1f, 0.2f, 0.9f}},
      {SENSIM_SHAPE_BOX, {0.6, 2.0, 0.6}, {7, -0.2, 1.6}, {0.9f, 0.8f, 0.1f}},
  };
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) {
    sensim_material mat;
    sensim_material_init(&mat);
    memcpy(mat.base_color, objs[i].rgb, sizeof mat.base_color);
    sensim_shape sh = {objs[i].kind, objs[i].size, 0};
    sensim_mesh *m = NULL;
    SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
    sensim_body_params bp;
    sensim_body_params_init(&bp);
    bp.mesh = m;
    bp.is_static = 1;
    bp.pose.pos = objs[i].pos;
    bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, 0.4 * (double)i);
    sensim_body *b = NULL;
    SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  }
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){0.4, 0.5, -1.0};
  l.intensity = 2.0f;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.mount.pos = (sensim_vec3){0, 0, 1.2};
  sp.mount.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, 0.12); /* a little down */
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 160;
  cp.height = 120;
  cp.hfov = 70.0 * M_PI / 180.0;
  cp.samples = 16;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RGB_F32);
  uint32_t W = f->width, H = f->height;
  float *truth = malloc(sizeof(float) * 3 * W * H);
  assert_non_null(truth);
  /* Scale into [0, 1] as an exposed sensor would, so PSNR's peak is 1. */
  float peak = 0.0f;
  for (size_t i = 0; i < 3 * f->count; i++) peak = fmaxf(peak, ((const float *)f->data)[i]);
  assert_true(peak > 0.0f);
  for (size_t i = 0; i < 3 * f->count; i++) truth[i] = ((const float *)f->data)[i] / peak;
  sensim_world_destroy(w);
  const sensim_builtin_filter *cfa = sensim__filter_find("cfa");
  for (int k = 0; k < 4; k++) {
    if (cfa) { /* the "cfa" filter lays out the mosaic as this test does */
      char json[32];
      snprintf(json, sizeof json, "{\"pattern\": \"%s\"}", kCfaNames[k]);
      sensim_frame g = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, W, H), m = mosaic(truth, W, H, kCfas[k]);
      memcpy(g.data, truth, sizeof(float) * 3 * W * H);
      fh_run_ok(cfa, json, &g);
      assert_int_equal(g.type, SENSIM_PAYLOAD_RAW_F32);
      assert_int_equal(g.cfa, kCfas[k]);
      assert_memory_equal(g.data, m.data, sizeof(float) * W * H);
      sensim__frame_release(&g);
      sensim__frame_release(&m);
    }
    double pb = demosaic_psnr(truth, W, H, kCfas[k], "bilinear");
    double pm = demosaic_psnr(truth, W, H, kCfas[k], "mhc");
    if (!(pm > pb)) fail_msg("%s: MHC %.2f dB does not beat bilinear %.2f dB", kCfaNames[k], pm, pb);
  }
  free(truth);
}

static void test_demosaic_rejects_bad_input(void **state) {
  (void)state;
  fh_expect_refused(&sensim__filter_demosaic, "{\"method\": \"ahd\"}", SENSIM_EINVAL, "ahd");
  fh_expect_refused(&sensim__filter_demosaic, "{\"method\": 2}", SENSIM_EINVAL, "method");
  fh_expect_refused(&sensim__filter_demosaic, "{\"kernel\": \"mhc\"}", SENSIM_EINVAL, "kernel");
  void *u = fh_make(&sensim__filter_demosaic, NULL);
  /* No CFA layout: refused, frame untouched. */
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RAW_F32, 4, 4);
  void *data = f.data;
  assert_int_equal(fh_apply(&sensim__filter_demosaic, u, &f), SENSIM_ETYPE);
  assert_true(f.type == SENSIM_PAYLOAD_RAW_F32 && f.data == data);
  /* Narrower than a CFA cell. */
  sensim_frame g = fh_new_frame(SENSIM_PAYLOAD_RAW_F32, 1, 4);
  g.cfa = SENSIM_CFA_RGGB;
  assert_int_equal(fh_apply(&sensim__filter_demosaic, u, &g), SENSIM_EINVAL);
  sensim__frame_release(&g);
  /* Still usable. */
  f.cfa = SENSIM_CFA_GBRG;
  SENSIM_OK_OR_FAIL(fh_apply(&sensim__filter_demosaic, u, &f));
  assert_int_equal(f.type, SENSIM_PAYLOAD_RGB_F32);
  sensim__frame_release(&f);
  fh_drop(&sensim__filter_demosaic, u);
}

/* ---- white balance, ccm, match_stats ------------------------------------ */

/* A colour-cast test image: per-channel scales and a deterministic texture. */
static sensim_frame cast_image(uint32_t w, uint32_t h) {
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, w, h);
  float *d = f.data;
  for (uint32_t i = 0; i < w * h; i++) {
    double t = 0.5 + 0.45 * sin(0.37 * i) * cos(0.011 * i);
    d[3 * i] = (float)(1.3 * t + 0.02);
    d[3 * i + 1] = (float)(0.9 * t * t + 0.05);
    d[3 * i + 2] = (float)(0.4 * t + 0.1 * cos(0.05 * i) + 0.15);
  }
  return f;
}

static void means_sd(const sensim_frame *f, double mean[3], double sd[3]) {
  const float *d = f->data;
  double s[3] = {0}, q[3] = {0};
  for (size_t i = 0; i < f->count; i++)
    for (int c = 0; c < 3; c++) s[c] += d[3 * i + c];
  for (int c = 0; c < 3; c++) mean[c] = s[c] / (double)f->count;
  for (size_t i = 0; i < f->count; i++)
    for (int c = 0; c < 3; c++) q[c] += (d[3 * i + c] - mean[c]) * (d[3 * i + c] - mean[c]);
  for (int c = 0; c < 3; c++) sd[c] = sqrt(q[c] / (double)f->count);
}

/* Float precision: each scaled pixel is rounded to float (relative error
 * <= 2^-24 = 6e-8), so the mean is off by at most that relatively; 1e-6
 * leaves room for the accumulation in double. */
#define FLOAT_REL 1e-6

static void test_white_balance_gray_world_equalises_channel_means(void **state) {
  (void)state;
  sensim_frame f = cast_image(64, 48);
  double m0[3], m[3], sd[3];
  means_sd(&f, m0, sd);
  fh_run_ok(&sensim__filter_white_balance, NULL, &f); /* gray_world is the default */
  means_sd(&f, m, sd);
  assert_near(m[1], m0[1], FLOAT_REL * m0[1]); /* G untouched */
  assert_near(m[0], m[1], FLOAT_REL * m[1]);
  assert_near(m[2], m[1], FLOAT_REL * m[1]);
  sensim__frame_release(&f);
}

static void test_white_balance_fixed_gains_scale_each_channel(void **state) {
  (void)state;
  sensim_frame f = cast_image(16, 8), g = cast_image(16, 8);
  fh_run_ok(&sensim__filter_white_balance, "{\"mode\": \"fixed\", \"gains\": [2.0, 1.0, 0.5]}", &f);
  const float *a = f.data, *b = g.data;
  const double gains[3] = {2.0, 1.0, 0.5};
  for (size_t i = 0; i < 3 * f.count; i++) assert_true(a[i] == (float)(gains[i % 3] * b[i]));
  sensim__frame_release(&f);
  sensim__frame_release(&g);
}

static void test_white_balance_reference_mode_hits_reference_means(void **state) {
  (void)state;
  sensim_frame f = cast_image(40, 30);
  fh_run_ok(&sensim__filter_white_balance, "{\"mode\": \"reference\", \"reference_mean\": [0.41, 0.38, 0.33]}", &f);
  double m[3], sd[3];
  means_sd(&f, m, sd);
  assert_near(m[0], 0.41, FLOAT_REL * 0.41);
  assert_near(m[1], 0.38, FLOAT_REL * 0.38);
  assert_near(m[2], 0.33, FLOAT_REL * 0.33);
  sensim__frame_release(&f);
}

static void test_white_balance_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_white_balance;
  fh_expect_refused(b, "{\"mode\": \"retinex\"}", SENSIM_EINVAL, "retinex");
  fh_expect_refused(b, "{\"mode\": \"gray_world\", \"gains\": [1, 1, 1]}", SENSIM_EINVAL, "gains");
  fh_expect_refused(b, "{\"mode\": \"reference\"}", SENSIM_EINVAL, "reference_mean");
  fh_expect_refused(b, "{\"mode\": \"reference\", \"reference_mean\": [0.4, 0, 0.3]}", SENSIM_EINVAL,
                 "reference_mean");
  fh_expect_refused(b, "{\"mode\": \"fixed\", \"gains\": [1, -1, 1]}", SENSIM_EINVAL, "gains");
  fh_expect_refused(b, "{\"mode\": \"fixed\", \"gains\": [1, 1]}", SENSIM_EINVAL, "gains");
  fh_expect_refused(b, "{\"mode\": 1}", SENSIM_EINVAL, "mode");
  fh_expect_refused(b, "{\"gain\": [1, 1, 1]}", SENSIM_EINVAL, "gain");
}

static void test_ccm_identity_and_known_matrix(void **state) {
  (void)state;
  sensim_frame f = cast_image(12, 10), g = cast_image(12, 10);
  fh_run_ok(&sensim__filter_ccm, "{\"matrix\": [1, 0, 0, 0, 1, 0, 0, 0, 1]}", &f);
  assert_memory_equal(f.data, g.data, 3 * f.count * sizeof(float));
  fh_run_ok(&sensim__filter_ccm, NULL, &f); /* default: identity */
  assert_memory_equal(f.data, g.data, 3 * f.count * sizeof(float));
  /* A typical camera-to-sRGB matrix (rows sum to 1, so grey stays grey). */
  const double M[9] = {1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5};
  fh_run_ok(&sensim__filter_ccm, "{\"matrix\": [1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5]}", &f);
  const float *o = f.data, *in = g.data;
  for (size_t i = 0; i < f.count; i++)
    for (int r = 0; r < 3; r++) {
      double want = M[3 * r] * in[3 * i] + M[3 * r + 1] * in[3 * i + 1] + M[3 * r + 2] * in[3 * i + 2];
      assert_near(o[3 * i + r], want, 1e-6);
    }
  sensim__frame_release(&f);
  sensim__frame_release(&g);
}

static void test_ccm_rejects_bad_matrix(void **state) {
  (void)state;
  fh_expect_refused(&sensim__filter_ccm, "{\"matrix\": [1, 0, 0, 0, 1, 0, 0, 0]}", SENSIM_EINVAL, "9 numbers");
  fh_expect_refused(&sensim__filter_ccm, "{\"matrix\": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}", SENSIM_EINVAL, "9 numbers");
  fh_expect_refused(&sensim__filter_ccm, "{\"matrix\": 1}", SENSIM_EINVAL, "matrix");
  fh_expect_refused(&sensim__filter_ccm, "{\"matrix\": [1, 0, 0, 0, \"x\", 0, 0, 0, 1]}", SENSIM_EINVAL, "matrix[4]");
}

static void test_match_stats_hits_reference_mean_and_std(void **state) {
  (void)state;
  sensim_frame f = cast_image(50, 40);
  fh_run_ok(&sensim__filter_match_stats,
         "{\"reference_mean\": [0.45, 0.4, 0.3], \"reference_std\": [0.2, 0.15, 0.1]}", &f);
  double m[3], sd[3];
  means_sd(&f, m, sd);
  const double rm[3] = {0.45, 0.4, 0.3}, rs[3] = {0.2, 0.15, 0.1};
  for (int c = 0; c < 3; c++) {
    assert_near(m[c], rm[c], 1e-6);
    assert_near(sd[c], rs[c], 1e-6);
  }
  sensim__frame_release(&f);
  /* Luminance: one map for all channels; Y gets the reference statistics. */
  f = cast_image(50, 40);
  sensim_frame g = cast_image(50, 40);
  fh_run_ok(&sensim__filter_match_stats, "{\"per_channel\": false, \"reference_mean\": 0.5, \"reference_std\": 0.05}",
         &f);
  const float *o = f.data, *in = g.data;
  double s = 0, q = 0;
  for (size_t i = 0; i < f.count; i++) s += 0.2126 * o[3 * i] + 0.7152 * o[3 * i + 1] + 0.0722 * o[3 * i + 2];
  double my = s / (double)f.count;
  for (size_t i = 0; i < f.count; i++) {
    double d = 0.2126 * o[3 * i] + 0.7152 * o[3 * i + 1] + 0.0722 * o[3 * i + 2] - my;
    q += d * d;
  }
  assert_near(my, 0.5, 1e-6);
  assert_near(sqrt(q / (double)f.count), 0.05, 1e-6);
  /* Same gain on every channel: channel differences scale together. */
  double r0 = (o[0] - o[1]) / (in[0] - in[1]), r1 = (o[3 * 7] - o[3 * 7 + 2]) / (in[3 * 7] - in[3 * 7 + 2]);
  assert_near(r0, r1, 1e-4);
  sensim__frame_release(&f);
  sensim__frame_release(&g);
}

static void test_match_stats_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_match_stats;
  fh_expect_refused(b, NULL, SENSIM_EINVAL, "reference_mean");
  fh_expect_refused(b, "{\"reference_mean\": [0.4, 0.4, 0.4]}", SENSIM_EINVAL, "reference_std");
  fh_expect_refused(b, "{\"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": [0.1, -0.1, 0.1]}", SENSIM_EINVAL,
                 "reference_std");
  fh_expect_refused(b, "{\"per_channel\": 1, \"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": [0.1, 0.1, 0.1]}",
                 SENSIM_EINVAL, "per_channel");
  fh_expect_refused(b, "{\"per_channel\": false, \"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": 0.1}",
                 SENSIM_EINVAL, "reference_mean");
  fh_expect_refused(b, "{\"reference_mean\": 0.4, \"reference_std\": 0.1}", SENSIM_EINVAL, "reference_mean");
}

int sensim_test_isp_color(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_demosaic_reproduces_linear_ramp_away_from_borders_for_every_cfa),
      cmocka_unit_test(test_demosaic_mirror_border_keeps_colours_and_mirrors_neighbours),
      cmocka_unit_test(test_demosaic_mhc_beats_bilinear_on_smooth_colour_image),
      cmocka_unit_test(test_demosaic_mhc_beats_bilinear_on_rendered_scene),
      cmocka_unit_test(test_demosaic_rejects_bad_input),
      cmocka_unit_test(test_white_balance_gray_world_equalises_channel_means),
      cmocka_unit_test(test_white_balance_fixed_gains_scale_each_channel),
      cmocka_unit_test(test_white_balance_reference_mode_hits_reference_means),
      cmocka_unit_test(test_white_balance_rejects_bad_input),
      cmocka_unit_test(test_ccm_identity_and_known_matrix),
      cmocka_unit_test(test_ccm_rejects_bad_matrix),
      cmocka_unit_test(test_match_stats_hits_reference_mean_and_std),
      cmocka_unit_test(test_match_stats_rejects_bad_input),
  };
  return cmocka_run_group_tests_name("isp_color", tests, NULL, NULL);
}
