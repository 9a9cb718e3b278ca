/* tests/sweep/vepd_sweep_tests.c: a vepd sweep executed run by run and
 * reduced writes the table and histograms sensim_vepd_experiment_run
 * writes for the same settings, byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep/sweep_groups.h"
#include "support/testutil.h"
#include <sensim_tools/vepd.h>

#define VD SWEEP_TMP "/vepd"

/* K = 2 drives of 2 s (the experiment's least) per model and manoeuvre,
 * host and IMU at 100 Hz: one variant, the reference being that variant
 * (its drives with seeds seed + K + k). 2 models x 3 manoeuvres x 2 = 12. */
#define VEPD_OBJ                                                                                              \
  "{\"runs\": 2, \"seed\": 5, \"duration\": 2, \"host_rate\": 100, \"imu_rate\": 100, \"gnss_rate\": 10,"      \
  " \"variants\": [{\"name\": \"gauss\", \"filters\": [{\"name\": \"gnss_noise\", \"params\": {\"sigma\": "     \
  "[0.02, 0.02, 0.04]}}]}]}"

static void experiment_params(sensim_vepd_experiment_params *p, const char *out_dir, double accel_noise) {
  sensim_vepd_experiment_params_init(p);
  p->runs = 2;
  p->seed = 5;
  p->duration = 2;
  p->host_rate = 100;
  p->imu_rate = 100;
  p->gnss_rate = 10;
  p->nvariants = 1;
  p->variants[0] = (sensim_vepd_variant){"gauss", 1, {"gnss_noise"}, {"{\"sigma\":[0.02,0.02,0.04]}"}};
  p->reference_variant = 0;
  p->out_dir = out_dir;
  if (accel_noise > 0) p->ekf.accel_noise = accel_noise;
}

static void assert_same_file(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  char *x = test_slurp(a, &na), *y = test_slurp(b, &nb);
  if (na != nb || memcmp(x, y, na) != 0) fail_msg("%s (%zu bytes) differs from %s (%zu bytes)", a, na, b, nb);
  free(x);
  free(y);
}

static const char *const kMan[] = {"straight", "circle", "half_sine"};

/* Execute every run in reverse (any order must do), keeping the records. */
static char **execute_all(const sensim_sweep *s, const char *dir) {
  size_t n = sensim_sweep_run_count(s);
  char **recs = calloc(n, sizeof *recs);
  assert_non_null(recs);
  SENSIM_OK_OR_FAIL(sensim_sweep_prepare(s, dir));
  for (size_t j = n; j-- > 0;) SENSIM_OK_OR_FAIL(sensim_sweep_execute(s, j, dir, &recs[j]));
  return recs;
}

static void free_records(char **recs, size_t n) {
  for (size_t i = 0; i < n; i++) free(recs[i]);
  free(recs);
}

/* The sweep's vepd_table.csv and hist_*.png are the experiment's bytes;
 * a missing run makes its cells "incomplete". */
static void test_vepd_sweep_reduces_to_the_experiments_files(void **state) {
  (void)state;
  test_remove_tree(VD);
  sensim_sweep *s = sweep_load_ok("{\"name\": \"vs\", \"experiment\": \"vepd\", \"vepd\": " VEPD_OBJ "}", NULL);
  assert_int_equal(sensim_sweep_run_count(s), 12);
  char **recs = execute_all(s, VD "/sweep");
  sensim_sweep_totals t;
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, VD "/sweep", recs, &t));
  assert_int_equal(t.ok, 12);
  assert_true(test_file_exists(VD "/sweep/run_0011/run.csv"));

  sensim_vepd_experiment_params p;
  experiment_params(&p, VD "/exp", 0);
  sensim_vepd_experiment_result r;
  SENSIM_OK_OR_FAIL(sensim_vepd_experiment_run(&p, &r));
  assert_same_file(VD "/sweep/vepd_table.csv", VD "/exp/vepd_table.csv");
  for (int m = 0; m < 3; m++) {
    char a[256], b[256];
    const char *kind[] = {"rmse", "hdiff"};
    for (int k = 0; k < 2; k++) {
      snprintf(a, sizeof a, VD "/sweep/hist_%s_%s.png", kind[k], kMan[m]);
      snprintf(b, sizeof b, VD "/exp/hist_%s_%s.png", kind[k], kMan[m]);
      assert_same_file(a, b);
    }
  }
  /* A run's drive is the experiment's drive: run 7 is gauss, straight,
   * k = 1 (model 1 after the reference's 6 runs). */
  assert_same_file(VD "/sweep/run_0007/run.csv", VD "/exp/runs/gauss/straight/run_001.csv");
  assert_same_file(VD "/sweep/run_0001/run.csv", VD "/exp/runs/reference/straight/run_001.csv");

  /* summary.csv: the vepd columns, each run's numbers as its record has them. */
  char *sum = test_slurp(VD "/sweep/summary.csv", NULL);
  assert_int_equal(strncmp(sum, "run,status,model,manoeuvre,k,world_seed,estimates,rmse,h_est,h_true,h_diff,error\n"
                                "run_0000,ok,reference,straight,0,7,",
                           strlen("run,status,model,manoeuvre,k,world_seed,estimates,rmse,h_est,h_true,h_diff,error\n"
                                  "run_0000,ok,reference,straight,0,7,")),
                   0);
  sweep_assert_contains(sum, "\nrun_0011,ok,gauss,half_sine,1,6,");
  free(sum);

  /* Without run 9 (gauss, circle, k = 1) its cell has no numbers; the
   * others keep theirs. */
  char *kept = recs[9];
  recs[9] = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, VD "/sweep", recs, &t));
  assert_int_equal(t.missing, 1);
  assert_int_equal(t.ok, 11);
  char *table = test_slurp(VD "/sweep/vepd_table.csv", NULL);
  sweep_assert_contains(table, "\ngauss,circle,incomplete,,,,,,,\n");
  char *exp = test_slurp(VD "/exp/vepd_table.csv", NULL);
  char *straight = strstr(exp, "\ngauss,straight,");
  assert_non_null(straight);
  char line[512];
  snprintf(line, sizeof line, "%.*s", (int)(strchr(straight + 1, '\n') - straight + 1), straight);
  sweep_assert_contains(table, line);
  free(table);
  recs[9] = kept;
  /* Without one reference drive (run 2: circle, k = 0) the circle cell has
   * no reference set; the others are the experiment's. */
  kept = recs[2];
  recs[2] = NULL;
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, VD "/sweep", recs, &t));
  table = test_slurp(VD "/sweep/vepd_table.csv", NULL);
  sweep_assert_contains(table, "\ngauss,circle,incomplete,,,,,,,\n");
  sweep_assert_contains(table, line);
  free(table);
  free(exp);
  recs[2] = kept;
  free_records(recs, 12);
  sensim_sweep_destroy(s);
}

