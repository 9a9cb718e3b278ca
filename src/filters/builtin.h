/* filters/builtin.h: the built-in filters, one exported
 * sensim_builtin_filter per file (filters/registry.c lists them by name;
 * tests and benches take them from here to drive a filter directly). Not
 * installed. */
#ifndef SENSIM_FILTERS_BUILTIN_H
#define SENSIM_FILTERS_BUILTIN_H

#include "filters/chain.h"

/* Lidar, depth, labels and the other derived outputs. */
extern const sensim_builtin_filter sensim__filter_srgb8;
extern const sensim_builtin_filter sensim__filter_depth;
extern const sensim_builtin_filter sensim__filter_labels;
extern const sensim_builtin_filter sensim__filter_normals;
extern const sensim_builtin_filter sensim__filter_image_noise;
extern const sensim_builtin_filter sensim__filter_points;
extern const sensim_builtin_filter sensim__filter_range_noise;
extern const sensim_builtin_filter sensim__filter_lidar_noise;
extern const sensim_builtin_filter sensim__filter_deskew;
extern const sensim_builtin_filter sensim__filter_organized;
extern const sensim_builtin_filter sensim__filter_range_image;
extern const sensim_builtin_filter sensim__filter_birdseye;
extern const sensim_builtin_filter sensim__filter_gnss_noise;
extern const sensim_builtin_filter sensim__filter_imu_noise;
/* GNSS error models (docs/gnss.md). */
extern const sensim_builtin_filter sensim__filter_gnss_random_walk;
extern const sensim_builtin_filter sensim__filter_gnss_hdop;
extern const sensim_builtin_filter sensim__filter_gnss_gauss_markov;
extern const sensim_builtin_filter sensim__filter_gnss_outage;
extern const sensim_builtin_filter sensim__filter_mag_noise;

/* Camera pipeline: image sensor, noise, colour filter array, ISP. */
extern const sensim_builtin_filter sensim__filter_image_sensor;
extern const sensim_builtin_filter sensim__filter_noise_intensity;
extern const sensim_builtin_filter sensim__filter_noise_emva1288;
extern const sensim_builtin_filter sensim__filter_cfa;
extern const sensim_builtin_filter sensim__filter_adc;
extern const sensim_builtin_filter sensim__filter_demosaic;
extern const sensim_builtin_filter sensim__filter_white_balance;
extern const sensim_builtin_filter sensim__filter_ccm;
extern const sensim_builtin_filter sensim__filter_match_stats;
extern const sensim_builtin_filter sensim__filter_auto_exposure;
extern const sensim_builtin_filter sensim__filter_tone;
extern const sensim_builtin_filter sensim__filter_raw16;
extern const sensim_builtin_filter sensim__filter_quantize;
extern const sensim_builtin_filter sensim__filter_quantize16;
extern const sensim_builtin_filter sensim__filter_quantize_gray;
extern const sensim_builtin_filter sensim__filter_quantize_gray16;
extern const sensim_builtin_filter sensim__filter_grayscale;
extern const sensim_builtin_filter sensim__filter_downsample;
/* Camera effects: compression artefacts, blooming, glare, lens flare. */
extern const sensim_builtin_filter sensim__filter_jpeg;
extern const sensim_builtin_filter sensim__filter_blooming;
extern const sensim_builtin_filter sensim__filter_glare;
extern const sensim_builtin_filter sensim__filter_lens_flare;
extern const sensim_builtin_filter sensim__filter_denoise;
/* Radar's raw FMCW chain (docs/radar.md). */
extern const sensim_builtin_filter sensim__filter_radar_fft;
extern const sensim_builtin_filter sensim__filter_radar_cfar;
/* The glare filter's normalised kernel for `params` (as the filter parses
 * them): *k gets (2 radius + 1)^2 values, row-major from offset
 * (-radius, -radius), malloc'd for the caller to free (filters/glare.c). */
sensim_status sensim__glare_kernel(const cJSON *params, int *radius, double **k);

#endif
