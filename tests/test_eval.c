/* tests/test_eval.c: the eval module's test binary; its groups live in tests/eval/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_allan();
  failed += sensim_test_noise_calib();
  return failed ? 1 : 0;
}
