/* cli/ablate_cmd.c: `sensim ablate`, a scenario rendered once per camera
 * stage removed (sensim_tools/ablate.h, docs/ablation.md). Exit codes as
 * main.c: 0 success, 1 failure, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1 };

static const char usage_text[] =
    "usage: sensim ablate SCENARIO.json --out DIR [--threads N] [--frames N]\n"
    "                     [--variants NAME,NAME,...]\n"
    "  render the scenario's cameras once per camera stage removed, each\n"
    "  variant under DIR/<variant>/<camera>/ with the same frame names:\n"
    "    baseline         the cameras as the file gives them\n"
    "    lens_pinhole     lens model -> pinhole with the same intrinsics\n"
    "    noise_off        image_noise, noise_intensity, noise_emva1288 removed\n"
    "    demosaic_off     cfa and demosaic removed\n"
    "    wb_ideal         white_balance -> fixed gains undoing the sensor's qe cast\n"
    "    exposure_fixed   auto_exposure removed\n"
    "    supersampling_1  samples -> 1\n"
    "    lens_pinhole_fov lens -> pinhole of the same field of view\n"
    "    lighting_flat    lights -> a uniform sky as bright as they made level ground\n"
    "    fov_lighting     lens_pinhole_fov and lighting_flat together\n"
    "    reflections_off  max_bounces -> 0: no mirror reflections (a mirroring floor)\n"
    "    light_single     one light kept (the brightest directional one), others removed\n"
    "    lens_fov         lens -> the FOV lens model of the same horizontal field\n"
    "  sensors other than cameras are left out. Then a summary: each variant's\n"
    "  W1 of pixel values to the baseline beside the camera component study's\n"
    "  component and what it says of it (its own numbers could not be read).\n"
    "options:\n"
    "  --out DIR       output folder (created if missing)\n"
    "  --threads N     worker threads, 0..1024 (default: the file's)\n"
    "  --frames N      frames per camera, 1..1000000 (default: the file's duration)\n"
    "  --variants L    comma-separated variants to render (default: all)\n"
    "example:\n"
    "  sensim ablate examples/ablation.json --out out/ablation --variants baseline,noise_off\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

static int usage(const char *what, const char *arg) { return sensim__cli_usage("ablate", what, arg); }


int sensim__cli_ablate(int argc, char **argv) {
  const char *scenario = NULL, *out = NULL;
  long threads = -1, frames = 0;
  sensim_ablation list[SENSIM_ABLATE_COUNT];
  size_t nlist = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (sensim__cli_is_help(a)) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--out") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--frames") == 0 ||
        strcmp(a, "--variants") == 0) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      const char *v = argv[++i];
      if (strcmp(a, "--out") == 0) {
        if (!*v) return usage("--out needs a non-empty folder", NULL);
        out = v;
      } else if (strcmp(a, "--threads") == 0) {
        if (sensim__cli_parse_long(v, 0, 1024, &threads)) return usage("--threads: expected an integer in 0..1024, got", v);
      } else if (strcmp(a, "--frames") == 0) {
        if (sensim__cli_parse_long(v, 1, 1000000, &frames)) return usage("--frames: expected an integer in 1..1000000, got", v);
      } else if (sensim__cli_parse_variants("ablate", v, list, &nlist)) {
        return usage("--variants: unknown or repeated variant in", v);
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      static const char *const known[] = {"--out", "--threads", "--frames", "--variants", "--help", NULL};
      return sensim__cli_unknown_option("ablate", a, known);
    } else if (!scenario) {
      scenario = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (!scenario) return usage("needs a scenario file", NULL);
  if (!out) return usage("--out DIR is required", NULL);
  sensim_ablate_options o;
  sensim_ablate_options_init(&o);
  o.threads = (int)threads;
  o.frames = (size_t)frames;
  o.variants = nlist ? list : NULL;
  o.nvariants = nlist;
  o.log = stdout;
  sensim_status st = sensim_ablate_run(scenario, out, &o);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim ablate: %s: %s (%s)\n", scenario, sensim_last_error(), sensim_status_str(st));
    return EXIT_FAILED;
  }
  printf("wrote %zu variants under %s\n", nlist ? nlist : (size_t)SENSIM_ABLATE_COUNT, out);
  /* Issue 28: sensim's own number per variant beside the study's. */
  st = sensim_ablate_summary(stdout, out, nlist ? list : NULL, nlist);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim ablate: summary: %s (%s)\n", sensim_last_error(), sensim_status_str(st));
    return EXIT_FAILED;
  }
  return 0;
}
