/* sensors/lidar_internal.h: the lidar's configuration, its beam footprint
 * and the grouping of sub-ray hits into returns. Not installed. */
#ifndef SENSIM_SENSORS_LIDAR_INTERNAL_H
#define SENSIM_SENSORS_LIDAR_INTERNAL_H

#include <math.h>
#include "core/internal.h"
#include "core/stash.h"
#include "scene/weather.h"
#include "sensim/lidar.h"
#include "sensim/rng.h"
#include "sensors/traced.h"
#include "sensors/window.h"

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
  unsigned body;    /* snapshot body index of the surface hit, ~0u for a miss */
  unsigned elem;    /* its placement (sensim_rt_hit.elem) */
} sensim_lidar_hit;

typedef struct sensim_lidar_return {
  float range;      /* m */
  float intensity;  /* rho |cos theta|, power-weighted over the return's hits, unquantised */
  float power;      /* summed received power of the return's hits */
  unsigned body;    /* snapshot body index of its strongest hit (the return's
                       semantic ids are that body's) */
  unsigned elem;    /* that hit's placement (sensim_rt_hit.elem) */
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
  sensim_stash scratch; /* spare band scratch blocks (sensim__lidar_band_scratch bytes) */
} sensim_lidar;

/* Group one beam's sub-ray hits into returns: hits within
 * range_resolution of each other form one return (range = power-weighted
 * mean), returns below L->p_min are dropped, and the mode picks what is
 * reported (sensors/lidar_beam.c). Writes up to L->nret returns, in the
 * order the mode defines (dual: strongest, then last; the same return
 * once if they coincide), and returns how many. A return's body is the
 * body of its hit with the most received power (the nearer one on a tie);
 * "mean" mode's, that of the strongest hit of all its groups. */
int sensim__lidar_returns(const sensim_lidar *L, const sensim_lidar_hit *h, int n, sensim_lidar_return out[2]);

/* A body's lidar reflectance (per triangle, or its material's) and the
 * semantic ids its returns carry. */
typedef struct sensim_lidar_refl {
  const float *tri;     /* the mesh's tri_reflectance, or NULL */
  double rho;           /* the material's reflectance */
  uint32_t class_id;    /* the body's class id (uint16 range), widened */
  uint32_t instance_id; /* the body's instance id */
  const sensim_instance_group *group; /* the body's placements (their ids and variation), or NULL */
} sensim_lidar_refl;

/* A hit on placement elem of br's body: its reflectance rho (the mesh's)
 * varied and clamped to [0, 1] as sensim_instances_desc says, and its ids;
 * the body's own for a plain body. */
static inline double sensim__lidar_placement(const sensim_lidar_refl *br, unsigned elem, double rho, uint32_t *cls,
                                             uint32_t *inst) {
  uint16_t c;
  sensim__hit_ids(br->group, (uint16_t)br->class_id, br->instance_id, elem, &c, inst);
  *cls = c;
  if (!br->group || br->group->reflectance_jitter == 0.0f) return rho;
  float a[3], r;
  sensim__group_variation(br->group, elem, a, &r);
  rho *= r;
  return rho > 1.0 ? 1.0 : rho;
}

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
  int groups; /* some body holds placements: hits need their per-placement ids and reflectance */
  sensim_stream_key key; /* the capture's random streams */
  double beta; /* this scan's extinction, 1/m: the lidar's own plus the world's weather */
  const struct sensim_lidar_wx *wx; /* drops and flakes that can return light, or NULL
                                       (sensors/lidar_weather.c) */
} sensim_lidar_scan;

/* A band of columns [b.lo, b.hi) traced by one pool job, with its own
 * scratch buffers; columns are independent, so the beams are the same
 * however the scan is banded. */
typedef struct sensim_lidar_band {
  sensim_band b;
  const sensim_lidar_scan *sc;
  void *scratch; /* one column's sub-ray hits and firings (sensim__lidar_scratch_take) */
} sensim_lidar_band;

/* The beams of one traced packet of a one-sub-ray scan (lane e is channel
 * c0 + e of the column at azimuth azj, firing at tf[e] after the window's
 * start; n live lanes, their world normals nx, ny, nz), written to
 * ob[e * nret ..] (sensors/lidar_packet.c). */
void sensim__lidar_packet_beams(const sensim_lidar_scan *sc, const sensim_rt_packet8 *pk, int n, const float nx[8],
                                const float ny[8], const float nz[8], sensim_beam *ob, double azj, const double *tf,
                                int c0);

/* The packet's eight directions, m times the table directions (dx[e],
 * dy[e], dz[e]) in double, rounded to float: ((m0 dx + m1 dy) + m2 dz)
 * and so on, with an AVX2 twin that does the same operations
 * (sensors/lidar_packet.c). */
