/* tests/test_rt.c: the rt module's test binary; its groups live in tests/rt/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_rt_instances();
  failed += sensim_test_rt();
  failed += sensim_test_rt_steps();
  failed += sensim_test_rt_alpha();
  failed += sensim_test_rt_tiles();
  return failed ? 1 : 0;
}
