/* tests/filters/isp_tests.c: the ISP filters: "demosaic", "white_balance",
 * "ccm", "match_stats", "auto_exposure", "tone", "quantize" (and its 16-bit
 * and grey siblings), "grayscale", "downsample".
 *
 * Most checks call a filter's own create/apply on hand-made frames; the
 * demosaic PSNR comparison renders a scene through the real camera path,
 * and auto exposure runs through a real filter chain (filters/chain.h) so
 * the exposure requests go through the chain's own queue. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/chain.h"
#include "support/testutil.h"

extern const sensim_builtin_filter sensim__filter_demosaic;
extern const sensim_builtin_filter sensim__filter_white_balance;
extern const sensim_builtin_filter sensim__filter_ccm;
extern const sensim_builtin_filter sensim__filter_match_stats;
extern const sensim_builtin_filter sensim__filter_auto_exposure;
extern const sensim_builtin_filter sensim__filter_tone;
extern const sensim_builtin_filter sensim__filter_quantize;
extern const sensim_builtin_filter sensim__filter_quantize16;
extern const sensim_builtin_filter sensim__filter_quantize_gray;
extern const sensim_builtin_filter sensim__filter_quantize_gray16;
extern const sensim_builtin_filter sensim__filter_grayscale;
extern const sensim_builtin_filter sensim__filter_downsample;

#define SEED 771u

/* ---- helpers ------------------------------------------------------------ */

static sensim_status try_create(const sensim_builtin_filter *b, const char *json, void **user) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json && !p) fail_msg("test JSON does not parse: %s", json);
  *user = NULL;
  sensim_status rc = b->create(p, user);
  cJSON_Delete(p);
  return rc;
}

static void *make_filter(const sensim_builtin_filter *b, const char *json) {
  void *user = NULL;
  SENSIM_OK_OR_FAIL(try_create(b, json, &user));
  return user;
}

static void drop_filter(const sensim_builtin_filter *b, void *user) {
  if (b->def.destroy) b->def.destroy(user);
}

/* create() must refuse `json` with `code` and a message containing `needle`. */
static void expect_refused(const sensim_builtin_filter *b, const char *json, sensim_status code, const char *needle) {
  void *user = NULL;
  sensim_status rc = try_create(b, json, &user);
  if (rc != code) fail_msg("%s %s -> %d, expected %d (%s)", b->def.name, json, rc, code, sensim_last_error());
  if (needle && !strstr(sensim_last_error(), needle))
    fail_msg("%s %s: message '%s' lacks '%s'", b->def.name, json, sensim_last_error(), needle);
}

static sensim_exposure_state g_exposure;

static sensim_status apply_filter(const sensim_builtin_filter *b, void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.seed = SEED;
  ctx.exposure = &g_exposure;
  sensim_rng_init(&ctx.rng, SEED, 0, f->index, 0x80000000u);
  return b->def.apply(user, f, &ctx);
}

static void run_ok(const sensim_builtin_filter *b, const char *json, sensim_frame *f) {
  void *u = make_filter(b, json);
  SENSIM_OK_OR_FAIL(apply_filter(b, u, f));
  drop_filter(b, u);
}

static sensim_frame new_frame(sensim_payload type, uint32_t w, uint32_t h) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, type, w, h));
  return f;
}

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
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RAW_F32, w, h);
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
  run_ok(&sensim__filter_demosaic, json, &f);
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
      run_ok(&sensim__filter_demosaic, json, &f);
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
      run_ok(&sensim__filter_demosaic, m ? "{\"method\": \"mhc\"}" : "{\"method\": \"bilinear\"}", &f);
      const float *o = f.data;
      for (uint32_t i = 0; i < 3 * W * H; i++) assert_near(o[i], flat[i % 3], 1e-6);
      sensim__frame_release(&f);
    }
  /* RGGB: pixel (0, 1) is G in a G B row; its B comes from (-1, 1) and
   * (1, 1), and (-1, 1) mirrors to (1, 1): B(0, 1) = x of (1, 1) = 1. */
  sensim_frame f = mosaic(xr, W, H, SENSIM_CFA_RGGB);
  run_ok(&sensim__filter_demosaic, "{\"method\": \"bilinear\"}", &f);
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
      sensim_frame g = new_frame(SENSIM_PAYLOAD_RGB_F32, W, H), m = mosaic(truth, W, H, kCfas[k]);
      memcpy(g.data, truth, sizeof(float) * 3 * W * H);
      run_ok(cfa, json, &g);
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
  expect_refused(&sensim__filter_demosaic, "{\"method\": \"ahd\"}", SENSIM_EINVAL, "ahd");
  expect_refused(&sensim__filter_demosaic, "{\"method\": 2}", SENSIM_EINVAL, "method");
  expect_refused(&sensim__filter_demosaic, "{\"kernel\": \"mhc\"}", SENSIM_EINVAL, "kernel");
  void *u = make_filter(&sensim__filter_demosaic, NULL);
  /* No CFA layout: refused, frame untouched. */
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RAW_F32, 4, 4);
  void *data = f.data;
  assert_int_equal(apply_filter(&sensim__filter_demosaic, u, &f), SENSIM_ETYPE);
  assert_true(f.type == SENSIM_PAYLOAD_RAW_F32 && f.data == data);
  /* Narrower than a CFA cell. */
  sensim_frame g = new_frame(SENSIM_PAYLOAD_RAW_F32, 1, 4);
  g.cfa = SENSIM_CFA_RGGB;
  assert_int_equal(apply_filter(&sensim__filter_demosaic, u, &g), SENSIM_EINVAL);
  sensim__frame_release(&g);
  /* Still usable. */
  f.cfa = SENSIM_CFA_GBRG;
  SENSIM_OK_OR_FAIL(apply_filter(&sensim__filter_demosaic, u, &f));
  assert_int_equal(f.type, SENSIM_PAYLOAD_RGB_F32);
  sensim__frame_release(&f);
  drop_filter(&sensim__filter_demosaic, u);
}

