/* sensim_tools/vepd.h: the Velocity Estimation Performance Difference (VEPD), a
 * task-level sim-to-real metric for GNSS/IMU models, and the extended
 * Kalman filter that serves as its judge.
 *
 * Method (I. Mahajan et al., "Quantifying the Sim2real Gap for GPS and IMU
 * Sensors", arXiv:2403.11000, 2024): run the same state estimator on K real
 * and K' simulated drives; per run compute the RMSE of its velocity estimate
 * and the absolute difference of the Wiener entropies (spectral flatness)
 * of the estimate and of the ground truth; across runs compare the real and
 * simulated sets of each with the 1-D Wasserstein-1 distance:
 *
 *   W1 = Wasserstein-1(real RMSEs, simulated RMSEs)                  m/s
 *   W2 = Wasserstein-1(real entropy differences, simulated ones)     (unitless)
 *   VEPD = (W1 + W2) / 2
 *
 * The names W1 and W2 follow the paper: both are order-1 Wasserstein
 * distances between 1-D empirical sets, not distances of order 1 and 2.
 * The sum mixes m/s and a unitless number, as published; the two parts are
 * reported separately too. docs/vepd.md has the formulas, the CSV format
 * and the experiment. */
#ifndef SENSIM_TOOLS_VEPD_H
#define SENSIM_TOOLS_VEPD_H

#include "sensim_tools/export.h"

#include <stddef.h>
#include <stdint.h>
#include <sensim/frame.h>
#include <sensim/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- building blocks (tools/spectral.c, tools/wasserstein.c) -------------- */

/* Which DFT bins the Wiener entropy averages over (docs/vepd.md). */
typedef enum sensim_entropy_bins {
  SENSIM_ENTROPY_ALL_BINS = 0,   /* the paper's Eq. 2: all n bins k = 0 .. n-1, DC and
                                    Nyquist included (the default) */
  SENSIM_ENTROPY_FLUCTUATION = 1 /* k = 1 .. ceil(n/2) - 1: DC and the real Nyquist bin left
                                    out, so H ignores offset and scale (sensim's earlier rule) */
} sensim_entropy_bins;

/* Wiener entropy (spectral flatness) of n >= 3 samples: the geometric over
 * the arithmetic mean of the DFT magnitudes |X_k| over all n bins, the
 * paper's Eq. 2 (sensim_wiener_entropy_bins with SENSIM_ENTROPY_ALL_BINS).
 * In [0, 1]; 0 for a pure tone. A numerically constant signal (standard
 * deviation <= 1e-12 of its largest magnitude) gives 0: a tone at 0 Hz.
 * SENSIM_EINVAL for NULL, n < 3, NaN or infinite samples; *out is written
 * only on success. */
SENSIM_TOOLS_API sensim_status sensim_wiener_entropy(const double *x, size_t n, double *out);

/* The same over the chosen bins. SENSIM_ENTROPY_FLUCTUATION: 0 for a pure
 * bin-centred tone, about 2 exp(-gamma/2) / sqrt(pi) = 0.8455 for white
 * Gaussian noise, the same for a x + b as for x. SENSIM_EINVAL also for an
 * unknown `bins`. */
SENSIM_TOOLS_API sensim_status sensim_wiener_entropy_bins(const double *x, size_t n, sensim_entropy_bins bins,
                                                          double *out);

/* Wasserstein-1 distance between the empirical distributions of a (na
 * values) and b (nb values): the integral of |F_a(x) - F_b(x)| dx. Sizes
 * may differ. SENSIM_EINVAL for NULL, an empty set or a non-finite value. */
SENSIM_TOOLS_API sensim_status sensim_wasserstein1(const double *a, size_t na, const double *b, size_t nb,
                                  double *out);

/* ---- runs and the metric (tools/vepd.c, tools/vepd_csv.c) ----------------- */

/* One drive: n samples of estimated and true velocity. */
typedef struct sensim_vepd_run {
  size_t n;       /* samples, >= 3 */
  size_t dim;     /* velocity components per sample: 1 (speed or a signed
                     1-D velocity), 2 (east, north) or 3 (east, north, up) */
  double *t;      /* n sample times, s, strictly increasing */
  double *v_est;  /* n x dim estimated velocity, row-major, m/s */
  double *v_true; /* n x dim ground-truth velocity, row-major, m/s */
} sensim_vepd_run;

/* Per-run numbers. */
typedef struct sensim_vepd_run_metrics {
  double rmse;      /* sqrt(mean_i |v_est_i - v_true_i|^2), m/s */
  double h_est;     /* Wiener entropy of the estimate's signal, [0, 1] */
  double h_true;    /* Wiener entropy of the truth's signal */
  double h_diff;    /* |h_est - h_true| */
} sensim_vepd_run_metrics;

