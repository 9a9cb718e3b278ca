/* filters/conv.h: linear 2-D convolution of an image plane with a square
 * kernel by FFT (filters/conv.c), for the optical filters ("glare",
 * "lens_flare"). Not installed. */
#ifndef SENSIM_FILTERS_CONV_H
#define SENSIM_FILTERS_CONV_H

#include <stddef.h>
#include "sensim/status.h"

/* A convolution set up for W x H planes and one kernel of radius R: the
 * padded transform size, GSL's wavetables and workspaces, the kernel's
 * transform and a work buffer. Zero it before the first setup; kept
 * between frames of the same size. */
typedef struct sensim_conv {
  size_t W, H, nx, ny; /* plane size; padded size (>= W + R, H + R; factors 2, 3, 5) */
  int R;               /* kernel radius, px */
  double *kspec;       /* kernel transform, nx * ny packed complex */
  double *buf;         /* work, nx * ny packed complex */
  void *wx, *wy, *sx, *sy; /* GSL wavetables and workspaces */
} sensim_conv;

/* Make c ready for W x H planes and the kernel `make_kernel` writes into
 * its (2R + 1)^2 argument (row-major from offset (-R, -R)). Nothing is
 * redone when W, H and R are those of the last setup and `same_kernel` is
 * set. SENSIM_ENOMEM (c then holds no setup), SENSIM_EINVAL for sizes
 * beyond memory. */
sensim_status sensim__conv_setup(sensim_conv *c, size_t W, size_t H, int R, int same_kernel,
                                 void (*make_kernel)(void *arg, double *k), void *arg);

/* dst[y W + x] = sum over (i, j) of k(i, j) src(x - i, y - j), src read
 * as src[step (y W + x)] with non-finite values taken as 0 and values
 * outside the plane as 0 (light that the kernel carries past the edge
 * leaves). SENSIM_EBACKEND if GSL fails. */
sensim_status sensim__conv_plane(sensim_conv *c, const float *src, size_t step, double *dst);

void sensim__conv_free(sensim_conv *c);

#endif
