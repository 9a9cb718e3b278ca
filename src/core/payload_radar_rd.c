/* core/payload_radar_rd.c: the radar's range-Doppler map per channel
 * (SENSIM_PAYLOAD_RADAR_RD): sensim_complex32 [channel][doppler][range],
 * width = range bins, height = channels x Doppler bins, Doppler
 * fftshifted, read with frame.fmcw (frame.h, docs/radar.md "Raw FMCW").
 * No CSV; written as NumPy .npy (complex64, shape (channels, doppler,
 * range), io/npy.c). */
#include "core/payload.h"

const sensim__payload_desc sensim__payload_radar_rd = {
    .type = SENSIM_PAYLOAD_RADAR_RD,
    .name = "radar_rd",
    .elem_size = sizeof(sensim_complex32),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .formats = (const char *const[]){"npy", NULL},
    .default_output = "npy",
};
