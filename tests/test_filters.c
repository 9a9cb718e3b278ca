/* tests/test_filters.c: the filters module's test binary; its groups live in tests/filters/. */
#include "support/testutil.h"

int sensim_test_poisson(void);  /* tests/filters/poisson_tests.c */
int sensim_test_isp_fast(void); /* tests/filters/isp_fast_tests.c */
int sensim_test_jpeg(void);     /* tests/filters/jpeg_tests.c */
int sensim_test_blooming(void); /* tests/filters/blooming_tests.c */
int sensim_test_glare(void);    /* tests/filters/glare_tests.c */
int sensim_test_lens_flare(void); /* tests/filters/lens_flare_tests.c */
int sensim_test_denoise(void);    /* tests/filters/denoise_tests.c */

int main(void) {
  int failed = 0;
  failed += sensim_test_chain();
  failed += sensim_test_standalone_chain();
  failed += sensim_test_noise_filters();
  failed += sensim_test_image_noise();
  failed += sensim_test_poisson();
  failed += sensim_test_image_sensor();
  failed += sensim_test_isp_color();
  failed += sensim_test_isp();
  failed += sensim_test_isp_fast();
  failed += sensim_test_lidar_outputs();
  failed += sensim_test_jpeg();
  failed += sensim_test_blooming();
  failed += sensim_test_glare();
  failed += sensim_test_lens_flare();
  failed += sensim_test_denoise();
  return failed ? 1 : 0;
}
