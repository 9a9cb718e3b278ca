/* tests/filters/chain_tests.c: filter chains (src/filters/chain.c,
 * src/runtime/sensor.c add_filter paths) on a real lidar sensor: type
 * checks at set-up, bad names and parameters, user filters' lifetime and
 * errors, frame order with worker threads; and the built-in srgb8, points
 * and range_noise filters against closed forms on hand-made frames. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"
#include "core/internal.h"
#include "filters/chain.h"
#include "runtime/runtime_internal.h"
#include "sensim/lidar.h"

static const double PI = 3.14159265358979323846;

/* A small lidar (1 channel x `columns`) on the world origin. */
static sensim_sensor *small_lidar(sensim_world *w, double rate, double lag, int columns) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = rate;
  sp.lag = lag;
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 1;
  lp.elev_min = lp.elev_max = 0.0;
  lp.columns = columns;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s));
  return s;
}

static void expect_add_fails(sensim_sensor *s, const char *name, const char *json, sensim_status want) {
  size_t n0 = s->chain.n;
  sensim_payload out0 = sensim_sensor_output_type(s);
  sensim_status rc = sensim_sensor_add_filter(s, name, json);
  if (rc != want)
    fail_msg("add_filter('%s', %s) gave %d, expected %d (%s)", name ? name : "NULL", json ? json : "NULL", rc,
             want, sensim_last_error());
  assert_true(sensim_last_error()[0] != '\0');
  assert_int_equal(s->chain.n, n0);
  assert_int_equal(sensim_sensor_output_type(s), out0);
}

/* ---- set-up checks ------------------------------------------------------------ */

static void test_lidar_chain_accepts_beam_filters_and_refuses_image_filters(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor *s = small_lidar(w, 10.0, 0.0, 8);
  assert_int_equal(sensim_sensor_output_type(s), SENSIM_PAYLOAD_BEAMS);
  expect_add_fails(s, "srgb8", NULL, SENSIM_ETYPE);
  expect_add_fails(s, "image_noise", NULL, SENSIM_ETYPE);
  expect_add_fails(s, "imu_noise", NULL, SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "range_noise", "{\"sigma\": 0.01}"));
  assert_int_equal(sensim_sensor_output_type(s), SENSIM_PAYLOAD_BEAMS);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "points", NULL));
  assert_int_equal(sensim_sensor_output_type(s), SENSIM_PAYLOAD_POINTS);
  /* After "points" the chain gives points: beam filters no longer fit. */
  expect_add_fails(s, "points", NULL, SENSIM_ETYPE);
  expect_add_fails(s, "range_noise", NULL, SENSIM_ETYPE);
  assert_int_equal(s->chain.n, 2);
  /* Every registered name is found; the list is NULL-terminated. */
  const char *const *names = sensim_filter_names();
  size_t k = 0;
  for (; names[k]; k++) assert_non_null(sensim__filter_find(names[k]));
  assert_true(k >= 8);
  assert_null(sensim__filter_find("no_such_filter"));
  sensim_world_destroy(w);
}