/* ---- white balance, ccm, match_stats ------------------------------------ */

/* A colour-cast test image: per-channel scales and a deterministic texture. */
static sensim_frame cast_image(uint32_t w, uint32_t h) {
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RGB_F32, w, h);
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
  run_ok(&sensim__filter_white_balance, NULL, &f); /* gray_world is the default */
  means_sd(&f, m, sd);
  assert_near(m[1], m0[1], FLOAT_REL * m0[1]); /* G untouched */
  assert_near(m[0], m[1], FLOAT_REL * m[1]);
  assert_near(m[2], m[1], FLOAT_REL * m[1]);
  sensim__frame_release(&f);
}

static void test_white_balance_fixed_gains_scale_each_channel(void **state) {
  (void)state;
  sensim_frame f = cast_image(16, 8), g = cast_image(16, 8);
  run_ok(&sensim__filter_white_balance, "{\"mode\": \"fixed\", \"gains\": [2.0, 1.0, 0.5]}", &f);
  const float *a = f.data, *b = g.data;
  const double gains[3] = {2.0, 1.0, 0.5};
  for (size_t i = 0; i < 3 * f.count; i++) assert_true(a[i] == (float)(gains[i % 3] * b[i]));
  sensim__frame_release(&f);
  sensim__frame_release(&g);
}

static void test_white_balance_reference_mode_hits_reference_means(void **state) {
  (void)state;
  sensim_frame f = cast_image(40, 30);
  run_ok(&sensim__filter_white_balance, "{\"mode\": \"reference\", \"reference_mean\": [0.41, 0.38, 0.33]}", &f);
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
  expect_refused(b, "{\"mode\": \"retinex\"}", SENSIM_EINVAL, "retinex");
  expect_refused(b, "{\"mode\": \"gray_world\", \"gains\": [1, 1, 1]}", SENSIM_EINVAL, "gains");
  expect_refused(b, "{\"mode\": \"reference\"}", SENSIM_EINVAL, "reference_mean");
  expect_refused(b, "{\"mode\": \"reference\", \"reference_mean\": [0.4, 0, 0.3]}", SENSIM_EINVAL,
                 "reference_mean");
  expect_refused(b, "{\"mode\": \"fixed\", \"gains\": [1, -1, 1]}", SENSIM_EINVAL, "gains");
  expect_refused(b, "{\"mode\": \"fixed\", \"gains\": [1, 1]}", SENSIM_EINVAL, "gains");
  expect_refused(b, "{\"mode\": 1}", SENSIM_EINVAL, "mode");
  expect_refused(b, "{\"gain\": [1, 1, 1]}", SENSIM_EINVAL, "gain");
}

static void test_ccm_identity_and_known_matrix(void **state) {
  (void)state;
  sensim_frame f = cast_image(12, 10), g = cast_image(12, 10);
  run_ok(&sensim__filter_ccm, "{\"matrix\": [1, 0, 0, 0, 1, 0, 0, 0, 1]}", &f);
  assert_memory_equal(f.data, g.data, 3 * f.count * sizeof(float));
  run_ok(&sensim__filter_ccm, NULL, &f); /* default: identity */
  assert_memory_equal(f.data, g.data, 3 * f.count * sizeof(float));
  /* A typical camera-to-sRGB matrix (rows sum to 1, so grey stays grey). */
  const double M[9] = {1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5};
  run_ok(&sensim__filter_ccm, "{\"matrix\": [1.6, -0.4, -0.2, -0.3, 1.5, -0.2, 0.0, -0.5, 1.5]}", &f);
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
  expect_refused(&sensim__filter_ccm, "{\"matrix\": [1, 0, 0, 0, 1, 0, 0, 0]}", SENSIM_EINVAL, "9 numbers");
  expect_refused(&sensim__filter_ccm, "{\"matrix\": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}", SENSIM_EINVAL, "9 numbers");
  expect_refused(&sensim__filter_ccm, "{\"matrix\": 1}", SENSIM_EINVAL, "matrix");
  expect_refused(&sensim__filter_ccm, "{\"matrix\": [1, 0, 0, 0, \"x\", 0, 0, 0, 1]}", SENSIM_EINVAL, "matrix[4]");
}

