/* tests/filters/standalone_chain_tests.c: filter chains outside a sensor
 * (sensim_filter_chain_*, filter.h) and caller-owned frames
 * (sensim_frame_release, frame.h): a standalone chain gives a frame what a
 * camera's own chain gives it, bit for bit; its random streams are keyed
 * as documented; set-up errors leave it unchanged; user filters live until
 * the chain is destroyed. */
#include <string.h>
#include "support/testutil.h"

/* A 16 x 12 camera (sensor id 0) with the given filter in a world of seed 7;
 * its first delivered frame is copied into *out (caller-owned). */
static void first_camera_frame(const char *filter, const char *params, sensim_frame *out) {
  sensim_world *w = test_world(0, 7);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = b;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 16;
  cp.height = 12;
  cp.samples = 1;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  if (filter) SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, filter, params));
  sensim_body_state s = test_state_xyzyaw(0, 0, 1, 0);
  const sensim_frame *f = NULL;
  for (int k = 0; k < 100 && !f; k++) {
    SENSIM_OK_OR_FAIL(sensim_body_push_state(b, 0.01 * k, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.01 * k));
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cam, &f));
  }
  assert_non_null(f);
  *out = *f;
  out->data = NULL;
  out->depth = NULL;
  out->labels = NULL;
  out->normals = NULL;
  out->trajectory = NULL;
  out->ntraj = 0;
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(out, f->type, f->width, f->height));
  memcpy(out->data, f->data, f->count * sensim_payload_elem_size(f->type));
  sensim_world_destroy(w);
}

static void test_standalone_chain_matches_a_cameras_chain_bit_for_bit(void **state) {
  (void)state;
  const char *params = "{\"sigma\": 0.05}";
  sensim_frame raw, noisy;
  first_camera_frame(NULL, NULL, &raw);
  first_camera_frame("image_noise", params, &noisy);
  assert_int_equal(raw.type, SENSIM_PAYLOAD_RGB_F32);
  size_t bytes = raw.count * sensim_payload_elem_size(raw.type);
  assert_true(memcmp(raw.data, noisy.data, bytes) != 0);

  sensim_filter_chain *c = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &c));
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(c, "image_noise", params));
  /* The world's seed and the camera's sensor id name the same streams. */
  SENSIM_OK_OR_FAIL(sensim_filter_chain_run(c, &raw, 7, 0));
  assert_int_equal(raw.type, noisy.type);
  assert_memory_equal(raw.data, noisy.data, bytes);
  sensim_filter_chain_destroy(c);
  sensim_frame_release(&raw);
  sensim_frame_release(&noisy);
  assert_null(raw.data);
  assert_int_equal(raw.count, 0);
}

static void test_standalone_chain_changes_payload_and_reports_output(void **state) {
  (void)state;
  sensim_filter_chain *c = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &c));
  assert_int_equal(sensim_filter_chain_output(c), SENSIM_PAYLOAD_RGB_F32);
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add(c, "cfa", "{\"pattern\": \"GRBG\"}"));
  assert_int_equal(sensim_filter_chain_output(c), SENSIM_PAYLOAD_RAW_F32);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGB_F32, 4, 2));
  f.unit = SENSIM_UNIT_SIGNAL;
  float *v = f.data;
  for (size_t i = 0; i < f.count; i++)
    for (int ch = 0; ch < 3; ch++) v[3 * i + ch] = (float)(10 * i + ch);
  SENSIM_OK_OR_FAIL(sensim_filter_chain_run(c, &f, 1, 0));
  assert_int_equal(f.type, SENSIM_PAYLOAD_RAW_F32);
  assert_int_equal(f.cfa, SENSIM_CFA_GRBG);
  /* GRBG: row 0 is G R G R, row 1 is B G B G. */
  static const int colour[8] = {1, 0, 1, 0, 2, 1, 2, 1};
  const float *r = f.data;
  for (size_t i = 0; i < 8; i++) assert_true(r[i] == (float)(10 * i + colour[i]));
  sensim_frame_release(&f);
  sensim_filter_chain_destroy(c);
}

