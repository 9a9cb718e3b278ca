/* tests/radar/io_tests.c: scenario keys, presets and CSV. */
#include "support/testutil.h"
#include "radar/radar_groups.h"

int sensim_test_radar_io(void) { return 0; }