static void test_match_stats_hits_reference_mean_and_std(void **state) {
  (void)state;
  sensim_frame f = cast_image(50, 40);
  run_ok(&sensim__filter_match_stats,
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
  run_ok(&sensim__filter_match_stats, "{\"per_channel\": false, \"reference_mean\": 0.5, \"reference_std\": 0.05}",
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
  expect_refused(b, NULL, SENSIM_EINVAL, "reference_mean");
  expect_refused(b, "{\"reference_mean\": [0.4, 0.4, 0.4]}", SENSIM_EINVAL, "reference_std");
  expect_refused(b, "{\"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": [0.1, -0.1, 0.1]}", SENSIM_EINVAL,
                 "reference_std");
  expect_refused(b, "{\"per_channel\": 1, \"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": [0.1, 0.1, 0.1]}",
                 SENSIM_EINVAL, "per_channel");
  expect_refused(b, "{\"per_channel\": false, \"reference_mean\": [0.4, 0.4, 0.4], \"reference_std\": 0.1}",
                 SENSIM_EINVAL, "reference_mean");
  expect_refused(b, "{\"reference_mean\": 0.4, \"reference_std\": 0.1}", SENSIM_EINVAL, "reference_mean");
}

/* ---- auto exposure ------------------------------------------------------ */

/* A stand-in for "image_sensor" + "adc": signal = clip(albedo x radiance
 * scale x time x gain), where the exposure in effect comes from the chain's
 * shared state (set from `start` on the first frame, as image_sensor does
 * from its parameters). */
typedef struct stub_sensor {
  sensim_exposure start;
  double scale; /* full-scale fraction per (s x gain) */
} stub_sensor;

static sensim_status stub_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  const stub_sensor *s = user;
  sensim_exposure e;
  int valid = 0;
  sensim_filter_exposure_get(ctx, &e, &valid);
  if (!valid) {
    e = s->start;
    sensim_filter_exposure_set(ctx, e);
  }
  float *d = f->data;
  for (size_t i = 0; i < 3 * f->count; i++) d[i] = fminf(1.0f, (float)(d[i] * s->scale * e.time * e.gain));
  f->exposure_time = e.time;
  f->gain = e.gain;
  f->unit = SENSIM_UNIT_SIGNAL;
  return SENSIM_OK;
}

static const sensim_filter_def kStubDef = {"stub_sensor", SENSIM_PAYLOAD_RGB_F32, SENSIM_PAYLOAD_RGB_F32, NULL,
                                           stub_apply, NULL};

typedef struct ae_run {
  double time[64], gain[64], luma[64];
} ae_run;

/* Run `n` frames of a static scene (albedo texture in [0.1, 0.9]) through
 * stub_sensor -> auto_exposure; record each frame's exposure and luma. */
static void run_ae(const char *json, stub_sensor stub, int n, ae_run *out) {
  assert_true(n <= 64);
  sensim_chain chain;
  sensim__chain_init(&chain, SENSIM_PAYLOAD_RGB_F32);
  SENSIM_OK_OR_FAIL(sensim__chain_append(&chain, &kStubDef, &stub));
  void *u = make_filter(&sensim__filter_auto_exposure, json);
  SENSIM_OK_OR_FAIL(sensim__chain_append(&chain, &sensim__filter_auto_exposure.def, u));
  for (int k = 0; k < n; k++) {
    sensim_frame f = new_frame(SENSIM_PAYLOAD_RGB_F32, 20, 15);
    f.index = (uint64_t)k;
    float *d = f.data;
    for (size_t i = 0; i < 3 * f.count; i++) d[i] = (float)(0.5 + 0.4 * sin(0.7 * (double)i));
    SENSIM_OK_OR_FAIL(sensim__chain_run(&chain, &f, SEED, 0));
    out->time[k] = f.exposure_time;
    out->gain[k] = f.gain;
    double s = 0;
    for (size_t i = 0; i < f.count; i++) s += 0.2126 * d[3 * i] + 0.7152 * d[3 * i + 1] + 0.0722 * d[3 * i + 2];
    out->luma[k] = s / (double)f.count;
    sensim__frame_release(&f);
  }
  sensim__chain_free(&chain);
}

/* Below saturation the signal is proportional to exposure, so the log error
 * shrinks by (1 - speed) every `delay` frames: from a factor 10 (ln 10 =
 * 2.3) with speed 0.5 and delay 2, 40 frames leave 2.3 x 0.5^20 = 2e-6 in
 * log luminance; 1e-4 relative is a wide margin that a wrong sign or
 * exponent in the update would still miss by orders of magnitude (the lag
 * has its own test). */
