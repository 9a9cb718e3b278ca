/* tests/cli/cli.c: the `sensim` program, run as a child process.
 *
 * The determinism requirement (DESIGN.md, "Randomness and determinism"):
 * the same scenario gives byte-identical output files for any thread
 * count. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sensim_tools/noise_calib.h>
#include "support/run_cli.h"
#include "support/testutil.h"

#define TMP SENSIM_TEST_TMP "/cli"
#define EXAMPLES SENSIM_TEST_DATA "/../../examples"
#define LOG TMP "/log.txt"

/* The program with args, its output in LOG (support/run_cli.h). */
static int run_cli(const char *const *args) { return test_run_cli(LOG, args); }

static void assert_log_contains(const char *what) {
  char *log = test_slurp_if(LOG, NULL);
  assert_non_null(log);
  if (!strstr(log, what)) fail_msg("output lacks '%s':\n%s", what, log);
  free(log);
}

/* Every file under a (relative name rel) also exists under b with the same
 * bytes; returns the number of files compared. */
static size_t compare_trees(const char *a, const char *b, const char *rel) {
  char pa[1024], pb[1024];
  snprintf(pa, sizeof pa, "%s%s", a, rel);
  snprintf(pb, sizeof pb, "%s%s", b, rel);
  DIR *d = opendir(pa);
  if (!d) {
    size_t na, nb;
    char *x = test_slurp_if(pa, &na), *y = test_slurp_if(pb, &nb);
    if (!y) fail_msg("%s exists but %s does not", pa, pb);
    if (na != nb || memcmp(x, y, na) != 0) fail_msg("%s and %s differ", pa, pb);
    free(x);
    free(y);
    return 1;
  }
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char r[1024];
    snprintf(r, sizeof r, "%s/%s", rel, e->d_name);
    n += compare_trees(a, b, r);
  }
  closedir(d);
  return n;
}

static int setup(void **state) {
  (void)state;
  test_remove_tree(TMP);
  return sensim_mkdirs(TMP) == SENSIM_OK ? 0 : -1;
}

static void test_demo_output_is_identical_for_1_and_2_threads(void **state) {
  (void)state;
  const char *a1[] = {"demo", "--out", TMP "/demo_t1", "--threads", "1", "--duration", "1", NULL};
  const char *a2[] = {"demo", "--out", TMP "/demo_t2", "--threads", "2", "--duration", "1", NULL};
  assert_int_equal(run_cli(a1), 0);
  assert_log_contains("real-time factor");
  assert_int_equal(run_cli(a2), 0);
  const char *expect[] = {"/camera/frame_000000.png", "/camera/frame_000009.png",
                          "/lidar/scan_000000.pcd", "/lidar/scan_000009.pcd",
                          "/gnss/gnss.csv", "/imu/imu.csv", "/lidar_birdseye.png"};
  for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
    char p[512];
    snprintf(p, sizeof p, "%s%s", TMP "/demo_t1", expect[i]);
    if (!test_file_exists(p)) fail_msg("demo did not write %s", p);
  }
  /* Both ways round, so neither folder has a file the other lacks. */
  size_t n1 = compare_trees(TMP "/demo_t1", TMP "/demo_t2", "");
  size_t n2 = compare_trees(TMP "/demo_t2", TMP "/demo_t1", "");
  assert_int_equal(n1, n2);
  assert_true(n1 >= 2 * 10 + 3);
  /* 1 s of IMU at 100 Hz with the demo's 2 ms lag: samples captured at 0,
   * 0.01, ..., 0.99 are delivered by t = 1 (the one at 1.0 is due at 1.002),
   * plus the header. */
  size_t len;
  char *imu = test_slurp_if(TMP "/demo_t1/imu/imu.csv", &len);
  int lines = 0;
  for (size_t i = 0; i < len; i++) lines += imu[i] == '\n';
  assert_int_equal(lines, 101);
  free(imu);
}

static void test_run_writes_an_example_scenario(void **state) {
  (void)state;
  const char *args[] = {"run", EXAMPLES "/cart.json", "--out", TMP "/cart", "--threads", "0",
                        NULL};
  assert_int_equal(run_cli(args), 0);
  assert_log_contains("lidar");
  assert_true(test_file_exists(TMP "/cart/lidar/scan_000000.pcd"));
  assert_true(test_file_exists(TMP "/cart/imu/imu.csv"));
  assert_true(test_file_exists(TMP "/cart/gnss/gnss.csv"));
}

typedef struct usage_case {
  const char *args[10];
  const char *message;
} usage_case;