static void test_add_filter_rejects_unknown_name_bad_json_and_bad_params(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor *s = small_lidar(w, 10.0, 0.0, 8);
  expect_add_fails(s, "no_such_filter", NULL, SENSIM_ENOTFOUND);
  expect_add_fails(s, "", NULL, SENSIM_ENOTFOUND);
  expect_add_fails(s, NULL, NULL, SENSIM_EINVAL);
  expect_add_fails(s, "range_noise", "{\"sigma\": 0.1", SENSIM_EPARSE);
  expect_add_fails(s, "range_noise", "sigma = 0.1", SENSIM_EPARSE);
  expect_add_fails(s, "range_noise", "[0.1]", SENSIM_EPARSE);
  expect_add_fails(s, "range_noise", "{\"sigmaa\": 0.1}", SENSIM_EINVAL);
  expect_add_fails(s, "range_noise", "{\"sigma\": 0.1, \"bias\": 2}", SENSIM_EINVAL);
  expect_add_fails(s, "range_noise", "{\"sigma\": \"big\"}", SENSIM_EINVAL);
  expect_add_fails(s, "range_noise", "{\"sigma\": -0.5}", SENSIM_EINVAL);
  expect_add_fails(s, "points", "{\"anything\": 1}", SENSIM_EINVAL);
  /* Near misses name the filter or parameter meant (core/suggest.c). */
  expect_add_fails(s, "range_nosie", NULL, SENSIM_ENOTFOUND);
  assert_non_null(strstr(sensim_last_error(), "unknown filter 'range_nosie'; did you mean 'range_noise'?"));
  expect_add_fails(s, "range_noise", "{\"sigmaa\": 0.1}", SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "no parameter 'sigmaa'; did you mean 'sigma'?"));
  expect_add_fails(s, "no_such_filter", NULL, SENSIM_ENOTFOUND);
  assert_null(strstr(sensim_last_error(), "did you mean"));
  /* Usable afterwards; an empty object means all defaults. */
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "range_noise", "{}"));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "points", NULL));
  assert_int_equal(s->chain.n, 2);
  sensim_world_destroy(w);
}

/* ---- user filters ------------------------------------------------------------------ */

typedef struct probe {
  atomic_int inits, applies, destroys;
  sensim_payload init_in;
  sensim_status init_rc;     /* what init returns */
  uint64_t fail_index;       /* apply fails on this frame index (UINT64_MAX: never) */
  sensim_status fail_rc;
  uint64_t seen[4096];       /* frame indices in call order */
  atomic_int nseen;
  int out_of_order;
} probe;

static void probe_init_struct(probe *p) {
  memset(p, 0, sizeof *p);
  p->fail_index = UINT64_MAX;
}

static sensim_status probe_init(void *user, sensim_payload in) {
  probe *p = user;
  atomic_fetch_add(&p->inits, 1);
  p->init_in = in;
  return p->init_rc;
}

static sensim_status probe_apply(void *user, sensim_frame *f, sensim_filter_ctx *ctx) {
  (void)ctx;
  probe *p = user;
  int n = atomic_load(&p->nseen);
  if (n > 0 && f->index != p->seen[n - 1] + 1) p->out_of_order = 1;
  if (n < 4096) p->seen[n] = f->index;
  atomic_store(&p->nseen, n + 1);
  atomic_fetch_add(&p->applies, 1);
  if (f->index == p->fail_index) return sensim__fail(p->fail_rc, "probe refuses frame %llu",
                                                     (unsigned long long)f->index);
  return SENSIM_OK;
}

static void probe_destroy(void *user) { atomic_fetch_add(&((probe *)user)->destroys, 1); }

static sensim_filter_def probe_def(sensim_payload in) {
  sensim_filter_def d = {"probe", in, SENSIM_PAYLOAD_ANY, probe_init, probe_apply, probe_destroy};
  return d;
}

/* A refused init fails the append, and destroy is never called for it; an
 * accepted filter is destroyed exactly once, with the world. */
