/* tests/test_scene.c: the scene module's test binary; its groups live in tests/scene/. */
#include "support/testutil.h"

int main(void) {
  int failed = 0;
  failed += sensim_test_keyframes();
  failed += sensim_test_world();
  failed += sensim_test_mesh_import();
  failed += sensim_test_materials();
  failed += sensim_test_gltf_materials();
  return failed ? 1 : 0;
}
