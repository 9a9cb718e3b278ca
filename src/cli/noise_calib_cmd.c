/* cli/noise_calib_cmd.c: `sensim noise-calib`, the intensity-dependent
 * noise parameters (s1, s2) of sigma^2 = s1^2 I + s2^2 from a stack of
 * frames of a static scene (sensim_tools/noise_calib.h;
 * docs/camera_pipeline.md, "Noise calibration"): from a folder of PNG
 * frames, or from a scenario's own sensor. Exit codes as main.c: 0 success, 1 failure, 2 bad usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1 };

static const char help[] =
    "usage: sensim noise-calib DIR [--bins N] [--plot PLOT.png]\n"
    "       sensim noise-calib --scenario FILE --sensor NAME --frames N [--bins N]\n"
    "                          [--threads N] [--plot PLOT.png]\n"
    "  estimate s1, s2 of the noise model sigma^2 = s1^2 I + s2^2 from a stack\n"
    "  of frames of a static scene: every *.png in DIR (sorted by name, same\n"
    "  size, at least 2), or N frames of a scenario's sensor (every body without\n"
    "  a motion); prints s1, s2, their fit and the per-bin variances\n"
    "  (docs/camera_pipeline.md, \"Noise calibration\")\n"
    "arguments:\n"
    "  DIR              a folder of PNG frames\n"
    "options:\n"
    "  --bins N         intensity bins, 2..256 (default 32)\n"
    "  --scenario FILE  calibrate a sensor of this scenario file instead\n"
    "  --sensor NAME    that sensor (an image sensor)\n"
    "  --frames N       frames to capture, 2..1000000\n"
    "  --threads N      worker threads, 0..1024 (default: the file's)\n"
    "  --plot PLOT.png  also write the photon-transfer plot (variance against\n"
    "                   mean, and the fitted line)\n"
    "examples:\n"
    "  sensim noise-calib frames/ --bins 16\n"
    "  sensim noise-calib --scenario calib.json --sensor cam --frames 16\n"
    "exit status: 0 success, 1 unreadable or unusable frames, 2 bad usage\n";

static int usage(const char *what, const char *arg) { return sensim__cli_usage("noise-calib", what, arg); }

static void print_fit(const sensim_noise_fit *f, const char *source) {
  printf("noise calibration of %s: %zu frames of %zu values\n", source, f->nframes, f->nvalues);
  printf("s1 %.6g\n", f->s1);
  printf("s2 %.6g\n", f->s2);
  printf("a = s1^2 %.6g +- %.2g\n", f->a, f->a_std);
  printf("b = s2^2 %.6g +- %.2g\n", f->b, f->b_std);
  printf("fit: %zu bins, chi2/dof %.3g (near 1: the model fits), %zu outlier values left out\n",
         f->nbins_used, f->chi2_dof, f->nrejected);
  if (f->clamped & 1) printf("note: a < 0 clamped: s1 = 0 (no intensity-dependent noise found)\n");
  if (f->clamped & 2) printf("note: b < 0 clamped: s2 = 0 (no constant noise floor found)\n");
  if (f->quant_var > 0)
    printf("note: b includes quantisation noise LSB^2/12 = %.3g; without it s2 = %.6g\n",
           f->quant_var, f->b > f->quant_var ? sqrt(f->b - f->quant_var) : 0.0);
  printf("%-4s %-12s %-12s %-12s %-12s %s\n", "bin", "mean", "variance", "model", "std_err",
         "values");
  for (size_t j = 0; j < f->nbins_used; j++) {
    const sensim_noise_bin *b = &f->bins[j];
    printf("%-4zu %-12.6g %-12.6g %-12.6g %-12.3g %zu\n", j, b->mean, b->var, b->var_model,
           b->var_std, b->count);
  }
}

int sensim__cli_noise_calib(int argc, char **argv) {
  const char *dir = NULL, *scenario = NULL, *sensor = NULL, *plot = NULL;
  long frames = -1, bins = 0, threads = -1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--scenario") == 0 || strcmp(a, "--sensor") == 0 ||
        strcmp(a, "--frames") == 0 || strcmp(a, "--bins") == 0 || strcmp(a, "--threads") == 0 ||
        strcmp(a, "--plot") == 0) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      const char *v = argv[++i];
      if (strcmp(a, "--plot") == 0)
        plot = v;
      else if (strcmp(a, "--scenario") == 0)
        scenario = v;
      else if (strcmp(a, "--sensor") == 0)
        sensor = v;
      else if (strcmp(a, "--frames") == 0) {
        if (sensim__cli_parse_long(v, 2, 1000000, &frames) != 0)
          return usage("--frames: expected an integer in 2..1000000, got", v);
      } else if (strcmp(a, "--bins") == 0) {
        if (sensim__cli_parse_long(v, 2, SENSIM_NOISE_CALIB_MAX_BINS, &bins) != 0)
          return usage("--bins: expected an integer in 2..256, got", v);
      } else if (sensim__cli_parse_long(v, 0, 1024, &threads) != 0) {
        return usage("--threads: expected an integer in 0..1024, got", v);
      }
    } else if (sensim__cli_is_help(a)) {
      fputs(help, stdout);
      return 0;
    } else if (a[0] == '-' && a[1] != '\0') {
      static const char *const known[] = {"--scenario", "--sensor", "--frames", "--bins",
                                          "--threads", "--help", NULL};
      return sensim__cli_unknown_option("noise-calib", a, known);
    } else if (!dir) {
      dir = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (scenario) {
    if (dir) return usage("give a folder or --scenario, not both; unexpected", dir);
    if (!sensor) return usage("--scenario needs --sensor NAME", NULL);
    if (frames < 0) return usage("--scenario needs --frames N", NULL);
  } else {
    if (!dir)
      return usage("needs a folder of PNG frames, or --scenario FILE --sensor NAME --frames N",
                   NULL);
    if (sensor || frames >= 0 || threads >= 0)
      return usage("--sensor, --frames and --threads go with --scenario", NULL);
  }
  /* About 10 kB: kept off the stack. */
  sensim_noise_fit *fit = malloc(sizeof *fit);
  if (!fit) {
    fprintf(stderr, "sensim noise-calib: out of memory\n");
    return EXIT_FAILED;
  }
  sensim_status st;
  const char *source = scenario ? scenario : dir;
  if (scenario) {
    sensim_scenario_overrides ov = {(int)threads};
    sensim_scenario *scn = NULL;
    st = sensim_scenario_load_ex(scenario, &ov, &scn);
    if (st == SENSIM_OK) {
      st = sensim_noise_calib_scenario(scn, sensor, (size_t)frames, (size_t)bins, fit);
      sensim_scenario_destroy(scn);
    }
  } else {
    st = sensim_noise_calib_pngs(dir, (size_t)bins, fit);
  }
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim noise-calib: %s: %s (%s)\n", source, sensim_last_error(),
            sensim_status_str(st));
    free(fit);
    return EXIT_FAILED;
  }
  print_fit(fit, source);
  if (plot) {
    char title[256];
    snprintf(title, sizeof title, "photon transfer: %s", source);
    st = sensim_noise_calib_plot_png(fit, title, plot);
    if (st != SENSIM_OK) {
      fprintf(stderr, "sensim noise-calib: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
      free(fit);
      return EXIT_FAILED;
    }
    printf("photon-transfer plot: %s\n", plot);
  }
  free(fit);
  return 0;
}
