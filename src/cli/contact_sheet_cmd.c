/* cli/contact_sheet_cmd.c: `sensim contact-sheet`, a folder of camera
 * frames on one page (sensim_tools/contact_sheet.h). Exit codes as main.c:
 * 0 success, 1 failure, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1 };

static const char usage_text[] =
    "usage: sensim contact-sheet DIR --out SHEET.png [--cols N] [--max N] [--cell-width PX]\n"
    "                            [--title TEXT]\n"
    "  a grid of the *.png frames of DIR (in name order), each scaled into its\n"
    "  cell and captioned with its index and file name; with more frames than\n"
    "  --max, that many spread evenly from the first to the last.\n"
    "options:\n"
    "  --out PATH         the sheet (PNG)\n"
    "  --cols N           columns, 1..256 [about square]\n"
    "  --max N            most frames shown, 0 for all [64]\n"
    "  --cell-width PX    width of each frame's cell, 16..2048 [240]\n"
    "  --title TEXT       heading [the folder]\n"
    "example:\n"
    "  sensim contact-sheet out/demo/camera --out sheet.png --cols 5 --max 20\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

static int usage(const char *what, const char *arg) { return sensim__cli_usage("contact-sheet", what, arg); }

int sensim__cli_contact_sheet(int argc, char **argv) {
  sensim_contact_sheet_params p;
  sensim_contact_sheet_params_init(&p);
  const char *dir = NULL, *out = NULL;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--out") == 0 || strcmp(a, "--cols") == 0 || strcmp(a, "--max") == 0 ||
        strcmp(a, "--cell-width") == 0 || strcmp(a, "--title") == 0) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      const char *v = argv[++i];
      long n = 0;
      if (strcmp(a, "--out") == 0) {
        if (!*v) return usage("--out needs a file name", NULL);
        out = v;
      } else if (strcmp(a, "--title") == 0) {
        p.title = v;
      } else if (strcmp(a, "--cols") == 0) {
        if (sensim__cli_parse_long(v, 1, 256, &n) != 0) return usage("--cols: expected 1..256, got", v);
        p.cols = (int)n;
      } else if (strcmp(a, "--max") == 0) {
        if (sensim__cli_parse_long(v, 0, 100000, &n) != 0) return usage("--max: expected 0..100000, got", v);
        p.max_frames = (size_t)n;
      } else {
        if (sensim__cli_parse_long(v, 16, 2048, &n) != 0)
          return usage("--cell-width: expected 16..2048, got", v);
        p.cell_width = (int)n;
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage("unknown option", a);
    } else if (!dir) {
      dir = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (!dir) return usage("needs a folder of PNG frames", NULL);
  if (!out) return usage("--out SHEET.png is required", NULL);
  sensim_contact_sheet_info info;
  sensim_status st = sensim_contact_sheet_write_png(dir, &p, out, &info);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim contact-sheet: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    return EXIT_FAILED;
  }
  printf("contact sheet: %s: %zu of %zu frames, %d x %d cells, %d x %d px\n", out, info.frames,
         info.files, info.cols, info.rows, info.width, info.height);
  return 0;
}
