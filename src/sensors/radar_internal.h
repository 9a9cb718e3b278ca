/* sensors/radar_internal.h: what the radar's files share: its resolved
 * configuration, the echoes the tracer gives (radar_trace.c) and the
 * detector that turns them into detections (radar_detect.c). Not
 * installed. */
#ifndef SENSIM_SENSORS_RADAR_INTERNAL_H
#define SENSIM_SENSORS_RADAR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "rt/rt.h"
#include "runtime/kind.h"
#include "sensim/radar.h"

/* Boltzmann's constant, J/K (SI 2019, exact), and the standard noise
 * temperature T0 = 290 K (IEEE Std 145; Skolnik sec. 2.3). */
#define SENSIM__BOLTZMANN 1.380649e-23
#define SENSIM__T0 290.0
/* Speed of light in vacuum, m/s (exact). */
#define SENSIM__C0 299792458.0

typedef struct sensim__radar {
  sensim_radar_params p; /* validated copy */
  double lambda;         /* wavelength c / f, m */
  double k;              /* wavenumber 2 pi / lambda, 1/m */
  double dr;             /* range resolution c / 2B, m */
  double dv;             /* velocity resolution lambda / (2 cpi), m/s */
  double K;              /* P_t G^2 lambda^2 / ((4 pi)^3 L), W m^2 : P_r = K sigma / R^4 */
  double noise;          /* noise power after the CPI's matched filter, k T0 F / cpi, W */
  double snr_min;        /* threshold, linear */
  int naz, nel;          /* rays per row and per column of the grid */
} sensim__radar;

/* Resolve r from checked parameters (radar.c). */
void sensim__radar_init(sensim__radar *r, const sensim_radar_params *rp);

/* One echo: a ray's diffuse return from its first hit, or its specular
 * return after one of its bounces. */
typedef struct sensim__radar_echo {
  double range;     /* m, half the path length */
  double vel;       /* m/s, half the path length's rate, > 0 receding */
  double az, el;    /* rad, arrival direction in the sensor frame */
  double re, im;    /* coherent amplitude (area x aperture pattern x reflection
                       amplitude / R^2, times exp(-j k L)), 1/m^0: m^2 / m^2 */
  double p_inc;     /* incoherent (diffuse) received power, W */
  double w;         /* the echo's own power, W: weight of its centroid */
  uint32_t instance;
  uint16_t class_id;
} sensim__radar_echo;

/* A growing array of echoes. */
typedef struct sensim__radar_echoes {
  sensim__radar_echo *e;
  size_t n, cap;
} sensim__radar_echoes;

/* Append an echo (grown with realloc). */
sensim_status sensim__radar_push(sensim__radar_echoes *out, const sensim__radar_echo *e);

/* Closest hits of the rays, looking through the carrier's own mesh (the
 * radar sits behind its bumper): a ray that hits snapshot body `skip`
 * goes on from there (up to 8 times). tmp_r, tmp_h and idx hold n each. */
void sensim__radar_intersect(const sensim_rt_view *view, sensim_rt_ray *rays, sensim_rt_hit *hits, size_t n,
                             int skip, sensim_rt_ray *tmp_r, sensim_rt_hit *tmp_h, size_t *idx);

/* Single-bounce echoes of every lit facet in the field of view by physical
 * optics and Lambert's law (radar_facets.c), appended to *out; `pose` and
 * `vs` the radar's pose and velocity at ray time t; `depth` the grid
 * rays' first-hit distances (naz x nel, row by row in elevation; INFINITY
 * for a miss), which spare the visibility rays of facets clearly behind
 * what every ray around them hits. */
sensim_status sensim__radar_facets(const sensim_capture_ctx *ctx, const sensim_rt_view *view, sensim_pose pose,
                                   sensim_vec3 vs, double t, double rain_db_per_m, const float *depth,
                                   sensim__radar_echoes *out);

/* The physical-optics integral I = int exp(j w . r) dA over the triangle
 * v[0..2] (m, relative to its centroid) for the phase gradient w (1/m;
 * its part normal to the triangle is ignored), in closed form (Gordon
 * 1975, radar_po.c): *re + j *im, m^2. */
void sensim__radar_po_triangle(const sensim_vec3 v[3], sensim_vec3 w, double *re, double *im);

/* One-way antenna power gain relative to boresight towards (az, el), rad:
 * separable sinc^2 patterns of the 3 dB beam widths (radar_antenna.c). */
double sensim__radar_gain(const sensim_radar_params *p, double az, double el);

/* Trace the capture's rays and collect their echoes into *out (grown with
 * realloc; the caller frees out->e). */
sensim_status sensim__radar_trace(const sensim_capture_ctx *ctx, sensim__radar_echoes *out);

/* Bin the echoes into resolution cells, threshold, cluster and add noise:
 * writes the frame's payload (nearest first). Reorders `e`. */
sensim_status sensim__radar_detect(const sensim_capture_ctx *ctx, sensim__radar_echo *e, size_t n,
                                   sensim_frame *frame);

/* The chirp sequence of p's raw FMCW fields, defaults resolved (chirp
 * slope, interval) and bins derived (radar_adc.c). */
void sensim__radar_fmcw_info(const sensim_radar_params *p, sensim_fmcw_info *f);

/* The echoes' beat signal per chirp, channel and sample plus thermal
 * noise: writes the frame's SENSIM_PAYLOAD_RADAR_CUBE and frame->fmcw
 * (radar_adc.c). */
sensim_status sensim__radar_adc(const sensim_capture_ctx *ctx, const sensim__radar_echo *e, size_t n,
                                sensim_frame *frame);

/* 2 J1(x) / x, the far-field amplitude pattern of a uniformly lit circular
 * aperture (Balanis, "Antenna Theory", 3rd ed., 2005, eq. 12-41), with
 * J1 from Abramowitz & Stegun 9.4.4 and 9.4.6 (error below 1e-7). */
double sensim__radar_jinc(double x);
/* Rain's specific attenuation at `frequency` (Hz) for `rain_rate` (mm/h),
 * dB/km, ITU-R P.838-3 for circular polarisation (radar_rain.c); 0
 * without rain. */
double sensim__radar_rain_db_per_km(double frequency, double rain_rate);
/* P.838-3's k_H, alpha_H, k_V, alpha_V at `frequency` (Hz), its frequency
 * fits (Tables 1-4), valid over 1-1000 GHz. */
void sensim__radar_rain_coefficients(double frequency, double *kh, double *ah, double *kv, double *av);

#endif
