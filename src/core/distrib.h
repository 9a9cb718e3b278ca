/* core/distrib.h: piecewise-constant distributions in one and two
 * dimensions, for sampling in proportion to a tabulated function (an
 * environment map's luminance), with their densities (PBRT-v4 sec. A.4.2
 * and A.4.3's construction: cumulative sums, inverted by binary search).
 * Not installed. */
#ifndef SENSIM_CORE_DISTRIB_H
#define SENSIM_CORE_DISTRIB_H

#include <stddef.h>
#include "sensim/status.h"

typedef struct sensim_distrib1d {
  size_t n;
  float *f;     /* the function's n values (>= 0) */
  double *cdf;  /* n + 1 cumulative values, cdf[0] = 0, cdf[n] = 1 */
  double integral; /* of f over [0, 1] */
} sensim_distrib1d;

/* Over [0, 1] in n equal cells of values f (copied). A function that is
 * zero everywhere is sampled uniformly. SENSIM_ENOMEM. */
sensim_status sensim__distrib1d_init(sensim_distrib1d *d, const float *f, size_t n);
void sensim__distrib1d_free(sensim_distrib1d *d);
/* x in [0, 1) for uniform u, its density and cell. */
float sensim__distrib1d_sample(const sensim_distrib1d *d, float u, float *pdf, size_t *cell);
float sensim__distrib1d_pdf(const sensim_distrib1d *d, float x);

/* A function over [0, 1]^2 on an nu x nv grid (row-major, v the row). */
typedef struct sensim_distrib2d {
  size_t nu, nv;
  sensim_distrib1d *cond;  /* nv conditional distributions along u */
  sensim_distrib1d marg;   /* the marginal along v */
} sensim_distrib2d;

sensim_status sensim__distrib2d_init(sensim_distrib2d *d, const float *f, size_t nu, size_t nv);
void sensim__distrib2d_free(sensim_distrib2d *d);
/* (u, v) for uniforms (u1, u2), with its density over the unit square. */
float sensim__distrib2d_sample(const sensim_distrib2d *d, float u1, float u2, float uv[2]);
float sensim__distrib2d_pdf(const sensim_distrib2d *d, const float uv[2]);

#endif