/* With an axis the table gets a leading column and combination c's
 * histograms the suffix _cccc; each combination is the experiment run
 * with that axis's value. */
static void test_vepd_sweep_with_an_axis_matches_one_experiment_per_value(void **state) {
  (void)state;
  test_remove_tree(VD "/ax");
  test_remove_tree(VD "/exp2");
  sensim_sweep *s = sweep_load_ok("{\"name\": \"va\", \"experiment\": \"vepd\", \"vepd\": " VEPD_OBJ ","
                                  " \"axes\": [{\"name\": \"gs\", \"pointer\": \"/ekf/accel_noise\", \"values\": [0.1, 2]}]}",
                                  NULL);
  assert_int_equal(sensim_sweep_run_count(s), 24);
  char **recs = execute_all(s, VD "/ax");
  SENSIM_OK_OR_FAIL(sensim_sweep_reduce(s, VD "/ax", recs, NULL));
  /* Combination 0 is the default accel_noise 0.1: the experiment of the
   * first test; combination 1 is another experiment with 2 m/s^2/sqrt(Hz). */
  sensim_vepd_experiment_params p;
  experiment_params(&p, VD "/exp2", 2);
  sensim_vepd_experiment_result r;
  SENSIM_OK_OR_FAIL(sensim_vepd_experiment_run(&p, &r));
  const char *exps[2] = {VD "/exp", VD "/exp2"};
  const char *vals[2] = {"0.1", "2"};
  char want[4096] = "";
  size_t n = 0;
  for (int c = 0; c < 2; c++) {
    char path[256];
    snprintf(path, sizeof path, "%s/vepd_table.csv", exps[c]);
    char *e = test_slurp(path, NULL);
    char *nl = strchr(e, '\n');
    if (c == 0) n += (size_t)snprintf(want + n, sizeof want - n, "gs,%.*s", (int)(nl - e + 1), e);
    for (char *row = nl + 1; *row;) {
      char *end = strchr(row, '\n');
      n += (size_t)snprintf(want + n, sizeof want - n, "%s,%.*s", vals[c], (int)(end - row + 1), row);
      row = end + 1;
    }
    free(e);
    for (int m = 0; m < 3; m++) {
      const char *kind[] = {"rmse", "hdiff"};
      for (int k = 0; k < 2; k++) {
        char a[256], b[256];
        snprintf(a, sizeof a, VD "/ax/hist_%s_%s_%04d.png", kind[k], kMan[m], c);
        snprintf(b, sizeof b, "%s/hist_%s_%s.png", exps[c], kind[k], kMan[m]);
        assert_same_file(a, b);
      }
    }
  }
  /* The value matters, so a swapped combination would show. */
  char *e0 = test_slurp(VD "/exp/vepd_table.csv", NULL), *e1 = test_slurp(VD "/exp2/vepd_table.csv", NULL);
  assert_string_not_equal(e0, e1);
  free(e0);
  free(e1);
  char *got = test_slurp(VD "/ax/vepd_table.csv", NULL);
  assert_string_equal(got, want);
  assert_false(test_file_exists(VD "/ax/hist_rmse_straight.png"));
  free(got);
  free_records(recs, 24);
  sensim_sweep_destroy(s);
}

int sensim_test_sweep_vepd(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vepd_sweep_reduces_to_the_experiments_files),
      cmocka_unit_test(test_vepd_sweep_with_an_axis_matches_one_experiment_per_value),
  };
  return cmocka_run_group_tests_name("sweep_vepd", tests, NULL, NULL);
}
