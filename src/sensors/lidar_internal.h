/* sensors/lidar_internal.h: the lidar's configuration, its beam footprint
 * and the grouping of sub-ray hits into returns. Not installed. */
#ifndef SENSIM_SENSORS_LIDAR_INTERNAL_H
#define SENSIM_SENSORS_LIDAR_INTERNAL_H

#include "sensim/lidar.h"
#include "sensors/traced.h"

/* Sub-rays of one beam: angular offsets from the beam's axis and the
 * fraction of the beam's energy each carries (sensors/lidar_beam.c). */
typedef struct sensim_lidar_footprint {
  int n;
  float *dh;  /* azimuth offset, rad (positive: counter-clockwise) */
  float *dv;  /* elevation offset, rad (positive: up) */
  float *w;   /* energy fraction, sums to 1 */
} sensim_lidar_footprint;

/* The footprint pattern for p's shape, divergence and sub-ray count (the
 * pattern is stated in lidar_beam.c and docs/lidar.md). SENSIM_EINVAL for
 * subrays > 1 without divergence, and the like. */
sensim_status sensim__lidar_footprint_init(const sensim_lidar_params *p, sensim_lidar_footprint *fp);
void sensim__lidar_footprint_free(sensim_lidar_footprint *fp);

/* One sub-ray's hit, as the generator measured it. */
typedef struct sensim_lidar_hit {
  float range;      /* m along the sub-ray; 0 for a miss or outside [min, max] range */
  float power;      /* received power, relative: w rho cos(theta) exp(-2 beta R) / R^2 */
  float intensity;  /* rho |cos(theta)| of the surface hit */
} sensim_lidar_hit;

typedef struct sensim_lidar_return {
  float range;      /* m */
  float intensity;  /* rho |cos theta|, power-weighted over the return's hits, unquantised */
  float power;      /* summed received power of the return's hits */
} sensim_lidar_return;

typedef struct sensim_lidar {
  sensim_lidar_params p;                      /* table pointers cleared: copied below */
  double elev[SENSIM_LIDAR_MAX_CHANNELS];     /* rad, per channel in firing order */
  double az_off[SENSIM_LIDAR_MAX_CHANNELS];   /* rad */
  double fire_off[SENSIM_LIDAR_MAX_CHANNELS]; /* s */
  uint16_t ring[SENSIM_LIDAR_MAX_CHANNELS];   /* rank by elevation, 0 = lowest */
  int nret;                                   /* returns per beam: 1, or 2 for dual */
  double beta;                                /* total extinction, 1/m */
  double p_min;                               /* detection threshold on received power */
  sensim_lidar_footprint fp;
  float (*dir0)[3];  /* per (channel, sub-ray): unit direction at column azimuth 0 */
  float *dsoa;       /* dir0 as three arrays (x of every sub-ray, then y, then z), padded by 8 */
  double *col_az;    /* per column: azimuth, rad (one allocation with col_cs) */
  double *col_cs;    /* per column: cos and sin of col_az */
} sensim_lidar;

/* Group one beam's sub-ray hits into returns: hits within
 * range_resolution of each other form one return (range = power-weighted
 * mean), returns below L->p_min are dropped, and the mode picks what is
 * reported (sensors/lidar_beam.c). Writes up to L->nret returns, in the
 * order the mode defines (dual: strongest, then last; the same return
 * once if they coincide), and returns how many. */
int sensim__lidar_returns(const sensim_lidar *L, const sensim_lidar_hit *h, int n, sensim_lidar_return out[2]);

/* A body's lidar reflectance: per triangle, or its material's. */
typedef struct sensim_lidar_refl {
  const float *tri; /* the mesh's tri_reflectance, or NULL */
  double rho;       /* the material's reflectance */
} sensim_lidar_refl;

/* What every band of columns of one capture shares, read-only. */
typedef struct sensim_lidar_scan {
  const sensim_lidar *l;
  const sensim_lidar_refl *refl;
  sensim_rt_view *view;
  const sensim_pose_table *poses;
  sensim_beam *out;
  double win, t0, qmax, inv_qmax;
  float tfar;
  int still; /* no instance moves: ray times are irrelevant */
} sensim_lidar_scan;

/* A band of columns [j0, j1) traced by one pool job, with its own scratch
 * buffers; columns are independent, so the beams are the same however
 * the scan is banded. */
typedef struct sensim_lidar_band {
  const sensim_lidar_scan *sc;
  int j0, j1;
  sensim_status rc;
  char error[256];
} sensim_lidar_band;

/* Trace the columns of one band (a sensim_lidar_band *, sensors/lidar_columns.c);
 * a pool job. */
void sensim__lidar_columns_run(void *arg);

#endif