static void test_user_filter_init_refusal_fails_without_destroy(void **state) {
  (void)state;
  probe *refused = malloc(sizeof *refused), *wrong = malloc(sizeof *wrong), *ok = malloc(sizeof *ok);
  probe_init_struct(refused);
  probe_init_struct(wrong);
  probe_init_struct(ok);
  refused->init_rc = SENSIM_EINVAL;
  sensim_world *w = test_world(0, 1);
  sensim_sensor *s = small_lidar(w, 10.0, 0.0, 8);
  sensim_filter_def d = probe_def(SENSIM_PAYLOAD_ANY);
  assert_int_equal(sensim_sensor_add_user_filter(s, &d, refused), SENSIM_EINVAL);
  assert_int_equal(atomic_load(&refused->inits), 1);
  assert_int_equal(s->chain.n, 0);
  /* Wrong input type: refused before init is asked. */
  sensim_filter_def dw = probe_def(SENSIM_PAYLOAD_RGB_F32);
  assert_int_equal(sensim_sensor_add_user_filter(s, &dw, wrong), SENSIM_ETYPE);
  assert_int_equal(atomic_load(&wrong->inits), 0);
  /* No apply callback, NULL def. */
  sensim_filter_def dn = probe_def(SENSIM_PAYLOAD_ANY);
  dn.apply = NULL;
  assert_int_equal(sensim_sensor_add_user_filter(s, &dn, ok), SENSIM_EINVAL);
  assert_int_equal(sensim_sensor_add_user_filter(s, NULL, ok), SENSIM_EINVAL);
  assert_int_equal(s->chain.n, 0);
  /* Accepted: init sees the payload the chain gives here. */
  SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(s, &d, ok));
  assert_int_equal(ok->init_in, SENSIM_PAYLOAD_BEAMS);
  assert_int_equal(sensim_sensor_output_type(s), SENSIM_PAYLOAD_BEAMS); /* ANY out keeps the type */
  sensim_world_destroy(w);
  assert_int_equal(atomic_load(&refused->destroys), 0);
  assert_int_equal(atomic_load(&wrong->destroys), 0);
  assert_int_equal(atomic_load(&ok->destroys), 1);
  free(refused);
  free(wrong);
  free(ok);
}

/* A filter error drops that frame, and the advance that reaches its
 * delivery time returns the filter's code; later frames still arrive.
 * Rate 8 Hz and lag 1/16 s keep every time exact in binary: frame k is
 * captured at k/8 and delivered at k/8 + 1/16. */
static void run_failing_filter(int threads) {
  probe *p = malloc(sizeof *p);
  probe_init_struct(p);
  p->fail_index = 2;
  p->fail_rc = SENSIM_EIO;
  sensim_world *w = test_world(threads, 1);
  sensim_sensor *s = small_lidar(w, 8.0, 1.0 / 16.0, 16);
  sensim_filter_def d = probe_def(SENSIM_PAYLOAD_ANY);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(s, &d, p));
  uint64_t got[16];
  int ngot = 0, nerr = 0;
  for (int j = 0; j <= 12; j++) { /* t = 0 .. 0.75 s */
    double t = j / 16.0;
    sensim_status rc = sensim_world_advance(w, t);
    if (j == 5) { /* 2/8 + 1/16: frame 2's delivery */
      if (rc != SENSIM_EIO) fail_msg("advance(%g) with %d threads gave %d, expected EIO", t, threads, rc);
      assert_non_null(strstr(sensim_last_error(), "probe refuses frame 2"));
      nerr++;
    } else if (rc != SENSIM_OK) {
      fail_msg("advance(%g) gave %d: %s", t, rc, sensim_last_error());
    }
    const sensim_frame *f = NULL;
    for (;;) {
      SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
      if (!f) break;
      assert_true(ngot < 16);
      assert_int_equal(f->type, SENSIM_PAYLOAD_BEAMS);
      assert_near(f->t_deliver, f->t_capture + 1.0 / 16.0, 1e-15);
      assert_true(f->t_deliver <= t);
      got[ngot++] = f->index;
    }
  }
  assert_int_equal(nerr, 1);
  /* Frames 0..5 delivered (5 at 5/8 + 1/16 = 0.6875 <= 0.75), 2 missing. */
  const uint64_t want[] = {0, 1, 3, 4, 5};
  assert_int_equal(ngot, 5);
  for (int i = 0; i < 5; i++) assert_int_equal(got[i], want[i]);
  assert_int_equal(sensim_sensor_frames_delivered(s), 5);
  sensim_world_destroy(w);
  assert_int_equal(atomic_load(&p->destroys), 1);
  free(p);
}

static void test_user_filter_error_drops_frame_and_is_reported_at_delivery(void **state) {
  (void)state;
  run_failing_filter(0);
  run_failing_filter(2);
}

