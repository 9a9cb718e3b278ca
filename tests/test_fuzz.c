/* tests/test_fuzz.c: the fuzzing corpus replay's test binary; its group
 * lives in tests/fuzz/. */
#include "support/testutil.h"

int sensim_test_fuzz_replay(void);

int main(void) {
  int failed = 0;
  failed += sensim_test_fuzz_replay();
  return failed ? 1 : 0;
}
