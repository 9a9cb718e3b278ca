/* sensors/radar.c: the radar's parameters, presets and checks, its kind,
 * and the generator that traces the echoes (radar_trace.c) and detects
 * them (radar_detect.c). The model is in radar.h and docs/radar.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/internal.h"
#include "filters/radar_fft.h"
#include "sensors/radar_internal.h"
#include "sensors/traced.h"

#define DEG (M_PI / 180.0)
#define KMH (1.0 / 3.6)

/* Continental ARS 408-21 Premium Long Range Radar Sensor 77 GHz, technical
 * data sheet (Continental Engineering Services, 2017), far and near scan:
 *   range 0.20-250 m (far), 0.20-70 m (near, +-45 deg);
 *   range resolution 1.79 m far, 0.39 m near; accuracy +-0.40 m, +-0.10 m;
 *   azimuth field -9..+9 deg far, -60..+60 deg near; elevation 14 deg far,
 *   20 deg near; 3 dB azimuth beam width 2.2 deg far, 4.4 deg near (at 0);
 *   azimuth resolution 1.6 deg far, 3.2 deg near (at 0); accuracy +-0.1 deg
 *   far, +-0.3 deg near; velocity -400..+200 km/h; velocity resolution
 *   0.37 km/h far, 0.43 km/h near; accuracy 0.1 km/h; 76-77 GHz.
 * From these: B = c / (2 dR), cpi = lambda / (2 dv), the sigmas are the
 * accuracies (taken as one sigma). Chosen, not on the data sheet:
 * P_t = 10 dBm (a typical 77 GHz transmitter), the gain from the beam
 * widths by Kraus's approximation G = 41253 / (theta_az theta_el) deg^2
 * (Balanis, "Antenna Theory", 3rd ed., eq. 2-27), noise figure 12 dB, a
 * 12 dB threshold, elevation noise 1 deg (the sensor reports no elevation)
 * and the losses L, set so that a 10 dBsm target at the data sheet's
 * maximum range gives exactly the threshold SNR (they lump what the
 * data sheet does not give: duty cycle, windowing, fluctuation margin). */
typedef struct preset {
  const char *name;
  double range_res, vel_res_kmh, hfov_deg, vfov_deg, beam_az_deg, az_res_deg, max_range, sigma_r, sigma_az_deg,
      spacing_deg;
} preset;

static const preset presets[] = {
    {"ARS408-21-far", 1.79, 0.37, 18.0, 14.0, 2.2, 1.6, 250.0, 0.40, 0.1, 0.2},
    {"ARS408-21-near", 0.39, 0.43, 120.0, 20.0, 4.4, 3.2, 70.0, 0.10, 0.3, 0.4},
};
static const char *const preset_names[] = {"ARS408-21-far", "ARS408-21-near", NULL};

const char *const *sensim_radar_preset_names(void) { return preset_names; }

static void apply(const preset *q, sensim_radar_params *p) {
  memset(p, 0, sizeof *p);
  p->frequency = 76.5e9;
  const double lambda = SENSIM__C0 / p->frequency;
  p->tx_power = 0.01;
  p->antenna_gain = 10.0 * log10(41253.0 / (q->beam_az_deg * q->vfov_deg));
  p->noise_figure = 12.0;
  p->snr_threshold = 12.0;
  p->bandwidth = SENSIM__C0 / (2.0 * q->range_res);
  p->cpi = lambda / (2.0 * q->vel_res_kmh * KMH);
  p->hfov = q->hfov_deg * DEG;
  p->vfov = q->vfov_deg * DEG;
  p->azimuth_resolution = q->az_res_deg * DEG;
  p->ray_spacing = q->spacing_deg * DEG;
  p->min_range = 0.2;
  p->max_range = q->max_range;
  p->min_velocity = -400.0 * KMH;
  p->max_velocity = 200.0 * KMH;
  p->max_bounces = 3;
  p->sigma_range = q->sigma_r;
  p->sigma_azimuth = q->sigma_az_deg * DEG;
  p->sigma_elevation = 1.0 * DEG;
  p->sigma_velocity = 0.1 * KMH;
  /* The data sheet's 2.2 / 4.4 deg is the beamformed azimuth resolution,
   * not the gain pattern over the field: chosen, the one-way pattern is at
   * half power at the field's edges (-6 dB two-way), so targets there fade
   * as the data sheet's detection ranges at the field's edges do. */
  p->beam_width_az = p->hfov;
  p->beam_width_el = p->vfov;
  /* Raw FMCW, chosen (not on the data sheet), in the range of TI's AWR1843
   * (3 TX, 4 RX, up to 25 Msps complex): 256 samples at 10 Msps, so the
   * sampled ramp of 25.6 us sweeps `bandwidth` (S = B f_s / N) and 256
   * range bins of c / 2B reach 1.8 max_range; 256 loops of 2 chirps fill
   * the CPI (T_c = cpi / (C tx)). */
  p->output = SENSIM_RADAR_DETECTIONS;
  p->sample_rate = 10e6;
  p->samples = 256;
  p->chirps = 256;
  p->chirp_slope = 0.0;
  p->chirp_interval = 0.0;
  p->tx = 2;
  p->rx = 4;
  p->window = SENSIM_FMCW_HANN;
  /* L such that SNR(10 m^2 at max_range) = threshold:
   * P_t G^2 lambda^2 sigma cpi / ((4 pi)^3 R^4 k T0 F) / L = SNR_min. */
  const double g = pow(10.0, p->antenna_gain / 10.0), F = pow(10.0, p->noise_figure / 10.0);
  const double snr = p->tx_power * g * g * lambda * lambda * 10.0 * p->cpi /
                     (pow(4.0 * M_PI, 3) * pow(p->max_range, 4) * SENSIM__BOLTZMANN * SENSIM__T0 * F);
  p->losses = 10.0 * log10(snr) - p->snr_threshold;
}