/* Captures are generated in parallel, but one sensor's chain runs on one
 * frame at a time in frame order (filter.h), so a filter sees indices
 * 0, 1, 2, ... even with two workers. 1 kHz with advances every 50 ms
 * queues 50 captures at once. */
static void test_user_filter_sees_frames_in_order_with_two_threads(void **state) {
  (void)state;
  probe *p = malloc(sizeof *p);
  probe_init_struct(p);
  sensim_world *w = test_world(2, 9);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_shape box = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &box, NULL, &bp.mesh));
  bp.pose.pos.x = 5.0;
  bp.is_static = 1;
  sensim_body *b = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &b));
  sensim_sensor *s = small_lidar(w, 1000.0, 0.0, 256);
  sensim_filter_def d = probe_def(SENSIM_PAYLOAD_ANY);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_user_filter(s, &d, p));
  uint64_t next = 0;
  for (int j = 0; j <= 40; j++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, j * 0.05));
    const sensim_frame *f = NULL;
    for (;;) {
      SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
      if (!f) break;
      assert_int_equal(f->index, next);
      next++;
    }
  }
  uint64_t captured = sensim_sensor_frames_captured(s);
  assert_true(captured >= 2000);
  assert_int_equal(next, captured); /* lag 0: every capture delivered */
  assert_int_equal(atomic_load(&p->applies), (int)captured);
  assert_false(p->out_of_order);
  for (int i = 0; i < atomic_load(&p->nseen) && i < 4096; i++) assert_int_equal(p->seen[i], (uint64_t)i);
  sensim_world_destroy(w);
  free(p);
}

static void test_add_filter_after_first_capture_is_refused(void **state) {
  (void)state;
  probe *p = malloc(sizeof *p);
  probe_init_struct(p);
  sensim_world *w = test_world(0, 1);
  sensim_sensor *s = small_lidar(w, 10.0, 0.0, 8);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s, "range_noise", NULL));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0)); /* captures frame 0 */
  assert_int_equal(sensim_sensor_frames_captured(s), 1);
  expect_add_fails(s, "points", NULL, SENSIM_ESTATE);
  sensim_filter_def d = probe_def(SENSIM_PAYLOAD_ANY);
  assert_int_equal(sensim_sensor_add_user_filter(s, &d, p), SENSIM_ESTATE);
  assert_int_equal(atomic_load(&p->inits), 0);
  assert_int_equal(s->chain.n, 1);
  sensim_world_destroy(w);
  assert_int_equal(atomic_load(&p->destroys), 0);
  free(p);
}

/* ---- built-in filters on hand-made frames ------------------------------------------ */

static void *make_user(const char *name, const char *json) {
  const sensim_builtin_filter *b = sensim__filter_find(name);
  assert_non_null(b);
  cJSON *params = json ? cJSON_Parse(json) : NULL;
  void *user = NULL;
  SENSIM_OK_OR_FAIL(b->create(params, &user));
  cJSON_Delete(params);
  return user;
}

static void run_builtin(const char *name, void *user, sensim_frame *f) {
  const sensim_builtin_filter *b = sensim__filter_find(name);
  sensim_filter_ctx ctx;
  ctx.seed = 1;
  ctx.slot = 0;
  sensim_rng_init(&ctx.rng, 1, 0, f->index, 0x80000000u);
  SENSIM_OK_OR_FAIL(b->def.apply(user, f, &ctx));
  assert_int_equal(f->type, b->def.out);
}

static void free_user(const char *name, void *user) {
  const sensim_builtin_filter *b = sensim__filter_find(name);
  if (b->def.destroy) b->def.destroy(user);
}

/* IEC 61966-2-1 sRGB encoding, then 8 bits: 0 -> 0, 1 -> 255, the linear
 * segment's end 0.0031308 -> round(12.92 * 0.0031308 * 255) = 10, and
 * 0.5 -> round(255 (1.055 * 0.5^(1/2.4) - 0.055)) = round(187.5) = 188.
 * Out-of-range radiance clips; alpha is opaque. */
