/* tests/sensors/weather_camera_tests.c: the world's weather in camera
 * images (docs/weather.md): contrast against Koschmieder's law in fog,
 * rain and snow, and rain streaks: their length against v T f / z, the
 * drops drawn against their Poisson mean, occlusion and determinism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sensors/camera_rain.h"
#include "sensors/lidar_fixtures.h"
#include "support/testutil.h"

#define KOSCH 3.912023005428146 /* -ln 0.02 */

/* Marshall-Palmer, written out again: N(D) = n0 exp(-lam D). */
typedef struct psd {
  double n0, lam; /* 1/(m^3 mm), 1/mm */
} psd;

static psd rain_psd(double r) { return (psd){8000.0, 4.1 * pow(r, -0.21)}; }

/* ---- camera ---- */

/* A narrow camera looking at a black wall at distance d under the
 * default grey sky: it sees (1 - T) of the sky, so the wall's contrast
 * against the sky, 1 - L / L_sky, is the transmittance T = exp(-beta d)
 * (Koschmieder). */
static double black_wall_contrast(sensim_weather wx, double cam_fog, double d) {
  sensim_world *w = test_world(0, 3);
  SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &wx));
  sensim_material m;
  sensim_material_init(&m);
  m.base_color[0] = m.base_color[1] = m.base_color[2] = 0.0f;
  m.roughness = 1.0f;
  sensim_mesh *mesh = NULL;
  sensim_shape sh = {SENSIM_SHAPE_PLANE, {4 * d, 4 * d, 0}, 0};
  SENSIM_OK_OR_FAIL(sensim_mesh_create_shape(w, &sh, &m, &mesh));
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  bp.mesh = mesh;
  bp.is_static = 1;
  bp.pose.pos = (sensim_vec3){d, 0, 0};
  bp.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 1, 0}, -M_PI / 2); /* +Z turned to -X */
  sensim_body *body = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &body));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = cp.height = 8;
  cp.hfov = 1e-3; /* distances across the image differ by 1e-7 */
  cp.samples = 1;
  cp.max_bounces = 0;
  cp.fog_visibility = cam_fog;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const float *rgb = poll1(cam)->data;
  const float sky = sensim_world_params_get(w)->background[0];
  /* Rain streaks only lighten a pixel towards the sky: the darkest pixel
   * is the one no drop crossed. */
  float dark = rgb[0];
  for (int i = 0; i < 8 * 8 * 3; i++) dark = fminf(dark, rgb[i]);
  double c = 1.0 - dark / sky;
  for (int k = 1; k < 3; k++) assert_true(rgb[k] == rgb[0] || wx.rain_rate > 0); /* grey: the same for every colour */
  sensim_world_destroy(w);
  return c;
}

static void test_weather_camera_contrast_follows_koschmieder(void **state) {
  (void)state;
  struct {
    sensim_weather wx;
    double cam_fog, d, beta;
  } c[] = {
      {{0, 0, 0}, 0, 300, 0.0},
      {{0, 20, 0}, 0, 300, sensim__rain_beta(20)},
      {{0, 100, 0}, 0, 300, sensim__rain_beta(100)},
      {{0, 0, 0.5}, 0, 300, sensim__snow_beta(0.5)},
      {{500, 10, 1}, 0, 200, KOSCH / 500 + sensim__rain_beta(10) + sensim__snow_beta(1)},
      {{50, 10, 0}, 1000, 300, KOSCH / 1000 + sensim__rain_beta(10)}, /* the camera's fog wins */
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    double got = black_wall_contrast(c[i].wx, c[i].cam_fog, c[i].d), want = exp(-c[i].beta * c[i].d);
    if (fabs(got - want) > 2e-6) fail_msg("case %zu: contrast %.7f, Koschmieder %.7f", i, got, want);
  }
  /* 10 mm/h of rain: contrast 0.02 (the threshold) at the visibility. */
  double v = KOSCH / sensim__rain_beta(10);
  sensim_weather rain = {0, 10, 0};
  assert_near(black_wall_contrast(rain, 0, v), 0.02, 1e-5);
}

