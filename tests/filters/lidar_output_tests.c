/* tests/filters/lidar_output_tests.c: "organized", "range_image" and
 * "birdseye" on hand-made beams frames laid out as the lidar writes them
 * (column j, channel slot c, return r at ((j * channels + c) * returns + r)),
 * and the same filters behind a real lidar. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "filters/chain.h"
#include "support/testutil.h"
#include "filters/builtin.h"

#define TMP SENSIM_TEST_TMP "/lidar_outputs"

static void *make_filter(const sensim_builtin_filter *b, const char *json) {
  cJSON *p = json ? cJSON_Parse(json) : NULL;
  if (json) assert_non_null(p);
  void *user = NULL;
  SENSIM_OK_OR_FAIL(b->create(p, &user));
  cJSON_Delete(p);
  return user;
}

static sensim_status create_status(const sensim_builtin_filter *b, const char *json) {
  cJSON *p = cJSON_Parse(json);
  assert_non_null(p);
  void *user = NULL;
  sensim_status st = b->create(p, &user);
  cJSON_Delete(p);
  if (st == SENSIM_OK && b->def.destroy) b->def.destroy(user);
  return st;
}

static sensim_status run(const sensim_builtin_filter *b, void *user, sensim_frame *f) {
  sensim_filter_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  return b->def.apply(user, f, &ctx);
}

static void drop(const sensim_builtin_filter *b, void *user) {
  if (b->def.destroy) b->def.destroy(user);
}

/* The slots of each column fire channels in this order; ring = rank of the
 * elevation, so slot 0 is ring 1, slot 1 ring 0, slot 2 ring 2. */
static const uint16_t kSlotRing[3] = {1, 0, 2};
static const float kRingElev[3] = {-0.2f, 0.0f, 0.15f};

/* A beams frame of `cols` columns x 3 channels x R returns: range
 * 5 + j + 0.25 c + 2 r m except where (j + c + r) % 4 == 3 (no return);
 * a return's class id 100 + j, instance id 1000 j + 10 c + r + 1 (every
 * beam its own), 0 for none. */
static sensim_frame beams_frame(uint32_t cols, uint32_t R) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_BEAMS;
  f.count = (size_t)cols * 3 * R;
  f.width = (uint32_t)f.count;
  f.height = 1;
  f.returns = R;
  sensim_beam *b = calloc(f.count, sizeof *b);
  assert_non_null(b);
  for (uint32_t j = 0; j < cols; j++)
    for (uint32_t c = 0; c < 3; c++)
      for (uint32_t r = 0; r < R; r++) {
        sensim_beam *e = &b[(j * 3 + c) * R + r];
        uint16_t k = kSlotRing[c];
        e->azimuth = (float)(-M_PI + 2 * M_PI * j / cols + 0.01 * c);
        e->elevation = kRingElev[k];
        e->time_offset = -0.1f + 0.1f * (float)j / (float)cols + 1e-5f * (float)c;
        e->ring = k;
        e->return_index = (uint8_t)r;
        if ((j + c + r) % 4 != 3) {
          e->range = 5.0f + (float)j + 0.25f * (float)c + 2.0f * (float)r;
          e->intensity = 0.1f * (float)(c + 1) + 0.05f * (float)r;
          e->class_id = (uint16_t)(100 + j);
          e->instance_id = 1000u * j + 10u * c + r + 1u;
        }
      }
  f.data = b;
  return f;
}

