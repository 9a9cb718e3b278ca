/* tests/test_sweep.c: sweeps (sensim_tools/sweep.h): loading and
 * expansion, bad input, JSON pointers, execution and reduction,
 * determinism and the vepd kind; its groups live in tests/sweep/. */
#include "sweep/sweep_groups.h"
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_sweep_json_pointer();
  failed += sensim_test_sweep_load();
  failed += sensim_test_sweep_bad_input();
  failed += sensim_test_sweep_exec();
  failed += sensim_test_sweep_determinism();
  failed += sensim_test_sweep_vepd();
  return failed ? 1 : 0;
}
