/* tests/test_robust.c: issue 14, "no input crashes sensim": the bad-input
 * matrix over the public API, the limits of world coordinates, times and
 * scenario runs, and the removal of crashed writers' temporary files; the
 * groups live in tests/robust/. */
#include "robust/robust_groups.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_robust_limits();
  failed += sensim_test_robust_scenario_limits();
  failed += sensim_test_robust_temp_files();
  failed += sensim_test_robust_matrix();
  return failed ? 1 : 0;
}