void sensim_radar_params_init(sensim_radar_params *p) {
  if (p) apply(&presets[0], p);
}

sensim_status sensim_radar_preset(const char *name, sensim_radar_params *p) {
  if (!name || !p) return sensim__fail(SENSIM_EINVAL, "sensim_radar_preset: NULL argument");
  for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
    if (strcmp(name, presets[i].name) == 0) {
      apply(&presets[i], p);
      return SENSIM_OK;
    }
  char hint[96];
  return sensim__fail(SENSIM_ENOTFOUND, "unknown radar preset '%.64s'%s (ARS408-21-far, ARS408-21-near)", name,
                      sensim__did_you_mean(hint, sizeof hint, name, preset_names));
}

static sensim_status bad(const char *field, double v, const char *need) {
  return sensim__fail(SENSIM_EINVAL, "radar %s = %g must be %s", field, v, need);
}

/* The raw FMCW fields; the chirp's own constraints only bind when the
 * sensor gives raw output, so a detections radar keeps any max_range. */
static sensim_status check_fmcw(const sensim_radar_params *p) {
  if ((unsigned)p->output > (unsigned)SENSIM_RADAR_RANGE_DOPPLER)
    return bad("output", (double)p->output, "detections (0), adc (1) or range_doppler (2)");
  if (!(p->sample_rate >= 1e4 && p->sample_rate <= 1e10))
    return bad("sample_rate", p->sample_rate, "in [1e4, 1e10] Hz");
  if (p->samples < 8 || p->samples > 16384) return bad("samples", p->samples, "in [8, 16384]");
  if (p->chirps < 1 || p->chirps > 16384) return bad("chirps", p->chirps, "in [1, 16384]");
  if (!(p->chirp_slope >= 0 && p->chirp_slope <= 1e16))
    return bad("chirp_slope", p->chirp_slope, "in [0, 1e16] Hz/s (0: bandwidth sample_rate / samples)");
  if (!(p->chirp_interval >= 0 && p->chirp_interval <= 1))
    return bad("chirp_interval", p->chirp_interval, "in [0, 1] s (0: cpi / (chirps tx))");
  if (p->tx < 1 || p->tx > 16) return bad("tx", p->tx, "in [1, 16] (transmitters)");
  if (p->rx < 1 || p->rx > 64) return bad("rx", p->rx, "in [1, 64] (receive channels)");
  if ((unsigned)p->window > (unsigned)SENSIM_FMCW_BLACKMAN)
    return bad("window", (double)p->window, "rect (0), hann (1), hamming (2) or blackman (3)");
  if (p->output == SENSIM_RADAR_DETECTIONS) return SENSIM_OK;
  const double cube = (double)p->chirps * p->tx * p->rx * p->samples;
  if (cube > 67108864.0)
    return sensim__fail(SENSIM_EINVAL, "radar: chirps x tx x rx x samples = %g complex samples exceed 2^26", cube);
  sensim_fmcw_info f;
  sensim__radar_fmcw_info(p, &f);
  const double ramp = p->samples / p->sample_rate;
  if (f.chirp_interval < ramp)
    return sensim__fail(SENSIM_EINVAL,
                        "radar chirp_interval = %g s is shorter than the sampled ramp samples / sample_rate "
                        "= %g s (with chirp_interval 0: cpi / (chirps tx) is)",
                        f.chirp_interval, ramp);
  /* Complex (IQ) sampling: a beat frequency f_b is unambiguous up to f_s,
   * so f_s >= f_b(max_range) = 2 S R_max / c (TI SWRA553, eq. 9, for IQ). */
  const double fb = 2.0 * f.chirp_slope * p->max_range / SENSIM__C0;
  if (p->sample_rate < fb)
    return sensim__fail(SENSIM_EINVAL,
                        "radar sample_rate = %g Hz aliases: the beat frequency of max_range = %g m is "
                        "2 S R / c = %g Hz with chirp slope S = %g Hz/s (complex IQ sampling needs "
                        "sample_rate >= it)",
                        p->sample_rate, p->max_range, fb, f.chirp_slope);
  return SENSIM_OK;
}