/* RMSE and entropies of one run. The entropy's signal is the velocity
 * itself for dim 1 and its magnitude |v| (speed) for dim 2 and 3.
 * SENSIM_EINVAL for a malformed run (NULL arrays, n < 3, dim not 1..3, NaN,
 * times not increasing). */
SENSIM_TOOLS_API sensim_status sensim_vepd_run_metrics_compute(const sensim_vepd_run *run,
                                              sensim_vepd_run_metrics *out);
/* The same with the entropy over the chosen bins (the above: all bins). */
SENSIM_TOOLS_API sensim_status sensim_vepd_run_metrics_compute_bins(const sensim_vepd_run *run,
                                                                    sensim_entropy_bins bins,
                                                                    sensim_vepd_run_metrics *out);

typedef struct sensim_vepd_result {
  double w1;        /* Wasserstein-1 between the RMSE sets, m/s */
  double w2;        /* Wasserstein-1 between the entropy-difference sets */
  double vepd;      /* (w1 + w2) / 2 */
  double rmse_mean[2];   /* mean RMSE of set a [0] and set b [1], m/s */
  double h_diff_mean[2]; /* mean entropy difference of set a and set b */
} sensim_vepd_result;

/* VEPD between run set a (e.g. real, na >= 1 runs) and set b (simulated,
 * nb >= 1). Optional outputs: per-run metrics into ma[na] and mb[nb] (each
 * may be NULL). Runs are borrowed for the call. */
SENSIM_TOOLS_API sensim_status sensim_vepd_compute(const sensim_vepd_run *a, size_t na, const sensim_vepd_run *b,
                                  size_t nb, sensim_vepd_result *out, sensim_vepd_run_metrics *ma,
                                  sensim_vepd_run_metrics *mb);
/* The same with the entropies over the chosen bins (the above: all bins). */
SENSIM_TOOLS_API sensim_status sensim_vepd_compute_bins(const sensim_vepd_run *a, size_t na,
                                                        const sensim_vepd_run *b, size_t nb,
                                                        sensim_entropy_bins bins, sensim_vepd_result *out,
                                                        sensim_vepd_run_metrics *ma,
                                                        sensim_vepd_run_metrics *mb);

/* Run CSV (docs/vepd.md): a header line naming the columns, then one row of
 * numbers per sample, LF or CRLF line ends. Required columns: t and either
 * v_est, v_true (dim 1) or v_est_e, v_est_n[, v_est_u], v_true_e,
 * v_true_n[, v_true_u] (dim 2 or 3); other columns are ignored, in any
 * order. SENSIM_ENOTFOUND if the file does not exist, SENSIM_EPARSE for
 * malformed text (with file:line), SENSIM_EINVAL for NaN or a bad run. The
 * run's arrays are allocated; free them with sensim_vepd_run_free. */
SENSIM_TOOLS_API sensim_status sensim_vepd_run_read(const char *path, sensim_vepd_run *out);
/* Write a run in that format (atomically: a failed write leaves no file). */
SENSIM_TOOLS_API sensim_status sensim_vepd_run_write(const char *path, const sensim_vepd_run *run);
/* Every *.csv file directly inside `dir`, sorted by name, as runs. An
 * empty folder is SENSIM_EINVAL. Free with sensim_vepd_runs_free. */
SENSIM_TOOLS_API sensim_status sensim_vepd_runs_read_dir(const char *dir, sensim_vepd_run **runs, size_t *nruns);
SENSIM_TOOLS_API void sensim_vepd_run_free(sensim_vepd_run *run);
SENSIM_TOOLS_API void sensim_vepd_runs_free(sensim_vepd_run *runs, size_t nruns);

/* ---- the judge: EKF velocity estimator (tools/ekf_velocity.c) ------------
 * Planar vehicle, state x = [east, north, psi, v] (m, m, rad heading
 * counter-clockwise from east, m/s speed along the heading), driven by the
 * IMU's longitudinal specific force (accel x, sensor = body frame, level
 * mount) and yaw rate (gyro z), corrected by GNSS east/north positions with
 * the receiver's reported covariance when it gives one (cov_enu not all
 * zero), else gnss_sigma^2 I. Models, Jacobians and tuning: docs/vepd.md. */

typedef struct sensim_ekf_params {
  double accel_noise;  /* white-noise density of the acceleration input, m/s^2/sqrt(Hz) */
  double gyro_noise;   /* white-noise density of the yaw-rate input, rad/s/sqrt(Hz) */
  double pos_noise;    /* white position process noise density (unmodelled slip), m/sqrt(s) */
  double gnss_sigma;   /* m, per-axis position sigma used when a fix reports no covariance */
  double init_sigma_psi; /* rad, initial heading sigma (heading from the fix's velocity) */
  double init_sigma_v;   /* m/s, initial speed sigma */
  double output_rate;    /* Hz, estimates per second of the batch function, > 0 */
} sensim_ekf_params;

