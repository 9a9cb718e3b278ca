/* core/fmcw.c: the raw FMCW chain's windows and power map (core/fmcw.h). */
#include <math.h>
#include "core/fmcw.h"
#include "core/internal.h"

const char *const sensim__fmcw_window_names[] = {"rect", "hann", "hamming", "blackman", NULL};

double sensim__fmcw_window(sensim_fmcw_window w, size_t i, size_t n) {
  if (n < 2) return 1.0;
  const double x = 2.0 * M_PI * (double)i / (double)(n - 1);
  switch (w) {
    case SENSIM_FMCW_HANN: return 0.5 - 0.5 * cos(x);
    case SENSIM_FMCW_HAMMING: return 0.54 - 0.46 * cos(x);
    case SENSIM_FMCW_BLACKMAN: return 0.42 - 0.5 * cos(x) + 0.08 * cos(2.0 * x);
    case SENSIM_FMCW_RECT: break;
  }
  return 1.0;
}

void sensim__rd_power(const sensim_frame *f, float *power) {
  const size_t N = f->fmcw.samples, C = f->fmcw.chirps, M = (size_t)f->fmcw.tx * f->fmcw.rx;
  const float *x = f->data;
  for (size_t i = 0; i < N * C; i++) power[i] = 0.0f;
  for (size_t m = 0; m < M; m++)
    for (size_t i = 0; i < N * C; i++) {
      const float *v = x + 2 * (m * N * C + i);
      power[i] += v[0] * v[0] + v[1] * v[1];
    }
}
