/* sensim/radar.h: a ray-traced automotive radar (FMCW, digital beamforming).
 *
 * Rays. A grid of rays with spacing `ray_spacing` covers the field of view
 * (hfov x vfov about the sensor's +X), all at the centre of the coherent
 * processing interval (CPI, `cpi` s, ending at the capture time): a
 * beamforming radar observes every angle over the same CPI, and the
 * range-Doppler processing reports the scene as it was over that interval.
 * Each ray is followed through up to `max_bounces` specular reflections.
 * Single bounces do not depend on the rays: every lit facet of every body
 * in the field of view gives its physical-optics echo (docs/radar.md).
 * The antenna's gain falls off across the field as sinc^2 patterns of
 * the 3 dB beam widths, out and back.
 *
 * Echo. Received power follows the radar equation
 *   P_r = P_t G^2 lambda^2 sigma / ((4 pi)^3 R^4 L)
 * (Skolnik, "Introduction to Radar Systems", 3rd ed., 2001, eq. 1.6; L the
 * system losses). Contributions (docs/radar.md):
 *  - single bounce, from every lit facet in the field of view (not from
 *    the rays): coherent physical optics, the facet's PO integral in
 *    closed form (Gordon 1975) times sqrt(radar_specular), so a plate
 *    seen square-on gives 4 pi A^2 / lambda^2 at any far-field range; and
 *    incoherent Lambert, sigma0 = 4 rho_d cos^2(theta) per facet area
 *    (material radar_diffuse = rho_d);
 *  - after the second and later bounces, from the rays: the ray tube's
 *    exit aperture radiates back towards the radar as in
 *    shooting-and-bouncing rays (Ling, Chou, Lee, IEEE Trans. Antennas
 *    Propag. 37(2), 1989): amplitude (area) x (product of the bounces'
 *    radar_specular)^(1/2) x the aperture's pattern towards the radar,
 *    phase 2 pi L / lambda with L the path length.
 * Amplitudes in one resolution cell add as complex numbers and
 * sigma = 4 pi |sum|^2 / lambda^2 (a trihedral: 12 pi a^4 / lambda^2).
 * All carry the antenna pattern out and back and the rain's attenuation.
 * Range is half the path length, azimuth and elevation the direction the
 * echo arrives from (the last bounce point), radial velocity half the path
 * length's rate of change from the bodies' twists (> 0 receding, the
 * cone's convention).
 *
 * Detection. Contributions are binned into resolution cells of range
 * (c / 2B), radial velocity (lambda / (2 CPI)) and azimuth
 * (azimuth_resolution); a cell is over threshold when its SNR =
 * P_r CPI / (k T0 F) (matched filter over the CPI) reaches snr_threshold.
 * Cells over threshold are clustered by steepest ascent to their local
 * maximum (one detection per local maximum, power-weighted centroid),
 * then range, azimuth, elevation and velocity get Gaussian noise of the
 * datasheet's sigmas from the capture's counter-based streams.
 *
 * The raw payload is SENSIM_PAYLOAD_RADAR: count sensim_radar_detection
 * records (frame.h), nearest first. Default window: the CPI.
 *
 * Raw FMCW (output ADC or RANGE_DOPPLER). The same echoes become the beat
 * signal of C loops of tx chirps of slope S, sampled N times at f_s by
 * tx x rx virtual channels (frame.h, sensim_fmcw_info), with complex white
 * thermal noise of power k T0 F f_s per sample; the "radar_fft" filter
 * (or output RANGE_DOPPLER) makes the range-Doppler map, "radar_cfar"
 * detections from it (docs/radar.md, "Raw FMCW"). */
#ifndef SENSIM_RADAR_H
#define SENSIM_RADAR_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the radar gives (sensim_radar_params.output). */
typedef enum sensim_radar_output {
  SENSIM_RADAR_DETECTIONS = 0,  /* SENSIM_PAYLOAD_RADAR: detections (above) */
  SENSIM_RADAR_ADC = 1,         /* SENSIM_PAYLOAD_RADAR_CUBE: the beat signal's complex samples per
                                   chirp, channel and sample, thermal noise included */
  SENSIM_RADAR_RANGE_DOPPLER = 2 /* SENSIM_PAYLOAD_RADAR_RD: the cube after the windowed range and
                                    Doppler FFTs (what the "radar_fft" filter makes of it) */
} sensim_radar_output;

/* Defined since the raw FMCW output (its fields end sensim_radar_params):
 * code that builds against older versions too can test it. */
#define SENSIM_RADAR_FMCW 1

/* Most detections a frame reports (the strongest are kept). */
#define SENSIM_RADAR_MAX_DETECTIONS 4096

