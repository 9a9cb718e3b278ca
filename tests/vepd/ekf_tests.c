/* tests/vepd/ekf_tests.c: the VEPD judge. Consistency on a synthetic run
 * with known noise (normalized estimation error squared, Y. Bar-Shalom,
 * X. R. Li, T. Kirubarajan, "Estimation with Applications to Tracking and
 * Navigation", Wiley 2001, sec. 5.4.2), exact tracking of noise-free
 * motion, and bad input. */
#include <gsl/gsl_cdf.h>
#include <stdlib.h>
#include <string.h>
#include <sensim_tools/sensim_tools.h>
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

/* Truth: v(t) = 2 + 0.5 sin(0.8 t) m/s, psi(t) = 0.3 + 1.2 (1 - cos(0.5 t))
 * rad (yaw rate 0.6 sin(0.5 t)); positions by composite Simpson. */
static double tv(double t) { return 2.0 + 0.5 * sin(0.8 * t); }
static double tpsi(double t) { return 0.3 + 1.2 * (1.0 - cos(0.5 * t)); }

static void advance_truth(double t0, double t1, double p[2]) {
  enum { m = 8 };
  double h = (t1 - t0) / m, se = 0.0, sn = 0.0;
  for (int i = 0; i <= m; i++) {
    double t = t0 + i * h, wgt = (i == 0 || i == m) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    se += wgt * tv(t) * cos(tpsi(t));
    sn += wgt * tv(t) * sin(tpsi(t));
  }
  p[0] += se * h / 3.0;
  p[1] += sn * h / 3.0;
}

#define IMU_RATE 200.0
#define GNSS_EVERY 20   /* 10 Hz */
#define CHECK_EVERY 400 /* every 2 s */
#define NCHECK 5
#define QA 0.05   /* m/s^2/sqrt(Hz) */
#define QW 0.005  /* rad/s/sqrt(Hz) */
#define SG 0.05   /* m */

/* One Monte-Carlo run; errors at the check times into ev (velocity) and
 * nees4 (full state NEES). The IMU reads the exact window average of the
 * true inputs ((v(t) - v(t - T)) / T etc.) plus white noise of variance
 * q^2 / T (a density q averaged over T), the GNSS the true position plus
 * N(0, (k SG)^2) per axis while reporting SG^2: k = 1 is the matched
 * filter, k > 1 one that is told the receiver is better than it is. */
static void mc_run(uint64_t seed, double k, double nees_v[NCHECK], double nees4[NCHECK]) {
  sensim_ekf_params p;
  sensim_ekf_params_init(&p);
  p.accel_noise = QA;
  p.gyro_noise = QW;
  p.pos_noise = 0.0;
  p.gnss_sigma = 1.0; /* wrong on purpose: the fixes report their covariance */
  sensim_ekf *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_ekf_create(&p, &f));
  sensim_rng r;
  sensim_rng_init(&r, seed, 7, 0, 0);
  double pos[2] = {1.0, -2.0};
  const double sig0[4] = {SG, SG, 0.05, 0.1};
  double x0[4] = {pos[0], pos[1], tpsi(0), tv(0)};
  for (int i = 0; i < 4; i++) x0[i] += sig0[i] * sensim_rng_normal(&r);
  SENSIM_OK_OR_FAIL(sensim_ekf_init(f, 0.0, x0, sig0));
  const double T = 1.0 / IMU_RATE;
  int c = 0;
  for (int j = 1; j <= CHECK_EVERY * NCHECK; j++) {
    double t = j / IMU_RATE, tp = (j - 1) / IMU_RATE;
    advance_truth(tp, t, pos);
    double a = (tv(t) - tv(tp)) / T + QA / sqrt(T) * sensim_rng_normal(&r);
    double w = (tpsi(t) - tpsi(tp)) / T + QW / sqrt(T) * sensim_rng_normal(&r);
    SENSIM_OK_OR_FAIL(sensim_ekf_imu(f, t, a, w));
    if (j % GNSS_EVERY == 0) {
      sensim_gnss_fix fix;
      memset(&fix, 0, sizeof fix);
      fix.fix_type = 1;
      fix.enu[0] = pos[0] + k * SG * sensim_rng_normal(&r);
      fix.enu[1] = pos[1] + k * SG * sensim_rng_normal(&r);
      fix.cov_enu[0] = fix.cov_enu[4] = SG * SG;
      SENSIM_OK_OR_FAIL(sensim_ekf_gnss(f, t, &fix));
    }
    if (j % CHECK_EVERY == 0) {
      sensim_ekf_state s;
      SENSIM_OK_OR_FAIL(sensim_ekf_estimate(f, t, &s));
      double e[4] = {s.x[0] - pos[0], s.x[1] - pos[1], remainder(s.x[2] - tpsi(t), 2 * M_PI),
                     s.x[3] - tv(t)};
      nees_v[c] = e[3] * e[3] / s.P[15];
      /* e^T P^-1 e by Cholesky (P is symmetric positive definite). */
      double L[16] = {0}, y[4];
      for (int i = 0; i < 4; i++)
        for (int m = 0; m <= i; m++) {
          double sum = s.P[4 * i + m];
          for (int q = 0; q < m; q++) sum -= L[4 * i + q] * L[4 * m + q];
          L[4 * i + m] = i == m ? sqrt(sum) : sum / L[4 * m + m];
        }
      double q2 = 0.0;
      for (int i = 0; i < 4; i++) {
        double sum = e[i];
        for (int q = 0; q < i; q++) sum -= L[4 * i + q] * y[q];
        y[i] = sum / L[5 * i];
        q2 += y[i] * y[i];
      }
      nees4[c] = q2;
      c++;
    }
  }
  sensim_ekf_destroy(f);
}

