/* tests/test_io.c: the io module's test binary; its groups live in tests/io/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_writers();
  failed += sensim_test_payload_golden();
  failed += sensim_test_payload_formats();
  failed += sensim_test_scenario();
  failed += sensim_test_scenario_motion();
  failed += sensim_test_scenario_camera();
  failed += sensim_test_scenario_lidar();
  failed += sensim_test_scenario_weather();
  failed += sensim_test_scenario_instances();
  failed += sensim_test_scenario_api();
  failed += sensim_test_scenario_tiles();
  failed += sensim_test_png_read();
  failed += sensim_test_ply();
  failed += sensim_test_pcd();
  failed += sensim_test_texture_png();
  failed += sensim_test_doc_examples();
  failed += sensim_test_record_files();
  failed += sensim_test_record();
  failed += sensim_test_disk_full();
  failed += sensim_test_record_ros();
  failed += sensim_test_record_frames();
  failed += sensim_test_record_crash();
  return failed ? 1 : 0;
}