sensim_status sensim_radar_params_check(const sensim_radar_params *p) {
  if (!p) return sensim__fail(SENSIM_EINVAL, "radar: params are NULL");
  if (!(p->frequency >= 1e9 && p->frequency <= 3e11)) return bad("frequency", p->frequency, "in [1e9, 3e11] Hz");
  if (!(p->tx_power > 0 && isfinite(p->tx_power))) return bad("tx_power", p->tx_power, "finite and > 0 W");
  if (!(p->antenna_gain >= -10 && p->antenna_gain <= 60))
    return bad("antenna_gain", p->antenna_gain, "in [-10, 60] dBi");
  if (!(p->losses >= 0 && p->losses <= 200)) return bad("losses", p->losses, "in [0, 200] dB");
  if (!(p->noise_figure >= 0 && p->noise_figure <= 100))
    return bad("noise_figure", p->noise_figure, "in [0, 100] dB");
  if (!(p->bandwidth >= 1e3 && p->bandwidth <= 1e11)) return bad("bandwidth", p->bandwidth, "in [1e3, 1e11] Hz");
  if (!(p->cpi > 0 && p->cpi <= 10)) return bad("cpi", p->cpi, "in (0, 10] s");
  if (!(p->hfov > 0 && p->hfov < M_PI)) return bad("hfov", p->hfov, "in (0, pi) rad");
  if (!(p->vfov > 0 && p->vfov < M_PI)) return bad("vfov", p->vfov, "in (0, pi) rad");
  if (!(p->azimuth_resolution > 0 && p->azimuth_resolution <= M_PI))
    return bad("azimuth_resolution", p->azimuth_resolution, "in (0, pi] rad");
  if (!(p->ray_spacing > 0 && p->ray_spacing <= 0.5 * p->azimuth_resolution))
    return bad("ray_spacing", p->ray_spacing, "> 0 and at most azimuth_resolution / 2 rad");
  if (!(p->min_range >= 0 && isfinite(p->min_range))) return bad("min_range", p->min_range, "finite and >= 0 m");
  if (!(p->max_range > p->min_range && p->max_range <= 1e5))
    return bad("max_range", p->max_range, "> min_range and at most 1e5 m");
  if (!(p->min_velocity > -1e4 && p->min_velocity < 1e4))
    return bad("min_velocity", p->min_velocity, "in (-1e4, 1e4) m/s");
  if (!(p->max_velocity > p->min_velocity && p->max_velocity < 1e4))
    return bad("max_velocity", p->max_velocity, "> min_velocity and below 1e4 m/s");
  if (!(p->snr_threshold >= -50 && p->snr_threshold <= 100))
    return bad("snr_threshold", p->snr_threshold, "in [-50, 100] dB");
  if (p->max_bounces < 1 || p->max_bounces > 8) return bad("max_bounces", p->max_bounces, "in [1, 8]");
  const double sig[4] = {p->sigma_range, p->sigma_azimuth, p->sigma_elevation, p->sigma_velocity};
  static const char *const sn[4] = {"sigma_range", "sigma_azimuth", "sigma_elevation", "sigma_velocity"};
  for (int i = 0; i < 4; i++)
    if (!(sig[i] >= 0 && isfinite(sig[i]))) return bad(sn[i], sig[i], "finite and >= 0");
  if (!(p->beam_width_az >= 0 && p->beam_width_az <= 2.0 * M_PI))
    return bad("beam_width_az", p->beam_width_az, "in [0, 2 pi] rad (0: uniform)");
  if (!(p->beam_width_el >= 0 && p->beam_width_el <= 2.0 * M_PI))
    return bad("beam_width_el", p->beam_width_el, "in [0, 2 pi] rad (0: uniform)");
  const double naz = ceil(p->hfov / p->ray_spacing), nel = ceil(p->vfov / p->ray_spacing);
  if (naz * nel > 4194304.0)
    return sensim__fail(SENSIM_EINVAL, "radar: %g x %g rays (field of view / ray_spacing) exceed 2^22", naz, nel);
  /* Range and velocity bins are ints. */
  if (p->max_range / (SENSIM__C0 / (2.0 * p->bandwidth)) > 1e8)
    return sensim__fail(SENSIM_EINVAL, "radar: max_range / range resolution exceeds 1e8 cells");
  return check_fmcw(p);
}

