/* tests/test_sensors.c: the sensors module's test binary; its groups live in tests/sensors/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_schedule();
  failed += sensim_test_camera();
  failed += sensim_test_camera_render();
  failed += sensim_test_optics();
  failed += sensim_test_lens_table();
  failed += sensim_test_lidar();
  failed += sensim_test_lidar_beam();
  failed += sensim_test_lidar_scan();
  failed += sensim_test_gnss();
  failed += sensim_test_imu();
  return failed ? 1 : 0;
}