static sensim_frame copy_frame(const sensim_frame *f) {
  sensim_frame g = *f;
  size_t es = sensim_payload_elem_size(f->type);
  g.data = malloc(f->count * es);
  assert_non_null(g.data);
  memcpy(g.data, f->data, f->count * es);
  return g;
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* ---- organized ---------------------------------------------------------- */

/* Every beam lands at row (channels - 1 - ring) * returns + return,
 * column j, with the coordinates "points" gives it (bit for bit); missing
 * returns are NaN with intensity 0 and keep ring, time and return index. */
static void test_organized_puts_each_beam_at_its_ring_and_column(void **state) {
  (void)state;
  const uint32_t cols = 7, R = 2;
  sensim_frame f = beams_frame(cols, R);
  sensim_frame ref = copy_frame(&f);
  const sensim_beam *b = ref.data;
  void *u = make_filter(&sensim__filter_organized, NULL);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_organized, u, &f));
  assert_int_equal(f.type, SENSIM_PAYLOAD_POINTS);
  assert_int_equal(f.width, cols);
  assert_int_equal(f.height, 3 * R);
  assert_int_equal(f.count, (size_t)cols * 3 * R);
  const sensim_point *p = f.data;
  size_t hits = 0;
  for (uint32_t j = 0; j < cols; j++)
    for (uint32_t c = 0; c < 3; c++)
      for (uint32_t r = 0; r < R; r++) {
        const sensim_beam *e = &b[(j * 3 + c) * R + r];
        size_t row = (size_t)(2 - e->ring) * R + r;
        const sensim_point *q = &p[row * cols + j];
        assert_int_equal(q->ring, e->ring);
        assert_int_equal(q->return_index, r);
        assert_true(same_bits(q->time_offset, e->time_offset));
        if (e->range > 0) {
          /* The same conversion as "points" (bit for bit), and the spherical
           * formula to float precision. */
          float xyz[3];
          sensim__beam_xyz(e, xyz);
          assert_true(same_bits(q->x, xyz[0]) && same_bits(q->y, xyz[1]) && same_bits(q->z, xyz[2]));
          double ce = cos(e->elevation), rg = e->range;
          assert_near(q->x, rg * ce * cos(e->azimuth), 1e-6 * (rg + 1.0));
          assert_near(q->y, rg * ce * sin(e->azimuth), 1e-6 * (rg + 1.0));
          assert_near(q->z, rg * sin(e->elevation), 1e-6 * (rg + 1.0));
          assert_true(same_bits(q->intensity, e->intensity));
          hits++;
        } else {
          assert_true(isnan(q->x) && isnan(q->y) && isnan(q->z));
          assert_true(q->intensity == 0.0f);
        }
        /* each beam's ids at its grid place (0 for a missing return) */
        assert_int_equal(q->class_id, e->class_id);
        assert_int_equal(q->instance_id, e->instance_id);
        assert_int_equal(q->pad2, 0);
      }
  /* Row 0 is the highest ring. */
  assert_int_equal(p[0].ring, 2);
  assert_int_equal(p[(size_t)(3 * R - 1) * cols].ring, 0);

  /* The finite points are exactly the unorganised cloud's, as a set. */
  void *pu = make_filter(&sensim__filter_points, NULL);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_points, pu, &ref));
  assert_int_equal(ref.count, hits);
  const sensim_point *up = ref.data;
  for (size_t i = 0; i < ref.count; i++) {
    int found = 0;
    for (size_t k = 0; k < f.count && !found; k++)
      found = memcmp(&up[i], &p[k], sizeof *p) == 0;
    if (!found) fail_msg("point %zu of \"points\" is not in the organised cloud", i);
  }
  drop(&sensim__filter_points, pu);
  drop(&sensim__filter_organized, u);
  free(f.data);
  free(ref.data);
}

/* A frame without returns per beam recorded (0) is one return per beam. */
static void test_organized_single_return_frames(void **state) {
  (void)state;
  sensim_frame f = beams_frame(5, 1);
  f.returns = 0;
  void *u = make_filter(&sensim__filter_organized, NULL);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_organized, u, &f));
  assert_int_equal(f.width, 5);
  assert_int_equal(f.height, 3);
  drop(&sensim__filter_organized, u);
  free(f.data);
}

/* Beams that are not the organised layout are refused and the frame is
 * left as it was. */