static void test_srgb8_encodes_known_values(void **state) {
  (void)state;
  const sensim_builtin_filter *b = sensim__filter_find("srgb8");
  assert_non_null(b);
  assert_int_equal(b->def.in, SENSIM_PAYLOAD_RGB_F32);
  assert_int_equal(b->def.out, SENSIM_PAYLOAD_RGBA8);
  const float lin[6] = {0.0f, 1.0f, 0.0031308f, 0.5f, 7.0f, -0.25f};
  const int want[6] = {0, 255, (int)lrint(12.92 * 0.0031308 * 255.0), 188, 255, 0};
  assert_int_equal(want[2], 10);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGB_F32, 3, 2));
  float *px = f.data;
  for (int i = 0; i < 6; i++) { /* pixel i: R = lin[i], G = lin[5 - i], B = 0.5 */
    px[3 * i] = lin[i];
    px[3 * i + 1] = lin[5 - i];
    px[3 * i + 2] = 0.5f;
  }
  void *user = make_user("srgb8", NULL);
  run_builtin("srgb8", user, &f);
  assert_int_equal(f.width, 3);
  assert_int_equal(f.height, 2);
  assert_int_equal(f.count, 6);
  const uint8_t *o = f.data;
  for (int i = 0; i < 6; i++) {
    assert_int_equal(o[4 * i], want[i]);
    assert_int_equal(o[4 * i + 1], want[5 - i]);
    assert_int_equal(o[4 * i + 2], 188);
    assert_int_equal(o[4 * i + 3], 255);
  }
  free_user("srgb8", user);
  sensim__frame_release(&f);
  /* Exposure scales before encoding: 0.25 x 2 = 0.5 -> 188. */
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_RGB_F32, 1, 1));
  px = f.data;
  px[0] = px[1] = px[2] = 0.25f;
  user = make_user("srgb8", "{\"exposure\": 2.0}");
  run_builtin("srgb8", user, &f);
  o = f.data;
  assert_int_equal(o[0], 188);
  free_user("srgb8", user);
  sensim__frame_release(&f);
}

/* Spherical to Cartesian in the sensor frame: (r cos el cos az,
 * r cos el sin az, r sin el); beams without a return are dropped; each
 * point keeps its beam's class and instance ids, its pad bytes zero. */
static void test_points_converts_beams_and_drops_misses(void **state) {
  (void)state;
  sensim_frame f;
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_BEAMS, 5, 1));
  sensim_beam *bm = f.data;
  bm[0] = (sensim_beam){2.0f, 0.5f, (float)(PI / 2), 0.0f, -0.01f, 3, 0, 9, 12, 7, 4000000000u};
  bm[1] = (sensim_beam){0.0f, 0.9f, 0.3f, 0.1f, -0.02f, 4, 0, 0, 0, 0, 0}; /* no return */
  bm[2] = (sensim_beam){1.0f, 0.25f, 0.0f, (float)(PI / 4), -0.03f, 5, 1, 0, 65535, 0, 1};
  bm[3] = (sensim_beam){3.0f, 1.0f, (float)PI, (float)(-PI / 6), 0.0f, 0, 0, 0, 0, 0, 77};
  bm[4] = (sensim_beam){0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0, 0, 0, 0, 0, 0}; /* no return */
  void *user = make_user("points", NULL);
  run_builtin("points", user, &f);
  assert_int_equal(f.count, 3);
  assert_int_equal(f.width, 3);
  assert_int_equal(f.height, 1);
  const sensim_point *p = f.data;
  assert_near(p[0].x, 0.0, 1e-6);
  assert_near(p[0].y, 2.0, 1e-6);
  assert_near(p[0].z, 0.0, 1e-6);
  assert_near(p[0].intensity, 0.5, 0);
  assert_near(p[0].time_offset, -0.01, 1e-9);
  assert_int_equal(p[0].ring, 3);
  assert_true(p[0].class_id == 12 && p[0].instance_id == 4000000000u && p[0].pad == 0 && p[0].pad2 == 0);
  assert_true(p[1].class_id == 65535 && p[1].instance_id == 1);
  assert_true(p[2].class_id == 0 && p[2].instance_id == 77);
  assert_near(p[1].x, sqrt(0.5), 1e-6);
  assert_near(p[1].y, 0.0, 1e-6);
  assert_near(p[1].z, sqrt(0.5), 1e-6);
  assert_int_equal(p[1].ring, 5);
  assert_int_equal(p[1].return_index, 1);
  assert_near(p[2].x, -3.0 * cos(PI / 6), 1e-6);
  assert_near(p[2].y, 0.0, 1e-6);
  assert_near(p[2].z, -1.5, 1e-6);
  free_user("points", user);
  sensim__frame_release(&f);
  /* All misses: an empty, valid point cloud. */
  memset(&f, 0, sizeof f);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_BEAMS, 4, 1));
  run_builtin("points", NULL, &f);
  assert_int_equal(f.count, 0);
  assert_non_null(f.data);
  sensim__frame_release(&f);
}

