/* sensim/lidar.h: time-of-flight lidars, spinning and fixed-grid.
 *
 * Scan. A spinning head fires a column of `channels` beams at each of
 * `columns` azimuth steps over `hfov`, one revolution per collection
 * window; each channel has its own elevation, azimuth offset and firing
 * delay inside the column, so every beam is traced at its own instant and a
 * scan taken while moving is distorted as a real one is. A fixed grid
 * (flash / solid-state) has the same rows x columns of directions but reads
 * them out row by row. Presets fill the datasheet tables of common sensors.
 *
 * Beam. Each beam is `subrays` rays spread over its divergence footprint;
 * their hits are grouped by range (range_resolution) and weighted by
 * received power into returns (strongest, first, last, mean or dual).
 * Received power follows the lidar equation for a Lambertian target,
 * P ~ rho cos(theta) exp(-2 beta R) / R^2; a return exists only above the
 * threshold that puts a reflectance-0.8 target (the datasheet figure) at
 * `detection_range`. Reported intensity is rho |cos(theta)| (range
 * compensated, as sensors calibrate it) quantised to `intensity_bits`.
 *
 * The raw payload is beams: columns x channels x returns, organised (column
 * j, channel c, return r at ((j * channels + c) * returns + r); range 0 where
 * there is no return). Every return carries the class and instance ids of
 * the body it hit (frame.h; 0 where there is none; a return merged from
 * several sub-ray hits: those of its strongest hit). Filters: "points"
 * (unorganised cloud), "organized" (rings x columns with missing points
 * NaN), "lidar_noise", "deskew", "range_image" (with a label plane of the
 * ids), "birdseye".
 *
 * Default window: 1 / rate (one revolution or one full readout per frame). */
#ifndef SENSIM_LIDAR_H
#define SENSIM_LIDAR_H

#include "sensim/export.h"

#include "sensim/sensor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SENSIM_LIDAR_MAX_CHANNELS 256
/* Most azimuth steps (columns) per scan: the one limit sensim_lidar_create
 * and the scenario key "columns" check. */
#define SENSIM_LIDAR_MAX_COLUMNS 1000000

typedef enum sensim_lidar_pattern {
  SENSIM_LIDAR_SPINNING = 0, /* columns swept by a rotating head */
  SENSIM_LIDAR_GRID          /* fixed rows x columns, read out row by row */
} sensim_lidar_pattern;

typedef enum sensim_beam_shape {
  SENSIM_BEAM_CIRCULAR = 0,  /* div_h is the full divergence angle */
  SENSIM_BEAM_ELLIPTICAL,    /* full angles div_h x div_v */
  SENSIM_BEAM_RECTANGULAR    /* full angles div_h x div_v, uniform */
} sensim_beam_shape;

typedef enum sensim_return_mode {
  SENSIM_RETURN_STRONGEST = 0,
  SENSIM_RETURN_FIRST,
  SENSIM_RETURN_LAST,
  SENSIM_RETURN_MEAN,        /* power-weighted mean range of the detected returns */
  SENSIM_RETURN_DUAL         /* strongest and last (2 returns per beam) */
} sensim_return_mode;

typedef struct sensim_lidar_params {
  sensim_lidar_pattern pattern;
  int channels;             /* beams per column (rows of a grid), 1..256 */
  double elev_min;          /* rad, lowest channel (uniform table) */
  double elev_max;          /* rad, highest channel (uniform table) */
  const double *elevations; /* optional, `channels` values, rad, in firing order, copied */
  const double *azimuth_offsets; /* optional per-channel azimuth offset, rad, copied */
  const double *firing_offsets;  /* optional per-channel firing delay inside a column
                                    (spinning) or row (grid), s, >= 0, copied */
  int columns;              /* azimuth steps per scan, >= 1 */
  double hfov;              /* horizontal field swept, rad, (0, 2 pi] */
  double start_azimuth;     /* azimuth of the first column, rad, CCW from +X */
  int clockwise;            /* spinning direction seen from above: 0 CCW, 1 CW */
  double min_range;         /* m: blanking; nearer returns are dropped */
  double max_range;         /* m: returns farther are dropped */
  /* beam model */
  double div_h, div_v;      /* full divergence angles, rad (0: an ideal ray) */
  sensim_beam_shape shape;
  int subrays;              /* rays sampling the footprint, >= 1 (> 1 needs divergence) */
  sensim_return_mode returns;
  double range_resolution;  /* m: hits closer than this merge into one return */
  /* radiometry */
  double detection_range;   /* m at which a reflectance-0.8 target at normal
                               incidence is just detected (datasheet range) */
  int intensity_bits;       /* quantisation of the reported intensity, 1..16 */
  double extinction;        /* atmospheric extinction coefficient, 1/m (two-way) */
  double fog_visibility;    /* m (Koschmieder, adds 3.912 / V to extinction); 0: none */
} sensim_lidar_params;

/* Defaults: a 16-channel spinning lidar, -15..+15 deg, 1800 columns over
 * 360 deg starting at -pi, CCW, 0.1 .. 100 m, ideal single-ray beams,
 * strongest return, range resolution 0.1 m, detection range 100 m, 8-bit
 * intensity, clear air. */
SENSIM_API void sensim_lidar_params_init(sensim_lidar_params *p);

/* Fill p with a sensor's datasheet tables and figures: "VLP-16", "HDL-32E",
 * "HDL-64E", "OS1-64", "OS1-128". The tables p points to are the library's,
 * valid for the life of the process. SENSIM_ENOTFOUND for an unknown name. */
SENSIM_API sensim_status sensim_lidar_preset(const char *name, sensim_lidar_params *p);
/* Names of the presets, NULL-terminated. */
SENSIM_API const char *const *sensim_lidar_preset_names(void);

SENSIM_API sensim_status sensim_lidar_create(sensim_world *world, const sensim_sensor_params *sp,
                                  const sensim_lidar_params *lp, sensim_sensor **out);

#ifdef __cplusplus
}
#endif
#endif