static void test_organized_refuses_frames_not_in_the_layout(void **state) {
  (void)state;
  void *u = make_filter(&sensim__filter_organized, NULL);
  /* Not whole columns: 3 channels x 2 returns do not divide 7 beams. */
  sensim_frame f = beams_frame(2, 2);
  f.count = 7;
  void *data = f.data;
  assert_int_equal(run(&sensim__filter_organized, u, &f), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "whole columns"));
  assert_int_equal(f.type, SENSIM_PAYLOAD_BEAMS);
  assert_ptr_equal(f.data, data);
  free(f.data);
  /* A ring that moves between columns. */
  f = beams_frame(3, 1);
  sensim_beam *b = f.data;
  uint16_t t = b[3].ring;
  b[3].ring = b[4].ring;
  b[4].ring = t;
  assert_int_equal(run(&sensim__filter_organized, u, &f), SENSIM_EINVAL);
  assert_int_equal(f.type, SENSIM_PAYLOAD_BEAMS);
  free(f.data);
  /* A ring twice in a column (and one missing). */
  f = beams_frame(3, 1);
  b = f.data;
  for (size_t i = 0; i < f.count; i++)
    if (b[i].ring == 0) b[i].ring = 2;
  assert_int_equal(run(&sensim__filter_organized, u, &f), SENSIM_EINVAL);
  free(f.data);
  /* No beams; the wrong payload. */
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_BEAMS;
  assert_int_equal(run(&sensim__filter_organized, u, &f), SENSIM_EINVAL);
  f.type = SENSIM_PAYLOAD_POINTS;
  assert_int_equal(run(&sensim__filter_organized, u, &f), SENSIM_ETYPE);
  /* Parameters: it takes none. */
  assert_int_equal(create_status(&sensim__filter_organized, "{\"width\": 3}"), SENSIM_EINVAL);
  drop(&sensim__filter_organized, u);
}

/* ---- range_image -------------------------------------------------------- */

/* rings x columns of the chosen return's range, highest ring on top, 0
 * where there is no return; the label plane holds that return's class and
 * instance ids at the same pixel (0 for none). */
static void test_range_image_holds_each_beams_range(void **state) {
  (void)state;
  const uint32_t cols = 6, R = 2;
  for (int ret = 0; ret < 2; ret++) {
    sensim_frame f = beams_frame(cols, R);
    sensim_frame ref = copy_frame(&f);
    const sensim_beam *b = ref.data;
    void *u = make_filter(&sensim__filter_range_image, ret ? "{\"return\": 1}" : NULL);
    SENSIM_OK_OR_FAIL(run(&sensim__filter_range_image, u, &f));
    assert_int_equal(f.type, SENSIM_PAYLOAD_DEPTH_F32);
    assert_int_equal(f.width, cols);
    assert_int_equal(f.height, 3);
    assert_int_equal(f.count, cols * 3);
    const float *img = f.data;
    for (uint32_t j = 0; j < cols; j++)
      for (uint32_t c = 0; c < 3; c++) {
        const sensim_beam *e = &b[(j * 3 + c) * R + (uint32_t)ret];
        float want = e->range > 0 ? e->range : 0.0f;
        assert_true(img[(size_t)(2 - e->ring) * cols + j] == want);
        const sensim_label *l = &f.labels[(size_t)(2 - e->ring) * cols + j];
        assert_int_equal(l->class_id, e->class_id);
        assert_int_equal(l->instance_id, e->instance_id);
        if (!(e->range > 0)) assert_true(l->class_id == 0 && l->instance_id == 0);
      }
    drop(&sensim__filter_range_image, u);
    sensim_frame_release(&f); /* the image and its label plane */
    free(ref.data);
  }
}

