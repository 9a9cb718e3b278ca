/* core/cpu.h: which SIMD paths this build and this CPU can take.
 *
 * SENSIM_HAVE_AVX2_PATHS is defined where the compiler can emit AVX2 code
 * for single functions (GCC and Clang on x86-64, with
 * __attribute__((target("avx2")))); sensim__cpu_has_avx2() then says, once
 * per process, whether the CPU running us has it. Kernels with an AVX2
 * version (Philox and Box-Muller in core/rng.c, the beam-to-point
 * conversion in filters/lidar_filters.c) choose with it at run time and
 * give the same bits either way. */
#ifndef SENSIM_CORE_CPU_H
#define SENSIM_CORE_CPU_H

#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__)
#define SENSIM_HAVE_AVX2_PATHS 1
#include <immintrin.h>
#include <stdatomic.h>

/* Nonzero: every kernel takes its plain path, as on a CPU without AVX2
 * (core/cpu.c). For tests that check both paths give the same bits; a
 * process that sets it should do so before any capture runs. */
extern atomic_int sensim__cpu_avx2_off;

static inline int sensim__cpu_has_avx2(void) {
  static atomic_int known = -1; /* every thread that looks computes the same value */
  if (atomic_load_explicit(&sensim__cpu_avx2_off, memory_order_relaxed)) return 0;
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (k < 0) {
    k = __builtin_cpu_supports("avx2") ? 1 : 0;
    atomic_store_explicit(&known, k, memory_order_relaxed);
  }
  return k;
}
#endif

#endif