enum { NRUNS = 200 };

/* Monte-Carlo averages of NEES at each check time over NRUNS runs. */
static void mc_average(double k, double avg_v[NCHECK], double avg4[NCHECK]) {
  for (int c = 0; c < NCHECK; c++) avg_v[c] = avg4[c] = 0.0;
  for (int i = 0; i < NRUNS; i++) {
    double nv[NCHECK], n4[NCHECK];
    mc_run(1000 + (uint64_t)i, k, nv, n4);
    for (int c = 0; c < NCHECK; c++) {
      avg_v[c] += nv[c] / NRUNS;
      avg4[c] += n4[c] / NRUNS;
    }
  }
}

static void test_ekf_velocity_error_is_consistent_with_its_covariance(void **s) {
  (void)s;
  /* For a consistent filter, at a fixed time the NEES of N independent runs
   * sums to a chi-square with N n_x degrees of freedom (Bar-Shalom et al.
   * 2001, eq. 5.4.2-5): the average lies within
   * [chi2inv(alpha/2, N n_x), chi2inv(1 - alpha/2, N n_x)] / N with
   * probability 1 - alpha. Five check times 2 s apart, each tested at
   * alpha = 0.002 (0.01 for the five together, Bonferroni), for the speed
   * alone (n_x = 1; the error's sample variance against P_vv) and the
   * whole state (n_x = 4). Nonlinearity is negligible here (heading sigma
   * ~0.01 rad), and the IMU's window average drives the midpoint model
   * exactly in v and psi. */
  double av[NCHECK], a4[NCHECK];
  mc_average(1.0, av, a4);
  const double alpha = 0.002;
  double lo1 = gsl_cdf_chisq_Pinv(alpha / 2, NRUNS) / NRUNS;
  double hi1 = gsl_cdf_chisq_Pinv(1 - alpha / 2, NRUNS) / NRUNS;
  double lo4 = gsl_cdf_chisq_Pinv(alpha / 2, 4 * NRUNS) / NRUNS;
  double hi4 = gsl_cdf_chisq_Pinv(1 - alpha / 2, 4 * NRUNS) / NRUNS;
  for (int c = 0; c < NCHECK; c++) {
    print_message("t = %d s: speed NEES %.3f in [%.3f, %.3f], state NEES %.3f in [%.3f, %.3f]\n",
                  2 * (c + 1), av[c], lo1, hi1, a4[c], lo4, hi4);
    if (!(av[c] >= lo1 && av[c] <= hi1))
      fail_msg("check %d: speed NEES %.3f outside [%.3f, %.3f]", c, av[c], lo1, hi1);
    if (!(a4[c] >= lo4 && a4[c] <= hi4))
      fail_msg("check %d: state NEES %.3f outside [%.3f, %.3f]", c, a4[c], lo4, hi4);
  }
}

static void test_ekf_told_a_too_small_gnss_noise_fails_the_nees_bound(void **s) {
  (void)s;
  /* The same runs with the receiver 3x noisier than it reports: the test
   * above must be able to tell (else it would pass any filter). */
  double av[NCHECK], a4[NCHECK];
  mc_average(3.0, av, a4);
  double hi4 = gsl_cdf_chisq_Pinv(1 - 0.001, 4 * NRUNS) / NRUNS;
  double mean4 = 0.0;
  for (int c = 0; c < NCHECK; c++) mean4 += a4[c] / NCHECK;
  assert_true(mean4 > hi4);
}

/* Noise-free circle at constant speed: the batch judge's speed stays on
 * the truth (midpoint chord error (w dt)^2 / 24 relative, corrected by the
 * fixes), starts at the first valid fix, ignores outage fixes, and reports
 * at 35 Hz. */