static void test_bad_usage_exits_2_with_a_message(void **state) {
  (void)state;
  static const usage_case cases[] = {
      {{NULL}, "usage"},
      {{"frobnicate", NULL}, "unknown command 'frobnicate'"},
      {{"demo", NULL}, "--out DIR is required"},
      {{"demo", "--out", NULL}, "needs a value"},
      {{"demo", "--out", TMP "/x", "--threads", "many", NULL}, "--threads 'many'"},
      {{"demo", "--out", TMP "/x", "--threads", "-3", NULL}, "--threads '-3'"},
      {{"demo", "--out", TMP "/x", "--duration", "0", NULL}, "--duration '0'"},
      {{"demo", "--out", TMP "/x", "--bogus", NULL}, "unknown option '--bogus'"},
      {{"run", "--out", TMP "/x", NULL}, "needs a scenario file"},
      {{"run", "a.json", "b.json", "--out", TMP "/x", NULL}, "unexpected argument 'b.json'"},
      {{"run", "a.json", "--out", TMP "/x", "--duration", "2", NULL}, "only"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = run_cli(cases[i].args);
    if (rc != 2) fail_msg("case %zu exited %d, expected 2", i, rc);
    assert_log_contains(cases[i].message);
  }
  assert_false(test_file_exists(TMP "/x"));
}

static void test_run_failures_exit_1_naming_the_problem(void **state) {
  (void)state;
  const char *missing[] = {"run", TMP "/no_such.json", "--out", TMP "/y", NULL};
  assert_int_equal(run_cli(missing), 1);
  assert_log_contains("no_such.json");
  const char *bad[] = {"run", SENSIM_TEST_DATA "/bad_rate.json", "--out", TMP "/y", NULL};
  assert_int_equal(run_cli(bad), 1);
  assert_log_contains("sensors[1].rate: must be > 0");
  /* An output folder that cannot be created. */
  FILE *fp = fopen(TMP "/file", "w");
  assert_non_null(fp);
  fclose(fp);
  const char *unwritable[] = {"demo", "--out", TMP "/file/out", "--duration", "0.1", NULL};
  assert_int_equal(run_cli(unwritable), 1);
  assert_log_contains("file/out");
}

static void test_help_and_version_exit_0(void **state) {
  (void)state;
  const char *help[] = {"--help", NULL};
  assert_int_equal(run_cli(help), 0);
  assert_log_contains("commands:");
  const char *demo_help[] = {"demo", "--help", NULL};
  assert_int_equal(run_cli(demo_help), 0);
  assert_log_contains("usage: sensim demo --out DIR");
  const char *version[] = {"--version", NULL};
  assert_int_equal(run_cli(version), 0);
  assert_log_contains("sensim 0.");
}

/* ---- noise-calib ------------------------------------------------------------ */

/* The value printed on the line starting with `key` (e.g. "s1 "). */
static double printed_value(const char *key) {
  char *log = test_slurp_if(LOG, NULL);
  assert_non_null(log);
  double v = NAN;
  for (char *line = log; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
    if (strncmp(line, key, strlen(key)) == 0) {
      v = strtod(line + strlen(key), NULL);
      break;
    }
  if (isnan(v)) fail_msg("no line starting with '%s' in:\n%s", key, log);
  free(log);
  return v;
}

/* Twelve 8-bit grey frames of a ramp with noise of variance a I + b. */
static void write_noisy_frames(const char *dir, int nframes) {
  enum { W = 64, H = 48 };
  SENSIM_OK_OR_FAIL(sensim_mkdirs(dir));
  uint8_t px[W * H];
  for (int k = 0; k < nframes; k++) {
    sensim_rng r;
    sensim_rng_init(&r, 3, 0, (uint64_t)k, 0);
    for (int i = 0; i < W * H; i++) {
      double I = 0.1 + 0.8 * i / (W * H - 1.0);
      double v = I + sqrt(4e-4 * I + 1e-4) * sensim_rng_normal(&r);
      v = floor(v * 255 + 0.5);
      px[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    sensim_frame f;
    memset(&f, 0, sizeof f);
    f.type = SENSIM_PAYLOAD_GRAY8, f.width = W, f.height = H, f.count = W * H, f.data = px;
    char path[512];
    snprintf(path, sizeof path, "%s/f%02d.png", dir, k);
    SENSIM_OK_OR_FAIL(sensim_write_png(path, &f));
  }
}

/* `sensim noise-calib DIR` prints the library's fit of that folder. */
static void test_noise_calib_folder_prints_the_library_fit(void **state) {
  (void)state;
  write_noisy_frames(TMP "/frames", 12);
  const char *args[] = {"noise-calib", TMP "/frames", "--bins", "16", NULL};
  assert_int_equal(run_cli(args), 0);
  sensim_noise_fit f;
  SENSIM_OK_OR_FAIL(sensim_noise_calib_pngs(TMP "/frames", 16, &f));
  assert_near(printed_value("s1 "), f.s1, 1e-5 * f.s1); /* printed with 6 digits */
  assert_near(printed_value("s2 "), f.s2, 1e-5 * f.s2); /* printed with 6 digits */
  assert_log_contains("12 frames of 3072 values");
  assert_log_contains("fit: 16 bins");
  assert_log_contains("quantisation");
}

/* `sensim noise-calib --scenario` calibrates the scenario's own camera:
 * with "image_noise" of sigma 0.04 it prints the library's fit, whose s2
 * is sigma. */
static void test_noise_calib_scenario_prints_the_library_fit(void **state) {
  (void)state;
  const char *json =
      "{\"world\": {\"seed\": 4, \"threads\": 1}, \"duration\": 1, \"step\": 0.01,"
      " \"meshes\": [{\"name\": \"floor\", \"shape\": {\"kind\": \"plane\", \"size\": [40, 40, 1]}}],"
      " \"lights\": [{\"kind\": \"point\", \"position\": [0.5, 0, 1.5], \"intensity\": 4}],"
      " \"bodies\": [{\"name\": \"floor\", \"mesh\": \"floor\"}],"
      " \"sensors\": [{\"name\": \"cam\", \"type\": \"camera\", \"rate\": 20,"
      "   \"mount\": {\"position\": [0, 0, 2], \"rpy\": [0, 1.5707963267948966, 0]},"
      "   \"width\": 32, \"height\": 24, \"samples\": 16,"
      "   \"filters\": [{\"name\": \"image_noise\", \"params\": {\"sigma\": 0.04}}]}]}";
  FILE *fp = fopen(TMP "/calib.json", "w");
  assert_non_null(fp);
  fputs(json, fp);
  fclose(fp);
  const char *args[] = {"noise-calib", "--scenario", TMP "/calib.json", "--sensor", "cam",
                        "--frames", "16", "--threads", "2", NULL};
  assert_int_equal(run_cli(args), 0);
  sensim_scenario *scn = NULL;
  SENSIM_OK_OR_FAIL(sensim_scenario_load(TMP "/calib.json", &scn));
  sensim_noise_fit f;
  SENSIM_OK_OR_FAIL(sensim_noise_calib_scenario(scn, "cam", 16, 0, &f));
  sensim_scenario_destroy(scn);
  assert_near(printed_value("s2 "), f.s2, 1e-5 * f.s2); /* printed with 6 digits */
  assert_near(printed_value("b = s2^2 "), f.b, 1e-5 * f.b); /* printed with 6 digits */
  assert_near(f.b, 0.04 * 0.04, 5 * f.b_std);
  assert_log_contains("16 frames of 2304 values");
}

typedef struct calib_case {
  const char *args[10];
  int code;
  const char *message;
} calib_case;

static void test_noise_calib_bad_use_and_bad_data(void **state) {
  (void)state;
  write_noisy_frames(TMP "/single", 1);
  static const calib_case cases[] = {
      {{"noise-calib", NULL}, 2, "needs a folder"},
      {{"noise-calib", "a", "b", NULL}, 2, "unexpected argument 'b'"},
      {{"noise-calib", "a", "--bins", "1", NULL}, 2, "--bins"},
      {{"noise-calib", "a", "--frames", "8", NULL}, 2, "go with --scenario"},
      {{"noise-calib", "--scenario", "s.json", "--frames", "8", NULL}, 2, "--sensor"},
      {{"noise-calib", "--scenario", "s.json", "--sensor", "cam", NULL}, 2, "--frames"},
      {{"noise-calib", "--scenario", "s.json", "--sensor", "cam", "--frames", "1", NULL}, 2,
       "--frames"},
      {{"noise-calib", "a", "--wat", NULL}, 2, "unknown option '--wat'"},
      {{"noise-calib", TMP "/no_such_folder", NULL}, 1, "no_such_folder"},
      {{"noise-calib", TMP "/single", NULL}, 1, "at least 2"},
      {{"noise-calib", "--scenario", TMP "/calib.json", "--sensor", "lidar", "--frames", "4",
        NULL},
       1, "no sensor 'lidar'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = run_cli(cases[i].args);
    if (rc != cases[i].code) fail_msg("case %zu exited %d, expected %d", i, rc, cases[i].code);
    assert_log_contains(cases[i].message);
  }
  const char *help[] = {"noise-calib", "--help", NULL};
  assert_int_equal(run_cli(help), 0);
  assert_log_contains("sensim noise-calib DIR");
}

int sensim_test_cli(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_demo_output_is_identical_for_1_and_2_threads),
      cmocka_unit_test(test_run_writes_an_example_scenario),
      cmocka_unit_test(test_bad_usage_exits_2_with_a_message),
      cmocka_unit_test(test_run_failures_exit_1_naming_the_problem),
      cmocka_unit_test(test_help_and_version_exit_0),
      cmocka_unit_test(test_noise_calib_folder_prints_the_library_fit),
      cmocka_unit_test(test_noise_calib_scenario_prints_the_library_fit),
      cmocka_unit_test(test_noise_calib_bad_use_and_bad_data),
  };
  return cmocka_run_group_tests_name("cli", tests, setup, NULL);
}