static void test_auto_exposure_converges_to_target_on_static_scene(void **state) {
  (void)state;
  ae_run r;
  /* Mean albedo luma 0.5: start at 0.04 (time 2 ms, scale 40). */
  stub_sensor stub = {{0.002, 1.0}, 40.0};
  run_ae("{\"target\": 0.4, \"speed\": 0.5, \"delay\": 2}", stub, 40, &r);
  assert_near(r.luma[0], 0.04, 0.004);
  assert_near(r.luma[39], 0.4, 1e-4 * 0.4);
  /* Monotone approach (no overshoot). */
  for (int k = 1; k < 40; k++) assert_true(r.luma[k] >= r.luma[k - 1] - 1e-9 && r.luma[k] <= 0.4 * (1 + 1e-6));
  /* Too bright a start converges from above just as well. */
  stub.start.time = 0.2; /* 10 x too bright: nearly every pixel clipped at 1 */
  run_ae("{\"target\": 0.3, \"speed\": 0.8, \"delay\": 1}", stub, 40, &r);
  assert_near(r.luma[39], 0.3, 1e-4 * 0.3);
}

static void test_auto_exposure_lags_by_configured_delay(void **state) {
  (void)state;
  for (int delay = 1; delay <= 4; delay++) {
    char json[96];
    snprintf(json, sizeof json, "{\"delay\": %d, \"speed\": 1}", delay);
    ae_run r;
    stub_sensor stub = {{0.002, 1.0}, 40.0};
    run_ae(json, stub, 3 * delay + 2, &r);
    /* The first measurement is frame 0; its request lands at frame delay. */
    for (int k = 0; k < delay; k++) assert_true(r.time[k] == 0.002 && r.gain[k] == 1.0);
    if (!(r.time[delay] != 0.002)) fail_msg("delay %d: frame %d still at the first exposure", delay, delay);
    /* Speed 1 on a linear scene: the first corrected frame is on target. */
    assert_near(r.luma[delay], 0.4, 1e-5);
  }
}

/* Exposure time rises first; gain only once time is at max_time, and both
 * stop at their limits on a scene too dark to reach the target. */
static void test_auto_exposure_raises_time_before_gain_within_limits(void **state) {
  (void)state;
  ae_run r;
  stub_sensor stub = {{0.001, 1.0}, 0.5}; /* luma 0.00025 */
  run_ae("{\"speed\": 1, \"delay\": 1, \"max_time\": 0.02, \"max_gain\": 8}", stub, 12, &r);
  for (int k = 0; k < 12; k++) {
    if (r.gain[k] > 1.0) assert_true(r.time[k] == 0.02);
    assert_true(r.time[k] <= 0.02 && r.gain[k] <= 8.0);
  }
  assert_true(r.time[11] == 0.02 && r.gain[11] == 8.0);
  /* Too bright: time stops at min_time with unit gain. */
  stub.scale = 1e7;
  run_ae("{\"speed\": 1, \"delay\": 1, \"min_time\": 1e-4}", stub, 6, &r);
  assert_true(r.time[5] == 1e-4 && r.gain[5] == 1.0);
}

static void test_auto_exposure_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_auto_exposure;
  expect_refused(b, "{\"delay\": 0}", SENSIM_EINVAL, "delay");
  expect_refused(b, "{\"delay\": 1.5}", SENSIM_EINVAL, "delay");
  expect_refused(b, "{\"delay\": 17}", SENSIM_EINVAL, "delay");
  expect_refused(b, "{\"speed\": 0}", SENSIM_EINVAL, "speed");
  expect_refused(b, "{\"speed\": 1.5}", SENSIM_EINVAL, "speed");
  expect_refused(b, "{\"target\": 1}", SENSIM_EINVAL, "target");
  expect_refused(b, "{\"target\": \"0.4\"}", SENSIM_EINVAL, "target");
  expect_refused(b, "{\"max_gain\": 0.5}", SENSIM_EINVAL, "max_gain");
  expect_refused(b, "{\"min_time\": 0.1, \"max_time\": 0.01}", SENSIM_EINVAL, "min_time");
  expect_refused(b, "{\"setpoint\": 0.4}", SENSIM_EINVAL, "setpoint");
  /* Payloads it does not take are refused when appended. */
  void *u = make_filter(b, NULL);
  assert_int_equal(b->def.init(u, SENSIM_PAYLOAD_RGBA8), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(b->def.init(u, SENSIM_PAYLOAD_RAW_F32));
  /* No image_sensor before it: no exposure on the frame. */
  memset(&g_exposure, 0, sizeof g_exposure);
  sensim_frame f = new_frame(SENSIM_PAYLOAD_GRAY_F32, 4, 4);
  f.unit = SENSIM_UNIT_SIGNAL;
  assert_int_equal(apply_filter(b, u, &f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "image_sensor"));
  /* Radiance instead of signal. */
  f.exposure_time = 0.01;
  f.gain = 1.0;
  f.unit = SENSIM_UNIT_RADIANCE;
  assert_int_equal(apply_filter(b, u, &f), SENSIM_ETYPE);
  assert_int_equal(g_exposure.npending, 0);
  /* Usable afterwards: one request for frame 0 + delay 2. */
  f.unit = SENSIM_UNIT_SIGNAL;
  SENSIM_OK_OR_FAIL(apply_filter(b, u, &f));
  assert_int_equal(g_exposure.npending, 1);
  assert_true(g_exposure.pending[0].from == 2);
  memset(&g_exposure, 0, sizeof g_exposure);
  sensim__frame_release(&f);
  drop_filter(b, u);
}