static double radar_default_window(const void *impl, double rate) {
  (void)rate;
  return ((const sensim__radar *)impl)->p.cpi;
}

static void radar_destroy(void *impl) { free(impl); }

static sensim_status radar_generate(sensim_capture_ctx ctx, sensim_frame *frame) {
  sensim__radar_echoes ec = {NULL, 0, 0};
  sensim_status rc = sensim__radar_trace(&ctx, &ec);
  if (rc == SENSIM_OK) {
    const sensim_radar_output out = ((const sensim__radar *)ctx.impl)->p.output;
    if (out == SENSIM_RADAR_DETECTIONS)
      rc = sensim__radar_detect(&ctx, ec.e, ec.n, frame);
    else
      rc = sensim__radar_adc(&ctx, ec.e, ec.n, frame);
    if (rc == SENSIM_OK && out == SENSIM_RADAR_RANGE_DOPPLER) rc = sensim__radar_fft(frame, frame->fmcw.window);
  }
  free(ec.e);
  return rc;
}

/* One kind per output, as a kind names its raw payload. */
#define RADAR_KIND(payload)                                                                                  \
  {.name = "radar",                                                                                         \
   .raw_type = payload,                                                                                     \
   .needs_geometry = 1,                                                                                     \
   .default_window = radar_default_window,                                                                  \
   .generate = radar_generate,                                                                              \
   .destroy = radar_destroy,                                                                                \
   .prepare = sensim__traced_prepare,                                                                       \
   .release_aux = sensim__traced_release}
static const sensim_sensor_kind radar_kinds[3] = {RADAR_KIND(SENSIM_PAYLOAD_RADAR),
                                                  RADAR_KIND(SENSIM_PAYLOAD_RADAR_CUBE),
                                                  RADAR_KIND(SENSIM_PAYLOAD_RADAR_RD)};

sensim_status sensim_radar_create(sensim_world *world, const sensim_sensor_params *sp, const sensim_radar_params *rp,
                                  sensim_sensor **out) {
  if (!world) return sensim__fail(SENSIM_EINVAL, "radar: world is NULL");
  if (!sp) return sensim__fail(SENSIM_EINVAL, "radar: sensor params are NULL");
  if (!out) return sensim__fail(SENSIM_EINVAL, "radar: out is NULL");
  sensim_status rc = sensim_radar_params_check(rp);
  if (rc) return rc;
  sensim__radar *r = malloc(sizeof *r);
  if (!r) return sensim__fail(SENSIM_ENOMEM, "out of memory for a radar");
  sensim__radar_init(r, rp);
  return sensim__sensor_create(world, sp, &radar_kinds[rp->output], r, out);
}

void sensim__radar_init(sensim__radar *r, const sensim_radar_params *rp) {
  r->p = *rp;
  r->lambda = SENSIM__C0 / rp->frequency;
  r->k = 2.0 * M_PI / r->lambda;
  r->dr = SENSIM__C0 / (2.0 * rp->bandwidth);
  r->dv = r->lambda / (2.0 * rp->cpi);
  const double g = pow(10.0, rp->antenna_gain / 10.0);
  r->K = rp->tx_power * g * g * r->lambda * r->lambda / (pow(4.0 * M_PI, 3) * pow(10.0, rp->losses / 10.0));
  r->noise = SENSIM__BOLTZMANN * SENSIM__T0 * pow(10.0, rp->noise_figure / 10.0) / rp->cpi;
  r->snr_min = pow(10.0, rp->snr_threshold / 10.0);
  r->naz = (int)ceil(rp->hfov / rp->ray_spacing);
  r->nel = (int)ceil(rp->vfov / rp->ray_spacing);
}