/* ---- camera: rain streaks ---- */

/* Atlas et al.'s fit against Gunn & Kinzer's (1949) measured terminal
 * speeds (m/s at 1-5 mm), and a streak's length against v T f / z for a
 * level pinhole camera (f = 320 px: 640 px over 90 deg), on and off axis. */
static void test_weather_rain_streak_length_is_v_t_f_over_z(void **state) {
  (void)state;
  const double gk[5][2] = {{1, 4.03}, {2, 6.49}, {3, 8.06}, {4, 8.83}, {5, 9.09}};
  for (int i = 0; i < 5; i++) assert_near(sensim__rain_fall_speed(gk[i][0]), gk[i][1], 0.02 * gk[i][1]);
  assert_true(sensim__rain_fall_speed(0.05) == 0.0);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 640;
  cp.height = 480;
  cp.hfov = M_PI / 2;
  const double exposures[3] = {0.0, 0.004, 0.02}, fall[3] = {0, 1, 0};
  const double pts[3][3] = {{0, 0, 2.0}, {0.6, -0.3, 1.5}, {-0.1, 0.2, 0.4}};
  for (int e = 0; e < 3; e++)
    for (int k = 0; k < 3; k++)
      for (double d = 0.5; d <= 4.0; d += 1.5) {
        cp.exposure_time = exposures[e];
        double uv[4];
        SENSIM_OK_OR_FAIL(sensim__rain_streak(&cp, pts[k], fall, d, uv));
        const double L = sensim__rain_fall_speed(d) * exposures[e] * 320.0 / pts[k][2];
        assert_near(uv[2], uv[0], 1e-9);
        assert_near(uv[3] - uv[1], L, 1e-9 * (1 + L));
        assert_near(uv[0], 319.5 + 320.0 * pts[k][0] / pts[k][2], 1e-9 * 320);
      }
}

/* The drops drawn per frame: a Poisson count whose mean is the integral of
 * N(D) (4 tx ty / 3) (z_max(D)^3 - z_near^3) over D, z_max the depth where
 * a drop's streak weight falls to 1/256 or its image below a pixel;
 * computed here by Simpson over D,
 * the mean of 400 frames within 4.5 standard deviations of it. */
static void test_weather_rain_drop_count_follows_its_poisson_mean(void **state) {
  (void)state;
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = 640;
  cp.height = 480;
  cp.hfov = M_PI / 2; /* f = 320 px, tx = 1, ty = 0.75 */
  cp.exposure_time = 0.01;
  const double rate = 10.0, f = 320.0, tx = 1.0, ty = 0.75, zn = 0.1;
  psd q = rain_psd(rate);
  const int n = 4000;
  const double h = 8.0 / n;
  double mu = 0.0;
  for (int i = 0; i <= n; i++) {
    double d = i * h, D = d * 1e-3, v = fmax(9.65 - 10.3 * exp(-0.6 * d), 0.0);
    double zm = d > 0 ? fmin(f * D, M_PI / 4 * f * D * D / ((v * cp.exposure_time + D) / 256.0)) : 0.0;
    double g = zm > zn ? q.n0 * exp(-q.lam * d) * 4 * tx * ty / 3 * (zm * zm * zm - zn * zn * zn) : 0.0;
    mu += g * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
  }
  mu *= h / 3;
  double table;
  SENSIM_OK_OR_FAIL(sensim__rain_expected(&cp, rate, &table));
  assert_near(table, mu, 1e-3 * mu);
  assert_true(mu > 30 && mu < 45); /* 37 streaks a frame in 10 mm/h */
  const int frames = 400;
  double sum = 0.0;
  float *rgb = calloc(640 * 480 * 3, sizeof *rgb);
  const float sky[3] = {1, 1, 1};
  for (int k = 0; k < frames; k++) {
    sensim_rng r;
    sensim_rng_init(&r, 5, 1, (uint64_t)k, 0x40000000u);
    size_t nd;
    SENSIM_OK_OR_FAIL(sensim__rain_draw(&cp, rate, sky, sensim_pose_identity(), &r, rgb, NULL, &nd));
    sum += (double)nd;
  }
  double mean = sum / frames, tol = 4.5 * sqrt(mu / frames);
  if (fabs(mean - mu) > tol) fail_msg("drops per frame %.2f, expected %.2f +- %.2f", mean, mu, tol);
  /* Streaks lighten a black image towards the sky, never past it. */
  double lit = 0.0;
  for (int i = 0; i < 640 * 480 * 3; i++) {
    assert_true(rgb[i] >= 0.0f && rgb[i] <= 1.0f);
    lit += rgb[i];
  }
  assert_true(lit > 0.0);
  free(rgb);
}

