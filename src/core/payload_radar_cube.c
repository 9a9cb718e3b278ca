/* core/payload_radar_cube.c: the radar's raw FMCW samples
 * (SENSIM_PAYLOAD_RADAR_CUBE): sensim_complex32 [chirp][channel][sample],
 * width = samples per chirp, height = chirps x channels, read with
 * frame.fmcw (frame.h, docs/radar.md "Raw FMCW"). No CSV; written as
 * NumPy .npy (complex64, shape (chirps, channels, samples), io/npy.c). */
#include "core/payload.h"

const sensim__payload_desc sensim__payload_radar_cube = {
    .type = SENSIM_PAYLOAD_RADAR_CUBE,
    .name = "radar_cube",
    .elem_size = sizeof(sensim_complex32),
    .shape = SENSIM__SHAPE_RECORDS,
    .channels = 1,
    .sample = SENSIM_SAMPLE_STRUCT,
    .formats = (const char *const[]){"npy", NULL},
    .default_output = "npy",
};
