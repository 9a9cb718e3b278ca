/* A scenario's "instances": a group of placements becomes one body of the
 * world with the given poses, ids and variation; bad groups are refused
 * naming the key or the placement. */
#include <string.h>
#include "io/scenario_fixtures.h"
#include "scene/scene.h"

#define INST(g)                                                                                         \
  "{\"duration\": 0.1, \"world\": {\"threads\": 0}, \"meshes\": [{\"name\": \"tree\", \"shape\": "      \
  "{\"kind\": \"cone\", \"size\": [1, 0, 3]}}], \"instances\": [" g "]}"

static void test_scenario_instances_make_one_body_of_placements(void **state) {
  (void)state;
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load_string(
      INST("{\"mesh\": \"tree\", \"class_id\": 4, \"albedo_jitter\": 0.2, \"reflectance_jitter\": 0.1,"
           " \"instance_ids\": [7, 9, 11], \"fast_bvh\": true,"
           " \"poses\": [{\"position\": [5, 0, 0]}, [0, 5, 0, 1, 0, 0, 0], {\"position\": [-5, 0, 0], \"rpy\": [0, 0, 1]}]}"),
      NULL, &scn));
  sensim_world *w = sensim_scenario_world(scn);
  assert_int_equal(w->nbodies, 1);
  const sensim_instance_group *g = w->bodies[0]->group;
  assert_non_null(g);
  assert_int_equal(g->n, 3);
  assert_int_equal(sensim__group_class(g, 2), 4);
  assert_int_equal(sensim__group_instance(g, 1), 9);
  assert_near(g->xf[1][10], 5.0, 0.0);           /* y of the seven-number placement */
  assert_near(g->xf[2][3], sin(1.0), 1e-6);       /* r10 of a 1 rad yaw */
  assert_true(g->fast_bvh && g->albedo_jitter == 0.2f && g->reflectance_jitter == 0.1f);
  sensim_scenario_destroy(scn);
}

static const bad_case bad_instances[] = {
    {INST("{\"mesh\": \"bush\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]]}"), SENSIM_ENOTFOUND,
     "instances[0].mesh: no mesh named 'bush'"},
    {INST("{\"mesh\": \"tree\", \"poses\": []}"), SENSIM_EINVAL, "instances[0].poses: 0 placements"},
    {INST("{\"mesh\": \"tree\"}"), SENSIM_EPARSE, "instances[0].poses"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 0, 0, 0, 0]]}"), SENSIM_EINVAL,
     "instances[0].poses[0]: the quaternion must not be zero"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1]]}"), SENSIM_EPARSE, "instances[0].poses[0]: must be a pose"},
    {INST("{\"mesh\": \"tree\", \"poses\": [{\"position\": [0, 0, 1e12]}]}"), SENSIM_EINVAL, "placement 0"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]], \"class_ids\": [70000]}"), SENSIM_EINVAL,
     "instances[0].class_ids[0]: must be an integer in [0, 65535]"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]], \"instance_ids\": [0]}"), SENSIM_EINVAL,
     "instances[0].instance_ids[0]: must be an integer in [1, 4294967295]"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]], \"instance_ids\": [1, 2]}"), SENSIM_EINVAL,
     "instances[0].instance_ids: 2 ids for 1 poses"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]], \"albedo_jitter\": 0.7}"), SENSIM_EINVAL,
     "albedo_jitter"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]], \"reflectance_jitter\": -1}"), SENSIM_EINVAL,
     "reflectance_jitter"},
    {INST("{\"mesh\": \"tree\", \"poses\": [[0, 0, 0, 1, 0, 0, 0]], \"colour_jitter\": 0.1}"), SENSIM_EPARSE,
     "instances[0].colour_jitter: unknown key"},
    {INST("5"), SENSIM_EPARSE, "instances[0]: must be an object"},
};

static void test_scenario_bad_instances_are_refused_naming_the_key(void **state) {
  (void)state;
  scenario_expect_bad_cases(bad_instances, sizeof bad_instances / sizeof bad_instances[0], NULL);
}

int sensim_test_scenario_instances(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_instances_make_one_body_of_placements),
      cmocka_unit_test(test_scenario_bad_instances_are_refused_naming_the_key),
  };
  return cmocka_run_group_tests_name("scenario_instances", tests, NULL, NULL);
}
