/* tools/vepd_internal.h: what the VEPD files share (the metric, the
 * experiment and a sweep's reduction of it): the run checks, the
 * manoeuvres' ground truth, VEPD from per-run metrics, the table's rows
 * and the histograms. Not installed. */
#ifndef SENSIM_TOOLS_VEPD_INTERNAL_H
#define SENSIM_TOOLS_VEPD_INTERNAL_H

#include <stdio.h>
#include <sensim/world.h>
#include <sensim_tools/vepd.h>

/* SENSIM_EINVAL naming `what` unless the run is well formed (vepd.h). */
sensim_status sensim_tools__vepd_run_check(const sensim_vepd_run *r, const char *what);

/* The body state of manoeuvre m at time t (s) into *s; returns the true
 * speed, m/s (tools/vepd_trajectory.c). */
double sensim_tools__vepd_state(sensim_vepd_manoeuvre m, double t, sensim_body_state *s);

/* VEPD between run sets a (na >= 1) and b (nb >= 1) given their per-run
 * metrics: what sensim_vepd_compute does once it has them, so numbers
 * that went through a file (a sweep's manifests) give the same bits. */
sensim_status sensim_tools__vepd_from_metrics(const sensim_vepd_run_metrics *ma, size_t na,
                                            const sensim_vepd_run_metrics *mb, size_t nb,
                                            sensim_vepd_result *out);

/* vepd_table.csv (tools/vepd_experiment.c): the columns after any leading
 * ones, and a row of a scored cell (r NULL: the variant's filters are not
 * built in, "not_built"). */
#define SENSIM_TOOLS_VEPD_TABLE_COLUMNS \
  "variant,manoeuvre,status,w1,w2,vepd,rmse_mean_ref,rmse_mean_variant,hdiff_mean_ref,hdiff_mean_variant"
void sensim_tools__vepd_table_row(FILE *fp, const char *variant, const char *manoeuvre,
                                  const sensim_vepd_result *r);

/* The two histograms of one manoeuvre's per-run metrics,
 * dir/hist_rmse_<name>.png and dir/hist_hdiff_<name>.png (`name` the
 * manoeuvre's, or a longer file stem): set 0 is the reference, sets 1..
 * the variants; rmse[i], hdiff[i] hold cnt[i] values (0: none). */
sensim_status sensim_tools__vepd_histograms(const char *dir, const char *name, const char *manoeuvre,
                                            double *const *rmse, double *const *hdiff, const size_t *cnt,
                                            const char *const *names, size_t nsets);

#endif
