/* cli/preview_cmd.c: `sensim preview-depth` and `sensim preview-labels`,
 * colourised pictures of a camera's depth and label PNGs
 * (sensim_tools/preview.h). Exit codes as main.c: 0 success, 1 failure,
 * 2 bad usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1 };

static const char depth_usage[] =
    "usage: sensim preview-depth IN.png --out OUT.png [--max-range M] [--min-range M]\n"
    "  a depth image as sensim writes it (16-bit grey, millimetres) through the\n"
    "  viridis colour map, with a colour bar in metres; black: no return.\n"
    "options:\n"
    "  --out PATH        the preview (PNG)\n"
    "  --max-range M     depth of the map's last colour, m [80]\n"
    "  --min-range M     depth of its first colour, m [0]\n"
    "example:\n"
    "  sensim preview-depth out/depth/frame_000012.png --out depth.png --max-range 40\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

static const char labels_usage[] =
    "usage: sensim preview-labels IN.png --out OUT.png\n"
    "  a label image as sensim writes it (16-bit grey class ids) with a distinct\n"
    "  colour per class and a legend of the classes present; black: class 0.\n"
    "options:\n"
    "  --out PATH        the preview (PNG)\n"
    "example:\n"
    "  sensim preview-labels out/labels/frame_000012.png --out labels.png\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

static int usage(const char *cmd, const char *what, const char *arg) { return sensim__cli_usage(cmd, what, arg); }

static int parse_metres(const char *s, double *v) {
  char *end = NULL;
  double x = strtod(s, &end);
  if (end == s || *end || !isfinite(x) || x < 0.0 || x > 1e6) return -1;
  *v = x;
  return 0;
}

/* Both commands: IN.png --out OUT.png, and for depth the two ranges. */
static int run(int argc, char **argv, int depth) {
  const char *cmd = argv[1], *in = NULL, *out = NULL;
  sensim_depth_preview_params p;
  sensim_depth_preview_params_init(&p);
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(depth ? depth_usage : labels_usage, stdout);
      return 0;
    }
    int ranged = depth && (strcmp(a, "--max-range") == 0 || strcmp(a, "--min-range") == 0);
    if (strcmp(a, "--out") == 0 || ranged) {
      if (i + 1 >= argc) return usage(cmd, "option needs a value:", a);
      const char *v = argv[++i];
      if (!ranged) {
        if (!*v) return usage(cmd, "--out needs a file name", NULL);
        out = v;
      } else if (parse_metres(v, strcmp(a, "--max-range") == 0 ? &p.max_range : &p.min_range) != 0) {
        return usage(cmd, "expected metres >= 0 after", a);
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage(cmd, "unknown option", a);
    } else if (!in) {
      in = a;
    } else {
      return usage(cmd, "unexpected argument", a);
    }
  }
  if (!in) return usage(cmd, depth ? "needs a depth PNG" : "needs a label PNG", NULL);
  if (!out) return usage(cmd, "--out OUT.png is required", NULL);
  if (depth && !(p.max_range > p.min_range)) return usage(cmd, "--max-range must exceed --min-range", NULL);
  sensim_status st = depth ? sensim_depth_preview_png(in, &p, out) : sensim_label_preview_png(in, out);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim %s: %s (%s)\n", cmd, sensim_last_error(), sensim_status_str(st));
    return EXIT_FAILED;
  }
  printf("%s preview of %s: %s\n", depth ? "depth" : "label", in, out);
  return 0;
}

int sensim__cli_preview_depth(int argc, char **argv) { return run(argc, argv, 1); }

int sensim__cli_preview_labels(int argc, char **argv) { return run(argc, argv, 0); }
