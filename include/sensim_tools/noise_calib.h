/* sensim_tools/noise_calib.h: intensity-dependent noise of a camera from a
 * stack of frames of a static scene: from arrays, from a folder of PNG
 * files, or from a scenario's own sensor. */
#ifndef SENSIM_TOOLS_NOISE_CALIB_H
#define SENSIM_TOOLS_NOISE_CALIB_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <sensim/scenario.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- noise calibration (tools/noise_calib.c) ------------------------------
 * Estimates the intensity-dependent Gaussian noise model
 *   sigma^2(I) = s1^2 I + s2^2
 * (the Poisson-Gaussian model of Foi et al. 2008, "Practical Poissonian-
 * Gaussian noise modeling and fitting for single-image raw-data", IEEE
 * TIP 17(10), with a = s1^2, b = s2^2) from N frames of a static scene by
 * the mean-image (photon-transfer) method: each value's mean and unbiased
 * variance over the stack, values binned by mean into equal-width bins over
 * the range of means, and var = a I + b fitted to the bins by weighted least
 * squares. docs/camera_pipeline.md, "Noise calibration", gives the details.
 * Values are in any unit (I and sigma in the same unit); for colour images
 * every channel sample is one value, so all channels share (s1, s2). */

#define SENSIM_NOISE_CALIB_MAX_BINS 256

typedef struct sensim_noise_bin {
  double mean;      /* mean intensity of the bin's values, input units */
  double var;       /* mean of their unbiased sample variances, units^2 */
  double var_model; /* a * mean + b of the fit, units^2 */
  double var_std;   /* standard error of var under the fitted model, units^2 */
  size_t count;     /* values in the bin, outliers excluded */
} sensim_noise_bin;

typedef struct sensim_noise_fit {
  double s1;          /* sqrt(a), units^(1/2); 0 when a < 0 (see clamped) */
  double s2;          /* sqrt(b), units; 0 when b < 0 (see clamped) */
  double a, b;        /* fitted slope (units) and intercept (units^2), unclamped */
  double a_std, b_std; /* standard errors of a and b from the weights */
  double chi2;        /* weighted sum of squared bin residuals */
  double chi2_dof;    /* chi2 / (nbins_used - 2), near 1 when the model fits;
                         0 with exactly 2 bins */
  int clamped;        /* bit 0: a < 0 was clamped (s1 = 0); bit 1: b < 0 (s2 = 0) */
  size_t nframes;     /* N, frames in the stack */
  size_t nvalues;     /* values per frame */
  size_t nrejected;   /* values left out as outliers (variance beyond the
                         1 - 1e-6 quantile of their bin's chi-square law) */
  double quant_var;   /* from 8/16-bit files: LSB^2 / 12 of the coarsest file
                         (quantisation noise, included in b); 0 otherwise */
  size_t nbins_used;  /* bins holding values, <= the bins asked for */
  sensim_noise_bin bins[SENSIM_NOISE_CALIB_MAX_BINS]; /* first nbins_used, by mean */
} sensim_noise_fit;

/* Fit on a stack: frames[i] points at nvalues floats of frame i (borrowed
 * for the call). nframes >= 2, nvalues >= 2, nbins in 2 ..
 * SENSIM_NOISE_CALIB_MAX_BINS (0: 32). SENSIM_EINVAL for NULL pointers,
 * bad counts, a NaN or infinite value, or values whose means fill fewer
 * than 2 bins (the scene needs a range of intensities). *out is written
 * only on success. */
SENSIM_TOOLS_API sensim_status sensim_noise_calib_fit(const float *const *frames, size_t nframes, size_t nvalues,
                                     size_t nbins, sensim_noise_fit *out);

/* The same fit from per-value moments over nframes frames: mean[i] and the
 * unbiased variance var[i] (>= 0) of value i. For callers that accumulate
 * frames as they arrive (sensim_noise_calib_pngs, the `sensim noise-calib`
 * command). */
SENSIM_TOOLS_API sensim_status sensim_noise_calib_fit_moments(const double *mean, const double *var,
                                             size_t nvalues, size_t nframes, size_t nbins,
                                             sensim_noise_fit *out);

/* ---- from files and from a scenario (tools/noise_calib_io.c) ------------ */

/* Noise calibration on every file named *.png in folder `dir`,
 * taken in strcmp order of their names: at least 2, all with the same width,
 * height and channel count. Values are the stored samples in [0, 1], so s1
 * and s2 come out in units of full scale; out->quant_var is LSB^2 / 12 of
 * the file with the fewest bits (included in b: subtract it from s2^2 when
 * the simulated chain quantises again). SENSIM_ENOTFOUND for a missing
 * folder, SENSIM_EINVAL for fewer than 2 files or sizes that differ,
 * sensim_read_png's errors for a bad file (the message names it). */
SENSIM_TOOLS_API sensim_status sensim_noise_calib_pngs(const char *dir, size_t nbins, sensim_noise_fit *out);

/* Noise calibration on the frames of a scenario's own sensor: steps the
 * scenario as sensim_scenario_run does (ignoring its duration,
 * writing nothing) until the sensor named `sensor` has delivered nframes
 * (>= 2) frames, and fits on them. The sensor must not move and nothing in
 * the scene may move: every body of the scenario must be without a
 * "motion" (SENSIM_EINVAL otherwise). Its chain must give rgb_f32,
 * gray_f32 or raw_f32 (values as they are), or rgba8, gray8, gray16,
 * rgb16 or raw16 (scaled to [0, 1] by the type's full scale; quant_var set
 * as above); other payloads are SENSIM_ETYPE. The scenario is stepped by
 * hand (sensim_scenario_step_to), so it can be calibrated once, and not
 * after it was run or stepped (SENSIM_ESTATE). */
SENSIM_TOOLS_API sensim_status sensim_noise_calib_scenario(sensim_scenario *scn, const char *sensor,
                                          size_t nframes, size_t nbins, sensim_noise_fit *out);

/* ---- report (tools/noise_calib_plot.c) --------------------------------- */

/* The photon-transfer plot of a fit as an 800 x 500 PNG (sensim_tools/
 * plot.h): each bin's variance against its mean intensity (markers joined
 * by a line), the fitted a I + b (dashed), and the quantisation floor
 * quant_var when there is one (a dashed grey level); `title` may be NULL.
 * SENSIM_EINVAL for NULL fit or path or a fit with no bins, SENSIM_EIO
 * when the file cannot be written (all or nothing). */
SENSIM_TOOLS_API sensim_status sensim_noise_calib_plot_png(const sensim_noise_fit *fit,
                                                           const char *title, const char *path);

#ifdef __cplusplus
}
#endif
#endif