void sensim__lidar_directions8(const double m[9], const float *dx, const float *dy, const float *dz,
                               sensim_rt_packet8 *pk);

/* Wrap to (-pi, pi]; column azimuths and offsets stay within a few turns,
 * so a loop is cheaper than fmod. */
static inline double sensim__wrap_pi(double a) {
  while (a > M_PI) a -= 2.0 * M_PI;
  while (a <= -M_PI) a += 2.0 * M_PI;
  return a;
}

/* nearbyint(x) for x in [0, 2^52): adding 2^52 leaves no fraction bits,
 * so the sum is rounded at the units place in the default mode (to
 * nearest, ties to even) as nearbyint rounds; without a library call. */
static inline double sensim__round_units(double x) {
  const double big = 4503599627370496.0; /* 2^52 */
  return (x + big) - big;
}

/* The sensor's intensity quantiser: rho |cos| (>= 0) clipped to 1 and
 * rounded to the nearest of qmax + 1 levels. */
static inline float sensim__lidar_quantise(float i, double qmax, double inv_qmax) {
  double iq = i > 1.0f ? 1.0 : i;
  return (float)(sensim__round_units(iq * qmax) * inv_qmax);
}

/* ---- weather: drops and flakes in the beams (sensors/lidar_weather.c) ---- */

#define SENSIM_LIDAR_WX_GRID 2048          /* intervals of the range table */
#define SENSIM_LIDAR_WX_MAX 16             /* particle hits drawn per beam at most (the nearest) */
#define SENSIM_LIDAR_WX_MAX_SUBRAYS 1024   /* lidar_beam.c's MAX_SUBRAYS */
#define SENSIM_LIDAR_WX_ELEMENT 0x40000000u /* stream elements: this + column x channels + channel */

/* One scan's particles: their kinds, and the intensity lam(r) of the
 * detectable ones per metre of range, tabulated with its integral. */
typedef struct sensim_lidar_wx {
  int nkind;                                 /* 1 or 2: rain and/or snow */
  sensim_particles kind[2];
  double beta;                               /* extinction, 1/m */
  double p_min;                              /* the lidar's detection threshold */
  double ab_k;                               /* beam cross-section per r^2 */
  double r[SENSIM_LIDAR_WX_GRID + 1];        /* range, m, from min_range */
  double lam[2][SENSIM_LIDAR_WX_GRID + 1];   /* per kind, detectable particles per m */
  double cum[SENSIM_LIDAR_WX_GRID + 1];      /* integral of lam from r[0] (trapezoids) */
} sensim_lidar_wx;

/* The particles of a scan of l in weather w with extinction beta, in a
 * capture frame buffer (sensim__frame_buffer_free); *out NULL when none
 * can be seen (clear weather, a beam without divergence). */
sensim_status sensim__lidar_wx_init(const sensim_lidar *l, const sensim_weather *w, double beta,
                                    sensim_lidar_wx **out);
/* Smallest detectable size of kind k at range r, mm (INFINITY: none), and
 * the intensity of detectable ones, per m, in closed form. */
double sensim__lidar_wx_dmin(const sensim_lidar_wx *wx, int k, double r);
double sensim__lidar_wx_lambda(const sensim_lidar_wx *wx, int k, double r);
/* Expected detectable particles of a beam up to range r_end (the table). */
double sensim__lidar_wx_expected(const sensim_lidar_wx *wx, double r_end);
/* Draw a beam's detectable particles up to r_end from rng, nearest first,
 * at most max, as hits; returns how many. */
int sensim__lidar_wx_hits(const sensim_lidar_wx *wx, sensim_rng *rng, double r_end, sensim_lidar_hit *out, int max);
/* The returns of channel c in column j: its S sub-ray hits h and the
 * particles drawn in its beam, through sensim__lidar_returns. */
int sensim__lidar_wx_returns(const sensim_lidar_scan *sc, int j, int c, const sensim_lidar_hit *h,
                             sensim_lidar_return out[2]);

/* Trace the columns of one band (a sensim_lidar_band *, sensors/lidar_columns.c);
 * a pool job. */
void sensim__lidar_columns_run(void *arg);
/* Bytes of a band's scratch for lidar l (sensors/lidar_columns.c). The
 * lidar keeps the blocks between scans, so in steady state it allocates
 * none. */
size_t sensim__lidar_band_scratch(const sensim_lidar *l);
/* A band's scratch block: a spare one the lidar kept, or a new one; and
 * its return (kept for the next scan). sensors/lidar.c. */
void *sensim__lidar_scratch_take(sensim_lidar *l);
void sensim__lidar_scratch_give(sensim_lidar *l, void *block);

#endif
