/* filters/denoise.h: the edge-avoiding a-trous wavelet denoiser behind the
 * "denoise" filter (filters/denoise.c), callable on bare arrays so that tests
 * and tools can run it without a frame. Not installed.
 *
 * The filter is the spatial part of SVGF (C. Schied et al.,
 * "Spatiotemporal Variance-Guided Filtering: Real-Time Reconstruction for
 * Path-Traced Global Illumination", HPG 2017, sec. 4.4-4.5) on the
 * edge-avoiding a-trous wavelet transform of H. Dammertz, D. Sewtz, J.
 * Hanika, H. P. A. Lensch, "Edge-Avoiding A-Trous Wavelet Transform for fast
 * Global Illumination Filtering", HPG 2010:
 *
 *   iteration i = 0 .. n-1, step s = 2^i, 5 x 5 taps q = p + s (dx, dy),
 *   h(dx, dy) = h1(dx) h1(dy), h1 = (1, 4, 6, 4, 1) / 16 (B3 spline),
 *   w(p, q) = h . w_z . w_n . w_l,
 *   w_z = exp(-|z_p - z_q| / (sigma_z |grad z_p . s (dx, dy)| + eps_z)),
 *   w_n = max(0, n_p . n_q)^sigma_n,
 *   w_l = exp(-|l_p - l_q| / (sigma_l sqrt(g3x3(var_p)) + eps_l)),
 *   c'_p = sum w c_q / sum w,   var'_p = sum w^2 var_q / (sum w)^2,
 *
 * with l the luminance (ITU-R BT.709 weights), var its variance estimated
 * at the start over the 3 x 3 neighbours on the same surface and carried
 * through the iterations as above, g3x3 a 3 x 3 Gaussian (1 2 1 / 4) of it.
 * Pixels where nothing was hit (depth 0, non-finite or normal 0) form their
 * own surface: no weight crosses between them and hit pixels. With an
 * albedo plane the radiance is divided by the albedo before filtering and
 * multiplied after (texture detail is kept: SVGF sec. 4.1). */
#ifndef SENSIM_FILTERS_DENOISE_H
#define SENSIM_FILTERS_DENOISE_H

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"

typedef struct sensim_denoise_params {
  int iterations;         /* a-trous levels, 1 .. 10 (footprint 4 (2^n - 1) + 1 px) */
  double sigma_luminance; /* sigma_l, >= 0; 0 turns the luminance stop off */
  double sigma_normal;    /* sigma_n, >= 0; 0 turns the normal stop off */
  double sigma_depth;     /* sigma_z, >= 0; 0 turns the depth stop off */
} sensim_denoise_params;

/* Defaults: 5 iterations, sigma_l 4, sigma_n 128, sigma_z 1 (SVGF's). */
void sensim__denoise_params_init(sensim_denoise_params *p);

/* Filter img (w x h x nch floats, nch 1 or 3, row-major) in place. depth
 * (w x h) and normals (w x h x 3) guide it and may be NULL (that stop is
 * then off); albedo (w x h x nch) may be NULL. Rows run in bands on the
 * current fork's workers (filters/bands.h): the same bits for any thread
 * count. SENSIM_ENOMEM leaves img untouched. */
sensim_status sensim__denoise(float *img, size_t nch, uint32_t w, uint32_t h, const float *depth,
                              const float *normals, const float *albedo, const sensim_denoise_params *p);

#endif
