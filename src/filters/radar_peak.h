/* filters/radar_peak.h: what the radar's detector reads off a range-
 * Doppler map at a peak: its fractional bins and its azimuth from the
 * virtual array (radar_peak.c; core/fmcw.h has the channel-summed
 * power). Not installed. */
#ifndef SENSIM_FILTERS_RADAR_PEAK_H
#define SENSIM_FILTERS_RADAR_PEAK_H

#include <stddef.h>
#include "sensim/frame.h"

/* Peak (d, r) of power [nd][nr] refined by a parabola through the log
 * power of it and its two neighbours along each axis (Doppler wraps,
 * range stops at the edges): *fd and *fr get offsets in [-0.5, 0.5]. */
void sensim__rd_refine(const float *power, int nd, int nr, int d, int r, double *fd, double *fr);

/* sin(az) cos(el) of the strongest arrival at cell (d, r) of an RD frame:
 * the channels' values, each transmitter's Doppler phase over its slot
 * removed for radial velocity v (m/s; TDM-MIMO), through a DFT zero-
 * padded to npad points (> channels), peak refined by a parabola; 0 for
 * one channel. */
double sensim__rd_angle(const sensim_frame *f, int d, int r, double v, int npad);

#endif