/* A camera facing a lit grey wall, in a world run with threads 0. */
static sensim_world *wall_world(sensim_sensor **cam) {
  sensim_world_params wp;
  sensim_world_params_init(&wp);
  wp.threads = 0;
  wp.seed = SEED;
  wp.background[0] = wp.background[1] = wp.background[2] = 0.0f;
  wp.ambient = 0.0f;
  sensim_world *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_create(&wp, &w));
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {100, 100, 0}, 0};
  sensim_mesh *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &m));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){4, 0, 0}; /* normal +Z turned to face the camera (-X) */
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){1, 0, 0};
  l.cast_shadows = 0;
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 10;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 32;
  cp.height = 24;
  cp.samples = 1;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, cam));
  return w;
}

/* The real path: camera -> "image_sensor" -> "adc" -> "auto_exposure". The
 * ADC rounds each pixel to 1 LSB = 1 / 4095 of full scale (12 bits), so the
 * measured mean is off from the linear signal by at most 0.5 LSB, and the
 * controller settles where the true signal is within that of the target:
 * the mean ends within 1 LSB, plus 0.5 LSB for the residual of a
 * convergence by (1 - 0.6) every 3 frames over 60 frames (0.4^20 x ln 17,
 * negligible). */
static void test_auto_exposure_real_camera_path_converges_and_lags(void **state) {
  (void)state;
  if (!sensim__filter_find("image_sensor") || !sensim__filter_find("adc")) skip();
  sensim_sensor *cam = NULL;
  sensim_world *w = wall_world(&cam);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "image_sensor", "{\"exposure_time\": 0.001}"));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "adc", "{\"bits\": 12}"));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "auto_exposure", "{\"delay\": 3, \"speed\": 0.6, \"target\": 0.4}"));
  double first = 0, luma = 0;
  for (int k = 0; k < 60; k++) {
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1 * k));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_int_equal(f->index, (uint64_t)k);
    if (k == 0) first = f->exposure_time;
    if (k < 3) assert_true(f->exposure_time == first);
    if (k == 3 && !(f->exposure_time != first)) fail_msg("frame 3 still has the first exposure %g s", first);
    const float *d = f->data;
    double s = 0;
    for (size_t i = 0; i < f->count; i++) s += 0.2126 * d[3 * i] + 0.7152 * d[3 * i + 1] + 0.0722 * d[3 * i + 2];
    luma = s / (double)f->count;
    if (k == 0) assert_true(luma < 0.2); /* starts well off the target */
  }
  assert_near(luma, 0.4, 1.5 / 4095.0);
  sensim_world_destroy(w);
}

/* Every stage of the ISP in one real chain, in the documented order. */
static void test_isp_full_chain_delivers_rgba8_frames(void **state) {
  (void)state;
  if (!sensim__filter_find("image_sensor") || !sensim__filter_find("adc") || !sensim__filter_find("cfa")) skip();
  sensim_sensor *cam = NULL;
  sensim_world *w = wall_world(&cam);
  static const char *const chain[][2] = {
      {"cfa", "{\"pattern\": \"GRBG\"}"},
      {"image_sensor", "{\"exposure_time\": 0.005}"},
      {"adc", NULL},
      {"demosaic", "{\"method\": \"mhc\"}"},
      {"white_balance", "{\"mode\": \"gray_world\"}"},
      {"ccm", "{\"matrix\": [1.5, -0.3, -0.2, -0.2, 1.4, -0.2, 0, -0.4, 1.4]}"},
      {"auto_exposure", NULL},
      {"match_stats", "{\"per_channel\": false, \"reference_mean\": 0.3, \"reference_std\": 0.0}"},
      {"tone", "{\"curve\": \"srgb\"}"},
      {"downsample", "{\"factor\": 2}"},
      {"quantize", NULL},
  };
  for (size_t i = 0; i < sizeof chain / sizeof chain[0]; i++) {
    sensim_status rc = sensim_sensor_add_filter(cam, chain[i][0], chain[i][1]);
    if (rc) fail_msg("adding '%s': %s", chain[i][0], sensim_last_error());
  }
  for (int k = 0; k < 4; k++) {
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.1 * k));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
    assert_non_null(f);
    assert_int_equal(f->type, SENSIM_PAYLOAD_RGBA8);
    assert_true(f->width == 16 && f->height == 12);
    assert_true(f->exposure_time > 0 && f->cfa == SENSIM_CFA_NONE);
    /* A uniform grey wall matched to 0.3 with no contrast: sRGB(0.3) = 149.4 / 255. */
    const uint8_t *o = f->data;
    for (size_t i = 0; i < f->count; i++)
      for (int c = 0; c < 3; c++) assert_true(abs((int)o[4 * i + c] - 149) <= 1);
  }
  sensim_world_destroy(w);
}

