/* tests/io/scenario_tiles_tests.c: a scenario's "tiles" (docs/scenario.md)
 * become the world's tiles: files relative to the scenario's folder, the
 * near one read once the lidar runs, the far one never; bad entries fail
 * naming the entry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "scene/scene.h"
#include "support/testutil.h"

#define TDIR SENSIM_TEST_TMP "/scenario_tiles"

static void wall(const char *name, double x) {
  FILE *f = fopen(test_path(TDIR, name), "w");
  assert_non_null(f);
  fprintf(f, "v %g -10 0\nv %g 10 0\nv %g 10 6\nv %g -10 6\nf 1 3 2\nf 1 4 3\n", x, x, x, x);
  fclose(f);
}

static const char *scenario(const char *tiles) {
  static char json[1024];
  snprintf(json, sizeof json,
           "{\"duration\": 0.2, \"step\": 0.1, \"tiles\": [%s],"
           " \"sensors\": [{\"name\": \"l\", \"type\": \"lidar\", \"preset\": \"VLP-16\", \"max_range\": 40}]}",
           tiles);
  return json;
}

static void test_scenario_tiles(void **state) {
  (void)state;
  test_remove_tree(TDIR);
  assert_true(mkdir(SENSIM_TEST_TMP, 0755) == 0 || errno == EEXIST);
  assert_int_equal(mkdir(TDIR, 0755), 0);
  wall("near.obj", 20.0);
  wall("far.obj", 300.0);
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      scenario("{\"file\": \"near.obj\", \"bounds\": [19, -10, 0, 21, 10, 6], \"class_id\": 7},"
               "{\"file\": \"far.obj\", \"bounds\": [299, -10, 0, 301, 10, 6]}"),
      TDIR, &scn));
  sensim_world *w = sensim_scenario_world(scn);
  assert_int_equal(w->ntiles, 2);
  assert_int_equal(sensim_tile_state_get(w->tiles[0]), SENSIM_TILE_PENDING);
  SENSIM_OK_OR_FAIL(sensim_scenario_step_to(scn, 0.1));
  assert_int_equal(sensim_tile_state_get(w->tiles[0]), SENSIM_TILE_LOADED);
  assert_int_equal(w->bodies[w->nbodies - 1]->class_id, 7);
  assert_int_equal(sensim_tile_state_get(w->tiles[1]), SENSIM_TILE_PENDING);
  sensim_scenario_destroy(scn);

  scn = NULL;
  assert_int_equal(sensim_scenario_load_string(
                       scenario("{\"file\": \"near.obj\", \"bounds\": [21, -10, 0, 19, 10, 6]}"), TDIR, &scn),
                   SENSIM_EINVAL);
  assert_non_null(strstr(sensim_last_error(), "tiles[0]"));
  assert_non_null(strstr(sensim_last_error(), "inverted"));
  assert_int_equal(sensim_scenario_load_string(scenario("{\"file\": \"near.obj\"}"), TDIR, &scn), SENSIM_EPARSE);
  assert_non_null(strstr(sensim_last_error(), "bounds"));
  assert_int_equal(
      sensim_scenario_load_string(scenario("{\"file\": \"near.obj\", \"bounds\": [0, 0, 0, 1, 1, 1], \"size\": 2}"),
                                  TDIR, &scn),
      SENSIM_EPARSE);
  assert_null(scn);
}

int sensim_test_scenario_tiles(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_scenario_tiles)};
  return cmocka_run_group_tests_name("scenario_tiles", tests, NULL, NULL);
}
