/* core/fmcw.h: what the radar's raw FMCW chain shares below the sensor:
 * the windows by value and by name (the "radar_fft" filter, the radar's
 * range_doppler output, the scenario loader) and the channel-summed power
 * of a range-Doppler map (the "radar_cfar" filter, the map's picture).
 * Not installed. */
#ifndef SENSIM_CORE_FMCW_H
#define SENSIM_CORE_FMCW_H

#include <stddef.h>
#include "sensim/frame.h"

/* Names of the windows in enum order ("rect", "hann", "hamming",
 * "blackman"), NULL-terminated. */
extern const char *const sensim__fmcw_window_names[];

/* Sample i of the n-point symmetric window w (Harris, Proc. IEEE 66(1),
 * 1978, eqs. 27a-30a with the ends at i = 0 and n - 1); 1 for n < 2. */
double sensim__fmcw_window(sensim_fmcw_window w, size_t i, size_t n);

/* power[d * range + r] = sum over channels of |X[m][d][r]|^2 for a
 * radar_rd frame (frame.fmcw: samples range bins, chirps Doppler bins). */
void sensim__rd_power(const sensim_frame *f, float *power);

#endif
