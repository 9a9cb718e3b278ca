/* The sky and the sun: the sun's disc lights a floor by the cosine law
 * with the radiance the attenuation model gives (transcribed here from
 * the papers: Darula et al. 2005's E0 = 133.8 klx, Kasten & Young's air
 * mass, Leckner's Rayleigh and Angstrom's aerosol depths with Preetham's
 * beta(T)); a 0.53 deg disc casts a penumbra whose profile is the
 * uncovered fraction of the disc (a circular segment); the sky itself is
 * brighter towards the sun than away from it and dark below the horizon. */
#include <math.h>
#include <string.h>
#include "render/render_fixture.h"

#define RHO 0.5

static sensim_world *floor_world(void) {
  sensim_world *w = rf_world(0);
  sensim_material m;
  sensim_material_init(&m);
  m.specular = 0.0f;
  m.base_color[0] = m.base_color[1] = m.base_color[2] = (float)RHO;
  rf_plane(w, 1000, (sensim_vec3){0, 0, 0}, &m);
  return w;
}

static void sky(sensim_world *w, double el_deg, int sun) {
  sensim_environment e;
  sensim_environment_init(&e);
  e.type = SENSIM_ENVIRONMENT_SKY;
  e.sun_elevation = el_deg * M_PI / 180;
  e.sun_azimuth = 0.3;
  e.turbidity = 3.0;
  e.sun = sun;
  SENSIM_OK_OR_FAIL(sensim_world_set_environment(w, &e));
}

/* Mean green radiance of the floor at the origin (16 x 16 pencil pixels). */
static double floor_green(double el_deg, int sun, double *sem) {
  sensim_world *w = floor_world();
  sky(w, el_deg, sun);
  sensim_sensor *cam = rf_camera(w, (sensim_vec3){-3, 0, 0.5}, (sensim_vec3){3, 0, -0.5}, 16, 16, 1e-4, 1024, 1);
  const double m = rf_mean(rf_render(w, cam), 1, sem);
  sensim_world_destroy(w);
  return m;
}

/* The sun's share of the floor's radiance, rho / pi x E_sun sin(el), with
 * E_sun the attenuated extraterrestrial illuminance (green channel) / 683. */
static double sun_share(double el_deg) {
  const double z = (90 - el_deg) * M_PI / 180, zd = 90 - el_deg;
  const double m = 1 / (cos(z) + 0.50572 * pow(96.07995 - zd, -1.6364));
  const double beta = 0.04608 * 3.0 - 0.04586;
  const double tau = 0.008735 * pow(0.55, -4.08) + beta * pow(0.55, -1.3);
  return RHO / M_PI * 133800.0 / 683.0 * exp(-m * tau) * sin(el_deg * M_PI / 180);
}

static void test_sun_disc_lights_floor_by_cosine_law_and_attenuation(void **state) {
  (void)state;
  const double els[2] = {30, 60};
  for (int k = 0; k < 2; k++) {
    double s1, s0;
    const double with = floor_green(els[k], 1, &s1), without = floor_green(els[k], 0, &s0);
    const double got = with - without, want = sun_share(els[k]), sem = sqrt(s1 * s1 + s0 * s0);
    print_message("sun at %.0f deg: %.4f (want %.4f, sem %.4f; sky alone %.4f)\n", els[k], got, want, sem, without);
    assert_true(sem < 0.0025 * want);
    assert_true(fabs(got - want) < 0.01 * want);
    assert_true(without > 0.0);
  }
}

/* Fraction of a disc of unit radius beyond a straight edge at signed
 * distance s from its centre (s > 0: the centre is uncovered). */
static double disc_fraction(double s) {
  if (s <= -1) return 0;
  if (s >= 1) return 1;
  return 1 - (acos(s) - s * sqrt(1 - s * s)) / M_PI;
}

