/* tests/test_cone.c: the cone sensor's test binary; its groups live in tests/cone/. */
#include "support/testutil.h"
#include "cone/cone_groups.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_cone_geometry();
  failed += sensim_test_cone_lines();
  failed += sensim_test_cone_exact();
  failed += sensim_test_cone_sensor();
  failed += sensim_test_cone_io();
  failed += sensim_test_cone_scenario();
  return failed ? 1 : 0;
}
