/* sensim/augment.h: camera stages applied to existing images, statistics of
 * two image datasets side by side, and camera-stage ablation of a scenario.
 *
 * The augmentations give images from any source (another simulator, a
 * rendered dataset) the large-scale signature of a camera: its lens
 * distortion, its noise, its colour filter array and demosaicing, its white
 * balance and its brightness and contrast. The ablation renders one
 * scenario once per camera stage removed, so that the effect of each stage
 * on a perception algorithm can be measured. docs/ablation.md gives the
 * models and the conventions.
 *
 * Images are sensim_image (io.h): width x height x channels floats, row 0
 * on top, values as stored (PNG code values scaled to [0, 1]). Functions
 * that change an image in place leave it unchanged on failure. */
#ifndef SENSIM_AUGMENT_H
#define SENSIM_AUGMENT_H

#include "sensim/export.h"

#include <stdint.h>
#include <stdio.h>
#include "sensim/camera.h"
#include "sensim/frame.h"
#include "sensim/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- radial distortion by remapping (eval/augment_distort.c) ------------
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
SENSIM_API sensim_status sensim_distort_map_create(const sensim_camera_params *lens, sensim_distort_map **out);
SENSIM_API void sensim_distort_map_destroy(sensim_distort_map *map);

/* Input position (pinhole pixel, OpenCV convention) that output pixel
 * (x, y) of channel c (0..2) reads. Returns 1, or 0 where the output gets
 * the fill value (u, v then untouched). */
SENSIM_API int sensim_distort_map_source(const sensim_distort_map *map, uint32_t x, uint32_t y, int c,
                              double *u, double *v);

/* Remap `in` (1 or 3 channels, the map's width and height) into `out`,
 * whose buffer is allocated here (free with sensim_image_free); `out` may
 * be `in` (its old buffer is then freed). A grey image uses the green
 * channel's map. SENSIM_EINVAL for a size mismatch, a NaN or infinite
 * input value or fill. */
SENSIM_API sensim_status sensim_distort_apply(const sensim_distort_map *map, const sensim_image *in, float fill,
                                   sensim_image *out);

/* A lens from a JSON object of the camera keys of a scenario file
 * (docs/scenario.md; eval/augment_lens.c): "lens", "dist", "fx", "fy",
 * "cx", "cy", "hfov_deg", "lateral_ca", "width", "height" (comments
 * allowed). width and height, when nonzero, are the image's size: the keys
 * may then be left out, and given ones must match (SENSIM_EINVAL).
 * SENSIM_EPARSE for bad JSON or an unknown key, SENSIM_EINVAL for a value
 * out of its domain. */
SENSIM_API sensim_status sensim_lens_params_from_json(const char *json, uint32_t width, uint32_t height,
                                           sensim_camera_params *out);

/* ---- noise (eval/augment_noise.c) -----------------------------------------
 * x' = x + sqrt(s1^2 max(x, 0) + s2^2) n, n ~ N(0, 1) per value, the
 * Poisson-Gaussian model of the "noise_intensity" filter and of the noise
 * calibration (eval.h), in the image's unit; s1 = 0 gives white Gaussian
 * noise of standard deviation s2. Values are not clipped. The draws come
 * from sensim_rng streams keyed by (seed, image index, row): the same seed
 * and index give the same noise. SENSIM_EINVAL for s1 or s2 negative or not
 * finite, or a NaN or infinite value. */
SENSIM_API sensim_status sensim_augment_noise(sensim_image *img, double s1, double s2, uint64_t seed,
                                   uint32_t index);

/* ---- colour filter array and demosaicing (eval/augment_mosaic.c) ---------
 * The built-in filters "cfa" and "demosaic" (docs/camera_pipeline.md) run on
 * the image. `pattern`: "RGGB", "BGGR", "GRBG" or "GBRG" (NULL: RGGB);
 * `method`: "bilinear" or "mhc" (NULL: mhc). Colour images only
 * (SENSIM_EINVAL for grey ones), at least 2 x 2 for the demosaic. */

/* The Bayer mosaic of a colour image: a grey (1-channel) image `raw`,
 * allocated here, whose pixel (x, y) is the input's channel
 * pattern[(x mod 2) + 2 (y mod 2)]. */
SENSIM_API sensim_status sensim_augment_cfa(const sensim_image *in, const char *pattern, sensim_image *raw);
/* Mosaic then demosaic, in place. */
SENSIM_API sensim_status sensim_augment_mosaic(sensim_image *img, const char *pattern, const char *method);

