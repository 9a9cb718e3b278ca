/* cli/main.c: the `sensim` program: command-line parsing, `run` and the
 * summary printed after a run. `demo` lives in demo.c.
 *
 * Exit codes: 0 success, 1 the simulation failed (bad scenario, I/O error),
 * 2 bad usage. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* demo.c */
/* Shared with demo.c: progress line per simulated second and the summary. */

enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage:\n"
    "  sensim run SCENARIO.json --out DIR [--threads N]\n"
    "      load a scenario file (docs/scenario.md) and write every sensor's\n"
    "      frames under DIR/<sensor name>/\n"
    "  sensim demo --out DIR [--threads N] [--duration S]\n"
    "      a 1/6-scale vehicle lapping a coned stadium course with a camera,\n"
    "      a 16-channel lidar, a GNSS receiver and an IMU (10 s by default);\n"
    "      also writes DIR/lidar_birdseye.png\n"
    "  sensim noise-calib DIR [--bins N] [--plot PLOT.png]\n"
    "  sensim noise-calib --scenario FILE --sensor NAME --frames N [--bins N]\n"
    "                     [--threads N] [--plot PLOT.png]\n"
    "      estimate s1, s2 of the noise model sigma^2 = s1^2 I + s2^2 from a\n"
    "      stack of frames of a static scene: every *.png in DIR (sorted by\n"
    "      name, same size, at least 2), or N frames of a scenario's sensor;\n"
    "      prints s1, s2, their fit and the per-bin variances; --plot writes\n"
    "      the photon-transfer plot (variance against mean, and the fit)\n"
    "  sensim allan IMU.csv [--column NAME ...] [--out PLOT.png]\n"
    "      overlapping Allan deviation of a recorded IMU CSV, with the fitted\n"
    "      white-noise and random-walk lines, printed and plotted\n"
    "  sensim vepd REAL_DIR SIM_DIR [--per-run]\n"
    "      VEPD between two sets of velocity-estimation runs (docs/vepd.md)\n"
    "  sensim ekf GNSS.csv IMU.csv --out RUN.csv [--truth TRUTH.csv] [...]\n"
    "      the VEPD judge: an EKF's velocity estimates at 35 Hz\n"
    "  sensim vepd-experiment [--out DIR] [--runs K] [--duration S] [...]\n"
    "      the five GNSS variants on three manoeuvres, judged by the EKF\n"
    "  sensim ablate SCENARIO.json --out DIR [--threads N] [--frames N] [--variants L]\n"
    "      render a scenario once per camera stage removed (docs/ablation.md)\n"
    "  sensim augment IN_DIR OUT_DIR --stages S,... [--calib DIR] [--lens JSON] [...]\n"
    "      give existing images a camera's signature, stage by stage\n"
    "  sensim image-stats DIR_A DIR_B [--out PLOT.png] [--bins N]\n"
    "      per-channel statistics and histograms of two image sets, side by side\n"
    "  sensim contact-sheet DIR --out SHEET.png [--cols N] [--max N]\n"
    "  sensim preview-depth IN.png --out OUT.png [--max-range M]\n"
    "  sensim preview-labels IN.png --out OUT.png\n"
    "      camera frames on one page; depth and label images in colour\n"
    "  sensim COMMAND --help: each command's own options\n"
    "  sensim --help | --version\n"
    "\n"
    "options:\n"
    "  --out DIR      output folder (created if missing)\n"
    "  --threads N    worker threads, 0..1024 (0: run jobs on the calling thread);\n"
    "                 output is identical for every N\n"
    "  --duration S   demo only: simulated seconds, > 0 (default 10)\n"
    "  --bins N       noise-calib: intensity bins, 2..256 (default 32)\n"
    "\n"
    "exit status: 0 success, 1 simulation or I/O failure, 2 bad usage\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sensim: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'sensim --help'.\n");
  va_end(ap);
  return EXIT_USAGE;
}

void sensim__cli_progress(double t, double duration, void *user) {
  (void)user;
  fprintf(stderr, "sensim: t = %6.2f / %.2f s\n", t, duration);
}

void sensim__cli_print_summary(sensim_scenario *scn, const sensim_run_summary *sum) {
  sensim_world *w = sensim_scenario_world(scn);
  printf("%-20s %-10s %8s\n", "sensor", "payload", "frames");
  for (size_t i = 0; i < sum->sensors && i < 64; i++) {
    sensim_sensor *s = sensim_world_sensor(w, i);
    printf("%-20s %-10s %8llu\n", sensim_sensor_name(s),
           sensim_payload_name(sensim_sensor_output_type(s)),
           (unsigned long long)sum->frames[i]);
  }
  double rtf = sum->wall_time > 0 ? sum->sim_time / sum->wall_time : INFINITY;
  printf("simulated %.3f s in %.3f s wall time: real-time factor %.2f\n", sum->sim_time,
         sum->wall_time, rtf);
}

