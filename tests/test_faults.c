/* tests/test_faults.c: the faults module's test binary (a full disk
 * through the preloaded tests/shim/enospc_shim.c); its groups live in
 * tests/faults/. */
#include "support/testutil.h"

int sensim_test_enospc(void); /* tests/faults/enospc_tests.c */

int main(void) { return sensim_test_enospc() ? 1 : 0; }