static void test_ekf_run_tracks_noise_free_circle_at_35_hz(void **s) {
  (void)s;
  const double R = 1.5, V = 2.0, W = V / R, dur = 6.0;
  size_t nimu = (size_t)(dur * 200) + 1, ng = (size_t)(dur * 10) + 1;
  sensim_ekf_imu_input *imu = calloc(nimu, sizeof *imu);
  sensim_ekf_gnss_input *gn = calloc(ng, sizeof *gn);
  for (size_t i = 0; i < nimu; i++) imu[i] = (sensim_ekf_imu_input){i / 200.0, 0.0, W};
  for (size_t i = 0; i < ng; i++) {
    double t = i / 10.0, a = W * t;
    gn[i].t = t;
    gn[i].fix.fix_type = i < 3 ? 0 : 1; /* an outage at the start */
    gn[i].fix.enu[0] = R * sin(a);
    gn[i].fix.enu[1] = R * (1 - cos(a));
    gn[i].fix.vel_enu[0] = V * cos(a);
    gn[i].fix.vel_enu[1] = V * sin(a);
    if (i == 1) gn[i].fix.enu[0] = NAN; /* outage fields are not valid: ignored */
  }
  sensim_ekf_params p;
  sensim_ekf_params_init(&p);
  sensim_ekf_state *est = NULL;
  size_t n = 0;
  SENSIM_OK_OR_FAIL(sensim_ekf_run(&p, imu, nimu, gn, ng, &est, &n));
  /* From t = 0.3 (first valid fix) to 6.0 at 35 Hz: floor(5.7 * 35) + 1. */
  assert_int_equal(n, 200);
  assert_near(est[0].t, 0.3, 1e-12);
  assert_near(est[1].t - est[0].t, 1.0 / 35.0, 1e-12);
  for (size_t i = 0; i < n; i++) {
    assert_near(est[i].x[3], V, 1e-3);
    double a = W * est[i].t;
    assert_near(est[i].vel[0], V * cos(a), 5e-3);
    assert_near(est[i].vel[1], V * sin(a), 5e-3);
  }
  free(est);
  /* No valid fix: no estimates, not an error. */
  for (size_t i = 0; i < ng; i++) gn[i].fix.fix_type = 0;
  SENSIM_OK_OR_FAIL(sensim_ekf_run(&p, imu, nimu, gn, ng, &est, &n));
  assert_int_equal(n, 0);
  free(est);
  free(imu);
  free(gn);
}

static void test_ekf_update_uses_reported_covariance_else_the_default(void **s) {
  (void)s;
  /* At the prior's own time the update is the scalar Kalman update per
   * axis (the prior is diagonal and the position block decoupled):
   * P+ = P R / (P + R), x+ = x + P / (P + R) (z - x). */
  sensim_ekf_params p;
  sensim_ekf_params_init(&p);
  sensim_ekf *f = NULL;
  SENSIM_OK_OR_FAIL(sensim_ekf_create(&p, &f));
  const double x[4] = {0, 0, 0, 1}, sg[4] = {1, 1, 0.1, 0.1};
  SENSIM_OK_OR_FAIL(sensim_ekf_init(f, 0.0, x, sg));
  sensim_gnss_fix fix;
  memset(&fix, 0, sizeof fix);
  fix.fix_type = 1;
  fix.enu[0] = 1.0;
  fix.enu[1] = -2.0;
  fix.cov_enu[0] = 0.25;
  fix.cov_enu[4] = 4.0;
  SENSIM_OK_OR_FAIL(sensim_ekf_gnss(f, 0.0, &fix));
  sensim_ekf_state st;
  SENSIM_OK_OR_FAIL(sensim_ekf_estimate(f, 0.0, &st));
  assert_near(st.P[0], 0.25 / 1.25, 1e-15);
  assert_near(st.P[5], 4.0 / 5.0, 1e-15);
  assert_near(st.x[0], 1.0 / 1.25, 1e-15);
  assert_near(st.x[1], -2.0 / 5.0, 1e-15);
  /* No reported covariance: gnss_sigma^2 = 0.0025 on each axis. */
  SENSIM_OK_OR_FAIL(sensim_ekf_init(f, 0.0, x, sg));
  memset(fix.cov_enu, 0, sizeof fix.cov_enu);
  SENSIM_OK_OR_FAIL(sensim_ekf_gnss(f, 0.0, &fix));
  SENSIM_OK_OR_FAIL(sensim_ekf_estimate(f, 0.0, &st));
  assert_near(st.P[0], 0.0025 / 1.0025, 1e-15);
  assert_near(st.P[5], 0.0025 / 1.0025, 1e-15);
  sensim_ekf_destroy(f);
}