/* Options shared by run and demo; NULL/negative when not given. */
typedef struct cli_opts {
  const char *scenario;
  const char *out;
  int threads;
  double duration;
} cli_opts;

static int parse_int(const char *s, long lo, long hi, long *v) {
  char *end = NULL;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || end == s || *end || x < lo || x > hi) return -1;
  *v = x;
  return 0;
}

static int parse_opts(int argc, char **argv, int demo, cli_opts *o) {
  o->scenario = NULL;
  o->out = NULL;
  o->threads = -1;
  o->duration = -1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--out") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--duration") == 0) {
      if (!val) return usage_error("option '%s' needs a value", a);
      i++;
      if (strcmp(a, "--out") == 0) {
        if (!*val) return usage_error("--out needs a non-empty folder");
        o->out = val;
      } else if (strcmp(a, "--threads") == 0) {
        long n;
        if (parse_int(val, 0, 1024, &n) != 0)
          return usage_error("--threads '%s': expected an integer in 0..1024", val);
        o->threads = (int)n;
      } else {
        char *end = NULL;
        double d = strtod(val, &end);
        if (!demo) return usage_error("--duration is an option of 'demo' only");
        if (end == val || *end || !(d > 0) || !isfinite(d) || d > 1e6)
          return usage_error("--duration '%s': expected seconds > 0", val);
        o->duration = d;
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option '%s'", a);
    } else if (!demo && !o->scenario) {
      o->scenario = a;
    } else {
      return usage_error("unexpected argument '%s'", a);
    }
  }
  if (!demo && !o->scenario) return usage_error("'run' needs a scenario file");
  if (!o->out) return usage_error("--out DIR is required");
  return 0;
}

static int cmd_run(const cli_opts *o) {
  sensim_scenario_overrides ov = {o->threads};
  sensim_scenario *scn = NULL;
  sensim_status st = sensim_scenario_load_ex(o->scenario, &ov, &scn);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: %s: %s (%s)\n", o->scenario, sensim_last_error(),
            sensim_status_str(st));
    return EXIT_RUN_FAILED;
  }
  sensim_run_summary sum;
  st = sensim_scenario_run(scn, o->out, sensim__cli_progress, NULL, &sum);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim: %s: %s (%s)\n", o->scenario, sensim_last_error(),
            sensim_status_str(st));
    sensim_scenario_destroy(scn);
    return EXIT_RUN_FAILED;
  }
  sensim__cli_print_summary(scn, &sum);
  sensim_scenario_destroy(scn);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("sensim %d.%d.%d\n", SENSIM_VERSION_MAJOR, SENSIM_VERSION_MINOR, SENSIM_VERSION_PATCH);
    return 0;
  }
  if (strcmp(cmd, "noise-calib") == 0) {
    int rc = sensim__cli_noise_calib(argc, argv);
    if (rc < 0) fputs(usage_text, stdout);
    return rc < 0 ? 0 : rc;
  }
  static const struct {
    const char *name;
    sensim__cli_fn fn;
  } more[] = {{"allan", sensim__cli_allan},
              {"vepd", sensim__cli_vepd},
              {"ekf", sensim__cli_ekf},
              {"vepd-experiment", sensim__cli_vepd_experiment},
              {"ablate", sensim__cli_ablate},
              {"augment", sensim__cli_augment},
              {"image-stats", sensim__cli_image_stats},
              {"contact-sheet", sensim__cli_contact_sheet},
              {"preview-depth", sensim__cli_preview_depth},
              {"preview-labels", sensim__cli_preview_labels}};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
    if (strcmp(cmd, more[i].name) == 0) return more[i].fn(argc, argv);
  }
  int demo = strcmp(cmd, "demo") == 0;
  if (!demo && strcmp(cmd, "run") != 0) return usage_error("unknown command '%s'", cmd);
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
  cli_opts o;
  int rc = parse_opts(argc, argv, demo, &o);
  if (rc != 0) return rc;
  if (demo) return sensim__cli_demo(o.out, o.threads < 0 ? 2 : o.threads,
                                   o.duration > 0 ? o.duration : 10.0);
  return cmd_run(&o);
}
