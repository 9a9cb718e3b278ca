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
 * records (frame.h), nearest first. Default window: the CPI. */
#ifndef SENSIM_RADAR_H
#define SENSIM_RADAR_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

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
