/* cli/dataset_cmd.c: `sensim dataset`, labelled images (YOLO boxes from
 * the label plane, a content key per image) once per camera-stage ablation
 * variant (sensim_tools/dataset.h, docs/judge.md). Exit codes as main.c:
 * 0 success, 1 failure, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

enum { EXIT_FAILED = 1, MAX_CLASSES = 256 };

static const char usage_head[] =
    "usage: sensim dataset SCENARIO.json --out DIR [--camera NAME] [--frames N]\n"
    "                      [--variants NAME,...] [--classes ID,...] [--min-pixels N]\n"
    "                      [--threads N]\n"
    "  render the scenario once per camera-stage ablation variant and write,\n"
    "  per variant, the camera's images with YOLO labels from its label plane:\n"
    "    DIR/classes.txt                       YOLO class names, one per line\n"
    "    DIR/<variant>/images/frame_NNNNNN.png the images\n"
    "    DIR/<variant>/labels/frame_NNNNNN.txt 'class cx cy w h' per visible object\n"
    "    DIR/<variant>/content.csv             the content key: pose and time per image\n"
    "  variants (the ablation table, sensim ablate --help says what each changes):\n";

static const char usage_tail[] =
    "options:\n"
    "  --out DIR         output folder: missing or empty (nothing is overwritten)\n"
    "  --camera NAME     the camera (default: the file's first camera)\n"
    "  --frames N        images per variant, 1..1000000 (default: the file's duration)\n"
    "  --variants L      comma-separated variants (default: all)\n"
    "  --classes L       scenario class ids in YOLO class order, 1..65535\n"
    "                    (default: every class_id > 0 of the bodies, ascending)\n"
    "  --min-pixels N    fewest visible pixels of a labelled object, 1..100000000 [20]\n"
    "  --threads N       worker threads, 0..1024 (default: the file's)\n"
    "example:\n"
    "  sensim dataset examples/judge_cones.json --out out/cones --frames 200\n"
    "exit status: 0 success, 1 failure, 2 bad usage\n";

static void print_usage(FILE *fp) {
  fputs(usage_head, fp);
  for (int i = 0; i < SENSIM_ABLATE_COUNT; i++) fprintf(fp, "    %s\n", sensim_ablation_name((sensim_ablation)i));
  fputs(usage_tail, fp);
}

static int usage(const char *what, const char *arg) { return sensim__cli_usage("dataset", what, arg); }


/* Comma-separated class ids 1..65535, none repeated; -1 otherwise. */
static int parse_classes(const char *s, uint16_t *list, size_t *n) {
  *n = 0;
  char buf[2048];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    long v;
    if (sensim__cli_parse_long(tok, 1, 65535, &v) || *n >= MAX_CLASSES) return -1;
    for (size_t i = 0; i < *n; i++)
      if (list[i] == (uint16_t)v) return -1;
    list[(*n)++] = (uint16_t)v;
  }
  return *n ? 0 : -1;
}

int sensim__cli_dataset(int argc, char **argv) {
  const char *scenario = NULL, *out = NULL, *camera = NULL;
  long threads = -1, frames = 0, min_pixels = 20;
  sensim_ablation list[SENSIM_ABLATE_COUNT];
  uint16_t classes[MAX_CLASSES];
  size_t nlist = 0, nclasses = 0;
  static const char *const valued[] = {"--out",     "--threads",    "--frames", "--variants",
                                       "--classes", "--min-pixels", "--camera", NULL};
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (sensim__cli_is_help(a)) {
      print_usage(stdout);
      return 0;
    }
    int is_valued = 0;
    for (const char *const *k = valued; *k; k++) is_valued |= strcmp(a, *k) == 0;
    if (is_valued) {
      if (i + 1 >= argc) return usage("option needs a value:", a);
      const char *v = argv[++i];
      if (strcmp(a, "--out") == 0) {
        if (!*v) return usage("--out needs a non-empty folder", NULL);
        out = v;
      } else if (strcmp(a, "--camera") == 0) {
        if (!*v) return usage("--camera needs a non-empty name", NULL);
        camera = v;
      } else if (strcmp(a, "--threads") == 0) {
        if (sensim__cli_parse_long(v, 0, 1024, &threads)) return usage("--threads: expected an integer in 0..1024, got", v);
      } else if (strcmp(a, "--frames") == 0) {
        if (sensim__cli_parse_long(v, 1, 1000000, &frames)) return usage("--frames: expected an integer in 1..1000000, got", v);
      } else if (strcmp(a, "--min-pixels") == 0) {
        if (sensim__cli_parse_long(v, 1, 100000000, &min_pixels))
          return usage("--min-pixels: expected an integer in 1..100000000, got", v);
      } else if (strcmp(a, "--classes") == 0) {
        if (parse_classes(v, classes, &nclasses))
          return usage("--classes: expected distinct class ids in 1..65535, comma-separated, got", v);
      } else if (sensim__cli_parse_variants("dataset", v, list, &nlist)) {
        return usage("--variants: unknown or repeated variant in", v);
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      static const char *const known[] = {"--out",      "--threads", "--frames", "--variants", "--classes",
                                          "--min-pixels", "--camera", "--help",   NULL};
      return sensim__cli_unknown_option("dataset", a, known);
    } else if (!scenario) {
      scenario = a;
    } else {
      return usage("unexpected argument", a);
    }
  }
  if (!scenario) return usage("needs a scenario file", NULL);
  if (!out) return usage("--out DIR is required", NULL);
  sensim_dataset_options o;
  sensim_dataset_options_init(&o);
  o.threads = (int)threads;
  o.frames = (size_t)frames;
  o.camera = camera;
  o.min_pixels = (size_t)min_pixels;
  o.classes = nclasses ? classes : NULL;
  o.nclasses = nclasses;
  o.variants = nlist ? list : NULL;
  o.nvariants = nlist;
  o.log = stdout;
  sensim_status st = sensim_dataset_run(scenario, out, &o);
  if (st != SENSIM_OK) {
    fprintf(stderr, "sensim dataset: %s: %s (%s)\n", scenario, sensim_last_error(), sensim_status_str(st));
    return EXIT_FAILED;
  }
  printf("wrote %zu variants under %s\n", nlist ? nlist : (size_t)SENSIM_ABLATE_COUNT, out);
  return 0;
}
