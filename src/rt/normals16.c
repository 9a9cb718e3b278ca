/* rt/normals16.c: the world-space normals of a 16-ray packet's hits on one
 * static body, 16 lanes at once (the camera's 4 x 4 tiles hit a few bodies
 * each: the street, a wall, a car). x = (m0 gx + m1 gy) + m2 gz and so on,
 * then n = x (1 / sqrt((x x + y y) + z z)): the float operations of
 * rt/trace.c's one-by-one path in the same order, so the same bits. Built
 * with -O3 -fno-math-errno -fno-trapping-math (CMakeLists.txt) so that the
 * loop is vectorised; plain and AVX2 builds chosen at run time (core/cpu.h)
 * give the same bits (no fused multiply-add). */
#include <math.h>
#include "core/cpu.h"
#include "rt/rt_internal.h"

static inline __attribute__((always_inline)) void kernel(const float *restrict m, const float *restrict gx,
                                                         const float *restrict gy, const float *restrict gz,
                                                         unsigned lanes, float *restrict nx, float *restrict ny,
                                                         float *restrict nz) {
  for (int l = 0; l < 16; l++) {
    const float x = m[0] * gx[l] + m[1] * gy[l] + m[2] * gz[l];
    const float y = m[3] * gx[l] + m[4] * gy[l] + m[5] * gz[l];
    const float z = m[6] * gx[l] + m[7] * gy[l] + m[8] * gz[l];
    const float inv = 1.0f / sqrtf(x * x + y * y + z * z);
    const int mine = (lanes >> l) & 1;
    const float ox = nx[l], oy = ny[l], oz = nz[l];
    nx[l] = mine ? x * inv : ox;
    ny[l] = mine ? y * inv : oy;
    nz[l] = mine ? z * inv : oz;
  }
}

static void plain(const float *m, const float *gx, const float *gy, const float *gz, unsigned lanes, float *nx,
                  float *ny, float *nz) {
  kernel(m, gx, gy, gz, lanes, nx, ny, nz);
}

#if defined(SENSIM_HAVE_AVX2_PATHS)
__attribute__((target("avx2"))) static void avx2(const float *m, const float *gx, const float *gy, const float *gz,
                                                 unsigned lanes, float *nx, float *ny, float *nz) {
  kernel(m, gx, gy, gz, lanes, nx, ny, nz);
}
#endif

void sensim__rt_body_normals16(const float m[9], const float gx[16], const float gy[16], const float gz[16],
                               unsigned lanes, float nx[16], float ny[16], float nz[16]) {
#if defined(SENSIM_HAVE_AVX2_PATHS)
  if (sensim__cpu_has_avx2()) {
    avx2(m, gx, gy, gz, lanes, nx, ny, nz);
    return;
  }
#endif
  plain(m, gx, gy, gz, lanes, nx, ny, nz);
}
