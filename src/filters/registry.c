/* filters/registry.c: the table of built-in filters, by name. Each filter
 * lives in its own file and exports one sensim_builtin_filter. */
#include <string.h>
#include "filters/builtin.h"

static const sensim_builtin_filter *const builtins[] = {
    &sensim__filter_srgb8, &sensim__filter_depth, &sensim__filter_labels, &sensim__filter_normals, &sensim__filter_image_noise,
    &sensim__filter_points, &sensim__filter_range_noise, &sensim__filter_lidar_noise, &sensim__filter_deskew,
    &sensim__filter_organized, &sensim__filter_range_image, &sensim__filter_birdseye, &sensim__filter_gnss_noise, &sensim__filter_imu_noise,
    &sensim__filter_image_sensor, &sensim__filter_noise_intensity, &sensim__filter_noise_emva1288,
    &sensim__filter_cfa, &sensim__filter_adc, &sensim__filter_raw16, &sensim__filter_demosaic,
    &sensim__filter_white_balance, &sensim__filter_ccm, &sensim__filter_match_stats, &sensim__filter_auto_exposure,
    &sensim__filter_tone, &sensim__filter_quantize, &sensim__filter_quantize16, &sensim__filter_quantize_gray,
    &sensim__filter_quantize_gray16, &sensim__filter_grayscale, &sensim__filter_downsample,
    &sensim__filter_gnss_random_walk, &sensim__filter_gnss_hdop, &sensim__filter_gnss_gauss_markov,
    &sensim__filter_gnss_outage, &sensim__filter_mag_noise, &sensim__filter_jpeg,
    &sensim__filter_blooming, &sensim__filter_glare, &sensim__filter_lens_flare, &sensim__filter_denoise,
    &sensim__filter_radar_fft, &sensim__filter_radar_cfar};

#define NBUILTINS (sizeof builtins / sizeof builtins[0])

const sensim_builtin_filter *sensim__filter_find(const char *name) {
  for (size_t i = 0; i < NBUILTINS; i++)
    if (strcmp(builtins[i]->def.name, name) == 0) return builtins[i];
  return NULL;
}

const char *const *sensim_filter_names(void) {
  static const char *names[NBUILTINS + 1];
  /* Filled on each call from the constant table: idempotent, so concurrent
   * callers write the same values. */
  for (size_t i = 0; i < NBUILTINS; i++) names[i] = builtins[i]->def.name;
  names[NBUILTINS] = NULL;
  return names;
}
