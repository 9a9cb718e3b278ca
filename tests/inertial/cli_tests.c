/* tests/inertial/cli_tests.c: `sensim allan` (cli/allan_cmd.c) run as a
 * program on CSV files written here: its output, plot, exit codes and bad
 * input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "inertial/inertial_groups.h"
#include "filters/builtin.h"

/* Run the program with `args` (shell words); stdout into out; exit code. */
static int run_cli(const char *args, char *out, size_t cap) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' allan %s 2>/dev/null", SENSIM_CLI_PATH, args);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  int st = pclose(p);
  assert_true(WIFEXITED(st));
  return WEXITSTATUS(st);
}

static void path_in_tmp(char *buf, size_t n, const char *name) {
  sensim_mkdirs(SENSIM_TEST_TMP);
  snprintf(buf, n, "%s/%s", SENSIM_TEST_TMP, name);
}

/* A CSV in io/csv.c's IMU layout: 100 Hz, gyro x white noise of density
 * N (sample std N / sqrt(0.01)), the rest constant. */
static void write_imu_csv(const char *path, size_t n, double N, int uneven_at) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs("t,ax,ay,az,gx,gy,gz\n", fp);
  sensim_rng r;
  sensim_rng_init(&r, 17, 0, 0, 0);
  for (size_t k = 0; k < n; k++) {
    double t = (double)k / 100.0 + ((int)k >= uneven_at && uneven_at >= 0 ? 0.005 : 0.0);
    fprintf(fp, "%.17g,0,0,9.80665,%.17g,0.001,0\n", t, N / sqrt(0.01) * sensim_rng_normal(&r));
  }
  fclose(fp);
}

static void test_cli_allan_prints_adev_and_recovers_white_noise_n_and_writes_plot(void **st) {
  (void)st;
  /* 20000 samples of white noise with N = 3e-3: the N read off the slope
   * -1/2 line is within 5 delta of the truth, delta = 1 / sqrt(2 (n/m - 1))
   * at the fit's averaging factor (IEEE 952 C.3; m <= 3 here). */
  char csv[512], png[512], args[1200];
  static char out[65536];
  path_in_tmp(csv, sizeof csv, "white.csv");
  path_in_tmp(png, sizeof png, "white_adev.png");
  remove(png);
  write_imu_csv(csv, 20000, 3e-3, -1);
  snprintf(args, sizeof args, "'%s' --column gx --out '%s'", csv, png);
  assert_int_equal(run_cli(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "tau0 = 0.01 s"));
  const char *l = strstr(out, "gx: N = ");
  assert_non_null(l);
  double N = strtod(l + 8, NULL);
  assert_near(N / 3e-3, 1.0, 5.0 / sqrt(2.0 * (20000.0 / 3.0 - 1.0)));
  assert_non_null(strstr(out, "deg/sqrt(h)"));
  assert_null(strstr(out, "ax: N")); /* only the column asked for */
  sensim_image im;
  SENSIM_OK_OR_FAIL(sensim_read_png(png, &im));
  assert_int_equal(im.width, 800);
  assert_int_equal(im.height, 600);
  sensim_image_free(&im);
  /* Without --column: every column but t; constant ones have no line. */
  snprintf(args, sizeof args, "'%s'", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "ax: N not found"));
  assert_non_null(strstr(out, "gx: N = "));
}

static void test_cli_allan_exit_codes_for_bad_usage_and_bad_files(void **st) {
  (void)st;
  static char out[65536];
  char csv[512], bad[512], uneven[512], args[1200];
  path_in_tmp(csv, sizeof csv, "small.csv");
  path_in_tmp(bad, sizeof bad, "bad.csv");
  path_in_tmp(uneven, sizeof uneven, "uneven.csv");
  write_imu_csv(csv, 200, 1e-3, -1);
  write_imu_csv(uneven, 200, 1e-3, 100);
  FILE *fp = fopen(bad, "w");
  assert_non_null(fp);
  fputs("t,ax,ay,az,gx,gy,gz\n0,1,2,3,4,5,6\n0.01,1,2,x,4,5,6\n", fp);
  fclose(fp);
  assert_int_equal(run_cli("", out, sizeof out), 2);                     /* no file */
  assert_int_equal(run_cli("--help", out, sizeof out), 0);
  assert_non_null(strstr(out, "usage: sensim allan"));
  snprintf(args, sizeof args, "'%s' --bogus", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 2);                   /* unknown option */
  snprintf(args, sizeof args, "'%s' --column", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 2);                   /* missing value */
  snprintf(args, sizeof args, "'%s' --column mx", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 2);                   /* no such column */
  snprintf(args, sizeof args, "'%s' '%s'", csv, csv);
  assert_int_equal(run_cli(args, out, sizeof out), 2);                   /* two files */
  assert_int_equal(run_cli("/nonexistent/imu.csv", out, sizeof out), 1); /* missing file */
  snprintf(args, sizeof args, "'%s'", bad);
  assert_int_equal(run_cli(args, out, sizeof out), 1);                   /* not a number */
  snprintf(args, sizeof args, "'%s'", uneven);
  assert_int_equal(run_cli(args, out, sizeof out), 1);                   /* dropped frame */
  snprintf(args, sizeof args, "'%s' --out /nonexistent/dir/p.png", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 1);                   /* plot not writable */
  fp = fopen(bad, "w");
  fputs("t,gx\n0,1\n0.01,2\n", fp); /* 2 samples: too few */
  fclose(fp);
  snprintf(args, sizeof args, "'%s'", bad);
  assert_int_equal(run_cli(args, out, sizeof out), 1);
  fp = fopen(bad, "w");
  fclose(fp); /* empty */
  assert_int_equal(run_cli(args, out, sizeof out), 1);
}

