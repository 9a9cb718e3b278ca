/* core/fmcw_window.h: the windows of the radar's raw FMCW chain, by value
 * and by name (the "radar_fft" filter, the radar's range_doppler output
 * and the scenario loader share them). Not installed. */
#ifndef SENSIM_CORE_FMCW_WINDOW_H
#define SENSIM_CORE_FMCW_WINDOW_H

#include <stddef.h>
#include "sensim/frame.h"

/* Names of the windows in enum order ("rect", "hann", "hamming",
 * "blackman"), NULL-terminated. */
extern const char *const sensim__fmcw_window_names[];

/* Sample i of the n-point symmetric window w (Harris, Proc. IEEE 66(1),
 * 1978, eqs. 27a-30a with the ends at i = 0 and n - 1); 1 for n < 2. */
double sensim__fmcw_window(sensim_fmcw_window w, size_t i, size_t n);

#endif