/* Through the PNG writer: 16-bit grey in millimetres, 0 for no return. */
static void test_range_image_writes_as_a_millimetre_png(void **state) {
  (void)state;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP));
  sensim_frame f = beams_frame(4, 1);
  sensim_frame ref = copy_frame(&f);
  void *u = make_filter(&sensim__filter_range_image, NULL);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_range_image, u, &f));
  SENSIM_OK_OR_FAIL(sensim_write_png(TMP "/range.png", &f));
  sensim_image img;
  SENSIM_OK_OR_FAIL(sensim_read_png(TMP "/range.png", &img));
  assert_int_equal(img.width, 4);
  assert_int_equal(img.height, 3);
  assert_int_equal(img.channels, 1);
  const sensim_beam *b = ref.data;
  for (uint32_t j = 0; j < 4; j++)
    for (uint32_t c = 0; c < 3; c++) {
      const sensim_beam *e = &b[j * 3 + c];
      double mm = e->range > 0 ? floor(e->range * 1000.0 + 0.5) : 0.0;
      /* The reader's float samples carry ~65535 x 6e-8 of rounding, far
       * below the 1 mm step. */
      assert_near(img.data[(size_t)(2 - e->ring) * 4 + j] * 65535.0, mm, 0.01);
    }
  sensim_image_free(&img);
  drop(&sensim__filter_range_image, u);
  sensim_frame_release(&f);
  free(ref.data);
}

static void test_range_image_bad_return(void **state) {
  (void)state;
  assert_int_equal(create_status(&sensim__filter_range_image, "{\"return\": 2}"), SENSIM_EINVAL);
  assert_int_equal(create_status(&sensim__filter_range_image, "{\"return\": -1}"), SENSIM_EINVAL);
  assert_int_equal(create_status(&sensim__filter_range_image, "{\"return\": \"last\"}"),
                   SENSIM_EINVAL);
  assert_int_equal(create_status(&sensim__filter_range_image, "{\"mode\": 1}"), SENSIM_EINVAL);
  /* The second return of single-return beams: refused, frame untouched. */
  void *u = make_filter(&sensim__filter_range_image, "{\"return\": 1}");
  sensim_frame f = beams_frame(3, 1);
  void *data = f.data;
  assert_int_equal(run(&sensim__filter_range_image, u, &f), SENSIM_EINVAL);
  assert_ptr_equal(f.data, data);
  assert_int_equal(f.type, SENSIM_PAYLOAD_BEAMS);
  drop(&sensim__filter_range_image, u);
  free(f.data);
}

/* ---- birdseye ----------------------------------------------------------- */

static sensim_frame points_frame(const sensim_point *pts, size_t n) {
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_POINTS;
  f.count = n;
  f.width = (uint32_t)n;
  f.height = 1;
  f.data = malloc((n ? n : 1) * sizeof *pts);
  assert_non_null(f.data);
  if (n) memcpy(f.data, pts, n * sizeof *pts);
  return f;
}

static const uint8_t *px(const sensim_frame *f, uint32_t row, uint32_t col) {
  return (const uint8_t *)f->data + 4 * ((size_t)row * f->width + col);
}

static void assert_rgb(const uint8_t *p, int r, int g, int b) {
  if (p[0] != r || p[1] != g || p[2] != b || p[3] != 255)
    fail_msg("pixel (%d, %d, %d, %d), expected (%d, %d, %d, 255)", p[0], p[1], p[2], p[3], r, g, b);
}

static size_t lit_pixels(const sensim_frame *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->count; i++) {
    const uint8_t *p = (const uint8_t *)f->data + 4 * i;
    n += p[0] || p[1] || p[2];
  }
  return n;
}

/* With range 50 m over 100 px (1 m per pixel), the point (x, y) lands at
 * row floor(50 - x), column floor(50 - y): +X up, +Y to the left. The ramp
 * gives blue at 0, green at 0.5, red at 1. */
