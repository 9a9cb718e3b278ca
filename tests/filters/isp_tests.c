/* tests/filters/isp_tests.c: the ISP's "auto_exposure" (through a real
 * filter chain, so exposure requests go through the chain's own queue, and
 * through a real camera), the full chain, "tone", "quantize" and its 16-bit
 * and grey siblings, "grayscale" and "downsample". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "support/filter_harness.h"
#include "filters/builtin.h"

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
  void *u = fh_make(&sensim__filter_auto_exposure, json);
  SENSIM_OK_OR_FAIL(sensim__chain_append(&chain, &sensim__filter_auto_exposure.def, u));
  for (int k = 0; k < n; k++) {
    sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 20, 15);
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
  fh_expect_refused(b, "{\"delay\": 0}", SENSIM_EINVAL, "delay");
  fh_expect_refused(b, "{\"delay\": 1.5}", SENSIM_EINVAL, "delay");
  fh_expect_refused(b, "{\"delay\": 17}", SENSIM_EINVAL, "delay");
  fh_expect_refused(b, "{\"speed\": 0}", SENSIM_EINVAL, "speed");
  fh_expect_refused(b, "{\"speed\": 1.5}", SENSIM_EINVAL, "speed");
  fh_expect_refused(b, "{\"target\": 1}", SENSIM_EINVAL, "target");
  fh_expect_refused(b, "{\"target\": \"0.4\"}", SENSIM_EINVAL, "target");
  fh_expect_refused(b, "{\"max_gain\": 0.5}", SENSIM_EINVAL, "max_gain");
  fh_expect_refused(b, "{\"min_time\": 0.1, \"max_time\": 0.01}", SENSIM_EINVAL, "min_time");
  fh_expect_refused(b, "{\"setpoint\": 0.4}", SENSIM_EINVAL, "setpoint");
  /* Payloads it does not take are refused when appended. */
  void *u = fh_make(b, NULL);
  assert_int_equal(b->def.init(u, SENSIM_PAYLOAD_RGBA8), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(b->def.init(u, SENSIM_PAYLOAD_RAW_F32));
  /* No image_sensor before it: no exposure on the frame. */
  memset(&(*fh_exposure()), 0, sizeof (*fh_exposure()));
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_GRAY_F32, 4, 4);
  f.unit = SENSIM_UNIT_SIGNAL;
  assert_int_equal(fh_apply(b, u, &f), SENSIM_ETYPE);
  assert_non_null(strstr(sensim_last_error(), "image_sensor"));
  /* Radiance instead of signal. */
  f.exposure_time = 0.01;
  f.gain = 1.0;
  f.unit = SENSIM_UNIT_RADIANCE;
  assert_int_equal(fh_apply(b, u, &f), SENSIM_ETYPE);
  assert_int_equal((*fh_exposure()).npending, 0);
  /* Usable afterwards: one request for frame 0 + delay 2. */
  f.unit = SENSIM_UNIT_SIGNAL;
  SENSIM_OK_OR_FAIL(fh_apply(b, u, &f));
  assert_int_equal((*fh_exposure()).npending, 1);
  assert_true((*fh_exposure()).pending[0].from == 2);
  memset(&(*fh_exposure()), 0, sizeof (*fh_exposure()));
  sensim__frame_release(&f);
  fh_drop(b, u);
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
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_GRAY_F32, NTONE + 2, 1);
  f.unit = SENSIM_UNIT_SIGNAL;
  float *d = f.data;
  for (size_t i = 0; i < NTONE; i++) d[i] = (float)kToneIn[i];
  d[NTONE] = -0.5f;
  d[NTONE + 1] = 2.0f;
  fh_run_ok(&sensim__filter_tone, json, &f);
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
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 2, 1);
  f.unit = SENSIM_UNIT_SIGNAL;
  const float xin[6] = {0.0f, 1.0f / 6, 1.0f / 3, 0.5f, 5.0f / 6, 1.0f};
  const double yout[6] = {0.0, 0.25, 0.5, 0.55, 0.8, 1.0};
  memcpy(f.data, xin, sizeof xin);
  fh_run_ok(&sensim__filter_tone, "{\"curve\": \"table\", \"table\": [0, 0.5, 0.6, 1]}", &f);
  for (int i = 0; i < 6; i++) assert_near(((const float *)f.data)[i], yout[i], 1e-6);
  sensim__frame_release(&f);
}