/* ---- white balance and brightness (eval/augment_color.c) -----------------
 * Statistics are per channel over every pixel: the mean and the population
 * standard deviation (divided by the pixel count), as sensim_image_stats_pngs
 * (io.h) computes them for a set of files. */

/* Gray-world gains of a set whose channel means are `mean` (each > 0):
 * g_c = mean_G / mean_c, so the set's means become equal to the green mean
 * (G. Buchsbaum, J. Franklin Institute 310(1):1-26, 1980). */
SENSIM_API sensim_status sensim_gray_world_gains(const double mean[3], double gains[3]);
/* out_c = g_c in_c on a colour image; gains finite and >= 0. */
SENSIM_API sensim_status sensim_augment_gains(sensim_image *img, const double gains[3]);
/* The affine map per channel out_c = (in_c - mean_c) ref_std_c / std_c +
 * ref_mean_c (E. Reinhard et al., IEEE CG&A 21(5):34-41, 2001), which
 * gives a set of statistics (mean, std) the reference ones; a channel with
 * std_c = 0 is only shifted. `img->channels` entries of each array are read.
 * std and ref_std >= 0; all finite. */
SENSIM_API sensim_status sensim_augment_match_stats(sensim_image *img, const double *mean, const double *std,
                                         const double *ref_mean, const double *ref_std);
/* Per-channel mean and population standard deviation of one image
 * (`img->channels` values each). */
SENSIM_API sensim_status sensim_image_moments(const sensim_image *img, double *mean, double *std);

/* ---- statistics of two datasets (eval/image_report.c) -------------------- */

#define SENSIM_IMAGE_STATS_MAX_BINS 256

/* Statistics of a set of images. A set of grey images has one channel; a
 * set with any colour image has three (a grey image then counts as equal
 * R, G and B, as in sensim_image_stats_pngs). */
typedef struct sensim_image_set_stats {
  size_t nimages;      /* images added */
  uint64_t npixels;    /* pixels over all images */
  int channels;        /* 1 or 3; 0 before the first image */
  double mean[3];      /* per-channel mean of the values */
  double std[3];       /* per-channel population standard deviation */
  double min[3], max[3]; /* per-channel extremes */
  size_t nbins;        /* histogram bins over [0, 1], 2..SENSIM_IMAGE_STATS_MAX_BINS */
  /* hist[c][i]: values of channel c in [i / nbins, (i + 1) / nbins) (the
   * last bin includes 1; values below 0 count in bin 0, above 1 in the
   * last bin, so that every value is counted) */
  uint64_t hist[3][SENSIM_IMAGE_STATS_MAX_BINS];
  double m2_[3];       /* internal: sums of squared deviations */
} sensim_image_set_stats;

/* Start an empty set with `nbins` bins (0: 64). */
SENSIM_API sensim_status sensim_image_set_stats_init(sensim_image_set_stats *s, size_t nbins);
/* Add one image. SENSIM_EINVAL for a NaN or infinite value (s unchanged). */
SENSIM_API sensim_status sensim_image_set_stats_add(sensim_image_set_stats *s, const sensim_image *img);
/* Every *.png of folder `dir` (any case), by sensim_read_png.
 * SENSIM_ENOTFOUND for a missing folder, SENSIM_EINVAL for a folder without
 * PNG files, sensim_read_png's errors for a bad file. */
SENSIM_API sensim_status sensim_image_set_stats_dir(const char *dir, size_t nbins, sensim_image_set_stats *s);

/* First Wasserstein distance between the value distributions of channel c
 * of two sets, from their histograms (same nbins): the integral over
 * [0, 1] of |F_a - F_b|, the cumulative fractions, with the mass of each
 * bin at its centre (Vallender, Theory Probab. Appl. 18(4), 1974: W1 of
 * two distributions on the line is the L1 distance of their CDFs). NaN if
 * the sets are empty or their bins differ. */
SENSIM_API double sensim_image_set_w1(const sensim_image_set_stats *a, const sensim_image_set_stats *b, int c);

/* The report as text: images and pixels of each set, then per channel
 * mean, std, min, max of each, their differences and W1, then the two
 * histograms (fraction of values per bin) side by side. */
SENSIM_API sensim_status sensim_image_report_text(FILE *fp, const sensim_image_set_stats *a, const char *name_a,
                                       const sensim_image_set_stats *b, const char *name_b);
