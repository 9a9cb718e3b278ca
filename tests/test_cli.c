/* tests/test_cli.c: the cli module's test binary; its groups live in tests/cli/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_cli();
  failed += sensim_test_pictures_cli();
  failed += sensim_test_cli_help();
  failed += sensim_test_cli_run_output();
  failed += sensim_test_cli_record();
  failed += sensim_test_cli_sweep();
  return failed ? 1 : 0;
}
