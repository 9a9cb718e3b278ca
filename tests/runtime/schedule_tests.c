/* Schedule and delivery rules of DESIGN.md: capture times, lag, ordering,
 * and bit-identical frames for any thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/testutil.h"

/* A camera that sees nothing is the cheapest sensor that runs the whole
 * capture path (snapshot, view, generator, chain). */
static sensim_sensor *tiny_camera(sensim_world *w, double rate, double lag, double phase) {
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = rate;
  sp.lag = lag;
  sp.phase = phase;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = cp.height = 2;
  cp.samples = 1;
  sensim_sensor *s = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
  return s;
}

static int drain(sensim_sensor *s, double *last_t) {
  int n = 0;
  const sensim_frame *f;
  while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
    if (last_t) {
      assert_true(f->t_capture > *last_t);
      *last_t = f->t_capture;
    }
    n++;
  }
  return n;
}

static void count_frames(double dt, int threads) {
  sensim_world *w = test_world(threads, 7);
  sensim_sensor *s = tiny_camera(w, 50.0, 0.0, 0.0);
  int frames = 0;
  double last = -1.0;
  /* Steps t_i = i dt over one simulated second [0, 1). */
  for (long i = 0;; i++) {
    double t = i * dt;
    if (t >= 1.0) break;
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    frames += drain(s, &last);
  }
  assert_int_equal(frames, 50);
  assert_int_equal(sensim_sensor_frames_captured(s), 50);
  sensim_world_destroy(w);
}

static void test_schedule_50hz_gives_50_frames_per_second_at_1ms_steps(void **state) {
  (void)state;
  count_frames(0.001, 0);
  count_frames(0.001, 2);
}

static void test_schedule_50hz_gives_50_frames_per_second_at_0p7ms_steps(void **state) {
  (void)state;
  count_frames(0.0007, 0);
  count_frames(0.0007, 2);
}

static void test_schedule_frame_invisible_before_lag_and_visible_at_it(void **state) {
  (void)state;
  const double lag = 0.035;
  sensim_world *w = test_world(2, 1);
  sensim_sensor *s = tiny_camera(w, 10.0, lag, 0.0);
  const sensim_frame *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_null(f);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, nextafter(lag, 0.0)));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_null(f);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, lag));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(s, &f));
  assert_non_null(f);
  assert_int_equal(f->index, 0);
  assert_near(f->t_capture, 0.0, 0.0);
  assert_near(f->t_deliver, lag, 0.0);
  sensim_world_destroy(w);
}

static void test_schedule_phase_and_big_host_steps_keep_every_capture(void **state) {
  (void)state;
  /* A host stepping 0.25 s at a time still gets every 20 Hz capture, each
   * stamped with its own capture time t_k = phase + k / rate. */
  sensim_world *w = test_world(2, 1);
  sensim_sensor *s = tiny_camera(w, 20.0, 0.0, 0.01);
  int n = 0;
  for (int i = 0; i <= 8; i++) {
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.25 * i));
    const sensim_frame *f;
    while (sensim_sensor_poll(s, &f) == SENSIM_OK && f) {
      assert_near(f->t_capture, 0.01 + n / 20.0, 1e-12);
      assert_int_equal(f->index, (uint64_t)n);
      n++;
    }
  }
  assert_int_equal(n, 40); /* t_k = 0.01 .. 1.96 <= 2.0 */
  sensim_world_destroy(w);
}

static void test_schedule_rejects_bad_rates_and_times(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  sensim_sensor *s = NULL;
  const double bad_rates[] = {0.0, -5.0, NAN, INFINITY};
  for (int i = 0; i < 4; i++) {
    sensim_sensor_params_init(&sp);
    sp.rate = bad_rates[i];
    assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
    assert_true(strlen(sensim_last_error()) > 0);
  }
  sensim_sensor_params_init(&sp);
  sp.lag = -0.1;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
  sensim_sensor_params_init(&sp);
  sp.mount.rot.w = 2.0;
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_world_sensor_count(w), 0);
  /* Duplicate names are refused. */
  sensim_sensor_params_init(&sp);
  sp.name = "cam";
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &s));
  assert_int_equal(sensim_camera_create(w, &sp, &cp, &s), SENSIM_EINVAL);
  assert_int_equal(sensim_world_sensor_count(w), 1);
  /* Time may not run backwards or be NaN; the world stays usable. */
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 1.0));
  assert_int_equal(sensim_world_advance(w, 0.5), SENSIM_ESTATE);
  assert_int_equal(sensim_world_advance(w, NAN), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 1.1));
  assert_near(sensim_world_time(w), 1.1, 0.0);
  sensim_world_destroy(w);
}