static void test_standalone_chain_setup_errors_leave_it_unchanged(void **state) {
  (void)state;
  sensim_filter_chain *c = NULL;
  assert_int_equal(sensim_filter_chain_create(SENSIM_PAYLOAD_ANY, &c), SENSIM_EINVAL);
  assert_int_equal(sensim_filter_chain_create(SENSIM_PAYLOAD_NONE, &c), SENSIM_EINVAL);
  assert_null(c);
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_RGB_F32, &c));
  assert_int_equal(sensim_filter_chain_add(c, "no_such_filter", NULL), SENSIM_ENOTFOUND);
  assert_int_equal(sensim_filter_chain_add(c, "points", NULL), SENSIM_ETYPE);
  assert_int_equal(sensim_filter_chain_add(c, "cfa", "[1, 2]"), SENSIM_EPARSE);
  assert_int_equal(sensim_filter_chain_add(c, "cfa", "{\"pattern\": \"XYZW\"}"), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "cfa"));
  /* Near misses of a filter name or an enum value name the one meant. */
  assert_int_equal(sensim_filter_chain_add(c, "demosiac", NULL), SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "did you mean 'demosaic'?"));
  assert_int_equal(sensim_filter_chain_add(c, "cfa", "{\"pattern\": \"RGBG\"}"), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "did you mean 'RGGB'?"));
  assert_int_equal(sensim_filter_chain_add(NULL, "cfa", NULL), SENSIM_EINVAL);
  assert_int_equal(sensim_filter_chain_output(c), SENSIM_PAYLOAD_RGB_F32);
  assert_int_equal(sensim_filter_chain_output(NULL), SENSIM_PAYLOAD_NONE);

  /* Running checks the frame against the chain's input. */
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_GRAY8, 2, 2));
  assert_int_equal(sensim_filter_chain_run(c, &f, 0, 0), SENSIM_ETYPE);
  assert_int_equal(sensim_filter_chain_run(c, NULL, 0, 0), SENSIM_EINVAL);
  sensim_frame_release(&f);
  sensim_frame_release(NULL);
  sensim_filter_chain_destroy(c);
  sensim_filter_chain_destroy(NULL);
}

typedef struct probe {
  uint64_t seed;
  uint32_t sensor;
  int slot;
  uint32_t draw;
  int applied, destroyed;
} probe;

static sensim_status probe_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  (void)frame;
  probe *p = user;
  p->seed = ctx->seed;
  p->sensor = ctx->sensor_id;
  p->slot = ctx->slot;
  p->draw = sensim_rng_u32(&ctx->rng);
  p->applied++;
  return SENSIM_OK;
}

static void probe_destroy(void *user) { ((probe *)user)->destroyed++; }

static sensim_status refuse_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  (void)user, (void)frame, (void)ctx;
  return sensim_error_set(SENSIM_EINVAL, "refused");
}

static void test_standalone_chain_user_filter_streams_and_lifetime(void **state) {
  (void)state;
  probe p;
  memset(&p, 0, sizeof p);
  sensim_filter_def def = {"probe", SENSIM_PAYLOAD_GRAY8, SENSIM_PAYLOAD_ANY, NULL, probe_apply, probe_destroy};
  sensim_filter_chain *c = NULL;
  SENSIM_OK_OR_FAIL(sensim_filter_chain_create(SENSIM_PAYLOAD_GRAY8, &c));
  assert_int_equal(sensim_filter_chain_add(c, "grayscale", NULL), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add_user(c, &def, &p));
  sensim_filter_def wrong = def;
  wrong.in = SENSIM_PAYLOAD_POINTS;
  assert_int_equal(sensim_filter_chain_add_user(c, &wrong, &p), SENSIM_ETYPE);
  sensim_filter_def bad = {"refuse", SENSIM_PAYLOAD_ANY, SENSIM_PAYLOAD_ANY, NULL, refuse_apply, NULL};
  SENSIM_OK_OR_FAIL(sensim_filter_chain_add_user(c, &bad, NULL));

  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_GRAY8, 3, 3));
  f.index = 5;
  assert_int_equal(sensim_filter_chain_run(c, &f, 99, 4), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "refuse"));
  assert_int_equal(p.applied, 1);
  assert_int_equal(p.seed, 99);
  assert_int_equal(p.sensor, 4);
  assert_int_equal(p.slot, 0);
  sensim_rng r;
  sensim_rng_init(&r, 99, 4, 5, 0x80000000u);
  assert_int_equal(p.draw, sensim_rng_u32(&r));
  assert_int_equal(p.destroyed, 0);
  sensim_filter_chain_destroy(c);
  assert_int_equal(p.destroyed, 1);
  sensim_frame_release(&f);
}

int sensim_test_standalone_chain(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_standalone_chain_matches_a_cameras_chain_bit_for_bit),
      cmocka_unit_test(test_standalone_chain_changes_payload_and_reports_output),
      cmocka_unit_test(test_standalone_chain_setup_errors_leave_it_unchanged),
      cmocka_unit_test(test_standalone_chain_user_filter_streams_and_lifetime),
  };
  return cmocka_run_group_tests_name("standalone_chain", tests, NULL, NULL);
}
