/* tests/test_runtime.c: the runtime module's test binary (clock, schedule,
 * capture context, registry, frame pool); its groups live in tests/runtime/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_schedule();
  failed += sensim_test_capture_ctx();
  failed += sensim_test_runtime_registry();
  failed += sensim_test_handover();
  failed += sensim_test_frame_pool();
  return failed ? 1 : 0;
}