static void test_tone_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_tone;
  fh_expect_refused(b, "{\"curve\": \"table\", \"table\": [0, 0.3, 0.2, 1]}", SENSIM_EINVAL,
                 "CRF table is not monotonic: table[2]");
  fh_expect_refused(b, "{\"curve\": \"table\", \"table\": [0.5]}", SENSIM_EINVAL, "at least 2");
  fh_expect_refused(b, "{\"curve\": \"table\"}", SENSIM_EINVAL, "table");
  fh_expect_refused(b, "{\"curve\": \"table\", \"table\": [0, null]}", SENSIM_EINVAL, "table[1]");
  fh_expect_refused(b, "{\"curve\": \"filmic\"}", SENSIM_EINVAL, "filmic");
  fh_expect_refused(b, "{\"curve\": \"gamma\", \"gamma\": 0}", SENSIM_EINVAL, "gamma");
  fh_expect_refused(b, "{\"curve\": \"srgb\", \"gamma\": 2}", SENSIM_EINVAL, "gamma");
  fh_expect_refused(b, "{\"curve\": \"sigmoid\", \"midpoint\": -1}", SENSIM_EINVAL, "midpoint");
  void *u = fh_make(b, NULL);
  assert_int_equal(b->def.init(u, SENSIM_PAYLOAD_RAW_F32), SENSIM_ETYPE);
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 2, 2);
  ((float *)f.data)[0] = 0.5f;
  assert_int_equal(fh_apply(b, u, &f), SENSIM_ETYPE); /* radiance, not signal */
  assert_true(((float *)f.data)[0] == 0.5f);
  f.unit = SENSIM_UNIT_SIGNAL;
  SENSIM_OK_OR_FAIL(fh_apply(b, u, &f));
  sensim__frame_release(&f);
  fh_drop(b, u);
}

/* ---- quantize, grayscale, downsample ------------------------------------ */

static void test_quantize_rounds_to_nearest_and_clamps(void **state) {
  (void)state;
  /* Codes q: q / 255 +- just under half a step. */
  const float v[8] = {0.0f, 0.49f / 255, 0.51f / 255, 100.49f / 255, 100.51f / 255, 1.0f, 1.5f, -0.2f};
  const uint8_t want8[8] = {0, 0, 1, 100, 101, 255, 255, 0};
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 8, 1);
  for (int i = 0; i < 8; i++) ((float *)f.data)[3 * i] = ((float *)f.data)[3 * i + 1] = ((float *)f.data)[3 * i + 2] = v[i];
  ((float *)f.data)[3 * 5 + 1] = NAN;
  fh_run_ok(&sensim__filter_quantize, NULL, &f);
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
  sensim_frame g = fh_new_frame(SENSIM_PAYLOAD_GRAY_F32, 5, 1), h = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 5, 1),
               k = fh_new_frame(SENSIM_PAYLOAD_GRAY_F32, 2, 1);
  for (int i = 0; i < 5; i++) {
    ((float *)g.data)[i] = w[i];
    for (int c = 0; c < 3; c++) ((float *)h.data)[3 * i + c] = w[i];
  }
  ((float *)k.data)[0] = 0.5f; /* 127.5: half up */
  ((float *)k.data)[1] = 0.2f;
  fh_run_ok(&sensim__filter_quantize_gray16, "{\"bits\": 16}", &g);
  fh_run_ok(&sensim__filter_quantize16, NULL, &h);
  fh_run_ok(&sensim__filter_quantize_gray, NULL, &k);
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

  fh_expect_refused(&sensim__filter_quantize, "{\"bits\": 16}", SENSIM_EINVAL, "quantize16");
  fh_expect_refused(&sensim__filter_quantize_gray, "{\"bits\": 16}", SENSIM_EINVAL, "quantize_gray16");
  fh_expect_refused(&sensim__filter_quantize16, "{\"bits\": 8}", SENSIM_EINVAL, "'quantize'");
  fh_expect_refused(&sensim__filter_quantize, "{\"bits\": 12}", SENSIM_EINVAL, "12");
  fh_expect_refused(&sensim__filter_quantize, "{\"depth\": 8}", SENSIM_EINVAL, "depth");
}