/* Defaults: accel_noise 0.1, gyro_noise 0.01, pos_noise 0.01, gnss_sigma
 * 0.05, init_sigma_psi 0.1, init_sigma_v 0.2, output_rate 35 (the rate of
 * the published study's estimator). */
SENSIM_TOOLS_API void sensim_ekf_params_init(sensim_ekf_params *p);

typedef struct sensim_ekf sensim_ekf;

typedef struct sensim_ekf_state {
  double t;       /* s, time of the estimate */
  double x[4];    /* east m, north m, psi rad in (-pi, pi], v m/s */
  double P[16];   /* covariance, row-major 4 x 4 */
  double vel[2];  /* velocity east, north, m/s: v (cos psi, sin psi) */
} sensim_ekf_state;

SENSIM_TOOLS_API sensim_status sensim_ekf_create(const sensim_ekf_params *p, sensim_ekf **out);
SENSIM_TOOLS_API void sensim_ekf_destroy(sensim_ekf *ekf);
/* Start (or restart) at time t with state x and per-component sigmas
 * (diagonal covariance). Without it the first valid fix starts the filter:
 * its position and reported (or default) covariance, heading and speed from
 * its vel_enu, with init_sigma_psi, init_sigma_v. */
SENSIM_TOOLS_API sensim_status sensim_ekf_init(sensim_ekf *ekf, double t, const double x[4],
                              const double sigma[4]);
/* An IMU sample at time t (its collection window ends at t): propagates the
 * state from the previous event to t with this sample's input, then holds
 * the input. accel_x m/s^2, gyro_z rad/s. Before the filter has started it
 * only stores the input. SENSIM_ESTATE if t is before the filter's time. */
SENSIM_TOOLS_API sensim_status sensim_ekf_imu(sensim_ekf *ekf, double t, double accel_x, double gyro_z);
/* A GNSS fix at time t: propagates to t with the held input, then updates.
 * A fix with fix_type 0 (outage) is ignored. SENSIM_EINVAL for a NaN
 * position or a reported covariance that is not positive definite. */
SENSIM_TOOLS_API sensim_status sensim_ekf_gnss(sensim_ekf *ekf, double t, const sensim_gnss_fix *fix);
/* The estimate at time t >= the filter's time (propagated with the held
 * input; the filter itself moves to t). SENSIM_ESTATE before it started. */
SENSIM_TOOLS_API sensim_status sensim_ekf_estimate(sensim_ekf *ekf, double t, sensim_ekf_state *out);
/* 1 once the filter has started. */
SENSIM_TOOLS_API int sensim_ekf_started(const sensim_ekf *ekf);

/* Batch: merge nimu IMU samples and ngnss fixes (each sorted by time; IMU
 * first on equal times), and report an estimate every 1 / output_rate s
 * from the start (first fix) to the last input. *out is allocated (free()
 * it); *nout may be 0 when no valid fix came. */
typedef struct sensim_ekf_imu_input {
  double t;        /* s */
  double accel_x;  /* m/s^2 */
  double gyro_z;   /* rad/s */
} sensim_ekf_imu_input;

typedef struct sensim_ekf_gnss_input {
  double t;            /* s */
  sensim_gnss_fix fix;
} sensim_ekf_gnss_input;

SENSIM_TOOLS_API sensim_status sensim_ekf_run(const sensim_ekf_params *p, const sensim_ekf_imu_input *imu,
                             size_t nimu, const sensim_ekf_gnss_input *gnss, size_t ngnss,
                             sensim_ekf_state **out, size_t *nout);

/* ---- the experiment (tools/vepd_experiment.c) ---------------------------- */

enum { SENSIM_VEPD_MANOEUVRES = 3, SENSIM_VEPD_MAX_VARIANTS = 8, SENSIM_VEPD_MAX_CHAIN = 4 };

/* The manoeuvres of a 1/6-scale vehicle (docs/vepd.md gives the formulas). */
typedef enum sensim_vepd_manoeuvre {
  SENSIM_VEPD_STRAIGHT = 0,  /* straight line east, speed 2 + 0.5 sin(2 pi t / 8) m/s */
  SENSIM_VEPD_CIRCLE = 1,    /* circle of radius 1.5 m at 2 m/s, counter-clockwise */
  SENSIM_VEPD_HALF_SINE = 2  /* y = 1 sin(pi x / 10) m driven at dx/dt = 2 m/s, repeated */
} sensim_vepd_manoeuvre;

