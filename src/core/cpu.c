/* core/cpu.c: the switch that sends every SIMD kernel down its plain path
 * (core/cpu.h). */
#include "core/cpu.h"

#if defined(SENSIM_HAVE_AVX2_PATHS)
atomic_int sensim__cpu_avx2_off = 0;
#else
typedef int sensim__cpu_no_avx2_paths; /* ISO C wants a declaration in every file */
#endif