/* The chain check of the real sensor path uses `accepts`. */
static void test_isp_filters_refuse_wrong_payload_in_sensor_chain(void **state) {
  (void)state;
  sensim_world *w = test_world(0, SEED);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 8;
  cp.height = 6;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  assert_int_equal(sensim_sensor_add_filter(cam, "demosaic", NULL), SENSIM_ETYPE); /* rgb_f32, not raw */
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "white_balance", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "downsample", "{\"factor\": 2}"));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "srgb8", NULL));
  assert_int_equal(sensim_sensor_add_filter(cam, "tone", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_sensor_add_filter(cam, "auto_exposure", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_sensor_add_filter(cam, "downsample", NULL), SENSIM_ETYPE);
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  assert_non_null(f);
  assert_int_equal(f->type, SENSIM_PAYLOAD_RGBA8);
  assert_true(f->width == 4 && f->height == 3);
  assert_null(f->depth);
  assert_null(f->labels);
  sensim_world_destroy(w);
}

/* ---- tone ---------------------------------------------------------------- */

static const double kToneIn[] = {0.0, 0.001, 0.0031308, 0.01, 0.05, 0.18, 0.5, 0.9, 1.0};
#define NTONE (sizeof kToneIn / sizeof kToneIn[0])

/* Apply `json` to a gray_f32 SIGNAL frame of kToneIn (plus -0.5 and 2 to
 * check clamping), return the outputs. */
static void tone_values(const char *json, float out[NTONE + 2]) {
  sensim_frame f = new_frame(SENSIM_PAYLOAD_GRAY_F32, NTONE + 2, 1);
  f.unit = SENSIM_UNIT_SIGNAL;
  float *d = f.data;
  for (size_t i = 0; i < NTONE; i++) d[i] = (float)kToneIn[i];
  d[NTONE] = -0.5f;
  d[NTONE + 1] = 2.0f;
  run_ok(&sensim__filter_tone, json, &f);
  memcpy(out, f.data, sizeof(float) * (NTONE + 2));
  sensim__frame_release(&f);
}

static void test_tone_curves_match_closed_forms(void **state) {
  (void)state;
  float o[NTONE + 2];
  tone_values("{\"curve\": \"gamma\", \"gamma\": 2.5}", o);
  for (size_t i = 0; i < NTONE; i++) assert_near(o[i], pow((float)kToneIn[i], 1 / 2.5), 1e-6);
  assert_true(o[NTONE] == 0.0f && o[NTONE + 1] == 1.0f);
  tone_values(NULL, o); /* srgb */
  for (size_t i = 0; i < NTONE; i++) {
    double v = (float)kToneIn[i];
    double want = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
    assert_near(o[i], want, 1e-6);
  }
  assert_near(o[5], 0.46135, 1e-4); /* mid-grey 0.18 encodes to 117.6 / 255 */
  tone_values("{\"curve\": \"sigmoid\", \"slope\": 2, \"midpoint\": 0.25}", o);
  for (size_t i = 0; i < NTONE; i++) {
    double v = (float)kToneIn[i];
    double s = 1 / (1 + exp(-2 * (log(v) - log(0.25)))), s1 = 1 / (1 + exp(-2 * (0 - log(0.25))));
    assert_near(o[i], v > 0 ? s / s1 : 0.0, 1e-6);
  }
  assert_true(o[NTONE] == 0.0f && o[NTONE + 1] == 1.0f);
  /* Table: y = [0, 0.5, 0.6, 1] at x = 0, 1/3, 2/3, 1. */
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RGB_F32, 2, 1);
  f.unit = SENSIM_UNIT_SIGNAL;
  const float xin[6] = {0.0f, 1.0f / 6, 1.0f / 3, 0.5f, 5.0f / 6, 1.0f};
  const double yout[6] = {0.0, 0.25, 0.5, 0.55, 0.8, 1.0};
  memcpy(f.data, xin, sizeof xin);
  run_ok(&sensim__filter_tone, "{\"curve\": \"table\", \"table\": [0, 0.5, 0.6, 1]}", &f);
  for (int i = 0; i < 6; i++) assert_near(((const float *)f.data)[i], yout[i], 1e-6);
  sensim__frame_release(&f);
}

static void test_tone_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_tone;
  expect_refused(b, "{\"curve\": \"table\", \"table\": [0, 0.3, 0.2, 1]}", SENSIM_EINVAL,
                 "CRF table is not monotonic: table[2]");
  expect_refused(b, "{\"curve\": \"table\", \"table\": [0.5]}", SENSIM_EINVAL, "at least 2");
  expect_refused(b, "{\"curve\": \"table\"}", SENSIM_EINVAL, "table");
  expect_refused(b, "{\"curve\": \"table\", \"table\": [0, null]}", SENSIM_EINVAL, "table[1]");
  expect_refused(b, "{\"curve\": \"filmic\"}", SENSIM_EINVAL, "filmic");
  expect_refused(b, "{\"curve\": \"gamma\", \"gamma\": 0}", SENSIM_EINVAL, "gamma");
  expect_refused(b, "{\"curve\": \"srgb\", \"gamma\": 2}", SENSIM_EINVAL, "gamma");
  expect_refused(b, "{\"curve\": \"sigmoid\", \"midpoint\": -1}", SENSIM_EINVAL, "midpoint");
  void *u = make_filter(b, NULL);
  assert_int_equal(b->def.init(u, SENSIM_PAYLOAD_RAW_F32), SENSIM_ETYPE);
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RGB_F32, 2, 2);
  ((float *)f.data)[0] = 0.5f;
  assert_int_equal(apply_filter(b, u, &f), SENSIM_ETYPE); /* radiance, not signal */
  assert_true(((float *)f.data)[0] == 0.5f);
  f.unit = SENSIM_UNIT_SIGNAL;
  SENSIM_OK_OR_FAIL(apply_filter(b, u, &f));
  sensim__frame_release(&f);
  drop_filter(b, u);
}