static void test_cli_allan_reads_the_csv_writers_imu_layout(void **st) {
  (void)st;
  /* Frames written by sensim_csv_open / sensim_csv_append (io/csv.c), as
   * `sensim run` records an IMU, with gyro y white noise of density 2e-3
   * from "imu_noise": the command reads them and finds N = 2e-3 within
   * 5 delta (delta at m <= 10 for 10000 samples). */
  const sensim_builtin_filter *F = &sensim__filter_imu_noise;
  char csv[512], args[1200];
  static char out[65536];
  path_in_tmp(csv, sizeof csv, "writer.csv");
  cJSON *p = cJSON_Parse("{\"gyro_noise_density\": [0, 2e-3, 0], \"gyro_bias_walk\": 0,"
                         " \"accel_noise_density\": 0, \"accel_bias_walk\": 0}");
  void *u = NULL;
  SENSIM_OK_OR_FAIL(F->create(p, &u));
  cJSON_Delete(p);
  sensim_csv *w = NULL;
  SENSIM_OK_OR_FAIL(sensim_csv_open(csv, SENSIM_PAYLOAD_IMU, &w));
  for (int k = 0; k < 10000; k++) {
    sensim_frame f;
    sensim_imu_sample s;
    inertial_imu_frame(&f, &s, (uint64_t)k, 0.25 + k / 200.0, 1.0 / 200.0);
    memset(&s, 0, sizeof s);
    s.accel[2] = 9.80665;
    SENSIM_OK_OR_FAIL(inertial_apply(F, u, &f, 3, 0));
    SENSIM_OK_OR_FAIL(sensim_csv_append(w, &f));
  }
  SENSIM_OK_OR_FAIL(sensim_csv_close(w));
  F->def.destroy(u);
  snprintf(args, sizeof args, "'%s' --column gy --column az", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "tau0 = 0.005 s"));
  const char *l = strstr(out, "gy: N = ");
  assert_non_null(l);
  assert_near(strtod(l + 8, NULL) / 2e-3, 1.0, 5.0 / sqrt(2.0 * (10000.0 / 10.0 - 1.0)));
  assert_non_null(strstr(out, "az: N not found"));
}

/* 100 Hz gyro white noise of density N with the time column named
 * `tname`, written as t0 + k * 0.01 s in units of `unit_s` seconds. */
static void write_timed_csv(const char *path, const char *tname, double unit_s, double t0,
                            size_t n, double N) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fprintf(fp, "%s,gx\n", tname);
  sensim_rng r;
  sensim_rng_init(&r, 17, 0, 0, 0);
  for (size_t k = 0; k < n; k++)
    fprintf(fp, "%.17g,%.17g\n", t0 + (double)k * 0.01 / unit_s,
            N / sqrt(0.01) * sensim_rng_normal(&r));
  fclose(fp);
}

typedef struct unit_case {
  const char *tname;
  double unit_s, t0;
} unit_case;

static void test_cli_allan_reads_the_time_unit_from_the_header(void **st) {
  (void)st;
  /* The same samples with time in s, ms, us and ns (one as epoch
   * nanoseconds, whose doubles keep ~256 ns): every one gives tau0 =
   * 0.01 s and the same N, which an assumed unit of seconds would scale by
   * sqrt(1000) per step of unit (N is read at tau = 1 s). */
  static const unit_case cases[] = {
      {"t", 1.0, 0.0},          {"t_s", 1.0, 3.0},         {"t_ms", 1e-3, 0.0},
      {"time [ms]", 1e-3, 50.0}, {"t (us)", 1e-6, 0.0},   {"timestamp_ns", 1e-9, 1.7e18},
      {"t_capture", 1.0, 0.25},
  };
  static char out[65536];
  char csv[512], args[1200];
  path_in_tmp(csv, sizeof csv, "units.csv");
  double first_n = NAN;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_timed_csv(csv, cases[i].tname, cases[i].unit_s, cases[i].t0, 4000, 3e-3);
    snprintf(args, sizeof args, "'%s'", csv);
    if (run_cli(args, out, sizeof out) != 0) fail_msg("'%s' failed:\n%s", cases[i].tname, out);
    if (!strstr(out, "tau0 = 0.01 s")) fail_msg("'%s': wrong tau0:\n%.300s", cases[i].tname, out);
    const char *l = strstr(out, "gx: N = ");
    assert_non_null(l);
    double N = strtod(l + 8, NULL);
    if (isnan(first_n)) first_n = N;
    /* Epoch nanoseconds move tau0 by up to ~1e-7 relative: N agrees to 1e-6. */
    assert_near(N, first_n, 1e-6 * first_n);
  }
  /* A bracketed unit that is not one is refused, not guessed. */
  write_timed_csv(csv, "time [fortnights]", 1.0, 0.0, 100, 3e-3);
  snprintf(args, sizeof args, "'%s' 2>&1", csv);
  assert_int_equal(run_cli(args, out, sizeof out), 1);
}

int sensim_test_inertial_cli(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cli_allan_prints_adev_and_recovers_white_noise_n_and_writes_plot),
      cmocka_unit_test(test_cli_allan_exit_codes_for_bad_usage_and_bad_files),
      cmocka_unit_test(test_cli_allan_reads_the_csv_writers_imu_layout),
      cmocka_unit_test(test_cli_allan_reads_the_time_unit_from_the_header),
  };
  return cmocka_run_group_tests_name("inertial_cli", tests, NULL, NULL);
}