static void test_birdseye_maps_x_up_and_y_left(void **state) {
  (void)state;
  sensim_point pts[5];
  memset(pts, 0, sizeof pts);
  pts[0] = (sensim_point){.x = 10.5f, .y = 0.5f, .z = 0, .intensity = 1.0f};   /* ahead */
  pts[1] = (sensim_point){.x = 0.5f, .y = 20.5f, .z = 0, .intensity = 0.0f};   /* left */
  pts[2] = (sensim_point){.x = -30.5f, .y = -5.5f, .z = 0, .intensity = 0.5f}; /* behind, right */
  pts[3] = (sensim_point){.x = 60, .y = 0, .z = 0, .intensity = 1};            /* beyond range */
  pts[4] = (sensim_point){.x = NAN, .y = NAN, .z = NAN, .intensity = 1};       /* missing */
  sensim_frame f = points_frame(pts, 5);
  void *u = make_filter(&sensim__filter_birdseye, "{\"size_px\": 100, \"range\": 50}");
  SENSIM_OK_OR_FAIL(run(&sensim__filter_birdseye, u, &f));
  assert_int_equal(f.type, SENSIM_PAYLOAD_RGBA8);
  assert_int_equal(f.width, 100);
  assert_int_equal(f.height, 100);
  assert_int_equal(f.count, 100 * 100);
  assert_rgb(px(&f, 39, 49), 255, 0, 0);
  assert_rgb(px(&f, 49, 29), 0, 0, 255);
  assert_rgb(px(&f, 80, 55), 0, 255, 0);
  assert_int_equal(lit_pixels(&f), 3);
  assert_rgb(px(&f, 0, 0), 0, 0, 0);
  drop(&sensim__filter_birdseye, u);
  free(f.data);
}

/* Of the points in one pixel the highest shows, whatever their order; the
 * height and ring colourings use z over [z_min, z_max] and ring over the
 * frame's largest ring. */
static void test_birdseye_shows_the_highest_point_and_colours_by_mode(void **state) {
  (void)state;
  sensim_point a = {.x = 5.2f, .y = 5.2f, .z = -1.0f, .intensity = 0.0f, .ring = 0};
  sensim_point b = {.x = 5.7f, .y = 5.7f, .z = 0.0f, .intensity = 1.0f, .ring = 1};
  sensim_point c = {.x = -5.5f, .y = -5.5f, .z = 2.0f, .intensity = 0.0f, .ring = 2};
  const char *params[3] = {"{\"size_px\": 20, \"range\": 10}",
                           "{\"size_px\": 20, \"range\": 10, \"color\": \"height\", "
                           "\"z_min\": -2, \"z_max\": 2}",
                           "{\"size_px\": 20, \"range\": 10, \"color\": \"ring\"}"};
  /* Pixel of a and b: row floor((10 - 5.x) / 1) = 4, column 4. */
  const int want_ab[3][3] = {{255, 0, 0}, {0, 255, 0}, {0, 255, 0}};
  const int want_c[3][3] = {{0, 0, 255}, {255, 0, 0}, {255, 0, 0}};
  for (int mode = 0; mode < 3; mode++)
    for (int order = 0; order < 2; order++) {
      sensim_point pts[3] = {order ? b : a, order ? a : b, c};
      sensim_frame f = points_frame(pts, 3);
      void *u = make_filter(&sensim__filter_birdseye, params[mode]);
      SENSIM_OK_OR_FAIL(run(&sensim__filter_birdseye, u, &f));
      assert_rgb(px(&f, 4, 4), want_ab[mode][0], want_ab[mode][1], want_ab[mode][2]);
      assert_rgb(px(&f, 15, 15), want_c[mode][0], want_c[mode][1], want_c[mode][2]);
      assert_int_equal(lit_pixels(&f), 2);
      drop(&sensim__filter_birdseye, u);
      free(f.data);
    }
}

/* Beams and the points made of them give the same picture. */
static void test_birdseye_of_beams_equals_birdseye_of_their_points(void **state) {
  (void)state;
  sensim_frame beams = beams_frame(64, 2);
  sensim_frame pts = copy_frame(&beams);
  void *pu = make_filter(&sensim__filter_points, NULL);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_points, pu, &pts));
  void *u = make_filter(&sensim__filter_birdseye, "{\"size_px\": 64, \"range\": 80, "
                                                  "\"color\": \"height\"}");
  SENSIM_OK_OR_FAIL(run(&sensim__filter_birdseye, u, &beams));
  SENSIM_OK_OR_FAIL(run(&sensim__filter_birdseye, u, &pts));
  assert_true(lit_pixels(&beams) > 20);
  assert_memory_equal(beams.data, pts.data, beams.count * 4);
  drop(&sensim__filter_birdseye, u);
  drop(&sensim__filter_points, pu);
  free(beams.data);
  free(pts.data);
}