static void test_grayscale_uses_rec709_luma_weights(void **state) {
  (void)state;
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 4, 1);
  const float px[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.25f, 0.125f};
  memcpy(f.data, px, sizeof px);
  f.unit = SENSIM_UNIT_SIGNAL;
  fh_run_ok(&sensim__filter_grayscale, NULL, &f);
  assert_int_equal(f.type, SENSIM_PAYLOAD_GRAY_F32);
  assert_int_equal(f.unit, SENSIM_UNIT_SIGNAL);
  const float *y = f.data;
  assert_near(y[0], 0.2126, 1e-7);
  assert_near(y[1], 0.7152, 1e-7);
  assert_near(y[2], 0.0722, 1e-7);
  assert_near(y[3], 0.2126 * 0.5 + 0.7152 * 0.25 + 0.0722 * 0.125, 1e-7);
  sensim__frame_release(&f);
  fh_expect_refused(&sensim__filter_grayscale, "{\"weights\": [1, 1, 1]}", SENSIM_EINVAL, "weights");
}

static void test_downsample_averages_blocks_and_drops_remainder(void **state) {
  (void)state;
  /* 7 x 5 gray, value = 10 y + x; factor 2 -> 3 x 2 (column 6, row 4 dropped).
   * The mean of block (bx, by) is 10 (2 by + 0.5) + 2 bx + 0.5. */
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_GRAY_F32, 7, 5);
  for (uint32_t y = 0; y < 5; y++)
    for (uint32_t x = 0; x < 7; x++) ((float *)f.data)[y * 7 + x] = (float)(10 * y + x);
  f.depth = calloc(35, sizeof *f.depth);
  f.labels = calloc(35, sizeof *f.labels);
  f.normals = calloc(3 * 35, sizeof *f.normals);
  fh_run_ok(&sensim__filter_downsample, "{\"factor\": 2}", &f);
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
  sensim_frame g = fh_new_frame(SENSIM_PAYLOAD_RGB_F32, 3, 3);
  for (uint32_t i = 0; i < 9; i++) {
    ((float *)g.data)[3 * i] = (float)(i % 2);
    ((float *)g.data)[3 * i + 1] = (float)((i + 1) % 2);
    ((float *)g.data)[3 * i + 2] = 0.25f;
  }
  fh_run_ok(&sensim__filter_downsample, "{\"factor\": 3}", &g);
  assert_true(g.width == 1 && g.height == 1);
  assert_near(((float *)g.data)[0], 4.0 / 9, 1e-7);
  assert_near(((float *)g.data)[1], 5.0 / 9, 1e-7);
  assert_near(((float *)g.data)[2], 0.25, 1e-7);
  sensim__frame_release(&g);
}

static void test_downsample_rejects_bad_input(void **state) {
  (void)state;
  const sensim_builtin_filter *b = &sensim__filter_downsample;
  fh_expect_refused(b, "{\"factor\": 1}", SENSIM_EINVAL, "factor");
  fh_expect_refused(b, "{\"factor\": 2.5}", SENSIM_EINVAL, "factor");
  fh_expect_refused(b, "{\"factor\": 0}", SENSIM_EINVAL, "factor");
  fh_expect_refused(b, "{\"factor\": \"2\"}", SENSIM_EINVAL, "factor");
  void *u = fh_make(b, "{\"factor\": 4}");
  assert_int_equal(b->def.init(u, SENSIM_PAYLOAD_RAW_F32), SENSIM_ETYPE);
  sensim_frame f = fh_new_frame(SENSIM_PAYLOAD_GRAY_F32, 8, 3);
  void *data = f.data;
  assert_int_equal(fh_apply(b, u, &f), SENSIM_EINVAL); /* 3 rows < factor 4 */
  assert_true(f.data == data && f.width == 8 && f.height == 3);
  sensim__frame_release(&f);
  fh_drop(b, u);
}

int sensim_test_isp(void) {
  const struct CMUnitTest tests[] = {
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
