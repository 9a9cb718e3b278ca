/* tests/test_vepd.c: VEPD (RMSE, Wiener entropy, Wasserstein), its EKF
 * judge, the experiment runner and the commands; groups in tests/vepd/. */
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_vepd_metrics();
  failed += sensim_test_vepd_csv();
  failed += sensim_test_vepd_ekf();
  failed += sensim_test_vepd_experiment();
  failed += sensim_test_vepd_cli();
  failed += sensim_test_vepd_doc_variants();
  failed += sensim_test_vepd_published();
  return failed ? 1 : 0;
}
