/* tests/test_render.c: the path integrator's test binary (light transport
 * against closed forms); its groups live in tests/render/. */
#include "support/testutil.h"

int sensim_test_render_furnace(void);
int sensim_test_render_input(void);
int sensim_test_render_lights(void);
int sensim_test_render_sky(void);
int sensim_test_render_materials(void);
int sensim_test_render_gltf(void);
int sensim_test_render_hdr(void);

int main(void) {
  int failed = 0;
  failed += sensim_test_render_furnace();
  failed += sensim_test_render_input();
  failed += sensim_test_render_lights();
  failed += sensim_test_render_sky();
  failed += sensim_test_render_materials();
  failed += sensim_test_render_gltf();
  failed += sensim_test_render_hdr();
  return failed ? 1 : 0;
}
