/* tests/test_host.c: host integration: bounded work, callbacks, reset,
 * bad input, the 60 s multi-rate run and the MuJoCo cross-checks. */
#include "host/host_groups.h"
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_host_flow();
  failed += sensim_test_host_bad_input();
  failed += sensim_test_host_reset();
  failed += sensim_test_host_long_run();
  failed += sensim_test_host_mujoco();
  return failed ? 1 : 0;
}