static void test_sun_sized_disc_casts_circular_segment_penumbra(void **state) {
  (void)state;
  sensim_world *w = floor_world();
  /* A plate 50 m up covering x < 0, the sun (0.53 deg, E = 1) at the zenith:
   * the penumbra spans |x| < 50 tan(0.265 deg) = 0.231 m. */
  sensim_material m;
  sensim_material_init(&m);
  rf_plane(w, 400, (sensim_vec3){-200, 0, 50}, &m);
  sensim_light l;
  sensim_light_init(&l);
  l.direction = (sensim_vec3){0, 0, -1};
  l.angular_diameter = (float)(0.53 * M_PI / 180);
  SENSIM_OK_OR_FAIL(sensim_light_add(w, &l));
  const double hw = 50 * tan(0.265 * M_PI / 180);
  const double s[5] = {-1.3, -0.5, 0, 0.5, 1.3};
  sensim_sensor *cams[5];
  for (int i = 0; i < 5; i++)
    cams[i] = rf_camera(w, (sensim_vec3){s[i] * hw, -3, 1}, (sensim_vec3){0, 3, -1}, 8, 8, 1e-5, 256, 1);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  for (int i = 0; i < 5; i++) {
    const sensim_frame *f = NULL;
    SENSIM_OK_OR_FAIL(sensim_sensor_poll(cams[i], &f));
    double sem;
    const double got = rf_mean(f, 1, &sem) / (RHO / M_PI), want = disc_fraction(s[i]);
    print_message("penumbra at s = %+.1f: %.4f (want %.4f, sem %.4f)\n", s[i], got, want, sem / (RHO / M_PI));
    assert_true(fabs(got - want) < 0.02);
  }
  sensim_world_destroy(w);
}

static void test_sky_is_brighter_towards_the_sun_and_dark_below_horizon(void **state) {
  (void)state;
  sensim_world *w = rf_world(0);
  sky(w, 20, 0);
  /* Two cameras at the horizon + 10 deg, towards and away from the sun
   * (azimuth 0.3 rad from north towards east), one looking down at the void. */
  const double az = 0.3, c10 = cos(10 * M_PI / 180), s10 = sin(10 * M_PI / 180);
  sensim_sensor *to = rf_camera(w, (sensim_vec3){0, 0, 0}, (sensim_vec3){c10 * sin(az), c10 * cos(az), s10}, 2, 2, 1e-3, 1, 0);
  sensim_sensor *away =
      rf_camera(w, (sensim_vec3){0, 0, 0}, (sensim_vec3){-c10 * sin(az), -c10 * cos(az), s10}, 2, 2, 1e-3, 1, 0);
  sensim_sensor *down = rf_camera(w, (sensim_vec3){0, 0, 0}, (sensim_vec3){0.1, 0, -1}, 2, 2, 1e-3, 1, 0);
  SENSIM_OK_OR_FAIL(sensim_world_advance(w, 0.0));
  const sensim_frame *ft = NULL, *fa = NULL, *fd = NULL;
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(to, &ft));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(away, &fa));
  SENSIM_OK_OR_FAIL(sensim_sensor_poll(down, &fd));
  const double lt = rf_mean(ft, 1, NULL), la = rf_mean(fa, 1, NULL);
  print_message("sky towards the sun %.3f, away %.3f\n", lt, la);
  assert_true(lt > 1.5 * la && la > 0.0);
  /* Blue sky away from the sun: blue above red. */
  assert_true(rf_mean(fa, 2, NULL) > rf_mean(fa, 0, NULL));
  assert_true(rf_mean(fd, 0, NULL) == 0.0 && rf_mean(fd, 1, NULL) == 0.0);
  sensim_world_destroy(w);
}

static void test_sky_rejects_bad_parameters(void **state) {
  (void)state;
  sensim_world *w = rf_world(0);
  sensim_environment e;
  sensim_environment_init(&e);
  e.type = SENSIM_ENVIRONMENT_SKY;
  e.turbidity = 1.0;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "turbidity"));
  e.turbidity = 3.0;
  e.sun_elevation = 2.0;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "sun_elevation"));
  e.sun_elevation = 0.5;
  e.sun_azimuth = NAN;
  assert_int_equal(sensim_world_set_environment(w, &e), SENSIM_EINVAL);
  assert_int_equal(sensim_world_set_environment_json(w, "{\"type\": \"sky\", \"turbidity\": 12}", NULL), SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "turbidity"));
  SENSIM_OK_OR_FAIL(sensim_world_set_environment_json(
      w, "{\"type\": \"sky\", \"sun_elevation_deg\": 10, \"sun_azimuth_deg\": 90, \"turbidity\": 2.5, \"sun\": false}", NULL));
  SENSIM_OK_OR_FAIL(sensim_world_get_environment(w, &e));
  assert_int_equal(e.type, SENSIM_ENVIRONMENT_SKY);
  assert_true(fabs(e.sun_elevation - 10 * M_PI / 180) < 1e-12 && e.sun == 0);
  sensim_world_destroy(w);
}

int sensim_test_render_sky(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sun_disc_lights_floor_by_cosine_law_and_attenuation),
      cmocka_unit_test(test_sun_sized_disc_casts_circular_segment_penumbra),
      cmocka_unit_test(test_sky_is_brighter_towards_the_sun_and_dark_below_horizon),
      cmocka_unit_test(test_sky_rejects_bad_parameters),
  };
  return cmocka_run_group_tests_name("render_sky", tests, NULL, NULL);
}