SENSIM_TOOLS_API const char *sensim_vepd_manoeuvre_name(sensim_vepd_manoeuvre m);

/* A GNSS model: a chain of GNSS filters (names and JSON params, borrowed). */
typedef struct sensim_vepd_variant {
  const char *name;                           /* label in tables and files */
  size_t nfilters;                            /* 1 .. SENSIM_VEPD_MAX_CHAIN */
  const char *filters[SENSIM_VEPD_MAX_CHAIN]; /* registered GNSS filter names */
  const char *params[SENSIM_VEPD_MAX_CHAIN];  /* JSON object text each, or NULL */
} sensim_vepd_variant;

typedef struct sensim_vepd_experiment_params {
  size_t runs;            /* K, runs per variant and manoeuvre, >= 1 */
  double duration;        /* s of each run, >= 2 */
  double host_rate;       /* Hz, keyframes pushed per second */
  double gnss_rate;       /* Hz */
  double imu_rate;        /* Hz */
  const char *imu_noise;  /* JSON params of the "imu_noise" filter, NULL: its defaults */
  uint64_t seed;          /* run k of a simulated set uses world seed seed + k; a
                             simulated reference uses seed + runs + k */
  size_t nvariants;       /* 1 .. SENSIM_VEPD_MAX_VARIANTS */
  sensim_vepd_variant variants[SENSIM_VEPD_MAX_VARIANTS];
  int reference_variant;  /* index into variants: the reference set when
                             reference_dir is NULL */
  const char *reference_dir; /* real runs: reference_dir/<manoeuvre>/ *.csv; a
                                manoeuvre without its folder is skipped */
  const char *out_dir;    /* NULL: no files; else runs as CSV, table and PNGs */
  sensim_ekf_params ekf;  /* the judge */
  sensim_entropy_bins entropy_bins; /* bins of the runs' Wiener entropies */
} sensim_vepd_experiment_params;

/* Defaults: K = 10, 20 s, host 500 Hz, GNSS 10 Hz, IMU 100 Hz (the paper's
 * rate), imu_noise defaults, seed 1, the five GNSS variants of the
 * published study as published (gauss, random_walk, hdop, gauss_hdop,
 * random_walk_hdop: only the HDOP model reports a covariance, the random
 * walks pull back by p / p_max; docs/vepd.md gives their parameters),
 * reference = variant 0, no reference_dir, no out_dir, EKF defaults,
 * entropy over all bins (the paper's Eq. 2). */
SENSIM_TOOLS_API void sensim_vepd_experiment_params_init(sensim_vepd_experiment_params *p);

typedef struct sensim_vepd_cell {
  int status;                 /* SENSIM_OK, or why this cell has no numbers
                                 (SENSIM_ENOTFOUND: a filter is not built in,
                                 or no reference runs for the manoeuvre) */
  sensim_vepd_result result;  /* reference = set a, variant = set b */
} sensim_vepd_cell;

typedef struct sensim_vepd_experiment_result {
  size_t nvariants;
  sensim_vepd_cell cell[SENSIM_VEPD_MAX_VARIANTS][SENSIM_VEPD_MANOEUVRES];
} sensim_vepd_experiment_result;

/* Run the experiment. A variant whose filters are not all built in gets
 * status SENSIM_ENOTFOUND in its cells and does not fail the call; a
 * reference that cannot be made does. With out_dir: the runs as
 * out_dir/runs/<variant>/<manoeuvre>/run_<k>.csv (reference:
 * out_dir/runs/reference/...), the layout reference_dir is read in, so
 * out_dir/runs/<variant> can be another experiment's reference_dir and
 * each manoeuvre's folder a set for sensim_vepd_runs_read_dir;
 * out_dir/vepd_table.csv and per manoeuvre
 * out_dir/hist_rmse_<manoeuvre>.png and hist_hdiff_<manoeuvre>.png. */
SENSIM_TOOLS_API sensim_status sensim_vepd_experiment_run(const sensim_vepd_experiment_params *p,
                                         sensim_vepd_experiment_result *out);

/* Simulate one run of one variant on one manoeuvre with world seed `seed`
 * and judge it: out gets dim 1 (speed) estimates at the EKF's output rate
 * and the true speed. Free with sensim_vepd_run_free. */
SENSIM_TOOLS_API sensim_status sensim_vepd_simulate_run(const sensim_vepd_experiment_params *p,
                                       const sensim_vepd_variant *variant,
                                       sensim_vepd_manoeuvre m, uint64_t seed,
                                       sensim_vepd_run *out);

#ifdef __cplusplus
}
#endif
#endif
