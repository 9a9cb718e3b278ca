/* tools/vepd_report.c: what the VEPD experiment reports besides its
 * numbers, shared by sensim_vepd_experiment_run and a vepd sweep's
 * reduction (tools/sweep_reduce.c), so both write the same bytes: the rows
 * of vepd_table.csv and the per-manoeuvre histograms of the runs' RMSE and
 * entropy difference. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "tools/tools_internal.h"
#include "tools/vepd_internal.h"

static const uint8_t palette[SENSIM_VEPD_MAX_VARIANTS + 1][3] = {
    {0, 0, 0},     {31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
    {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};

/* One histogram PNG: set 0 is the reference, sets 1.. the variants
 * (vals[i] holds cnt[i] values; cnt 0 = not available). */
static sensim_status histogram(const char *path, const char *title, const char *xlabel,
                               double *const *vals, const size_t *cnt, const char *const *names,
                               size_t nsets) {
  double lo = INFINITY, hi = -INFINITY;
  size_t total = 0;
  for (size_t i = 0; i < nsets; i++)
    for (size_t k = 0; k < cnt[i]; k++) {
      lo = fmin(lo, vals[i][k]);
      hi = fmax(hi, vals[i][k]);
      total++;
    }
  if (total == 0) return SENSIM_OK;
  if (!(hi > lo)) {
    double pad = 0.5 * fmax(fabs(lo), 1e-3);
    lo -= pad;
    hi += pad;
  }
  size_t nb = (size_t)ceil(sqrt((double)total));
  nb = nb < 5 ? 5 : nb > 30 ? 30 : nb;
  double edges[31], counts[30];
  for (size_t b = 0; b <= nb; b++) edges[b] = lo + (hi - lo) * (double)b / (double)nb;
  sensim_plot *pl = NULL;
  sensim_status st = sensim_plot_create(800, 500, title, xlabel, "runs", 0, 0, &pl);
  for (size_t i = 0; st == SENSIM_OK && i < nsets; i++) {
    if (!cnt[i]) continue;
    for (size_t b = 0; b < nb; b++) counts[b] = 0.0;
    for (size_t k = 0; k < cnt[i]; k++) {
      size_t b = (size_t)((vals[i][k] - lo) / (hi - lo) * (double)nb);
      counts[b < nb ? b : nb - 1] += 1.0;
    }
    sensim_plot_style style = {{palette[i][0], palette[i][1], palette[i][2]}, 0, 0, names[i]};
    st = sensim_plot_bars(pl, edges, counts, nb, &style);
  }
  if (st == SENSIM_OK) st = sensim_plot_write_png(pl, path);
  sensim_plot_destroy(pl);
  return st;
}

sensim_status sensim_tools__vepd_histograms(const char *dir, const char *name, const char *manoeuvre,
                                            double *const *rmse, double *const *hdiff, const size_t *cnt,
                                            const char *const *names, size_t nsets) {
  char path[4096], title[128];
  snprintf(path, sizeof path, "%s/hist_rmse_%s.png", dir, name);
  snprintf(title, sizeof title, "speed RMSE per run, %s", manoeuvre);
  sensim_status st = histogram(path, title, "RMSE (m/s)", rmse, cnt, names, nsets);
  snprintf(path, sizeof path, "%s/hist_hdiff_%s.png", dir, name);
  snprintf(title, sizeof title, "|H(estimate) - H(truth)| per run, %s", manoeuvre);
  if (st == SENSIM_OK) st = histogram(path, title, "Wiener entropy difference", hdiff, cnt, names, nsets);
  return st;
}

void sensim_tools__vepd_table_row(FILE *fp, const char *variant, const char *manoeuvre,
                                  const sensim_vepd_result *r) {
  if (!r) {
    fprintf(fp, "%s,%s,not_built,,,,,,,\n", variant, manoeuvre);
    return;
  }
  fprintf(fp, "%s,%s,ok,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", variant, manoeuvre, r->w1, r->w2, r->vepd,
          r->rmse_mean[0], r->rmse_mean[1], r->h_diff_mean[0], r->h_diff_mean[1]);
}