static void test_ekf_rejects_bad_input_and_stays_usable(void **s) {
  (void)s;
  sensim_ekf_params p;
  sensim_ekf_params_init(&p);
  sensim_ekf *f = NULL;
  sensim_ekf_params bad = p;
  bad.accel_noise = -1;
  assert_int_equal(sensim_ekf_create(&bad, &f), SENSIM_EINVAL);
  bad = p;
  bad.gnss_sigma = NAN;
  assert_int_equal(sensim_ekf_create(&bad, &f), SENSIM_EINVAL);
  bad = p;
  bad.output_rate = 0;
  assert_int_equal(sensim_ekf_create(&bad, &f), SENSIM_EINVAL);
  assert_null(f);
  SENSIM_OK_OR_FAIL(sensim_ekf_create(&p, &f));
  sensim_ekf_state st0, st1;
  assert_int_equal(sensim_ekf_estimate(f, 0.0, &st0), SENSIM_ESTATE);
  sensim_gnss_fix fix;
  memset(&fix, 0, sizeof fix);
  fix.fix_type = 1;
  fix.vel_enu[0] = 1.0;
  SENSIM_OK_OR_FAIL(sensim_ekf_gnss(f, 1.0, &fix));
  assert_true(sensim_ekf_started(f));
  SENSIM_OK_OR_FAIL(sensim_ekf_imu(f, 1.1, 0.0, 0.0));
  SENSIM_OK_OR_FAIL(sensim_ekf_estimate(f, 1.1, &st0));
  /* Time going back, NaN values, a covariance that is not positive
   * definite: refused, and the state is untouched. */
  assert_int_equal(sensim_ekf_imu(f, 1.0, 0.0, 0.0), SENSIM_ESTATE);
  assert_int_equal(sensim_ekf_gnss(f, 1.05, &fix), SENSIM_ESTATE);
  assert_int_equal(sensim_ekf_imu(f, 1.2, NAN, 0.0), SENSIM_EINVAL);
  sensim_gnss_fix nanfix = fix;
  nanfix.enu[1] = NAN;
  assert_int_equal(sensim_ekf_gnss(f, 1.2, &nanfix), SENSIM_EINVAL);
  sensim_gnss_fix npd = fix;
  npd.cov_enu[0] = 1.0;
  npd.cov_enu[4] = -1.0;
  assert_int_equal(sensim_ekf_gnss(f, 1.2, &npd), SENSIM_EINVAL);
  npd.cov_enu[4] = 1.0;
  npd.cov_enu[1] = npd.cov_enu[3] = 2.0;
  assert_int_equal(sensim_ekf_gnss(f, 1.2, &npd), SENSIM_EINVAL);
  SENSIM_OK_OR_FAIL(sensim_ekf_estimate(f, 1.1, &st1));
  assert_memory_equal(&st0, &st1, sizeof st0);
  const double x[4] = {0, 0, 0, 1}, sg[4] = {1, 1, 0, 1};
  assert_int_equal(sensim_ekf_init(f, 2.0, x, sg), SENSIM_EINVAL);
  /* Still usable. */
  SENSIM_OK_OR_FAIL(sensim_ekf_imu(f, 1.2, 0.1, 0.0));
  SENSIM_OK_OR_FAIL(sensim_ekf_gnss(f, 1.2, &fix));
  sensim_ekf_destroy(f);
  sensim_ekf_destroy(NULL);
  /* Batch: unsorted input. */
  sensim_ekf_imu_input imu[2] = {{1.0, 0, 0}, {0.5, 0, 0}};
  sensim_ekf_state *est = NULL;
  size_t n = 7;
  assert_int_equal(sensim_ekf_run(&p, imu, 2, NULL, 0, &est, &n), SENSIM_EINVAL);
  assert_int_equal(sensim_ekf_run(&p, NULL, 2, NULL, 0, &est, &n), SENSIM_EINVAL);
  assert_int_equal(n, 7);
}

int sensim_test_vepd_ekf(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ekf_velocity_error_is_consistent_with_its_covariance),
      cmocka_unit_test(test_ekf_told_a_too_small_gnss_noise_fails_the_nees_bound),
      cmocka_unit_test(test_ekf_run_tracks_noise_free_circle_at_35_hz),
      cmocka_unit_test(test_ekf_update_uses_reported_covariance_else_the_default),
      cmocka_unit_test(test_ekf_rejects_bad_input_and_stays_usable),
  };
  return cmocka_run_group_tests_name("vepd_ekf", tests, NULL, NULL);
}
