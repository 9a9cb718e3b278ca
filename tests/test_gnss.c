/* tests/test_gnss.c: the GNSS test binary (receiver, geodesy, error
 * filters, NMEA and CSV output, the satellites mode); its groups live in tests/gnss/. */
#include "gnss/gnss_groups.h"
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_gnss_geodesy();
  failed += sensim_test_gnss_receiver();
  failed += sensim_test_gnss_noise_models();
  failed += sensim_test_gnss_hdop_outage();
  failed += sensim_test_gnss_nmea();
  failed += sensim_test_gnss_outputs();
  failed += sensim_test_gnss_satellite_orbits();
  failed += sensim_test_gnss_satellite_models();
  failed += sensim_test_gnss_satellite_fixes();
  failed += sensim_test_gnss_satellite_sky();
  failed += sensim_test_gnss_satellite_inputs();
  return failed ? 1 : 0;
}
