/* cli/image_stats_cmd.c: `sensim image-stats`, per-channel statistics and
 * histograms of two image folders side by side (sensim_tools/image_stats.h,
 * docs/ablation.md). Exit codes as main.c: 0 success, 1 failure, 2 bad
 * usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1 };

static const char usage_text[] =
    "usage: sensim image-stats DIR_A DIR_B [--out PLOT.png] [--bins N]\n"
    "  per-channel mean, standard deviation, extremes and histogram of the\n"
    "  values of every *.png in each folder (as stored, scaled to [0, 1]),\n"
    "  side by side with their differences and the Wasserstein distance W1\n"
    "  of each channel; with --out, the histograms as one PNG plot (colour\n"
    "  sets: R, G and B side by side).\n"
    "options:\n"
    "  --out PATH   the plot file, written as given (and nothing else)\n"
    "  --bins N     histogram bins over [0, 1], 2..256 [64]\n"
    "example:\n"
    "  sensim image-stats real/ out/cart/camera/ --out stats.png\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

static int usage(const char *what, const char *arg) { return sensim__cli_usage("image-stats", what, arg); }

static int fail(const char *what, sensim_status st) {
  fprintf(stderr, "sensim image-stats: %s: %s (%s)\n", what, sensim_last_error(), sensim_status_str(st));
  return EXIT_FAILED;
}

int sensim__cli_image_stats(int argc, char **argv) {
  const char *dir[2] = {NULL, NULL}, *out = NULL;
  long bins = 64;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (sensim__cli_is_help(a)) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--out") == 0 || strcmp(a, "--bins") == 0) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      const char *v = argv[++i];
      if (strcmp(a, "--out") == 0) {
        if (!*v) return usage("--out needs a file name", NULL);
        out = v;
      } else {
        char *end = NULL;
        errno = 0;
        bins = strtol(v, &end, 10);
        if (errno || end == v || *end || bins < 2 || bins > SENSIM_IMAGE_STATS_MAX_BINS)
          return usage("--bins: expected an integer in 2..256, got", v);
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      static const char *const known[] = {"--out", "--bins", "--help", NULL};
      return sensim__cli_unknown_option("image-stats", a, known);
    } else if (!dir[0]) {
      dir[0] = a;
    } else if (!dir[1]) {
      dir[1] = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (!dir[1]) return usage("needs two folders of PNG images", NULL);
  /* About 12 kB each: kept off the stack. */
  sensim_image_set_stats *s = malloc(2 * sizeof *s);
  if (!s) {
    fprintf(stderr, "sensim image-stats: out of memory\n");
    return EXIT_FAILED;
  }
  int rc = 0;
  for (int k = 0; k < 2 && !rc; k++) {
    sensim_status st = sensim_image_set_stats_dir(dir[k], (size_t)bins, &s[k]);
    if (st) rc = fail(dir[k], st);
  }
  if (!rc) {
    sensim_status st = sensim_image_report_text(stdout, &s[0], dir[0], &s[1], dir[1]);
    if (st) rc = fail("report", st);
  }
  if (!rc && out) {
    sensim_status st = sensim_image_report_png(out, &s[0], dir[0], &s[1], dir[1]);
    if (st)
      rc = fail(out, st);
    else
      printf("plot written to %s\n", out);
  }
  free(s);
  return rc;
}
