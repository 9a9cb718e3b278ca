/* io/scenario_radar.c: the radar's keys in a scenario file (docs/radar.md,
 * "Scenario keys"). Angles are given in degrees (keys ending in _deg),
 * everything else in the units of sensim_radar_params (radar.h). */
#include <math.h>
#include <string.h>
#include "core/internal.h"
#include "io/scenario_internal.h"
#include "core/fmcw.h"
#include "io/scenario_radar.h"

#define DEG (3.14159265358979323846 / 180.0)

const char *const sensim__scenario_radar_keys[] = {
    "preset",         "frequency",    "tx_power",     "antenna_gain",    "losses",
    "noise_figure",   "bandwidth",    "cpi",          "hfov_deg",        "vfov_deg",
    "azimuth_resolution_deg", "ray_spacing_deg", "min_range", "max_range",  "min_velocity",
    "max_velocity",   "snr_threshold", "max_bounces", "sigma_range",     "sigma_azimuth_deg",
    "sigma_elevation_deg", "sigma_velocity", "beam_width_az_deg", "beam_width_el_deg",
    "output_mode",    "sample_rate",  "samples",      "chirps",          "chirp_slope",
    "chirp_interval", "tx",           "rx",           "fft_window",      NULL};

/* A key whose value is one of `names` (enum order) into *out; absent: kept. */
static sensim_status name_key(const cJSON *obj, const char *path, const char *key, const char *const *names,
                              const char *list, int *out) {
  const char *v = NULL;
  sensim_status st = sensim__jstring(obj, path, key, 0, &v);
  if (st != SENSIM_OK || !v) return st;
  for (int i = 0; names[i]; i++)
    if (strcmp(v, names[i]) == 0) {
      *out = i;
      return SENSIM_OK;
    }
  char hint[96];
  return sensim__fail(SENSIM_EINVAL, "%s.%s: unknown value '%s'%s (%s)", path, key, v,
                      sensim__did_you_mean(hint, sizeof hint, v, names), list);
}

sensim_status sensim__scenario_radar(const cJSON *obj, const char *path, sensim_radar_params *rp) {
  if (!obj || !path || !rp) return sensim__fail(SENSIM_EINVAL, "scenario radar: NULL argument");
  const char *preset = NULL;
  sensim_status st = sensim__jstring(obj, path, "preset", 0, &preset);
  if (st != SENSIM_OK) return st;
  if (preset && (st = sensim_radar_preset(preset, rp)) != SENSIM_OK) {
    sensim__error_context("%s.preset", path); /* the message lists the presets */
    return st;
  }
  struct {
    const char *key;
    double *field;
    double scale; /* file value times scale is the field */
  } num[] = {{"frequency", &rp->frequency, 1.0},
             {"tx_power", &rp->tx_power, 1.0},
             {"antenna_gain", &rp->antenna_gain, 1.0},
             {"losses", &rp->losses, 1.0},
             {"noise_figure", &rp->noise_figure, 1.0},
             {"bandwidth", &rp->bandwidth, 1.0},
             {"cpi", &rp->cpi, 1.0},
             {"hfov_deg", &rp->hfov, DEG},
             {"vfov_deg", &rp->vfov, DEG},
             {"azimuth_resolution_deg", &rp->azimuth_resolution, DEG},
             {"ray_spacing_deg", &rp->ray_spacing, DEG},
             {"min_range", &rp->min_range, 1.0},
             {"max_range", &rp->max_range, 1.0},
             {"min_velocity", &rp->min_velocity, 1.0},
             {"max_velocity", &rp->max_velocity, 1.0},
             {"snr_threshold", &rp->snr_threshold, 1.0},
             {"sigma_range", &rp->sigma_range, 1.0},
             {"sigma_azimuth_deg", &rp->sigma_azimuth, DEG},
             {"sigma_elevation_deg", &rp->sigma_elevation, DEG},
             {"sigma_velocity", &rp->sigma_velocity, 1.0},
             {"beam_width_az_deg", &rp->beam_width_az, DEG},
             {"beam_width_el_deg", &rp->beam_width_el, DEG}};
  for (size_t i = 0; i < sizeof num / sizeof num[0] && st == SENSIM_OK; i++) {
    double v = *num[i].field / num[i].scale;
    st = sensim__jnumber(obj, path, num[i].key, 0, &v);
    if (st == SENSIM_OK) *num[i].field = v * num[i].scale;
  }
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "sample_rate", 0, &rp->sample_rate);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "chirp_slope", 0, &rp->chirp_slope);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "chirp_interval", 0, &rp->chirp_interval);
  struct {
    const char *key;
    int *field;
    int lo, hi;
  } ints[] = {{"max_bounces", &rp->max_bounces, 1, 8}, {"samples", &rp->samples, 8, 16384},
              {"chirps", &rp->chirps, 1, 16384},     {"tx", &rp->tx, 1, 16},
              {"rx", &rp->rx, 1, 64}};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0] && st == SENSIM_OK; i++) {
    double v = *ints[i].field;
    st = sensim__jint(obj, path, ints[i].key, 0, ints[i].lo, ints[i].hi, &v);
    if (st == SENSIM_OK) *ints[i].field = (int)v;
  }
  static const char *const outputs[] = {"detections", "adc", "range_doppler", NULL};
  int mode = (int)rp->output, window = (int)rp->window;
  if (st == SENSIM_OK)
    st = name_key(obj, path, "output_mode", outputs, "detections, adc, range_doppler", &mode);
  if (st == SENSIM_OK)
    st = name_key(obj, path, "fft_window", sensim__fmcw_window_names, "rect, hann, hamming, blackman", &window);
  if (st != SENSIM_OK) return st;
  rp->output = (sensim_radar_output)mode;
  rp->window = (sensim_fmcw_window)window;
  st = sensim_radar_params_check(rp);
  if (st != SENSIM_OK) sensim__error_context("%s", path);
  return st;
}
