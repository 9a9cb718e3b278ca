/* tests/test_ablate.c: camera-stage ablation, augmentations and the image
 * statistics report (issue 8); its groups live in tests/ablate/. */
#include "ablate/ablate_groups.h"
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_augment_distort();
  failed += sensim_test_augment_noise();
  failed += sensim_test_augment_mosaic();
  failed += sensim_test_augment_color();
  failed += sensim_test_image_report();
  failed += sensim_test_ablate_scenario();
  failed += sensim_test_ablate_view_variants();
  failed += sensim_test_ablate_cli();
  failed += sensim_test_ablate_summary();
  return failed ? 1 : 0;
}
