/* tests/test_alloc.c: how often sensim allocates in steady state (issue
 * 17: no per-frame allocation, a frame pool per sensor). This binary is
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
 * (tests/CMakeLists.txt), so every call sensim's own objects make goes
 * through the counters below first; calls inside shared libraries (Embree,
 * GSL, cJSON, libc's own strdup) are not seen, which is what we want: the
 * frame pool is about sensim's allocations. Its groups live in
 * tests/alloc/. */
#include "alloc/alloc_count.h"
#include "support/testutil.h"

int main(void) {
  int failed = sensim_test_steady_alloc();
  failed += sensim_test_malloc_fail();
  return failed ? 1 : 0;
}