/* Range noise: sample mean and standard deviation of n returns at 10 m with
 * sigma = 5 cm match within 5 standard errors (sigma / sqrt(n) for the
 * mean, sigma / sqrt(2 n) for the standard deviation); misses stay misses;
 * the same stream gives the same noise. */
static void test_range_noise_std_matches_sigma(void **state) {
  (void)state;
  const size_t n = 200000;
  const double sigma = 0.05, r0 = 10.0;
  sensim_frame f, g;
  memset(&f, 0, sizeof f);
  memset(&g, 0, sizeof g);
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&f, SENSIM_PAYLOAD_BEAMS, (uint32_t)n, 1));
  SENSIM_OK_OR_FAIL(sensim_frame_alloc(&g, SENSIM_PAYLOAD_BEAMS, (uint32_t)n, 1));
  sensim_beam *b = f.data, *c = g.data;
  for (size_t i = 0; i < n; i++) b[i].range = c[i].range = i % 10 == 9 ? 0.0f : (float)r0;
  void *user = make_user("range_noise", "{\"sigma\": 0.05}");
  run_builtin("range_noise", user, &f);
  run_builtin("range_noise", user, &g);
  double s1 = 0, s2 = 0;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (i % 10 == 9) {
      assert_true(b[i].range == 0.0f);
      continue;
    }
    assert_true(b[i].range == c[i].range);
    double e = b[i].range - r0;
    s1 += e;
    s2 += e * e;
    m++;
  }
  double mean = s1 / m, sd = sqrt(s2 / m - mean * mean);
  assert_near(mean, 0.0, 5.0 * sigma / sqrt((double)m));
  assert_near(sd, sigma, 5.0 * sigma / sqrt(2.0 * m));
  free_user("range_noise", user);
  sensim__frame_release(&f);
  sensim__frame_release(&g);
}

int sensim_test_chain(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lidar_chain_accepts_beam_filters_and_refuses_image_filters),
      cmocka_unit_test(test_add_filter_rejects_unknown_name_bad_json_and_bad_params),
      cmocka_unit_test(test_user_filter_init_refusal_fails_without_destroy),
      cmocka_unit_test(test_user_filter_error_drops_frame_and_is_reported_at_delivery),
      cmocka_unit_test(test_user_filter_sees_frames_in_order_with_two_threads),
      cmocka_unit_test(test_add_filter_after_first_capture_is_refused),
      cmocka_unit_test(test_srgb8_encodes_known_values),
      cmocka_unit_test(test_points_converts_beams_and_drops_misses),
      cmocka_unit_test(test_range_noise_std_matches_sigma),
  };
  return cmocka_run_group_tests_name("chain", tests, NULL, NULL);
}
