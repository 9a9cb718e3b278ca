/* tests/vepd/cli_tests.c: `sensim vepd`, `sensim ekf` and `sensim
 * vepd-experiment` run as child processes: exit codes (0 success, 1
 * failure, 2 bad usage) and bad input. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sensim_tools/sensim_tools.h>
#include "support/run_cli.h"
#include "support/testutil.h"
#include "vepd/vepd_groups.h"

#define TMP SENSIM_TEST_TMP "/vepd_cli"
#define LOG TMP "/log.txt"

/* The program with args, its output in LOG (support/run_cli.h). */
static int run_cli(const char *const *args) { return test_run_cli(LOG, args); }

static void log_contains(const char *what) {
  FILE *fp = fopen(LOG, "rb");
  assert_non_null(fp);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, fp);
  buf[n] = '\0';
  fclose(fp);
  if (!strstr(buf, what)) fail_msg("log lacks '%s':\n%s", what, buf);
}

static void put(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static int setup(void **s) {
  (void)s;
  if (access(SENSIM_CLI_PATH, X_OK) != 0) {
    fprintf(stderr, "vepd cli: %s not built (build the sensim_cli target)\n", SENSIM_CLI_PATH);
    return -1;
  }
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

/* Two run sets from the library's own experiment: a and b. */
static void make_sets(void) {
  sensim_vepd_experiment_params p;
  sensim_vepd_experiment_params_init(&p);
  p.duration = 3.0;
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/a"));
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/b"));
  for (int k = 0; k < 3; k++) {
    char path[256];
    sensim_vepd_run r;
    SENSIM_OK_OR_FAIL(sensim_vepd_simulate_run(&p, &p.variants[0], SENSIM_VEPD_CIRCLE, 10 + k, &r));
    snprintf(path, sizeof path, TMP "/a/r%d.csv", k);
    SENSIM_OK_OR_FAIL(sensim_vepd_run_write(path, &r));
    sensim_vepd_run_free(&r);
    SENSIM_OK_OR_FAIL(sensim_vepd_simulate_run(&p, &p.variants[0], SENSIM_VEPD_CIRCLE, 20 + k, &r));
    snprintf(path, sizeof path, TMP "/b/r%d.csv", k);
    SENSIM_OK_OR_FAIL(sensim_vepd_run_write(path, &r));
    sensim_vepd_run_free(&r);
  }
}

static void test_cli_vepd_scores_two_folders_and_rejects_bad_input(void **s) {
  (void)s;
  make_sets();
  const char *ok[] = {"vepd", TMP "/a", TMP "/b", "--per-run", NULL};
  assert_int_equal(run_cli(ok), 0);
  log_contains("VEPD ");
  log_contains("run 2:");
  const char *same[] = {"vepd", TMP "/a", TMP "/a", NULL};
  assert_int_equal(run_cli(same), 0);
  log_contains("VEPD 0\n");
  const char *help[] = {"vepd", "--help", NULL};
  assert_int_equal(run_cli(help), 0);
  const char *one[] = {"vepd", TMP "/a", NULL};
  assert_int_equal(run_cli(one), 2);
  const char *opt[] = {"vepd", TMP "/a", TMP "/b", "--bogus", NULL};
  assert_int_equal(run_cli(opt), 2);
  const char *fl[] = {"vepd", TMP "/a", TMP "/b", "--entropy", "fluctuation", NULL};
  assert_int_equal(run_cli(fl), 0);
  const char *badbins[] = {"vepd", TMP "/a", TMP "/b", "--entropy", "half", NULL};
  assert_int_equal(run_cli(badbins), 2);
  const char *nobins[] = {"vepd", TMP "/a", TMP "/b", "--entropy", NULL};
  assert_int_equal(run_cli(nobins), 2);
  const char *missing[] = {"vepd", TMP "/a", TMP "/no_such_dir", NULL};
  assert_int_equal(run_cli(missing), 1);
  log_contains("no_such_dir");
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/empty"));
  const char *empty[] = {"vepd", TMP "/empty", TMP "/a", NULL};
  assert_int_equal(run_cli(empty), 1);
  SENSIM_OK_OR_FAIL(sensim_mkdirs(TMP "/bad"));
  put(TMP "/bad/x.csv", "t,v_est,v_true\n0,1,1\n1,oops,1\n2,1,1\n");
  const char *bad[] = {"vepd", TMP "/a", TMP "/bad", NULL};
  assert_int_equal(run_cli(bad), 1);
  log_contains("x.csv:3");
  put(TMP "/bad/x.csv", "t,v_est,v_true\n0,1,1\n1,nan,1\n2,1,1\n");
  assert_int_equal(run_cli(bad), 1);
}

/* A GNSS and an IMU CSV written by io/csv.c from a short circle drive. */
static void make_recording(void) {
  sensim_world *w = test_world(0, 3);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  sensim_body *car = NULL;
  SENSIM_OK_OR_FAIL(sensim_body_create(w, &bp, &car));
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  sp.body = car;
  sensim_sensor *g = NULL, *m = NULL;
  SENSIM_OK_OR_FAIL(sensim_gnss_create(w, &sp, test_gnss_defaults(), &g));
  SENSIM_OK_OR_FAIL(sensim_sensor_add_filter(g, "gnss_noise", "{\"sigma\":[0.02,0.02,0.04]}"));
  sp.rate = 200;
  SENSIM_OK_OR_FAIL(sensim_imu_create(w, &sp, test_imu_defaults(), &m));
  sensim_csv *cg = NULL, *cm = NULL;
  SENSIM_OK_OR_FAIL(sensim_csv_open(TMP "/gnss.csv", SENSIM_PAYLOAD_GNSS, &cg));
  SENSIM_OK_OR_FAIL(sensim_csv_open(TMP "/imu.csv", SENSIM_PAYLOAD_IMU, &cm));
  const double R = 1.5, V = 2.0, W = V / R;
  for (int j = 0; j <= 2000; j++) { /* 4 s at 500 Hz */
    double t = j / 500.0, a = W * t;
    sensim_body_state st = {0};
    st.pose.pos = (sensim_vec3){R * sin(a), R * (1 - cos(a)), 0};
    st.pose.rot = sensim_quat_from_axis_angle((sensim_vec3){0, 0, 1}, a);
    st.flags = SENSIM_STATE_VELOCITY | SENSIM_STATE_ACCELERATION;
    st.lin_vel = (sensim_vec3){V * cos(a), V * sin(a), 0};
    st.lin_acc = (sensim_vec3){-V * W * sin(a), V * W * cos(a), 0};
    st.ang_vel = (sensim_vec3){0, 0, W};
    SENSIM_OK_OR_FAIL(sensim_body_push_state(car, t, &st));
    SENSIM_OK_OR_FAIL(sensim_world_advance(w, t));
    const sensim_frame *f;
    while (sensim_sensor_poll(g, &f) == SENSIM_OK && f) SENSIM_OK_OR_FAIL(sensim_csv_append(cg, f));
    while (sensim_sensor_poll(m, &f) == SENSIM_OK && f) SENSIM_OK_OR_FAIL(sensim_csv_append(cm, f));
  }
  SENSIM_OK_OR_FAIL(sensim_csv_close(cg));
  SENSIM_OK_OR_FAIL(sensim_csv_close(cm));
  sensim_world_destroy(w);
}

/* Copy a GNSS CSV, turning data row `row` into an outage: fix_type 0,
 * satellites 0, every other field but the time nan. */
static void make_outage_copy(const char *in, const char *out, int row) {
  FILE *fi = fopen(in, "rb"), *fo = fopen(out, "wb");
  assert_non_null(fi);
  assert_non_null(fo);
  char line[4096], header[4096];
  int n = -1;
  while (fgets(line, sizeof line, fi)) {
    if (n == -1) snprintf(header, sizeof header, "%s", line);
    if (n++ != row) {
      fputs(line, fo);
      continue;
    }
    char *save = NULL, *save2 = NULL, hcopy[4096];
    snprintf(hcopy, sizeof hcopy, "%s", header);
    char *col = strtok_r(hcopy, ",\n", &save);
    char *val = strtok_r(line, ",\n", &save2);
    for (int c = 0; col && val; c++) {
      const char *v = strcmp(col, "t_capture") == 0 ? val
                      : (strcmp(col, "fix_type") == 0 || strcmp(col, "satellites") == 0) ? "0"
                                                                                          : "nan";
      fprintf(fo, "%s%s", c ? "," : "", v);
      col = strtok_r(NULL, ",\n", &save);
      val = strtok_r(NULL, ",\n", &save2);
    }
    fputc('\n', fo);
  }
  fclose(fi);
  fclose(fo);
}

static void test_cli_ekf_judges_a_recorded_pair_and_rejects_bad_input(void **s) {
  (void)s;
  make_recording();
  const char *ok[] = {"ekf", TMP "/gnss.csv", TMP "/imu.csv", "--out", TMP "/run.csv", NULL};
  assert_int_equal(run_cli(ok), 0);
  log_contains("speed RMSE");
  sensim_vepd_run r;
  SENSIM_OK_OR_FAIL(sensim_vepd_run_read(TMP "/run.csv", &r));
  /* 35 Hz over [0, 4] s; truth is the exact 2 m/s of the GNSS velocity. */
  assert_int_equal(r.n, 141);
  sensim_vepd_run_metrics m;
  SENSIM_OK_OR_FAIL(sensim_vepd_run_metrics_compute(&r, &m));
  assert_true(m.rmse < 0.2);
  for (size_t i = 0; i < r.n; i++) assert_near(r.v_true[i], 2.0, 1e-9);
  sensim_vepd_run_free(&r);
  const char *rate[] = {"ekf", TMP "/gnss.csv", TMP "/imu.csv", "--out", TMP "/run10.csv",
                        "--rate", "10", NULL};
  assert_int_equal(run_cli(rate), 0);
  SENSIM_OK_OR_FAIL(sensim_vepd_run_read(TMP "/run10.csv", &r));
  assert_int_equal(r.n, 41);
  sensim_vepd_run_free(&r);

  /* An outage row as io/csv.c writes it (fix_type 0, nan position,
   * velocity and covariance) is skipped, not an error. */
  make_outage_copy(TMP "/gnss.csv", TMP "/gnss_outage.csv", 7);
  const char *outage[] = {"ekf", TMP "/gnss_outage.csv", TMP "/imu.csv", "--out",
                          TMP "/run_outage.csv", NULL};
  assert_int_equal(run_cli(outage), 0);
  SENSIM_OK_OR_FAIL(sensim_vepd_run_read(TMP "/run_outage.csv", &r));
  assert_int_equal(r.n, 141);
  sensim_vepd_run_free(&r);

  const char *noout[] = {"ekf", TMP "/gnss.csv", TMP "/imu.csv", NULL};
  assert_int_equal(run_cli(noout), 2);
  const char *badrate[] = {"ekf", TMP "/gnss.csv", TMP "/imu.csv", "--out", TMP "/x.csv",
                           "--rate", "0", NULL};
  assert_int_equal(run_cli(badrate), 2);
  const char *nanv[] = {"ekf", TMP "/gnss.csv", TMP "/imu.csv", "--out", TMP "/x.csv",
                        "--gnss-sigma", "nan", NULL};
  assert_int_equal(run_cli(nanv), 2);
  const char *missing[] = {"ekf", TMP "/nope.csv", TMP "/imu.csv", "--out", TMP "/x.csv", NULL};
  assert_int_equal(run_cli(missing), 1);
  /* Swapped files: the IMU CSV has no east column. */
  const char *swapped[] = {"ekf", TMP "/imu.csv", TMP "/gnss.csv", "--out", TMP "/x.csv", NULL};
  assert_int_equal(run_cli(swapped), 1);
  log_contains("no column 'east'");
  put(TMP "/imu_nan.csv", "t,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0,0,nan\n");
  const char *nanf[] = {"ekf", TMP "/gnss.csv", TMP "/imu_nan.csv", "--out", TMP "/x.csv", NULL};
  assert_int_equal(run_cli(nanf), 1);
  put(TMP "/imu_short.csv", "t,ax,ay,az,gx,gy,gz\n0,0,0,9.8,0\n");
  const char *shortf[] = {"ekf", TMP "/gnss.csv", TMP "/imu_short.csv", "--out", TMP "/x.csv",
                          NULL};
  assert_int_equal(run_cli(shortf), 1);
  assert_false(test_file_exists(TMP "/x.csv"));
}

static void test_cli_vepd_experiment_runs_tiny_and_rejects_bad_k(void **s) {
  (void)s;
  const char *ok[] = {"vepd-experiment", "--runs", "1", "--duration", "2", "--out",
                      TMP "/exp", NULL};
  assert_int_equal(run_cli(ok), 0);
  log_contains("gauss");
  log_contains("half_sine");
  assert_true(test_file_exists(TMP "/exp/vepd_table.csv"));
  /* Issue 28: sensim's columns and, beside them, the paper's block (its
   * tables could not be read, which the output says). */
  log_contains("W1 (m/s)         W2       VEPD");
  log_contains("beside the paper: I. Mahajan et al.");
  log_contains("not printed: its VEPD, W1 and W2 per noise model");
  log_contains("40 real-world experiments");
  log_contains("what differs: there 40 real drives");
  const char *k0[] = {"vepd-experiment", "--runs", "0", NULL};
  assert_int_equal(run_cli(k0), 2);
  const char *kneg[] = {"vepd-experiment", "--runs", "-3", NULL};
  assert_int_equal(run_cli(kneg), 2);
  const char *dur[] = {"vepd-experiment", "--duration", "nan", NULL};
  assert_int_equal(run_cli(dur), 2);
  const char *ref[] = {"vepd-experiment", "--reference", "no_such_model", NULL};
  assert_int_equal(run_cli(ref), 2);
  const char *both[] = {"vepd-experiment", "--reference", "gauss", "--real", TMP, NULL};
  assert_int_equal(run_cli(both), 2);
  const char *noreal[] = {"vepd-experiment", "--runs", "1", "--duration", "2", "--real",
                          TMP "/empty", NULL};
  assert_int_equal(run_cli(noreal), 1);
  /* Issue 28's flags: the paper's defaults are said, others are taken,
   * bad values are usage errors. */
  const char *flags[] = {"vepd-experiment", "--runs", "1", "--duration", "2", "--imu-rate", "200",
                         "--entropy", "fluctuation", "--pullback", "linear", NULL};
  assert_int_equal(run_cli(flags), 0);
  log_contains("IMU 200 Hz");
  log_contains("fluctuation bins");
  log_contains("the reference is simulated");
  const char *bad[][3] = {{"--imu-rate", "0", NULL},     {"--imu-rate", "600", NULL},
                          {"--entropy", "dc", NULL},     {"--pullback", "spring", NULL},
                          {"--entropy", NULL, NULL}};
  for (int i = 0; i < 5; i++) {
    const char *argv[] = {"vepd-experiment", bad[i][0], bad[i][1], NULL};
    assert_int_equal(run_cli(argv), 2);
  }
}

/* The numeric fields of vepd_table.csv's row for variant v, manoeuvre m
 * ("w1,w2,vepd,...") as text, into buf. */
static void table_row(const char *table, const char *v, const char *m, char *buf, size_t n) {
  char *text = test_slurp(table, NULL);
  char key[64];
  snprintf(key, sizeof key, "\n%s,%s,ok,", v, m);
  const char *row = strstr(text, key);
  if (!row) fail_msg("%s has no row %s,%s:\n%s", table, v, m, text);
  row += strlen(key);
  size_t k = strcspn(row, "\n");
  snprintf(buf, n, "%.*s", (int)k, row);
  free(text);
}

/* `vepd-experiment --out A` writes its runs where `--real` and `sensim
 * vepd` read them: the reference runs of A read back with --real give
 * B's table identical to A's (the same runs, the CSV round trip exact),
 * and `sensim vepd` on one manoeuvre's two folders prints that cell. */
static void test_cli_experiment_runs_feed_real_and_vepd(void **s) {
  (void)s;
  test_remove_tree(TMP "/feed_a");
  test_remove_tree(TMP "/feed_b");
  const char *a[] = {"vepd-experiment", "--runs", "2", "--duration", "2", "--out", TMP "/feed_a", NULL};
  assert_int_equal(run_cli(a), 0);
  assert_true(test_file_exists(TMP "/feed_a/runs/reference/circle/run_001.csv"));
  assert_true(test_file_exists(TMP "/feed_a/runs/hdop/half_sine/run_000.csv"));
  const char *b[] = {"vepd-experiment", "--runs", "2", "--duration", "2", "--real",
                     TMP "/feed_a/runs/reference", "--out", TMP "/feed_b", NULL};
  assert_int_equal(run_cli(b), 0);
  log_contains("VEPD against real runs in " TMP "/feed_a/runs/reference");
  char *ta = test_slurp(TMP "/feed_a/vepd_table.csv", NULL);
  char *tb = test_slurp(TMP "/feed_b/vepd_table.csv", NULL);
  assert_string_equal(ta, tb);
  assert_non_null(strstr(ta, "\nhdop,circle,ok,"));
  free(ta);
  free(tb);

  const char *one[] = {"vepd", TMP "/feed_a/runs/reference/circle", TMP "/feed_a/runs/hdop/circle", NULL};
  assert_int_equal(run_cli(one), 0);
  char row[512], line[64];
  table_row(TMP "/feed_a/vepd_table.csv", "hdop", "circle", row, sizeof row);
  /* w1,w2,vepd: the command prints each with %.9g as the table does. */
  char w1[32], w2[32], vepd[32];
  assert_int_equal(sscanf(row, "%31[^,],%31[^,],%31[^,]", w1, w2, vepd), 3);
  snprintf(line, sizeof line, "W1   %s ", w1);
  log_contains(line);
  snprintf(line, sizeof line, "W2   %s ", w2);
  log_contains(line);
  snprintf(line, sizeof line, "VEPD %s\n", vepd);
  log_contains(line);
}

int sensim_test_vepd_cli(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cli_vepd_scores_two_folders_and_rejects_bad_input),
      cmocka_unit_test(test_cli_ekf_judges_a_recorded_pair_and_rejects_bad_input),
      cmocka_unit_test(test_cli_vepd_experiment_runs_tiny_and_rejects_bad_k),
      cmocka_unit_test(test_cli_experiment_runs_feed_real_and_vepd),
  };
  return cmocka_run_group_tests_name("vepd_cli", tests, setup, NULL);
}
