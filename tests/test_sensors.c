/* tests/test_sensors.c: the sensors module's test binary; its groups live in tests/sensors/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_camera();
  failed += sensim_test_camera_render();
  failed += sensim_test_camera_materials();
  failed += sensim_test_camera_dof();
  failed += sensim_test_optics();
  failed += sensim_test_optics_models();
  failed += sensim_test_lens_table();
  failed += sensim_test_lidar();
  failed += sensim_test_lidar_speed();
  failed += sensim_test_lidar_footprint();
  failed += sensim_test_lidar_returns();
  failed += sensim_test_lidar_noise();
  failed += sensim_test_lidar_presets();
  failed += sensim_test_lidar_rolling_scan();
  failed += sensim_test_lidar_deskew();
  failed += sensim_test_lidar_semantic();
  failed += sensim_test_weather();
  failed += sensim_test_weather_camera();
  failed += sensim_test_gnss();
  failed += sensim_test_imu();
  return failed ? 1 : 0;
}
