/* tests/test_tools.c: the tools library's test binary (Allan deviation,
 * noise calibration, plots, colour maps, previews, contact sheets, the
 * bird's-eye figure, CSV tables); its groups live in tests/tools/. VEPD and
 * ablation have binaries of their own (test_vepd, test_ablate). */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_allan();
  failed += sensim_test_noise_calib();
  failed += sensim_test_plot();
  failed += sensim_test_colormap();
  failed += sensim_test_preview();
  failed += sensim_test_contact_sheet();
  failed += sensim_test_birdseye();
  failed += sensim_test_table();
  return failed ? 1 : 0;
}
