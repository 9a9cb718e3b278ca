/* filters/radar_fft.h: the radar's range and Doppler FFTs, cube -> range-
 * Doppler map ("radar_fft" filter, radar_fft.c), which the radar's
 * range_doppler output runs too. Not installed. */
#ifndef SENSIM_FILTERS_RADAR_FFT_H
#define SENSIM_FILTERS_RADAR_FFT_H

#include <stddef.h>
#include "sensim/frame.h"

/* Replace frame's SENSIM_PAYLOAD_RADAR_CUBE by its SENSIM_PAYLOAD_RADAR_RD:
 * per channel, window and FFT each chirp's samples (range), then each
 * range bin's chirps (Doppler, fftshifted so bin C/2 is 0 m/s);
 * frame->fmcw's window, gain and noise_power become the map's. SENSIM_ETYPE
 * for another payload; on failure the frame is unchanged. */
sensim_status sensim__radar_fft(sensim_frame *frame, sensim_fmcw_window w);

#endif
