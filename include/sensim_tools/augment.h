/* sensim_tools/augment.h: camera stages applied to existing images.
 *
 * The augmentations give images from any source (another simulator, a
 * rendered dataset) the large-scale signature of a camera: its lens
 * distortion, its noise, its colour filter array and demosaicing, its white
 * balance and its brightness and contrast. Each uses the library's own
 * model of the stage (the camera's lens table, the built-in "cfa" and
 * "demosaic" filters), so an augmented image carries the signature a
 * rendered one does. docs/ablation.md gives the models and the conventions.
 *
 * Images are sensim_image (sensim/io.h): width x height x channels floats,
 * row 0 on top, values as stored (PNG code values scaled to [0, 1]).
 * Functions that change an image in place leave it unchanged on failure. */
#ifndef SENSIM_TOOLS_AUGMENT_H
#define SENSIM_TOOLS_AUGMENT_H

#include "sensim_tools/export.h"

#include <stdint.h>
#include <sensim/camera.h>
#include <sensim/io.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- radial distortion by remapping (tools/augment_distort.c) ------------
 * The input is the image of an ideal pinhole camera with the lens's own
 * intrinsics (fx, fy, cx, cy, or hfov when fx == 0) and size; the output is
 * the image the lens makes of the same scene: output pixel (u, v) of
 * channel c takes the input at the pinhole pixel of the ray the lens images
 * at (u, v) for channel c (lateral chromatic aberration included), by
 * bilinear interpolation. Output pixels whose ray is outside the input
 * image (or that the lens images no ray at) get `fill`. Vignetting is not
 * applied (it is not a distortion). */
typedef struct sensim_distort_map sensim_distort_map;

/* Build the map of a lens (checked as sensim_camera_create checks it:
 * SENSIM_EINVAL with the lens's message). The parameters are copied. */
SENSIM_TOOLS_API sensim_status sensim_distort_map_create(const sensim_camera_params *lens, sensim_distort_map **out);
SENSIM_TOOLS_API void sensim_distort_map_destroy(sensim_distort_map *map);

/* Input position (pinhole pixel, OpenCV convention) that output pixel
 * (x, y) of channel c (0..2) reads. Returns 1, or 0 where the output gets
 * the fill value (u, v then untouched). */
SENSIM_TOOLS_API int sensim_distort_map_source(const sensim_distort_map *map, uint32_t x, uint32_t y, int c,
                              double *u, double *v);

/* Remap `in` (1 or 3 channels, the map's width and height) into `out`,
 * whose buffer is allocated here (free with sensim_image_free); `out` may
 * be `in` (its old buffer is then freed). A grey image uses the green
 * channel's map. SENSIM_EINVAL for a size mismatch, a NaN or infinite
 * input value or fill. */
SENSIM_TOOLS_API sensim_status sensim_distort_apply(const sensim_distort_map *map, const sensim_image *in, float fill,
                                   sensim_image *out);

/* A lens from a JSON object of the camera keys of a scenario file
 * (docs/scenario.md; tools/augment_lens.c): "lens", "dist", "fx", "fy",
 * "cx", "cy", "hfov_deg", "lateral_ca", "width", "height" (comments
 * allowed). width and height, when nonzero, are the image's size: the keys
 * may then be left out, and given ones must match (SENSIM_EINVAL).
 * SENSIM_EPARSE for bad JSON or an unknown key, SENSIM_EINVAL for a value
 * out of its domain. */
SENSIM_TOOLS_API sensim_status sensim_lens_params_from_json(const char *json, uint32_t width, uint32_t height,
                                           sensim_camera_params *out);

/* ---- noise (tools/augment_noise.c) -----------------------------------------
 * x' = x + sqrt(s1^2 max(x, 0) + s2^2) n, n ~ N(0, 1) per value, the
 * Poisson-Gaussian model of the "noise_intensity" filter and of the noise
 * calibration (noise_calib.h), in the image's unit; s1 = 0 gives white Gaussian
 * noise of standard deviation s2. Values are not clipped. The draws come
 * from sensim_rng streams keyed by (seed, image index, row): the same seed
 * and index give the same noise. SENSIM_EINVAL for s1 or s2 negative or not
 * finite, or a NaN or infinite value. */
SENSIM_TOOLS_API sensim_status sensim_augment_noise(sensim_image *img, double s1, double s2, uint64_t seed,
                                   uint32_t index);

/* ---- colour filter array and demosaicing (tools/augment_mosaic.c) ---------
 * The built-in filters "cfa" and "demosaic" (docs/camera_pipeline.md) run on
 * the image. `pattern`: "RGGB", "BGGR", "GRBG" or "GBRG" (NULL: RGGB);
 * `method`: "bilinear" or "mhc" (NULL: mhc). Colour images only
 * (SENSIM_EINVAL for grey ones), at least 2 x 2 for the demosaic. */

/* The Bayer mosaic of a colour image: a grey (1-channel) image `raw`,
 * allocated here, whose pixel (x, y) is the input's channel
 * pattern[(x mod 2) + 2 (y mod 2)]. */
SENSIM_TOOLS_API sensim_status sensim_augment_cfa(const sensim_image *in, const char *pattern, sensim_image *raw);
/* Mosaic then demosaic, in place: the result is written into img->data,
 * which stays the caller's buffer (any allocation of width x height x 3
 * floats). */
SENSIM_TOOLS_API sensim_status sensim_augment_mosaic(sensim_image *img, const char *pattern, const char *method);

/* ---- white balance and brightness (tools/augment_color.c) -----------------
 * Statistics are per channel over every pixel: the mean and the population
 * standard deviation (divided by the pixel count), as sensim_image_moments
 * (image_stats.h) and sensim_image_stats_pngs (sensim/io.h) compute them. */

/* Gray-world gains of a set whose channel means are `mean` (each > 0):
 * g_c = mean_G / mean_c, so the set's means become equal to the green mean
 * (G. Buchsbaum, J. Franklin Institute 310(1):1-26, 1980). */
SENSIM_TOOLS_API sensim_status sensim_gray_world_gains(const double mean[3], double gains[3]);
/* out_c = g_c in_c on a colour image; gains finite and >= 0. */
SENSIM_TOOLS_API sensim_status sensim_augment_gains(sensim_image *img, const double gains[3]);
/* The affine map per channel out_c = (in_c - mean_c) ref_std_c / std_c +
 * ref_mean_c (E. Reinhard et al., IEEE CG&A 21(5):34-41, 2001), which
 * gives a set of statistics (mean, std) the reference ones; a channel with
 * std_c = 0 is only shifted. `img->channels` entries of each array are read.
 * std and ref_std >= 0; all finite. */
SENSIM_TOOLS_API sensim_status sensim_augment_match_stats(sensim_image *img, const double *mean, const double *std,
                                         const double *ref_mean, const double *ref_std);
#ifdef __cplusplus
}
#endif
#endif