static void test_birdseye_bad_params(void **state) {
  (void)state;
  static const char *const bad[] = {
      "{\"size_px\": 0}",      "{\"size_px\": 7.5}",          "{\"size_px\": 100000}",
      "{\"range\": 0}",        "{\"range\": -5}",             "{\"color\": \"rainbow\"}",
      "{\"color\": 3}",        "{\"z_min\": 1, \"z_max\": 1}", "{\"scale\": 2}",
      "{\"range\": \"far\"}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (create_status(&sensim__filter_birdseye, bad[i]) != SENSIM_EINVAL)
      fail_msg("birdseye accepted %s", bad[i]);
  /* An image frame is not something to draw. */
  void *u = make_filter(&sensim__filter_birdseye, NULL);
  sensim_frame f;
  memset(&f, 0, sizeof f);
  f.type = SENSIM_PAYLOAD_RGB_F32;
  assert_int_equal(run(&sensim__filter_birdseye, u, &f), SENSIM_ETYPE);
  /* An empty cloud is an all-black picture of the default size. */
  f = points_frame(NULL, 0);
  SENSIM_OK_OR_FAIL(run(&sensim__filter_birdseye, u, &f));
  assert_int_equal(f.width, 800);
  assert_int_equal(lit_pixels(&f), 0);
  free(f.data);
  drop(&sensim__filter_birdseye, u);
}

/* ---- in a sensor's chain ------------------------------------------------ */

/* The three are registered, take what they say and refuse the rest. */
static void test_lidar_outputs_are_registered_and_type_checked(void **state) {
  (void)state;
  const char *const want[] = {"organized", "range_image", "birdseye"};
  const char *const *names = sensim_filter_names();
  for (int k = 0; k < 3; k++) {
    int found = 0;
    for (size_t i = 0; names[i]; i++) found |= strcmp(names[i], want[k]) == 0;
    if (!found) fail_msg("filter '%s' is not registered", want[k]);
  }
  sensim_world *w = test_world(0, 1);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 8;
  cp.height = 8;
  sensim_sensor *cam = NULL;
  sp.name = "cam";
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  for (int k = 0; k < 3; k++) assert_int_equal(sensim_sensor_add_filter(cam, want[k], NULL), SENSIM_ETYPE);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 4;
  lp.columns = 16;
  sensim_sensor *a = NULL, *b = NULL;
  sp.name = "a";
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &a));
  sp.name = "b";
  SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &b));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(a, "organized", NULL));
  assert_int_equal(sensim_sensor_output_type(a), SENSIM_PAYLOAD_POINTS);
  /* organised points: birdseye takes them; range_image does not. */
  assert_int_equal(sensim_sensor_add_filter(a, "range_image", NULL), SENSIM_ETYPE);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(a, "birdseye", "{\"size_px\": 32}"));
  assert_int_equal(sensim_sensor_output_type(a), SENSIM_PAYLOAD_RGBA8);
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(b, "range_image", NULL));
  assert_int_equal(sensim_sensor_output_type(b), SENSIM_PAYLOAD_DEPTH_F32);
  sensim_world_destroy(w);
}

/* A lidar at the centre of a closed box: every beam returns, so the
 * organised cloud has no NaN; its grid matches the scan; the range image
 * holds the same ranges; the bird's-eye view lights the box's outline. */