/* The histograms as PNG plots, one per channel: `path` for grey sets;
 * for colour sets `path` with "_r", "_g", "_b" inserted before a final
 * ".png" (appended otherwise). Each shows both sets' fractions per bin. */
SENSIM_API sensim_status sensim_image_report_png(const char *path, const sensim_image_set_stats *a,
                                      const char *name_a, const sensim_image_set_stats *b,
                                      const char *name_b);

/* ---- files (eval/augment_io.c) -------------------------------------------- */

/* Every *.png (any case) in `dir`, as "dir/name", sorted by name (strcmp).
 * *paths is an array of *count malloc'd strings (free with
 * sensim_free_paths); an empty folder gives 0 files. SENSIM_ENOTFOUND for
 * a missing folder. */
SENSIM_API sensim_status sensim_list_pngs(const char *dir, char ***paths, size_t *count);
SENSIM_API void sensim_free_paths(char **paths, size_t count);
/* Write an image as an 8- or 16-bit PNG (grey or RGB): each value clamped
 * to [0, 1] and rounded, q = floor(v (2^bits - 1) + 0.5) (NaN gives 0). */
SENSIM_API sensim_status sensim_image_write_png(const char *path, const sensim_image *img, int bits);

/* ---- camera-stage ablation (eval/ablate_scenario.c) -----------------------
 * Each variant is the scenario with one stage of every camera removed,
 * made by editing the scenario's JSON before it is loaded; only camera
 * sensors are kept (the others are dropped from every variant, baseline
 * included). docs/ablation.md lists what each variant changes. */
typedef enum sensim_ablation {
  SENSIM_ABLATE_BASELINE = 0,  /* "baseline": the cameras as given */
  SENSIM_ABLATE_LENS,          /* "lens_pinhole": lens -> pinhole, same fx fy cx cy / hfov */
  SENSIM_ABLATE_NOISE,         /* "noise_off": noise filters removed */
  SENSIM_ABLATE_DEMOSAIC,      /* "demosaic_off": cfa and demosaic removed */
  SENSIM_ABLATE_WHITE_BALANCE, /* "wb_ideal": white_balance -> fixed gains undoing the qe cast */
  SENSIM_ABLATE_EXPOSURE,      /* "exposure_fixed": auto_exposure removed */
  SENSIM_ABLATE_SUPERSAMPLING, /* "supersampling_1": samples -> 1 */
  SENSIM_ABLATE_COUNT
} sensim_ablation;

/* Folder name of a variant ("noise_off"); NULL for an invalid value. */
SENSIM_API const char *sensim_ablation_name(sensim_ablation a);
/* The variant named `name`; SENSIM_ENOTFOUND for an unknown one. */
SENSIM_API sensim_status sensim_ablation_from_name(const char *name, sensim_ablation *a);

/* The scenario text `json` (comments allowed) edited for variant `a`,
 * with "duration" set so that every camera delivers at least `frames`
 * frames when frames > 0, as a malloc'd JSON text in *out. `notes`
 * (may be NULL) receives a line per camera saying what changed ("" when
 * nothing did), truncated to notes_size. SENSIM_EPARSE for bad JSON,
 * SENSIM_EINVAL for a scenario without a camera. */
SENSIM_API sensim_status sensim_ablation_edit(const char *json, sensim_ablation a, size_t frames, char **out,
                                   char *notes, size_t notes_size);

typedef struct sensim_ablate_options {
  int threads;      /* worker threads; < 0: as the file says */
  size_t frames;    /* frames per camera; 0: the file's duration */
  const sensim_ablation *variants; /* which to render; NULL: all, in enum order */
  size_t nvariants;
  FILE *log;        /* what each variant changed, one line per camera; may be NULL */
} sensim_ablate_options;

/* Sets the defaults: threads -1, frames 0, every variant, no log. */
SENSIM_API void sensim_ablate_options_init(sensim_ablate_options *o);

/* Render the scenario file once per variant into out_dir/<variant>/ (each
 * camera's frames in out_dir/<variant>/<camera>/, named as
 * sensim_scenario_run names them). Stops at the first failing variant,
 * whose error it returns (its message names the variant). */
SENSIM_API sensim_status sensim_ablate_run(const char *scenario_path, const char *out_dir,
                                const sensim_ablate_options *opt);

#ifdef __cplusplus
}
#endif
#endif