typedef struct sensim_radar_params {
  double frequency;          /* carrier frequency, Hz, [1e9, 3e11] [76.5e9] */
  double tx_power;           /* transmitted power P_t, W, > 0 [0.01] */
  double antenna_gain;       /* one-way antenna gain G, dBi, [-10, 60] [25] */
  double losses;             /* system losses L, dB, >= 0 [3] */
  double noise_figure;       /* receiver noise figure F, dB, >= 0 [12] */
  double bandwidth;          /* swept bandwidth B, Hz, > 0: range resolution c / 2B [384e6] */
  double cpi;                /* coherent processing interval, s, > 0: velocity
                                resolution lambda / (2 cpi) [0.02] */
  double hfov;               /* horizontal field of view about +X, rad, (0, pi) [18 deg] */
  double vfov;               /* vertical field of view about the XY plane, rad, (0, pi) [14 deg] */
  double azimuth_resolution; /* rad, > 0 [1.6 deg] */
  double ray_spacing;        /* angle between neighbouring rays, rad, > 0 and at most
                                azimuth_resolution / 2 [0.1 deg] */
  double min_range;          /* m, >= 0: nearer echoes are blanked [0.2] */
  double max_range;          /* m, > min_range: farther echoes are dropped [250] */
  double min_velocity;       /* m/s: slower radial velocities are dropped [-111.1] */
  double max_velocity;       /* m/s, > min_velocity [55.6] */
  double snr_threshold;      /* detection threshold on a cell's SNR, dB [12] */
  int max_bounces;           /* specular bounces followed per ray, [1, 8] [3] */
  double sigma_range;        /* noise on reported range, m, >= 0 [0.1] */
  double sigma_azimuth;      /* noise on reported azimuth, rad, >= 0 [0.1 deg] */
  double sigma_elevation;    /* noise on reported elevation, rad, >= 0 [0.5 deg] */
  double sigma_velocity;     /* noise on reported radial velocity, m/s, >= 0 [0.03] */
  double beam_width_az;      /* antenna's one-way 3 dB beam width in azimuth, rad, [0, 2 pi];
                                0: uniform gain [hfov] */
  double beam_width_el;      /* the same in elevation, rad, [0, 2 pi]; 0: uniform [vfov] */
  /* Raw FMCW output (docs/radar.md, "Raw FMCW"): the same echoes as the
   * detections, synthesised as the beat signal of a chirp sequence. */
  sensim_radar_output output; /* payload the sensor gives [SENSIM_RADAR_DETECTIONS] */
  double sample_rate;        /* complex (IQ) ADC sample rate f_s, Hz, [1e4, 1e10], at least the
                                beat frequency of max_range 2 S max_range / c [10e6] */
  int samples;               /* ADC samples per chirp N, [8, 16384] [256] */
  int chirps;                /* chirp loops per frame C (Doppler bins), [1, 16384] [256] */
  double chirp_slope;        /* S, Hz/s, >= 0; 0: bandwidth f_s / N, so the sampled part of
                                the ramp sweeps `bandwidth` [0] */
  double chirp_interval;     /* T_c, s, start to start of successive chirps, >= N / f_s;
                                0: cpi / (C tx), so the frame lasts `cpi` [0] */
  int tx;                    /* transmitters, taking turns (TDM-MIMO), [1, 16] [2] */
  int rx;                    /* receive channels, [1, 64] [4] */
  sensim_fmcw_window window; /* window of the range and Doppler FFTs [SENSIM_FMCW_HANN] */
} sensim_radar_params;

/* Defaults: a 77 GHz long-range radar (the "ARS408-21-far" preset's
 * angles with the near scan's bandwidth); see docs/radar.md. */
SENSIM_API void sensim_radar_params_init(sensim_radar_params *p);

/* Fill p with a datasheet's figures: "ARS408-21-far", "ARS408-21-near"
 * (Continental ARS 408-21, docs/radar.md says which figures are the
 * datasheet's and which are chosen). SENSIM_ENOTFOUND for an unknown name,
 * p unchanged. */
SENSIM_API sensim_status sensim_radar_preset(const char *name, sensim_radar_params *p);
/* Names of the presets, NULL-terminated. */
SENSIM_API const char *const *sensim_radar_preset_names(void);

/* Check every field: SENSIM_EINVAL with a message naming the field for a
 * value that is not finite or out of its range (above), or a field of view
 * that would need more than 2^22 rays. */
SENSIM_API sensim_status sensim_radar_params_check(const sensim_radar_params *p);

/* Create a radar (raw payload SENSIM_PAYLOAD_RADAR). `sp` and `rp` are
 * copied. On failure nothing is created and *out is left unchanged. */
SENSIM_API sensim_status sensim_radar_create(sensim_world *world, const sensim_sensor_params *sp,
                                             const sensim_radar_params *rp, sensim_sensor **out);

#ifdef __cplusplus
}
#endif
#endif
