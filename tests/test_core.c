/* tests/test_core.c: the core module's test binary; its groups live in tests/core/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_math();
  failed += sensim_test_rng();
  failed += sensim_test_pool();
  failed += sensim_test_fork();
  failed += sensim_test_stash();
  failed += sensim_test_geodesy();
  failed += sensim_test_payload();
  failed += sensim_test_error();
  failed += sensim_test_suggest();
  return failed ? 1 : 0;
}
