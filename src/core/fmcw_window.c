/* core/fmcw_window.c: the raw FMCW chain's windows (core/fmcw_window.h). */
#include <math.h>
#include "core/fmcw_window.h"
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