/* ---- quantize, grayscale, downsample ------------------------------------ */

static void test_quantize_rounds_to_nearest_and_clamps(void **state) {
  (void)state;
  /* Codes q: q / 255 +- just under half a step. */
  const float v[8] = {0.0f, 0.49f / 255, 0.51f / 255, 100.49f / 255, 100.51f / 255, 1.0f, 1.5f, -0.2f};
  const uint8_t want8[8] = {0, 0, 1, 100, 101, 255, 255, 0};
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RGB_F32, 8, 1);
  for (int i = 0; i < 8; i++) ((float *)f.data)[3 * i] = ((float *)f.data)[3 * i + 1] = ((float *)f.data)[3 * i + 2] = v[i];
  ((float *)f.data)[3 * 5 + 1] = NAN;
  run_ok(&sensim__filter_quantize, NULL, &f);
  assert_int_equal(f.type, SENSIM_PAYLOAD_RGBA8);
  const uint8_t *o = f.data;
  for (int i = 0; i < 8; i++) {
    assert_int_equal(o[4 * i], want8[i]);
    if (i != 5) assert_int_equal(o[4 * i + 1], want8[i]);
    assert_int_equal(o[4 * i + 2], want8[i]);
    assert_int_equal(o[4 * i + 3], 255);
  }
  assert_int_equal(o[4 * 5 + 1], 0); /* NaN */
  sensim__frame_release(&f);

  const float w[5] = {0.49f / 65535, 0.51f / 65535, 30000.49f / 65535, 1.0f, 2.0f};
  const uint16_t want16[5] = {0, 1, 30000, 65535, 65535};
  sensim_frame g = new_frame(SENSIM_PAYLOAD_GRAY_F32, 5, 1), h = new_frame(SENSIM_PAYLOAD_RGB_F32, 5, 1),
               k = new_frame(SENSIM_PAYLOAD_GRAY_F32, 2, 1);
  for (int i = 0; i < 5; i++) {
    ((float *)g.data)[i] = w[i];
    for (int c = 0; c < 3; c++) ((float *)h.data)[3 * i + c] = w[i];
  }
  ((float *)k.data)[0] = 0.5f; /* 127.5: half up */
  ((float *)k.data)[1] = 0.2f;
  run_ok(&sensim__filter_quantize_gray16, "{\"bits\": 16}", &g);
  run_ok(&sensim__filter_quantize16, NULL, &h);
  run_ok(&sensim__filter_quantize_gray, NULL, &k);
  assert_int_equal(g.type, SENSIM_PAYLOAD_GRAY16);
  assert_int_equal(h.type, SENSIM_PAYLOAD_RGB16);
  assert_int_equal(k.type, SENSIM_PAYLOAD_GRAY8);
  for (int i = 0; i < 5; i++) {
    assert_int_equal(((uint16_t *)g.data)[i], want16[i]);
    for (int c = 0; c < 3; c++) assert_int_equal(((uint16_t *)h.data)[3 * i + c], want16[i]);
  }
  assert_int_equal(((uint8_t *)k.data)[0], 128);
  assert_int_equal(((uint8_t *)k.data)[1], 51);
  sensim__frame_release(&g);
  sensim__frame_release(&h);
  sensim__frame_release(&k);

  expect_refused(&sensim__filter_quantize, "{\"bits\": 16}", SENSIM_EINVAL, "quantize16");
  expect_refused(&sensim__filter_quantize_gray, "{\"bits\": 16}", SENSIM_EINVAL, "quantize_gray16");
  expect_refused(&sensim__filter_quantize16, "{\"bits\": 8}", SENSIM_EINVAL, "'quantize'");
  expect_refused(&sensim__filter_quantize, "{\"bits\": 12}", SENSIM_EINVAL, "12");
  expect_refused(&sensim__filter_quantize, "{\"depth\": 8}", SENSIM_EINVAL, "depth");
}

static void test_grayscale_uses_rec709_luma_weights(void **state) {
  (void)state;
  sensim_frame f = new_frame(SENSIM_PAYLOAD_RGB_F32, 4, 1);
  const float px[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.25f, 0.125f};
  memcpy(f.data, px, sizeof px);
  f.unit = SENSIM_UNIT_SIGNAL;
  run_ok(&sensim__filter_grayscale, NULL, &f);
  assert_int_equal(f.type, SENSIM_PAYLOAD_GRAY_F32);
  assert_int_equal(f.unit, SENSIM_UNIT_SIGNAL);
  const float *y = f.data;
  assert_near(y[0], 0.2126, 1e-7);
  assert_near(y[1], 0.7152, 1e-7);
  assert_near(y[2], 0.0722, 1e-7);
  assert_near(y[3], 0.2126 * 0.5 + 0.7152 * 0.25 + 0.0722 * 0.125, 1e-7);
  sensim__frame_release(&f);
  expect_refused(&sensim__filter_grayscale, "{\"weights\": [1, 1, 1]}", SENSIM_EINVAL, "weights");
}

