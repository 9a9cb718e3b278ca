/* tests/test_radar.c: the radar's test binary; its groups live in tests/radar/. */
#include "support/testutil.h"
#include "radar/radar_groups.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_radar_model();
  failed += sensim_test_radar_detect();
  failed += sensim_test_radar_io();
  failed += sensim_test_radar_facets();
  failed += sensim_test_radar_fmcw();
  failed += sensim_test_radar_cfar();
  failed += sensim_test_radar_dbscan();
  return failed ? 1 : 0;
}
