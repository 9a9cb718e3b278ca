/* tests/io/scenario_weather_tests.c: "world": {"weather": {...}} reaches
 * the world (docs/scenario.md, docs/weather.md), and bad weather is refused
 * naming its key. */
#include <string.h>
#include "io/scenario_fixtures.h"
#include "support/testutil.h"

#define WX(body) "{\"duration\": 0.1, \"world\": {\"threads\": 0, \"weather\": " body "}}"

static void test_scenario_weather_reaches_the_world(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      WX("{\"fog_visibility\": 250, \"rain_rate\": 12.5, \"snow_rate\": 0.75}"), NULL, &scn));
  const sensim_weather *wx = &sensim_world_params_get(sensim_scenario_world(scn))->weather;
  assert_true(wx->fog_visibility == 250 && wx->rain_rate == 12.5 && wx->snow_rate == 0.75);
  sensim_scenario_destroy(scn);
  /* Keys left out are clear; no weather block at all is clear. */
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(WX("{\"rain_rate\": 3}"), NULL, &scn));
  wx = &sensim_world_params_get(sensim_scenario_world(scn))->weather;
  assert_true(wx->fog_visibility == 0 && wx->rain_rate == 3 && wx->snow_rate == 0);
  sensim_scenario_destroy(scn);
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string("{\"duration\": 0.1}", NULL, &scn));
  wx = &sensim_world_params_get(sensim_scenario_world(scn))->weather;
  assert_true(wx->fog_visibility == 0 && wx->rain_rate == 0 && wx->snow_rate == 0);
  sensim_scenario_destroy(scn);
}

static const bad_case bad_weather[] = {
    {WX("{\"rain_rate\": -1}"), SENSIM_EINVAL, "world: weather.rain_rate = -1 mm/h must be in [0, 300]"},
    {WX("{\"rain_rate\": 1e6}"), SENSIM_EINVAL, "weather.rain_rate"},
    {WX("{\"snow_rate\": 40}"), SENSIM_EINVAL, "weather.snow_rate = 40 mm/h of melted water"},
    {WX("{\"fog_visibility\": 0.2}"), SENSIM_EINVAL, "weather.fog_visibility = 0.2 m"},
    {WX("{\"fog_visibility\": -5}"), SENSIM_EINVAL, "weather.fog_visibility"},
    {WX("{\"rain_rate\": \"heavy\"}"), SENSIM_EPARSE, "world.weather.rain_rate"},
    {WX("{\"hail_rate\": 1}"), SENSIM_EPARSE, "world.weather.hail_rate: unknown key"},
    {WX("{\"rain_rat\": 1}"), SENSIM_EPARSE, "did you mean 'rain_rate'?"},
    {WX("5"), SENSIM_EPARSE, "world.weather"},
};

static void test_scenario_bad_weather_is_refused_naming_the_key(void **state) {
  (void)state;
  scenario_expect_bad_cases(bad_weather, sizeof bad_weather / sizeof bad_weather[0], NULL);
}

int sensim_test_scenario_weather(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_weather_reaches_the_world),
      cmocka_unit_test(test_scenario_bad_weather_is_refused_naming_the_key),
  };
  return cmocka_run_group_tests_name("scenario_weather", tests, NULL, NULL);
}