static void test_downsample_averages_blocks_and_drops_remainder(void **state) {
  (void)state;
  /* 7 x 5 gray, value = 10 y + x; factor 2 -> 3 x 2 (column 6, row 4 dropped).
   * The mean of block (bx, by) is 10 (2 by + 0.5) + 2 bx + 0.5. */
  sensim_frame f = new_frame(SENSIM_PAYLOAD_GRAY_F32, 7, 5);
  for (uint32_t y = 0; y < 5; y++)
    for (uint32_t x = 0; x < 7; x++) ((float *)f.data)[y * 7 + x] = (float)(10 * y + x);
  f.depth = calloc(35, sizeof *f.depth);
  f.labels = calloc(35, sizeof *f.labels);
  f.normals = calloc(3 * 35, sizeof *f.normals);
  run_ok(&sensim__filter_downsample, "{\"factor\": 2}", &f);
  assert_int_equal(f.type, SENSIM_PAYLOAD_GRAY_F32);
  assert_true(f.width == 3 && f.height == 2 && f.count == 6);
  assert_null(f.depth);
  assert_null(f.labels);
  assert_null(f.normals);
  for (uint32_t by = 0; by < 2; by++)
    for (uint32_t bx = 0; bx < 3; bx++)
      assert_near(((float *)f.data)[by * 3 + bx], 10 * (2 * by + 0.5) + 2 * bx + 0.5, 1e-6);
  sensim__frame_release(&f);
  /* rgb, factor 3: a 3 x 3 checker of 0 / 1 per channel averages to 4/9, 5/9. */
  sensim_frame g = new_frame(SENSIM_PAYLOAD_RGB_F32, 3, 3);
  for (uint32_t i = 0; i < 9; i++) {
    ((float *)g.data)[3 * i] = (float)(i % 2);
    ((float *)g.data)[3 * i + 1] = (float)((i + 1) % 2);
    ((float *)g.data)[3 * i + 2] = 0.25f;
  }
  run_ok(&sensim__filter_downsample, "{\"factor\": 3}", &g);
  assert_true(g.width == 1 && g.height == 1);
  assert_near(((float *)g.data)[0], 4.0 / 9, 1e-7);
  assert_near(((float *)g.data)[1], 5.0 / 9, 1e-7);
  assert_near(((float *)g.data)[2], 0.25, 1e-7);
  sensim__frame_release(&g);
}

static void test_downsample_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_downsample;
  expect_refused(b, "{\"factor\": 1}", SENSIM_EINVAL, "factor");
  expect_refused(b, "{\"factor\": 2.5}", SENSIM_EINVAL, "factor");
  expect_refused(b, "{\"factor\": 0}", SENSIM_EINVAL, "factor");
  expect_refused(b, "{\"factor\": \"2\"}", SENSIM_EINVAL, "factor");
  void *u = make_filter(b, "{\"factor\": 4}");
  assert_int_equal(b->def.init(u, SENSIM_PAYLOAD_RAW_F32), SENSIM_ETYPE);
  sensim_frame f = new_frame(SENSIM_PAYLOAD_GRAY_F32, 8, 3);
  void *data = f.data;
  assert_int_equal(apply_filter(b, u, &f), SENSIM_EINVAL); /* 3 rows < factor 4 */
  assert_true(f.data == data && f.width == 8 && f.height == 3);
  sensim__frame_release(&f);
  drop_filter(b, u);
}

int sensim_test_isp(void) {
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
      cmocka_unit_test(test_auto_exposure_converges_to_target_on_static_scene),
      cmocka_unit_test(test_auto_exposure_lags_by_configured_delay),
      cmocka_unit_test(test_auto_exposure_raises_time_before_gain_within_limits),
      cmocka_unit_test(test_auto_exposure_rejects_bad_input),
      cmocka_unit_test(test_auto_exposure_real_camera_path_converges_and_lags),
      cmocka_unit_test(test_isp_filters_refuse_wrong_payload_in_sensor_chain),
      cmocka_unit_test(test_isp_full_chain_delivers_rgba8_frames),
      cmocka_unit_test(test_tone_curves_match_closed_forms),
      cmocka_unit_test(test_tone_rejects_bad_input),
      cmocka_unit_test(test_quantize_rounds_to_nearest_and_clamps),
      cmocka_unit_test(test_grayscale_uses_rec709_luma_weights),
      cmocka_unit_test(test_downsample_averages_blocks_and_drops_remainder),
      cmocka_unit_test(test_downsample_rejects_bad_input),
  };
  return cmocka_run_group_tests_name("isp", tests, NULL, NULL);
}
