/* tools/noise_calib_plot.c: the photon-transfer plot of a noise
 * calibration (sensim_tools/noise_calib.h): variance against mean
 * intensity, the picture in which the Poisson-Gaussian model is a straight
 * line of slope a = s1^2 and intercept b = s2^2 (Janesick, "Photon
 * Transfer", SPIE Press 2007; the method of EMVA 1288), so a
 * bin that leaves the line (clipping, a non-linear response) shows. */
#include <stdlib.h>
#include "tools/plot_internal.h"
#include "tools/tools_internal.h"

sensim_status sensim_tools__noise_calib_plot(const sensim_noise_fit *fit, const char *title,
                                             sensim_plot **out) {
  *out = NULL;
  if (!fit) return sensim_error_set(SENSIM_EINVAL, "noise calibration plot: NULL fit");
  size_t n = fit->nbins_used;
  if (n < 1 || n > SENSIM_NOISE_CALIB_MAX_BINS)
    return sensim_error_set(SENSIM_EINVAL, "noise calibration plot: the fit has %zu bins", n);
  double mean[SENSIM_NOISE_CALIB_MAX_BINS], var[SENSIM_NOISE_CALIB_MAX_BINS];
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    mean[i] = fit->bins[i].mean;
    var[i] = fit->bins[i].var;
    lo = fmin(lo, mean[i]);
    hi = fmax(hi, mean[i]);
  }
  sensim_plot *p = NULL;
  sensim_status st = sensim_plot_create(800, 500, title ? title : "photon transfer",
                                        "mean intensity I", "variance sigma^2", 0, 0, &p);
  const sensim_plot_style data = {{20, 80, 200}, 0, 1, "bins"};
  const sensim_plot_style model = {{200, 40, 30}, 1, 0, "fit a I + b"};
  const sensim_plot_style floor_style = {{140, 140, 140}, 1, 0, "quantisation LSB^2/12"};
  if (st == SENSIM_OK) st = sensim_plot_line(p, mean, var, n, &data);
  const double fx[2] = {lo, hi}, fy[2] = {fit->a * lo + fit->b, fit->a * hi + fit->b};
  if (st == SENSIM_OK) st = sensim_plot_line(p, fx, fy, 2, &model);
  const double qy[2] = {fit->quant_var, fit->quant_var};
  if (st == SENSIM_OK && fit->quant_var > 0) st = sensim_plot_line(p, fx, qy, 2, &floor_style);
  if (st != SENSIM_OK) {
    sensim_plot_destroy(p);
    return st;
  }
  *out = p;
  return SENSIM_OK;
}

sensim_status sensim_noise_calib_plot_png(const sensim_noise_fit *fit, const char *title,
                                          const char *path) {
  if (!path) return sensim_error_set(SENSIM_EINVAL, "noise calibration plot: NULL path");
  sensim_plot *p = NULL;
  sensim_status st = sensim_tools__noise_calib_plot(fit, title, &p);
  if (st == SENSIM_OK) st = sensim_plot_write_png(p, path);
  sensim_plot_destroy(p);
  return st;
}