/* ---- determinism ---- */

typedef struct run_out {
  size_t n;
  unsigned char *bytes;
} run_out;

static void append(run_out *o, const void *p, size_t n) {
  o->bytes = realloc(o->bytes, o->n + n);
  assert_non_null(o->bytes);
  memcpy(o->bytes + o->n, p, n);
  o->n += n;
}

/* A moving body seen by a noisy camera and a lidar; every delivered
 * frame's payload is appended to one byte string. */
static run_out run_scene(int threads) {
  sensim_world *w = test_world(threads, 42);
  sensim_material mat;
  sensim_material_init(&mat);
  sensim_mesh *box = NULL, *floor = NULL;
  sensim_shape sh = {SENSIM_SHAPE_BOX, {1, 1, 1}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &mat, &box));
  sensim_shape pl = {SENSIM_SHAPE_PLANE, {50, 50, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &pl, &mat, &floor));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = floor;
  bp.is_static = 1;
  bp.pose.pos.z = -1.0;
  sensim_body *fb = NULL, *mover = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &fb));
  sensim_body_params_init(&bp);
  bp.mesh = box;
  bp.class_id = 3;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &mover));
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){-0.3, 0.2, -1};
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.rate = 20;
  sp.window = 0.01;
  sp.lag = 0.02;
  sp.name = "cam";
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 64;
  cp.height = 48;
  cp.exposure_time = 0.01;
  sensim_sensor *cam = NULL, *lid = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "image_noise", "{\"sigma\": 0.02}"));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(cam, "srgb8", NULL));
  sensim_sensor_params_init(&sp);
  sp.rate = 10;
  sp.name = "lidar";
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.columns = 360;
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &lid));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(lid, "range_noise", NULL));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(lid, "points", NULL));
  run_out o = {0, NULL};
  for (int i = 0; i <= 500; i++) {
    double t = i * 0.001;
    sensim_body_state s = test_state_xyzyaw(3.0 + sin(4 * t), 2.0 * t, 0.0, t);
    s.flags = 0;
    SENSIM_OK_OR_FAIL(sensim_body_push_state(mover, t, &s));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    sensim_sensor *ss[2] = {cam, lid};
    for (int k = 0; k < 2; k++) {
      const sensim_frame *f;
      while (sensim_sensor_poll(ss[k], &f) == SENSIM_OK && f) {
        append(&o, &f->index, sizeof f->index);
        append(&o, f->data, f->count * sensim_payload_elem_size(f->type));
      }
    }
  }
  sensim_world_destroy(w);
  return o;
}

static void test_schedule_frames_bit_identical_for_0_1_2_threads(void **state) {
  (void)state;
  run_out a = run_scene(0), b = run_scene(1), c = run_scene(2);
  assert_true(a.n > 64 * 48 * 4 * 5);
  assert_int_equal(a.n, b.n);
  assert_int_equal(a.n, c.n);
  assert_memory_equal(a.bytes, b.bytes, a.n);
  assert_memory_equal(a.bytes, c.bytes, a.n);
  free(a.bytes);
  free(b.bytes);
  free(c.bytes);
}

int sensim_test_schedule(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_schedule_50hz_gives_50_frames_per_second_at_1ms_steps),
      cmocka_unit_test(test_schedule_50hz_gives_50_frames_per_second_at_0p7ms_steps),
      cmocka_unit_test(test_schedule_frame_invisible_before_lag_and_visible_at_it),
      cmocka_unit_test(test_schedule_phase_and_big_host_steps_keep_every_capture),
      cmocka_unit_test(test_schedule_rejects_bad_rates_and_times),
      cmocka_unit_test(test_schedule_frames_bit_identical_for_0_1_2_threads),
  };
  return cmocka_run_group_tests_name("schedule", tests, NULL, NULL);
}