static void test_lidar_outputs_of_a_real_scan(void **state) {
  (void)state;
  sensim_world *w = test_world(0, 7);
  /* A 20 m cube around the sensor, seen from inside. */
  static const float v[8 * 3] = {-10, -10, -10, 10, -10, -10, 10, 10, -10, -10, 10, -10,
                                 -10, -10, 10,  10, -10, 10,  10, 10, 10,  -10, 10, 10};
  static const uint32_t ix[12 * 3] = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1,
                                      1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0};
  sensim_mesh *m = NULL;
  sensim_mesh_desc d = test_mesh_desc(v, 8, ix, 12, NULL);
  SENSIM_OK_OR_FAIL(sensim_mesh_create(w, &d, &m));
  sensim_body *body = NULL;
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = m;
  bp.is_static = 1;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &body));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_lidar_params lp;
  sensim_lidar_params_init(&lp);
  lp.channels = 8;
  lp.columns = 90;
  lp.max_range = 50;
  const char *chains[3] = {"organized", "range_image", "birdseye"};
  sensim_sensor *s[3];
  for (int k = 0; k < 3; k++) {
    sp.name = chains[k];
    SENSIM_OK_OR_FAIL(sensim_lidar_create(w, &sp, &lp, &s[k]));
    SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(s[k], chains[k],
                                               k == 2 ? "{\"size_px\": 97, \"range\": 12.125}" : NULL));
  }
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0));
  const sensim_frame *f[3];
  for (int k = 0; k < 3; k++) {
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(s[k], &f[k]));
    assert_non_null(f[k]);
  }
  assert_int_equal(f[0]->width, 90);
  assert_int_equal(f[0]->height, 8 * (f[0]->returns ? f[0]->returns : 1));
  assert_int_equal(f[1]->width, 90);
  assert_int_equal(f[1]->height, 8);
  const sensim_point *p = f[0]->data;
  const float *img = f[1]->data;
  for (uint32_t row = 0; row < 8; row++)
    for (uint32_t j = 0; j < 90; j++) {
      const sensim_point *q = &p[(size_t)row * (f[0]->returns ? f[0]->returns : 1) * 90 + j];
      double r = sqrt((double)q->x * q->x + (double)q->y * q->y + (double)q->z * q->z);
      assert_true(isfinite(r));
      assert_int_equal(q->ring, 7 - row);
      assert_near(img[row * 90 + j], r, 1e-4 * r);
      /* Inside a 20 m cube: 10 m to the nearest wall, 10 sqrt(3) to a corner. */
      assert_true(r >= 10 - 1e-3 && r <= 10 * sqrt(3.0) + 1e-3);
    }
  /* 0.25 m per pixel: the walls at x or y = +-10 m fall mid-pixel in rows
   * and columns floor((12.125 -+ 10) / 0.25) = 8 and 88. */
  assert_true(lit_pixels(f[2]) > 0);
  const uint8_t *rgba = f[2]->data;
  for (size_t i = 0; i < f[2]->count; i++) {
    if (!(rgba[4 * i] || rgba[4 * i + 1] || rgba[4 * i + 2])) continue;
    size_t row = i / 97, col = i % 97;
    int on_wall = row == 8 || row == 88 || col == 8 || col == 88;
    if (!on_wall) fail_msg("lit pixel (%zu, %zu) is not on the box's outline", row, col);
  }
  sensim_world_destroy(w);
}

int sensim_test_lidar_outputs(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_organized_puts_each_beam_at_its_ring_and_column),
      cmocka_unit_test(test_organized_single_return_frames),
      cmocka_unit_test(test_organized_refuses_frames_not_in_the_layout),
      cmocka_unit_test(test_range_image_holds_each_beams_range),
      cmocka_unit_test(test_range_image_writes_as_a_millimetre_png),
      cmocka_unit_test(test_range_image_bad_return),
      cmocka_unit_test(test_birdseye_maps_x_up_and_y_left),
      cmocka_unit_test(test_birdseye_shows_the_highest_point_and_colours_by_mode),
      cmocka_unit_test(test_birdseye_of_beams_equals_birdseye_of_their_points),
      cmocka_unit_test(test_birdseye_bad_params),
      cmocka_unit_test(test_lidar_outputs_are_registered_and_type_checked),
      cmocka_unit_test(test_lidar_outputs_of_a_real_scan),
  };
  return cmocka_run_group_tests_name("lidar_outputs", tests, NULL, NULL);
}