/* A rendered camera in rain: streaks lighten a dark wall 30 m away
 * (against the same scene in a fog of the rain's extinction, which has no
 * drops); a wall nearer than every drop (0.09 m) hides them all; the frame
 * is the same bits for 0 and 2 worker threads. */
#define IMG_W 320
#define IMG_H 240
static float *render_wall(double dist, sensim_weather wx, int threads) {
  sensim_world *w = test_world(threads, 21);
  SENSIM_OK_OR_FAIL(sensim_world_set_weather(w, &wx));
  add_wall(w, dist, -100, 100, 100, 0.5f);
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sensim_camera_params cp;
  sensim_camera_params_init(&cp);
  cp.width = IMG_W;
  cp.height = IMG_H;
  cp.hfov = M_PI / 6; /* f = 597 px: a 2 mm drop is a pixel wide out to 1.2 m; 57 drops a frame */
  cp.samples = 1;
  cp.exposure_time = 0.008;
  sensim_sensor *cam = NULL;
  SENSIM_OK_OR_FAIL(sensim_camera_create(w, &sp, &cp, &cam));
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  float *img = malloc(IMG_W * IMG_H * 3 * sizeof(float));
  memcpy(img, poll1(cam)->data, IMG_W * IMG_H * 3 * sizeof(float));
  sensim_world_destroy(w);
  return img;
}

static void test_weather_rain_streaks_render_behind_nothing_nearer(void **state) {
  (void)state;
  const double rate = 40.0;
  sensim_weather rain = {0, rate, 0}, fog = {KOSCH / sensim__rain_beta(rate), 0, 0};
  for (int near = 0; near < 2; near++) {
    const double dist = near ? 0.09 : 30.0;
    float *a = render_wall(dist, rain, 0), *b = render_wall(dist, fog, 0);
    int streaked = 0;
    for (int i = 0; i < IMG_W * IMG_H * 3; i++) {
      assert_true(a[i] >= b[i] - 1e-6f); /* drops only lighten the dark wall */
      streaked += a[i] > b[i] + 1e-5f;
    }
    if (near) assert_int_equal(streaked, 0);
    else if (!(streaked > 20)) fail_msg("only %d streaked values", streaked);
    if (!near) {
      float *c = render_wall(dist, rain, 2);
      assert_memory_equal(a, c, IMG_W * IMG_H * 3 * sizeof(float));
      free(c);
    }
    free(a);
    free(b);
  }
}

int sensim_test_weather_camera(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_weather_camera_contrast_follows_koschmieder),
      cmocka_unit_test(test_weather_rain_streak_length_is_v_t_f_over_z),
      cmocka_unit_test(test_weather_rain_drop_count_follows_its_poisson_mean),
      cmocka_unit_test(test_weather_rain_streaks_render_behind_nothing_nearer),
  };
  return cmocka_run_group_tests_name("weather_camera", tests, NULL, NULL);
}
